"""Arrays in the Horn clauses, by one distinguished cell (cell morphing).

An array that the program only ever indexes (never takes the address of, never passes to a
function, never reads a row of) becomes three scalars in the clauses: ``d``, an index chosen
arbitrarily where the array is declared and constant from then on (a tuple of indices for a
multi-dimensional array), ``v``, the value of the cell at ``d``, and, for a variable-length
array, ``n``, its length. A write ``a[i] = x`` sets ``v`` to ``x`` if ``i == d``; a read of
``a[i]`` is ``v`` if ``i == d`` and an arbitrary value otherwise. Every execution of the
program is an execution of the clauses, for every ``d``: the clauses over-approximate it,
and their invariants over ``(d, v)`` are the program's universally quantified facts
(``d < i ==> v == 7`` for a loop that has set ``a[0..i)`` to 7), which Spacer finds over
the integers without quantifiers (Monniaux and Gonnord, *Cell morphing*, SAS 2016).

Where a check fails because of a value read from an array, the read must be the
distinguished cell for the error to be derivable only from the real value: the clause that
leads to an error location is restricted to executions whose ``d`` is the index the
deciding condition reads. That loses no error: for an execution that fails there, the ``d``
equal to that index reaches the error with the true value. A call's arguments that read a
cell pass this restriction into the callee as a flag (``#exact``) that gates the callee's
error locations (``__VERIFIER_assert(a[i] == 7)``). Where one condition reads two different
cells of one array, no ``d`` reads both, and the reads stay arbitrary (sound, and weaker).

An access outside the array is undefined behaviour, which no proof may rely on: each one
is an error the clauses must exclude (``algorithms/horn/clauses.py`` adds one error clause per access).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

import z3

from ...cfa.cfa import Program, VarInfo
from ...cfa.ctype import ArrayType, IntType
from ...cfa.ir import (
    AssignEdge,
    AssumeEdge,
    CallEdge,
    Const,
    DeclEdge,
    Edge,
    Expr,
    ExternalCallEdge,
    Index,
    ReturnEdge,
    Var,
)
from ...smt.solving import extend

TYPE_CHECKING = False
if TYPE_CHECKING:
    # The encodings here are mixed into a SegmentEncoder class (horn.Encoder composes them):
    # the type checker reads them as its subclasses, which at run time they are not.
    from ...cpa.predicate.formula import SegmentEncoder as EncodingBase
else:
    EncodingBase = object

INDEX = IntType("__cbam_index", 64, True, 5)  # the distinguished index: wide enough for any index
FLAG = IntType("int", 32, True, 3)


@dataclass
class Cell:
    """One morphed array: its distinguished index per dimension, the cell's value, its lengths
    (an int for a fixed dimension, a pseudo-variable for a variable-length one)."""

    array: str
    elem: IntType
    d: list[str]
    v: str
    sizes: list[int | str]


@dataclass
class Cells:
    """The program's morphed arrays and the pseudo-variables they add to the frames."""

    arrays: dict[str, Cell] = field(default_factory=dict)
    vars: dict[str, VarInfo] = field(default_factory=dict)
    exact: dict[str, str] = field(default_factory=dict)  # function with an error location -> its flag
    # generalized constants (horn.Encoder's generalize): (value, type key) -> parameter
    params: dict[tuple[int, str], str] = field(default_factory=dict)

    @classmethod
    def of(cls, program: Program) -> Cells:
        out = cls()
        for name in sorted(_morphable(program)):
            info = program.vars[name]
            t = info.type
            dims: list[int | None] = []
            while isinstance(t, ArrayType):
                dims.append(t.size)
                t = t.elem
            assert isinstance(t, IntType)
            fn = info.function
            # With fixed inner dimensions, one index into the array as laid out (row-major):
            # a loop nest's invariant is then over ``i * 60 + j``, linear, where over ``(i, j)``
            # it would be a lexicographic disjunction that Spacer seldom finds.
            flat = len(dims) > 1 and all(s is not None for s in dims[1:])
            d = [f"{name}#d{k}" for k in range(1 if flat else len(dims))]
            sizes: list[int | str] = [s if s is not None else f"{name}#n{k}" for k, s in enumerate(dims)]
            cell = Cell(name, t, d, f"{name}#v", sizes)
            out.arrays[name] = cell
            for x in d:
                out.vars[x] = VarInfo(x, INDEX, fn)
            for s in sizes:
                if isinstance(s, str):
                    out.vars[s] = VarInfo(s, INDEX, fn)
            out.vars[cell.v] = VarInfo(cell.v, t, fn)
        if out.arrays:
            for f in program.all_functions():
                if any(n.error is not None for n in f.nodes):
                    flag = f"{f.name}::#exact"
                    out.exact[f.name] = flag
                    out.vars[flag] = VarInfo(flag, FLAG, f.name)
        return out

    def chain(self, e: Expr) -> tuple[Cell, list[Expr]] | None:
        """The morphed array and the indices of a full-depth access ``a[i][j]``, else None."""
        idx: list[Expr] = []
        while isinstance(e, Index):
            idx.append(e.index)
            e = e.base
        if not isinstance(e, Var) or e.name not in self.arrays:
            return None
        cell = self.arrays[e.name]
        return (cell, idx[::-1]) if len(idx) == len(cell.sizes) else None  # a flat cell has one d


