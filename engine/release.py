"""What a search cut by its time limit leaves behind, freed once the run's answer is out.

Freeing a search's state space holds the interpreter lock for as long as it takes: deep-nested's
800,000 states, cut at a 60 s limit, take most of a second. Freed where the search stops, that
second comes after the deadline (the command line's guard then kills the analysis as overrunning
it). So the search hands what it built to ``later``; ``now`` frees it: the language server's
worker calls it once a job's answer is sent, a run calls it when it starts (a library's caller
keeps at most one run's leftovers), and the command line's analysis process ends with
``os._exit`` and never pays for it.
"""

from __future__ import annotations

_kept: list[object] = []


def later(*objects: object) -> None:
    _kept.extend(objects)


def now() -> None:
    _kept.clear()


def pending() -> int:
    return len(_kept)
