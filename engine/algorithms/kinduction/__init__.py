"""k-induction with machine integers over the program's Horn clauses.

The clauses of algorithms/horn/clauses.py, encoded with bit-vectors (C's semantics: wrap-around, undefined
behaviour as an arbitrary value, memory and floats arbitrary), become one transition system. A
state is the cut point the program stands at (``pc``), one frame per function, and per called
function the call it will return to. That is exact for a program without recursion: each
function then has at most one activation at a time, so its frame can stay in the state while
it calls others. A step is one clause: a path segment between two cut points, a call into a
callee's entry, or a return from its exit back to the call's return site.

An error state stays an error state (a step may keep it), so a check at one depth covers every
shorter path. Steps merge paths: a step is the disjunction of the clauses that can fire from
the cut points reachable at that depth.

- **Step case, anchored at loop heads:** from any state at a loop head, with the invariants
  holding throughout, ``k`` error-free states are not followed by an error within ``gap``
  further steps. Started anywhere, the step case would fail on the commonest loop: a lock set
  and checked under the same condition in one iteration is no invariant of the joins inside
  the body, where an arbitrary state has the condition and not the lock.
- **Base case (BMC):** no error within ``k + lead`` steps from the start.
- **Why that suffices** (``gap_bound``): ``gap`` bounds the steps a path takes without standing
  at a loop head, ``lead`` those from the start to the first loop head. An error path of length
  ``m >= k + lead`` then stands at a loop head at some position ``p`` with ``m - p`` in
  ``[k, k + gap]``: the step case refutes it. A shorter one the base case refutes. The error
  locations are the program's own (``ERROR`` clauses), so a TRUE is a proof for machine
  integers.
- **Invariants:** facts found Houdini-style, candidates that the start establishes and every
  clause preserves, with bit-vectors (``houdini``): bounds of each variable by the program's
  constants, and what cbam's other analyses offer (registry's ``invariants``): the interval
  analysis's facts at each location, the predicate analysis's loop equalities and the
  predicates its refinement found (those at a function's exit are its summaries' own). They
  hold in every reachable state, so assuming them is sound; an offered fact Houdini cannot
  prove inductive is dropped like any other candidate.

A base case that finds an error state is only a candidate (the clauses over-approximate what
they do not model); the answer is then "reachable" and other engines, which confirm paths with
inputs and a harness, decide.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import z3

from ...cex.encoding import check_path
from ...cex.feasibility import Confirmed
from ...cfa import traits
from ...cfa.cfa import Program
from ...cfa.ctype import IntType
from ...core.path import ErrorPath
from ..horn import clauses as horn
from ..horn.clauses import RelKey
from . import algebraic
from .invariants import Candidate, InvKey, Offered, exit_facts, holds, houdini, offered
from .system import STEP_MS, TransitionSystem, VarKey, check_error, gap_bound

__all__ = ["KInductionOutcome", "TransitionSystem", "applies", "gap_bound", "houdini", "solve", "solve_algebraic"]

MAX_K = 64  # error-free states assumed in the step case; deeper than this, other engines do better
MAX_GAP = 120  # steps between loop heads: a program with longer paths is left to other engines
FIRST_SHARE = 0.5  # of the engine's time, for k-induction without invariants
SAMPLING_SHARE = 0.4  # of the polynomial invariants' time, for sampling states
ALGEBRAIC_STEP_MS = 3_000  # one nonlinear check's share at most: one slow check must not take the rest
HOUDINI_SHARE = 0.75  # ... until this share, for finding invariants; the rest for k-induction with them
FACTS_SHARE = 0.6  # ... the other analyses' facts by this share at most (they take a moment)


@dataclass
class KInductionOutcome:
    # "safe" | "unsafe" (BMC's counterexample, confirmed) | "reachable" (a candidate error state
    # within k steps that the exact check did not confirm) | "unknown"
    status: str
    reason: str = ""
    k: int = 0  # the k of the proof, or how far the search got
    seconds: float = 0.0
    timed_out: bool = False  # more time might decide it
    invariants: int = 0  # Houdini invariants that strengthened the step case
    offered_kept: int = 0  # ... of them, facts other analyses offered
    summaries: dict[str, str] = field(default_factory=dict)  # function -> the invariants at its exit, in C
    confirmed: Confirmed | None = None  # BMC's counterexample, confirmed (status "unsafe")


def applies(program: Program) -> str:
    why = horn.applies(program)
    if why:
        return why
    if traits.recursive(program):
        return "the program is recursive (a function's frame would be overwritten by its own call)"
    return ""


def solve(program: Program, timeout_s: float, cancelled: Callable[[], bool] = lambda: False,
          max_k: int = MAX_K, strengthen: bool = True,
          facts: Callable[[float], dict[RelKey, list]] | None = None) -> KInductionOutcome:
    """``strengthen``: look for Houdini invariants when k-induction alone does not succeed in
    its share of the time (False: k-induction alone, with all of it). ``facts(deadline)``: what
    cbam's other analyses offer as candidates, per location (registry's ``invariants``)."""
    t0 = time.monotonic()
    deadline = t0 + timeout_s
    ts = _system(program, t0, deadline)
    if isinstance(ts, KInductionOutcome):
        return ts
    heads = _loop_heads(program, set(ts.pc_of))

    invariants: dict[InvKey, list[Candidate]] = {}

    def out(status: str, reason: str, k: int, timed_out: bool = False, inv: int = 0) -> KInductionOutcome:
        texts = exit_facts(program, invariants) if status == "safe" else {}
        kept = sum(isinstance(c, Offered) for v in invariants.values() for c in v) if inv else 0
        return KInductionOutcome(status, reason, k, time.monotonic() - t0, timed_out, inv, kept, texts)

    bound = gap_bound(ts, heads)
    if bound is None or bound[0] > MAX_GAP:
        return out("unknown", f"paths between loop heads are longer than {MAX_GAP} steps", 0)
    gap, lead = bound
    # First without invariants, which is often enough and cheap; then with Houdini's.
    first = t0 + (FIRST_SHARE * timeout_s if strengthen else timeout_s)
    status, reason, k, timed_out, path = _induct(ts, heads, gap, lead, {}, first, cancelled, max_k, program)
    if path is not None:
        return _confirm(program, path, out(status, reason, k), deadline)
    if status in ("safe", "reachable") or cancelled() or not strengthen:
        return out(status, reason, k, timed_out)
    offers = offered(program, ts, facts(t0 + FACTS_SHARE * timeout_s)) if facts is not None else None
    found = houdini(ts, t0 + HOUDINI_SHARE * timeout_s, cancelled, offers=offers)
    if not found or not any(found.values()):
        return out(status, reason, k, timed_out)
    invariants = found
    count = sum(len(v) for v in invariants.values())
    status, reason, k, timed_out, path = _induct(ts, heads, gap, lead, invariants, deadline, cancelled, max_k, program)
    if path is not None:
        return _confirm(program, path, out(status, reason, k), deadline)
    return out(status, reason, k, timed_out, count)


def _system(program: Program, t0: float, deadline: float) -> TransitionSystem | KInductionOutcome:
    """The program's bit-vector transition system, or the outcome that says why there is none."""
    why = applies(program)
    if why:
        return KInductionOutcome("unknown", why)
    enc = horn.Encoder(program, "bv")
    try:
        clauses = enc.clauses(deadline)
    except (TypeError, KeyError) as exc:
        return KInductionOutcome("unknown", f"the program cannot be encoded as Horn clauses ({exc})")
    except horn.EncodingTimeout as exc:
        return KInductionOutcome("unknown", str(exc), seconds=time.monotonic() - t0, timed_out=True)
    return TransitionSystem(clauses, {f.name: enc.frame(f) for f in program.all_functions()}, enc.globals)


