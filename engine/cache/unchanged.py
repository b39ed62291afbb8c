"""Unchanged sources, answered without parsing.

A process that verifies a file it has never seen (a new editor session, a CI job, the
next `cbam verify` in a terminal) would otherwise parse the file and build its CFAs only
to find the whole result in the cache. Here the result is found by the source's content
address (the preprocessed text, the original files, every option that decides the result)
before the front end runs. Nothing heavy is imported on this path.

A source entry points at the results row it was rendered from and is served only while
that row exists, so clearing or rebuilding the results also retires it. Ranges are stored
as they were reported: the same source text has the same ranges.
"""

from __future__ import annotations

from ..answer import Answer

TYPE_CHECKING = False  # typing itself is not imported: see store.py
if TYPE_CHECKING:
    from typing import Any

    from ..core.result import VerificationResult
    from .store import CacheStore


def render(result: VerificationResult) -> dict[str, Any]:
    """The stored answer: the result's report (the CLI's JSON, which its text is printed from) and
    each violation's test harness. A cached answer did no analysis work: its statistics are zero."""
    from ..core.result import Statistics  # on the path that stores a fresh result only

    report = result.to_json()
    report.pop("source")
    # No analysis work, but whether a learned precision decided it (the self-check needs that).
    report["statistics"] = Statistics(precision_reused=result.statistics.precision_reused).to_json()
    return {"report": report, "harnesses": [v.harness for v in result.violations]}


def lookup(store: CacheStore, key: str, replaying: bool = False) -> Answer | None:
    """The answer of an unchanged source: its report and its violations' harnesses, from the cache.
    ``replaying``: each violation is to be run natively before it is shown (VerifyOptions.replay).
    Where the source is unchanged, a violation's run is too: an answer is served here only if
    each of its violations comes with a run that showed it (verify.py files it so). Any other
    (not replayed, or filed as the path check left it) is answered by the analysis, from the
    results cache, and replayed there: this path has no program to run."""
    row = store.get_source(key)
    if row is None:
        return None
    payload = row[1]
    try:
        report, harnesses = payload["report"], payload["harnesses"]
        if len(harnesses) != len(report["violations"]) or not isinstance(report["statistics"], dict):
            return None
    except (KeyError, TypeError):
        return None  # written by an incompatible layout: recompute
    if replaying and any((v.get("replay") or {}).get("status") != "replayed" for v in report["violations"]):
        return None
    return Answer(report, harnesses, from_cache=True)


def remember(store: CacheStore, key: str, file: str, result: VerificationResult) -> None:
    """Only results the cache holds as deterministic (result.cache_key set) are remembered."""
    if result.cache_key is not None:
        store.put_source(key, result.cache_key, file, render(result))


def alias(store: CacheStore, key: str, alias_key: str, file: str) -> bool:
    """The answer filed under ``key`` filed under ``alias_key`` too (the same source, addressed
    without preprocessing: frontend/source_key.unpreprocessed_key); whether there was one."""
    row = store.get_source(key)
    if row is None:
        return False
    store.put_source(alias_key, row[0], file, row[1])
    return True
