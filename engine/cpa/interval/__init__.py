"""Interval analysis with widening (no refinement): the registry's ``interval``."""

from __future__ import annotations

from ..registry import Analysis, Setup, memory_context
from .cpa import IntervalCPA
from .invariants import invariants as _invariants


def _cpa(setup: Setup) -> IntervalCPA:
    return IntervalCPA(setup.program)


ANALYSIS = Analysis("interval", _cpa, None, None, memory_context, invariants=_invariants)
