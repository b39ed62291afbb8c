"""The cyclic garbage collector during a run: what survives a full collection is frozen out of
the next ones, until the heap has doubled.

A long run builds a large heap that lives until the run ends (the state space, the path
encodings' z3 terms) and churns through short-lived objects, which mostly go by reference
counts. CPython starts a full collection when the objects promoted since the last one reach a
quarter of those it found then, and each walks the whole heap: on bench/memory's
array-crafted/xor4 (60 s), 19 full collections took 10 s in all, the last ones 1.3-1.8 s each,
and freed nothing. A pause that long is also past what the command line's guard allows after
the time limit (1 s): xor4 and nested-3 were stopped as overrunning it, though every loop of the
analysis polls the clock.

So during a run, after each full collection, what survived it is frozen (``gc.freeze``): the
next full collection walks only what came after. Frozen objects are still freed by their
reference counts, but a cycle among them is not: on array-multidimensional/transpose-u, 2 of
5.4 million frozen objects were such cycles by the end (peak memory 1,019 MB against 624 MB).
So once the frozen objects have doubled (``GROWTH``) since the last complete collection, they
are unfrozen and the next full collection walks the whole heap again: the collector's work
stays linear in the heap's growth, and the garbage it has not seen at most what came since.
Not in the run's last ``LATE_SECONDS``, where a whole-heap pause would carry the run past its
limit. Young collections are unchanged. At the end of the run everything is unfrozen, unless
the caller froze objects before it (``during_run``).
transpose-u for 45 s, two runs side by side: the collector's time 8.0 s without this, 2.8 s
with it (longest pause 1.5 s and 1.05 s), peak memory 513 and 542 MB; with a growth of 1.5,
3.9 s and 542 MB; of 4, 2.1 s and 726 MB.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from .smt.time_limit import seconds_left

GROWTH = 2.0  # frozen objects, against those after the last complete collection, that call for another
LATE_SECONDS = 5.0  # of the run's time left, within which no complete collection is called for

_complete = [0]  # the frozen objects right after the last complete collection


def _after_full(phase: str, info: dict[str, Any]) -> None:
    if phase != "stop" or info.get("generation") != 2:
        return
    complete = gc.get_freeze_count() == 0  # this collection walked the whole heap
    gc.freeze()
    frozen = gc.get_freeze_count()
    if complete:
        _complete[0] = frozen
    elif frozen > GROWTH * _complete[0] and seconds_left() > LATE_SECONDS:
        gc.unfreeze()  # the next full collection is a complete one


@contextmanager
def during_run() -> Iterator[None]:
    """Full collections freeze what they keep while the run lasts (a run within a run, the
    self-check's, keeps the outer one's setting). A caller that froze objects before the run
    manages the collector itself (the language server's worker freezes after each job and
    collects when idle; the command line freezes what loading made): their count is the first
    complete collection's, and what the run froze stays frozen for the caller. Otherwise the
    run unfreezes everything at its end."""
    if _after_full in gc.callbacks:
        yield
        return
    before = gc.get_freeze_count()
    _complete[0] = before
    gc.callbacks.append(_after_full)
    try:
        yield
    finally:
        gc.callbacks.remove(_after_full)
        if not before:
            gc.unfreeze()
