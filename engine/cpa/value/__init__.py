"""Explicit-value analysis with CEGAR and interpolation (Beyer & Löwe 2012): the registry's ``value``."""

from __future__ import annotations

from typing import Any

from ..registry import Analysis, PrecisionCodec, Setup, memory_context
from .cpa import ValueCPA
from .precision import ValuePrecision
from .refiner import ValueRefiner


class ValuePrecisions(PrecisionCodec):
    def schedule(self) -> list[tuple[Any, float]]:
        """Full precision first, under a small budget; then CEGAR from the empty precision.

        Tracking every variable settles deterministic code (and memoizes concrete recursion)
        without refinements, and never yields long spurious paths through concrete recursion.
        When its budget runs out (typically a loop counter that need not be tracked), CEGAR
        takes over with the time left."""
        return [(ValuePrecision(track_all=True), 0.25), (ValuePrecision(), 1.0)]

    def to_json(self, prec: ValuePrecision) -> Any:
        return prec.to_json()

    def from_json(self, data: Any) -> ValuePrecision:
        return ValuePrecision.from_json(data)

    def reuse(self, program, prec: ValuePrecision) -> ValuePrecision | None:
        """The tracked variables that still exist (a run that needed none of them tracked all:
        that is the schedule's first phase anyway)."""
        if prec.track_all:
            return None
        known = program.vars
        return ValuePrecision(
            {f: frozenset(v for v in vs if v in known) for f, vs in prec.scoped.items() if f in program.functions},
            {}, frozenset(v for v in prec.global_vars if v in known))


def memory_facts(program) -> dict:
    """What the value analysis's transfer reads beyond a function's code: which variables have
    their address taken, and the layout of every struct (a member's offset is not in the
    fingerprint of a function that uses it)."""
    return memory_context(program)


def _cpa(setup: Setup) -> ValueCPA:
    return ValueCPA(setup.program)


ANALYSIS = Analysis("value", _cpa, lambda cpa: ValueRefiner(), ValuePrecisions(), memory_facts,
                    prunes_branches=True)
