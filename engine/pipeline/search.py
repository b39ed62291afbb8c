"""The search: CEGAR over BAM, phase after phase, until a verdict, a limit, or the last phase.

A phase that ends without a verdict (stuck on a path its precision cannot settle, or out of its
share of the time) hands over to the next: the next explores in another order and may meet a
real counterexample or a refinable path first. Confirmed violations stand across phases; a
search for further violations excludes them.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .. import release
from ..algorithms.cegar import CegarOutcome, PathCheck, cegar
from ..cex.feasibility import Confirmed
from ..cfa.cfa import Program
from ..cfa.ir import CFANode
from ..core.bam import BAM, FixpointDiverging
from ..core.cpa import Block, CompositeCPA
from ..core.cpa_algorithm import Budget, BudgetExceeded
from ..core.result import Statistics, UnknownReason
from ..cpa.registry import Analysis, build, refiner
from ..options import VerifyOptions
from .phases import Phase, to_json


@dataclass
class Search:
    """What the search found, for verify.py to turn into a result and the cache policy to file."""

    status: str = "unknown"  # "safe" | "unsafe" | "unknown"
    kind: UnknownReason = UnknownReason.NONE
    reason: str = ""
    reason_node: CFANode | None = None
    unsupported_range: Any = None
    confirmed: list[Confirmed] = field(default_factory=list)
    precision: dict | None = None
    stats: Statistics = field(default_factory=Statistics)
    stopped: UnknownReason = UnknownReason.NONE  # a limit ended the search (the last phase's)
    run_timed_out: bool = False  # that limit was the run's own, not the extra search's
    share_limited: bool = False  # the search had a share of the run's time, not all that was left
    certify: bool = False  # found by the first abstract run of the first phase
    # For the first violations, in the order found, while each was found in the first phase
    # before any refinement: the blocks its target was reached through (their certificates).
    chain: list[list[dict]] = field(default_factory=list)
    chain_precision: dict | None = None  # the first phase's precision, which the chain was found under
    chain_hinted: bool = False  # ... a precision reused from an earlier run
    invariants: dict[str, str] = field(default_factory=dict)  # the Horn-clause engine's summaries, if it decided


def accumulate(stats: Statistics, bam: BAM, budget: Budget, refinements: int) -> None:
    stats.states += budget.states
    stats.refinements += refinements
    stats.cache_hits += bam.stats.cache_hits
    stats.cache_misses += bam.stats.cache_misses
    stats.covered_recursive_calls += bam.stats.covered_calls
    stats.fixpoint_iterations += bam.stats.fixpoint_iterations
    stats.blocks_analysed += bam.stats.blocks_analysed


def run_phases(program: Program, cpa: CompositeCPA, found: list[Analysis], blocks: dict[str, Block],
               phases: list[Phase], opts: VerifyOptions, persistent, stats: Statistics,
               validated: dict, on_confirmed: Callable[[list[Confirmed]], None] | None = None,
               known: dict[int, CFANode] | None = None, chain: list[list[dict]] | None = None,
               chain_precision: tuple[dict, bool] | None = None, probe: bool = False,
               check: PathCheck | None = None) -> Search:
    """``validated``: block results that a certificate's validation already computed (final).
    ``on_confirmed``: told of the violations confirmed so far, each time there is a new one.
    ``known``: error locations of violations already established (certified), searched no
    further; ``chain``: their certificates, in order, found under ``chain_precision`` (and
    whether that was a hint); the search's own extend them if it runs under the same.
    ``probe``: a short look before other engines (pipeline/portfolio.py): even its last phase
    gives up on a growing summary or loop, as a phase with a successor does. ``check``: how
    CEGAR checks an error path (cegar.cegar)."""
    out = Search(stats=stats, chain=list(chain or []), chain_precision=phases[0].precision,
                 chain_hinted=phases[0].reused)
    same_precision = True
    if chain and chain_precision is not None:
        out.chain_precision, out.chain_hinted = chain_precision
        same_precision = to_json(found, chain_precision[0]) == to_json(found, phases[0].precision)
    ref = refiner(found, cpa)
    total = Budget(opts.timeout, cancel=opts.cancel)  # type: ignore[arg-type]
    excluded: dict[int, CFANode] = dict(known or {})
    budget_violations = opts.max_violations - len(excluded)
    outcome: CegarOutcome | None = None
    streamed: list[Confirmed] = []
    phase_index = [0]
    chained = [len(out.chain) == len(excluded) and same_precision]

    def confirmed_now(c: Confirmed, refinements: int) -> None:
        streamed.append(c)
        if chained[0] and phase_index[0] == 0 and refinements == 0 and persistent is not None \
                and persistent.target_levels:
            out.chain.append(list(persistent.target_levels))
        else:
            chained[0] = False
        if on_confirmed is not None:
            on_confirmed(list(streamed))

    for i, phase in enumerate(phases):
        phase_index[0] = i
        last = i == len(phases) - 1
        # A phase that starts at or past the run's deadline gets a moment (a limit of 0 would
        # read as none), not half a second: three phases cut by time overran a 60 s limit by 1 s.
        remaining = None if total.deadline is None else max(1e-3, total.deadline - time.monotonic())
        limit = remaining if (last or remaining is None) else remaining * phase.share
        if (out.confirmed or known) and opts.extra_search_after_violation is not None:
            limit = min(limit if limit is not None else opts.extra_search_after_violation,
                        opts.extra_search_after_violation)
        budget = Budget(limit, cancel=opts.cancel,  # type: ignore[arg-type]
                        extra_after_violation=opts.extra_search_after_violation)
        bam = BAM(program, cpa, blocks, budget, opts.order)
        bam.persistent = persistent
        bam.excluded_targets |= excluded
        bam.give_up_diverging = not last or probe
        if i == 0:
            bam.cache.update(validated)
        if excluded and not bam.live_targets():
            # Every error location is a confirmed violation: nothing left to search.
            outcome = CegarOutcome("unsafe", precision=phase.precision)
            break
        try:
            outcome = cegar(program, bam, phase.precision, budget, ref, budget_violations - len(out.confirmed),
                            on_confirmed=confirmed_now, check=check)
        except BudgetExceeded as exc:
            accumulate(stats, bam, budget, 0)
            found_here = getattr(exc, "confirmed", [])
            out.confirmed.extend(found_here)
            stats.precision_reused |= phase.reused and bool(found_here)
            excluded |= {id(c.path.error_node): c.path.error_node for c in found_here}
            if last or exc.reason == "cancelled":
                out.stopped = UnknownReason(exc.reason)
                out.kind, out.reason = out.stopped, exc.reason
                out.run_timed_out = total.deadline is not None and time.monotonic() >= total.deadline
                release.later(bam, exc)  # its states (and the frames that held them) are freed after the answer
                return out
            stats.phases_cut_by_time += 1
            continue
        except FixpointDiverging as exc:
            accumulate(stats, bam, budget, 0)
            found_here = getattr(exc, "confirmed", [])
            out.confirmed.extend(found_here)
            stats.precision_reused |= phase.reused and bool(found_here)  # see below
            excluded |= {id(c.path.error_node): c.path.error_node for c in found_here}
            continue
        except MemoryError:
            out.kind, out.reason = UnknownReason.MEMORY, "memory limit reached"
            return out
        except RecursionError:
            if not last:
                continue  # typically concrete recursion under full precision; the next phase abstracts it
            out.kind, out.reason = UnknownReason.DEPTH, "the program's call or path depth exceeds what cbam can handle"
            return out
        accumulate(stats, bam, budget, outcome.refinements)
        out.confirmed.extend(outcome.confirmed)
        # Violations a phase that started from a hint confirmed are part of the answer even when
        # the search goes on after it (locations it gave up on beside them): the hint decided
        # them, with the path that precision met (a call it tracks no result of is shown step by
        # step, where another precision collapses it into a summary step), and the phases after
        # it search with them excluded. The result must say so, as for a phase that ran out of
        # its time (above): what the self-check then asks of it is a hint's rule (never a
        # contradiction, the same failing checks), not memoization's (the same paths).
        stats.precision_reused |= phase.reused and bool(outcome.confirmed)
        # Only confirmed violations: an error location the phase gave up on stays a target for the next.
        excluded |= {id(c.path.error_node): c.path.error_node for c in outcome.confirmed}
        undecided_left = bool(outcome.undecided) and len(out.confirmed) < budget_violations
        if (outcome.status == "unknown" or undecided_left) and not last:
            # A hint that settles nothing leaves the run where a run without it starts; locations
            # a phase gave up on beside its violations are the next phase's to decide.
            continue
        stats.precision_reused |= phase.reused
        out.certify = i == 0 and outcome.status == "unsafe" and outcome.refinements == 0 and len(out.confirmed) == 1
        break
    if outcome is None:  # a probe's only phase gave up on a growing summary
        out.kind, out.reason = UnknownReason.NO_PROGRESS, "a probe gave up on a growing summary"
        return out
    if opts.theory == "lia" and outcome.status == "safe":
        # Integer arithmetic is not C's: confirm the proof with exact bit-vector formulas,
        # continuing CEGAR from the learned predicates if they do not suffice.
        phase_index[0] = -1  # not the first phase's: no certificate
        outcome = _confirm_in_bv(program, blocks, opts, outcome, total, stats, excluded, confirmed_now,
                                 budget_violations - len(out.confirmed))
        out.confirmed.extend(outcome.confirmed)
    out.status, out.kind, out.reason = outcome.status, outcome.kind, outcome.reason
    out.reason_node, out.unsupported_range = outcome.reason_node, outcome.unsupported_range
    out.precision = outcome.precision or {}
    stats.precision_size = sum(p.size() for p in out.precision.values() if hasattr(p, "size"))
    return out


def _confirm_in_bv(program: Program, blocks: dict, opts: VerifyOptions, outcome: CegarOutcome, total: Budget,
                   stats: Statistics, excluded: dict, on_confirmed: Callable[[Confirmed, int], None],
                   max_violations: int) -> CegarOutcome:
    from ..cpa.registry import configuration

    cpa, found = build(configuration(opts.config), program, blocks, "bv")
    remaining = None if total.deadline is None else max(1e-3, total.deadline - time.monotonic())
    budget = Budget(remaining, cancel=opts.cancel)  # type: ignore[arg-type]
    bam = BAM(program, cpa, blocks, budget, opts.order)
    bam.excluded_targets |= excluded
    try:
        confirmed = cegar(program, bam, outcome.precision or {}, budget, refiner(found, cpa), max_violations,
                          on_confirmed=on_confirmed)
    except BudgetExceeded as exc:
        accumulate(stats, bam, budget, 0)
        outcome.status = "unknown"
        outcome.kind = UnknownReason(exc.reason)
        outcome.reason = f"{exc.reason} while confirming an integer-arithmetic proof with bit-vectors"
        outcome.confirmed = list(getattr(exc, "confirmed", []))
        if outcome.confirmed:
            outcome.status = "unsafe"
        return outcome
    accumulate(stats, bam, budget, confirmed.refinements)
    stats.bv_confirmation = True
    return confirmed
