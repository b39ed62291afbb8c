"""One source's answer as the engine hands it out: the same shape fresh or from the cache.

A fresh answer is made from the typed result (``VerificationResult``, or a ``FileReport`` where a
file's entry points were verified) and a cached one from the report that result rendered when
it was stored (cache/unchanged.py); either way the reader gets the report as the result's
``to_json`` wrote it, each violation's test harness and where the answer came from. What a
caller knows beyond the engine (how long it waited, the memory, the task, the exit code) it
puts beside the answer (``with_run``), never into it.

This is on the path that answers an unchanged source before anything is parsed: it imports
nothing (no dataclasses, no typing).
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from .core.result import VerificationResult


class Answer:
    """A source's report, its violations' harnesses and its origin, read-only."""

    __slots__ = ("_report", "harnesses", "from_cache")

    def __init__(self, report: dict[str, Any], harnesses: list[str | None], from_cache: bool) -> None:
        self._report = report
        self.harnesses: tuple[str | None, ...] = tuple(harnesses)
        self.from_cache = from_cache

    @classmethod
    def of(cls, result: VerificationResult, entries: list[str] | None = None) -> Answer:
        """A fresh result's answer; ``entries``: the entry points verified, where there were several."""
        report = result.to_json()
        if entries is not None:
            report["entries"] = list(entries)
        return cls(report, [v.harness for v in result.violations], False)

    @property
    def verdict(self) -> str:
        return self._report["verdict"]

    @property
    def violations(self) -> list[dict[str, Any]]:
        return [dict(v) for v in self._report["violations"]]

    def to_json(self) -> dict[str, Any]:
        """The report, as a new dict each time (its statistics too): a caller that extends it
        changes no one else's copy."""
        out = dict(self._report)
        out["statistics"] = dict(self._report["statistics"])
        out["source"] = "cache" if self.from_cache else self._report.get("source", "fresh")
        return out

    def with_run(self, **facts: Any) -> dict[str, Any]:
        """The report with what the caller measured of its run put beside the engine's: a
        ``statistics`` entry of the same name for ``time``, ``peak_memory_mb`` and
        ``crashed_attempts``, a top-level one for anything else (task, harnesses, exit)."""
        out = self.to_json()
        for name, value in facts.items():
            if name in RUN_STATISTICS:
                out["statistics"][name] = value
            else:
                out[name] = value
        return out


# What the process that ran the analysis measured, reported among the statistics.
RUN_STATISTICS = frozenset({"time", "peak_memory_mb", "crashed_attempts"})
