"""A verification run: a Program and options in, a VerificationResult out.

The stages are in engine/pipeline/: which precisions to try (phases), the search over them
(search), what the run reads from and files in the cache (cachepolicy). Callers outside the
engine use engine/api.py.
"""

from __future__ import annotations

import os
import sys
import threading
import time
import types
from collections.abc import Callable
from dataclasses import replace

from . import collector, release, selfcheck
from .cex.feasibility import Confirmed
from .cex.replay import with_replay
from .cfa.callgraph import CallGraph
from .cfa.cfa import Program
from .core.bam import BAM, CacheInconsistency
from .core.blocks import build_blocks
from .core.cpa_algorithm import Budget
from .core.result import Statistics, UnknownReason, VerificationResult, Violation
from .cpa import registry
from .options import THEORIES, VerifyOptions
from .pipeline import portfolio
from .pipeline.beside import either
from .pipeline.cachepolicy import CachePolicy
from .pipeline.phases import schedule
from .pipeline.search import Search, accumulate, run_phases
from .smt.lazy_z3 import fresh_context
from .smt.time_limit import set_deadline


def verify_program(program: Program, options: VerifyOptions | None = None) -> VerificationResult:
    """Verify; never raises for a property of the program (its answer is a result, UNKNOWN with a
    typed reason included). With the self-check on, an answer that used the cache is computed
    again without it, and a difference raises SelfCheckFailed."""
    opts = options or VerifyOptions()
    t0 = time.monotonic()
    release.before_run()  # what an earlier run left (release.py)
    _prepare(program, opts)
    with collector.during_run():
        result = _verify_guarded(program, opts)
        if opts.cache is not None and selfcheck.enabled() and _used_cache(result):
            scratch = _verify_guarded(program, opts._replace(cache=None))
            cached_json, scratch_json = result.to_json(), scratch.to_json()
            problem = selfcheck.compare(cached_json, scratch_json, opts.max_violations > 1)
            if problem is not None:
                raise selfcheck.failure(problem, cached_json, scratch_json)
    if opts.replay is not None and result.violations:
        result = _replayed(program, opts, result, t0)
    return result


def _replayed(program: Program, opts: VerifyOptions, result: VerificationResult, t0: float) -> VerificationResult:
    """Every FALSE this returns, fresh or from the cache, passes here: its counterexample is run
    natively (cex/native_replay.py), within what is left of the run's time limit. A
    listener sees the path check's answer first, while the run goes on. An answer whose runs all
    showed their violations is filed again for its source, with them (cache/unchanged.py)."""
    from .cex import native_replay as replay_native

    if opts.on_partial is not None:
        opts.on_partial(replay_native.pending(result))  # type: ignore[operator]
    deadline = None if opts.timeout is None else t0 + opts.timeout
    out = replay_native.replay_result(program, result, opts.replay, deadline)  # type: ignore[arg-type]
    out.statistics = replace(out.statistics, time=round(time.monotonic() - t0, 3))
    if opts.cache is not None and out.cache_key is not None and replay_native.all_replayed(out):
        from .pipeline.cachepolicy import remember_source

        remember_source(opts.cache, program, opts, out)
    return out


def _prepare(program: Program, opts: VerifyOptions) -> None:
    """What the options add to the CFA: failing allocations, NULL entry pointers, the
    memory-safety checks."""
    changed = False
    if opts.alloc_may_fail and not program.alloc_may_fail:
        from .cfa.allocation import let_allocation_fail

        let_allocation_fail(program)
        program.alloc_may_fail = changed = True
    if opts.entry_null and not program.entry_null:
        from .cfa.nullable import let_entry_pointers_be_null

        let_entry_pointers_be_null(program)
        program.entry_null = changed = True
    if opts.property == "memsafety" and not program.memsafety:
        from .cfa.memsafety import instrument

        instrument(program)
        program.memsafety = changed = True
    if changed:
        from .cfa.fingerprint import assign_fingerprints

        for f in program.all_functions():
            f.fingerprint = ""
        assign_fingerprints(program)


def _used_cache(result: VerificationResult) -> bool:
    st = result.statistics
    return result.source == "cache" or st.summary_hits > 0 or st.precision_reused


