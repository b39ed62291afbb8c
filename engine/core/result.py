"""Verification results: verdicts, violations with their error paths, statistics."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..frontend.errors import Range
from .kinds import DecidedBy, ReplayStatus, UnknownReason

# typing costs a few milliseconds to import; this module is on the path that answers an
# unchanged source from the cache, where start-up time is what the user waits for.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


@dataclass
class Replay:
    """The outcome of a counterexample's native run."""

    status: ReplayStatus
    reason: str = ""  # why it was not replayed, or how the run disagreed
    observed: str = ""  # what the run showed: the error function reached, or the sanitizer's report
    kept: str | None = None  # a disagreement's bundle: the program, the harness and both outcomes

    def to_json(self) -> dict[str, Any]:
        return {"status": str(self.status), "reason": self.reason, "observed": self.observed,
                **({"kept": self.kept} if self.kept else {})}


@dataclass
class PathStepReport:
    """One step of an error path, as a user reads it."""

    kind: str  # "decl" | "assign" | "branch" | "call" | "return" | "input" | "extern" | "scope" | "error"
    message: str
    range: Range | None
    function: str
    text: str = ""
    values: dict[str, int] = field(default_factory=dict)
    ref: list | None = None  # [function, canonical pred node, out-edge index]: survives moves

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "message": self.message, "function": self.function, "text": self.text,
                "range": self.range.to_json() if self.range else None, "values": self.values}


@dataclass
class InputReport:
    """A nondeterministic input's value on a confirmed error path."""

    source: str
    value: int
    type: str
    range: Range | None = None

    def to_json(self) -> dict[str, Any]:
        return {"source": self.source, "value": self.value, "type": self.type,
                "range": self.range.to_json() if self.range else None}


@dataclass
class Violation:
    """A confirmed property violation: where, how it is reached, and the inputs that reach it."""

    message: str
    kind: str
    range: Range | None
    function: str
    steps: list[PathStepReport]
    inputs: list[InputReport]
    notes: list[str] = field(default_factory=list)
    harness: str | None = None
    ref: list | None = None  # ["node", function, canon] or ["edge", function, canon, index]
    replay: Replay | None = None  # None: not run natively (VerifyOptions.replay was off)

    def to_json(self) -> dict[str, Any]:
        return {"message": self.message, "kind": self.kind, "function": self.function,
                "range": self.range.to_json() if self.range else None,
                "path": [s.to_json() for s in self.steps], "inputs": [i.to_json() for i in self.inputs],
                "notes": self.notes, **({"replay": self.replay.to_json()} if self.replay is not None else {})}


@dataclass
class Statistics:
    """What a run did and how long it took."""

    time: float = 0.0
    states: int = 0
    refinements: int = 0
    cache_hits: int = 0
    cache_misses: int = 0
    covered_recursive_calls: int = 0
    fixpoint_iterations: int = 0
    blocks_analysed: int = 0
    precision_size: int = 0
    precision_reused: bool = False  # the run started from the precision an earlier run learned
    phases_cut_by_time: int = 0  # phases that ran out of their share of the time (the answer depends on speed)
    summary_hits: int = 0  # block abstractions reused from the persistent cache
    summary_misses: int = 0
    bv_confirmation: bool = False  # an integer-arithmetic proof was re-checked with bit-vectors
    explored_paths: int = 0  # paths followed to their end by path exploration (pipeline/portfolio.py)
    decided_by: DecidedBy = DecidedBy.NONE  # the engine whose answer this is
    unwinding_depth: int = 0  # the recursion depth CPArec (--config cparec) or BMC through the recursion ended at
    induction_k: int = 0  # the k of a k-induction proof
    induction_offered: int = 0  # ... the invariants it assumed that other analyses offered (registry's invariants)
    # violations confirmed by running their path with earlier inputs, without a solver (replay.py)
    confirmed_by_replay: int = 0
    # An entry of the persistent cache did not reproduce when its path was rebuilt: the entry was
    # removed and the answer computed without the cache (a cache bug; differential tests count it).
    cache_inconsistency: bool = False

    def to_json(self) -> dict[str, Any]:
        return dict(self.__dict__)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Statistics:
        """The statistics ``to_json`` gave (a field it lacks keeps its default)."""
        out = cls()
        for name, value in out.__dict__.items():
            if name in data:
                setattr(out, name, type(value)(data[name]))
        return out

    @classmethod
    def combined(cls, parts: list[Statistics]) -> Statistics:
        """The work of several runs (a file's entry points): counts add up, flags are any."""
        out = cls()
        for name, value in out.__dict__.items():
            values = [getattr(p, name) for p in parts]
            if isinstance(value, DecidedBy):
                engines = set(values) - {DecidedBy.NONE}
                setattr(out, name, engines.pop() if len(engines) == 1 else DecidedBy.SEVERAL if engines else DecidedBy.NONE)
            elif isinstance(value, str):
                setattr(out, name, "+".join(dict.fromkeys(v for v in values if v)))
            else:
                setattr(out, name, any(values) if isinstance(value, bool) else sum(values))
        out.time = round(out.time, 3)
        return out


