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

import random
import time
from collections.abc import Callable

import z3

from ...smt.solving import check_within
from ...smt.terms import uninterpreted_consts
from ..equalities import MAX_DEGREE, SPARE_SAMPLES, Equality, equalities, monomials
from ..horn.clauses import ERROR, RelKey
from .system import TransitionSystem, VarKey

MAX_SAMPLES = 60  # per cut point: the cubic monomials of four variables, with room
MAX_VARIABLES = 8  # per loop head: beyond that the monomials outnumber the samples we can afford
MAX_RUNS = 400  # runs from the start
RUNS_PER_SAMPLE_SET = 4  # a run gives a cut point at most this fraction of its samples
PER_RUN_MIN = 3
MAX_RUN_STEPS = 2_000  # transitions per run
RANDOM_RANGE = 16  # nondeterministic values are drawn from [-16, 16] where the guard allows
SAMPLE_MS = 2_000  # one solver check's share at most
MAX_WIDTH = 64


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
    need = {h: min(len(monomials(wanted[h], MAX_DEGREE + 1)), MAX_SAMPLES) + 2 * SPARE_SAMPLES for h in heads}
    rows = _samples(ts, {h: wanted[h] for h in heads}, need, heads, signed, deadline, cancelled)
    at_heads: dict[RelKey, list[Equality]] = {}
    for h in heads:
        vs = wanted.get(h)
        if vs:
            unsigned = frozenset(v for v in vs if not signed(v))
            at_heads[h] = [Equality(e.terms, unsigned) for e in equalities(vs, rows.get(h, []))]
    # The loop heads are sampled best (every iteration passes them); each cut point of their
    # function gets their guesses, as Houdini checks each clause on its own and needs them
    # wherever a path stops (a call in the body, after the loop). It keeps what holds there.
    out: dict[RelKey, list[Equality]] = {}
    for k in wanted:
        pool = dict.fromkeys(e for h, eqs in at_heads.items() if h[0] == k[0] for e in eqs)
        if pool:
            out[k] = list(pool)
    return out


def _variables(ts: TransitionSystem, head: RelKey) -> list[VarKey]:
    vs = [v for v in [*ts.locals.get(head[0], []), *ts.locals.get("", [])]
          if not _temporary(v[1]) and isinstance(ts.sorts[v], z3.BitVecSortRef) and 1 < ts.sorts[v].size() <= MAX_WIDTH]
    return vs if len(vs) <= MAX_VARIABLES else []


def _temporary(name: str) -> bool:
    """The front end's own variables (a call's result, the return value): they hold what the
    program's variables already say, or nothing between the statements that use them."""
    short = name.split("::")[-1]
    return short == "__retval" or short.startswith("__t") and short[3:].isdigit()


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


