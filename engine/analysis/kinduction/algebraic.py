"""Polynomial equalities at loop heads, guessed from reachable states, for Houdini to check.

Loops that compute sums, powers or products keep relations such as ``y*y - 2*x + y == 0``
that no bound by a constant expresses. As DIG does (Nguyen et al., "Using dynamic analysis to
discover polynomial and array invariants"), the guess comes from states the loop head
actually reaches: each state gives one row of the values of every monomial of the loop head's
variables up to ``MAX_DEGREE``; the equalities that hold in every row are the matrix's null
space. The states come from bounded model checking over the same bit-vector transition
system, so they are states of the machine-integer program.

A guess is only a candidate: Houdini keeps it only if the start establishes it and every
clause preserves it, with bit-vectors. An equality over the integers that holds in a state
also holds modulo 2^w, so the check is over the same values the samples saw (read as signed
and sign-extended to the widest variable's width, in both places).
"""

from __future__ import annotations

import itertools
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from math import gcd

import z3

from ..horn import ERROR, RelKey
from ..predicate.refiner import uninterpreted_consts
from ..smt import check_within
from .system import TransitionSystem, VarKey

MAX_DEGREE = 2
MAX_VARIABLES = 8  # per loop head: beyond that the monomials outnumber the samples we can afford
SPARE_SAMPLES = 6  # beyond the number of monomials, so that chance equalities are unlikely
MAX_RUNS = 200  # runs from the start
MAX_RUN_STEPS = 2_000  # transitions per run
RANDOM_RANGE = 16  # nondeterministic values are drawn from [-16, 16] where the guard allows
SAMPLE_MS = 2_000  # one solver check's share at most
MAX_WIDTH = 64


@dataclass(frozen=True)
class Equality:
    """``sum(coefficient * product of variables) == 0`` at a cut point, over the variables'
    integer values (``unsigned``: the variables whose type is unsigned)."""

    terms: tuple[tuple[int, tuple[VarKey, ...]], ...]
    unsigned: frozenset[VarKey] = frozenset()

    def text(self, name: Callable[[VarKey], str]) -> str:
        parts = []
        for i, (c, mono) in enumerate(self.terms):
            body = "*".join(name(v) for v in mono)
            mag = abs(c)
            term = body if mag == 1 and body else (f"{mag}*{body}" if body else str(mag))
            parts.append(("-" if c < 0 else "") + term if i == 0 else (" - " if c < 0 else " + ") + term)
        return "".join(parts) + " == 0"


def atom(eq: Equality, vals: dict[VarKey, z3.ExprRef]) -> z3.BoolRef:
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


def guess(ts: TransitionSystem, heads: set[RelKey], signed: Callable[[VarKey], bool], deadline: float,
          cancelled: Callable[[], bool]) -> dict[RelKey, list[Equality]]:
    """Candidate equalities per cut point of a function with a loop (none for a cut point
    whose states could not be sampled): Houdini needs them wherever a path through the loop
    body stops, as each clause is checked on its own. The states come from the bit-vector
    system ``ts``; a variable's value is read as its type's integer (``signed``)."""
    looping = {h[0] for h in heads}
    wanted = {k: _variables(ts, k) for k in ts.pc_of if k[0] in looping}
    wanted = {k: vs for k, vs in wanted.items() if vs}
    if not wanted:
        return {}
    need = {k: len(_monomials(vs)) + SPARE_SAMPLES for k, vs in wanted.items()}
    rows = _samples(ts, wanted, need, {h for h in heads if h in wanted}, signed, deadline, cancelled)
    out: dict[RelKey, list[Equality]] = {}
    for k, vs in wanted.items():
        unsigned = frozenset(v for v in vs if not signed(v))
        eqs = [Equality(e.terms, unsigned) for e in _equalities(vs, rows.get(k, []))]
        if eqs:
            out[k] = eqs
    # A cut point visited too rarely for a guess of its own (after the loop, say) gets the
    # guesses of its function's other cut points: Houdini keeps those that hold there.
    for k in wanted:
        pool = dict.fromkeys(e for j, eqs in out.items() if j[0] == k[0] for e in eqs)
        out[k] = list(pool)
    return {k: v for k, v in out.items() if v}


