"""The run's time limit as its solver calls see it, per analysis thread.

Kept apart from cex/encoding.py (the path encoding) so that the algorithms (BAM, CEGAR) can ask
whether the time is up, or whether a solver gave up, without importing a domain's encoding.
"""

from __future__ import annotations

import threading
import time

_run = threading.local()


def set_deadline(deadline: float | None) -> None:
    """The current run's deadline (time.monotonic), for this analysis thread's solver calls."""
    _run.deadline = deadline


def solver_gave_up() -> None:
    """Note that a solver call gave up (unknown) and its caller answered with less precision:
    an analysis that met this may compute another result from the same input than one that
    did not, so a difference then proves nothing about a cached result."""
    _run.gave_up = getattr(_run, "gave_up", 0) + 1


def solver_give_ups() -> int:
    """How often a solver call gave up on this thread so far (compare two readings)."""
    return getattr(_run, "gave_up", 0)


def seconds_left() -> float:
    """What is left of this thread's run (infinite without a limit, or outside a run)."""
    deadline = getattr(_run, "deadline", None)
    return float("inf") if deadline is None else deadline - time.monotonic()


def past_deadline() -> bool:
    deadline = getattr(_run, "deadline", None)
    return deadline is not None and time.monotonic() >= deadline


def solver_timeout(ms: int) -> int:
    """A solver call's timeout, cut to the run's remaining time: a single query must not
    carry a run past its deadline (its callers treat "unknown" soundly)."""
    deadline = getattr(_run, "deadline", None)
    if deadline is None:
        return max(1, ms)
    return max(1, min(ms, int((deadline - time.monotonic()) * 1000)))
