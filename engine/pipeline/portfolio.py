"""Which engines decide a program, and in what order: the driver of the schedule.

The order, the conditions and the times are data (pipeline/schedule.py, shown in
docs/engines.md); the engines are classes behind one protocol (pipeline/engines.py). This
module walks the tables: CEGAR's probe with Spacer beside it, the stages before CEGAR, CEGAR
over BAM (search.py), on a small recursive program Spacer again and BMC through the recursion,
the second tries, and last what settles the error locations CEGAR left (``complete``: random
tests, merged-path BMC, path exploration). An engine's proof is the run's answer as soon as it
comes; which engine decided is ``statistics.decided_by`` (core/result.DecidedBy).

A configuration whose strategy is "cparec" (cpa/registry.py) runs CPArec alone instead
(algorithms/cparec.py): bounded unwinding of the recursion, summaries checked for
inductiveness and then with machine integers; a counterexample within ``k`` recursive calls is
confirmed by path exploration.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import partial
from typing import Any

from ..algorithms import scope
from ..cex.feasibility import Confirmed
from ..cfa import traits
from ..cfa.cfa import Program
from ..cfa.ir import CFANode
from ..core.cpa_algorithm import Budget
from ..core.result import DecidedBy, Statistics, UnknownReason
from ..cpa import registry
from ..options import VerifyOptions
from . import beside, schedule
from .beside import Beside, either
from .engines import RunContext, Situation, proved
from .schedule import MIN_SECONDS, Of, Stage
from .search import Search

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..algorithms.horn import clauses

# What leaves no time or no point for another engine.
_FINAL = (UnknownReason.TIMEOUT, UnknownReason.CANCELLED, UnknownReason.MEMORY, UnknownReason.BAD_OPTION,
          UnknownReason.INTERNAL)


def search(program: Program, opts: VerifyOptions, stats: Statistics, cegar: Callable[[bool, float | None], Search],
           t0: float, known: dict[int, CFANode], on_confirmed: Callable[[list[Confirmed]], None] | None) -> Search:
    """The run's search, by its configuration's strategy. ``cegar(first_phase_only, time_limit)``: CEGAR over
    BAM with the run's phases (None: the run's own limit)."""
    strategy = STRATEGIES[registry.configuration(opts.config).strategy]
    return strategy(program, opts, stats, cegar, t0, known, on_confirmed)


def _portfolio(program: Program, opts: VerifyOptions, stats: Statistics, cegar: Callable[..., Search],
               t0: float, known: dict[int, CFANode],
               on_confirmed: Callable[[list[Confirmed]], None] | None) -> Search:
    probe = not known and _horn_applies(program, opts)
    child = None
    if probe:
        # Spacer in a child on the other core, beside every engine below (pipeline/beside.py).
        ctx0 = RunContext(program, opts, stats, t0, on_confirmed, Situation.of(program, opts, False))
        seconds = ctx0.share(schedule.BESIDE_SECONDS, schedule.BESIDE_SHARE)
        if opts.timeout is not None:  # its answer, with the time it may take to send it, within the run's
            seconds = min(seconds, t0 + opts.timeout - time.monotonic() - beside.GRACE_SECONDS)
        child = Beside.start(partial(_horn_outcome, program, seconds), seconds) if seconds > schedule.MIN_BESIDE else None
    spacer = _Spacer(child, program, opts, stats)
    ctx = RunContext(program, spacer.stop_with(opts), stats, t0, on_confirmed,
                     Situation.of(program, opts, spacer.running))
    try:
        return _joined(_engines(ctx, cegar, known, probe, spacer), ctx.tested_found, opts.max_violations - len(known))
    finally:
        spacer.stop()


def _joined(search: Search, tested: list[Confirmed], most: int) -> Search:
    """``search`` with the random tests' violations at the error locations it did not confirm
    itself (at most ``most`` in all): with more than one violation asked for they run early but
    decide nothing, and what they found is the run's whatever the engines after them did. They
    go after the search's own: the certificates of the multi-violation mode's chain
    (cache/certificate.py's ``record_chain``) belong to the search's first violations, in order."""
    have = {id(c.path.error_node) for c in search.confirmed}
    new = [c for c in tested if id(c.path.error_node) not in have][:max(0, most - len(search.confirmed))]
    if not new:
        return search
    search.confirmed.extend(new)
    if search.status != "unsafe":  # (their paths are exact: no proof stands against them)
        search.status = "unsafe"
        search.stats.decided_by = DecidedBy.TESTING
    return search


class _Spacer:
    """Spacer's child, and what the engines beside it ask of it. With no child (one core, no
    fork) it answers nothing, and Spacer runs in its turn."""

    def __init__(self, child: Beside[clauses.HornOutcome] | None, program: Program, opts: VerifyOptions,
                 stats: Statistics):
        self.child = child
        self.program = program
        self.opts = opts
        self.stats = stats

    @property
    def running(self) -> bool:
        return self.child is not None

    def proved(self) -> bool:
        """Whether the child has a proof (never waits): the other engines' cue to stop."""
        got = self._outcome(False)
        return got is not None and got.status == "safe"

    def proof(self, wait: bool = False) -> Search | None:
        """The child's proof as a finished search; ``wait``: for its answer, until its time is up
        or the run is cancelled."""
        got = self._outcome(wait)
        if got is None or got.status != "safe":
            return None
        return proved(self.stats, DecidedBy.INVARIANTS, got.summaries, self.program)

    def may_prove(self) -> bool:
        """Whether the child still runs, or ran out of time (never waits)."""
        if self.child is None:
            return False
        got = self._outcome(False)
        return not self.child.ready() or (got is not None and got.timed_out)

    def stop_with(self, opts: VerifyOptions) -> VerifyOptions:
        """``opts`` whose cancellation also stops at the child's proof."""
        return opts if self.child is None else opts._replace(cancel=either(opts.cancel, self.proved))

    def stop(self) -> None:
        if self.child is not None:
            self.child.stop()

    def _outcome(self, wait: bool) -> clauses.HornOutcome | None:
        if self.child is None or not (wait or self.child.ready()):
            return None
        return self.child.answer(_cancel(self.opts))


