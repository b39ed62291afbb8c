"""Variable-length arrays: ``int A[n][m]`` as a local variable, ``int a[n][m]`` as a parameter.

Every variable length is copied, when the declaration runs (a parameter's: when the function
is entered), into a hidden variable (a temporary): C fixes an array's lengths then, whatever
``n`` and ``m`` become later. A local VLA is one object of ``n*m`` elements, a variable of the
flat type ``int[]`` whose declaration edge carries its lengths (DeclEdge.lengths), and indexing
is row-major arithmetic on those hidden lengths: ``A[i][j]`` is ``A[i*m + j]`` and
``sizeof A[i]`` is ``m * sizeof(int)``. So the analyses see only what they already model, a
one-dimensional array whose size is known when it is declared, indexed by an expression, and
the memory-safety check's bounds are the whole object's.

While an expression is built, an array that is not yet indexed down to an element is a
:class:`VlaSlice` (``A``, ``A[i]``) or, for a parameter, a :class:`VlaPointer` (``a``, whose
type is a pointer to rows of variable length). Neither ever reaches a CFA: indexing one gives
an ``Index`` or ``Deref`` of an element, and using one as a value (``rvalue``) gives a pointer.
(Both are defined in translate/forms.py, with ``VlaShape``.)
"""

from __future__ import annotations

from pycparser import c_ast

from ...frontend.errors import Unsupported
from ..ctype import ArrayType, CType
from ..ir import AddrOf, AssignEdge, Binary, Cast, Const, DeclEdge, Deref, Expr, FitsEdge, Index, Var
from .forms import VlaPointer, VlaShape, VlaSlice
from .parts import BuilderParts


class _Variable:
    """A length that is not an integer constant expression."""


VARIABLE = _Variable()


