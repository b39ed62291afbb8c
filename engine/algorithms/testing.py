"""Violations found by running the program: random tests whose path to an error is replayed.

Symbolic engines pay for depth: BMC through a recursion grows a formula per call instance
(``ackermann(2, 3)`` is past what it unwinds in a minute), and a loop that multiplies before it
fails gives the solver nonlinear bit-vector arithmetic. A run pays per step. So the program runs
from its start (runs.py's ``Walk``: the CFA interpreted with C's machine integers), each
nondeterministic value drawn at random: a third of them small (within [-16, 16]), a third one of
the program's constants or a neighbour of it (where comparisons put the interesting values),
the rest a bound of the value's type. A run that ends at an error location has taken a path,
and the values it drew are that path's inputs, in order: the path is confirmed by running it
again with them (replay.py, exactly the bit-vector semantics of the path check), so the
violation is reported, replayed and cached like any other, with a harness. A path that relies
on a signed overflow (which gcc wraps around, and the report says so) is kept only until a run
reaches the same location without one, or the time is up.

It only finds violations; a run that does not reach an error says nothing. A program that
touches memory is left to the other engines (the runs do not model it).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from ..cex.feasibility import Confirmed
from ..cex.replay import replay
from ..cfa.cfa import Program
from ..cfa.ctype import IntType
from ..cfa.ir import CFANode, Const
from ..cfa.traits import uses_memory
from ..core.cpa_algorithm import Budget
from ..core.path import ErrorPath
from .horn.cells import edge_exprs
from .runs import RANDOM_RANGE, Walk

MAX_STEPS = 5_000  # CFA edges per run: a longer run ends there, without an answer (runs that recurse
# or loop on and on are most of a random sample; at 20,000 they took four times as long to reach
# ackermann(2, 3)'s violation, 257 edges deep)
MAX_CONSTANTS = 64  # of the program's, as values to draw (with their neighbours)
MAX_RUNS = 100_000  # a budget without a time limit still ends


def find(program: Program, budget: Budget, wanted: int, excluded: dict[int, CFANode] | None = None,
         on_confirmed: Callable[[Confirmed], None] | None = None) -> list[Confirmed]:
    """Up to ``wanted`` violations at distinct error locations (not in ``excluded``, which gains
    theirs), from runs until the budget's time is up, it is cancelled, or ``MAX_RUNS`` ran."""
    if uses_memory(program):
        return []
    excluded = {} if excluded is None else excluded
    constants = _constants(program)
    rng = random.Random(0)
    out: list[Confirmed] = []
    overflowing: dict[int, Confirmed] = {}  # per error location, a path through a signed overflow

    def draw(r: random.Random, t: IntType) -> int:
        pick = r.random()
        if pick < 1 / 3 or not constants:
            return r.randint(max(t.min, -RANDOM_RANGE), min(t.max, RANDOM_RANGE))
        if pick < 2 / 3:
            return t.wrap(r.choice(constants) + r.choice((-1, 0, 0, 1)))
        return r.choice((t.min, t.max, t.min + 1, t.max - 1))

    for _ in range(MAX_RUNS):
        if len(out) >= wanted or _over(budget):
            break
        walk = Walk(program, None, rng, draw=draw)
        walk.steps = []
        walk.walk(MAX_STEPS)
        node = walk.reached
        if node is None or node.error is None or id(node) in excluded:
            continue
        path = ErrorPath(walk.steps, node.error, node)
        feas = replay(program, path, list(walk.drawn))
        if feas is None or feas.status != "sat":
            continue  # (the run went where the path check would not: an undefined operation, say)
        if feas.overflow_steps:
            overflowing.setdefault(id(node), Confirmed(path, feas))
            continue
        overflowing.pop(id(node), None)
        _report(Confirmed(path, feas), out, excluded, on_confirmed)
    for found in list(overflowing.values())[:wanted - len(out)]:
        _report(found, out, excluded, on_confirmed)
    return out


def _report(found: Confirmed, out: list[Confirmed], excluded: dict[int, CFANode],
            on_confirmed: Callable[[Confirmed], None] | None) -> None:
    out.append(found)
    excluded[id(found.path.error_node)] = found.path.error_node
    if on_confirmed is not None:
        on_confirmed(found)


def _over(budget: Budget) -> bool:
    return (budget.deadline is not None and time.monotonic() > budget.deadline
            or budget.cancel is not None and budget.cancel())


def _constants(program: Program) -> list[int]:
    """The integer constants the program's code mentions (the first ``MAX_CONSTANTS``)."""
    seen: dict[int, None] = {}
    for f in program.all_functions():
        for e in f.edges():
            for x in edge_exprs(e):
                for sub in (x.walk() if x is not None else ()):
                    if isinstance(sub, Const) and isinstance(sub.value, int) and not isinstance(sub.value, bool):
                        seen.setdefault(sub.value, None)
                        if len(seen) >= MAX_CONSTANTS:
                            return list(seen)
    return list(seen)