@dataclass
class VerificationResult:
    """A run's verdict, with its violations, its reason if UNKNOWN, and its statistics."""

    verdict: str  # "TRUE" | "FALSE" | "UNKNOWN"
    reason: str = ""
    violations: list[Violation] = field(default_factory=list)
    statistics: Statistics = field(default_factory=Statistics)
    file: str = ""
    config: str = ""  # the configuration it was computed with
    data_model: str = "ILP32"
    unsupported_range: Range | None = None
    warnings: list[str] = field(default_factory=list)
    source: str = "fresh"  # "fresh" | "cache"
    reason_range: Range | None = None  # the check an UNKNOWN is about
    reason_ref: list | None = None
    cache_key: str | None = None  # the cache's results row holding this result, if it is stored
    reason_kind: UnknownReason = UnknownReason.NONE
    # Why a search for further violations stopped before it had looked everywhere (a time limit,
    # or an error path it could neither confirm nor refute); NONE: it was exhaustive.
    search_stopped: UnknownReason = UnknownReason.NONE
    # Each function's key in the block cache (what its summaries are filed under), from the
    # run itself: callers never re-derive them.
    function_keys: dict[str, str] = field(default_factory=dict)
    # A violation confirmed while the search for further ones goes on (VerifyOptions.on_partial):
    # what is known so far, not the run's answer.
    partial: bool = False
    # Per function, its summary as the Horn-clause engine proved it (algorithms/horn/clauses.py), when that
    # engine decided the run: there are no block summaries then.
    invariants: dict[str, str] = field(default_factory=dict)
    # A violation the path check confirmed and its native run did not show (withdrawn from
    # ``violations``): the outcome, with where the evidence is kept.
    replay: Replay | None = None

    @property
    def cut_by_time(self) -> bool:
        """Whether an engine or a phase ran out of its share of the time: on a faster or slower
        machine another engine might have decided, with another path, or none."""
        return self.statistics.phases_cut_by_time > 0

    @property
    def final(self) -> bool:
        """Whether this is the answer any run with these options gives, so the cache may keep it:
        a verdict, or an UNKNOWN that no time would change (refinement made no progress, and
        nothing was cut by time)."""
        return self.verdict != "UNKNOWN" or (self.reason_kind == UnknownReason.NO_PROGRESS and not self.cut_by_time)

    def to_json(self) -> dict[str, Any]:
        return {**({"partial": True} if self.partial else {}), "file": self.file, "cut_by_time": self.cut_by_time, "verdict": self.verdict, "reason": self.reason,
                "reason_kind": str(self.reason_kind), "search_stopped": str(self.search_stopped),
                "search_cut_short": self.search_stopped != UnknownReason.NONE,
                "config": self.config,
                "data_model": self.data_model, "source": self.source,
                "unsupported": self.unsupported_range.to_json() if self.unsupported_range else None,
                "reason_range": self.reason_range.to_json() if self.reason_range else None,
                "violations": [v.to_json() for v in self.violations],
                "warnings": self.warnings, "statistics": self.statistics.to_json(),
                **({"invariants": self.invariants} if self.invariants else {}),
                **({"replay": self.replay.to_json()} if self.replay is not None else {})}
