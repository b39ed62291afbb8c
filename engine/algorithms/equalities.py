"""Polynomial equalities that hold in every one of a set of sampled states: the null space of
the matrix of the states' monomial values (degree 2; 3 over few variables), as DIG finds them
(Nguyen et al., "Using dynamic analysis to discover polynomial and array invariants").
k-induction samples its transition system (kinduction/algebraic.py), the guessed summaries
sample runs of the program (horn/samples.py); both hand the equalities to Houdini.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from fractions import Fraction
from math import gcd
from typing import Generic, TypeVar

import z3

# A variable's key: ("", global) or (function, local) in k-induction, a frame's placeholder name
# in the guessed summaries.
VarKey = TypeVar("VarKey", bound=Hashable)

MAX_DEGREE = 2
CUBIC_VARIABLES = 4  # independent variables at most, for cubic equalities (sums of squares)
SPARE_SAMPLES = 6  # beyond the number of monomials, so that chance equalities are unlikely


@dataclass(frozen=True)
class Equality(Generic[VarKey]):
    """``sum(coefficient * product of variables) == 0`` at a cut point, over the variables'
    integer values (``unsigned``: the variables whose type is unsigned)."""

    terms: tuple[tuple[int, tuple[VarKey, ...]], ...]
    unsigned: frozenset[VarKey] = frozenset()

    @property
    def degree(self) -> int:
        return max(len(m) for _, m in self.terms)

    @property
    def variables(self) -> set[VarKey]:
        return {v for _, m in self.terms for v in m}

    def text(self, name: Callable[[VarKey], str]) -> str:
        parts = []
        for i, (c, mono) in enumerate(self.terms):
            body = "*".join(name(v) for v in mono)
            mag = abs(c)
            term = body if mag == 1 and body else (f"{mag}*{body}" if body else str(mag))
            parts.append(("-" if c < 0 else "") + term if i == 0 else (" - " if c < 0 else " + ") + term)
        return "".join(parts) + " == 0"


def atom(eq: Equality[VarKey], vals: dict[VarKey, z3.ExprRef]) -> z3.BoolRef:
    """The equality over ``vals``: integers as they are; bit-vectors extended to the widest
    one's width by each variable's signedness, so that an equality that holds over the
    variables' integer values holds modulo 2^width too."""
    if all(isinstance(vals[v].sort(), z3.ArithSortRef) for _, mono in eq.terms for v in mono):
        return z3.Sum([c * _product([vals[v] for v in mono]) for c, mono in eq.terms]) == 0
    width = max(vals[v].size() for _, mono in eq.terms for v in mono)

    def wide(v: VarKey) -> z3.ExprRef:
        x = vals[v]
        return x if x.size() == width else (z3.ZeroExt if v in eq.unsigned else z3.SignExt)(width - x.size(), x)

    return z3.Sum([z3.BitVecVal(c, width) * _product([wide(v) for v in mono]) for c, mono in eq.terms]) == 0


def _product(xs: list[z3.ExprRef]) -> z3.ExprRef | int:
    out: z3.ExprRef | int = 1
    for x in xs:
        out = x if isinstance(out, int) else out * x
    return out