def _equalities(vs: list[VarKey], rows: list[dict[VarKey, int]]) -> list[Equality]:
    """The equalities that hold in every row: the linear ones first, then those of higher
    degree over the variables the linear ones leave independent (so that no candidate is
    a linear one times a monomial, which Houdini would pay for with a multiplication each)."""
    linear = _monomials(vs, 1)
    if len(rows) < len(linear) + SPARE_SAMPLES // 2:
        return []
    vecs = _null_space([[_value(row, m) for m in linear] for row in rows])
    out = [Equality(tuple((c, m) for c, m in zip(vec, linear) if c)) for vec in vecs]
    # Each vector sets one variable (its own free column) by the others: keep those others.
    dependent = {linear[next(i for i in range(len(vec) - 1, -1, -1) if vec[i])] for vec in vecs}
    rest = [v for v in vs if (v,) not in dependent]
    monos = _monomials(rest, MAX_DEGREE)
    if len(rows) >= len(monos) + SPARE_SAMPLES // 2:
        vecs = _null_space([[_value(row, m) for m in monos] for row in rows])
        out += [Equality(tuple((c, m) for c, m in zip(vec, monos) if c)) for vec in vecs]
    return [e for e in out if any(m for _, m in e.terms)]


def _variables(ts: TransitionSystem, head: RelKey) -> list[VarKey]:
    vs = [v for v in [*ts.locals.get(head[0], []), *ts.locals.get("", [])]
          if not _temporary(v[1]) and isinstance(ts.sorts[v], z3.BitVecSortRef) and 1 < ts.sorts[v].size() <= MAX_WIDTH]
    return vs if len(vs) <= MAX_VARIABLES else []


def _temporary(name: str) -> bool:
    """The front end's own variables (a call's result, the return value): they hold what the
    program's variables already say, or nothing between the statements that use them."""
    short = name.split("::")[-1]
    return short == "__retval" or short.startswith("__t") and short[3:].isdigit()


def _monomials(vs: list[VarKey], degree: int = MAX_DEGREE) -> list[tuple[VarKey, ...]]:
    return [m for d in range(degree + 1) for m in itertools.combinations_with_replacement(vs, d)]


def _value(row: dict[VarKey, int], mono: tuple[VarKey, ...]) -> int:
    out = 1
    for v in mono:
        out *= row[v]
    return out


Concrete = tuple[int, dict[VarKey, int], dict[str, int]]  # pc, values, each callee's return point


def _samples(ts: TransitionSystem, wanted: dict[RelKey, list[VarKey]], need: dict[RelKey, int], heads: set[RelKey],
             signed: Callable[[VarKey], bool], deadline: float,
             cancelled: Callable[[], bool]) -> dict[RelKey, list[dict[VarKey, int]]]:
    """Distinct states at each wanted cut point, from runs of the transition system until
    every loop head has what it needs: each step takes a clause whose guard the current state
    satisfies, with the clause's nondeterministic values drawn at random where the guard
    allows (so that runs differ), else as the solver picks."""
    rng = random.Random(0)
    points = {ts.pc_of[k]: k for k in wanted}
    got: dict[RelKey, list[dict[VarKey, int]]] = {h: [] for h in wanted}
    seen: set[tuple[int, tuple[int, ...]]] = set()
    s0 = ts.state(0)
    by_pc: dict[int, list] = {}
    for t in ts.templates:
        if t.clause.body:
            by_pc.setdefault(ts.pc_of[t.clause.body[-1][0]], []).append(t)
    starts = [t for t in ts.templates if not t.clause.body]
    for _ in range(MAX_RUNS):
        state: Concrete | None = _start(ts, starts, rng, deadline)
        for _ in range(MAX_RUN_STEPS):
            if state is None or cancelled() or time.monotonic() > deadline:
                break
            pc, vals, _ = state
            h = points.get(pc)
            if h is not None:
                row = tuple(vals[v] if signed(v) else vals[v] % (1 << ts.sorts[v].size()) for v in wanted[h])
                if (pc, row) not in seen:
                    seen.add((pc, row))
                    got[h].append(dict(zip(wanted[h], row)))
                if all(len(got[k]) >= need[k] for k in heads):
                    return got
            state = _step(ts, s0, state, by_pc.get(pc, []), rng, deadline)
        if cancelled() or time.monotonic() > deadline:
            break
    return got


