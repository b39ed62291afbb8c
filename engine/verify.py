"""The verifier's entry point: a Program and a configuration in, a VerificationResult out."""

from __future__ import annotations

import os
import sys
import threading
import time
from typing import NamedTuple

from . import selfcheck
from .analysis.bam import BAM, CacheInconsistency
from .analysis.blocks import build_blocks
from .analysis.callstack import CallstackCPA
from .analysis.cegar import cegar
from .analysis.cpa import CompositeCPA
from .analysis.cpa_algorithm import Budget, BudgetExceeded
from .analysis.harness import write_harness
from .analysis.interval.cpa import IntervalCPA
from .analysis.location import LocationCPA
from .analysis.predicate.atoms import atom_vars, base_var
from .analysis.predicate.cpa import PredicateCPA, PredicatePrecision
from .analysis.predicate.refiner import PredicateRefiner
from .analysis.report import build_violation
from .analysis.result import Statistics, UnknownReason, VerificationResult
from .analysis.smt import set_deadline
from .analysis.value.cpa import ValueCPA
from .analysis.value.precision import ValuePrecision
from .analysis.value.refiner import ValueRefiner
from .cache import certificate, keys, unchanged
from .cache.blockcache import PersistentBlocks, function_keys
from .cache.results import dump_result, load_result
from .cfa.callgraph import CallGraph
from .cfa.cfa import Program
from .frontend.errors import FrontendError
from .frontend.load import load_program
from .frontend.preprocess import PreprocessOptions
from .limits import limit_memory
from .options import CONFIGS, THEORIES, VerifyOptions


def verify_program(program: Program, options: VerifyOptions | None = None) -> VerificationResult:
    """Verify; never raises for a property of the program (its answer is a result, UNKNOWN with a
    typed reason included). With the self-check on, an answer that used the cache is computed
    again without it, and a difference raises SelfCheckFailed."""
    opts = options or VerifyOptions()
    result = _verify_guarded(program, opts)
    if opts.cache is not None and selfcheck.enabled() and _used_cache(result):
        scratch = _verify_guarded(program, opts._replace(cache=None))
        cached_json, scratch_json = result.to_json(), scratch.to_json()
        problem = selfcheck.compare(cached_json, scratch_json, opts.max_violations > 1)
        if problem is not None:
            raise selfcheck.failure(problem, cached_json, scratch_json)
    return result


def _used_cache(result: VerificationResult) -> bool:
    st = result.statistics
    return result.source == "cache" or st.summary_hits > 0 or st.precision_reused


def _verify_guarded(program: Program, opts: VerifyOptions) -> VerificationResult:
    t0 = time.monotonic()
    set_deadline(None if opts.timeout is None else t0 + opts.timeout)
    try:
        try:
            return _verify_program(program, opts, t0)
        except CacheInconsistency as exc:
            if opts.cache is None:
                raise
            # A summary that its own block does not reproduce: its key missed something. The
            # entry goes, and this run is answered without the cache, as a fresh run would be.
            opts.cache.delete_block(exc.store_key) if exc.store_key else None  # type: ignore[attr-defined]
            result = _verify_program(program, opts._replace(cache=None), time.monotonic())
            result.warnings.append(f"cbam: note: {exc} from the summary cache; the entry was removed and "
                                   "this result was computed without the cache")
            return result
    except Exception as exc:  # a bug in cbam: an answer without a verdict, never a crash
        if os.environ.get("CBAM_DEBUG"):
            raise
        import traceback

        where = traceback.extract_tb(exc.__traceback__)[-1]
        result = VerificationResult("UNKNOWN", file=program.main_file, config=opts.config,
                                    data_model=program.data_model.name)
        result.reason = (f"internal error: {type(exc).__name__}: {exc} (at {os.path.basename(where.filename)}:"
                         f"{where.lineno}); please report it")
        result.reason_kind = UnknownReason.INTERNAL
        result.statistics.time = round(time.monotonic() - t0, 3)
        return result
    finally:
        set_deadline(None)


def _unknown(result: VerificationResult, kind: UnknownReason, reason: str) -> VerificationResult:
    result.verdict, result.reason_kind, result.reason = "UNKNOWN", kind, reason
    return result