def _applicable(table: tuple[Stage, ...], situation: Situation) -> list[Stage]:
    return [s for s in table if s.when(situation)]


def _engines(ctx: RunContext, cegar: Callable[..., Search], known: dict[int, CFANode], probe_first: bool,
             spacer: _Spacer) -> Search:
    """``probe_first``: a small program with a loop or recursion, where CEGAR's probe and the
    stages before CEGAR go before CEGAR's full run."""
    program, opts, t0 = ctx.program, ctx.opts, ctx.t0
    retry = False  # an engine ran out of time: more of it might have given a proof
    alongside = spacer.running
    stop = spacer.proved if alongside else None
    if probe_first:
        first = schedule.PROBE_SECONDS
        probe = cegar(True, min(first, opts.timeout) if opts.timeout is not None else first, stop)
        if probe.status in ("safe", "unsafe") and probe.stopped == UnknownReason.NONE and not probe.reason:
            probe.stats.decided_by = DecidedBy.CEGAR
            return probe
        if not probe.confirmed:  # a confirmed violation leaves nothing to prove
            stages = _applicable(schedule.BEFORE_CEGAR, ctx.situation)
            ctx.guessed = any(s.engine is schedule.GUESSED for s in stages)
            for stage in stages:
                if (proof := spacer.proof()) is not None:
                    return proof
                assert stage.of is Of.LIMIT and stage.cap is not None
                seconds = ctx.share(stage.cap, stage.share)
                if seconds <= 0:  # the run's time is up: more of it might have given a proof
                    retry = True
                    break
                got = stage.engine.run(ctx, seconds)
                if got.search is not None:
                    return got.search
                retry = retry or got.timed_out
    unprobed = not probe_first and not known and traits.reads_input(program) and any(
        s.when(ctx.situation) for s in schedule.UNPROBED)
    if unprobed:
        for stage in _applicable(schedule.UNPROBED, ctx.situation):
            assert stage.of is Of.LIMIT and stage.cap is not None
            seconds = ctx.share(stage.cap, stage.share)
            if seconds <= 0:
                break
            got = stage.engine.run(ctx, seconds)
            if got.search is not None:
                return got.search
            retry = retry or got.timed_out
    deep = (opts.timeout is not None and opts.timeout >= schedule.SPLIT_MIN_SECONDS and not known
            and _horn_applies(program, opts) and not scope.unwinds_recursion(program))
    run_end = None if opts.timeout is None else t0 + opts.timeout
    limit = schedule.CEGAR_SHARE * max(0.0, run_end - time.monotonic()) if deep and run_end is not None else None
    if unprobed and run_end is not None:  # the rest for merged-path BMC and path exploration (complete)
        limit = schedule.UNPROBED_CEGAR_SHARE * max(0.0, run_end - time.monotonic())
    out = cegar(False, limit, stop)
    ctx.precision = out.precision
    if (proof := spacer.proof()) is not None:
        return proof
    searched = False  # BMC had CEGAR's leftover and found nothing: the second tries get what it left
    if deep and out.status == "unknown" and out.stopped == UnknownReason.TIMEOUT and not out.confirmed:
        # CEGAR ran out of its share: whatever decides now, a faster machine might have let
        # CEGAR decide it, with another path (the self-check compares no such answers).
        out.stats.phases_cut_by_time += 1
        # Spacer again for a moment first, unless it ran beside CEGAR.
        assert run_end is not None  # (deep)
        remaining = run_end - time.monotonic()
        if remaining > MIN_SECONDS and not alongside:
            again = schedule.SPACER.run(ctx, min(schedule.HORN_AGAIN_SECONDS, remaining * schedule.HORN_AGAIN_SHARE))
            if again.search is not None:
                return again.search
        found = _find_bmc(ctx, out)
        if found is not None:
            return found
        searched = True
    if alongside and not out.confirmed and (searched or undecided(out, opts, 0)):
        # What CEGAR (and BMC) left undecided, Spacer may still prove; the second tries run
        # beside it rather than after it.
        if (proof := spacer.proof()) is not None:
            return proof
        retry = retry or spacer.may_prove()
    if (searched or retry and undecided(out, opts, 0)) and not out.confirmed:
        tried: list[bool] = []  # per engine tried again: whether it ran out of time
        situation = ctx.situation if not searched else Situation(**{**ctx.situation.__dict__, "searched": True})
        for stage in _applicable(schedule.SECOND_TRIES, situation):
            assert stage.of is Of.LEFT
            left = None if run_end is None else run_end - time.monotonic()
            if left is not None and left * stage.share < MIN_SECONDS:
                continue
            seconds = schedule.RETRY_SECONDS if left is None else left * stage.share
            if stage.cap is not None:
                seconds = min(seconds, stage.cap)
            got = stage.engine.run(ctx, seconds)
            if got.search is not None:
                return got.search
            tried.append(got.timed_out)
        if tried:  # whether more time might have given a proof
            retry = any(tried)
    complete(program, opts, out, t0, known, ctx.on_confirmed, ctx.merged, tested=ctx.tested,
             paused=ctx.paused if ctx.situation.merges_first else {})
    if alongside and out.status == "unknown" and not out.confirmed:
        if (proof := spacer.proof(wait=True)) is not None:
            return proof
        retry = retry or spacer.may_prove()  # (it has answered: whether it ran out of time)
    if retry and out.status == "unknown":
        # Spacer ran out of its time: on a faster machine it might have proved this. Such an
        # UNKNOWN is not a final answer (the cache does not keep it; the self-check skips it).
        out.stats.phases_cut_by_time += 1
    return out