def equalities(vs: list[VarKey], rows: list[dict[VarKey, int]]) -> list[Equality[VarKey]]:
    """The equalities that hold in every row: the linear ones first; then, degree by degree,
    those over the variables the linear ones leave independent that are not a lower-degree
    one times a monomial (Houdini pays for every candidate with its multiplications)."""
    linear = monomials(vs, 1)
    if len(rows) < len(linear) + SPARE_SAMPLES // 2:
        return []
    vecs = null_space([[_value(row, m) for m in linear] for row in rows])
    out = [Equality(tuple((c, m) for c, m in zip(vec, linear) if c)) for vec in vecs]
    # Each vector sets one variable (its own free column) by the others: keep those others.
    dependent = {linear[next(i for i in range(len(vec) - 1, -1, -1) if vec[i])] for vec in vecs}
    rest = [v for v in vs if (v,) not in dependent]
    lower: list[dict[tuple[VarKey, ...], int]] = []  # the equalities of degree 2 and up so far
    for degree in range(2, MAX_DEGREE + 2):
        monos = monomials(rest, degree)
        if degree > MAX_DEGREE and len(rest) > CUBIC_VARIABLES or len(rows) < len(monos) + SPARE_SAMPLES:
            break
        index = {m: i for i, m in enumerate(monos)}
        multiples: list[list[int]] = []
        for e in lower:
            for m in monomials(rest, degree - max(len(x) for x in e)):
                row = [0] * len(monos)
                for x, c in e.items():
                    row[index[tuple(sorted(x + m, key=rest.index))]] += c
                multiples.append(row)
        new = _beyond(null_space([[_value(row, m) for m in monos] for row in rows]), multiples)
        lower += [{m: c for m, c in zip(monos, vec) if c} for vec in new]
        out += [Equality(tuple((c, m) for c, m in zip(vec, monos) if c)) for vec in new]
    # A polynomial in one variable says the variable takes a few values (the roots), which is
    # what few samples of a narrow range look like, seldom an invariant.
    return [e for e in out if any(m for _, m in e.terms) and (e.degree < 2 or len(e.variables) > 1)]


def _beyond(vecs: list[list[int]], known: list[list[int]]) -> list[list[int]]:
    """A basis (coprime integer vectors) of what ``vecs`` span beyond the span of ``known``."""
    if not vecs:
        return []
    basis, pivots = _rref([[Fraction(x) for x in r] for r in known])
    reduced = []
    for v in vecs:
        r = [Fraction(x) for x in v]
        for row, p in zip(basis, pivots):
            if r[p]:
                f = r[p]
                r = [a - f * b for a, b in zip(r, row)]
        if any(r):
            reduced.append(r)
    rows, _ = _rref(reduced)
    return [_integral(r) for r in rows]


def _rref(rows: list[list[Fraction]]) -> tuple[list[list[Fraction]], list[int]]:
    """The reduced row echelon form's nonzero rows, and each one's pivot column."""
    rows = [list(r) for r in rows]
    pivots: list[int] = []
    r = 0
    cols = len(rows[0]) if rows else 0
    for c in range(cols):
        p = next((i for i in range(r, len(rows)) if rows[i][c] != 0), None)
        if p is None:
            continue
        rows[r], rows[p] = rows[p], rows[r]
        pv = rows[r][c]
        rows[r] = [x / pv for x in rows[r]]
        for i in range(len(rows)):
            if i != r and rows[i][c] != 0:
                f = rows[i][c]
                rows[i] = [a - f * b for a, b in zip(rows[i], rows[r])]
        pivots.append(c)
        r += 1
        if r == len(rows):
            break
    return rows[:r], pivots


def _integral(vec: list[Fraction]) -> list[int]:
    """``vec`` scaled to coprime integers."""
    den = 1
    for x in vec:
        den = den * x.denominator // gcd(den, x.denominator)
    ints = [int(x * den) for x in vec]
    g = 0
    for k in ints:
        g = gcd(g, k)
    return [k // g for k in ints] if g > 1 else ints


def monomials(vs: list[VarKey], degree: int = MAX_DEGREE) -> list[tuple[VarKey, ...]]:
    return [m for d in range(degree + 1) for m in itertools.combinations_with_replacement(vs, d)]


def _value(row: dict[VarKey, int], mono: tuple[VarKey, ...]) -> int:
    out = 1
    for v in mono:
        out *= row[v]
    return out


def null_space(matrix: list[list[int]]) -> list[list[int]]:
    """A basis of the vectors ``c`` with ``row . c == 0`` for every row, each with coprime
    integer entries (from the reduced row echelon form, so the basis does not depend on the
    rows' order)."""
    if not matrix:
        return []
    cols = len(matrix[0])
    rows, pivots = _rref([[Fraction(x) for x in r] for r in matrix])
    out: list[list[int]] = []
    for f in (c for c in range(cols) if c not in pivots):
        vec = [Fraction(0)] * cols
        vec[f] = Fraction(1)
        for i, pc in enumerate(pivots):
            vec[pc] = -rows[i][f]
        out.append(_integral(vec))
    return out