def _start(ts: TransitionSystem, starts: list, rng: random.Random, deadline: float) -> Concrete | None:
    for t in rng.sample(starts, len(starts)):
        guard, writes = ts.instance(t, None)
        m = _solve(guard, writes, rng, deadline)
        if m is not None:
            vals = {v: _eval(m, writes[v]) if v in writes else rng.randint(-8, 8) for v, sort in ts.sorts.items()
                    if isinstance(sort, z3.BitVecSortRef)}
            return ts.pc_of[t.clause.head], vals, dict.fromkeys(ts.callees, 0)
    return None


def _step(ts: TransitionSystem, s0, state: Concrete, templates: list, rng: random.Random,
          deadline: float) -> Concrete | None:
    """A successor of ``state`` by one of its clauses (None: none; the error counts as none)."""
    pc, vals, ret = state
    sub = [(s0.vals[v], _bv(x, s0.vals[v])) for v, x in vals.items()]
    for t in rng.sample(templates, len(templates)):
        c = t.clause
        if c.head == ERROR or (c.returning and ret[c.callee] != ts.call_of[t.index]):
            continue
        guard, writes = ts.instance(t, s0)
        guard = [z3.substitute(g, *sub) for g in guard]
        writes = {v: z3.substitute(e, *sub) for v, e in writes.items()}
        m = _solve(guard, writes, rng, deadline)
        if m is None:
            continue
        new = dict(vals)
        for v, e in writes.items():
            if v in new:
                new[v] = _eval(m, e)
        back = dict(ret)
        if c.callee:
            back[c.callee] = 0 if c.returning else ts.call_of[t.index]
        return ts.pc_of[c.head], new, back
    return None


def _solve(guard: list[z3.BoolRef], writes: dict[VarKey, z3.ExprRef], rng: random.Random,
           deadline: float) -> z3.ModelRef | None:
    """A model of the guard, its free values drawn at random where it allows."""
    g = z3.simplify(z3.And(*guard))
    if z3.is_false(g):
        return None
    free = [x for x in uninterpreted_consts(z3.And(g, *[e == e for e in writes.values()]))
            if isinstance(x.sort(), z3.BitVecSortRef)]
    solver = z3.SolverFor("QF_BV")
    solver.add(g)
    left = min(SAMPLE_MS, int((deadline - time.monotonic()) * 1000))
    if left <= 0:
        return None
    pins = [x == _bv(rng.randint(-RANDOM_RANGE, RANDOM_RANGE), x) for x in free]
    if pins and check_within(solver, left, *pins) == z3.sat:
        return solver.model()
    return solver.model() if check_within(solver, left) == z3.sat else None


def _eval(m: z3.ModelRef, e: z3.ExprRef) -> int:
    return m.eval(e, model_completion=True).as_signed_long()


def _bv(x: int, like: z3.ExprRef) -> z3.BitVecNumRef:
    return z3.BitVecVal(x, like.size())


def _null_space(matrix: list[list[int]]) -> list[list[int]]:
    """A basis of the vectors ``c`` with ``row . c == 0`` for every row, each with coprime
    integer entries (from the reduced row echelon form, so the basis does not depend on the
    rows' order)."""
    if not matrix:
        return []
    cols = len(matrix[0])
    rows = [[Fraction(x) for x in r] for r in matrix]
    pivots: list[int] = []
    r = 0
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
    free = [c for c in range(cols) if c not in pivots]
    out: list[list[int]] = []
    for f in free:
        vec = [Fraction(0)] * cols
        vec[f] = Fraction(1)
        for i, pc in enumerate(pivots):
            vec[pc] = -rows[i][f]
        den = 1
        for x in vec:
            den = den * x.denominator // gcd(den, x.denominator)
        ints = [int(x * den) for x in vec]
        g = 0
        for x in ints:
            g = gcd(g, x)
        out.append([x // g for x in ints] if g > 1 else ints)
    return out