def _verify_program(program: Program, opts: VerifyOptions, t0: float) -> VerificationResult:
    result = VerificationResult("UNKNOWN", file=program.main_file, config=opts.config,
                                data_model=program.data_model.name)
    result.warnings = [str(d) for d in program.diagnostics]
    if opts.config not in CONFIGS:
        return _unknown(result, UnknownReason.BAD_OPTION,
                        f"unknown configuration {opts.config!r} (available: {', '.join(CONFIGS)})")
    if opts.predicate_theory not in THEORIES:
        return _unknown(result, UnknownReason.BAD_OPTION,
                        f"unknown predicate theory {opts.predicate_theory!r} (available: {', '.join(THEORIES)})")
    if program.start.unsupported is not None:
        what, where = program.start.unsupported
        result.unsupported_range = where
        return _unknown(result, UnknownReason.UNSUPPORTED,
                        f"unsupported feature: {what}" + (f" at {where}" if where else ""))
    cg = program.callgraph if isinstance(program.callgraph, CallGraph) else CallGraph.of(program)
    store = opts.cache
    result_key = None
    file_key = os.path.abspath(program.main_file)
    if store is not None:
        result_key = keys.result_key(program, opts)
        cached = store.get_result(result_key)
        if cached is not None:
            restored = load_result(cached, program)
            if restored is not None:
                restored.warnings = [str(d) for d in program.diagnostics]
                restored.statistics = Statistics(time=round(time.monotonic() - t0, 3),
                                                 precision_reused=restored.statistics.precision_reused,
                                                 phases_cut_by_time=restored.statistics.phases_cut_by_time)
                restored.cache_key = result_key
                restored.function_keys = function_keys(program, opts)
                _remember_source(store, program, opts, file_key, restored)
                return restored
    blocks = build_blocks(program, cg)
    cpa = make_cpa(program, opts.config, blocks, opts.theory)
    stats = Statistics()
    persistent = PersistentBlocks(store, program, cpa, blocks, opts, file_key) if store is not None else None
    if persistent is not None:
        result.function_keys = dict(persistent.fn_keys)
    phases = _phases(opts, _reused_precision(store, program, opts) if store is not None else {})
    refiner = make_refiner(opts.config, cpa)
    outcome = None
    confirmed: list = []
    excluded: dict = {}
    bam: BAM | None = None
    total = Budget(opts.timeout, cancel=opts.cancel)  # type: ignore[arg-type]
    cert_run = keys.certificate_run(opts)
    validated: dict = {}
    if persistent is not None and opts.max_violations == 1:
        share = phases[0].share if len(phases) > 1 else 1.0
        budget = Budget(None if opts.timeout is None else opts.timeout * share, cancel=opts.cancel)  # type: ignore[arg-type]
        bam = BAM(program, cpa, blocks, budget, opts.order)
        bam.persistent = persistent
        restored = certificate.revalidate(store, persistent, bam, program, file_key, cert_run, phases[0].precision)
        _accumulate(stats, bam, budget, 0)
        if restored is not None:
            restored.function_keys = result.function_keys
            restored.statistics.precision_reused = phases[0].reused and restored.statistics.precision_reused
            return _certified(restored, store, program, persistent, bam, stats, result_key, file_key, opts, t0)
        # What the validation analysed is final; the first phase starts from it.
        validated = {k: r for k, r in bam.cache.items() if not r.dependent}
    certify = False
    for i, phase in enumerate(phases):
        last = i == len(phases) - 1
        remaining = None if total.deadline is None else max(0.5, total.deadline - time.monotonic())
        limit = remaining if (last or remaining is None) else remaining * phase.share
        if confirmed and opts.extra_search_after_violation is not None:
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
            outcome = cegar(program, bam, phase.precision, budget, refiner, opts.max_violations - len(confirmed))
        except BudgetExceeded as exc:
            _accumulate(stats, bam, budget, 0)
            found = getattr(exc, "confirmed", [])
            confirmed.extend(found)
            stats.precision_reused |= phase.reused and bool(found)
            excluded |= {id(c.path.error_node): c.path.error_node for c in found}
            if last or exc.reason == "cancelled":
                _unknown(result, UnknownReason(exc.reason), exc.reason)
                overall = total.deadline is not None and time.monotonic() >= total.deadline
                if confirmed:
                    result.search_stopped = UnknownReason(exc.reason)
                    result.warnings.append(f"search for further violations stopped early: {exc.reason}")
                if persistent is not None:
                    stats.summary_hits, stats.summary_misses = persistent.hits, persistent.misses
                _finish(result, program, opts, confirmed, stats, t0)
                # Cut by the extra search's own limit (an option, in the key), not the run's time limit.
                if confirmed and exc.reason != "cancelled" and not overall:
                    _store(store, program, persistent, result_key, file_key, opts, result, None)
                return result
            stats.phases_cut_by_time += 1
            continue
        except MemoryError:
            _unknown(result, UnknownReason.MEMORY, "memory limit reached")
            return _finish(result, program, opts, confirmed, stats, t0)
        except RecursionError:
            if not last:
                continue  # typically concrete recursion under full precision; the next phase abstracts it
            _unknown(result, UnknownReason.DEPTH, "the program's call or path depth exceeds what cbam can handle")
            return _finish(result, program, opts, confirmed, stats, t0)
        _accumulate(stats, bam, budget, outcome.refinements)
        confirmed.extend(outcome.confirmed)
        excluded |= bam.excluded_targets | {id(c.path.error_node): c.path.error_node for c in outcome.confirmed}
        if outcome.status == "unknown" and not last:
            # Stuck on a path this precision cannot settle: the next phase explores in another
            # order and may meet a real counterexample or a refinable path first. (A hint that
            # settles nothing leaves the run exactly where a run without it starts.)
            continue
        stats.precision_reused |= phase.reused
        # Found by the first abstract run of the first phase: its exploration can be certified.
        certify = i == 0 and outcome.status == "unsafe" and outcome.refinements == 0 and len(confirmed) == 1
        break
    assert outcome is not None
    if opts.theory == "lia" and outcome.status == "safe":
        # Integer arithmetic is not C's: confirm the proof with exact bit-vector formulas,
        # continuing CEGAR from the learned predicates if they do not suffice.
        outcome, bam = _confirm_in_bv(program, blocks, opts, outcome, total, stats, excluded)
        confirmed.extend(outcome.confirmed)
    result.unsupported_range = outcome.unsupported_range  # type: ignore[assignment]
    final_prec = outcome.precision or {}
    stats.precision_size = sum(p.size() for p in final_prec.values() if hasattr(p, "size"))
    if outcome.status == "safe":
        result.verdict = "TRUE"
    elif outcome.status == "unsafe" or confirmed:
        result.verdict = "FALSE"
        if outcome.reason:
            result.search_stopped = outcome.kind
            result.warnings.append(f"search stopped early: {outcome.reason}")
    else:
        _unknown(result, outcome.kind, outcome.reason)
        node = outcome.reason_node
        if node is not None:
            result.reason_range = node.error.range if node.error is not None else None
            result.reason_ref = ["node", node.function, node.canon]
    _finish(result, program, opts, confirmed, stats, t0)
    # A verdict is sound whatever led to it; giving up is an answer only if it did not depend on
    # how fast the machine was (a phase cut short by its share of the time).
    if result.verdict != "UNKNOWN" or (outcome.kind == UnknownReason.NO_PROGRESS and not stats.phases_cut_by_time):
        _store(store, program, persistent, result_key, file_key, opts, result, final_prec)
        if persistent is not None and store is not None and opts.max_violations == 1:
            if certify and result.verdict == "FALSE":
                certificate.record(store, persistent, file_key, cert_run, result)
            else:
                store.put_certificate(file_key, cert_run, None)
    return result


