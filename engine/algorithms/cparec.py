"""CPArec (Chen et al. 2014): recursion verified through an analyzer for programs without recursion.

The program's Horn clauses (algorithms/horn/clauses.py: one relation per abstraction point, a call
linked to its callee's exit relation) are **unwound**: each relation gets a copy per recursion
depth, a call to a recursive function goes one depth down, and a call below depth ``k`` becomes
``assume false`` (the paper's under-approximation G̲_k). What remains has no recursion (loops
inside a function stay, as the paper's BasicAnalyzer allows), and Spacer solves it, its
answer being the paper's interpolants: an invariant per copy.

* If the error relation is derivable in the unwound clauses, a counterexample within ``k``
  recursive calls exists over the integers. It is a candidate only: the bit-precise path
  exploration (algorithms/paths.py) confirms it, with inputs and a harness, like any violation.
* Otherwise each recursive function's candidate summary is the paper's UpdateSummary: for every
  depth ``d``, the copy's entry invariant (at the call's parameter values) implies its exit
  invariant; the summary is the conjunction over the depths.
* CheckSummary: in the original clauses, the return from each recursive function reads its
  candidate summary instead of the exit relation (so the clauses are linear: no recursion, only
  cycles Spacer treats like loops), and the exit relation must imply the summary. If Spacer
  solves those, the summaries are inductive over the integers; the whole answer (summaries
  for the exit relations, Spacer's invariants elsewhere) is then checked clause by clause with
  machine integers (``horn.check``), which is what makes a TRUE sound.
* Otherwise ``k`` grows.

Where the unwinding proves nothing, summaries are guessed from runs (algorithms/horn/samples.py):
the equalities every sampled call satisfies (``\\result == n*m``; ``\\result == m + n`` where it
fits the result's type), a pure function's table of values, kept where Houdini proves them
over the clauses with exact products. They over-approximate as the paper's summaries do, from
data rather than from the unwinding, and cover what it does not generalize to (a nonlinear
summary, a bound against overflow, Fibonacci's values).

The paper leaves termination open; here the depth is capped (``MAX_DEPTH``) and the time limit
holds throughout (UNKNOWN).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

import z3

from ..cfa import traits
from ..cfa.cfa import Program
from ..cpa.predicate.formula import old
from . import scope
from .horn import clauses as horn
from .horn.clauses import ERROR, Clause, Interpretation, RelKey

MAX_DEPTH = 8
RESERVE = 1.5  # seconds
GUESS_SHARE = 0.2  # of the time, kept for the summaries guessed from runs (horn/samples.py) ...
GUESS_SECONDS = 10.0  # ... at most this: what they prove, they prove in a few seconds


@dataclass
class CparecOutcome:
    status: str  # "safe" (proved with machine integers), "reachable" (a candidate counterexample) or "unknown"
    depth: int = 0  # the unwinding depth k it ended at
    reason: str = ""
    seconds: float = 0.0
    summaries: dict[str, str] = field(default_factory=dict)  # function -> its summary, in C
    timed_out: bool = False


def copy_key(k: RelKey, depth: int) -> RelKey:
    """A relation's copy at a recursion depth."""
    return k if k == ERROR else (f"{k[0]}#{depth}", k[1])


def unwind(clauses: list[Clause], recursive: set[str], start: str, k: int) -> list[Clause]:
    """The clauses with recursion unwound ``k`` deep: a function's relations per depth at which
    it can run, calls to a recursive function one depth down, none below ``k``."""
    depths: dict[str, set[int]] = {start: {0}}
    calls = [c for c in clauses if c.callee and not c.returning]
    changed = True
    while changed:  # the depths each function runs at, from the start's
        changed = False
        for c in calls:
            for d in list(depths.get(c.body[0][0][0], ())):
                cd = d + 1 if c.callee in recursive else d
                if cd <= k and cd not in depths.setdefault(c.callee, set()):
                    depths[c.callee].add(cd)
                    changed = True
    out = []
    for c in clauses:
        if not c.body:  # the start's entry
            out.append(Clause(copy_key(c.head, 0), c.head_args, [], c.constraints))
            continue
        own = c.body[0][0]
        for d in sorted(depths.get(own[0], ())):
            cd = d + 1 if c.callee in recursive else d
            if c.callee and cd > k:
                continue  # below the unwinding: assume false
            body = [(copy_key(own, d), c.body[0][1])]
            head = copy_key(c.head, d)
            if c.returning:
                body.append((copy_key(c.body[1][0], cd), c.body[1][1]))
            elif c.callee:
                head = copy_key(c.head, cd)
            out.append(Clause(head, c.head_args, body, c.constraints))
    return out