def _horn_applies(program: Program, opts: VerifyOptions) -> bool:
    return opts.horn and opts.property == "unreach-call" and not scope.applies(program)


def _horn_outcome(program: Program, seconds: float) -> clauses.HornOutcome:
    """Spacer's outcome, in a child beside the probe (which cancels it when it is not wanted)."""
    from ..algorithms.horn import clauses

    return clauses.solve(program, seconds)


def _find_bmc(ctx: RunContext, out: Search) -> Search | None:
    """BMC through the recursion with the time CEGAR (``out``, cut by its share) left: a
    confirmed violation as the run's answer (None: none found; ``out`` stays the answer)."""
    opts = ctx.opts
    assert opts.timeout is not None
    remaining = ctx.t0 + opts.timeout - time.monotonic()
    if remaining < MIN_SECONDS:
        return None
    from ..algorithms.bmc import recursion

    got = recursion.solve(ctx.program, schedule.BMC_SHARE * remaining, _cancel(opts))
    out.stats.unwinding_depth = got.depth
    if got.confirmed is None:
        out.reason = f"{out.reason}; BMC through the recursion: {got.reason}"  # how deep none was found
        return None
    out.stats.decided_by = DecidedBy.BMC
    if ctx.on_confirmed is not None:
        ctx.on_confirmed([got.confirmed])
    if opts.max_violations == 1:
        return Search(status="unsafe", stats=out.stats, precision={}, confirmed=[got.confirmed])
    # More were asked for: the others' search ran out of time, as CEGAR's did.
    out.status = "unsafe"
    out.confirmed = [got.confirmed]
    out.run_timed_out = True
    return out