def _morphable(program: Program) -> set[str]:
    """Arrays of integers that every use indexes to the element (else: their address escapes,
    or a row is read, and the cells of one could change behind the other's back)."""
    candidates = {n for n, v in program.vars.items() if isinstance(v.type, ArrayType) and _int_elems(v.type)
                  and not v.addressed}
    bad: set[str] = set()

    def depth(t) -> int:
        k = 0
        while isinstance(t, ArrayType):
            k, t = k + 1, t.elem
        return k

    def visit(e: Expr | None) -> None:
        if e is None:
            return
        if isinstance(e, Index):
            idx: list[Expr] = []
            root: Expr = e
            while isinstance(root, Index):
                idx.append(root.index)
                root = root.base
            if isinstance(root, Var) and root.name in candidates:
                if len(idx) != depth(program.vars[root.name].type):
                    bad.add(root.name)
                for i in idx:
                    visit(i)
                return
        if isinstance(e, Var):
            if e.name in candidates:
                bad.add(e.name)  # the array itself as a value: decayed to a pointer
            return
        for c in e.children():
            visit(c)

    for f in program.all_functions():
        for e in f.edges():
            for x in edge_exprs(e):
                visit(x)
    return candidates - bad


def _int_elems(t) -> bool:
    while isinstance(t, ArrayType):
        t = t.elem
    return isinstance(t, IntType)


def program_exprs(program: Program) -> Iterator[Expr]:
    """The expressions every edge of ``program`` holds (not their subexpressions)."""
    for f in program.all_functions():
        for edge in f.edges():
            yield from (x for x in edge_exprs(edge) if x is not None)


def edge_exprs(e: Edge) -> list[Expr | None]:
    if isinstance(e, AssignEdge):
        return [e.lhs, e.rhs]
    if isinstance(e, AssumeEdge):
        return [e.cond]
    if isinstance(e, DeclEdge):
        return [e.init, *e.lengths]  # the declared variable itself is no use of its address
    if isinstance(e, ReturnEdge):
        return [e.value]
    if isinstance(e, CallEdge | ExternalCallEdge):
        return [*e.args, e.lhs]
    return []


