"""What a run reads from the persistent cache and what it files there (cache/keys.py decides the
keys): the whole result, the learned precision (a hint), the counterexample certificate, the
block abstractions (through BAM's persistent layer) and the answer for the unchanged source.

The rule for filing: a verdict is sound whatever led to it, so TRUE and FALSE are kept; giving
up is kept only if it did not depend on the machine's speed; a result whose search for further
violations was cut by the extra-search limit (an option, part of the key) is kept, one cut by
the run's own time limit is not.
"""

from __future__ import annotations

import os
import time
from typing import TYPE_CHECKING, Any

from ..cache import certificate, keys, unchanged
from ..cache.blockcache import PersistentBlocks, function_keys
from ..cache.results import dump_result, load_result
from ..core.result import Statistics, UnknownReason, VerificationResult
from . import phases as phase_schedule

if TYPE_CHECKING:
    from typing import TypeAlias

    from ..cache.store import CacheStore
    from ..cfa.cfa import Program
    from ..core.bam import BAM
    from ..core.cpa import Block, CompositeCPA
    from ..cpa.registry import Analysis
    from ..options import VerifyOptions

    # A search's violation certificates: their levels, the analyses, the precision they were
    # found under and whether that precision was a hint (search.Search).
    Chain: TypeAlias = tuple[list[list[dict]], list[Analysis], dict | None, bool]


MAX_INPUT_HINTS = 4  # earlier violations whose inputs a new path is run with before z3 checks it