def _apply(got: Interpretation, args: list[z3.ExprRef]) -> z3.BoolRef:
    f, holes = got
    return z3.substitute(f, *zip(holes, args)) if holes else f


def update_summaries(solution: dict[RelKey, Interpretation], encoder: horn.Encoder, program: Program,
                     recursive: set[str], k: int, deadline: float) -> list[dict[str, Interpretation]]:
    """UpdateSummary: per recursive function, the conjunction over its copies of "entry
    invariant at the call's values implies exit invariant", over the exit relation's places.
    Then, as weaker candidates, each depth's part alone (the deepest copies know only the base
    cases, which can keep the conjunction from being inductive)."""
    parts: dict[str, dict[int, z3.BoolRef]] = {}
    holes: dict[str, list[z3.ExprRef]] = {}
    for name in sorted(recursive):
        fn = program.functions[name]
        frame = encoder.frame(fn)
        for d in range(k + 1):
            ex = solution.get(copy_key(horn.key(fn.exit), d))
            if ex is None:
                continue
            holes[name] = ex[1]
            pre = _entry_condition(solution.get(copy_key(horn.key(fn.entry), d)), frame, program, ex[1], deadline)
            parts.setdefault(name, {})[d] = z3.Implies(pre, ex[0])
    candidates = [{n: (z3.simplify(z3.And(list(ps.values()))), holes[n]) for n, ps in parts.items()}]
    for d in range(1, k):
        candidates.append({n: (z3.simplify(ps[d]), holes[n]) for n, ps in parts.items() if d in ps})
    return candidates


def _entry_condition(entry: Interpretation | None, frame: list[str], program: Program,
                     holes: list[z3.ExprRef], deadline: float) -> z3.BoolRef:
    """The entry invariant read at an exit's places: parameters and globals as they were at the
    call (their entry copies), the other locals (arbitrary at the entry) projected away."""
    if entry is None:
        return z3.BoolVal(True)
    f, entry_holes = entry
    at = {v: i for i, v in enumerate(frame)}
    subst, hidden = [], []
    for i, v in enumerate(frame):
        info = program.vars.get(v)
        if old(v) in at:  # a parameter or a global: its value at the call
            subst.append((entry_holes[i], holes[at[old(v)]]))
        elif info is not None and not info.is_global and not v.endswith(old("")):
            fresh = z3.FreshConst(entry_holes[i].sort(), "loc")
            subst.append((entry_holes[i], fresh))
            hidden.append(fresh)
        else:
            subst.append((entry_holes[i], holes[i]))
    g = z3.substitute(f, *subst)
    if not hidden:
        return g
    ms = int((deadline - time.monotonic()) * 1000)
    if ms <= 0:
        return z3.BoolVal(True)
    try:
        goals = z3.TryFor(z3.Then("qe", "simplify"), ms)(z3.Exists(hidden, g))
        return z3.And([x.as_expr() for x in goals]) if len(goals) else z3.BoolVal(True)
    except z3.Z3Exception:
        return z3.BoolVal(True)  # a weaker (hence stronger-looking) summary; the checks decide


def with_summaries(clauses: list[Clause], summaries: dict[str, Interpretation],
                   program: Program) -> list[Clause]:
    """CheckSummary's clauses: each return from a summarised function reads its summary, and
    each summarised exit relation must imply it."""
    out = []
    for c in clauses:
        if c.returning and c.callee in summaries:
            callee_args = c.body[1][1]
            out.append(Clause(c.head, c.head_args, c.body[:1],
                              [*c.constraints, _apply(summaries[c.callee], callee_args)]))
        else:
            out.append(c)
    for name, got in summaries.items():
        places = [z3.FreshConst(h.sort(), "s") for h in got[1]]
        out.append(Clause(ERROR, [], [(horn.key(program.functions[name].exit), places)],
                          [z3.Not(_apply(got, places))]))
    return out


def solve(program: Program, timeout_s: float, cancelled: Callable[[], bool] = lambda: False,
          guess: bool = True) -> CparecOutcome:
    """The unwinding; where it proves nothing, the summaries guessed from runs, in the time kept
    for them (``guess``: the portfolio tries those on their own earlier, and passes False)."""
    t0 = time.monotonic()
    spare = min(GUESS_SECONDS, GUESS_SHARE * timeout_s) if guess and traits.recursive(program) else 0.0
    out = _unwound(program, timeout_s - spare, cancelled)
    if out.status != "unknown" or not spare or cancelled():
        return out
    from .horn import samples

    guessed = samples.solve(program, t0 + timeout_s - time.monotonic(), cancelled)
    if guessed.status == "safe":
        return CparecOutcome("safe", 0, "", time.monotonic() - t0, guessed.summaries)
    out.seconds = time.monotonic() - t0
    return out


