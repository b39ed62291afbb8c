"""Summaries and invariants guessed from runs of the program, kept where Houdini proves them.

Spacer generalizes from the clauses alone, over linear integer arithmetic. A recursive
function's summary may be nonlinear (``mult(n, m)``: ``\\result == n*m``), and a linear one
holds with machine integers only under a bound that Spacer has no reason to find (Addition03-1:
``\\result == m + n`` wherever ``m + n`` fits; ``m+1`` overflows otherwise, and the summary
without the bound is not inductive). With those summaries given, Spacer still gives up on the
nonlinear clauses (30 s on MultCommutative-2).

So, as DIG does for loops (kinduction/algebraic.py), the guess comes from states the program
reaches: it runs from its start on small random inputs (the CFA interpreted with C's
machine integers, replay.py's ``_Run``), and every cut point of the Horn clauses
(``horn.Encoder.cut``: entries, exits, loop heads, return sites) records its frame's values,
the entry copies ``x@old`` included. The equalities that hold in every state of a cut point
(up to degree 2 over few variables: ``algebraic._equalities``) are its candidates. At a
function's exit an equality that gives the result, ``\\result == e``, is also offered guarded,
``MIN <= e && e <= MAX ==> \\result == e`` (the result type's range): the form that survives an
argument's overflow on a path whose result would not fit anyway.

Houdini (horn_templates.solve, with its own bounds and orders beside these) keeps what every
clause preserves, over the integer clauses with exact products (``horn.ProductEncoder``:
machine integers wherever no signed operation overflows, an arbitrary value where one does).
Those clauses cover everything the machine program does, so an inductive invariant of them
that excludes every error clause is a proof, as kinduction's polynomial invariants are; the
samples only choose what to try.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

import z3

from ..cfa.cfa import CFANode, FunctionCFA, Program
from ..cfa.ctype import IntType
from ..cfa.ir import AbortEdge, AssumeEdge, CallEdge
from . import horn
from .horn import ERROR, HornOutcome, RelKey
from .kinduction.algebraic import Equality, _equalities, atom
from .predicate.formula import old
from .replay import _UNSET, _Run, _Stop
from .value.memory import uses_memory

MAX_RUNS = 400
MAX_RUN_STEPS = 20_000  # CFA edges per run: a run that recurses deeper ends there, its states kept
RANDOM_RANGE = 16  # nondeterministic values are drawn from [-16, 16], within their type
MAX_VARIABLES = 8  # per cut point: the quadratic monomials of more outnumber the samples we take
MAX_ROWS = 120  # distinct states kept per cut point
SAMPLING_SHARE = 0.25  # of the time, for the runs
NO_GUESS = "no equality holds in the sampled states"


def solve(program: Program, timeout_s: float, cancelled: Callable[[], bool] = lambda: False) -> HornOutcome:
    """A proof from sampled equalities kept by Houdini ("safe", with each function's summary in
    C), or why there is none."""
    t0 = time.monotonic()
    deadline = t0 + timeout_s
    if uses_memory(program):
        return HornOutcome("unknown", "the runs do not model memory")
    why = horn.applies(program, need_loop=False, max_edges=None)
    if why:
        return HornOutcome("unknown", why)
    enc = horn.Encoder(program, "lia", products=True)
    enc.inline_asserts = True
    try:
        clauses = enc.clauses(deadline)
    except (TypeError, KeyError) as exc:
        return HornOutcome("unknown", f"the program cannot be encoded as Horn clauses ({exc})")
    except horn.EncodingTimeout as exc:
        return HornOutcome("unknown", str(exc), timed_out=True)
    guessed = guesses(program, enc, t0 + SAMPLING_SHARE * timeout_s, cancelled)
    if not any(guessed.values()):
        return HornOutcome("unknown", NO_GUESS, time.monotonic() - t0)
    from .horn_templates import TIMED_OUT
    from .horn_templates import solve as houdini

    # ``false`` too: a relation no run reached, and one without variables (reach_error's
    # entry), has no other candidate that says it is unreachable.
    got = houdini(program, enc, clauses, ERROR, deadline, cancelled,
                  extra=lambda k, names: [z3.BoolVal(False), *(f(names) for f in guessed.get(k, []))])
    seconds = time.monotonic() - t0
    if isinstance(got, str):
        return HornOutcome("unknown", got, seconds, timed_out=got == TIMED_OUT)
    summaries = {f.name: horn.summary_text(got[horn.key(f.exit)], enc.frame(f), program)
                 for f in program.functions.values() if horn.key(f.exit) in got}
    return HornOutcome("safe", "", seconds, summaries)


Guess = Callable[[dict[str, z3.ArithRef]], z3.BoolRef]  # a candidate over a frame's placeholders


def guesses(program: Program, enc: horn.Encoder, deadline: float,
            cancelled: Callable[[], bool] = lambda: False) -> dict[RelKey, list[Guess]]:
    """Per cut point, the equalities that hold in every sampled state (and at an exit, each
    one that gives the result also guarded by the result's range)."""
    rows = sample(program, enc, deadline, cancelled)
    out: dict[RelKey, list[Guess]] = {}
    exits = {horn.key(f.exit): f for f in program.all_functions()}
    for k, states in rows.items():
        fn = exits.get(k)
        result = fn.result_var if fn is not None else None
        vs = _variables(program, enc, k[0], states, result)
        if not vs:
            continue
        for eq in _equalities(vs, [{v: s[v] for v in vs} for s in states]):
            out.setdefault(k, []).append(lambda names, eq=eq: atom(eq, names))
            for v in vs:
                guarded = None if v.endswith(old("")) else _guarded(eq, v, program)
                if guarded is not None:
                    out[k].append(guarded)
    return out


def _guarded(eq: Equality, var: str, program: Program) -> Guess | None:
    """``eq`` as ``MIN <= e && e <= MAX ==> var == e`` where it reads ``var == e`` (the range
    of ``var``'s type): a result, or a call's result at its return site."""
    c = next((c for c, m in eq.terms if m == (var,)), 0)
    if abs(c) != 1 or any(var in m for _, m in eq.terms if m != (var,)):
        return None
    info = program.vars.get(var)
    t = info.type if info is not None else None
    if not isinstance(t, IntType):
        return None
    rest = tuple((-c * d, m) for d, m in eq.terms if m != (var,))

    def guess(names: dict[str, z3.ArithRef], t: IntType = t) -> z3.BoolRef:
        e = z3.Sum([d * _product([names[v] for v in m]) for d, m in rest]) if rest else z3.IntVal(0)
        return z3.Implies(z3.And(e >= t.min, e <= t.max), names[var] == e)

    return guess


def _product(xs: list[z3.ArithRef]) -> z3.ArithRef:
    out: z3.ArithRef = z3.IntVal(1)
    for x in xs:
        out = x if z3.is_int_value(out) and out.as_long() == 1 else out * x
    return out


def _variables(program: Program, enc: horn.Encoder, function: str, states: list[dict[str, int]],
               result: str | None) -> list[str]:
    """The integer variables every state of a cut point has a value for, at most
    ``MAX_VARIABLES``: the result first, then the entry copies (a summary's interface), then
    the others in the frame's order."""
    fn = program.functions.get(function) or program.start
    have = [v for v in enc.frame(fn) if all(v in s for s in states)]
    first = [v for v in have if v == result] + [v for v in have if v.endswith(old("")) and v != result]
    ordered = first + [v for v in have if v not in first]
    return ordered[:MAX_VARIABLES]


def sample(program: Program, enc: horn.Encoder, deadline: float,
           cancelled: Callable[[], bool] = lambda: False) -> dict[RelKey, list[dict[str, int]]]:
    """Distinct states per cut point (frame variable -> its integer value), from runs on random
    inputs until ``deadline`` or ``MAX_RUNS``."""
    rng = random.Random(0)
    seen: dict[RelKey, set[tuple]] = {}
    rows: dict[RelKey, list[dict[str, int]]] = {}

    def record(fn: FunctionCFA, node: CFANode, state: dict[str, int]) -> None:
        k = horn.key(node)
        mark = tuple(sorted(state.items()))
        got = seen.setdefault(k, set())
        if mark not in got and len(got) < MAX_ROWS:
            got.add(mark)
            rows.setdefault(k, []).append(state)

    for _ in range(MAX_RUNS):
        if time.monotonic() > deadline or cancelled():
            break
        _Walk(program, enc, rng, record).walk(MAX_RUN_STEPS)
    return rows


class _Walk(_Run):
    """One run from the program's start: at each branch the edge whose condition holds, each
    nondeterministic value drawn at random; it ends at an error, an exit of the start, a
    stop (``assume``, ``abort``), or anything a run cannot go on from (an uninitialised read,
    an undefined operation, memory)."""

    def __init__(self, program: Program, enc: horn.Encoder, rng: random.Random,
                 record: Callable[[FunctionCFA, CFANode, dict[str, int]], None]):
        super().__init__(program, [])
        self.horn = enc
        self.rng = rng
        self.record = record
        self.olds: dict[int, dict[str, int]] = {0: {}}

    def input(self, source: str, t: IntType, step: int, rng: object = None) -> int:
        return self.rng.randint(max(t.min, -RANDOM_RANGE), min(t.max, RANDOM_RANGE))

    def write(self, name: str, t: IntType, value: int, frame: int, step: int) -> None:
        self.cur[self.inst(name, frame)] = t.wrap(value)

    def walk(self, max_steps: int) -> None:
        try:
            self._walk(max_steps)
        except (_Stop, RecursionError):
            pass

    def _walk(self, max_steps: int) -> None:
        program = self.program
        fn, node, frame, fresh = program.start, program.start.entry, 0, 0
        stack: list[tuple[CallEdge, int, FunctionCFA]] = []
        for step in range(max_steps):
            if self.horn.cut(fn, node):
                self._record(fn, node, frame)
            if node.error is not None:
                return
            if node is fn.exit:
                if not stack:
                    return
                e, caller, caller_fn = stack.pop()
                self._back(e, frame, caller)
                self.olds.pop(frame, None)
                fn, node, frame = caller_fn, e.succ, caller
                continue
            live = [e for e in node.out if not isinstance(e, AbortEdge)]
            if not live:
                return
            if len(live) > 1:
                if not all(isinstance(e, AssumeEdge) and e.cond is not None for e in live):
                    return
                taken = [e for e in live if (self.expr(e.cond, frame, step) != 0) == e.truth]  # type: ignore[union-attr, arg-type]
                if not taken:
                    return
                edge = taken[0]
            else:
                edge = live[0]
            if isinstance(edge, CallEdge):
                callee = program.functions[edge.callee]
                values = [self.expr(a, frame, step) for a in edge.args]
                fresh += 1
                for p, v in zip(callee.params, values):
                    self.write(p, self._int(self.vars[p].type), v, fresh, step)
                olds = {old(p): self.cur[self.inst(p, fresh)] for p in callee.params}
                for g in self.horn.globals:
                    v = self.cur.get(g, _UNSET)
                    if v is not _UNSET:
                        olds[old(g)] = v
                self.olds[fresh] = olds
                stack.append((edge, frame, fn))
                fn, node, frame = callee, callee.entry, fresh
                continue
            self.op(edge, frame, step)
            node = edge.succ

    def _back(self, e: CallEdge, frame: int, caller: int) -> None:
        callee = self.program.functions[e.callee]
        if e.lhs is None or callee.result_var is None:
            return
        v = self.cur.get(self.inst(callee.result_var, frame), _UNSET)
        if v is _UNSET:
            raise _Stop  # fell off its end: a value no run can pick
        self.assign(e.lhs, v, caller, 0)

    def _record(self, fn: FunctionCFA, node: CFANode, frame: int) -> None:
        olds = self.olds.get(frame, {})
        state: dict[str, int] = {}
        for v in self.horn.frame(fn):
            x = olds.get(v, _UNSET) if v.endswith(old("")) else self.cur.get(self.inst(v, frame), _UNSET)
            if x is not _UNSET:
                state[v] = x
        self.record(fn, node, state)


__all__ = ["solve", "guesses", "sample"]
