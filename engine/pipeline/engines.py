"""The engines the schedule runs (pipeline/schedule.py), each one class behind one protocol, as
CPAchecker's algorithms are behind ``Algorithm`` and ``AlgorithmStatus``: ``run(ctx, seconds)``
gives an :class:`Outcome`, the run's answer if the engine decided it, else whether more time
might have let it decide. What a run's engines share (the program, its options, what one engine
leaves another) is the :class:`RunContext`; what the schedule's conditions read is the
:class:`Situation`, computed once per run.

An engine here adapts one of engine/algorithms to that protocol: the algorithm decides, the
adapter turns its answer into a finished search with ``decided_by`` set. A new engine is one
class here (or anywhere: the protocol is all the schedule needs) and one row in the schedule.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Protocol

from ..algorithms import scope
from ..cex.feasibility import Confirmed
from ..cfa import traits
from ..cfa.cfa import Program
from ..core.cpa_algorithm import Budget
from ..core.result import DecidedBy, Statistics, UnknownReason
from ..cpa import registry
from ..options import VerifyOptions
from .search import Search


@dataclass(frozen=True)
class Outcome:
    """An engine's turn: ``search``, the run's answer if it decided (None: it did not, and the
    run goes on as if it had not run); ``timed_out``: more time might have let it decide."""

    search: Search | None = None
    timed_out: bool = False


NOTHING = Outcome()


@dataclass(frozen=True)
class Situation:
    """The traits of the program and the run that the schedule's conditions read."""

    memory: bool  # a value can be a pointer or live in memory
    recursive: bool
    merges_first: bool  # merged-path BMC goes before the clause engines and CEGAR
    large_arrays: bool  # an array merged-path BMC would enumerate element by element
    path_exploration: bool  # the run's options allow path exploration
    alongside: bool  # Spacer runs beside, in a child on the other core
    memsafety: bool = False  # the property is memory safety
    searched: bool = False  # BMC through the recursion had CEGAR's leftover and found nothing

    @classmethod
    def of(cls, program: Program, opts: VerifyOptions, alongside: bool) -> Situation:
        memory = traits.uses_memory(program)
        return cls(memory=memory, recursive=bool(traits.recursive(program)),
                   merges_first=opts.path_exploration and not scope.merges_paths(program) and memory,
                   large_arrays=bool(scope.large_arrays(program)), path_exploration=opts.path_exploration,
                   alongside=alongside, memsafety=opts.property == "memsafety")


@dataclass
class RunContext:
    """One run's engines' common ground."""

    program: Program
    opts: VerifyOptions
    stats: Statistics
    t0: float  # the run's start
    on_confirmed: Callable[[list[Confirmed]], None] | None
    situation: Situation
    merged: dict[str, int] = field(default_factory=dict)  # how far merged-path BMC got (its second try goes on)
    paused: dict[str, Any] = field(default_factory=dict)  # a path exploration paused between two turns
    tested: bool = False  # the random tests ran (the last stage need not run them again)
    tested_found: list[Confirmed] = field(default_factory=list)  # ... what they found beyond the one asked for
    guessed: bool = False  # the summaries guessed from runs were scheduled (CPArec need not guess again)
    precision: dict | None = None  # CEGAR's, once it ran: what the analyses offer k-induction

    def cancel(self) -> Callable[[], bool]:
        c = self.opts.cancel
        return c if callable(c) else (lambda: False)

    def share(self, cap: float, share: float) -> float:
        """``share`` of the run's limit, at most ``cap`` seconds, never more than what is left
        (an engine before may have used more than its own share: the limit is the run's)."""
        if self.opts.timeout is None:
            return cap
        left = self.t0 + self.opts.timeout - time.monotonic()
        return max(0.0, min(cap, share * self.opts.timeout, left))


class Engine(Protocol):
    """What the schedule runs: ``title`` names it in docs/engines.md."""

    title: str

    def run(self, ctx: RunContext, seconds: float) -> Outcome:
        ...


def proved(stats: Statistics, engine: DecidedBy, summaries: dict[str, str], program: Program | None) -> Search | None:
    """An engine's proof as a finished search. ``program``: for an engine over the whole program,
    whose proof is None where it cannot stand (a reachable call of an unsupported function);
    None for the engines that follow paths, which give up at such a call when they reach one."""
    if program is not None and scope.unsupported_reached(program):
        return None
    stats.decided_by = engine
    return Search(status="safe", stats=stats, precision={}, invariants=summaries)


