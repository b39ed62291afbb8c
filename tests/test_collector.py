"""The collector during a run (engine/collector.py): full collections freeze what survives them,
a complete one follows once the frozen objects have doubled (not in the run's last seconds),
nothing stays frozen after the run, and cycles are still freed."""

from __future__ import annotations

import gc
import time
import weakref

import pytest
from cbam.engine import collector


@pytest.fixture(autouse=True)
def _explicit_collections_only():
    """The collections each test starts, none that its allocations would (they would move
    the counts the tests read)."""
    gc.unfreeze()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
        gc.unfreeze()


class _Node:
    def __init__(self) -> None:
        self.other: _Node | None = None


def test_survivors_of_a_full_collection_are_frozen_until_the_run_ends() -> None:
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


def test_once_the_frozen_objects_have_doubled_the_next_full_collection_walks_the_heap() -> None:
    from cbam.engine.smt import time_limit

    with collector.during_run():
        gc.collect()
        base = gc.get_freeze_count()
        a, b = _Node(), _Node()
        a.other, b.other = b, a
        gone = weakref.ref(a)
        gc.collect()  # a and b are frozen with the rest
        del a, b
        grown = [[i] for i in range(int(collector.GROWTH * base) + 1000)]
        time_limit.set_deadline(None)
        gc.collect()  # frozen objects more than doubled: unfrozen for a complete collection
        assert gc.get_freeze_count() == 0
        gc.collect()  # ... which frees the cycle among them
        assert gone() is None
        assert gc.get_freeze_count() >= len(grown)
        more = [[i] for i in range(2 * gc.get_freeze_count() + 1000)]
        time_limit.set_deadline(time.monotonic() + 1)  # within the run's last seconds: no whole-heap pause
        try:
            gc.collect()
            assert gc.get_freeze_count() > len(more)
        finally:
            time_limit.set_deadline(None)
    assert gc.get_freeze_count() == 0


def test_a_caller_that_froze_objects_keeps_managing_the_collector() -> None:
    """The language server's worker freezes after each job and collects when idle: a run
    neither walks the worker's frozen objects for a small growth nor unfreezes them at its end."""
    kept = [[i] for i in range(20_000)]  # noqa: F841 - the worker's caches, say
    gc.freeze()
    before = gc.get_freeze_count()
    with collector.during_run():
        made = [[i] for i in range(1000)]  # noqa: F841 - far from doubling the heap
        gc.collect()
        assert gc.get_freeze_count() >= before + 1000
    assert gc.get_freeze_count() >= before + 1000  # left frozen for the caller