class CellEncoding(EncodingBase):
    """The cell semantics, mixed into a SegmentEncoder class (horn.Encoder composes them):
    reads, writes and declarations of morphed arrays. It records, per access, when the access
    is out of bounds (``ub``: the constraints before it, and the condition) and, per read, the
    edge it was made on and when it reads the distinguished cell (``reads``)."""

    cells: Cells  # set on the composed class

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.ub: list[tuple[int, z3.BoolRef]] = []
        self.reads: list[tuple[Edge | None, Cell, str, z3.BoolRef]] = []  # edge, cell, index text, hit
        self.current: Edge | None = None
        self.decided: Edge | None = None  # the last branch taken: what decides an error ahead
        # A cell read again at the same index, with no write to its array in between, is the
        # same value (two arbitrary values would let ``if (a[i] > m) m = a[i];`` lower m).
        self.seen: dict[tuple[str, str, tuple[int, ...]], z3.ExprRef] = {}

    # (the SegmentEncoder interface: th, constraints, read, write, havoc, expr, cast, arbitrary)
    def _index(self, e: Expr) -> z3.ExprRef:
        v = self.expr(e)
        t = e.type
        assert isinstance(t, IntType)
        if self.th.name == "lia" or t.bits == INDEX.bits:
            return v
        return extend(v, t, INDEX.bits)

    def _access(self, cell: Cell, idx: list[Expr]) -> tuple[z3.BoolRef, list[z3.ExprRef]]:
        xs = [self._index(i) for i in idx]
        th = self.th
        outside: list[z3.BoolRef] = []
        for x, size in zip(xs, cell.sizes):
            if isinstance(size, str):
                n = self.read(size)
            elif (size, INDEX.key()) in self.cells.params:
                n = self.read(self.cells.params[(size, INDEX.key())])
            else:
                n = th.const(size, INDEX)
            outside.append(z3.Or(x < th.const(0, INDEX), x >= n))
        self.ub.append((len(self.constraints), z3.Or(*outside)))
        if len(cell.d) == 1 and len(xs) > 1:  # one index into the array as laid out
            flat, stride = xs[-1], 1
            for x, size in zip(reversed(xs[:-1]), reversed(cell.sizes[1:])):
                assert isinstance(size, int)
                stride *= size
                flat = flat + x * th.const(stride, INDEX)
            return flat == self.read(cell.d[0]), xs
        hit = z3.And([x == self.read(d) for x, d in zip(xs, cell.d)])
        return hit, xs

    def expr(self, e: Expr) -> z3.ExprRef:
        if isinstance(e, Index):
            got = self.cells.chain(e)
            if got is not None:
                cell, idx = got
                hit, _ = self._access(cell, idx)
                # The same index expression over the same values of its variables (its terms
                # differ: each evaluation has its own arbitrary value for an overflow).
                names = sorted({v for i in idx for v in i.variables()})
                at = (cell.array, "|".join(i.canon() for i in idx),
                      tuple(self.read(v).get_id() if self.th.modelled(v) else -1 for v in names))
                r = self.seen.get(at) if -1 not in at[2] else None
                if r is None:
                    r = self.arbitrary(cell.elem)
                    self.constraints.append(z3.Implies(hit, r == self.read(cell.v)))
                    self.seen[at] = r
                self.reads.append((self.current, cell, "|".join(i.canon() for i in idx), hit))
                return r
        return super().expr(e)

    def assign(self, lhs: Expr | None, value) -> None:
        got = self.cells.chain(lhs) if isinstance(lhs, Index) else None
        if got is None:
            super().assign(lhs, value)
            return
        cell, idx = got
        new = value() if value is not None else self.arbitrary(cell.elem)
        hit, _ = self._access(cell, idx)
        self.seen = {k: r for k, r in self.seen.items() if k[0] != cell.array}
        self.write(cell.v, z3.If(hit, new, self.read(cell.v)))

    def edge(self, e: Edge, all_globals) -> None:
        self.current = e
        if isinstance(e, AssumeEdge):
            self.decided = e
        if isinstance(e, DeclEdge) and e.var is not None and e.var.name in self.cells.arrays:
            cell = self.cells.arrays[e.var.name]
            self.seen = {k: r for k, r in self.seen.items() if k[0] != cell.array}
            for d in cell.d:
                self.havoc(d)
            if e.lengths and isinstance(cell.sizes[0], str):
                # A variable-length array is one-dimensional here (its lengths' product of elements).
                n = self._index(e.lengths[0])
                for more in e.lengths[1:]:
                    n = n * self._index(more)
                self.write(cell.sizes[0], n)
            if isinstance(e.init, Const):  # a zero-filled aggregate
                self.write(cell.v, self.th.const(0, cell.elem))
            else:
                self.havoc(cell.v)
            return
        super().edge(e, all_globals)

    # ---- the exactness of deciding reads ------------------------------------------------------
    def deciding(self, edge: Edge) -> z3.BoolRef:
        """That the reads made on ``edge`` are the distinguished cells (true where an array is
        read at two different indices there: no cell is both)."""
        by_cell: dict[str, list[tuple[str, z3.BoolRef]]] = {}
        for e, cell, text, hit in self.reads:
            if e is edge:
                by_cell.setdefault(cell.array, []).append((text, hit))
        hits = [reads[0][1] for reads in by_cell.values() if len({t for t, _ in reads}) == 1]
        return z3.And(hits) if hits else z3.BoolVal(True)


__all__ = ["Cells", "CellEncoding", "FLAG", "INDEX", "edge_exprs"]
