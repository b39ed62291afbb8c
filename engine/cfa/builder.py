"""Translate a pycparser AST into one CFA per function.

Expressions become side-effect free: calls, ``++``, compound assignment, the comma
operator, assignments inside conditions, ``?:`` and short-circuit ``&&``/``||`` turn into
edges and temporaries. Every edge carries the source range of the construct it came from.
A construct cbam does not model makes its function *unsupported* (with the reason and
location) without stopping the other functions from being built.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager

from pycparser import c_ast

from ..frontend.errors import Diagnostic, Range, Unsupported
from ..frontend.srcmap import Spans
from .cfa import CFANode, ErrorInfo, FunctionCFA, Program, VarInfo
from .ctype import (
    ArrayType,
    CType,
    DataModel,
    FloatType,
    FunctionType,
    IntType,
    PointerType,
    StructType,
    VoidType,
)
from .ir import (
    AbortEdge,
    AddrOf,
    AssignEdge,
    AssumeEdge,
    Binary,
    BlankEdge,
    CallEdge,
    Cast,
    Const,
    DeclEdge,
    Deref,
    Edge,
    Expr,
    ExternalCallEdge,
    FuncRef,
    Index,
    Member,
    Nondet,
    ReturnEdge,
    StrLit,
    Unary,
    Var,
    is_lvalue,
    lvalue_root,
)
from .reuse import FunctionEffects, FunctionReuse
from .semantics import eval_binary, eval_cast, eval_unary

START_FUNCTION = "__cbam_start"

ERROR_FUNCTIONS = {"reach_error", "__VERIFIER_error"}
ASSERT_FAIL_FUNCTIONS = {"__assert_fail", "__assert_perror_fail", "__assert", "__assert_rtn"}
ABORT_FUNCTIONS = {"abort", "exit", "_Exit", "_exit", "__builtin_abort", "__builtin_trap",
                   "__builtin_unreachable", "pthread_exit", "quick_exit"}
# Functions from cbam's stand-in headers: they never write the program's own globals.
LIBC_PURE = {
    "printf", "fprintf", "sprintf", "snprintf", "scanf", "sscanf", "puts", "fputs", "putchar",
    "getchar", "fflush", "fopen", "fclose", "fgets", "fgetc", "fputc", "perror", "malloc", "calloc",
    "realloc", "free", "abs", "labs", "llabs", "atoi", "atol", "strtol", "strtoul", "rand", "srand",
    "getenv", "memset", "memcpy", "memmove", "memcmp", "strlen", "strcmp", "strncmp", "strcpy",
    "strncpy", "strcat", "strchr", "strrchr", "strstr", "strdup",
}
NONDET_PREFIX = "__VERIFIER_nondet_"


class _Scope:
    def __init__(self, parent: _Scope | None):
        self.parent = parent
        self.vars: dict[str, str] = {}
        self.typedefs: dict[str, CType] = {}
        self.enums: dict[str, int] = {}
        self.tags: dict[str, StructType] = {}

    def lookup(self, attr: str, name: str):
        s: _Scope | None = self
        while s is not None:
            table = getattr(s, attr)
            if name in table:
                return table[name]
            s = s.parent
        return None


class ProgramBuilder:
    """Builds a :class:`Program` from a parsed translation unit."""

    def __init__(self, ast: c_ast.FileAST, spans: Spans, dm: DataModel, main_file: str, entry: str = "main",
                 reuse: FunctionReuse | None = None):
        self.ast = ast
        self.reuse = reuse
        self.spans = spans
        self.dm = dm
        self.main_file = main_file
        self.entry = entry
        self.vars: dict[str, VarInfo] = {}
        self.structs: dict[str, list[tuple[str, CType]]] = {}
        self.global_scope = _Scope(None)
        self.func_types: dict[str, FunctionType] = {}
        self.func_defs: dict[str, c_ast.FuncDef] = {}
        self.declared: dict[str, Range | None] = {}
        self.diagnostics: list[Diagnostic] = []
        self.static_inits: list[tuple[Var, c_ast.Decl, _Scope]] = []
        self._anon = 0
        self._file_lines: dict[str, list[str] | None] = {}
        # What building one function did to the program, so that a reused build can redo it.
        self._new_vars: list[str] = []
        self._addressed: list[str] = []
        self._implicit: list[tuple[str, Range | None]] = []

    # ---- source text -----------------------------------------------------
    def source_text(self, rng: Range | None) -> str:
        if rng is None:
            return ""
        lines = self._file_lines.get(rng.file)
        if rng.file not in self._file_lines:
            text = self.spans.sm._read(rng.file)
            lines = text.split("\n") if text is not None else None
            self._file_lines[rng.file] = lines
        if not lines or rng.line > len(lines):
            return ""
        if rng.line == rng.end_line:
            return lines[rng.line - 1][rng.col - 1:rng.end_col - 1]
        parts = [lines[rng.line - 1][rng.col - 1:]]
        parts += lines[rng.line:rng.end_line - 1]
        if rng.end_line <= len(lines):
            parts.append(lines[rng.end_line - 1][:rng.end_col - 1])
        return " ".join(p.strip() for p in parts)

    def range(self, node: c_ast.Node | None) -> Range | None:
        return self.spans.range(node)

    # ---- types -----------------------------------------------------------
    def new_anon(self, prefix: str) -> str:
        self._anon += 1
        return f"{prefix}{self._anon}"

    def resolve_type(self, node: c_ast.Node, scope: _Scope, where: c_ast.Node | None = None) -> CType:
        if isinstance(node, c_ast.TypeDecl):
            return self.resolve_type(node.type, scope, where or node)
        if isinstance(node, c_ast.Typename):
            return self.resolve_type(node.type, scope, where or node)
        if isinstance(node, c_ast.PtrDecl):
            return self.dm.pointer(self.resolve_type(node.type, scope, where))
        if isinstance(node, c_ast.ArrayDecl):
            elem = self.resolve_type(node.type, scope, where)
            size = None
            if node.dim is not None:
                size = self.const_int(node.dim, scope)
            return ArrayType(elem, size)
        if isinstance(node, c_ast.FuncDecl):
            ret = self.resolve_type(node.type, scope, where)
            params: list[CType] = []
            variadic = False
            unproto = node.args is None
            if node.args is not None:
                for p in node.args.params:
                    if isinstance(p, c_ast.EllipsisParam):
                        variadic = True
                        continue
                    if isinstance(p, c_ast.ID):  # K&R identifier list
                        params.append(self.dm.int)
                        continue
                    pt = self.resolve_type(p.type, scope, p)
                    if isinstance(pt, VoidType):
                        continue
                    params.append(self.adjust_param(pt))
            return FunctionType(ret, tuple(params), variadic, unproto)
        if isinstance(node, c_ast.IdentifierType):
            return self.resolve_names(node.names, scope, where or node)
        if isinstance(node, (c_ast.Struct, c_ast.Union)):
            return self.struct_type(node, scope)
        if isinstance(node, c_ast.Enum):
            return self.enum_type(node, scope)
        raise Unsupported(f"type {type(node).__name__}", self.range(where or node))

    def adjust_param(self, t: CType) -> CType:
        if isinstance(t, ArrayType):
            return self.dm.pointer(t.elem)
        if isinstance(t, FunctionType):
            return self.dm.pointer(t)
        return t

    def resolve_names(self, names: list[str], scope: _Scope, where: c_ast.Node) -> CType:
        dm = self.dm
        words = [n for n in names if n not in ("const", "volatile", "register", "auto", "static", "extern", "inline")]
        if len(words) == 1 and words[0] not in ("int", "char", "short", "long", "signed", "unsigned", "_Bool",
                                                 "void", "float", "double"):
            name = words[0]
            if name == "__cbam_int128":
                return dm.int128
            td = scope.lookup("typedefs", name)
            if td is None:
                raise Unsupported(f"unknown type name '{name}'", self.range(where))
            return td
        s = set(words)
        if "float" in s or "double" in s or "_Complex" in s:
            raise Unsupported("floating-point types", self.range(where))
        if "void" in s:
            return dm.void
        if "_Bool" in s:
            return dm.bool
        unsigned = "unsigned" in s
        if "char" in s:
            return dm.uchar if unsigned else (dm.schar if "signed" in s else dm.char)
        if "short" in s:
            return dm.ushort if unsigned else dm.short
        longs = words.count("long")
        if longs >= 2:
            return dm.ullong if unsigned else dm.llong
        if longs == 1:
            return dm.ulong if unsigned else dm.long
        if "__cbam_int128" in s:
            return dm.uint128 if unsigned else dm.int128
        return dm.uint if unsigned else dm.int

    def struct_type(self, node: c_ast.Struct | c_ast.Union, scope: _Scope) -> StructType:
        union = isinstance(node, c_ast.Union)
        if node.name is None:
            st = StructType(self.new_anon("__anon"), union)
        else:
            existing = scope.lookup("tags", node.name)
            if node.decls is None:
                if existing is not None:
                    return existing
                st = StructType(node.name, union)
                scope.tags[node.name] = st
                return st
            if existing is not None and existing.key() not in self.structs:
                st = existing  # completes a forward declaration
            else:
                tag = node.name
                while StructType(tag, union).key() in self.structs:
                    tag = self.new_anon(f"{node.name}.")
                st = StructType(tag, union)
            scope.tags[node.name] = st  # before the members: they may point back to it
        if node.decls is not None:
            fields: list[tuple[str, CType]] = []
            for d in node.decls:
                if d.bitsize is not None:
                    raise Unsupported("bit-fields", self.range(d))
                ft = self.resolve_type(d.type, scope, d)
                fields.append((d.name or self.new_anon("__anon"), ft))
            self.structs[st.key()] = fields
        return st

    def enum_type(self, node: c_ast.Enum, scope: _Scope) -> CType:
        if node.values is not None:
            val = -1
            values = []
            for e in node.values.enumerators:
                val = self.const_int(e.value, scope) if e.value is not None else val + 1
                scope.enums[e.name] = val
                values.append(val)
            t = self.dm.uint if values and min(values) >= 0 else self.dm.int
            if node.name:
                scope.typedefs[f"enum {node.name}"] = t
            return t
        if node.name:
            t = scope.lookup("typedefs", f"enum {node.name}")
            if t is not None:
                return t
        return self.dm.uint

    def const_int(self, node: c_ast.Node, scope: _Scope) -> int:
        fb = FunctionBuilder(self, None, scope, const_only=True)
        e = fb.expr(node)
        if not isinstance(e, Const):
            raise Unsupported("a non-constant expression where C requires a constant", self.range(node))
        return e.value

    # ---- the translation unit ------------------------------------------
    def build(self) -> Program:
        start = FunctionBuilder(self, START_FUNCTION, self.global_scope)
        global_edges_builder = start
        funcdefs: list[c_ast.FuncDef] = []
        # First pass: declarations in order, so types and globals are known before bodies.
        for ext in self.ast.ext:
            if isinstance(ext, c_ast.FuncDef):
                self.declare_function(ext.decl, definition=True)
                funcdefs.append(ext)
                self.func_defs[ext.decl.name] = ext
            elif isinstance(ext, c_ast.Decl):
                try:
                    global_edges_builder.global_decl(ext)
                except Unsupported as u:
                    start.unsupported = start.unsupported or (u.what, u.where)
                    self.report(u)
            elif isinstance(ext, c_ast.Typedef):
                try:
                    self.global_scope.typedefs[ext.name] = self.resolve_type(ext.type, self.global_scope, ext)
                except Unsupported as u:
                    # A typedef of an unsupported type only matters where it is used.
                    self.global_scope.typedefs[ext.name] = FloatType(f"unsupported:{u.what}")
            elif isinstance(ext, c_ast.Pragma | c_ast.StaticAssert) or ext is None:
                continue
        functions: dict[str, FunctionCFA] = {}
        for fd in funcdefs:
            name = fd.decl.name
            if name in functions:
                continue
            reused = self.reuse.prebuilt(fd) if self.reuse is not None else None
            if reused is not None:
                functions[name] = reused[0]
                self.redo(reused[1])
                continue
            mark = self._mark()
            fb = FunctionBuilder(self, name, self.global_scope)
            functions[name] = fb.build_function(fd)
            if self.reuse is not None:
                effects = self._effects_since(mark, name)
                if effects is not None:
                    self.reuse.built(fd, functions[name], effects)
        for name in functions:
            self.declared.pop(name, None)
        if self.entry not in functions:
            start.unsupported = start.unsupported or (f"entry function '{self.entry}' is not defined", None)
        start_cfa = start.finish_start(self.entry, functions)
        program = Program(self.dm, functions, self.vars, self.structs, start_cfa, self.entry, self.main_file,
                          self.diagnostics, self.declared, func_types=dict(self.func_types))
        return program

    def declare_function(self, decl: c_ast.Decl, definition: bool = False) -> None:
        try:
            ft = self.resolve_type(decl.type, self.global_scope, decl)
        except Unsupported:
            ft = FunctionType(FloatType("unsupported"), ())
        if isinstance(ft, FunctionType):
            old = self.func_types.get(decl.name)
            if old is None or (old.unprototyped and not ft.unprototyped) or definition:
                self.func_types[decl.name] = ft
            if not definition and decl.name not in self.func_defs:
                self.declared.setdefault(decl.name, self.range(decl))

    def _mark(self) -> tuple[tuple[int, int, int, int], tuple[int, int, int, int]]:
        """Where the effect logs end, and the size of the program state a reusable build
        must not touch."""
        logs = (len(self._new_vars), len(self._addressed), len(self._implicit), len(self.diagnostics))
        state = (len(self.static_inits), self._anon, len(self.structs), len(self.func_types))
        return logs, state

    def _effects_since(self, mark: tuple[tuple[int, int, int, int], tuple[int, int, int, int]],
                       function: str) -> FunctionEffects | None:
        """What building ``function`` changed outside its CFA, or None when it touched the
        program's own state (static locals, new struct types, new globals): such a build is
        not reused."""
        (n_vars, n_addressed, n_implicit, n_diags), state = mark
        if self._mark()[1] != state:
            return None
        new_vars = [self.vars[n] for n in self._new_vars[n_vars:]]
        if any(v.function != function for v in new_vars):
            return None
        own = {v.name for v in new_vars}
        addressed = [n for n in dict.fromkeys(self._addressed[n_addressed:]) if n not in own]
        return FunctionEffects(new_vars, addressed, self._implicit[n_implicit:], self.diagnostics[n_diags:])

    def redo(self, effects: FunctionEffects) -> None:
        for info in effects.vars:
            self.vars.setdefault(info.name, info)
        for name in effects.addressed:
            if name in self.vars:
                self.vars[name].addressed = True
        for name, rng in effects.implicit:
            self.declared.setdefault(name, rng)
        self.diagnostics.extend(effects.diagnostics)

    def report(self, u: Unsupported) -> None:
        rng = u.where
        if rng is not None:
            self.diagnostics.append(Diagnostic.at(rng, "warning", f"unsupported: {u.what}"))
        else:
            self.diagnostics.append(Diagnostic("warning", f"unsupported: {u.what}", self.main_file))

    def new_var(self, name: str, t: CType, function: str | None, **kw) -> Var:
        if name not in self.vars:
            self.vars[name] = VarInfo(name, t, function, **kw)
            self._new_vars.append(name)
        return Var(name, t)


class FunctionBuilder:
    """Builds one function's CFA (or the synthetic start function)."""

    def __init__(self, pb: ProgramBuilder, name: str | None, scope: _Scope, const_only: bool = False):
        self.pb = pb
        self.dm = pb.dm
        self.name = name or "<const>"
        self.const_only = const_only
        self.scope = _Scope(scope) if name not in (None, START_FUNCTION) else scope
        self.nodes: list[CFANode] = []
        self.entry = self.new_node()
        self.exit = self.new_node()
        self.cur: CFANode | None = self.entry
        self.temps = 0
        self.labels: dict[str, CFANode] = {}
        self.break_stack: list[CFANode] = []
        self.continue_stack: list[CFANode] = []
        self.switch_cases: list[dict[int, CFANode]] = []
        self.local_names: dict[str, int] = {}
        self.return_type: CType = self.dm.void
        self.result_var: Var | None = None
        self.calls: set[str] = set()
        self.unsupported: tuple[str, Range | None] | None = None
        self.context_range: Range | None = None

    # ---- nodes and edges -------------------------------------------------
    def new_node(self) -> CFANode:
        n = CFANode(self.name, len(self.nodes))
        self.nodes.append(n)
        return n

    def link(self, edge: Edge) -> Edge:
        edge.pred.out.append(edge)
        edge.succ.inn.append(edge)
        if edge.range is not None and not edge.text:
            edge.text = self.pb.source_text(edge.range)
        elif edge.range is None:
            # Joins, loop back edges and jumps belong to the statement being built.
            edge.range = self.context_range
        return edge

    def here(self) -> CFANode:
        if self.cur is None:  # dead code: keep building on a node nothing reaches
            self.cur = self.new_node()
        return self.cur

    def emit(self, cls, node: c_ast.Node | None = None, rng: Range | None = None, **kw) -> Edge:
        if self.const_only:
            raise Unsupported("side effects in a constant expression", rng or self.pb.range(node))
        src = self.here()
        dst = self.new_node()
        edge = self.link(cls(pred=src, succ=dst, range=rng if rng is not None else self.pb.range(node), **kw))
        self.cur = dst
        return edge

    def goto(self, target: CFANode, node: c_ast.Node | None = None, label: str = "") -> None:
        if self.cur is not None:
            self.link(BlankEdge(pred=self.cur, succ=target, range=self.pb.range(node) if node else None, label=label))
        self.cur = None

    def new_temp(self, t: CType, rng: Range | None = None) -> Var:
        self.temps += 1
        name = f"{self.name}::__t{self.temps}"
        return self.pb.new_var(name, t, self.name, is_temp=True, range=rng)

    # ---- expressions: typing helpers --------------------------------------
    def convert(self, e: Expr, t: CType) -> Expr:
        if e.type == t or isinstance(t, VoidType):
            return e
        if isinstance(e, Const) and isinstance(t, IntType):
            v = eval_cast(e.value, t)
            if v is not None:
                return Const(v, t)
        if isinstance(e.type, FloatType) or isinstance(t, FloatType):
            raise Unsupported("floating-point arithmetic", None)
        return Cast(e, t)

    def rvalue(self, e: Expr) -> Expr:
        """Array-to-pointer and function-to-pointer decay."""
        if isinstance(e.type, ArrayType):
            return AddrOf(Index(e, Const(0, self.dm.int), e.type.elem), self.dm.pointer(e.type.elem))
        if isinstance(e.type, FunctionType) and isinstance(e, FuncRef):
            return e
        return e

    def promote(self, e: Expr) -> Expr:
        return self.convert(e, self.dm.promote(e.type))

    def binary(self, op: str, lhs: Expr, rhs: Expr, node: c_ast.Node | None) -> Expr:
        dm = self.dm
        left, r = self.rvalue(lhs), self.rvalue(rhs)
        for side in (left, r):
            if isinstance(side.type, FloatType):
                raise Unsupported("floating-point arithmetic", self.pb.range(node))
            if isinstance(side.type, StructType):
                raise Unsupported("arithmetic on a struct value", self.pb.range(node))
        lp, rp = isinstance(left.type, PointerType), isinstance(r.type, PointerType)
        if op in ("<<", ">>"):
            left, r = self.promote(left), self.promote(r)
            return self.fold(Binary(op, left, r, left.type))
        if op in ("==", "!=", "<", ">", "<=", ">="):
            if lp or rp:
                if not lp:
                    left = Cast(left, r.type)
                if not rp:
                    r = Cast(r, left.type)
                return Binary(op, left, r, dm.int)
            ct = dm.usual_arithmetic(left.type, r.type)
            return self.fold(Binary(op, self.convert(left, ct), self.convert(r, ct), dm.int))
        if op in ("+", "-") and (lp or rp):
            if lp and rp and op == "-":
                return Binary("-", left, r, dm.ptrdiff_t)
            if rp and op == "+":
                left, r = r, left
            return Binary(op, left, self.convert(r, dm.ptrdiff_t), left.type)
        if lp or rp:
            raise Unsupported(f"operator {op} on pointers", self.pb.range(node))
        ct = dm.usual_arithmetic(left.type, r.type)
        return self.fold(Binary(op, self.convert(left, ct), self.convert(r, ct), ct))

    def fold(self, e: Expr) -> Expr:
        if isinstance(e, Binary) and isinstance(e.left, Const) and isinstance(e.right, Const):
            v = eval_binary(e.op, e.left.value, e.right.value, e.left.type, e.type)
            if v is not None:
                return Const(v, e.type)
        if isinstance(e, Unary) and isinstance(e.arg, Const):
            v = eval_unary(e.op, e.arg.value, e.arg.type)
            if v is not None:
                return Const(v, e.type)
        return e

    def truth(self, e: Expr) -> Expr:
        """A condition as an int-valued expression (comparisons stay as they are)."""
        e = self.rvalue(e)
        if isinstance(e.type, StructType):
            raise Unsupported("a struct used as a condition", None)
        return e

    # ---- expressions ------------------------------------------------------
    def expr(self, node: c_ast.Node, want: bool = True) -> Expr:
        rng = self.pb.range(node)
        try:
            return self._expr(node, want)
        except Unsupported as u:
            if u.where is None:
                raise Unsupported(u.what, rng) from None
            raise

    def _expr(self, node: c_ast.Node, want: bool) -> Expr:
        dm = self.dm
        if isinstance(node, c_ast.Constant):
            return self.constant(node)
        if isinstance(node, c_ast.ID):
            return self.identifier(node)
        if isinstance(node, c_ast.BinaryOp):
            if node.op in ("&&", "||"):
                return self.logical_value(node)
            left = self.expr(node.left)
            right = self.expr(node.right)
            return self.binary(node.op, left, right, node)
        if isinstance(node, c_ast.UnaryOp):
            return self.unary(node, want)
        if isinstance(node, c_ast.Cast):
            t = self.pb.resolve_type(node.to_type, self.scope, node)
            e = self.rvalue(self.expr(node.expr))
            if isinstance(t, VoidType):
                return Const(0, dm.int)
            if isinstance(t, FloatType):
                raise Unsupported("floating-point types", self.pb.range(node))
            if isinstance(t, IntType) and isinstance(e.type, IntType):
                return self.convert(e, t)
            return Cast(e, t)
        if isinstance(node, c_ast.Assignment):
            return self.assignment(node, want)
        if isinstance(node, c_ast.FuncCall):
            return self.call(node, want)
        if isinstance(node, c_ast.TernaryOp):
            return self.ternary(node, want)
        if isinstance(node, c_ast.ExprList):
            last: Expr = Const(0, dm.int)
            for i, sub in enumerate(node.exprs):
                last = self.expr(sub, want if i == len(node.exprs) - 1 else False)
            return last
        if isinstance(node, c_ast.StructRef):
            base = self.expr(node.name)
            if node.type == "->":
                base = self.rvalue(base)
                if not isinstance(base.type, PointerType):
                    raise Unsupported("'->' on a non-pointer", self.pb.range(node))
                base = Deref(base, base.type.target)
            return Member(base, node.field.name, self.field_type(base.type, node.field.name, node))
        if isinstance(node, c_ast.ArrayRef):
            base = self.expr(node.name)
            idx = self.rvalue(self.expr(node.subscript))
            if isinstance(idx.type, ArrayType | PointerType) and isinstance(base.type, IntType):
                base, idx = idx, base
            if isinstance(base.type, ArrayType):
                return Index(base, self.convert(idx, dm.ptrdiff_t), base.type.elem)
            base = self.rvalue(base)
            if isinstance(base.type, PointerType):
                ptr = self.binary("+", base, idx, node)
                return Deref(ptr, base.type.target)
            raise Unsupported("subscript of a non-array", self.pb.range(node))
        if isinstance(node, c_ast.Compound):  # GNU statement expression
            return self.statement_expression(node, want)
        if isinstance(node, c_ast.Typename):
            raise Unsupported("a type name in expression position", self.pb.range(node))
        if isinstance(node, c_ast.CompoundLiteral):
            raise Unsupported("compound literals", self.pb.range(node))
        if isinstance(node, c_ast.InitList):
            raise Unsupported("an initializer list in expression position", self.pb.range(node))
        raise Unsupported(f"expression {type(node).__name__}", self.pb.range(node))

    def constant(self, node: c_ast.Constant) -> Expr:
        dm = self.dm
        text = node.value
        if node.type == "string" or text.startswith('"') or text.startswith('L"'):
            return StrLit(text, dm.pointer(dm.char))
        if node.type == "char" or text.endswith("'"):
            return Const(parse_char(text, dm), dm.int)
        if re.fullmatch(r"(0[xX][0-9a-fA-F]+|[0-9]+)([uUlL]*)", text) is None:
            raise Unsupported("floating-point constants", self.pb.range(node))
        m = re.fullmatch(r"(0[xX][0-9a-fA-F]+|[0-9]+)([uUlL]*)", text)
        assert m is not None
        digits, suffix = m.group(1), m.group(2).lower()
        decimal = not (digits.startswith("0x") or digits.startswith("0X") or (digits.startswith("0") and len(digits) > 1))
        value = int(digits, 0) if not (digits.startswith("0") and len(digits) > 1 and digits[1] not in "xX") else int(digits, 8)
        u = "u" in suffix
        longs = suffix.count("l")
        cands: list[IntType]
        if longs == 0:
            cands = [dm.int, dm.long, dm.llong] if decimal else [dm.int, dm.uint, dm.long, dm.ulong, dm.llong, dm.ullong]
        elif longs == 1:
            cands = [dm.long, dm.llong] if decimal else [dm.long, dm.ulong, dm.llong, dm.ullong]
        else:
            cands = [dm.llong] if decimal else [dm.llong, dm.ullong]
        if u:
            cands = [dm.unsigned_of(c) for c in cands]
            cands = list(dict.fromkeys(cands))
        for c in cands:
            if c.contains(value):
                return Const(value, c)
        if dm.ullong.contains(value):
            return Const(value, dm.ullong)
        raise Unsupported("an integer constant too large for any type", self.pb.range(node))

    def identifier(self, node: c_ast.ID) -> Expr:
        name = node.name
        if name == "__func__":
            return StrLit(f'"{self.name}"', self.dm.pointer(self.dm.char))
        vid = self.scope.lookup("vars", name)
        if vid is not None:
            info = self.pb.vars[vid]
            if isinstance(info.type, FloatType):
                raise Unsupported("floating-point variables", self.pb.range(node))
            return Var(vid, info.type)
        ev = self.scope.lookup("enums", name)
        if ev is not None:
            return Const(ev, self.dm.int)
        if name in self.pb.func_types or name in self.pb.func_defs:
            ft = self.pb.func_types.get(name) or FunctionType(self.dm.int, (), unprototyped=True)
            return FuncRef(name, ft)
        raise Unsupported(f"use of undeclared identifier '{name}'", self.pb.range(node))

    def field_type(self, t: CType, fieldname: str, node: c_ast.Node) -> CType:
        if not isinstance(t, StructType):
            raise Unsupported("member access on a non-struct", self.pb.range(node))
        fields = self.pb.structs.get(t.key())
        if fields is None:
            raise Unsupported(f"incomplete type {t}", self.pb.range(node))
        for fname, ftype in fields:
            if fname == fieldname:
                if isinstance(ftype, FloatType):
                    raise Unsupported("floating-point members", self.pb.range(node))
                return ftype
        # Members of anonymous struct/union members are reached through them.
        for fname, ftype in fields:
            if isinstance(ftype, StructType) and fname.startswith("__anon"):
                try:
                    return self.field_type(ftype, fieldname, node)
                except Unsupported:
                    continue
        raise Unsupported(f"no member '{fieldname}' in {t}", self.pb.range(node))

    def unary(self, node: c_ast.UnaryOp, want: bool) -> Expr:
        dm = self.dm
        op = node.op
        if op == "sizeof" or op == "_Alignof":
            if isinstance(node.expr, c_ast.Typename):
                t = self.pb.resolve_type(node.expr, self.scope, node)
            else:
                t = self.type_of(node.expr)
            size = dm.sizeof(t, self.pb.structs) if op == "sizeof" else dm.alignof(t, self.pb.structs)
            if size is None:
                raise Unsupported(f"{op} of an incomplete type", self.pb.range(node))
            return Const(size, dm.size_t)
        if op in ("++", "--", "p++", "p--"):
            lv = self.lvalue(node.expr)
            one = Const(1, dm.int)
            new = self.binary("+" if "+" in op else "-", lv, one, node)
            if op.startswith("p") and want:
                old = self.new_temp(lv.type, self.pb.range(node))
                self.emit(AssignEdge, node, lhs=old, rhs=lv)
                self.emit(AssignEdge, node, lhs=lv, rhs=self.convert(new, lv.type))
                return old
            self.emit(AssignEdge, node, lhs=lv, rhs=self.convert(new, lv.type))
            return lv
        if op == "&":
            if isinstance(node.expr, c_ast.ID) and self.scope.lookup("vars", node.expr.name) is None:
                f = self.identifier(node.expr)
                if isinstance(f, FuncRef):
                    return f
            lv = self.lvalue(node.expr)
            root = lvalue_root(lv)
            if root is not None and root.name in self.pb.vars:
                self.pb.vars[root.name].addressed = True
                self.pb._addressed.append(root.name)
            return AddrOf(lv, dm.pointer(lv.type))
        if op == "*":
            p = self.rvalue(self.expr(node.expr))
            if isinstance(p, FuncRef):
                return p
            if not isinstance(p.type, PointerType):
                raise Unsupported("dereference of a non-pointer", self.pb.range(node))
            if isinstance(p.type.target, FunctionType):
                return p
            if isinstance(p.type.target, VoidType):
                raise Unsupported("dereference of void *", self.pb.range(node))
            return Deref(p, p.type.target)
        e = self.rvalue(self.expr(node.expr))
        if isinstance(e.type, FloatType):
            raise Unsupported("floating-point arithmetic", self.pb.range(node))
        if op == "!":
            return self.fold(Unary("!", e, dm.int))
        if op in ("-", "~", "+"):
            if not isinstance(e.type, IntType):
                raise Unsupported(f"unary {op} on a non-integer", self.pb.range(node))
            e = self.promote(e)
            return e if op == "+" else self.fold(Unary(op, e, e.type))
        raise Unsupported(f"unary operator {op}", self.pb.range(node))

    def type_of(self, node: c_ast.Node) -> CType:
        """The type of an expression without emitting its side effects (sizeof does not evaluate):
        the expression is built on a throw-away builder."""
        probe = FunctionBuilder(self.pb, self.name, self.scope)
        probe.scope = self.scope
        probe.temps = 10_000  # its temporaries must not collide with this function's
        return probe.expr(node).type

    def lvalue(self, node: c_ast.Node) -> Expr:
        e = self.expr(node)
        if not is_lvalue(e):
            raise Unsupported("assignment to a non-lvalue", self.pb.range(node))
        return e

    def assignment(self, node: c_ast.Assignment, want: bool) -> Expr:
        lv = self.lvalue(node.lvalue)
        if isinstance(lv.type, ArrayType):
            raise Unsupported("assignment to an array", self.pb.range(node))
        if node.op == "=":
            if isinstance(node.rvalue, c_ast.FuncCall) and isinstance(lv, Var):
                r = self.call(node.rvalue, True, direct_lhs=lv, whole=node)
                if r is lv:
                    return lv
            else:
                r = self.rvalue(self.expr(node.rvalue))
            if isinstance(lv.type, StructType):
                if r.type != lv.type:
                    raise Unsupported("struct assignment between different types", self.pb.range(node))
                self.emit(AssignEdge, node, lhs=lv, rhs=r)
                return lv
            self.emit(AssignEdge, node, lhs=lv, rhs=self.convert(r, lv.type))
            return lv
        op = node.op[:-1]
        r = self.expr(node.rvalue)
        new = self.binary(op, lv, r, node)
        self.emit(AssignEdge, node, lhs=lv, rhs=self.convert(new, lv.type))
        return lv

    def ternary(self, node: c_ast.TernaryOp, want: bool) -> Expr:
        t_node, f_node, join = self.new_node(), self.new_node(), self.new_node()
        self.cond(node.cond, t_node, f_node)
        # Types of both arms decide the result type; compute them on scratch builders.
        self.cur = t_node
        a = self.rvalue(self.expr(node.iftrue, want))
        a_end = self.cur
        self.cur = f_node
        b = self.rvalue(self.expr(node.iffalse, want))
        b_end = self.cur
        if isinstance(a.type, IntType) and isinstance(b.type, IntType):
            rt: CType = self.dm.usual_arithmetic(a.type, b.type)
        elif isinstance(a.type, VoidType) or isinstance(b.type, VoidType):
            rt = self.dm.void
        else:
            rt = a.type if isinstance(a.type, PointerType) else b.type
        if not want or isinstance(rt, VoidType):
            for end in (a_end, b_end):
                self.cur = end
                self.goto(join)
            self.cur = join
            return Const(0, self.dm.int)
        tmp = self.new_temp(rt, self.pb.range(node))
        self.cur = a_end
        self.emit(AssignEdge, node.iftrue, lhs=tmp, rhs=self.convert(a, rt))
        self.goto(join)
        self.cur = b_end
        self.emit(AssignEdge, node.iffalse, lhs=tmp, rhs=self.convert(b, rt))
        self.goto(join)
        self.cur = join
        return tmp

    def logical_value(self, node: c_ast.BinaryOp) -> Expr:
        if self.const_only:
            left = self.expr(node.left)
            right = self.expr(node.right)
            if isinstance(left, Const) and isinstance(right, Const):
                v = (left.value != 0 and right.value != 0) if node.op == "&&" else (left.value != 0 or right.value != 0)
                return Const(int(v), self.dm.int)
            raise Unsupported("a non-constant expression where C requires a constant", self.pb.range(node))
        t_node, f_node, join = self.new_node(), self.new_node(), self.new_node()
        tmp = self.new_temp(self.dm.int, self.pb.range(node))
        self.cond(node, t_node, f_node)
        self.cur = t_node
        self.emit(AssignEdge, node, lhs=tmp, rhs=Const(1, self.dm.int))
        self.goto(join)
        self.cur = f_node
        self.emit(AssignEdge, node, lhs=tmp, rhs=Const(0, self.dm.int))
        self.goto(join)
        self.cur = join
        return tmp

    def statement_expression(self, node: c_ast.Compound, want: bool) -> Expr:
        items = node.block_items or []
        value: Expr = Const(0, self.dm.int)
        with self.block_scope():
            for i, item in enumerate(items):
                if i == len(items) - 1 and not isinstance(item, c_ast.Decl | c_ast.Compound | c_ast.If | c_ast.While |
                                                           c_ast.For | c_ast.DoWhile | c_ast.Switch | c_ast.Return |
                                                           c_ast.Label | c_ast.Goto | c_ast.EmptyStatement |
                                                           c_ast.Break | c_ast.Continue):
                    value = self.rvalue(self.expr(item, want))
                else:
                    self.stmt(item)
        return value

    # ---- calls ------------------------------------------------------------
    def call(self, node: c_ast.FuncCall, want: bool, direct_lhs: Var | None = None,
             whole: c_ast.Node | None = None) -> Expr:
        dm = self.dm
        rng = self.pb.range(node)
        callee_node = node.name
        name: str | None = None
        if isinstance(callee_node, c_ast.ID) and self.scope.lookup("vars", callee_node.name) is None:
            name = callee_node.name
        else:
            fe = self.expr(callee_node)
            if isinstance(fe, FuncRef):
                name = fe.name
            else:
                raise Unsupported("calls through function pointers", rng)
        args_ast = node.args.exprs if node.args is not None else []
        if self.const_only:
            raise Unsupported("a function call in a constant expression", rng)
        # Special functions of the verification model.
        if name in ERROR_FUNCTIONS or name in ASSERT_FAIL_FUNCTIONS:
            if name in ASSERT_FAIL_FUNCTIONS:
                for a in args_ast:
                    self.expr(a, False)
            kind = "reach_error" if name in ERROR_FUNCTIONS else "assert_fail"
            self.error_edge(ErrorInfo(kind, f"{name}() is reachable", rng), node)
            return Const(0, dm.int)
        if name in ABORT_FUNCTIONS:
            for a in args_ast:
                self.expr(a, False)
            self.emit(AbortEdge, node, label=f"{name}()")
            self.cur = None
            return Const(0, dm.int)
        builtin_assert = name == "__cbam_assert" or (name == "__VERIFIER_assert" and name not in self.pb.func_defs)
        builtin_assume = name == "__VERIFIER_assume" or (name == "assume_abort_if_not" and name not in self.pb.func_defs)
        if builtin_assert or builtin_assume:
            if len(args_ast) != 1:
                raise Unsupported(f"{name} with {len(args_ast)} arguments", rng)
            cont = self.new_node()
            if builtin_assume:
                sink = self.new_node()
                self.cond(args_ast[0], cont, sink)
            else:
                text = self.pb.source_text(self.pb.range(args_ast[0]))
                err = self.new_node()
                err.error = ErrorInfo("assert", f"assertion `{text}` may fail", rng, text)
                self.cond(args_ast[0], cont, err)
            self.cur = cont
            return Const(0, dm.int)
        if name.startswith(NONDET_PREFIX) and name not in self.pb.func_defs:
            t = self.nondet_type(name, rng)
            for a in args_ast:
                self.expr(a, False)
            if isinstance(t, VoidType):
                return Const(0, dm.int)
            target = direct_lhs if (direct_lhs is not None and direct_lhs.type == t) else None
            if target is None:
                if not want:
                    return Const(0, dm.int)
                target = self.new_temp(t, rng)
            self.emit(AssignEdge, whole if target is direct_lhs and whole is not None else node,
                      lhs=target, rhs=Nondet(t, name))
            return target
        ft = self.pb.func_types.get(name)
        if ft is None:
            ft = FunctionType(dm.int, (), unprototyped=True)  # implicit declaration
            self.pb.declared.setdefault(name, rng)
            self.pb._implicit.append((name, rng))
        if isinstance(ft.ret, FloatType):
            raise Unsupported("floating-point types", rng)
        args: list[Expr] = []
        for i, a in enumerate(args_ast):
            e = self.rvalue(self.expr(a))
            if isinstance(e.type, FloatType):
                raise Unsupported("floating-point arithmetic", self.pb.range(a))
            if i < len(ft.params) and not ft.unprototyped:
                e = self.convert(e, ft.params[i]) if isinstance(ft.params[i], IntType | PointerType) else e
            elif isinstance(e.type, IntType):
                e = self.promote(e)
            args.append(e)
        defined = name in self.pb.func_defs
        if defined:
            fd_type = self.pb.func_types[name]
            nparams = len(fd_type.params)
            if len(args) != nparams and not fd_type.variadic:
                raise Unsupported(f"call of '{name}' with {len(args)} arguments (it takes {nparams})", rng)
            if ft.unprototyped:
                args = [self.convert(a, p) if isinstance(p, IntType) else a for a, p in zip(args, fd_type.params)]
        ret = ft.ret
        lhs: Expr | None = None
        if not isinstance(ret, VoidType):
            if direct_lhs is not None and direct_lhs.type == ret:
                lhs = direct_lhs
            elif want or defined:
                lhs = self.new_temp(ret, rng)
        edge_node = whole if (lhs is not None and lhs is direct_lhs and whole is not None) else node
        if defined:
            self.calls.add(name)
            self.emit(CallEdge, edge_node, lhs=lhs, callee=name, args=tuple(args))
        else:
            self.emit(ExternalCallEdge, edge_node, lhs=lhs, callee=name, args=tuple(args),
                      writes_globals=name not in LIBC_PURE)
        if lhs is None:
            return Const(0, dm.int)
        return lhs

    def nondet_type(self, name: str, rng: Range | None) -> CType:
        ft = self.pb.func_types.get(name)
        if ft is not None and not isinstance(ft.ret, FloatType):
            return ft.ret
        dm = self.dm
        suffix = name[len(NONDET_PREFIX):]
        table: dict[str, CType] = {
            "int": dm.int, "uint": dm.uint, "unsigned": dm.uint, "unsigned_int": dm.uint,
            "char": dm.char, "uchar": dm.uchar, "unsigned_char": dm.uchar, "short": dm.short,
            "ushort": dm.ushort, "unsigned_short": dm.ushort, "long": dm.long, "ulong": dm.ulong,
            "unsigned_long": dm.ulong, "longlong": dm.llong, "long_long": dm.llong, "ulonglong": dm.ullong,
            "unsigned_long_long": dm.ullong, "bool": dm.bool, "_Bool": dm.bool, "size_t": dm.size_t,
            "u8": dm.uchar, "u16": dm.ushort, "u32": dm.uint, "u64": dm.ullong, "s8": dm.schar,
            "s16": dm.short, "s32": dm.int, "s64": dm.llong, "pointer": dm.pointer(dm.void),
            "pchar": dm.pointer(dm.char), "loff_t": dm.llong, "int128": dm.int128, "uint128": dm.uint128,
        }
        if suffix in ("float", "double"):
            raise Unsupported("floating-point nondeterministic values", rng)
        return table.get(suffix, dm.int)

    def error_edge(self, info: ErrorInfo, node: c_ast.Node) -> None:
        err = self.new_node()
        err.error = info
        src = self.here()
        self.link(BlankEdge(pred=src, succ=err, range=info.range, label="error"))
        self.cur = None

    # ---- conditions -------------------------------------------------------
    def cond(self, node: c_ast.Node, t: CFANode, f: CFANode) -> None:
        if isinstance(node, c_ast.BinaryOp) and node.op in ("&&", "||"):
            mid = self.new_node()
            if node.op == "&&":
                self.cond(node.left, mid, f)
            else:
                self.cond(node.left, t, mid)
            self.cur = mid
            self.cond(node.right, t, f)
            return
        if isinstance(node, c_ast.UnaryOp) and node.op == "!":
            self.cond(node.expr, f, t)
            return
        if isinstance(node, c_ast.TernaryOp):
            a, b = self.new_node(), self.new_node()
            self.cond(node.cond, a, b)
            self.cur = a
            self.cond(node.iftrue, t, f)
            self.cur = b
            self.cond(node.iffalse, t, f)
            return
        if isinstance(node, c_ast.ExprList) and len(node.exprs) > 1:
            for sub in node.exprs[:-1]:
                self.expr(sub, False)
            self.cond(node.exprs[-1], t, f)
            return
        e = self.truth(self.expr(node))
        rng = self.pb.range(node)
        if isinstance(e, Const):
            self.goto(t if e.value != 0 else f, node)
            return
        src = self.here()
        text = self.pb.source_text(rng)
        self.link(AssumeEdge(pred=src, succ=t, range=rng, text=text, cond=e, truth=True))
        self.link(AssumeEdge(pred=src, succ=f, range=rng, text=text, cond=e, truth=False))
        self.cur = None

    # ---- declarations -----------------------------------------------------
    @contextmanager
    def block_scope(self) -> Iterator[None]:
        self.scope = _Scope(self.scope)
        try:
            yield
        finally:
            assert self.scope.parent is not None
            self.scope = self.scope.parent

    def unique_local(self, name: str) -> str:
        count = self.local_names.get(name, 0)
        self.local_names[name] = count + 1
        return f"{self.name}::{name}" if count == 0 else f"{self.name}::{name}.{count}"

    def global_decl(self, decl: c_ast.Decl) -> None:
        pb = self.pb
        if decl.name is None:  # struct/union/enum declaration
            if decl.type is not None:
                pb.resolve_type(decl.type, pb.global_scope, decl)
            return
        if isinstance(decl.type, c_ast.FuncDecl):
            pb.declare_function(decl)
            return
        t = pb.resolve_type(decl.type, pb.global_scope, decl)
        if isinstance(t, ArrayType) and t.size is None and isinstance(decl.init, c_ast.InitList):
            t = ArrayType(t.elem, len(decl.init.exprs))
        name = decl.name
        existing = pb.vars.get(name)
        pb.global_scope.vars[name] = name
        if existing is not None and decl.init is None:
            return  # a tentative or extern re-declaration
        if existing is None:
            pb.new_var(name, t, None, range=pb.range(decl))
        if isinstance(t, FloatType):
            if decl.init is not None:
                raise Unsupported("floating-point globals", pb.range(decl))
            return
        if "extern" in decl.storage and decl.init is None:
            # Defined elsewhere: its initial value is unknown.
            self.emit(DeclEdge, decl, var=Var(name, t), init=Nondet(t, f"extern {name}") if isinstance(t, IntType)
                      else None, is_global=True)
            return
        self.init_var(Var(name, t), decl, is_global=True)

    def init_var(self, var: Var, decl: c_ast.Decl, is_global: bool) -> None:
        t = var.type
        init = decl.init
        zero = is_global or init is not None
        if init is None:
            default = Const(0, t) if (is_global and isinstance(t, IntType)) else None
            self.emit(DeclEdge, decl, var=var, init=default, is_global=is_global)
            if is_global and not isinstance(t, IntType):
                self.zero_fill(var, decl)
            return
        if isinstance(t, ArrayType | StructType):
            self.emit(DeclEdge, decl, var=var, init=None, is_global=is_global)
            if zero:
                self.zero_fill(var, decl)
            self.aggregate_init(var, t, init, decl)
            return
        if (isinstance(init, c_ast.FuncCall) and isinstance(init.name, c_ast.ID)
                and init.name.name.startswith(NONDET_PREFIX) and init.name.name not in self.pb.func_defs
                and not init.args and self.nondet_type(init.name.name, None) == t):
            # int x = __VERIFIER_nondet_int(); is one step, not a temporary and a copy.
            self.emit(DeclEdge, decl, var=var, init=Nondet(t, init.name.name), is_global=is_global)
            return
        e = self.rvalue(self.expr(init.exprs[0] if isinstance(init, c_ast.InitList) and init.exprs else init))
        self.emit(DeclEdge, decl, var=var, init=self.convert(e, t) if isinstance(t, IntType | PointerType) else e,
                  is_global=is_global)

    def zero_fill(self, lv: Expr, decl: c_ast.Node) -> None:
        """Static storage and partly initialised aggregates start as zero."""
        t = lv.type
        if isinstance(t, IntType | PointerType):
            self.emit(AssignEdge, decl, lhs=lv, rhs=Const(0, t) if isinstance(t, IntType) else Cast(Const(0, self.dm.int), t))
        elif isinstance(t, ArrayType):
            if t.size is None:
                return
            if t.size > 256:
                raise Unsupported(f"zero-initialisation of a {t.size}-element array", self.pb.range(decl))
            for i in range(t.size):
                self.zero_fill(Index(lv, Const(i, self.dm.ptrdiff_t), t.elem), decl)
        elif isinstance(t, StructType):
            for fname, ftype in self.pb.structs.get(t.key(), []):
                self.zero_fill(Member(lv, fname, ftype), decl)
                if t.union:
                    break

    def aggregate_init(self, lv: Expr, t: CType, init: c_ast.Node, decl: c_ast.Node) -> None:
        if isinstance(t, ArrayType) and isinstance(init, c_ast.Constant) and init.type == "string":
            raw = parse_string(init.value)
            for i, ch in enumerate(raw[: t.size if t.size is not None else len(raw)]):
                self.emit(AssignEdge, init, lhs=Index(lv, Const(i, self.dm.ptrdiff_t), t.elem),
                          rhs=self.convert(Const(ch, self.dm.int), t.elem))
            return
        if not isinstance(init, c_ast.InitList):
            e = self.rvalue(self.expr(init))
            self.emit(AssignEdge, init, lhs=lv, rhs=self.convert(e, t) if isinstance(t, IntType | PointerType) else e)
            return
        if isinstance(t, ArrayType):
            for i, sub in enumerate(init.exprs):
                if isinstance(sub, c_ast.NamedInitializer):
                    raise Unsupported("designated initializers", self.pb.range(sub))
                self.aggregate_init(Index(lv, Const(i, self.dm.ptrdiff_t), t.elem), t.elem, sub, decl)
        elif isinstance(t, StructType):
            fields = self.pb.structs.get(t.key(), [])
            for (fname, ftype), sub in zip(fields, init.exprs):
                if isinstance(sub, c_ast.NamedInitializer):
                    raise Unsupported("designated initializers", self.pb.range(sub))
                self.aggregate_init(Member(lv, fname, ftype), ftype, sub, decl)
        else:
            if init.exprs:
                self.aggregate_init(lv, t, init.exprs[0], decl)

    def local_decl(self, decl: c_ast.Decl) -> None:
        pb = self.pb
        if decl.name is None:
            if decl.type is not None:
                pb.resolve_type(decl.type, self.scope, decl)
            return
        if isinstance(decl.type, c_ast.FuncDecl):
            pb.declare_function(decl)
            return
        if "extern" in decl.storage:
            if decl.name not in pb.vars:
                t = pb.resolve_type(decl.type, self.scope, decl)
                pb.new_var(decl.name, t, None, range=pb.range(decl))
            self.scope.vars[decl.name] = decl.name
            return
        t = pb.resolve_type(decl.type, self.scope, decl)
        if isinstance(t, FloatType):
            raise Unsupported("floating-point variables", pb.range(decl))
        if isinstance(t, ArrayType) and t.size is None:
            if isinstance(decl.init, c_ast.InitList):
                t = ArrayType(t.elem, len(decl.init.exprs))
            elif isinstance(decl.init, c_ast.Constant) and decl.init.type == "string":
                t = ArrayType(t.elem, len(parse_string(decl.init.value)))
        if isinstance(t, ArrayType) and decl.type is not None and isinstance(decl.type, c_ast.ArrayDecl) \
                and decl.type.dim is not None and t.size is None:
            raise Unsupported("variable-length arrays", pb.range(decl))
        if "static" in decl.storage:
            gname = f"{self.name}::__cbam_static.{decl.name}"
            if gname in pb.vars:
                gname = f"{gname}.{len(pb.vars)}"
            pb.new_var(gname, t, None, range=pb.range(decl))
            self.scope.vars[decl.name] = gname
            pb.static_inits.append((Var(gname, t), decl, self.scope))
            return
        vid = self.unique_local(decl.name)
        var = pb.new_var(vid, t, self.name, range=pb.range(decl))
        self.scope.vars[decl.name] = vid
        self.init_var(var, decl, is_global=False)

    # ---- statements -------------------------------------------------------
    def stmt(self, node: c_ast.Node | None) -> None:
        if node is None:
            return
        saved = self.context_range
        self.context_range = self.pb.range(node) or saved
        try:
            self._stmt(node)
        except Unsupported as u:
            if u.where is None:
                raise Unsupported(u.what, self.pb.range(node)) from None
            raise
        finally:
            self.context_range = saved

    def _stmt(self, node: c_ast.Node) -> None:
        if isinstance(node, c_ast.Compound):
            with self.block_scope():
                for item in node.block_items or []:
                    self.stmt(item)
        elif isinstance(node, c_ast.Decl):
            self.local_decl(node)
        elif isinstance(node, c_ast.DeclList):
            for d in node.decls:
                self.local_decl(d)
        elif isinstance(node, c_ast.Typedef):
            self.scope.typedefs[node.name] = self.pb.resolve_type(node.type, self.scope, node)
        elif isinstance(node, c_ast.If):
            t, f, join = self.new_node(), self.new_node(), self.new_node()
            self.cond(node.cond, t, f)
            self.cur = t
            self.stmt(node.iftrue)
            self.goto(join)
            self.cur = f
            self.stmt(node.iffalse)
            self.goto(join)
            self.cur = join if join.inn else None
        elif isinstance(node, c_ast.While):
            head, body, done = self.new_node(), self.new_node(), self.new_node()
            head.loop_head = True
            self.goto(head, label="while")
            self.cur = head
            self.cond(node.cond, body, done)
            self.cur = body
            self.loop_body(node.stmt, done, head)
            self.goto(head)
            self.cur = done if done.inn else None
        elif isinstance(node, c_ast.DoWhile):
            body, test, done = self.new_node(), self.new_node(), self.new_node()
            body.loop_head = True
            self.goto(body, label="do")
            self.cur = body
            self.loop_body(node.stmt, done, test)
            self.goto(test)
            self.cur = test if test.inn else None
            if self.cur is not None:
                self.cond(node.cond, body, done)
            self.cur = done if done.inn else None
        elif isinstance(node, c_ast.For):
            with self.block_scope():
                if isinstance(node.init, c_ast.DeclList):
                    for d in node.init.decls:
                        self.local_decl(d)
                elif node.init is not None:
                    self.expr(node.init, False)
                head, body, nxt, done = self.new_node(), self.new_node(), self.new_node(), self.new_node()
                head.loop_head = True
                self.goto(head, label="for")
                self.cur = head
                if node.cond is not None:
                    self.cond(node.cond, body, done)
                else:
                    self.goto(body)
                self.cur = body
                self.loop_body(node.stmt, done, nxt)
                self.goto(nxt)
                self.cur = nxt if nxt.inn else None
                if self.cur is not None and node.next is not None:
                    self.expr(node.next, False)
                self.goto(head)
                self.cur = done if done.inn else None
        elif isinstance(node, c_ast.Switch):
            self.switch(node)
        elif isinstance(node, (c_ast.Case, c_ast.Default)):
            if not self.switch_cases:
                raise Unsupported("case label outside a switch", self.pb.range(node))
            target = self.switch_cases[-1].get(id(node))
            if target is None:
                raise Unsupported("case label in an unexpected place", self.pb.range(node))
            self.goto(target)
            self.cur = target
            for s in node.stmts or []:
                self.stmt(s)
        elif isinstance(node, c_ast.Break):
            if not self.break_stack:
                raise Unsupported("break outside a loop or switch", self.pb.range(node))
            self.goto(self.break_stack[-1], node, "break")
        elif isinstance(node, c_ast.Continue):
            if not self.continue_stack:
                raise Unsupported("continue outside a loop", self.pb.range(node))
            self.goto(self.continue_stack[-1], node, "continue")
        elif isinstance(node, c_ast.Label):
            target = self.label_node(node.name)
            self.goto(target)
            self.cur = target
            self.stmt(node.stmt)
        elif isinstance(node, c_ast.Goto):
            if not isinstance(node.name, str):
                raise Unsupported("computed goto", self.pb.range(node))
            self.goto(self.label_node(node.name), node, f"goto {node.name}")
        elif isinstance(node, c_ast.Return):
            self.ret(node)
        elif isinstance(node, c_ast.EmptyStatement | c_ast.Pragma):
            pass
        elif isinstance(node, c_ast.StaticAssert):
            pass
        elif isinstance(node, c_ast.FuncDef):
            raise Unsupported("nested function definitions", self.pb.range(node))
        else:
            self.expr(node, False)

    def label_node(self, name: str) -> CFANode:
        if name not in self.labels:
            n = self.new_node()
            n.label = name
            self.labels[name] = n
        return self.labels[name]

    def loop_body(self, body: c_ast.Node | None, brk: CFANode, cont: CFANode) -> None:
        self.break_stack.append(brk)
        self.continue_stack.append(cont)
        try:
            self.stmt(body)
        finally:
            self.break_stack.pop()
            self.continue_stack.pop()

    def switch(self, node: c_ast.Switch) -> None:
        value = self.promote(self.rvalue(self.expr(node.cond)))
        if not isinstance(value, Var | Const):
            tmp = self.new_temp(value.type, self.pb.range(node.cond))
            self.emit(AssignEdge, node.cond, lhs=tmp, rhs=value)
            value = tmp
        cases: list[c_ast.Node] = []
        collect_cases(node.stmt, cases)
        targets: dict[int, CFANode] = {}
        done = self.new_node()
        default: CFANode | None = None
        for c in cases:
            n = self.new_node()
            targets[id(c)] = n
            if isinstance(c, c_ast.Default):
                default = n
        for c in cases:
            if isinstance(c, c_ast.Default):
                continue
            assert isinstance(c, c_ast.Case)
            cv = self.pb.const_int(c.expr, self.scope)
            cond = self.fold(Binary("==", value, self.convert(Const(cv, self.dm.int), value.type), self.dm.int))
            rng = self.pb.range(c.expr)
            if isinstance(cond, Const):
                if cond.value:
                    self.goto(targets[id(c)])
                    break
                continue
            src = self.here()
            nxt = self.new_node()
            text = f"{self.pb.source_text(self.pb.range(node.cond))} == {self.pb.source_text(rng)}"
            self.link(AssumeEdge(pred=src, succ=targets[id(c)], range=rng, text=text, cond=cond, truth=True))
            self.link(AssumeEdge(pred=src, succ=nxt, range=rng, text=text, cond=cond, truth=False))
            self.cur = nxt
        self.goto(default if default is not None else done)
        self.switch_cases.append(targets)
        self.break_stack.append(done)
        try:
            self.stmt(node.stmt)
        finally:
            self.break_stack.pop()
            self.switch_cases.pop()
        self.goto(done)
        self.cur = done if done.inn else None

    def ret(self, node: c_ast.Return) -> None:
        value: Expr | None = None
        if node.expr is not None:
            e = self.rvalue(self.expr(node.expr))
            if isinstance(self.return_type, VoidType):
                value = None
            else:
                value = self.convert(e, self.return_type) if isinstance(self.return_type, IntType | PointerType) else e
        src = self.here()
        self.link(ReturnEdge(pred=src, succ=self.exit, range=self.pb.range(node), value=value,
                             result_var=self.result_var))
        self.cur = None

    # ---- whole functions ----------------------------------------------------
    def build_function(self, fd: c_ast.FuncDef) -> FunctionCFA:
        pb = self.pb
        ft = pb.func_types.get(fd.decl.name)
        params: list[str] = []
        try:
            if ft is None or not isinstance(ft, FunctionType):
                raise Unsupported("a function type cbam cannot read", pb.range(fd.decl))
            if isinstance(ft.ret, FloatType):
                raise Unsupported("floating-point return type", pb.range(fd.decl))
            if ft.variadic:
                raise Unsupported("variadic function definitions", pb.range(fd.decl))
            if has_inline_asm(pb, fd):
                raise Unsupported("inline assembly", pb.range(fd.decl))
            self.return_type = ft.ret
            if not isinstance(ft.ret, VoidType):
                self.result_var = pb.new_var(f"{self.name}::__retval", ft.ret, self.name, is_result=True)
            params = self.bind_params(fd)
            self.stmt(fd.body)
            if self.cur is not None:
                src = self.cur
                end = fd.body.coord
                rng = pb.range(fd.body)
                if rng is not None:
                    rng = Range(rng.file, rng.end_line, max(1, rng.end_col - 1), rng.end_line, rng.end_col)
                self.link(ReturnEdge(pred=src, succ=self.exit, range=rng, value=None, result_var=self.result_var,
                                     text="}" if end else ""))
        except Unsupported as u:
            self.unsupported = (u.what, u.where)
            pb.report(u)
            self.nodes = self.nodes[:2]
            self.entry.out.clear()
            self.exit.inn.clear()
        cfa = FunctionCFA(
            name=self.name, entry=self.entry, exit=self.exit, params=params,
            return_type=self.return_type, result_var=self.result_var.name if self.result_var else None,
            nodes=self.nodes, range=pb.range(fd), name_range=name_range(pb, fd),
            unsupported=self.unsupported, calls=set(self.calls),
        )
        finalize(cfa)
        return cfa

    def bind_params(self, fd: c_ast.FuncDef) -> list[str]:
        pb = self.pb
        ftype = fd.decl.type
        params: list[str] = []
        if not isinstance(ftype, c_ast.FuncDecl) or ftype.args is None:
            return params
        knr: dict[str, c_ast.Decl] = {d.name: d for d in (fd.param_decls or [])}
        for p in ftype.args.params:
            if isinstance(p, c_ast.EllipsisParam):
                continue
            if isinstance(p, c_ast.ID):
                d = knr.get(p.name)
                t = pb.resolve_type(d.type, self.scope, d) if d is not None else self.dm.int
                pname = p.name
                rng = pb.range(p)
            else:
                if p.name is None:
                    t = pb.resolve_type(p.type, self.scope, p)
                    if isinstance(t, VoidType):
                        continue
                    pname = f"__unnamed{len(params)}"
                else:
                    t = pb.resolve_type(p.type, self.scope, p)
                    pname = p.name
                rng = pb.range(p)
            t = pb.adjust_param(t)
            if isinstance(t, FloatType):
                raise Unsupported("floating-point parameters", rng)
            if isinstance(t, StructType):
                raise Unsupported("struct parameters passed by value", rng)
            vid = self.unique_local(pname)
            pb.new_var(vid, t, self.name, is_param=True, range=rng)
            self.scope.vars[pname] = vid
            params.append(vid)
        return params

    def finish_start(self, entry: str, functions: dict[str, FunctionCFA]) -> FunctionCFA:
        """The synthetic start function: globals are initialised, then the entry is called."""
        dm = self.dm
        # Static locals of every function are initialised with the globals, before the entry runs.
        for var, decl, scope in self.pb.static_inits:
            saved, self.scope = self.scope, scope
            try:
                self.init_var(var, decl, is_global=True)
            except Unsupported as u:
                self.unsupported = self.unsupported or (u.what, u.where)
                self.pb.report(u)
            finally:
                self.scope = saved
        if entry in functions and self.unsupported is None:
            callee = functions[entry]
            self.context_range = callee.name_range  # the entry's inputs and call point at its name
            args: list[Expr] = []
            for p in callee.params:
                t = self.pb.vars[p].type
                tmp = self.new_temp(t)
                self.emit(AssignEdge, None, lhs=tmp, rhs=Nondet(t, f"input {p.split('::', 1)[1]}"))
                args.append(tmp)
            self.calls.add(entry)
            self.emit(CallEdge, None, rng=callee.name_range, lhs=None, callee=entry, args=tuple(args))
        self.link(ReturnEdge(pred=self.here(), succ=self.exit, value=None, result_var=None))
        self.cur = None
        cfa = FunctionCFA(name=START_FUNCTION, entry=self.entry, exit=self.exit, params=[], return_type=dm.void,
                          result_var=None, nodes=self.nodes, unsupported=self.unsupported, calls=set(self.calls))
        finalize(cfa)
        return cfa