def _unwound(program: Program, timeout_s: float, cancelled: Callable[[], bool]) -> CparecOutcome:
    t0 = time.monotonic()
    # Spacer can take a second or two to notice an interruption: its calls end this much early.
    deadline = t0 + timeout_s - min(RESERVE, 0.05 * timeout_s)
    # Unsupported functions first: the error location may be in one (its CFA is empty).
    why = scope.unsupported_reached(program)
    if why:
        return CparecOutcome("unknown", reason=why)
    if not traits.has_error_location(program):
        return CparecOutcome("safe", reason="no error location")
    # Asked for by name, it tries programs of any size.
    why = horn.applies(program, need_loop=False, max_edges=None)
    if why:
        return CparecOutcome("unknown", reason=why)
    lia = horn.Encoder(program, "lia")
    try:
        clauses = lia.clauses(deadline)
    except (TypeError, KeyError) as exc:
        return CparecOutcome("unknown", reason=f"the program cannot be encoded as Horn clauses ({exc})")
    except horn.EncodingTimeout as exc:
        return CparecOutcome("unknown", reason=str(exc), seconds=time.monotonic() - t0, timed_out=True)
    rec = traits.recursive(program)
    bv: horn.Encoder | None = None
    why_not = "no recursion depth was tried"
    for k in range(1 if rec else 0, MAX_DEPTH + 1 if rec else 1):
        def left() -> float:
            return deadline - time.monotonic()
        if left() <= 0 or cancelled():
            return CparecOutcome("unknown", k, "cancelled" if cancelled() else horn.gave_up("time").reason,
                                 time.monotonic() - t0, timed_out=not cancelled())
        # Without recursion there is nothing to unwind: the clauses themselves (unwinding would
        # drop the relations of functions no call reaches, such as reach_error's).
        got = horn.spacer(unwind(clauses, rec, program.start.name, k) if rec else clauses, left())
        if isinstance(got, horn.NoSolution) and got.counterexample:
            return CparecOutcome("reachable", k, f"an error location is reachable within {k} recursive calls",
                                 time.monotonic() - t0)
        if isinstance(got, horn.NoSolution):
            return CparecOutcome("unknown", k, got.reason, time.monotonic() - t0, timed_out=got.gave_up)
        if rec:
            for summaries in update_summaries(got, lia, program, rec, k, deadline):
                if left() <= 0:
                    return CparecOutcome("unknown", k, horn.gave_up("time").reason, time.monotonic() - t0, timed_out=True)
                checked = horn.spacer(with_summaries(clauses, summaries, program), left())
                if not isinstance(checked, horn.NoSolution):
                    break
                if not checked.counterexample:
                    return CparecOutcome("unknown", k, checked.reason, time.monotonic() - t0,
                                         timed_out=checked.gave_up)
            else:
                why_not = f"the summaries from depth {k} are not inductive"
                continue
            candidate = dict(checked)
            for name, s in summaries.items():
                candidate[horn.key(program.functions[name].exit)] = s
        else:
            candidate = got
        if bv is None:
            bv = horn.Encoder(program, "bv")
            try:
                bv_clauses = bv.clauses(deadline)
            except horn.EncodingTimeout as exc:
                return CparecOutcome("unknown", k, str(exc), time.monotonic() - t0, timed_out=True)
        failed = horn.check(bv_clauses, candidate, bv.signs, max(0.2, left()), cancelled)
        if not failed:
            shown = {name: horn.summary_text(s, lia.frame(program.functions[name]), program)
                     for name, s in (summaries.items() if rec else ())}
            return CparecOutcome("safe", k, "", time.monotonic() - t0, shown)
        if failed == horn.CHECK_TIMED_OUT or failed == "cancelled":
            return CparecOutcome("unknown", k, failed, time.monotonic() - t0, timed_out=failed != "cancelled")
        why_not = f"the summaries from depth {k} do not hold with machine integers"
    if not rec:
        return CparecOutcome("unknown", 0, "the invariants do not hold with machine integers", time.monotonic() - t0)
    return CparecOutcome("unknown", MAX_DEPTH, f"no inductive summaries up to depth {MAX_DEPTH} ({why_not})",
                         time.monotonic() - t0)


__all__ = ["solve", "unwind", "update_summaries", "with_summaries", "CparecOutcome"]
