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

import dataclasses
import json

from cbam import __version__

from ..analysis.result import InputReport, PathStepReport, Statistics, VerificationResult, Violation
from ..frontend.errors import Range
from ..options import VerifyOptions
from ..sha import sha256
from .store import CacheStore

TYPE_CHECKING = False  # typing itself is not imported: see store.py
if TYPE_CHECKING:
    from typing import Any


def run_key(source_key: str | None, opts: VerifyOptions) -> str | None:
    """The key of a run on a source, from every option that decides its result (None: a run
    this shortcut does not serve, e.g. one seeded with a precision)."""
    if source_key is None or opts.initial_precision is not None or opts.extra:
        return None
    theory = opts.predicate_theory if "predicate" in opts.config else "bv"  # the only theory without predicates
    material = [__version__, source_key, opts.config, theory, opts.max_violations, opts.harness,
                opts.extra_search_after_violation]
    return sha256(json.dumps(material).encode()).hexdigest()


def render(result: VerificationResult) -> dict[str, Any]:
    data = dataclasses.asdict(result)
    data.pop("statistics")
    data.pop("source")
    data.pop("cache_key")
    return data


def _range(d: dict | None) -> Range | None:
    return Range(**d) if d else None


def restore(data: dict[str, Any], cache_key: str) -> VerificationResult:
    violations = []
    for v in data["violations"]:
        steps = [PathStepReport(**{**s, "range": _range(s["range"])}) for s in v["steps"]]
        inputs = [InputReport(**{**i, "range": _range(i["range"])}) for i in v["inputs"]]
        violations.append(Violation(**{**v, "range": _range(v["range"]), "steps": steps, "inputs": inputs}))
    return VerificationResult(**{**data, "violations": violations, "statistics": Statistics(), "source": "cache",
                                 "unsupported_range": _range(data["unsupported_range"]),
                                 "reason_range": _range(data["reason_range"]), "cache_key": cache_key})


def lookup(store: CacheStore, key: str) -> VerificationResult | None:
    row = store.get_source(key)
    if row is None:
        return None
    result_key, payload = row
    try:
        return restore(payload, result_key)
    except (KeyError, TypeError, ValueError):
        return None  # written by an incompatible layout: recompute


def remember(store: CacheStore, key: str, file: str, result: VerificationResult) -> None:
    """Only results the cache holds as deterministic (result.cache_key set) are remembered."""
    if result.cache_key is not None:
        store.put_source(key, result.cache_key, file, render(result))
