"""Polynomial equalities at loop heads, guessed from reachable states, for Houdini to check.

Loops that compute sums, powers or products keep relations such as ``y*y - 2*x + y == 0``
that no bound by a constant expresses. As DIG does (Nguyen et al., "Using dynamic analysis to
discover polynomial and array invariants"), the guess comes from states the loop head
actually reaches: each state gives one row of the values of every monomial of the loop head's
variables (degree 2; 3 over few variables); the equalities that hold in every row are the
matrix's null space. The states come from runs of the bit-vector transition system (each
step a clause whose guard the state satisfies, nondeterministic values drawn at random), so
they are states of the machine-integer program; values are read as their type's integers.

A guess is only a candidate. kinduction._algebraic keeps what Houdini proves over integer
clauses with exact products, which cover the machine program's behaviour; an equality over
the integers that holds in a state also holds modulo 2^w (``atom`` extends each variable by
its signedness), so the facts also read as bit-vector facts.
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
from ..solving import check_within
from .system import TransitionSystem, VarKey

MAX_DEGREE = 2
CUBIC_VARIABLES = 4  # independent variables at most, for cubic equalities (sums of squares)
MAX_SAMPLES = 60  # per cut point: the cubic monomials of four variables, with room
MAX_VARIABLES = 8  # per loop head: beyond that the monomials outnumber the samples we can afford
SPARE_SAMPLES = 6  # beyond the number of monomials, so that chance equalities are unlikely
MAX_RUNS = 400  # runs from the start
RUNS_PER_SAMPLE_SET = 4  # a run gives a cut point at most this fraction of its samples
PER_RUN_MIN = 3
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
    """Candidate equalities per cut point of a function with a loop (none where the loop heads
    could not be sampled). The states come from the bit-vector system ``ts``; a variable's
    value is read as its type's integer (``signed``)."""
    looping = {h[0] for h in heads}
    wanted = {k: _variables(ts, k) for k in ts.pc_of if k[0] in looping}
    wanted = {k: vs for k, vs in wanted.items() if vs}
    heads = {h for h in heads if h in wanted}
    if not heads:
        return {}
    need = {h: min(len(_monomials(wanted[h], MAX_DEGREE + 1)), MAX_SAMPLES) + 2 * SPARE_SAMPLES for h in heads}
    rows = _samples(ts, {h: wanted[h] for h in heads}, need, heads, signed, deadline, cancelled)
    at_heads: dict[RelKey, list[Equality]] = {}
    for h in heads:
        vs = wanted.get(h)
        if vs:
            unsigned = frozenset(v for v in vs if not signed(v))
            at_heads[h] = [Equality(e.terms, unsigned) for e in _equalities(vs, rows.get(h, []))]
    # The loop heads are sampled best (every iteration passes them); each cut point of their
    # function gets their guesses, as Houdini checks each clause on its own and needs them
    # wherever a path stops (a call in the body, after the loop). It keeps what holds there.
    out: dict[RelKey, list[Equality]] = {}
    for k in wanted:
        pool = dict.fromkeys(e for h, eqs in at_heads.items() if h[0] == k[0] for e in eqs)
        if pool:
            out[k] = list(pool)
    return out