def solve_algebraic(program: Program, timeout_s: float, cancelled: Callable[[], bool] = lambda: False,
                    max_k: int = MAX_K) -> KInductionOutcome:
    """A proof by polynomial loop invariants alone (``_algebraic``): "safe" or "unknown"."""
    t0 = time.monotonic()
    ts = _system(program, t0, t0 + timeout_s)
    if isinstance(ts, KInductionOutcome):
        return ts
    heads = _loop_heads(program, set(ts.pc_of))
    bound = gap_bound(ts, heads) if heads else None
    if bound is None or bound[0] > MAX_GAP:
        return KInductionOutcome("unknown", "no loop whose invariants the clauses can express",
                                 seconds=time.monotonic() - t0)
    proof = _algebraic(program, ts, heads, bound[0], bound[1], t0 + timeout_s, cancelled, max_k)
    seconds = time.monotonic() - t0
    if proof is None:
        return KInductionOutcome("unknown", "no polynomial invariant proves the program", seconds=seconds,
                                 timed_out=time.monotonic() >= t0 + timeout_s)
    k, invariants = proof
    return KInductionOutcome("safe", "", k, seconds, False, sum(len(v) for v in invariants.values()),
                             summaries=exit_facts(program, invariants))


def _algebraic(program: Program, ts: TransitionSystem, heads: set[RelKey], gap: int, lead: int, until: float,
               cancelled: Callable[[], bool], max_k: int) -> tuple[int, dict[InvKey, list[Candidate]]] | None:
    """A proof by polynomial equalities: guessed from states of the bit-vector system, proved
    inductive with the bounds they need (Houdini), and then k-induction strengthened with
    them, all over horn's integer clauses with exact products (ProductEncoder: machine
    integers wherever no signed operation overflows, an arbitrary value where one does, so
    the clauses cover what the program does). Bit-vector solvers cannot do this: the step
    ``(c+1)*(c+1) == c*c + 2*c + 1`` is a hard multiplier equivalence for SAT, where integer
    arithmetic normalises polynomials. (k, the invariants) of the proof, or None."""
    types = {n: v.type for n, v in program.vars.items()}

    def signed(v: VarKey) -> bool:
        t = types.get(v[1])
        return not isinstance(t, IntType) or t.signed

    # Sampling gets a share: where the runs are slow to reach the loop (inputs the guards
    # rarely accept), what the guess does not find by then it seldom finds later.
    t0 = time.monotonic()
    guessed = algebraic.guess(ts, heads, signed, t0 + SAMPLING_SHARE * (until - t0), cancelled)
    # Linear equalities alone are what CEGAR's and Houdini's own domains find: the step is for
    # polynomial ones, and leaves the time to those engines otherwise.
    if not any(e.degree >= 2 for h in heads for e in guessed.get(h, [])) or time.monotonic() > until:
        return None
    enc = horn.Encoder(program, "lia", products=True)
    try:
        clauses = enc.clauses(until)
    except (TypeError, KeyError, horn.EncodingTimeout):
        return None
    ints = TransitionSystem(clauses, {f.name: enc.frame(f) for f in program.all_functions()}, enc.globals)
    if set(ints.sorts) != set(ts.sorts) or ints.pc_of != ts.pc_of:
        return None  # the two encodings do not correspond (they should): no transfer
    # The quadratic guesses first: a cubic one that the samples' few distinct values let
    # through costs Houdini a nonlinear model to refute.
    quadratic = {k: [e for e in v if e.degree <= 2] for k, v in guessed.items()}
    tiers = [guessed]
    if quadratic != guessed and any(e.degree == 2 for h in heads for e in quadratic.get(h, [])):
        tiers.insert(0, quadratic)
    for i, tier in enumerate(tiers):
        if time.monotonic() > until or cancelled():
            return None
        last = i == len(tiers) - 1
        # Bounds wherever the program stands (the callee of ``assert(cond)`` needs ``cond == 1``),
        # the equalities where they were guessed.
        found = houdini(ints, until, cancelled, {k: tier.get(k, []) for k in ints.pc_of}, ALGEBRAIC_STEP_MS)
        if not found or not any(isinstance(c, algebraic.Equality) and c.degree >= 2 for h in heads
                                for c in found.get(h, [])):
            continue  # no polynomial invariant: what is left is the other engines' to prove
        # A bound its variable's type already gives says nothing (nor on hover).
        for key, cands in found.items():
            found[key] = [c for c in cands if isinstance(c, algebraic.Equality) or not _by_type(c, types)]
        if _excludes_errors(ints, found, until, cancelled):
            return 0, found
        # A tier before the last tries k = 1 alone: invariants that prove the program mostly do
        # so there, and the next tier needs the time otherwise.
        status, _, k, _, _ = _induct(ints, heads, gap, lead, found, until, cancelled, max_k if last else 1)
        if status == "safe":
            return k, found
    return None