def _cancel(opts: VerifyOptions) -> Callable[[], bool]:
    return opts.cancel if callable(opts.cancel) else (lambda: False)


def _cparec(program: Program, opts: VerifyOptions, stats: Statistics, cegar: Callable[[bool, float | None], Search],
            t0: float, known: dict[int, CFANode], on_confirmed: Callable[[list[Confirmed]], None] | None) -> Search:
    remaining = schedule.NO_LIMIT if opts.timeout is None else t0 + opts.timeout - time.monotonic()
    from ..algorithms import cparec

    out = cparec.solve(program, remaining, _cancel(opts))
    stats.unwinding_depth = out.depth
    if out.status == "safe" and (proof := proved(stats, DecidedBy.CPAREC, out.summaries, program)) is not None:
        return proof
    if out.status == "reachable":
        # Over the integers, within k recursive calls: path exploration confirms it exactly.
        search = Search(status="unknown", kind=UnknownReason.UNCONFIRMED, reason=out.reason, stats=stats,
                        precision={})
        complete(program, opts._replace(path_exploration=True), search, t0, known, on_confirmed, merge_paths=False)
        if search.confirmed:
            stats.decided_by = DecidedBy.CPAREC
        return search
    if out.timed_out:  # more time might decide it: not a final answer
        stats.phases_cut_by_time += 1
    return Search(status="unknown", kind=UnknownReason.TIMEOUT if out.timed_out else UnknownReason.NO_PROGRESS,
                  reason=f"CPArec: {out.reason}", stats=stats, precision={})


# The strategies a configuration can name (registry.Configuration.strategy).
STRATEGIES = {"portfolio": _portfolio, "cparec": _cparec}


def _also(reason: str, more: str) -> str:
    """Two engines' reasons for one answer, once each (both meet the same unsupported construct)."""
    return more if not reason else reason if not more or more in reason else f"{reason}; {more}"


def undecided(search: Search, opts: VerifyOptions, found: int) -> bool:
    """Whether CEGAR left error locations undecided, for a reason another engine may overcome.
    Running out of its own share of the time (not the run's) is such a reason."""
    share_cut = search.share_limited and UnknownReason.TIMEOUT in (search.kind, search.stopped)
    if not share_cut and (search.kind in _FINAL or search.stopped in _FINAL or search.run_timed_out):
        return False
    if search.status == "unknown":
        return True
    # A search for further violations that gave up on some location.
    return search.status == "unsafe" and bool(search.reason) and found < opts.max_violations