def _certified(result: VerificationResult, store, program: Program, persistent, bam: BAM, stats: Statistics,
               result_key, file_key: str, opts: VerifyOptions, t0: float) -> VerificationResult:
    """A violation whose certificate held: the blocks it re-explored are kept; the result is
    filed under the program's new key, like any result."""
    bam._flush()
    result.warnings = [str(d) for d in program.diagnostics]
    stats.time = round(time.monotonic() - t0, 3)
    stats.precision_reused = result.statistics.precision_reused
    result.statistics = stats
    _store(store, program, persistent, result_key, file_key, opts, result, None)
    return result


def _store(store, program: Program, persistent, result_key, file_key: str, opts: VerifyOptions,
           result: VerificationResult, precision: dict | None) -> None:
    """Deterministic results go to the cache (a timeout is not one, a confirmed violation is)."""
    if persistent is None or store is None:
        return
    result.statistics.summary_hits, result.statistics.summary_misses = persistent.hits, persistent.misses
    if precision:
        data = {k: p.to_json() for k, p in precision.items() if hasattr(p, "to_json")}
        if data:
            store.put_precision(file_key, opts.config, data)
    if result_key is not None:
        store.put_result(result_key, file_key, result.verdict, dump_result(result))
        result.cache_key = result_key
        _remember_source(store, program, opts, file_key, result)