class VlaBuilder(BuilderParts):
    """Variable-length arrays (a part of FunctionBuilder)."""

    # ---- declarations ---------------------------------------------------------------------
    def array_length(self, a: c_ast.ArrayDecl) -> int | None | _Variable:
        """An array declarator's length: a constant, None if it has none (``[]``), or VARIABLE."""
        if a.dim is None:
            return None
        try:
            return self.pb.const_int(a.dim, self.scope)
        except Unsupported:
            return VARIABLE

    def hidden_length(self, dim: c_ast.Node) -> Var:
        """The length ``dim`` evaluated now, kept in a hidden variable."""
        size_t = self.dm.size_t
        tmp = self.new_temp(size_t, self.pb.range(dim))
        self.emit(AssignEdge, dim, lhs=tmp, rhs=self.convert(self.rvalue(self.expr(dim)), size_t))
        return tmp

    def lengths_of(self, chain: list[c_ast.ArrayDecl], sizes: list, what: c_ast.Node) -> tuple[Expr, ...]:
        out: list[Expr] = []
        for a, size in zip(chain, sizes):
            if size is VARIABLE:
                out.append(self.hidden_length(a.dim))
            elif size is None:
                raise Unsupported("a variable-length array with a length missing", self.pb.range(what))
            else:
                out.append(Const(size, self.dm.size_t))
        return tuple(out)

    def vla_element_type(self, node: c_ast.Node, where: c_ast.Node) -> CType:
        elem = self.pb.resolve_type(node, self.scope, where)
        if self.dm.sizeof(elem, self.pb.structs) is None:
            raise Unsupported(f"a variable-length array of {elem}, a type of no known size", self.pb.range(where))
        return elem

    def vla_declaration(self, decl: c_ast.Decl) -> bool:
        """A local variable whose array lengths are not all constant: declared here (its lengths
        evaluated, then the object made); False if it is no variable-length array."""
        pb = self.pb
        chain = array_chain(decl.type)
        sizes = [self.array_length(a) for a in chain]
        if not any(s is VARIABLE for s in sizes):
            return False
        if decl.init is not None or "static" in decl.storage:
            raise Unsupported("an initialised or static variable-length array", pb.range(decl))
        last = max(k for k, s in enumerate(sizes) if s is VARIABLE)
        # Constant lengths inside the last variable one stay in the element type.
        elem = self.vla_element_type(chain[last].type, decl)
        # The lengths are evaluated before the name is declared: in `int n[n]` the length is
        # the outer n.
        dims = self.lengths_of(chain[:last + 1], sizes[:last + 1], decl)
        self.vla_fits(dims, elem, decl)
        flat = ArrayType(elem, None)
        vid = self.unique_local(decl.name)
        var = pb.new_var(vid, flat, self.name, range=pb.range(decl))
        self.scope.vars[decl.name] = vid
        self.scope.objects.append(var)
        pb.vla_shapes[vid] = VlaShape(dims, elem, False)
        self.emit(DeclEdge, decl, var=var, init=None, lengths=dims)
        return True

    def vla_fits(self, dims: tuple[Expr, ...], elem: CType, decl: c_ast.Decl) -> None:
        """A run goes on past the declaration only where the array fits in the largest object
        the data model has (PTRDIFF_MAX bytes, as gcc's "exceeds maximum object size"): no
        stack holds a larger one, and the code gcc emits computes its size modulo SIZE_MAX + 1,
        then crashes at the first access beyond the stack. So the run stops there, as at a
        failed ``__VERIFIER_assume``, and never calls the error function. Without this the
        wrapped size was the object's: in ILP32 bench/memory's ``unsigned A[1000][1500][1800]``
        had 2,210,065,408 bytes, its rows overlapped, and the exact path check gave up on them.
        The product is taken in a type twice as wide as size_t, one length at a time, each
        partial product checked before the next: it never wraps."""
        dm = self.dm
        wide = dm.ullong if dm.size_t.bits <= 32 else dm.uint128
        size = dm.sizeof(elem, self.pb.structs) or 0
        limit = Const(dm.ptrdiff_t.max, wide)
        rng = self.pb.range(decl)
        total: Expr = Const(size, wide)
        for d in dims:
            total = self._arith("*", total, d, wide)
            fits = self.fold(Binary("<=", total, limit, dm.int))
            if isinstance(fits, Const) and fits.value != 0:
                continue
            src, cont, stop = self.here(), self.new_node(), self.new_node()
            text = f"sizeof {decl.name} <= PTRDIFF_MAX"
            self.link(FitsEdge(pred=src, succ=cont, range=rng, text=text, cond=fits, truth=True))
            self.link(FitsEdge(pred=src, succ=stop, range=rng, text=text, cond=fits, truth=False))
            self.cur = cont

    def vla_parameter(self, p: c_ast.Decl, vid: str) -> None:
        """A parameter declared as an array: C evaluates its lengths on entry. Its inner lengths,
        when variable, are kept for indexing it; the outermost one only for its side effects (the
        parameter is a pointer)."""
        chain = array_chain(p.type)
        outer, inner = chain[0], chain[1:]
        if self.array_length(outer) is VARIABLE:
            self.expr(outer.dim, False)
        sizes = [self.array_length(a) for a in inner]
        if not any(s is VARIABLE for s in sizes):
            return
        last = max(k for k, s in enumerate(sizes) if s is VARIABLE)
        elem = self.vla_element_type(inner[last].type, p)
        dims = self.lengths_of(inner[:last + 1], sizes[:last + 1], p)
        self.pb.vla_shapes[vid] = VlaShape(dims, elem, True)

    def vla_variable(self, var: Var, shape: VlaShape) -> Expr:
        """What the name of a variable-length array (or such a parameter) stands for."""
        if shape.parameter:
            return VlaPointer(var, shape.dims, shape.elem, var.type)
        return VlaSlice(var, Const(0, self.dm.int), shape.dims, shape.elem, vla_type(shape.dims, shape.elem))

    # ---- expressions ----------------------------------------------------------------------
    def vla_index(self, a: VlaSlice | VlaPointer, i: Expr) -> Expr:
        """``a[i]``: a row (a smaller slice) or, past the last variable length, an element."""
        if isinstance(a, VlaPointer):
            base: Expr = Cast(a.var, self.dm.pointer(a.elem))
            start: Expr = Const(0, self.dm.ptrdiff_t)
            inner = a.dims
        else:
            base, start, inner = a.base, a.start, a.dims[1:]
        start = self._arith("+", start, self._arith("*", i, self._product(inner, self.dm.ptrdiff_t)))
        if inner:
            return VlaSlice(base, start, inner, a.elem, vla_type(inner, a.elem))
        return self._element(base, start, a.elem)

    def vla_rvalue(self, e: VlaSlice | VlaPointer) -> Expr:
        """An array used as a value: a pointer to its first row (or element)."""
        if isinstance(e, VlaPointer):
            return e.var
        return self._pointer(e.base, e.start, e.elem, vla_type(e.dims[1:], e.elem))

    def vla_address(self, e: VlaSlice) -> Expr:
        """``&A``, ``&A[i]``: a pointer to the whole slice (its address is its first element's)."""
        return self._pointer(e.base, e.start, e.elem, e.type)

    def vla_sizeof(self, e: VlaSlice) -> Expr:
        size_t = self.dm.size_t
        es = self.dm.sizeof(e.elem, self.pb.structs)
        if es is None:
            raise Unsupported("sizeof of an incomplete type", None)
        return self._arith("*", self._product(e.dims, size_t), Const(es, size_t), size_t)

    def _element(self, base: Expr, k: Expr, elem: CType) -> Expr:
        if isinstance(base.type, ArrayType):
            return Index(base, k, elem)
        return Deref(self.binary("+", base, k, None), elem)

    def _pointer(self, base: Expr, start: Expr, elem: CType, target: CType) -> Expr:
        pt = self.dm.pointer(target)
        if isinstance(base.type, ArrayType):
            if isinstance(start, Const) and start.value == 0:
                start = Const(0, self.dm.int)  # as rvalue() takes any array's address
            p: Expr = AddrOf(Index(base, start, elem), self.dm.pointer(elem))
        else:
            p = base if isinstance(start, Const) and start.value == 0 else self.binary("+", base, start, None)
        return p if p.type == pt else Cast(p, pt)

    def _product(self, dims: tuple[Expr, ...], t: CType) -> Expr:
        out: Expr = Const(1, t)
        for d in dims:
            out = self._arith("*", out, d, t)
        return out

    def _arith(self, op: str, a: Expr, b: Expr, t: CType | None = None) -> Expr:
        """``a op b`` in ``t`` (ptrdiff_t unless given), without multiplying by 1 or adding 0."""
        t = t or self.dm.ptrdiff_t
        a, b = self.convert(a, t), self.convert(b, t)
        unit = 1 if op == "*" else 0
        if isinstance(a, Const) and a.value == unit:
            return b
        if isinstance(b, Const) and b.value == unit:
            return a
        if op == "*" and any(isinstance(x, Const) and x.value == 0 for x in (a, b)):
            return Const(0, t)
        return self.fold(Binary(op, a, b, t))


def array_chain(node: c_ast.Node) -> list[c_ast.ArrayDecl]:
    """The array declarators a declarator starts with: ``A[n][m]`` has two."""
    chain: list[c_ast.ArrayDecl] = []
    while isinstance(node, c_ast.ArrayDecl):
        chain.append(node)
        node = node.type
    return chain


def vla_type(dims: tuple[Expr, ...], elem: CType) -> CType:
    """The C type of an array of these lengths (no known length where it is variable)."""
    t = elem
    for d in reversed(dims):
        t = ArrayType(t, d.value if isinstance(d, Const) else None)
    return t