def complete(program: Program, opts: VerifyOptions, search: Search, t0: float, known: dict[int, CFANode],
             on_confirmed: Callable[[list[Confirmed]], None] | None = None,
             merged: dict[str, int] | None = None, merge_paths: bool = True, tested: bool = False,
             paused: dict[str, Any] | None = None) -> None:
    """Let random tests (unless ``tested``: they ran before), merged-path BMC and then path
    exploration decide what CEGAR left undecided; ``search`` becomes the combined answer.
    ``merged``: how far merged-path BMC got before CEGAR (it is tried again only if its time ran
    out there, from the bound it had reached). Without ``merge_paths`` only path exploration
    runs: CPArec's violation within k calls is to be confirmed, not searched for again (merged
    BMC would unwind past k, and report its own depth). ``paused``: a path exploration paused
    before CEGAR (``_explore_first``), which goes on here where nothing was confirmed since (it
    excludes no error location, and one violation is asked for)."""
    if search.status != "unknown" and not search.stats.decided_by:
        search.stats.decided_by = DecidedBy.CEGAR  # an UNKNOWN was decided by no engine
    found = len(search.confirmed) + len(known)
    if not opts.path_exploration or not undecided(search, opts, found):
        return
    remaining = None if opts.timeout is None else t0 + opts.timeout - time.monotonic()
    if remaining is not None and remaining < MIN_SECONDS:
        return
    excluded = dict(known)
    excluded |= {id(c.path.error_node): c.path.error_node for c in search.confirmed}
    streamed = list(search.confirmed)

    def confirmed_now(c: Confirmed) -> None:
        streamed.append(c)
        if on_confirmed is not None:
            on_confirmed(list(streamed))

    if merge_paths and not tested and not traits.uses_memory(program):
        if _complete_tested(program, opts, search, remaining, excluded, confirmed_now, found):
            return
        found = len(search.confirmed) + len(known)
        remaining = None if opts.timeout is None else t0 + opts.timeout - time.monotonic()
        if remaining is not None and remaining < MIN_SECONDS:
            return
    if merge_paths and not scope.merges_paths(program) and (not merged or merged.get("again")):
        if _complete_merged(program, opts, search, remaining, excluded, streamed, confirmed_now, found,
                            (merged or {}).get("bound", 1)):
            return
        found = len(search.confirmed) + len(known)
        remaining = None if opts.timeout is None else t0 + opts.timeout - time.monotonic()
        if remaining is not None and remaining < MIN_SECONDS:
            return
    budget = Budget(remaining, cancel=opts.cancel)  # type: ignore[arg-type]
    from ..algorithms.paths import explore

    explorer = (paused or {}).pop("explorer", None)
    if explorer is not None and found == 0 and opts.max_violations == 1:
        out = explorer.resume(budget)
    else:
        out = explore(program, budget, opts.max_violations - found, excluded, confirmed_now)
    search.stats.explored_paths = out.paths
    search.confirmed.extend(out.confirmed)
    if out.confirmed and search.stats.decided_by == DecidedBy.MERGED_BMC:
        search.stats.decided_by = DecidedBy.MERGED_BMC_PATHS
    if out.kind == UnknownReason.NONE:  # exhaustive: its answer is the run's
        search.status = "unsafe" if search.confirmed or known else "safe"
        search.kind, search.reason, search.reason_node = UnknownReason.NONE, "", None
        search.stopped = UnknownReason.NONE
        search.stats.decided_by = DecidedBy.PATHS
        return
    if out.confirmed:
        if search.stats.decided_by != DecidedBy.MERGED_BMC_PATHS:
            search.stats.decided_by = DecidedBy.CEGAR_PATHS if found else DecidedBy.PATHS
        if search.status == "unknown":
            search.status = "unsafe"
    if out.kind == UnknownReason.CANCELLED:
        search.kind, search.reason = out.kind, out.reason
        search.stopped = UnknownReason.CANCELLED
        return
    search.reason = _also(search.reason, out.reason)
    if out.kind == UnknownReason.TIMEOUT:
        # More time might have decided it: not an answer the cache may keep as final.
        search.stats.phases_cut_by_time += 1
        if search.status == "unsafe":
            search.stopped, search.run_timed_out = UnknownReason.TIMEOUT, True