def collect_cases(node: c_ast.Node | None, out: list[c_ast.Node]) -> None:
    """Case labels of one switch, not descending into nested switches."""
    if node is None:
        return
    if isinstance(node, (c_ast.Case, c_ast.Default)):
        out.append(node)
    if isinstance(node, c_ast.Switch):
        return
    for _, child in node.children():
        collect_cases(child, out)


def finalize(cfa: FunctionCFA) -> None:
    """Drop nodes nothing reaches and mark loop heads (targets of DFS back edges)."""
    reach: list[CFANode] = []
    seen: set[int] = set()
    stack = [cfa.entry]
    while stack:
        n = stack.pop()
        if id(n) in seen:
            continue
        seen.add(id(n))
        reach.append(n)
        for e in reversed(n.out):
            stack.append(e.succ)
    keep = [n for n in cfa.nodes if id(n) in seen or n is cfa.exit]
    for n in keep:
        n.inn = [e for e in n.inn if id(e.pred) in seen]
    cfa.nodes = keep
    # Back edges by iterative DFS.
    color: dict[int, int] = {}
    stack2: list[tuple[CFANode, int]] = [(cfa.entry, 0)]
    color[id(cfa.entry)] = 1
    while stack2:
        n, i = stack2[-1]
        if i < len(n.out):
            stack2[-1] = (n, i + 1)
            s = n.out[i].succ
            c = color.get(id(s), 0)
            if c == 0:
                color[id(s)] = 1
                stack2.append((s, 0))
            elif c == 1:
                s.loop_head = True
        else:
            color[id(n)] = 2
            stack2.pop()


