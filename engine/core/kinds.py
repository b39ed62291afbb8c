"""The kinds a result is made of: which engine decided it, why it has no verdict, what its
replay showed. Callers branch on these, never on a message.

Only ``enum`` is imported here: engine/api.py exports these names, and the process that answers an
unchanged source from the cache imports api.py and must stay light (no dataclasses, no typing).
"""

from __future__ import annotations

from enum import StrEnum


class DecidedBy(StrEnum):
    """The engine (or engines, in order) whose answer a run's is: the server's hover, the command
    line and the JSON read this, never a message."""

    NONE = ""  # nothing decided it (an UNKNOWN), or it came from the cache without one
    CEGAR = "cegar"
    INVARIANTS = "invariants"  # Spacer's whole-program invariants over the Horn clauses
    TEMPLATES = "templates"
    CPAREC = "cparec"
    K_INDUCTION = "k-induction"
    BMC = "bmc"  # k-induction's base case, or BMC through the recursion
    MERGED_BMC = "merged-bmc"
    PATHS = "paths"
    TESTING = "testing"
    CEGAR_PATHS = "cegar+paths"
    CEGAR_TESTING = "cegar+testing"
    CEGAR_MERGED_BMC = "cegar+merged-bmc"
    MERGED_BMC_PATHS = "merged-bmc+paths"
    SEVERAL = "several"  # a file's entry points, decided by different engines

    def proved_by_summaries(self) -> bool:
        """Whether the proof is a summary per function from an engine over the whole program
        (no block summaries exist then)."""
        return self in (DecidedBy.INVARIANTS, DecidedBy.TEMPLATES, DecidedBy.CPAREC, DecidedBy.K_INDUCTION)


class UnknownReason(StrEnum):
    """Why a run ended without a verdict; callers branch on this, never on the message."""

    NONE = ""  # the run has a verdict
    TIMEOUT = "timeout"
    CANCELLED = "cancelled"
    MEMORY = "memory"
    DEPTH = "depth"  # the program's call or path depth exceeds what cbam can handle
    UNSUPPORTED = "unsupported"  # a construct cbam cannot analyse is reachable
    UNCONFIRMED = "unconfirmed"  # an error path could be neither confirmed nor refuted
    NO_PROGRESS = "no-progress"  # refinement found nothing that rules the spurious path out
    NO_REFINER = "no-refiner"  # the configuration has no precision to refine
    BAD_OPTION = "bad-option"
    INTERNAL = "internal-error"  # a bug in cbam; the message says where
    CRASHED = "crashed"  # the analysing process died (a signal), twice or without time to try again
    # The path check confirmed a violation that the program, compiled by gcc with its test
    # harness and run, did not show (cex/native_replay.py): one of the two reads C wrongly.
    REPLAY_DISAGREES = "replay-disagrees"


class ReplayStatus(StrEnum):
    """What running a counterexample natively showed (cex/native_replay.py)."""

    PENDING = "pending"  # confirmed by the path check; the run has not ended yet
    REPLAYED = "replayed"  # the run showed the violation, of its kind, where the path check said
    NOT_REPLAYED = "not-replayed"  # it could not be run (the reason says why): the path check alone
    DISAGREES = "disagrees"  # the run did not show it: the violation is withdrawn


__all__ = ["DecidedBy", "ReplayStatus", "UnknownReason"]