def _remember_source(store, program: Program, opts: VerifyOptions, file_key: str,
                     result: VerificationResult) -> None:
    """Let a later process answer the same source before parsing it (cache/unchanged.py)."""
    key = keys.source_run_key(program.source_key, opts)
    if key is not None:
        unchanged.remember(store, key, file_key, result)


def make_cpa(program: Program, config: str, blocks: dict | None = None, theory: str = "bv") -> CompositeCPA:
    """The composite CPA of a configuration: location x callstack x the configuration's domains."""
    if config == "interval":
        return CompositeCPA([LocationCPA(), CallstackCPA(), IntervalCPA(program)])
    if "predicate" in config:
        if blocks is None:
            blocks = build_blocks(program, CallGraph.of(program))
        pred = PredicateCPA(program, blocks, theory, lazy_checks=config == "value+predicate")
        if config == "predicate":
            return CompositeCPA([LocationCPA(), CallstackCPA(), pred])
        return CompositeCPA([LocationCPA(), CallstackCPA(), ValueCPA(program), pred])
    return CompositeCPA([LocationCPA(), CallstackCPA(), ValueCPA(program)])


def _component(cpa: CompositeCPA, kind: type):
    return next(c for c in cpa.components if isinstance(c, kind))


def make_refiner(config: str, cpa: CompositeCPA):
    """The refiner of a configuration (None: nothing to refine)."""
    if config == "interval":
        return None
    if config == "predicate":
        return PredicateRefiner(_component(cpa, PredicateCPA))
    if config == "value+predicate":
        return CombinedRefiner(ValueRefiner(), PredicateRefiner(_component(cpa, PredicateCPA)))
    return ValueRefiner()


class CombinedRefiner:
    """value+predicate: explicit-value interpolation first; predicate interpolation when the
    path is infeasible only through relations the value domain cannot express."""

    def __init__(self, value: ValueRefiner, predicate: PredicateRefiner):
        self.value = value
        self.predicate = predicate

    def refine(self, program: Program, path, precision: dict, check) -> tuple[dict | None, str]:
        new, why = self.value.refine(program, path, precision, check)
        if new is not None:
            return new, why
        new, why2 = self.predicate.refine(program, path, precision, check)
        return (new, "") if new is not None else (None, f"{why}; {why2}")


def _confirm_in_bv(program: Program, blocks: dict, opts: VerifyOptions, outcome, total: Budget,
                   stats: Statistics, excluded: dict):
    cpa = make_cpa(program, opts.config, blocks, "bv")
    remaining = None if total.deadline is None else max(0.5, total.deadline - time.monotonic())
    budget = Budget(remaining, cancel=opts.cancel)  # type: ignore[arg-type]
    bam = BAM(program, cpa, blocks, budget, opts.order)
    bam.excluded_targets |= excluded
    try:
        confirmed = cegar(program, bam, outcome.precision or {}, budget, make_refiner(opts.config, cpa),
                          opts.max_violations)
    except BudgetExceeded as exc:
        _accumulate(stats, bam, budget, 0)
        outcome.status = "unknown"
        outcome.kind = UnknownReason(exc.reason)
        outcome.reason = f"{exc.reason} while confirming an integer-arithmetic proof with bit-vectors"
        outcome.confirmed = list(getattr(exc, "confirmed", []))
        if outcome.confirmed:
            outcome.status = "unsafe"
        return outcome, bam
    _accumulate(stats, bam, budget, confirmed.refinements)
    stats.bv_confirmation = True
    return confirmed, bam


