"""What a verification run is asked to do (kept apart from the engine, so that a client can
build options, and the cache key they decide, without importing the analyses)."""

from __future__ import annotations

from dataclasses import dataclass, field

TYPE_CHECKING = False  # typing itself is not imported: see cache/store.py

if TYPE_CHECKING:
    from .analysis.precision import ValuePrecision


@dataclass
class VerifyOptions:
    config: str = "value+predicate"
    timeout: float | None = 60.0
    max_violations: int = 1
    order: str = "dfs"
    harness: bool = True
    cancel: object = None  # callable returning True when the run should stop
    extra_search_after_violation: float | None = None  # seconds for further violations after the first
    initial_precision: ValuePrecision | None = None
    cache: object = None  # cache.store.CacheStore, or None for no persistent cache
    predicate_theory: str = "bv"  # path formulas of the predicate analysis: "bv" (exact) or "lia" (checked)
    extra: dict = field(default_factory=dict)
