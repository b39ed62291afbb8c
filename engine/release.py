"""What a search cut by its time limit leaves behind, freed once the run's answer is out.

Freeing a search's state space holds the interpreter lock for as long as it takes: deep-nested's
800,000 states, cut at a 60 s limit, take most of a second. Freed where the search stops, that
second comes after the deadline (the command line's guard then kills the analysis as overrunning
it). So the search hands what it built to ``later``; ``now`` frees it: the language server's
worker calls it once a job's answer is sent, a run calls it when it starts (a library's caller
keeps at most one run's leftovers), and the command line's analysis process ends with
``os._exit`` and never pays for it.

Freed at once, even after the answer, the same time is a wait for whatever comes next: on bench's
100-function program, the language server's worker spent 44-54 ms freeing the multi-violation
search it had just answered, and the edit saved right after it waited up to 30 ms of that before
its job started. So ``now`` can free in steps, asking between steps whether to stop. It empties
containers one item at a time, from their ends (a state space's lists hold states in the order
they were made, so a state goes before the parent it keeps alive), takes objects apart into what
they alone hold, and follows a state's parent (a path held by its last state would otherwise go
at once). Only what nothing else holds is taken apart or emptied (reference counts), so what the
rest of the process still uses is never changed. What a stop leaves is kept for the next call,
out of the way of the next run's start.
"""

from __future__ import annotations

import sys
from collections import deque
from collections.abc import Callable
from time import perf_counter

_kept: list[object] = []
_aside: list[object] = []  # what a stopped now(stop) left: before_run leaves it alone

_STEP_SECONDS = 0.001  # how long a step frees before asking whether to stop


def later(*objects: object) -> None:
    _kept.extend(objects)


def before_run() -> None:
    """A run starts: what earlier runs left is freed now, except what a stopped ``now(stop)``
    left (it goes on at the next such call: freed here, it would cost the run that a waiting
    job started)."""
    _kept.clear()


def now(stop: Callable[[], bool] | None = None) -> bool:
    """Free what was kept. With ``stop``: in steps, asking ``stop()`` between them; False when it
    said to stop, with the rest kept for the next call (and out of ``before_run``'s way)."""
    if stop is None:
        _kept.clear()
        _aside.clear()
        return True
    _kept.extend(_aside)
    _aside.clear()
    work = _kept
    step_end = perf_counter() + _STEP_SECONDS
    while work:
        if perf_counter() >= step_end:
            if stop():
                _aside.extend(work)
                work.clear()
                return False
            step_end = perf_counter() + _STEP_SECONDS
        top = work[-1]
        # Emptied only when nothing else holds it (the work list, ``top`` and the call's
        # argument are the three references): what others still use is never changed. (Not
        # a subclass: one may be held weakly, where the count does not show it.)
        if type(top) in _CONTAINERS and top and sys.getrefcount(top) <= 3:
            item = top.popitem()[1] if type(top) is dict else top.pop()  # type: ignore[attr-defined]
            if _worth_splitting(item):
                work.append(item)
            del item  # freed here, unless it was worth splitting (then in steps)
            continue
        work.pop()
        if sys.getrefcount(top) <= 2:  # ``top`` and the argument: freeing it frees its parts
            work.extend(_parts(top))
        del top
    return True


def pending() -> int:
    return len(_kept) + len(_aside)


_CONTAINERS = (list, dict, set, deque)
_SPLIT: dict[type, tuple[str, ...] | None] = {}  # per type: the slots to follow, or None (not split)


def _split_slots(cls: type) -> tuple[str, ...] | None:
    try:
        return _SPLIT[cls]
    except KeyError:
        pass
    names: tuple[str, ...] | None = None
    if not issubclass(cls, type) and (issubclass(cls, BaseException) or cls.__dictoffset__ or
                                      any(getattr(c, "__slots__", ()) for c in cls.__mro__)):
        names = tuple(n for c in cls.__mro__ for n in _names(getattr(c, "__slots__", ()))
                      if n not in ("__dict__", "__weakref__"))
    _SPLIT[cls] = names
    return names


def _names(slots: object) -> tuple[str, ...]:
    return (slots,) if isinstance(slots, str) else tuple(slots)  # type: ignore[arg-type]


def _worth_splitting(x: object) -> bool:
    if type(x) in _CONTAINERS:
        return len(x) > 0  # type: ignore[arg-type]  # a small container may hold big ones (a reached set by location)
    return _split_slots(type(x)) is not None


def _parts(x: object) -> list[object]:
    """What ``x`` alone holds that is worth freeing in steps; the rest goes with ``x`` (or with
    whatever else holds it). A state's parent is one of them: a path of states, freed from its
    end, would otherwise go at once."""
    values: list[object] = []
    out: list[object] = []
    if isinstance(x, BaseException):
        tb = x.__traceback__
        x.__traceback__ = None
        while tb is not None:  # the frames the search was cut in: their states
            out.extend(v for v in tb.tb_frame.f_locals.values() if _worth_splitting(v))
            tb = tb.tb_next
    if type(x) in (list, tuple, set, deque):
        values.extend(x)  # type: ignore[arg-type]  # (a list, tuple, set or deque)
    elif type(x) is dict:
        values.extend(x.values())
    else:
        attrs = getattr(x, "__dict__", None)
        if type(attrs) is dict:
            values.extend(attrs.values())
        for name in _split_slots(type(x)) or ():
            values.append(getattr(x, name, None))
    for v in values:
        # Held by ``x``, ``values``, ``v`` and the argument alone: freed with ``x`` unless kept.
        if sys.getrefcount(v) <= 4 and _worth_splitting(v):
            out.append(v)
    return out