def _safe_or_timed_out(ctx: RunContext, engine: DecidedBy, out: Any) -> Outcome:
    if out.status == "safe":
        return Outcome(proved(ctx.stats, engine, out.summaries, ctx.program))
    return Outcome(None, out.timed_out)


class Spacer:
    """Whole-program invariants from the Horn clauses (algorithms/horn/clauses.py), in its turn."""

    title = "Spacer (whole-program invariants)"

    def run(self, ctx: RunContext, seconds: float) -> Outcome:
        from ..algorithms.horn import clauses

        return _safe_or_timed_out(ctx, DecidedBy.INVARIANTS, clauses.solve(ctx.program, seconds, ctx.cancel()))


class Templates:
    """Template invariants over arrays' cells, kept Houdini-style (algorithms/horn/templates.py)."""

    title = "template invariants"

    def run(self, ctx: RunContext, seconds: float) -> Outcome:
        from ..algorithms.horn import templates

        return _safe_or_timed_out(ctx, DecidedBy.TEMPLATES, templates.prove(ctx.program, seconds, ctx.cancel()))


class Guessed:
    """Summaries guessed from runs, kept where Houdini proves them (algorithms/horn/samples.py)."""

    title = "guessed summaries"

    def run(self, ctx: RunContext, seconds: float) -> Outcome:
        from ..algorithms.horn import samples

        return _safe_or_timed_out(ctx, DecidedBy.CPAREC, samples.solve(ctx.program, seconds, ctx.cancel()))


class Cparec:
    """CPArec (algorithms/cparec.py): its counterexamples are left to path exploration, which runs
    later anyway. It guesses summaries itself unless the guessed ones were scheduled."""

    title = "CPArec"

    def run(self, ctx: RunContext, seconds: float) -> Outcome:
        from ..algorithms import cparec

        out = cparec.solve(ctx.program, seconds, ctx.cancel(), guess=not ctx.guessed)
        if out.status != "safe":
            return Outcome(None, out.timed_out)
        ctx.stats.unwinding_depth = out.depth
        return Outcome(proved(ctx.stats, DecidedBy.CPAREC, out.summaries, ctx.program))


class KInduction:
    """k-induction over the clauses (algorithms/kinduction). ``offered``: its second try, with
    Houdini's invariants and what the analyses offer (CEGAR's precision included); the first,
    short one goes without, and streams a violation its base case confirms. A violation decides
    the run when one is asked for; the search for all of them is CEGAR's."""

    def __init__(self, offered: bool):
        self.offered = offered
        self.title = "k-induction with offered invariants" if offered else "k-induction"

    def run(self, ctx: RunContext, seconds: float) -> Outcome:
        from ..algorithms import kinduction

        program, opts, stats = ctx.program, ctx.opts, ctx.stats
        facts = partial(registry.invariants, registry.configuration(opts.config), program,
                        ctx.precision or {}) if self.offered else None
        out = kinduction.solve(program, seconds, ctx.cancel(), strengthen=self.offered, facts=facts)
        if out.status == "unsafe" and out.confirmed is not None and opts.max_violations == 1:
            stats.decided_by = DecidedBy.BMC
            stats.induction_k = out.k
            if ctx.on_confirmed is not None and not self.offered:
                ctx.on_confirmed([out.confirmed])
            return Outcome(Search(status="unsafe", stats=stats, precision={}, confirmed=[out.confirmed]))
        if out.status != "safe":
            return Outcome(None, out.timed_out)
        stats.induction_k = out.k
        stats.induction_offered = out.offered_kept
        return Outcome(proved(stats, DecidedBy.K_INDUCTION, out.summaries, program))


class Algebraic:
    """Polynomial loop invariants guessed from sampled states (kinduction.solve_algebraic)."""

    title = "polynomial invariants"

    def run(self, ctx: RunContext, seconds: float) -> Outcome:
        from ..algorithms import kinduction

        out = kinduction.solve_algebraic(ctx.program, seconds, ctx.cancel())
        if out.status != "safe":
            return Outcome(None, out.timed_out)
        ctx.stats.induction_k = out.k
        return Outcome(proved(ctx.stats, DecidedBy.K_INDUCTION, out.summaries, ctx.program))