class Phase(NamedTuple):
    precision: dict
    share: float  # of the time left, for every phase but the last
    reused: bool = False  # started from what an earlier run learned (a hint, see _phases)


def _reused_precision(store, program: Program, opts: VerifyOptions) -> dict:
    """Precision reuse (Beyer et al., FSE 2013): what the last run of this file learned,
    restricted to variables and functions that still exist."""
    if opts.initial_precision is not None:
        return {}  # the caller chose the precision
    data = store.get_precision(os.path.abspath(program.main_file), opts.config)
    if not isinstance(data, dict):
        return {}
    out: dict = {}
    try:
        if isinstance(data.get("value"), dict):
            out["value"] = _reused_value(program, ValuePrecision.from_json(data["value"]))
        if isinstance(data.get("predicate"), dict):
            pred = PredicatePrecision.from_json(data["predicate"])
            known = program.vars
            at = {k: frozenset(a for a in v if all(base_var(x) in known for x in atom_vars(a)))
                  for k, v in pred.at_node.items() if k[0] in program.functions or k[0] == program.start.name}
            fns = set(program.functions) | {program.start.name}
            out["predicate"] = PredicatePrecision({k: v for k, v in at.items() if v},
                                                  frozenset(k for k in pred.checks if k[0] in fns))
    except (KeyError, TypeError, ValueError):
        return {}
    return out


def _reused_value(program: Program, prec: ValuePrecision) -> ValuePrecision:
    known = program.vars
    return ValuePrecision(
        {f: frozenset(v for v in vs if v in known) for f, vs in prec.scoped.items() if f in program.functions},
        {},
        frozenset(v for v in prec.global_vars if v in known),
        prec.track_all,
    )


def _phases(opts: VerifyOptions, reused: dict) -> list[Phase]:
    """The precisions a run tries, in order.

    Without a hint: for the value analysis, full precision first under a small budget, then
    CEGAR from the empty precision. Tracking every variable settles deterministic code (and
    memoizes concrete recursion) without refinements, and never yields long spurious paths
    through concrete recursion. When its budget runs out (typically a loop counter that need
    not be tracked), CEGAR takes over with the time left. Abstract paths of a coarser
    precision include those of a finer one, so a spurious path full precision cannot refute
    is final. Predicates always start empty.

    A precision learned by an earlier run of the file is a hint, tried first: a TRUE or a
    confirmed violation it leads to stands (both are sound whatever the precision); if it
    settles nothing, the run goes on exactly as without it, so it never adds an UNKNOWN.
    """
    if opts.config == "interval":
        return [Phase({}, 1.0)]  # the interval domain has no precision to refine
    if opts.config == "predicate":
        scratch = [Phase({"predicate": PredicatePrecision()}, 1.0)]
    else:
        if opts.initial_precision is not None:
            values = [({"value": opts.initial_precision}, 1.0)]
        else:
            values = [({"value": ValuePrecision(track_all=True)}, 0.25), ({"value": ValuePrecision()}, 1.0)]
        extra = {"predicate": PredicatePrecision()} if opts.config == "value+predicate" else {}
        scratch = [Phase({**p, **extra}, share) for p, share in values]
    hint: dict = {}
    value, pred = reused.get("value"), reused.get("predicate")
    if opts.config != "predicate" and value is not None and (not value.track_all or pred):
        hint["value"] = value
    if "predicate" in opts.config and pred is not None and (pred.at_node or pred.checks):
        hint["predicate"] = pred
    if not hint:
        return scratch
    return [Phase({**scratch[-1].precision, **hint}, 0.5, reused=True), *scratch]


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
        result.reason_kind = UnknownReason.NONE
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


__all__ = ["VerifyOptions", "verify_program", "verify_file", "run_deep", "limit_memory", "FrontendError",
           "PreprocessOptions"]
