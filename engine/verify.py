"""The verifier's entry point: a Program and a configuration in, a VerificationResult out."""

from __future__ import annotations

import sys
import threading
import time
from dataclasses import dataclass, field

from .analysis.bam import BAM
from .analysis.blocks import build_blocks
from .analysis.cegar import cegar
from .analysis.cpa import CompositeCPA
from .analysis.cpa_algorithm import Budget, BudgetExceeded
from .analysis.domains.callstack import CallstackCPA
from .analysis.domains.location import LocationCPA
from .analysis.domains.value import ValueCPA
from .analysis.harness import write_harness
from .analysis.precision import ValuePrecision
from .analysis.report import build_violation
from .analysis.result import Statistics, VerificationResult
from .cfa.callgraph import CallGraph
from .cfa.cfa import Program
from .frontend.errors import FrontendError
from .frontend.load import load_program
from .frontend.preprocess import PreprocessOptions

CONFIGS = ("value",)


@dataclass
class VerifyOptions:
    config: str = "value"
    timeout: float | None = 60.0
    max_violations: int = 1
    order: str = "dfs"
    harness: bool = True
    cancel: object = None  # callable returning True when the run should stop
    initial_precision: ValuePrecision | None = None
    extra: dict = field(default_factory=dict)


def verify_program(program: Program, options: VerifyOptions | None = None) -> VerificationResult:
    opts = options or VerifyOptions()
    t0 = time.monotonic()
    result = VerificationResult("UNKNOWN", file=program.main_file, config=opts.config,
                                data_model=program.data_model.name)
    result.warnings = [str(d) for d in program.diagnostics]
    if opts.config not in CONFIGS:
        result.reason = f"unknown configuration {opts.config!r} (available: {', '.join(CONFIGS)})"
        return result
    if program.start.unsupported is not None:
        what, where = program.start.unsupported
        result.reason = f"unsupported feature: {what}" + (f" at {where}" if where else "")
        result.unsupported_range = where
        return result
    cg = program.callgraph if isinstance(program.callgraph, CallGraph) else CallGraph.of(program)
    blocks = build_blocks(program, cg)
    cpa = CompositeCPA([LocationCPA(), CallstackCPA(), ValueCPA(program)])
    budget = Budget(opts.timeout, cancel=opts.cancel)  # type: ignore[arg-type]
    bam = BAM(program, cpa, blocks, budget, opts.order)
    stats = Statistics()
    prec = opts.initial_precision or ValuePrecision()
    try:
        outcome = cegar(program, bam, prec, budget, opts.max_violations)
    except BudgetExceeded as exc:
        result.reason = exc.reason
        _fill_stats(stats, bam, budget, t0, 0, None)
        result.statistics = stats
        return result
    except MemoryError:
        result.reason = "memory limit reached"
        _fill_stats(stats, bam, budget, t0, 0, None)
        result.statistics = stats
        return result
    except RecursionError:
        result.reason = "the program's call or path depth exceeds what cbam can handle"
        result.statistics = stats
        return result
    _fill_stats(stats, bam, budget, t0, outcome.refinements, outcome.precision)
    result.statistics = stats
    result.unsupported_range = outcome.unsupported_range  # type: ignore[assignment]
    for c in outcome.confirmed:
        v = build_violation(program, c.path, c.feasibility)
        if opts.harness:
            v.harness = write_harness(program, v, program.main_file)
        result.violations.append(v)
    if outcome.status == "safe":
        result.verdict = "TRUE"
    elif outcome.status == "unsafe":
        result.verdict = "FALSE"
        if outcome.reason:
            result.warnings.append(f"search stopped early: {outcome.reason}")
    else:
        result.verdict = "UNKNOWN"
        result.reason = outcome.reason
    result.precision = outcome.precision  # type: ignore[attr-defined]
    return result


def _fill_stats(stats: Statistics, bam: BAM, budget: Budget, t0: float, refinements: int, prec) -> None:
    stats.time = round(time.monotonic() - t0, 3)
    stats.states = budget.states
    stats.refinements = refinements
    stats.cache_hits = bam.stats.cache_hits
    stats.cache_misses = bam.stats.cache_misses
    stats.covered_recursive_calls = bam.stats.covered_calls
    stats.fixpoint_iterations = bam.stats.fixpoint_iterations
    stats.blocks_analysed = bam.stats.blocks_analysed
    stats.precision_size = prec.size() if prec is not None else 0


def verify_file(path: str, pp: PreprocessOptions | None = None, options: VerifyOptions | None = None,
                entry: str = "main", text: str | None = None) -> VerificationResult:
    """Load and verify; FrontendError propagates (it is an input error, not a verdict)."""
    program = load_program(path, text=text, options=pp, entry=entry)
    return run_deep(lambda: verify_program(program, options))


def run_deep(fn):
    """Run ``fn`` on a thread with a large stack: deep recursion in the analysed program
    becomes deep recursion here."""
    box: dict = {}

    def target():
        try:
            box["value"] = fn()
        except BaseException as exc:  # re-raised on the calling thread
            box["error"] = exc

    old_limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old_limit, 200_000))
    old_size = threading.stack_size()
    try:
        threading.stack_size(512 * 1024 * 1024)
        t = threading.Thread(target=target, name="cbam-analysis", daemon=True)
        t.start()
    finally:
        threading.stack_size(old_size)
    t.join()
    if "error" in box:
        raise box["error"]
    return box["value"]


__all__ = ["VerifyOptions", "verify_program", "verify_file", "run_deep", "FrontendError", "PreprocessOptions"]
