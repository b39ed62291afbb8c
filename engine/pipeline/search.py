"""The search: CEGAR over BAM, phase after phase, until a verdict, a limit, or the last phase.

A phase that ends without a verdict (stuck on a path its precision cannot settle, or out of its
share of the time) hands over to the next: the next explores in another order and may meet a
real counterexample or a refinable path first. Confirmed violations stand across phases; a
search for further violations excludes them.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from ..analysis.bam import BAM
from ..analysis.cegar import CegarOutcome, Confirmed, cegar
from ..analysis.cpa import Block, CompositeCPA
from ..analysis.cpa_algorithm import Budget, BudgetExceeded
from ..analysis.registry import Analysis, build, refiner
from ..analysis.result import Statistics, UnknownReason
from ..cfa.cfa import CFANode, Program
from ..options import VerifyOptions
from .phases import Phase


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
    certify: bool = False  # found by the first abstract run of the first phase


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
               validated: dict) -> Search:
    """``validated``: block results that a certificate's validation already computed (final)."""
    out = Search(stats=stats)
    ref = refiner(found, cpa)
    total = Budget(opts.timeout, cancel=opts.cancel)  # type: ignore[arg-type]
    excluded: dict[int, CFANode] = {}
    outcome: CegarOutcome | None = None
    for i, phase in enumerate(phases):
        last = i == len(phases) - 1
        remaining = None if total.deadline is None else max(0.5, total.deadline - time.monotonic())
        limit = remaining if (last or remaining is None) else remaining * phase.share
        if out.confirmed and opts.extra_search_after_violation is not None:
            limit = min(limit if limit is not None else opts.extra_search_after_violation,
                        opts.extra_search_after_violation)
        budget = Budget(limit, cancel=opts.cancel,  # type: ignore[arg-type]
                        extra_after_violation=opts.extra_search_after_violation)
        bam = BAM(program, cpa, blocks, budget, opts.order)
        bam.persistent = persistent
        bam.excluded_targets |= excluded
        if i == 0:
            bam.cache.update(validated)
        try:
            outcome = cegar(program, bam, phase.precision, budget, ref, opts.max_violations - len(out.confirmed))
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
                return out
            stats.phases_cut_by_time += 1
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
        excluded |= bam.excluded_targets | {id(c.path.error_node): c.path.error_node for c in outcome.confirmed}
        if outcome.status == "unknown" and not last:
            continue  # a hint that settles nothing leaves the run where a run without it starts
        stats.precision_reused |= phase.reused
        out.certify = i == 0 and outcome.status == "unsafe" and outcome.refinements == 0 and len(out.confirmed) == 1
        break
    assert outcome is not None
    if opts.theory == "lia" and outcome.status == "safe":
        # Integer arithmetic is not C's: confirm the proof with exact bit-vector formulas,
        # continuing CEGAR from the learned predicates if they do not suffice.
        outcome = _confirm_in_bv(program, blocks, opts, outcome, total, stats, excluded)
        out.confirmed.extend(outcome.confirmed)
    out.status, out.kind, out.reason = outcome.status, outcome.kind, outcome.reason
    out.reason_node, out.unsupported_range = outcome.reason_node, outcome.unsupported_range
    out.precision = outcome.precision or {}
    stats.precision_size = sum(p.size() for p in out.precision.values() if hasattr(p, "size"))
    return out


def _confirm_in_bv(program: Program, blocks: dict, opts: VerifyOptions, outcome: CegarOutcome, total: Budget,
                   stats: Statistics, excluded: dict) -> CegarOutcome:
    from ..analysis.registry import configuration

    cpa, found = build(configuration(opts.config), program, blocks, "bv")
    remaining = None if total.deadline is None else max(0.5, total.deadline - time.monotonic())
    budget = Budget(remaining, cancel=opts.cancel)  # type: ignore[arg-type]
    bam = BAM(program, cpa, blocks, budget, opts.order)
    bam.excluded_targets |= excluded
    try:
        confirmed = cegar(program, bam, outcome.precision or {}, budget, refiner(found, cpa), opts.max_violations)
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
