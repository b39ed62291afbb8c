"""Translate a pycparser AST into one CFA per function.

Expressions become side-effect free: calls, ``++``, compound assignment, the comma
operator, assignments inside conditions, ``?:`` and short-circuit ``&&``/``||`` turn into
edges and temporaries. Every edge carries the source range of the construct it came from.
A construct cbam does not model makes its function *unsupported* (with the reason and
location) without stopping the other functions from being built.
"""

from __future__ import annotations

import re
from typing import Any, cast

from pycparser import c_ast

from ..frontend.attributes import EMPTY as NO_ATTRIBUTES
from ..frontend.attributes import AttributeTable
from ..frontend.attributes import unsupported_reason as attribute_unsupported
from ..frontend.errors import Diagnostic, FrontendError, Range, Unsupported
from ..frontend.srcmap import Spans
from . import linkage
from .acceleration import accelerate
from .cfa import FunctionCFA, Program, VarInfo
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
    AddrOf,
    AssignEdge,
    BlankEdge,
    CallEdge,
    Cast,
    CFANode,
    Const,
    DeclEdge,
    Expr,
    Index,
    Member,
    Nondet,
    ReturnEdge,
    Var,
)
from .reuse import FunctionEffects, FunctionReuse
from .translate.bitfields import BitFieldBuilder
from .translate.calls import CallBuilder
from .translate.common import (
    START_FUNCTION,
    UNSUPPORTED_TYPE,
    VA_AREA,
    Scope,
    unsupported_reason,
)
from .translate.declarations import DeclarationBuilder
from .translate.expressions import ExpressionBuilder
from .translate.forms import BitFieldRef, VlaShape
from .translate.initializers import InitializerBuilder
from .translate.parts import EdgeT
from .translate.statements import StatementBuilder
from .translate.types import TypeResolver
from .translate.vla import VlaBuilder

__all__ = ["ProgramBuilder", "FunctionBuilder", "START_FUNCTION"]





