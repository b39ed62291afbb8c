"""The collector during a run (engine/collector.py): full collections freeze what survives them,
until the run ends; nothing stays frozen after it, and cycles are still freed."""

from __future__ import annotations

import gc
import weakref

from cbam.engine import collector


class _Node:
    def __init__(self) -> None:
        self.other: _Node | None = None


def test_survivors_of_a_full_collection_are_frozen_until_the_run_ends() -> None:
    gc.unfreeze()
    kept = [[i] for i in range(1000)]  # noqa: F841 - alive through the run
    with collector.during_run():
        gc.collect()  # a full collection, as CPython starts one on its own
        assert gc.get_freeze_count() >= 1000
        with collector.during_run():  # a run within the run keeps the outer setting
            gc.collect()
        assert gc.get_freeze_count() >= 1000
        a, b = _Node(), _Node()
        a.other, b.other = b, a  # a cycle among objects made after the freeze
        gone = weakref.ref(a)
        del a, b
        gc.collect(0)  # a young collection still frees it
        assert gone() is None
    assert gc.get_freeze_count() == 0
    gc.collect()
    assert gc.get_freeze_count() == 0  # the callback is gone with the run


def test_a_cycle_among_frozen_objects_is_freed_after_the_run() -> None:
    gc.unfreeze()
    a, b = _Node(), _Node()
    a.other, b.other = b, a
    gone = weakref.ref(a)
    with collector.during_run():
        gc.collect()  # a and b survive it (still referenced) and are frozen
        del a, b  # now garbage, out of the collector's sight
        gc.collect()
        assert gone() is not None
    gc.collect()
    assert gone() is None