def _complete_tested(program: Program, opts: VerifyOptions, search: Search, remaining: float | None,
                     excluded: dict[int, CFANode], confirmed_now: Callable[[Confirmed], None], found: int) -> bool:
    """Random tests for a moment (a quarter of what is left, at most ``TESTING_SECONDS``), where
    they did not run before CEGAR: with more than one violation asked for (the editor's mode),
    or on a program too large for the engines before it. Whether their answer is the run's
    (they found every violation asked for). Violations they confirm join the run's."""
    from ..algorithms import testing

    seconds = schedule.TESTING_SECONDS if remaining is None else min(schedule.TESTING_SECONDS, schedule.TESTING_LATE_SHARE * remaining)
    new = testing.find(program, Budget(seconds, cancel=opts.cancel), opts.max_violations - found,  # type: ignore[arg-type]
                       excluded, confirmed_now)
    if not new:
        return False
    search.confirmed.extend(new)
    search.stats.decided_by = DecidedBy.CEGAR_TESTING if found else DecidedBy.TESTING
    if search.status == "unknown":
        search.status = "unsafe"
    if found + len(new) < opts.max_violations:
        return False
    search.kind, search.reason, search.reason_node = UnknownReason.NONE, "", None
    search.stopped = UnknownReason.NONE
    return True


def _complete_merged(program: Program, opts: VerifyOptions, search: Search, remaining: float | None,
                     excluded: dict[int, CFANode], streamed: list[Confirmed], confirmed_now: Callable[[Confirmed], None],
                     found: int, start_bound: int) -> bool:
    """Merged-path BMC with a share of what CEGAR left (all of it without a limit), before path
    exploration; whether its answer is the run's (it covered every execution, or found every
    violation asked for, or the run was cancelled). Violations it confirms join the run's."""
    from ..algorithms.bmc import merged as engine

    seconds = None if remaining is None else schedule.MERGED_LATE_SHARE * remaining
    before = {id(c.path.error_node) for c in search.confirmed}
    out = engine.check(program, Budget(seconds, cancel=opts.cancel), opts.max_violations - found,  # type: ignore[arg-type]
                       excluded, confirmed_now, start_bound)
    new = [c for c in out.confirmed if id(c.path.error_node) not in before]
    search.confirmed.extend(new)
    excluded |= {id(c.path.error_node): c.path.error_node for c in new}
    if new:
        search.stats.decided_by = DecidedBy.CEGAR_MERGED_BMC if found else DecidedBy.MERGED_BMC
        search.stats.unwinding_depth = out.bound
        if search.status == "unknown":
            search.status = "unsafe"
    if out.kind == UnknownReason.NONE or found + len(new) >= opts.max_violations:
        search.status = "unsafe" if search.confirmed or found else "safe"
        search.kind, search.reason, search.reason_node = UnknownReason.NONE, "", None
        search.stopped = UnknownReason.NONE
        search.stats.decided_by = DecidedBy.CEGAR_MERGED_BMC if found and new else DecidedBy.MERGED_BMC
        search.stats.unwinding_depth = out.bound
        return True
    if out.kind == UnknownReason.CANCELLED:
        search.kind, search.reason = out.kind, out.reason
        search.stopped = UnknownReason.CANCELLED
        return True
    if out.kind == UnknownReason.TIMEOUT:
        search.stats.phases_cut_by_time += 1
    search.reason = _also(search.reason, out.reason)
    return False