class Explore:
    """Path exploration for a moment (algorithms/paths.py): what it follows to the end in that time
    is decided exactly, and a violation decides the run when one is asked for. Inputs bounded
    ahead of a loop split each path into one per value, whose branches need no solver. Where
    merged-path BMC goes first, an exploration its budget stopped is kept between its two turns
    (``ctx.paused``) and the later one goes on with it. ``after_bmc``: that later turn, which runs
    only if BMC ran out of time (a list longer than its bounds), or for ``deep_share`` of the
    limit (at most ``deep_cap``) if BMC stopped at its deepest bound (a long loop)."""

    def __init__(self, after_bmc: bool = False, deep_share: float = 0.0, deep_cap: float = 0.0):
        self.after_bmc = after_bmc
        self.deep_share, self.deep_cap = deep_share, deep_cap
        self.title = "path exploration, on after merged-path BMC" if after_bmc else "path exploration"

    def run(self, ctx: RunContext, seconds: float) -> Outcome:
        paused = ctx.paused if ctx.situation.merges_first else None
        if paused is not None and paused.get("ended"):
            return NOTHING
        if self.after_bmc:
            if ctx.merged.get("deeper"):
                seconds = ctx.share(self.deep_cap, self.deep_share)
            elif not ctx.merged.get("again"):
                return NOTHING
        from ..algorithms.paths import Explorer

        opts, stats = ctx.opts, ctx.stats
        budget = Budget(seconds, cancel=ctx.cancel())
        explorer = paused.pop("explorer", None) if paused is not None else None
        if explorer is not None:
            out = explorer.resume(budget)
        else:
            explorer = Explorer(ctx.program, budget, opts.max_violations)
            out = explorer.run()
        if paused is not None:
            if explorer.resumable:
                paused["explorer"] = explorer
            elif out.kind not in (UnknownReason.TIMEOUT, UnknownReason.CANCELLED):
                paused["ended"] = True
        exhaustive = out.kind == UnknownReason.NONE
        if out.confirmed and (exhaustive or opts.max_violations == 1):
            stats.decided_by, stats.explored_paths = DecidedBy.PATHS, out.paths
            if ctx.on_confirmed is not None:
                ctx.on_confirmed(list(out.confirmed))
            return Outcome(Search(status="unsafe", stats=stats, precision={}, confirmed=list(out.confirmed)))
        if exhaustive:
            stats.explored_paths = out.paths
            return Outcome(proved(stats, DecidedBy.PATHS, {}, None))
        return NOTHING


class RandomTests:
    """Random tests for a moment (algorithms/testing.py): a run that reaches an error is a
    violation, confirmed by replaying its path with the values it drew. With one violation asked
    for it decides the run; with more, what they find joins the run's answer
    (``ctx.tested_found``) and the engines after them go on."""

    title = "random tests"

    def run(self, ctx: RunContext, seconds: float) -> Outcome:
        from ..algorithms import testing

        ctx.tested = True
        found = testing.find(ctx.program, Budget(seconds, cancel=ctx.cancel()), ctx.opts.max_violations)
        if not found:
            return NOTHING
        if ctx.on_confirmed is not None:
            ctx.on_confirmed(list(found))
        if ctx.opts.max_violations > 1:
            ctx.tested_found.extend(found)
            return NOTHING
        ctx.stats.decided_by = DecidedBy.TESTING
        return Outcome(Search(status="unsafe", stats=ctx.stats, precision={}, confirmed=found))


class MergedBmc:
    """Merged-path BMC (algorithms/bmc/merged.py). A violation decides the run when one is asked
    for; with more, only an answer that covered every execution does. How far it got goes to
    ``ctx.merged``, for its second try after CEGAR and for path exploration's later turn."""

    title = "merged-path BMC"

    def run(self, ctx: RunContext, seconds: float) -> Outcome:
        from ..algorithms.bmc import merged as engine

        opts, stats = ctx.opts, ctx.stats
        out = engine.check(ctx.program, Budget(seconds, cancel=ctx.cancel()), opts.max_violations)
        ctx.merged["bound"] = out.bound
        ctx.merged["again"] = int(out.kind == UnknownReason.TIMEOUT)
        ctx.merged["deeper"] = int(out.deeper)
        if out.kind == UnknownReason.TIMEOUT:
            # Its second try starts at the bound this one reached: what it finds then, and the
            # path its model picks, depend on the time.
            stats.phases_cut_by_time += 1
        exhaustive = out.kind == UnknownReason.NONE
        if out.status == "unsafe" and (exhaustive or opts.max_violations == 1):
            stats.decided_by = DecidedBy.MERGED_BMC
            stats.unwinding_depth = out.bound
            if ctx.on_confirmed is not None:
                ctx.on_confirmed(list(out.confirmed))
            return Outcome(Search(status="unsafe", stats=stats, precision={}, confirmed=list(out.confirmed)))
        if out.status == "safe":
            stats.unwinding_depth = out.bound
            return Outcome(proved(stats, DecidedBy.MERGED_BMC, {}, None))
        return Outcome(None, out.kind == UnknownReason.TIMEOUT)
