"""Loop-invariant candidates for predicate refinement: affine equalities (Karr's analysis).

Interpolants from an unrolled error path through a counting loop name the iteration's own
values (``i == 1``, then ``i == 2``, ...), and refinement never ends. What proves such a
loop is an equality between the variables the loop changes in step, ``i + k == k0``, which
no single unrolling states. Karr's analysis finds every affine equality that holds at a
location, over the rationals, in one pass per function; the refiner offers the equalities
at the loop heads of a path it refines as predicates there.

They are candidates, not facts: the analysis ignores conditions and machine arithmetic
(wrap-around, truncation), but predicate abstraction is sound for any set of predicates,
so a candidate can only make the abstraction finer, never a verdict wrong.

The affine space at each location is kept as a point and a basis of directions (the
generator form): an assignment maps both, forgetting a variable adds its direction, and
the join of two spaces adds the other's point and directions. The lattice has the height
of the number of variables, so the fixpoint needs no widening.
"""

from __future__ import annotations

from fractions import Fraction
from math import lcm

from ...cfa.cfa import FunctionCFA, Program
from ...cfa.ctype import IntType
from ...cfa.ir import (
    AssignEdge,
    Binary,
    CallEdge,
    Cast,
    Const,
    DeclEdge,
    ExternalCallEdge,
    ReturnEdge,
    Unary,
    Var,
)
from .atoms import Atom, make_atom

MAX_VARS = 40  # beyond this a function's analysis costs more than its candidates are worth
MAX_VISITS = 50_000  # node visits per function (the fixpoint is polynomial; this bounds a pathological CFA)

Vector = list[Fraction]
Linear = tuple[dict[int, Fraction], Fraction]


class _Space:
    """An affine space: ``point + span(dirs)``, dirs in reduced echelon form (pivot -> row)."""

    __slots__ = ("point", "dirs")

    def __init__(self, point: Vector, dirs: dict[int, Vector]):
        self.point = point
        self.dirs = dirs

    def copy(self) -> _Space:
        return _Space(list(self.point), {k: list(v) for k, v in self.dirs.items()})

    def reduce(self, v: Vector) -> Vector:
        v = list(v)
        for pivot, row in self.dirs.items():
            c = v[pivot]
            if c:
                for j, r in enumerate(row):
                    if r:
                        v[j] -= c * r
        return v

    def add_dir(self, v: Vector) -> bool:
        """Add a direction; False if it was already in the span."""
        v = self.reduce(v)
        pivot = next((j for j, c in enumerate(v) if c), None)
        if pivot is None:
            return False
        c = v[pivot]
        v = [x / c for x in v]
        for row in self.dirs.values():
            f = row[pivot]
            if f:
                for j, x in enumerate(v):
                    if x:
                        row[j] -= f * x
        self.dirs[pivot] = v
        return True

    def contains(self, other: _Space) -> bool:
        diff = [a - b for a, b in zip(other.point, self.point)]
        if any(self.reduce(diff)):
            return False
        return all(not any(self.reduce(d)) for d in other.dirs.values())

    def join(self, other: _Space) -> bool:
        """Grow to the affine hull of both; False if nothing changed."""
        grew = self.add_dir([a - b for a, b in zip(other.point, self.point)])
        for d in other.dirs.values():
            grew |= self.add_dir(d)
        return grew

    def assign(self, x: int, lin: Linear | None) -> None:
        if lin is None:
            self.havoc(x)
            return
        coeffs, const = lin
        self.point[x] = sum((c * self.point[j] for j, c in coeffs.items()), const)
        rows = list(self.dirs.values())
        self.dirs = {}
        for d in rows:
            d[x] = sum((c * d[j] for j, c in coeffs.items()), Fraction(0))
            self.add_dir(d)

    def havoc(self, x: int) -> None:
        unit = [Fraction(0)] * len(self.point)
        unit[x] = Fraction(1)
        self.add_dir(unit)

    def equalities(self) -> list[tuple[Vector, Fraction]]:
        """A basis of the equations ``a . x == a . point`` that every point of the space meets."""
        n = len(self.point)
        free = [j for j in range(n) if j not in self.dirs]
        out = []
        for f in free:
            # a[f] = 1; a[p] = -row_p[f] for each pivot p; 0 elsewhere: orthogonal to every row.
            a = [Fraction(0)] * n
            a[f] = Fraction(1)
            for p, row in self.dirs.items():
                a[p] = -row[f]
            out.append((a, sum((c * x for c, x in zip(a, self.point)), Fraction(0))))
        return out