class ProgramBuilder(TypeResolver):
    """Builds a :class:`Program` from a parsed translation unit."""

    def function_builder(self, name: str | None, scope: Scope, const_only: bool = False) -> FunctionBuilder:
        return FunctionBuilder(self, name, scope, const_only)

    def __init__(self, ast: c_ast.FileAST, spans: Spans, dm: DataModel, main_file: str, entry: str = "main",
                 reuse: FunctionReuse | None = None, attrs: AttributeTable | None = None):
        self.ast = ast
        self.attrs = attrs if attrs is not None else NO_ATTRIBUTES
        self.reuse = reuse
        self.spans = spans
        self.dm = dm
        self.main_file = main_file
        self.entry = entry
        self.vars: dict[str, VarInfo] = {}
        self.structs: dict[str, list[tuple[str, CType]]] = {}
        self.global_scope = Scope(None)
        self.func_types: dict[str, FunctionType] = {}
        self.func_defs: dict[str, c_ast.FuncDef] = {}
        self.declared: dict[str, Range | None] = {}
        self.diagnostics: list[Diagnostic] = []
        self.static_inits: list[tuple[Var, c_ast.Decl, Scope]] = []
        # Globals declared extern and not (yet) defined here, with their declaration's edge.
        self.extern_only: dict[str, DeclEdge] = {}
        # A struct completed by its flexible array member's initialiser -> the struct declared.
        self.flexible_types: dict[str, StructType] = {}
        self._address_taken: list[str] | None = None
        self._dispatch_uses = 0  # how often a build asked for them (address_taken_functions)
        self.bitfield_structs: dict[str, Range | None] = {}  # struct key -> where: laid out by no analysis
        self.unsupported_structs: dict[str, str] = {}  # struct key -> why
        self.vla_shapes: dict[str, VlaShape] = {}  # variable-length arrays, by variable
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


    # ---- the translation unit ------------------------------------------
    def build(self) -> Program:
        if linkage.is_linked(self.ast.ext):  # several translation units (frontend/link.py)
            internal = linkage.internal_names(self.ast.ext)
            if internal:
                raise linkage.InternalNames(internal)  # cfa/load.py renames them and builds again
            clashes = linkage.check(self.ast.ext, self.range)
            if clashes:
                raise FrontendError(clashes)
        start = FunctionBuilder(self, START_FUNCTION, self.global_scope)
        global_edges_builder = start
        funcdefs: list[c_ast.FuncDef] = []
        claimed: set[tuple[int, int]] = set()  # file-scope attributes a typedef answers for
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
                    self.typedef_attributes(ext, claimed)
                    self.global_scope.typedefs[ext.name] = self.resolve_type(ext.type, self.global_scope, ext)
                except Unsupported as u:
                    # A typedef of an unsupported type only matters where it is used.
                    self.global_scope.typedefs[ext.name] = FloatType(f"{UNSUPPORTED_TYPE}{u.what}")
            elif isinstance(ext, c_ast.Pragma | c_ast.StaticAssert) or ext is None:
                continue
        claimed.update(a.pos for attrs in self.attrs.types.values() for a in attrs)  # struct_layout's
        for a in self.attrs.unsupported:
            if a.context == "file" and a.pos not in claimed and start.unsupported is None:
                # On a variable or a function (a constructor runs before main, an alias
                # redirects calls): the program as a whole means something cbam does not model.
                bad = Unsupported(attribute_unsupported(a) or a.name, self.attribute_range(a, None))
                start.unsupported = (bad.what, bad.where)
                self.report(bad)
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
                effects = self._effects_since(mark, name, fd)
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

    def typedef_attributes(self, ext: c_ast.Typedef, claimed: set[tuple[int, int]]) -> None:
        """A typedef's own attributes: one cbam does not model makes the type unsupported where
        it is used; ``aligned`` too, since cbam's scalar types carry no alignment of their own."""
        for a in self.attrs.for_decl(ext.coord):
            claimed.add(a.pos)
        for a in self.attrs.for_decl(ext.coord):
            why = attribute_unsupported(a)
            if why is None and a.name == "aligned":
                why = "the aligned attribute on a typedef"
            if why is not None:
                raise Unsupported(why, self.attribute_range(a, ext))

    def unsupported_attribute_in(self, fd: c_ast.FuncDef) -> Unsupported | None:
        """An attribute cbam does not model in a function's body (cleanup, mode, vector_size
        on a local), outside the struct bodies there (those make their struct unsupported)."""
        if not self.attrs.unsupported:
            return None
        span = self.spans.span(fd.body)
        if span is None:
            return None
        toks = self.spans.sm.tokens
        lo, hi = (toks[span[0]].line, toks[span[0]].col), (toks[span[1]].line, toks[span[1]].col)
        for a in self.attrs.unsupported:
            if a.context == "body" and lo <= a.pos <= hi:
                return Unsupported(attribute_unsupported(a) or a.name, self.attribute_range(a, fd))
        return None

    def declare_function(self, decl: c_ast.Decl, definition: bool = False) -> None:
        try:
            ft = self.resolve_type(decl.type, self.global_scope, decl)
        except Unsupported as u:
            # A placeholder type whose name keeps the reason, for the calls and the definition.
            ft = FunctionType(FloatType(f"{UNSUPPORTED_TYPE}{u.what}"), ())
        if isinstance(ft, FunctionType):
            old = self.func_types.get(decl.name)
            if old is None or (old.unprototyped and not ft.unprototyped) or definition:
                self.func_types[decl.name] = ft
            if not definition and decl.name not in self.func_defs:
                self.declared.setdefault(decl.name, self.range(decl))

    def _mark(self) -> tuple[tuple[int, int, int, int], tuple[int, int, int, int, int]]:
        """Where the effect logs end, and the size of the program state a reusable build
        must not touch."""
        logs = (len(self._new_vars), len(self._addressed), len(self._implicit), len(self.diagnostics))
        state = (len(self.static_inits), self._anon, len(self.structs), len(self.func_types), self._dispatch_uses)
        return logs, state

    def _effects_since(self, mark: tuple[tuple[int, int, int, int], tuple[int, int, int, int, int]],
                       function: str, fd: c_ast.FuncDef) -> FunctionEffects | None:
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
        return FunctionEffects(new_vars, addressed, self._implicit[n_implicit:], self.diagnostics[n_diags:],
                               sorted(names_not_called(fd.body)))

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

    def address_taken_functions(self, defined: bool = True) -> list[str]:
        """Defined functions the program names other than by calling them (the possible targets
        of a call through a function pointer), in definition order."""
        # A function built now from these lists depends on every other function's body: such a
        # build is not kept for reuse (``_mark``), or an edit elsewhere that names another
        # function would leave its calls dispatching over the old list.
        self._dispatch_uses += 1
        if self._address_taken is None:
            named = names_not_called(self.ast)
            if self.reuse is not None:  # (a reused definition is a stub here, without its body)
                for _cfa, effects in self.reuse.hits.values():
                    named.update(effects.named)
            self._address_taken = [f for f in self.func_defs if f in named]
            self._address_taken_any = sorted(f for f in named if f in self.func_types)
        return self._address_taken if defined else self._address_taken_any

    def new_var(self, name: str, t: CType, function: str | None, **kw) -> Var:
        if name not in self.vars:
            self.vars[name] = VarInfo(name, t, function, **kw)
            self._new_vars.append(name)
        return Var(name, t)


