"""Declarations and initialisers: globals, locals, aggregates and zero fill"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from pycparser import c_ast

from ...frontend.errors import Range, Unsupported
from ..ctype import (
    ArrayType,
    CType,
    FloatType,
    IntType,
    PointerType,
    StructType,
)
from ..ir import (
    AssignEdge,
    BlankEdge,
    Cast,
    Const,
    DeclEdge,
    Expr,
    Index,
    Member,
    Nondet,
    Var,
)
from .common import (
    NONDET_PREFIX,
    Scope,
    unsupported_reason,
)
from .parts import BuilderParts


class DeclarationBuilder(BuilderParts):
    """Declarations and initialisers: globals, locals, aggregates and zero fill (a part of FunctionBuilder)."""

    # ---- declarations -----------------------------------------------------
    @contextmanager
    def block_scope(self) -> Iterator[None]:
        self.scope = Scope(self.scope)
        try:
            yield
            self.end_scopes(self.scope.parent)
        finally:
            assert self.scope.parent is not None
            self.scope = self.scope.parent

    def leaving(self, scope: Scope | None, stop: Callable[[Scope], bool] = lambda _: False) -> list[Var]:
        """The variables in memory of the blocks from ``scope`` outwards, innermost (and last
        declared) first, up to the first block ``stop`` accepts. The function's outermost block
        is never among them: it is left by returning, which ends them all."""
        ends: list[Var] = []
        while scope is not None and not stop(scope) and scope.parent is not self.function_scope:
            ends += reversed(scope.objects)
            scope = scope.parent
        return ends

    def end_scopes(self, until: Scope | None, node: c_ast.Node | None = None) -> None:
        """Control leaves the blocks from the current one up to ``until`` (not included): the
        lifetimes of their variables in memory end (an edge that says so, if there are any)."""
        ends = self.leaving(self.scope, lambda s: s is until)
        if ends and self.cur is not None:
            rng, text = self.pb.range(node) if node is not None else None, ""
            if node is None and self.context_range is not None:  # the block's closing brace
                r = self.context_range
                rng, text = Range(r.file, r.end_line, max(1, r.end_col - 1), r.end_line, r.end_col), "}"
            self.emit(BlankEdge, node, rng=rng, ends=tuple(ends), label="end of scope", text=text)

    def end_goto_scopes(self) -> None:
        """Fill in the lifetimes each goto ends: those of the blocks it leaves, the blocks around
        it that are not around its label. (A goto into a block past a declaration does not begin
        that variable's lifetime again.)"""
        for edge, scope, label in self.pending_gotos:
            around_label: set[int] = set()
            t: Scope | None = self.label_scopes.get(label)
            while t is not None:
                around_label.add(id(t))
                t = t.parent

            def around(s: Scope, ids: set[int] = around_label) -> bool:
                return id(s) in ids

            edge.ends = tuple(self.leaving(scope, around))

    def lives_in_memory(self, name: str, t: CType) -> bool:
        """Whether a local may live in memory: an aggregate, or a variable whose address the
        function takes somewhere (by name: a shadowed one counts too)."""
        return isinstance(t, ArrayType | StructType) or name in self.addressed_names

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
        t = self.completed_type(pb.resolve_type(decl.type, pb.global_scope, decl), decl.init)
        name = decl.name
        existing = pb.vars.get(name)
        pb.global_scope.vars[name] = name
        # extern int x; then int x;: the second is the definition, and x starts as zero (C11
        # 6.9.2p2), not as the unknown value an object defined elsewhere has.
        defines = name in pb.extern_only and "extern" not in decl.storage
        if existing is not None and decl.init is None and not defines:
            return  # a tentative or extern re-declaration
        if existing is None:
            pb.new_var(name, t, None, range=pb.range(decl))
        elif isinstance(existing.type, ArrayType) and existing.type.size is None:
            existing.type = t  # extern char s[]; then char s[] = "ab": the definition completes it
        if isinstance(t, FloatType):
            if decl.init is not None:
                raise Unsupported("floating-point globals", pb.range(decl))
            return
        if "extern" not in decl.storage:
            self.no_unsupported_layout(t, decl)
        if "extern" in decl.storage and decl.init is None:
            # Defined elsewhere: its initial value is unknown.
            pb.extern_only[name] = self.emit(DeclEdge, decl, var=Var(name, t), init=Nondet(
                t, f"extern {name}") if isinstance(t, IntType) else None, is_global=True)
            return
        declared = pb.extern_only.pop(name, None)
        if declared is not None:
            # The extern declaration's edge declares what is defined here: of the definition's
            # (complete) type, and no input (a harness must not define it again).
            declared.var, declared.init = Var(name, t), None
        self.init_var(Var(name, t), decl, is_global=True)

    def no_unsupported_layout(self, t: CType, decl: c_ast.Decl) -> None:
        """A variable of a struct whose layout cbam could not read is a use of it: the memory
        models need its size (such a struct only matters where used: headers declare many)."""
        while isinstance(t, ArrayType):
            t = t.elem
        if isinstance(t, StructType) and t.key() in self.pb.unsupported_structs:
            raise Unsupported(self.pb.unsupported_structs[t.key()], self.pb.range(decl))

    def init_var(self, var: Var, decl: c_ast.Decl, is_global: bool) -> None:
        t = var.type
        init = decl.init
        zero = is_global or init is not None
        aggregate = isinstance(t, ArrayType | StructType)
        if init is None:
            # Static storage starts as zero: one edge for a whole aggregate (an analysis keeps a
            # zero-filled object as one fact, however large it is).
            default = Const(0, t) if is_global and (isinstance(t, IntType) or aggregate) else None
            self.emit(DeclEdge, decl, var=var, init=default, is_global=is_global)
            if is_global and isinstance(t, PointerType):
                self.zero_fill(var, decl)
            return
        if aggregate:
            self.emit(DeclEdge, decl, var=var, init=Const(0, t) if zero else None, is_global=is_global)
            self.initialise(var, t, init, decl)
            return
        if (isinstance(init, c_ast.FuncCall) and isinstance(init.name, c_ast.ID)
                and init.name.name.startswith(NONDET_PREFIX) and init.name.name not in self.pb.func_defs
                and not init.args and self.nondet_type(init.name.name, self.pb.range(init), t) == t):
            # int x = __VERIFIER_nondet_int(); is one step, not a temporary and a copy.
            self.emit(DeclEdge, decl, var=var, init=Nondet(t, init.name.name), is_global=is_global)
            return
        if isinstance(init, c_ast.InitList) and not init.exprs:  # int x = {}; (GNU C, C23)
            init = c_ast.Constant("int", "0", init.coord)
        e = self.rvalue(self.expr(init.exprs[0] if isinstance(init, c_ast.InitList) else init))
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
        if isinstance(decl.type, c_ast.ArrayDecl) and self.vla_declaration(decl):
            return
        t = pb.resolve_type(decl.type, self.scope, decl)
        if isinstance(t, FloatType):
            raise Unsupported(unsupported_reason(t) or "floating-point variables", pb.range(decl))
        self.no_unsupported_layout(t, decl)
        t = self.completed_type(t, decl.init)
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
        if self.lives_in_memory(decl.name, t):
            self.scope.objects.append(var)
        self.init_var(var, decl, is_global=False)
