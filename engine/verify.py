"""The verifier's entry point: a Program and a configuration in, a VerificationResult out."""

from __future__ import annotations

import json
import os
import sys
import threading
import time

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
from .analysis.predicate.atoms import atom_vars, base_var
from .analysis.predicate.cpa import PredicateCPA, PredicatePrecision
from .analysis.predicate.interpolate import PredicateRefiner
from .analysis.report import build_violation
from .analysis.result import Statistics, VerificationResult
from .analysis.smt import set_deadline
from .cache import certificate, unchanged
from .cache.blockcache import PersistentBlocks
from .cache.results import dump_result, load_result, program_key
from .cfa.callgraph import CallGraph
from .cfa.cfa import Program
from .frontend.errors import FrontendError
from .frontend.load import load_program
from .frontend.preprocess import PreprocessOptions
from .limits import limit_memory
from .options import CONFIGS, THEORIES, VerifyOptions


def verify_program(program: Program, options: VerifyOptions | None = None) -> VerificationResult:
    opts = options or VerifyOptions()
    t0 = time.monotonic()
    set_deadline(None if opts.timeout is None else t0 + opts.timeout)
    try:
        return _verify_program(program, opts, t0)
    finally:
        set_deadline(None)


def _verify_program(program: Program, opts: VerifyOptions, t0: float) -> VerificationResult:
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
    file_key = os.path.abspath(program.main_file)
    if store is not None:
        # A result computed without test harnesses (the editor's) must not answer a run that wants them.
        result_key = program_key(program, opts.config, opts.max_violations, extra=["harness", opts.harness])
        cached = store.get_result(result_key)
        if cached is not None:
            restored = load_result(cached, program)
            if restored is not None:
                restored.warnings = [str(d) for d in program.diagnostics]
                restored.statistics = Statistics(time=round(time.monotonic() - t0, 3))
                restored.cache_key = result_key
                _remember_source(store, program, opts, file_key, restored)
                return restored
    if opts.predicate_theory not in THEORIES:
        result.reason = f"unknown predicate theory {opts.predicate_theory!r} (available: {', '.join(THEORIES)})"
        return result
    blocks = build_blocks(program, cg)
    theory = opts.predicate_theory if "predicate" in opts.config else "bv"
    cpa = make_cpa(program, opts.config, blocks, theory)
    stats = Statistics()
    store_config = opts.config + ("/lia" if theory == "lia" else "")
    persistent = PersistentBlocks(store, program, cpa, blocks, store_config, file_key) \
        if store is not None else None
    reused = _reused_precision(store, program, opts) if store is not None else {}
    refiner = make_refiner(opts.config, cpa)
    if opts.config == "interval":
        phases: list[tuple[dict, float]] = [({}, 1.0)]  # the interval domain has no precision to refine
    elif opts.config == "predicate":
        phases = [({"predicate": reused.get("predicate") or PredicatePrecision()}, 1.0)]
    elif opts.config == "value+predicate":
        pred = reused.get("predicate") or PredicatePrecision()
        phases = [({**p, "predicate": pred}, share) for p, share in _phases(opts, reused.get("value"))]
    else:
        phases = _phases(opts, reused.get("value"))
    outcome = None
    confirmed: list = []
    excluded: set[int] = set()
    bam: BAM | None = None
    total = Budget(opts.timeout, cancel=opts.cancel)  # type: ignore[arg-type]
    cert_run = _certificate_run(opts, store_config)
    validated: dict = {}
    if persistent is not None and opts.max_violations == 1:
        share = phases[0][1] if len(phases) > 1 else 1.0
        budget = Budget(None if opts.timeout is None else opts.timeout * share, cancel=opts.cancel)  # type: ignore[arg-type]
        bam = BAM(program, cpa, blocks, budget, opts.order)
        bam.persistent = persistent
        restored = certificate.revalidate(store, persistent, bam, program, file_key, cert_run, phases[0][0])
        _accumulate(stats, bam, budget, 0)
        if restored is not None:
            return _certified(restored, store, program, persistent, bam, stats, result_key, file_key, opts, t0)
        # What the validation analysed is final; the first phase starts from it.
        validated = {k: r for k, r in bam.cache.items() if not r.dependent}
    certify = False
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
        if i == 0:
            bam.cache.update(validated)
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
                if persistent is not None:
                    stats.summary_hits, stats.summary_misses = persistent.hits, persistent.misses
                _finish(result, program, opts, confirmed, stats, t0)
                if confirmed and exc.reason != "cancelled":
                    _store(store, program, persistent, result_key, file_key, opts, result, None)
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
        # Found by the first abstract run of the first phase: its exploration can be certified.
        certify = i == 0 and outcome.status == "unsafe" and outcome.refinements == 0 and len(confirmed) == 1
        break
    assert outcome is not None
    if theory == "lia" and outcome.status == "safe":
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
        _store(store, program, persistent, result_key, file_key, opts, result, final_prec)
        if persistent is not None and store is not None and opts.max_violations == 1:
            if certify and result.verdict == "FALSE":
                certificate.record(store, persistent, file_key, cert_run, result)
            else:
                store.put_certificate(file_key, cert_run, None)
    return result


def _certificate_run(opts: VerifyOptions, store_config: str) -> str:
    """The kind of run a counterexample certificate answers: every option that decides the path."""
    return json.dumps([store_config, opts.max_violations, opts.harness, opts.order, opts.extra_search_after_violation,
                       opts.initial_precision.to_json() if opts.initial_precision is not None else None])


def _certified(result: VerificationResult, store, program: Program, persistent, bam: BAM, stats: Statistics,
               result_key, file_key: str, opts: VerifyOptions, t0: float) -> VerificationResult:
    """A violation whose certificate held: the blocks it re-explored are kept; the result is
    filed under the program's new key, like any result."""
    bam._flush()
    result.warnings = [str(d) for d in program.diagnostics]
    stats.time = round(time.monotonic() - t0, 3)
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
    key = unchanged.run_key(program.source_key, opts)
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
                   stats: Statistics, excluded: set[int]):
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
        outcome.reason = f"{exc.reason} while confirming an integer-arithmetic proof with bit-vectors"
        outcome.confirmed = list(getattr(exc, "confirmed", []))
        if outcome.confirmed:
            outcome.status = "unsafe"
        return outcome, bam
    _accumulate(stats, bam, budget, confirmed.refinements)
    stats.bv_confirmation = True
    return confirmed, bam


def _reused_precision(store, program: Program, opts: VerifyOptions) -> dict:
    """Precision reuse (Beyer et al., FSE 2013): start from what the last run of this file learned,
    restricted to variables and functions that still exist."""
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
