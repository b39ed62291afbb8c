"""engine/release.py: what a search cut by its limit leaves is freed after the answer, in steps
that a waiting job can interrupt, without touching anything the rest of the process still uses."""

from __future__ import annotations

import gc
import weakref

import pytest
from cbam.engine import api, release


class Node:
    """A state of a path: a child holds its parent, as ARGState does."""

    __slots__ = ("parent", "payload", "__weakref__")

    def __init__(self, parent: Node | None, payload: object = None) -> None:
        self.parent = parent
        self.payload = payload


class Search:
    """An object with attributes, as the BAM is."""

    def __init__(self, reached: list, shared: dict) -> None:
        self.reached = reached
        self.shared = shared
        self.by_location = {"loc": reached[-10:]}


@pytest.fixture(autouse=True)
def _empty() -> None:
    release.now()
    yield
    release.now()


@pytest.fixture
def one_item_steps(monkeypatch) -> None:
    monkeypatch.setattr(release, "_STEP_SECONDS", 0.0)  # stop() is asked after every item


def _path(n: int) -> list[Node]:
    out = [Node(None)]
    for _ in range(n - 1):
        out.append(Node(out[-1]))
    return out


def test_a_path_is_freed_a_few_states_a_step(one_item_steps) -> None:
    """A path of states held only by its last state went at once when that state was freed
    (45-55 ms on bench's program, most of a second on deep-nested): the language server's next
    job waited that long. Its parents are followed one by one instead."""
    path = _path(2000)
    alive = [weakref.ref(s) for s in path]
    last = path[-1]
    del path
    release.later(last)
    del last
    counts: list[int] = []

    def stop() -> bool:
        counts.append(sum(r() is not None for r in alive))
        return False

    assert release.now(stop) is True
    assert all(r() is None for r in alive)
    assert len(counts) > 1000
    assert max(a - b for a, b in zip(counts, counts[1:])) <= 2


def test_what_the_process_still_uses_is_never_changed(one_item_steps) -> None:
    shared_list = [Node(None) for _ in range(100)]
    shared_dict = {i: Node(None) for i in range(100)}
    shared_node = Node(None, payload=shared_list)
    mine = _path(500)
    mine[0].payload = shared_node  # the root of a search's path holds what the program holds
    search = Search(mine + shared_list, shared_dict)
    probe = weakref.ref(mine[250])
    del mine
    release.later(search, [shared_list, search])
    del search
    assert release.now(lambda: False) is True
    assert probe() is None
    assert len(shared_list) == 100 and len(shared_dict) == 100
    assert shared_node.payload is shared_list and shared_node.parent is None


def test_a_waiting_job_stops_the_freeing_and_the_rest_is_freed_after_it(one_item_steps) -> None:
    path = _path(1000)
    first, last = weakref.ref(path[0]), path[-1]
    del path
    release.later(last)
    del last
    asks = iter([False] * 10 + [True])
    assert api.release_leftovers(stop=lambda: next(asks)) is False  # a job arrived
    assert release.pending() > 0 and first() is not None
    # The job that arrived runs: its start leaves the rest alone (freeing it there would cost
    # the job its time), and its own cut search is kept beside it.
    release.before_run()
    mine = weakref.ref(_node := Node(None))
    release.later(_node)
    del _node
    assert first() is not None and mine() is not None
    assert api.release_leftovers(stop=lambda: False) is True
    assert release.pending() == 0 and first() is None and mine() is None


def test_a_cut_search_in_frames_is_freed_in_steps(one_item_steps) -> None:
    """The exception that cut a search holds the frames it was cut in, and their states."""

    def search(n: int) -> None:
        reached = _path(n)  # noqa: F841  (held by the frame, as run_cpa's reached states are)
        by_location = {"loop": reached}  # noqa: F841
        raise TimeoutError("budget")

    try:
        search(3000)
    except TimeoutError as exc:
        frame = exc.__traceback__.tb_next.tb_frame  # type: ignore[union-attr]
        probe = weakref.ref(frame.f_locals["reached"][1500])
        release.later(exc)
        del frame
    gc.collect()
    counts: list[int] = []
    assert release.now(lambda: counts.append(1 if probe() is not None else 0) or False) is True
    assert probe() is None
    assert len(counts) > 1000  # not at once


def test_without_stop_everything_goes_at_once_what_a_stop_left_too(one_item_steps) -> None:
    release.later(_path(10)[-1])
    assert release.now(lambda: True) is False  # stopped: kept out of before_run's way
    release.later(_path(10)[-1])
    assert release.pending() == 2
    assert api.release_leftovers() is True  # the memory limit was reached: free it all
    assert release.pending() == 0
