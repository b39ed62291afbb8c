"""CEGAR around BAM (Beyer & Löwe 2012, Alg. 2, with BAM's transfer inside, as in Beyer & Friedberger 2020).

Abstract error paths are confirmed by z3 on the exact bit-vector encoding; only a
satisfiable path becomes a violation. An infeasible path goes to the configuration's
refiner, which returns a finer precision (a dict: one precision per domain) or says why it
cannot. The loop itself knows no domain. After a refinement the analysis restarts from the
start block, but the BAM cache survives: a block whose reduced precision did not
change is not re-explored (its key still hits), which is how refinement invalidates
exactly the cache entries it affects.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from ..cex.feasibility import Confirmed, Feasibility
from ..cfa.cfa import Program
from ..cfa.ir import CFANode
from ..core.bam import BAM, AnalysisUnsupported, FixpointDiverging
from ..core.cpa_algorithm import Budget, BudgetExceeded
from ..core.path import ErrorPath, reconstruct
from ..core.refinement import Refiner
from ..core.result import UnknownReason
from ..smt.time_limit import past_deadline

REPEATS = 2  # refinements of one spurious path before CEGAR stops for want of progress


@dataclass
class CegarOutcome:
    """How a CEGAR loop ended: safe, unsafe (with its paths) or unknown (with the reason)."""

    status: str  # "safe" | "unsafe" | "unknown"
    reason: str = ""
    kind: UnknownReason = UnknownReason.NONE  # why an "unknown" status (and what "reason" says)
    confirmed: list[Confirmed] = field(default_factory=list)
    refinements: int = 0
    precision: dict | None = None
    unsupported_range: object = None
    reason_node: CFANode | None = None  # the error location a "no progress" reason is about
    # Error locations given up on (the first one's reason is the outcome's if nothing is confirmed):
    # the search goes on to the others, so a violation elsewhere is still found.
    undecided: list = field(default_factory=list)


def _give_up(out: CegarOutcome, bam: BAM, path: ErrorPath, kind: UnknownReason, reason: str,
             unsupported_range: object = None) -> bool:
    """The search cannot decide ``path``'s error location. If other error locations are left,
    note it as undecided and go on with them (True); else end the outcome as unknown (False).
    An undecided location is never reported safe: the outcome is "unknown" unless a violation
    is confirmed. Going on counts as a refinement, so no certificate claims the search was
    direct."""
    if not out.undecided:
        first = (kind, reason, path.error_node, unsupported_range)
    else:
        first = out.undecided[0]
    bam.exclude(path.error_node)
    if bam.live_targets():
        out.undecided.append((kind, reason, path.error_node, unsupported_range))
        out.refinements += 1
        return True
    out.status = "unsafe" if out.confirmed else "unknown"
    out.kind, out.reason, out.reason_node, out.unsupported_range = first
    return False


def _undecided_stand(out: CegarOutcome) -> CegarOutcome:
    """An outcome that ends with locations given up on says so, beside confirmed violations too:
    its search did not look everywhere, so no list of violations it returns is complete."""
    if out.undecided:
        out.kind, out.reason, out.reason_node, out.unsupported_range = out.undecided[0]
    return out


# A path check: (program, error path, time limit in ms, poll) -> its finding.
PathCheck = Callable[[Program, ErrorPath, int, Callable[[], None]], Feasibility]


def cegar(program: Program, bam: BAM, precision: dict, budget: Budget, refiner: Refiner | None,
          max_violations: int = 1, max_refinements: int = 500, smt_timeout_ms: int = 60_000,
          on_confirmed: Callable[[Confirmed, int], None] | None = None,
          check: PathCheck | None = None) -> CegarOutcome:
    """``on_confirmed(violation, refinements so far)``: told of each violation as it is confirmed.
    ``check``: how an error path is checked (default: exactly, with z3: smt.check_path)."""
    out = CegarOutcome("safe", precision=precision)
    try:
        return _loop(program, bam, precision, budget, refiner, max_violations, max_refinements, smt_timeout_ms, out,
                     on_confirmed, check)
    except (BudgetExceeded, FixpointDiverging) as exc:
        exc.confirmed = out.confirmed  # type: ignore[union-attr]  # confirmed violations stand
        raise


def _loop(program: Program, bam: BAM, precision: dict, budget: Budget, refiner: Refiner | None,
          max_violations: int, max_refinements: int, smt_timeout_ms: int, out: CegarOutcome,
          on_confirmed: Callable[[Confirmed, int], None] | None, check: PathCheck | None) -> CegarOutcome:
    prec = precision
    # How often each spurious path was refined. A path may come back once: the predicate
    # refiner reads a path the second time with machine integers (overflow as an arbitrary
    # value), when its integer interpolants' atoms did not exclude it.
    seen_paths: dict[tuple, int] = {}
    while True:
        budget.check()
        try:
            result = bam.run(prec)
        except AnalysisUnsupported as u:
            out.status = "unknown"
            out.kind = UnknownReason.UNSUPPORTED
            out.reason = f"unsupported feature: {u.what}" + (f" at {u.where}" if u.where else "")
            out.unsupported_range = u.where
            return out
        out.precision = prec
        if not result.targets:
            out.status = "unsafe" if out.confirmed else "unknown" if out.undecided else "safe"
            return _undecided_stand(out)
        path = reconstruct(result.targets[0], program, bam, budget.poll)
        if check is None:
            from ..cex.encoding import check_path
            check = check_path
        feas = check(program, path, smt_timeout_ms, budget.poll)
        if feas.status == "sat":
            out.confirmed.append(Confirmed(path, feas))
            budget.violation_found()
            if on_confirmed is not None:
                on_confirmed(out.confirmed[-1], out.refinements)
            bam.exclude(path.error_node)
            if len(out.confirmed) >= max_violations or not bam.live_targets():
                out.status = "unsafe"
                return _undecided_stand(out)
            continue
        if feas.status == "unsupported":
            why = (f"an error path could not be confirmed: cbam cannot encode {feas.reason}"
                   + (f" (at {feas.unsupported_range})" if feas.unsupported_range else ""))
            if _give_up(out, bam, path, UnknownReason.UNSUPPORTED, why, feas.unsupported_range):
                continue
            return out
        if feas.status == "unknown":
            # A solver cut short by the run's deadline: that is a timeout, say so.
            if past_deadline():
                raise BudgetExceeded("timeout")
            budget.check()
            if _give_up(out, bam, path, UnknownReason.UNCONFIRMED, f"an error path could not be confirmed: {feas.reason}"):
                continue
            return out
        # Infeasible: refine.
        if refiner is None:
            if _give_up(out, bam, path, UnknownReason.NO_REFINER,
                        "an error path is infeasible, but this configuration has no precision to refine "
                        "(try --config value)"):
                continue
            return out
        signature = tuple((s.kind, id(s.edge)) for s in path.steps)
        new_prec, why = refiner.refine(program, path, prec, budget.check)
        if new_prec is None:
            if past_deadline():
                # Its solvers were cut short by the deadline: a timeout, not a (cacheable) dead end.
                raise BudgetExceeded("timeout")
            if _give_up(out, bam, path, UnknownReason.NO_PROGRESS, f"refinement made no progress: {why}"):
                continue
            return out
        if seen_paths.get(signature, 0) >= REPEATS or out.refinements >= max_refinements:
            if out.refinements < max_refinements and _give_up(
                    out, bam, path, UnknownReason.NO_PROGRESS,
                    "refinement made no progress: the same spurious error path keeps coming back"):
                continue
            out.status = "unsafe" if out.confirmed else "unknown"
            out.kind = UnknownReason.NO_PROGRESS
            out.reason = "refinement made no progress: the same spurious error path keeps coming back"
            out.reason_node = path.error_node
            return out
        seen_paths[signature] = seen_paths.get(signature, 0) + 1
        prec = new_prec
        out.refinements += 1
