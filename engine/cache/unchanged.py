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

import json

from cbam import __version__

from ..sha import sha256

TYPE_CHECKING = False  # typing itself is not imported: see store.py
if TYPE_CHECKING:
    from typing import Any

    from ..analysis.result import VerificationResult
    from ..options import VerifyOptions
    from .store import CacheStore


def run_key(source_key: str | None, opts: VerifyOptions) -> str | None:
    """The key of a run on a source, from every option that decides its result (None: a run
    this shortcut does not serve, e.g. one seeded with a precision)."""
    if source_key is None or opts.initial_precision is not None:
        return None
    theory = opts.predicate_theory if "predicate" in opts.config else "bv"  # the only theory without predicates
    material = [__version__, source_key, opts.config, theory, opts.max_violations, opts.harness,
                opts.extra_search_after_violation]
    return sha256(json.dumps(material).encode()).hexdigest()


def render(result: VerificationResult) -> dict[str, Any]:
    """The stored answer: the result's report (the CLI's JSON, which its text is printed from) and
    each violation's test harness. A cached answer did no analysis work: its statistics are zero."""
    from ..analysis.result import Statistics  # on the path that stores a fresh result only

    report = result.to_json()
    report.pop("source")
    report["statistics"] = Statistics().to_json()
    return {"report": report, "harnesses": [v.harness for v in result.violations]}


def lookup(store: CacheStore, key: str) -> tuple[dict[str, Any], list[str | None]] | None:
    """The report of an unchanged source (marked as from the cache) and its violations' harnesses."""
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
    report["source"] = "cache"
    return report, harnesses


def remember(store: CacheStore, key: str, file: str, result: VerificationResult) -> None:
    """Only results the cache holds as deterministic (result.cache_key set) are remembered."""
    if result.cache_key is not None:
        store.put_source(key, result.cache_key, file, render(result))