def _by_type(c: Candidate, types: Mapping[str, object]) -> bool:
    op, v, other, n = c  # type: ignore[misc]
    t = types.get(v[1])
    if other is not None or not isinstance(t, IntType):
        return False
    return op == "s<=" and n >= t.max or op == "s>=" and n <= t.min


def _excludes_errors(ts: TransitionSystem, invariants: dict[InvKey, list[Candidate]], deadline: float,
                     cancelled: Callable[[], bool]) -> bool:
    """Whether no error clause can fire from a state where ``invariants`` hold: they hold in
    every reachable state (the start establishes them and every clause preserves them), so
    no error is reachable."""
    s = ts.state(0)
    for t in ts.templates:
        c = t.clause
        if c.head != horn.ERROR or not c.body:
            continue
        left = int((deadline - time.monotonic()) * 1000)
        if left <= 0 or cancelled():
            return False
        guard, _ = ts.instance(t, s)
        solver = _solver(ts)
        solver.add(*guard, *holds(ts, s, invariants))
        if check_error(solver, z3.BoolVal(True), min(STEP_MS, left)) != z3.unsat:
            return False
    return True


def _confirm(program: Program, path: ErrorPath, outcome: KInductionOutcome, deadline: float) -> KInductionOutcome:
    """BMC's counterexample checked as any error path is, exactly (memory included): "unsafe"
    with its inputs if it holds, else it stays a candidate ("reachable")."""
    feas = check_path(program, path, max(1, int((deadline - time.monotonic()) * 1000)))
    if feas.status == "sat":
        outcome.status = "unsafe"
        outcome.confirmed = Confirmed(path, feas)
    return outcome