def _verify_guarded(program: Program, opts: VerifyOptions) -> VerificationResult:
    t0 = time.monotonic()
    set_deadline(None if opts.timeout is None else t0 + opts.timeout)
    try:
        try:
            with fresh_context():
                return _verify_program(program, opts, t0)
        except CacheInconsistency as exc:
            if opts.cache is None:
                raise
            # A summary that its own block does not reproduce: its key missed something. The
            # entry goes, and this run is answered without the cache, as a fresh run would be.
            removed = bool(exc.store_key) and exc.remove
            if removed and exc.store_key and opts.cache is not None:
                opts.cache.delete_block(exc.store_key)
            with fresh_context():
                result = _verify_program(program, opts._replace(cache=None), time.monotonic())
            result.warnings.append(f"cbam: note: {exc} from the summary cache; "
                                   f"{'the entry was removed and ' if removed else ''}"
                                   "this result was computed without the cache")
            # Counted as the cache's fault (tests and the differential campaign fail on it)
            # only when the re-analysis was as precise as the one that made the entry and
            # reached what the entry does not cover.
            result.statistics.cache_inconsistency = exc.proven
            return result
    except Exception as exc:  # a bug in cbam: an answer without a verdict, never a crash
        if os.environ.get("CBAM_DEBUG"):
            raise
        import traceback

        where = traceback.extract_tb(exc.__traceback__)[-1]
        result = _new_result(program, opts)
        _unknown(result, UnknownReason.INTERNAL,
                 f"internal error: {type(exc).__name__}: {exc} (at {os.path.basename(where.filename)}:"
                 f"{where.lineno}); please report it")
        result.statistics.time = round(time.monotonic() - t0, 3)
        return result
    finally:
        set_deadline(None)


def _new_result(program: Program, opts: VerifyOptions) -> VerificationResult:
    result = VerificationResult("UNKNOWN", file=program.main_file, config=opts.config,
                                data_model=program.data_model.name)
    result.warnings = [str(d) for d in program.diagnostics]
    return result


def _unknown(result: VerificationResult, kind: UnknownReason, reason: str) -> VerificationResult:
    result.verdict, result.reason_kind, result.reason = "UNKNOWN", kind, reason
    return result