def _equalities(vs: list[VarKey], rows: list[dict[VarKey, int]]) -> list[Equality]:
    """The equalities that hold in every row: the linear ones first; then, degree by degree,
    those over the variables the linear ones leave independent that are not a lower-degree
    one times a monomial (Houdini pays for every candidate with its multiplications)."""
    linear = _monomials(vs, 1)
    if len(rows) < len(linear) + SPARE_SAMPLES // 2:
        return []
    vecs = _null_space([[_value(row, m) for m in linear] for row in rows])
    out = [Equality(tuple((c, m) for c, m in zip(vec, linear) if c)) for vec in vecs]
    # Each vector sets one variable (its own free column) by the others: keep those others.
    dependent = {linear[next(i for i in range(len(vec) - 1, -1, -1) if vec[i])] for vec in vecs}
    rest = [v for v in vs if (v,) not in dependent]
    lower: list[dict[tuple[VarKey, ...], int]] = []  # the equalities of degree 2 and up so far
    for degree in range(2, MAX_DEGREE + 2):
        monos = _monomials(rest, degree)
        if degree > MAX_DEGREE and len(rest) > CUBIC_VARIABLES or len(rows) < len(monos) + SPARE_SAMPLES:
            break
        index = {m: i for i, m in enumerate(monos)}
        multiples: list[list[int]] = []
        for e in lower:
            for m in _monomials(rest, degree - max(len(x) for x in e)):
                row = [0] * len(monos)
                for x, c in e.items():
                    row[index[tuple(sorted(x + m, key=rest.index))]] += c
                multiples.append(row)
        new = _beyond(_null_space([[_value(row, m) for m in monos] for row in rows]), multiples)
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
    for x in ints:
        g = gcd(g, x)
    return [x // g for x in ints] if g > 1 else ints


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
    instances: dict[int, _Instance] = {}
    # A run gives each cut point a share of its samples at most, so that they come from
    # several runs, with different inputs: equalities over the inputs alone are then refuted.
    share = {k: max(PER_RUN_MIN, need[k] // RUNS_PER_SAMPLE_SET) for k in wanted}
    for _ in range(MAX_RUNS):
        state: Concrete | None = _start(ts, starts, rng, deadline)
        taken = dict.fromkeys(wanted, 0)
        for _ in range(MAX_RUN_STEPS):
            if state is None or cancelled() or time.monotonic() > deadline:
                break
            pc, vals, _ = state
            h = points.get(pc)
            if h is not None and taken[h] < share[h]:
                row = tuple(vals[v] if signed(v) else vals[v] % (1 << ts.sorts[v].size()) for v in wanted[h])
                if (pc, row) not in seen:
                    seen.add((pc, row))
                    got[h].append(dict(zip(wanted[h], row)))
                    taken[h] += 1
                if all(len(got[k]) >= need[k] for k in heads):
                    return got
                if all(taken[k] >= share[k] for k in heads):
                    break
            state = _step(ts, s0, state, by_pc.get(pc, []), instances, rng, deadline)
        if cancelled() or time.monotonic() > deadline:
            break
    return got


def _start(ts: TransitionSystem, starts: list, rng: random.Random, deadline: float) -> Concrete | None:
    for t in rng.sample(starts, len(starts)):
        guard, writes = ts.instance(t, None)
        g = z3.And(*guard)
        free = [x for x in uninterpreted_consts(z3.And(g, *[e == e for e in writes.values()]))
                if isinstance(x.sort(), z3.BitVecSortRef)]
        m = _solve(g, free, rng, deadline)
        if m is not None:
            vals = {v: _eval(m, writes[v]) if v in writes else rng.randint(-8, 8) for v, sort in ts.sorts.items()
                    if isinstance(sort, z3.BitVecSortRef)}
            return ts.pc_of[t.clause.head], vals, dict.fromkeys(ts.callees, 0)
    return None


class _Instance:
    """A clause over state 0, instantiated once: its guard, its writes and its own free
    values (nondeterministic inputs, auxiliaries), fresh per clause and reused by every step,
    as each step is solved on its own."""

    def __init__(self, ts: TransitionSystem, t, s0) -> None:
        guard, self.writes = ts.instance(t, s0)
        self.guard = z3.And(*guard)
        state = {x.get_id() for x in (*s0.vals.values(), s0.pc, *s0.ret.values())}
        self.free = [x for x in uninterpreted_consts(z3.And(self.guard, *[e == e for e in self.writes.values()]))
                     if x.get_id() not in state and isinstance(x.sort(), z3.BitVecSortRef)]


def _step(ts: TransitionSystem, s0, state: Concrete, templates: list, instances: dict[int, _Instance],
          rng: random.Random, deadline: float) -> Concrete | None:
    """A successor of ``state`` by one of its clauses (None: none; the error counts as none)."""
    pc, vals, ret = state
    sub = [(s0.vals[v], _bv(x, s0.vals[v])) for v, x in vals.items()]
    sub += [(s0.pc, _bv(pc, s0.pc)), *[(s0.ret[g], _bv(r, s0.ret[g])) for g, r in ret.items()]]
    for t in rng.sample(templates, len(templates)):
        c = t.clause
        if c.head == ERROR or (c.returning and ret[c.callee] != ts.call_of[t.index]):
            continue
        inst = instances.get(t.index)
        if inst is None:
            inst = instances[t.index] = _Instance(ts, t, s0)
        guard = z3.simplify(z3.substitute(inst.guard, *sub))
        if z3.is_false(guard):
            continue
        writes = {v: z3.simplify(z3.substitute(e, *sub)) for v, e in inst.writes.items() if v in vals}
        if not inst.free and z3.is_true(guard) and all(z3.is_bv_value(e) for e in writes.values()):
            got = {v: e.as_signed_long() for v, e in writes.items()}  # a deterministic step: no solver
        else:
            m = _solve(guard, inst.free, rng, deadline)
            if m is None:
                continue
            got = {v: _eval(m, e) for v, e in writes.items()}
        back = dict(ret)
        if c.callee:
            back[c.callee] = 0 if c.returning else ts.call_of[t.index]
        return ts.pc_of[c.head], {**vals, **got}, back
    return None


def _solve(guard: z3.BoolRef, free: list[z3.ExprRef], rng: random.Random, deadline: float) -> z3.ModelRef | None:
    """A model of the guard, its free values drawn at random where it allows."""
    solver = z3.SolverFor("QF_BV")
    solver.add(guard)
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
    rows, pivots = _rref([[Fraction(x) for x in r] for r in matrix])
    out: list[list[int]] = []
    for f in (c for c in range(cols) if c not in pivots):
        vec = [Fraction(0)] * cols
        vec[f] = Fraction(1)
        for i, pc in enumerate(pivots):
            vec[pc] = -rows[i][f]
        out.append(_integral(vec))
    return out
