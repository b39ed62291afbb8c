"""Refiners: what CEGAR asks for a finer precision when an error path is spurious, and the
chain that tries several analyses' refiners in order.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from ..cfa.cfa import Program
from .path import ErrorPath


class Refiner(Protocol):
    def refine(self, program: Program, path: ErrorPath, precision: dict,
               check: Callable[[], None]) -> tuple[dict | None, str]:
        """A strictly finer precision that rules ``path`` out, or (None, why not)."""


class ChainRefiner:
    """Several analyses' refiners, tried in order: the first that rules the path out wins (for
    value+predicate: explicit-value interpolation, then predicates for relations it cannot
    express)."""

    def __init__(self, parts: list[Refiner]):
        self.parts = parts

    def refine(self, program: Program, path: ErrorPath, precision: dict,
               check: Callable[[], None]) -> tuple[dict | None, str]:
        reasons = []
        for part in self.parts:
            new, why = part.refine(program, path, precision, check)
            if new is not None:
                return new, ""
            reasons.append(why)
        return None, "; ".join(dict.fromkeys(reasons))  # each part meets the same unsupported construct