def _verify_program(program: Program, opts: VerifyOptions, t0: float) -> VerificationResult:
    result = _new_result(program, opts)
    if opts.config not in registry.CONFIGURATIONS:
        return _unknown(result, UnknownReason.BAD_OPTION,
                        f"unknown configuration {opts.config!r} (available: {', '.join(registry.names())})")
    if opts.predicate_theory not in THEORIES:
        return _unknown(result, UnknownReason.BAD_OPTION,
                        f"unknown predicate theory {opts.predicate_theory!r} (available: {', '.join(THEORIES)})")
    if program.start.unsupported is not None:
        what, where = program.start.unsupported
        result.unsupported_range = where
        return _unknown(result, UnknownReason.UNSUPPORTED,
                        f"unsupported feature: {what}" + (f" at {where}" if where else ""))
    policy = CachePolicy(opts.cache, program, opts) if opts.cache is not None else None
    if policy is not None:
        cached = policy.cached_result(t0)
        if cached is not None:
            return cached
    cg = program.callgraph if isinstance(program.callgraph, CallGraph) else CallGraph.of(program)
    blocks = build_blocks(program, cg)
    cpa, found = registry.build(registry.configuration(opts.config), program, blocks, opts.theory)
    stats = Statistics()
    persistent = policy.attach(cpa, blocks) if policy is not None else None
    if persistent is not None:
        result.function_keys = dict(persistent.fn_keys)
    phases = schedule(found, policy.hints(found) if policy is not None else {}, program)
    validated: dict = {}
    if policy is not None and opts.max_violations == 1:
        share = phases[0].share if len(phases) > 1 else 1.0
        budget = Budget(None if opts.timeout is None else opts.timeout * share, cancel=opts.cancel)  # type: ignore[arg-type]
        bam = BAM(program, cpa, blocks, budget, opts.order)
        bam.persistent = persistent
        restored = policy.revalidate(bam, phases[0].precision)
        accumulate(stats, bam, budget, 0)
        if restored is not None:
            bam._flush()  # the blocks it re-explored are kept
            restored.function_keys = result.function_keys
            restored.warnings = [str(d) for d in program.diagnostics]
            stats.precision_reused = phases[0].reused and restored.statistics.precision_reused
            stats.time = round(time.monotonic() - t0, 3)
            restored.statistics = stats
            policy.file_certified(restored)
            return restored
        # What the validation analysed is final; the first phase starts from it.
        validated = {k: r for k, r in bam.cache.items() if not r.dependent}
    violations = _Violations(program, opts, result)
    known: dict = {}
    chain: list = []
    chain_precision = None
    if policy is not None and opts.max_violations > 1:
        # The violations an earlier run found, in order, as far as their certificates hold: the
        # search goes on from them, as a fresh search would after finding them.
        budget = Budget(None if opts.timeout is None else opts.timeout * phases[0].share, cancel=opts.cancel)  # type: ignore[arg-type]
        bam = BAM(program, cpa, blocks, budget, opts.order)
        bam.persistent = persistent
        violations.prior, known, chain, chain_precision = policy.revalidate_chain(bam, found)
        stats.precision_reused |= chain_precision is not None and chain_precision[1]
        accumulate(stats, bam, budget, 0)
        validated = {k: r for k, r in bam.cache.items() if not r.dependent}
        if violations.prior:
            violations.report([])
    if len(known) >= opts.max_violations:
        assert chain_precision is not None
        search = Search(status="unsafe", stats=stats, chain=chain, chain_precision=chain_precision[0],
                        chain_hinted=chain_precision[1])
    else:
        listener = violations.report if opts.on_partial is not None else None
        # A path found again after an edit usually breaks with the inputs it broke with before.
        hints = policy.earlier_inputs() if policy is not None else []
        check = with_replay(hints) if hints else None

        def cegar(first_phase_only: bool, timeout: float | None, stop: Callable[[], bool] | None = None) -> Search:
            run_deadline = None if opts.timeout is None else t0 + opts.timeout
            # What the engines before it took is not CEGAR's to spend again.
            # (A limit of 0 would read as none: a run already past its deadline gets a moment.)
            left = None if run_deadline is None else max(1e-3, run_deadline - time.monotonic())
            if timeout is not None:  # the solvers' calls too
                set_deadline(min(d for d in (run_deadline, time.monotonic() + timeout) if d is not None))
            limit = timeout if left is None else left if timeout is None else min(timeout, left)
            try:
                out = run_phases(program, cpa, found, blocks, phases[:1] if first_phase_only else phases,
                                 opts._replace(timeout=limit, cancel=either(opts.cancel, stop)), persistent, stats,
                                 # A probe streams nothing: its violations are found again, or are its answer.
                                 validated, None if first_phase_only else listener, known, chain, chain_precision,
                                 probe=first_phase_only, check=check)
                out.share_limited = timeout is not None and (left is None or timeout < left)
                return out
            finally:
                set_deadline(run_deadline)
        search = portfolio.search(program, opts, stats, cegar, t0, known, listener)
    _assemble(result, program, opts, search, t0, violations)
    if policy is not None:
        filed = (search.chain, found, search.chain_precision, search.chain_hinted)
        if search.stopped != UnknownReason.NONE:
            policy.file_cut(result, search.run_timed_out, filed)
        else:
            policy.file_result(result, found, search.precision, search.certify, filed)
    return result


