"""The verifier's entry point: a Program and a configuration in, a VerificationResult out."""

from __future__ import annotations

import os
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
from .analysis.domains.interval import IntervalCPA
from .analysis.domains.location import LocationCPA
from .analysis.domains.value import ValueCPA
from .analysis.harness import write_harness
from .analysis.interpolation import ValueRefiner
from .analysis.precision import ValuePrecision
from .analysis.report import build_violation
from .analysis.result import Statistics, VerificationResult
from .cache.blockcache import PersistentBlocks
from .cache.results import dump_result, load_result, program_key
from .cfa.callgraph import CallGraph
from .cfa.cfa import Program
from .frontend.errors import FrontendError
from .frontend.load import load_program
from .frontend.preprocess import PreprocessOptions

CONFIGS = ("value", "interval")


@dataclass
class VerifyOptions:
    config: str = "value"
    timeout: float | None = 60.0
    max_violations: int = 1
    order: str = "dfs"
    harness: bool = True
    cancel: object = None  # callable returning True when the run should stop
    extra_search_after_violation: float | None = None  # seconds for further violations after the first
    initial_precision: ValuePrecision | None = None
    cache: object = None  # cache.store.CacheStore, or None for no persistent cache
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
    store = opts.cache
    result_key = None
    if store is not None:
        result_key = program_key(program, opts.config, opts.max_violations)
        cached = store.get_result(result_key)
        if cached is not None:
            restored = load_result(cached, program)
            if restored is not None:
                restored.warnings = [str(d) for d in program.diagnostics]
                restored.statistics = Statistics(time=round(time.monotonic() - t0, 3))
                return restored
    blocks = build_blocks(program, cg)
    cpa = make_cpa(program, opts.config)
    stats = Statistics()
    file_key = os.path.abspath(program.main_file)
    persistent = PersistentBlocks(store, program, cpa, blocks, opts.config, file_key) \
        if store is not None else None
    if opts.config == "interval":
        phases: list[tuple[dict, float]] = [({}, 1.0)]  # the interval domain has no precision to refine
        refiner = None
    else:
        phases = _phases(opts, _reused_precision(store, program, opts) if store is not None else None)
        refiner = ValueRefiner()
    outcome = None
    confirmed: list = []
    excluded: set[int] = set()
    bam: BAM | None = None
    total = Budget(opts.timeout, cancel=opts.cancel)  # type: ignore[arg-type]
    for i, (prec, share) in enumerate(phases):
        last = i == len(phases) - 1
        remaining = None if total.deadline is None else max(0.5, total.deadline - time.monotonic())
        limit = remaining if (last or remaining is None) else remaining * share
        if confirmed and opts.extra_search_after_violation is not None:
            limit = min(limit if limit is not None else opts.extra_search_after_violation,
                        opts.extra_search_after_violation)
        budget = Budget(limit, cancel=opts.cancel,  # type: ignore[arg-type]
                        extra_after_violation=opts.extra_search_after_violation)
        bam = BAM(program, cpa, blocks, budget, opts.order)
        bam.persistent = persistent
        bam.excluded_targets |= excluded
        try:
            outcome = cegar(program, bam, prec, budget, refiner, opts.max_violations - len(confirmed))
        except BudgetExceeded as exc:
            _accumulate(stats, bam, budget, 0)
            found = getattr(exc, "confirmed", [])
            confirmed.extend(found)
            excluded |= {id(c.path.error_node) for c in found}
            if last or exc.reason == "cancelled":
                result.reason = exc.reason
                if confirmed:
                    result.warnings.append(f"search for further violations stopped early: {exc.reason}")
                _finish(result, program, opts, confirmed, stats, t0)
                if confirmed and exc.reason != "cancelled":
                    _store(store, persistent, result_key, file_key, opts, result, None)
                return result
            continue
        except MemoryError:
            result.reason = "memory limit reached"
            return _finish(result, program, opts, confirmed, stats, t0)
        except RecursionError:
            result.reason = "the program's call or path depth exceeds what cbam can handle"
            return _finish(result, program, opts, confirmed, stats, t0)
        _accumulate(stats, bam, budget, outcome.refinements)
        confirmed.extend(outcome.confirmed)
        excluded |= bam.excluded_targets | {id(c.path.error_node) for c in outcome.confirmed}
        break
    assert outcome is not None
    result.unsupported_range = outcome.unsupported_range  # type: ignore[assignment]
    value_prec = (outcome.precision or {}).get("value")
    stats.precision_size = value_prec.size() if value_prec is not None else 0
    if outcome.status == "safe":
        result.verdict = "TRUE"
    elif outcome.status == "unsafe" or confirmed:
        result.verdict = "FALSE"
        if outcome.reason:
            result.warnings.append(f"search stopped early: {outcome.reason}")
    else:
        result.verdict = "UNKNOWN"
        result.reason = outcome.reason
        node = outcome.reason_node
        if node is not None:
            result.reason_range = node.error.range if node.error is not None else None
            result.reason_ref = ["node", node.function, node.canon]
    _finish(result, program, opts, confirmed, stats, t0)
    if result.verdict != "UNKNOWN" or outcome.reason.startswith("refinement made no progress"):
        _store(store, persistent, result_key, file_key, opts, result, value_prec)
    return result


