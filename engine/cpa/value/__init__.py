"""Explicit-value analysis with CEGAR and interpolation (Beyer & Löwe 2012): the registry's ``value``."""

from __future__ import annotations

from typing import Any

from ...cfa.traits import reads_input
from ..registry import Analysis, PrecisionCodec, Setup, memory_context
from .cpa import ValueCPA
from .precision import ValuePrecision
from .refiner import ValueRefiner

FULL_SHARE = 0.25  # of the time, for the phase that tracks every variable
FULL_SHARE_WITHOUT_INPUT = 0.9


class ValuePrecisions(PrecisionCodec):
    def schedule(self, program) -> list[tuple[Any, float]]:
        """Full precision first, under a small budget; then CEGAR from the empty precision.

        Tracking every variable settles deterministic code (and memoizes concrete recursion)
        without refinements, and never yields long spurious paths through concrete recursion.
        When its budget runs out (typically a loop counter that need not be tracked), CEGAR
        takes over with the time left. A program that reads no input (a library's known-answer
        test) has one execution, which full precision follows as an interpreter would: it gets
        nearly all the time (from the empty precision, CEGAR would refine its way to tracking
        the same values, each refinement on a path as long as the run)."""
        first = FULL_SHARE_WITHOUT_INPUT if not reads_input(program) else FULL_SHARE
        return [(ValuePrecision(track_all=True), first), (ValuePrecision(), 1.0)]

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