class _Violations:
    """The run's violations as reported: those carried over from certificates (``prior``), then
    those the search confirms, each built once (with its harness); with a listener
    (VerifyOptions.on_partial), reported the moment each is confirmed."""

    def __init__(self, program: Program, opts: VerifyOptions, result: VerificationResult):
        self.program = program
        self.opts = opts
        self.result = result
        self.prior: list[Violation] = []
        self._built: dict[int, Violation] = {}
        # What the engines have streamed, by error location: each streams what it confirmed so
        # far, and a report shows them all (random tests' violations, then CEGAR's).
        self._streamed: dict[int, Confirmed] = {}

    def build(self, c: Confirmed) -> Violation:
        v = self._built.get(id(c))
        if v is None:
            from .cex.harness import write_harness
            from .cex.report import build_violation

            v = build_violation(self.program, c.path, c.feasibility)
            if self.opts.harness:
                v.harness = write_harness(self.program, v, self.program.main_file)
            self._built[id(c)] = v
        return v

    def all(self, confirmed: list[Confirmed]) -> list[Violation]:
        return [*self.prior, *(self.build(c) for c in confirmed)]

    def report(self, confirmed: list[Confirmed]) -> None:
        listener = self.opts.on_partial
        if listener is None:
            return
        for c in confirmed:
            self._streamed.setdefault(id(c.path.error_node), c)
        partial = _new_result(self.program, self.opts)
        partial.verdict, partial.partial = "FALSE", True
        partial.violations = self.all(list(self._streamed.values()))
        partial.function_keys = dict(self.result.function_keys)
        if self.opts.replay is not None:  # each is run once the search ends (_replayed)
            from .cex.native_replay import pending

            partial = pending(partial)
        listener(partial)  # type: ignore[operator]


def _assemble(result: VerificationResult, program: Program, opts: VerifyOptions, search: Search,
              t0: float, violations: _Violations) -> None:
    """The typed result of a search: verdict, reason, violations with their paths (and test
    harnesses), statistics."""
    result.unsupported_range = search.unsupported_range
    found = bool(search.confirmed or violations.prior)
    if search.stopped != UnknownReason.NONE:
        _unknown(result, search.kind, search.reason)
        if found:
            result.search_stopped = search.stopped
            result.warnings.append(f"search for further violations stopped early: {search.reason}")
    elif search.status == "safe" and not found:
        result.verdict = "TRUE"
    elif search.status == "unsafe" or found:
        result.verdict = "FALSE"
        if search.reason:
            result.search_stopped = search.kind
            result.warnings.append(f"search stopped early: {search.reason}")
    else:
        _unknown(result, search.kind, search.reason)
        node = search.reason_node
        if node is not None:
            result.reason_range = node.error.range if node.error is not None else None
            result.reason_ref = ["node", node.function, node.canon]
    search.stats.time = round(time.monotonic() - t0, 3)
    result.statistics = search.stats
    result.invariants = dict(search.invariants)
    result.violations = violations.all(search.confirmed)
    search.stats.confirmed_by_replay = sum(1 for c in search.confirmed if c.feasibility.replayed)
    if result.violations and result.verdict != "FALSE":
        # A confirmed violation stands even if a later phase ran out of time.
        result.verdict, result.reason, result.reason_kind = "FALSE", "", UnknownReason.NONE


def verify_file(path: str, pp=None, options: VerifyOptions | None = None, entry: str = "main",
                text: str | None = None) -> VerificationResult:
    """Load and verify; FrontendError propagates (it is an input error, not a verdict)."""
    from .cfa.load import load_program

    program = load_program(path, text=text, options=pp, entry=entry)
    return run_deep(lambda: verify_program(program, options))


def _in_large_frame(fn):
    return fn()


# CPython 3.11 keeps frames in 16 KB chunks and unmaps a chunk as soon as the frame that opened
# it returns, so a recursion that hovers at a chunk boundary (BAM's nested blocks) pays an mmap, a
# munmap and page faults per call: on bench's generated 100-function program, 9x the page faults
# and 1.7x the time, depending only on how deep the caller's frames happened to start. A frame
# that reserves a large value stack (never touched, so it costs address space, not memory) opens
# an 8 MB chunk, and the analysis's frames fill the rest of it.
_in_large_frame = types.FunctionType(_in_large_frame.__code__.replace(co_stacksize=(1 << 19) + 4096),
                                     globals(), "_in_large_frame")


def run_deep(fn):
    """Run ``fn`` on a thread with a large stack: deep recursion in the analysed program
    becomes deep recursion here."""
    box: dict = {}

    def target():
        try:
            box["value"] = _in_large_frame(fn)
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


def make_cpa(program: Program, config: str, blocks: dict | None = None, theory: str = "bv"):
    """The composite CPA of a configuration (for tests and tools that drive BAM themselves)."""
    if blocks is None:
        blocks = build_blocks(program, CallGraph.of(program))
    return registry.build(registry.configuration(config), program, blocks, theory)[0]


__all__ = ["VerifyOptions", "verify_program", "verify_file", "run_deep", "make_cpa"]