def _store(store, persistent, result_key, file_key: str, opts: VerifyOptions, result: VerificationResult,
           precision: ValuePrecision | None) -> None:
    """Deterministic results go to the cache (a timeout is not one, a confirmed violation is)."""
    if persistent is None or store is None:
        return
    result.statistics.summary_hits, result.statistics.summary_misses = persistent.hits, persistent.misses
    if precision is not None:
        store.put_precision(file_key, opts.config, precision.to_json())
    if result_key is not None:
        store.put_result(result_key, file_key, result.verdict, dump_result(result))


def make_cpa(program: Program, config: str) -> CompositeCPA:
    """The composite CPA of a configuration: location x callstack x the configuration's domain."""
    if config == "interval":
        return CompositeCPA([LocationCPA(), CallstackCPA(), IntervalCPA(program)])
    return CompositeCPA([LocationCPA(), CallstackCPA(), ValueCPA(program)])


def _reused_precision(store, program: Program, opts: VerifyOptions) -> ValuePrecision | None:
    """Precision reuse (Beyer et al., FSE 2013): start from what the last run of this file learned,
    restricted to variables that still exist."""
    data = store.get_precision(os.path.abspath(program.main_file), opts.config)
    if data is None:
        return None
    prec = ValuePrecision.from_json(data)
    known = program.vars
    return ValuePrecision(
        {f: frozenset(v for v in vs if v in known) for f, vs in prec.scoped.items() if f in program.functions},
        {},
        frozenset(v for v in prec.global_vars if v in known),
        prec.track_all,
    )


def _phases(opts: VerifyOptions, reused: ValuePrecision | None = None) -> list[tuple[dict, float]]:
    """Full precision first, under a small budget; then CEGAR from the empty precision.

    Tracking every variable settles deterministic code (and memoizes concrete recursion)
    without refinements, and never yields long spurious paths through concrete recursion.
    When its budget runs out (typically a loop counter that need not be tracked), CEGAR
    takes over with the time left. Abstract paths of a coarser precision include those of a
    finer one, so a spurious path full precision cannot refute is final.
    """
    if opts.initial_precision is not None:
        return [({"value": opts.initial_precision}, 1.0)]
    full, empty = {"value": ValuePrecision(track_all=True)}, {"value": ValuePrecision()}
    if reused is not None and not reused.track_all:
        return [({"value": reused}, 0.5), (full, 0.25), (empty, 1.0)]
    return [(full, 0.25), (empty, 1.0)]


def _finish(result: VerificationResult, program: Program, opts: VerifyOptions, confirmed: list,
            stats: Statistics, t0: float) -> VerificationResult:
    stats.time = round(time.monotonic() - t0, 3)
    result.statistics = stats
    for c in confirmed:
        v = build_violation(program, c.path, c.feasibility)
        if opts.harness:
            v.harness = write_harness(program, v, program.main_file)
        result.violations.append(v)
    if confirmed and result.verdict != "FALSE":
        # A confirmed violation stands even if a later phase ran out of time.
        result.verdict = "FALSE"
        result.reason = ""
    return result


def _accumulate(stats: Statistics, bam: BAM, budget: Budget, refinements: int) -> None:
    stats.states += budget.states
    stats.refinements += refinements
    stats.cache_hits += bam.stats.cache_hits
    stats.cache_misses += bam.stats.cache_misses
    stats.covered_recursive_calls += bam.stats.covered_calls
    stats.fixpoint_iterations += bam.stats.fixpoint_iterations
    stats.blocks_analysed += bam.stats.blocks_analysed


def verify_file(path: str, pp: PreprocessOptions | None = None, options: VerifyOptions | None = None,
                entry: str = "main", text: str | None = None) -> VerificationResult:
    """Load and verify; FrontendError propagates (it is an input error, not a verdict)."""
    program = load_program(path, text=text, options=pp, entry=entry)
    return run_deep(lambda: verify_program(program, options))


def limit_memory(mb: int) -> None:
    """Cap this process's address space; an analysis that hits it ends as UNKNOWN (memory)."""
    import resource

    try:
        _soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        limit = mb * 1024 * 1024
        if hard == resource.RLIM_INFINITY or limit <= hard:
            resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    except (ValueError, OSError):
        pass


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
