"""The cyclic garbage collector during a run: what survives a full collection is frozen out of
the next one.

A long run builds a large heap that lives until the run ends (the state space, the path
encodings' z3 terms) and churns through short-lived objects, which go by reference counts.
CPython starts a full collection when the objects promoted since the last one reach a quarter
of those it found then, and each walks the whole heap: on bench/memory's array-crafted/xor4 (60
s), 19 full collections took 10 s in all, the last ones 1.3-1.8 s each, and found nothing to
free (the analyses make few reference cycles). A pause that long is also past what the command
line's guard allows after the time limit (1 s): xor4 and nested-3 were stopped as overrunning
it, though every loop of the analysis polls the clock.

So during a run, after each full collection, what survived it is frozen (``gc.freeze``): the
next full collection walks only what came after. Young collections are unchanged, so cycles
among new objects are still found. A cycle that forms among frozen objects waits for the end
of the run, when they are unfrozen; what a run leaves behind is taken apart by release.py.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any


def _freeze_survivors(phase: str, info: dict[str, Any]) -> None:
    if phase == "stop" and info.get("generation") == 2:
        gc.freeze()


@contextmanager
def during_run() -> Iterator[None]:
    """Full collections freeze what they keep, until the run ends (a run within a run, the
    self-check's, keeps the outer one's setting)."""
    if _freeze_survivors in gc.callbacks:
        yield
        return
    gc.callbacks.append(_freeze_survivors)
    try:
        yield
    finally:
        gc.callbacks.remove(_freeze_survivors)
        gc.unfreeze()