class FunctionBuilder(ExpressionBuilder, BitFieldBuilder, CallBuilder, DeclarationBuilder, InitializerBuilder, StatementBuilder,
                      VlaBuilder):
    """Builds one function's CFA (or the synthetic start function)."""

    def __init__(self, pb: ProgramBuilder, name: str | None, scope: Scope, const_only: bool = False):
        self.pb: ProgramBuilder = pb
        self.dm = pb.dm
        self.name = name or "<const>"
        self.const_only = const_only
        self.scope = Scope(scope, name) if name not in (None, START_FUNCTION) else scope
        self.nodes: list[CFANode] = []
        self.entry = self.new_node()
        self.exit = self.new_node()
        self.cur: CFANode | None = self.entry
        self.temps = 0
        self.labels: dict[str, CFANode] = {}
        self.break_stack: list[CFANode] = []
        self.continue_stack: list[CFANode] = []
        # The scopes a break or continue jumps out to (the variables of those it leaves die).
        self.break_scopes: list[Scope] = []
        self.continue_scopes: list[Scope] = []
        self.function_scope = self.scope
        self.label_scopes: dict[str, Scope] = {}
        self.pending_gotos: list[tuple[BlankEdge, Scope, str]] = []
        self.addressed_names: frozenset[str] = frozenset()
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

    def link(self, edge: EdgeT) -> EdgeT:
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

    def emit(self, cls: type[EdgeT], node: c_ast.Node | None = None, rng: Range | None = None, **kw: Any) -> EdgeT:
        if self.const_only:
            raise Unsupported("side effects in a constant expression", rng or self.pb.range(node))
        if cls is AssignEdge and (isinstance(kw.get("lhs"), BitFieldRef) or isinstance(kw.get("rhs"), BitFieldRef)):
            return cast(EdgeT, self.bitfield_assign(node, rng, kw["lhs"], kw["rhs"]))  # (an AssignEdge)
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






    # ---- whole functions ----------------------------------------------------
    def build_function(self, fd: c_ast.FuncDef) -> FunctionCFA:
        pb = self.pb
        ft = pb.func_types.get(fd.decl.name)
        params: list[str] = []
        try:
            if ft is None or not isinstance(ft, FunctionType):
                raise Unsupported("a function type cbam cannot read", pb.range(fd.decl))
            if isinstance(ft.ret, FloatType):
                raise Unsupported(unsupported_reason(ft.ret) or "floating-point return type", pb.range(fd.decl))
            if has_inline_asm(pb, fd):
                raise Unsupported("inline assembly", pb.range(fd.decl))
            bad_attribute = pb.unsupported_attribute_in(fd)
            if bad_attribute is not None:
                raise bad_attribute
            self.return_type = ft.ret
            if not isinstance(ft.ret, VoidType):
                self.result_var = pb.new_var(f"{self.name}::__retval", ft.ret, self.name, is_result=True)
            params = self.bind_params(fd)
            self.addressed_names = addressed_names(fd.body)
            self.stmt(fd.body)
            self.end_goto_scopes()
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
        if self.unsupported is None:
            accelerate(self.nodes, self.new_node, self.link, self.dm)
        cfa = FunctionCFA(
            name=self.name, entry=self.entry, exit=self.exit, params=params,
            return_type=self.return_type, result_var=self.result_var.name if self.result_var else None,
            nodes=self.nodes, range=pb.range(fd), name_range=name_range(pb, fd),
            unsupported=self.unsupported, calls=set(self.calls),
            variadic=isinstance(ft, FunctionType) and ft.variadic,  # (its last parameter is VA_AREA)
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
            declared: c_ast.Decl | None
            if isinstance(p, c_ast.ID):
                declared = knr.get(p.name)
                t = pb.param_type(declared.type, self.scope, declared) if declared is not None else self.dm.int
                pname = p.name
                rng = pb.range(p)
            else:
                declared = p
                t = pb.param_type(p.type, self.scope, p)
                if p.name is None:
                    if isinstance(t, VoidType):
                        continue
                    pname = f"__unnamed{len(params)}"
                else:
                    pname = p.name
                rng = pb.range(p)
            if isinstance(t, FloatType):
                raise Unsupported("floating-point parameters", rng)
            vid = self.unique_local(pname)
            pb.new_var(vid, t, self.name, is_param=True, range=rng)
            self.scope.vars[pname] = vid
            params.append(vid)
            if declared is not None and isinstance(declared.type, c_ast.ArrayDecl):
                self.vla_parameter(declared, vid)
        ft = pb.func_types.get(fd.decl.name)
        if isinstance(ft, FunctionType) and ft.variadic:
            # Where the caller put the extra arguments (CallBuilder.variadic_arguments), for
            # va_start (__cbam_prelude.h): a parameter after the declared ones.
            vid = self.unique_local(VA_AREA)
            pb.new_var(vid, self.dm.pointer(self.dm.char), self.name, is_param=True, range=pb.range(fd.decl))
            self.scope.vars[VA_AREA] = vid
            params.append(vid)
        return params

    def entry_object(self, entry: str, index: int, param: str, t: CType) -> Expr | None:
        """A fresh object for an entry's pointer parameter: arbitrary contents, its pointer
        members NULL (so the harness can build it); the pointer to it, converted to ``t``."""
        ot = entry_object_type(self.pb, entry, index, t)
        if ot is None:
            return None
        name = f"{self.name}::{ENTRY_OBJECT}{param.split('::', 1)[1]}"
        v = self.pb.new_var(name, ot, self.name, range=self.context_range, addressed=True)
        self.emit(DeclEdge, None, var=v, init=None)
        self.null_pointers(v)
        addr = AddrOf(Index(v, Const(0, self.dm.ptrdiff_t), ot.elem), self.dm.pointer(ot.elem)) \
            if isinstance(ot, ArrayType) else AddrOf(v, self.dm.pointer(ot))
        return addr if addr.type == t else Cast(addr, t)

    def null_pointers(self, lv: Expr) -> None:
        t = lv.type
        if isinstance(t, PointerType):
            self.emit(AssignEdge, None, lhs=lv, rhs=Cast(Const(0, self.dm.int), t))
        elif isinstance(t, ArrayType) and t.size is not None and t.size <= ENTRY_BUFFER_LENGTH:
            for i in range(t.size):
                self.null_pointers(Index(lv, Const(i, self.dm.ptrdiff_t), t.elem))
        elif isinstance(t, StructType):
            for fname, ftype in self.pb.structs.get(t.key(), []):
                self.null_pointers(Member(lv, fname, ftype))

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
            for i, p in enumerate(callee.params):
                t = self.pb.vars[p].type
                tmp = self.new_temp(t)
                target = self.entry_object(entry, i, p, t)
                self.emit(AssignEdge, None, lhs=tmp, rhs=target if target is not None
                          else Nondet(t, f"input {p.split('::', 1)[1]}"))
                args.append(tmp)
            self.calls.add(entry)
            self.emit(CallEdge, None, rng=callee.name_range, lhs=None, callee=entry, args=tuple(args))
        self.link(ReturnEdge(pred=self.here(), succ=self.exit, value=None, result_var=None))
        self.cur = None
        cfa = FunctionCFA(name=START_FUNCTION, entry=self.entry, exit=self.exit, params=[], return_type=dm.void,
                          result_var=None, nodes=self.nodes, unsupported=self.unsupported, calls=set(self.calls))
        finalize(cfa)
        return cfa




ENTRY_BUFFER_LENGTH = 16  # elements of the buffer a char *, void * or array parameter of an entry points to
ENTRY_OBJECT = "__input."  # the objects an entry's pointer parameters point to: START_FUNCTION::__input.<param>


def entry_object_type(pb: ProgramBuilder, entry: str, index: int, t: CType) -> CType | None:
    """What an entry's pointer parameter points to: one object of its pointee type, or a buffer
    of ENTRY_BUFFER_LENGTH elements for ``char *``, ``void *`` and array parameters; None when
    the pointee is incomplete or a function (the pointer is then arbitrary)."""
    if not isinstance(t, PointerType):
        return None
    target = t.target
    declared_array = False
    fd = pb.func_defs.get(entry)
    try:
        params = fd.decl.type.args.params if fd is not None else []
        declared_array = isinstance(params[index].type, c_ast.ArrayDecl)
    except (AttributeError, IndexError, TypeError):
        declared_array = False
    if isinstance(target, VoidType):
        return ArrayType(pb.dm.uchar, ENTRY_BUFFER_LENGTH)
    if declared_array and isinstance(target, ArrayType) and target.size is None:
        # Rows of variable length (`int a[n][m]`): a buffer of their elements.
        while isinstance(target, ArrayType):
            target = target.elem
        if pb.dm.sizeof(target, pb.structs) is None or isinstance(target, FunctionType):
            return None
        return ArrayType(target, ENTRY_BUFFER_LENGTH)
    if isinstance(target, FunctionType) or pb.dm.sizeof(target, pb.structs) is None:
        return None
    if declared_array or (isinstance(target, IntType) and target.bits == 8 and not target.is_bool):
        return ArrayType(target, ENTRY_BUFFER_LENGTH)
    return target


def names_not_called(node: c_ast.Node | None) -> set[str]:
    """The identifiers ``node`` uses other than as the callee of a call."""
    called: set[int] = set()
    named: set[str] = set()

    class Visitor(c_ast.NodeVisitor):
        def visit_FuncCall(self, n: c_ast.FuncCall) -> None:
            if isinstance(n.name, c_ast.ID):
                called.add(id(n.name))
            self.generic_visit(n)

        def visit_ID(self, n: c_ast.ID) -> None:
            if id(n) not in called:
                named.add(n.name)

    if node is not None:
        Visitor().visit(node)
    return named


def addressed_names(body: c_ast.Node) -> frozenset[str]:
    """The names whose address ``body`` takes (``&x``, ``&x.f``, ``&x[i]``)."""
    names: set[str] = set()

    class Visitor(c_ast.NodeVisitor):
        def visit_UnaryOp(self, node: c_ast.UnaryOp) -> None:
            if node.op == "&":
                x = node.expr
                while isinstance(x, c_ast.StructRef | c_ast.ArrayRef):
                    if isinstance(x, c_ast.StructRef) and x.type == "->":
                        break  # (the address of what a pointer points to)
                    x = x.name
                if isinstance(x, c_ast.ID):
                    names.add(x.name)
            self.generic_visit(node)

    Visitor().visit(body)
    return frozenset(names)


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