class _Function:
    def __init__(self, program: Program, fn: FunctionCFA):
        self.fn = fn
        names = set()
        for e in fn.edges():
            for v in _variables(e):
                info = program.vars.get(v)
                if info is not None and isinstance(info.type, IntType) and not info.addressed:
                    names.add(v)
        self.vars = sorted(names)
        self.index = {v: i for i, v in enumerate(self.vars)}
        self.globals = [self.index[v] for v in self.vars if program.vars[v].is_global]

    def linear(self, e) -> Linear | None:
        if isinstance(e, Const):
            return {}, Fraction(e.value)
        if isinstance(e, Var):
            i = self.index.get(e.name)
            return None if i is None else ({i: Fraction(1)}, Fraction(0))
        if isinstance(e, Cast):
            return self.linear(e.arg)
        if isinstance(e, Unary) and e.op == "-":
            inner = self.linear(e.arg)
            return None if inner is None else ({k: -c for k, c in inner[0].items()}, -inner[1])
        if isinstance(e, Binary) and e.op in ("+", "-", "*"):
            left, right = self.linear(e.left), self.linear(e.right)
            if left is None or right is None:
                return None
            if e.op == "*":
                if not left[0]:
                    left, right = right, left
                if right[0]:
                    return None  # a product of variables
                k = right[1]
                return {v: c * k for v, c in left[0].items()}, left[1] * k
            sign = 1 if e.op == "+" else -1
            coeffs = dict(left[0])
            for v, c in right[0].items():
                coeffs[v] = coeffs.get(v, Fraction(0)) + sign * c
            return coeffs, left[1] + sign * right[1]
        return None

    def transfer(self, s: _Space, e) -> _Space:
        out = s.copy()
        if isinstance(e, DeclEdge) and e.var is not None and e.var.name in self.index:
            out.assign(self.index[e.var.name], self.linear(e.init) if e.init is not None else None)
        elif isinstance(e, AssignEdge) and isinstance(e.lhs, Var) and e.lhs.name in self.index:
            out.assign(self.index[e.lhs.name], self.linear(e.rhs))
        elif isinstance(e, ReturnEdge) and e.result_var is not None and e.result_var.name in self.index:
            out.assign(self.index[e.result_var.name], self.linear(e.value) if e.value is not None else None)
        elif isinstance(e, CallEdge | ExternalCallEdge):
            for g in self.globals:
                out.havoc(g)
            if isinstance(e.lhs, Var) and e.lhs.name in self.index:
                out.havoc(self.index[e.lhs.name])
        return out

    def loop_head_equalities(self) -> dict[int, list[Atom]]:
        """canonical node index -> the affine equalities Karr's analysis finds there."""
        n = len(self.vars)
        if not n or n > MAX_VARS:
            return {}
        top = _Space([Fraction(0)] * n, {})
        for i in range(n):
            top.havoc(i)
        at = {id(self.fn.entry): top}
        work = [self.fn.entry]
        visits = 0
        while work:
            node = work.pop()
            visits += 1
            if visits > MAX_VISITS:
                return {}
            s = at[id(node)]
            for e in node.out:
                t = self.transfer(s, e)
                old = at.get(id(e.succ))
                if old is None:
                    at[id(e.succ)] = t
                    work.append(e.succ)
                elif old.join(t):
                    work.append(e.succ)
        out: dict[int, list[Atom]] = {}
        for node in self.fn.nodes:
            if not node.loop_head or id(node) not in at:
                continue
            atoms = []
            for a, k in at[id(node)].equalities():
                scale = lcm(*(c.denominator for c in (*a, k)))
                atom = make_atom("==", {self.vars[j]: int(c * scale) for j, c in enumerate(a) if c}, int(k * scale))
                if atom is not None and len(atom[1]) > 1:  # a constant variable is the interpolants' job
                    atoms.append(atom)
            if atoms:
                out[node.canon] = atoms
        return out


def _variables(e) -> set[str]:
    """The variables an edge assigns or reads (only those of these edge kinds matter here)."""
    out: set[str] = set()
    for field in ("var", "init", "lhs", "rhs", "value", "result_var"):
        x = getattr(e, field, None)
        if x is not None:
            out |= x.variables()
    return out


class LoopInvariants:
    """Per program: the affine equalities at each function's loop heads, computed on demand."""

    def __init__(self, program: Program):
        self.program = program
        self._by_function: dict[str, dict[int, list[Atom]]] = {}

    def at(self, function: str, canon: int) -> list[Atom]:
        table = self._by_function.get(function)
        if table is None:
            fn = self.program.functions.get(function)
            table = _Function(self.program, fn).loop_head_equalities() if fn is not None else {}
            self._by_function[function] = table
        return table.get(canon, [])