def has_inline_asm(pb: ProgramBuilder, fd: c_ast.FuncDef) -> bool:
    rng = pb.range(fd.body)
    if rng is None:
        return False
    text = pb.source_text(rng)
    return re.search(r"\b(asm|__asm__|__asm)\b", text) is not None


def name_range(pb: ProgramBuilder, fd: c_ast.FuncDef) -> Range | None:
    rng = pb.spans.sm.range_at_coord(fd.decl.coord)
    if rng is None:
        return None
    return Range(rng.file, rng.line, rng.col, rng.line, rng.col + len(fd.decl.name))


_ESCAPES = {"n": 10, "t": 9, "r": 13, "0": 0, "a": 7, "b": 8, "f": 12, "v": 11, "\\": 92, "'": 39, '"': 34, "?": 63,
            "e": 27}


def _unescape(body: str) -> list[int]:
    out: list[int] = []
    i = 0
    while i < len(body):
        ch = body[i]
        if ch != "\\":
            out.extend(ch.encode("utf-8"))
            i += 1
            continue
        i += 1
        c = body[i] if i < len(body) else "\\"
        if c == "x":
            j = i + 1
            while j < len(body) and body[j] in "0123456789abcdefABCDEF":
                j += 1
            out.append(int(body[i + 1:j] or "0", 16) & 0xFF)
            i = j
        elif c in "01234567":
            j = i
            while j < len(body) and j < i + 3 and body[j] in "01234567":
                j += 1
            out.append(int(body[i:j], 8) & 0xFF)
            i = j
        else:
            out.append(_ESCAPES.get(c, ord(c)))
            i += 1
    return out


def parse_char(text: str, dm: DataModel) -> int:
    body = text[text.index("'") + 1:-1]
    vals = _unescape(body)
    if not vals:
        return 0
    if len(vals) == 1:
        return dm.char.wrap(vals[0])  # plain char is signed: '\xff' == -1
    v = 0
    for b in vals:
        v = (v << 8) | b
    return dm.int.wrap(v)


def parse_string(text: str) -> list[int]:
    out: list[int] = []
    for part in re.findall(r'"((?:[^"\\]|\\.)*)"', text):
        out.extend(_unescape(part))
    out.append(0)
    return out