def _induct(ts: TransitionSystem, heads: set[RelKey], gap: int, lead: int, invariants: dict[InvKey, list[Candidate]],
            deadline: float, cancelled: Callable[[], bool], max_k: int,
            program: Program | None = None) -> tuple[str, str, int, bool, ErrorPath | None]:
    """k-induction for growing k, the step case strengthened with ``invariants``: (status,
    reason, k, whether it ran out of time, the base case's counterexample if it found one)."""

    def left_ms() -> int:
        return min(STEP_MS, int((deadline - time.monotonic()) * 1000))

    def out(status: str, reason: str, k: int, timed_out: bool = False,
            path: ErrorPath | None = None) -> tuple[str, str, int, bool, ErrorPath | None]:
        return status, reason, k, timed_out, path

    base = _solver(ts)
    base.add(ts.init())
    depth = 0  # of the base case's unwinding
    base_pcs: set[RelKey | None] = {t.clause.head for t in ts.templates if not t.clause.body}
    step_pcs: set[RelKey | None] = set(heads)
    step = _solver(ts)
    s0 = ts.state(0)
    step.add(z3.Or(*[ts.at(s0, h) for h in heads]) if heads else z3.BoolVal(False))
    chain = 0  # transitions in the step solver
    for k in range(1, max_k + 1):
        if cancelled():
            return out("unknown", "cancelled", k - 1)
        # Step case: from a loop head (invariants holding throughout), k error-free states
        # cannot be followed by an error within ``gap`` further steps.
        while chain < k + gap:
            if left_ms() <= 0:
                return out("unknown", f"k-induction ran out of time at k = {k}", k - 1, True)
            step.add(*holds(ts, ts.state(chain), invariants), ts.step(chain, step_pcs))
            step_pcs = ts.successors(step_pcs)
            chain += 1
        step.add(z3.Not(ts.error(ts.state(k - 1))))
        if None not in step_pcs:
            r = z3.unsat  # no error location within reach
        else:
            r = check_error(step, ts.error(ts.state(k + gap)), left_ms())
        if r not in (z3.sat, z3.unsat):
            return out("unknown", f"the induction step timed out at k = {k}", k, True)
        if r == z3.sat and k & (k - 1):
            continue  # the base case is looked at when the step holds, and at powers of two (for violations)
        # Base case: no error within k + lead steps from the start (errors stay errors).
        proved = r == z3.unsat
        while depth < k + lead:
            if left_ms() <= 0:
                return out("unknown", f"k-induction ran out of time at k = {k}", k, True)
            base.add(ts.step(depth, base_pcs))
            base_pcs = ts.successors(base_pcs)
            depth += 1
        if None not in base_pcs:
            r = z3.unsat
        else:
            r = check_error(base, ts.error(ts.state(depth)), left_ms())
        if r == z3.sat:
            return out("reachable", f"bounded model checking reaches an error location within {depth} steps "
                       "(over the clauses, which leave memory and floats arbitrary)", k,
                       path=ts.path(base.model(), depth, program) if program is not None else None)
        if r != z3.unsat:
            return out("unknown", f"bounded model checking timed out at depth {depth}", k, True)
        if proved:
            return out("safe", "", k)
    return out("unknown", f"not {max_k}-inductive", max_k)




def _solver(ts: TransitionSystem) -> z3.Solver:
    bits = all(isinstance(s, z3.BitVecSortRef) for s in ts.sorts.values())
    return z3.SolverFor("QF_BV") if bits else z3.Solver()


def _loop_heads(program: Program, keys: set[RelKey]) -> set[RelKey]:
    return {horn.key(n) for f in program.all_functions() for n in f.nodes
            if n.loop_head and horn.key(n) in keys}

