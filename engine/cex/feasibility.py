"""What a path check finds: whether an error path is feasible, and with which values.

Two checks produce it: the exact encoding of the path for z3 (cex/encoding.py), whose terms a model
evaluates, and a run of the path with concrete inputs (replay.py), whose "terms" are already
values. Reading a finding (the violation's report, cex/report.py) needs neither z3 nor a
model: ``Feasibility.value`` gives a term's value either way.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import z3  # the engine's stand-in: loaded only by a finding that has a model (lazy_z3.py)

from ..cfa.ctype import CType, IntType
from ..core.path import ErrorPath
from ..frontend.errors import Range


@dataclass
class InputValue:
    """A value the environment supplies along the path (a nondet call, an input, an external call)."""

    source: str  # e.g. "__VERIFIER_nondet_int", "input argc", "extern foo"
    type: CType
    step: int
    term: Any  # a z3 term, or the value itself (a replayed path)
    value: int | None = None
    range: Range | None = None


@dataclass
class Encoding:
    """An error path as z3 constraints, with the inputs it reads and what each step writes."""

    constraints: list[Any] = field(default_factory=list)
    inputs: list[InputValue] = field(default_factory=list)
    # per step: list of (display name, term, type) written by the step
    writes: list[list[tuple[str, Any, CType]]] = field(default_factory=list)
    # per step: the arguments passed (call steps)
    args: dict[int, list[tuple[str, Any, CType]]] = field(default_factory=dict)
    overflow_checks: list[tuple[Any, int]] = field(default_factory=list)
    uses_memory: bool = False


@dataclass
class Feasibility:
    """Whether an error path can run, and the model that makes it run."""

    status: str  # "sat" | "unsat" | "unknown" | "unsupported"
    encoding: Encoding | None = None
    model: Any = None  # z3's model of the encoding; None for a replayed path
    reason: str = ""
    unsupported_range: object = None
    overflow_steps: list[int] = field(default_factory=list)
    replayed: bool = False  # confirmed by running the path with given inputs (replay.py), not by z3

    def value(self, term: Any, t: CType) -> int:
        """A term's value in this finding, as its C type reads it."""
        if isinstance(term, int):
            return t.wrap(term) if isinstance(t, IntType) else term
        return to_int(self.model.eval(term, model_completion=True), t)


def to_int(v: Any, t: CType) -> int:
    """A z3 value as the integer its C type reads (z3 is loaded: ``v`` is one of its values)."""
    raw = v.as_long() if z3.is_bv_value(v) else 0
    if isinstance(t, IntType) and not t.name.startswith("bytes["):
        return t.wrap(raw)
    return raw


@dataclass
class Confirmed:
    """An error path that z3 showed to be feasible, with that proof."""

    path: ErrorPath
    feasibility: Feasibility