class CachePolicy:
    def __init__(self, store: CacheStore, program: Program, opts: VerifyOptions):
        self.store = store
        self.program = program
        self.opts = opts
        self.file = os.path.abspath(program.main_file)
        self.result_key = keys.result_key(program, opts)
        self.certificate_run = keys.certificate_run(opts, program.entry)
        self.precision_slot = keys.precision_slot(opts.config, program.entry)
        self.blocks: PersistentBlocks | None = None

    # ---- reading ------------------------------------------------------------------------
    def cached_result(self, t0: float) -> VerificationResult | None:
        """The whole result for this program and these options, mapped to where the code is now."""
        cached = self.store.get_result(self.result_key)
        restored = load_result(cached, self.program) if cached is not None else None
        if restored is None:
            return None
        restored.warnings = [str(d) for d in self.program.diagnostics]
        old = restored.statistics
        restored.statistics = Statistics(time=round(time.monotonic() - t0, 3), precision_reused=old.precision_reused,
                                         phases_cut_by_time=old.phases_cut_by_time, decided_by=old.decided_by)
        restored.cache_key = self.result_key
        restored.function_keys = function_keys(self.program, self.opts)
        self._remember_source(restored)
        return restored

    def attach(self, cpa: CompositeCPA, blocks: dict[str, Block]) -> PersistentBlocks:
        """BAM's persistent layer for this run."""
        self.blocks = PersistentBlocks(self.store, self.program, cpa, blocks, self.opts, self.file)
        return self.blocks

    def hints(self, found: list[Analysis]) -> dict[str, Any]:
        """The precision the last run of this file learned, where it still applies."""
        return phase_schedule.reusable(found, self.program, self.store.get_precision(self.file, self.precision_slot))

    def earlier_inputs(self) -> list[list[int]]:
        """The inputs of the violations the last run of this file reported, each in the order its
        path read them: a path found again after an edit is first run with them (replay.py)."""
        cert = self.store.get_certificate(self.file, self.certificate_run)
        try:
            violations = cert["result"]["violations"] if isinstance(cert, dict) else []
            return [[int(i["value"]) for i in v["inputs"]] for v in violations][:MAX_INPUT_HINTS]
        except (KeyError, TypeError, ValueError):
            return []  # written by an incompatible layout

    def revalidate(self, bam: BAM, precision: dict) -> VerificationResult | None:
        """The certified violation, if its certificate still holds (first-violation mode only)."""
        assert self.blocks is not None
        return certificate.revalidate(self.store, self.blocks, bam, self.program, self.file, self.certificate_run,
                                      precision)

    def revalidate_chain(self, bam: BAM, found: list[Analysis]) -> tuple[list, dict, list, tuple[dict, bool] | None]:
        """Multi-violation mode: the certified violations that still hold, in the order found,
        their error locations and certificates (certificate.revalidate_chain), and the
        precision they were found under, with whether it was itself a hint from an earlier run."""
        assert self.blocks is not None
        cert = self.store.get_certificate(self.file, self.certificate_run)
        if not isinstance(cert, dict) or "chain" not in cert:
            return [], {}, [], None
        precision = phase_schedule.restore(found, cert.get("precision"))
        if precision is None:
            return [], {}, [], None
        violations, known, levels = certificate.revalidate_chain(cert, self.blocks, bam, self.program, precision)
        return violations, known, levels, (precision, bool(cert.get("hinted"))) if violations else None

    # ---- filing ---------------------------------------------------------------------------
    def file_result(self, result: VerificationResult, found: list[Analysis], precision: dict | None,
                    certify: bool, chain: Chain) -> None:
        """A finished run: its result if it is an answer, its precision, and its certificate
        (first-violation mode) or its violations' chain of certificates (multi-violation mode),
        or the removal of an old one."""
        if not result.final:
            return
        self._count(result)
        if precision:
            data = phase_schedule.to_json(found, precision)
            if data:
                self.store.put_precision(self.file, self.precision_slot, data)
        self._put(result)
        if self.opts.max_violations == 1:
            if certify and result.verdict == "FALSE":
                assert self.blocks is not None
                certificate.record(self.store, self.blocks, self.file, self.certificate_run, result)
            else:
                self.store.put_certificate(self.file, self.certificate_run, None)
        else:
            self._file_chain(result, chain)

    def file_cut(self, result: VerificationResult, run_timed_out: bool, chain: Chain) -> None:
        """A search for further violations that stopped at a limit: kept if the limit was the
        extra search's (an option in the key), not the run's own time limit. The certificates
        of the violations it found are kept either way: each holds on its own."""
        self._count(result)
        if result.violations and result.search_stopped == UnknownReason.TIMEOUT and not run_timed_out:
            self._put(result)
        if self.opts.max_violations > 1:
            self._file_chain(result, chain)

    def _file_chain(self, result: VerificationResult, chain: Chain) -> None:
        """The certificates of the violations found in order, with the precision they were
        found under (to be validated under the same)."""
        assert self.blocks is not None
        levels, found, precision, hinted = chain
        data = phase_schedule.to_json(found, precision or {})
        certificate.record_chain(self.store, self.blocks, self.file, self.certificate_run, result,
                                 levels if result.violations else [], data, hinted)

    def file_certified(self, result: VerificationResult) -> None:
        self._count(result)
        self._put(result)

    def _count(self, result: VerificationResult) -> None:
        if self.blocks is not None:
            result.statistics.summary_hits, result.statistics.summary_misses = self.blocks.hits, self.blocks.misses

    def _put(self, result: VerificationResult) -> None:
        self.store.put_result(self.result_key, self.file, result.verdict, dump_result(result))
        result.cache_key = self.result_key
        self._remember_source(result)

    def _remember_source(self, result: VerificationResult) -> None:
        remember_source(self.store, self.program, self.opts, result)


def remember_source(store: CacheStore, program: Program, opts: VerifyOptions, result: VerificationResult) -> None:
    """Let a later process answer the same source before parsing it (cache/unchanged.py),
    or, where it has an unpreprocessed address, before preprocessing it. Filed as the path check
    left it, and again once its violations' native runs showed them (verify.py): the same text
    is then answered with that evidence."""
    for source in (program.source_key, program.unpreprocessed_key):
        key = keys.source_run_key(source, opts)
        if key is not None:
            unchanged.remember(store, key, os.path.abspath(program.main_file), result)
