"""The CPA algorithm (Théoduloz 2010, Alg. 4.1 / Beyer & Löwe 2012, Alg. 1) over one block.

The successor function is supplied by the caller (BAM), so block abstractions at
call edges stay outside this loop, and this loop stays outside any domain.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

from .arg import ARGState
from .cpa import CompositeCPA


class Budget:
    """The time limit (and cancellation) of a verification run or phase."""

    def __init__(self, timeout: float | None, cancel: Callable[[], bool] | None = None,
                 extra_after_violation: float | None = None):
        self.deadline = (time.monotonic() + timeout) if timeout else None
        self.states = 0
        self._polls = 0
        self.cancel = cancel
        self.extra_after_violation = extra_after_violation

    def violation_found(self) -> None:
        """Once one violation is confirmed, further ones get only a bounded extra search."""
        if self.extra_after_violation is not None:
            limit = time.monotonic() + self.extra_after_violation
            self.deadline = limit if self.deadline is None else min(self.deadline, limit)

    def tick(self) -> None:
        self.states += 1
        if self.states & 0xFF == 0:
            self.check()

    def poll(self) -> None:
        """A cheap check for long loops outside the state space (path reconstruction, path
        encoding): the clock is read every 256th call."""
        self._polls += 1
        if self._polls & 0xFF == 0:
            self.check()

    def check(self) -> None:
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise BudgetExceeded("timeout")
        if self.cancel is not None and self.cancel():
            raise BudgetExceeded("cancelled")


class BudgetExceeded(Exception):
    def __init__(self, reason: str):
        self.reason = reason
        super().__init__(reason)


@dataclass
class Successors:
    """A state's successors, and the targets reached on the way."""

    states: list[ARGState] = field(default_factory=list)
    targets: list[object] = field(default_factory=list)  # opaque target records, propagated upward


def run_cpa(cpa: CompositeCPA, root: ARGState, successors: Callable[[ARGState], Successors],
            is_stop_location: Callable[[ARGState], bool], prec: dict, budget: Budget,
            order: str = "dfs") -> tuple[list[ARGState], list[object]]:
    """Explore from ``root``; returns (reached states, targets). Stops at the first target."""
    joins = any(c.joins for c in cpa.components)
    # With merges, reached states are kept per location and merged into. Without, stop uses
    # an index of the reached states (see _CoverageIndex), which keeps long loops with many
    # distinct states from costing quadratic time.
    reached: dict[object, list[ARGState]] = {root.location: [root]}
    index: dict[object, _CoverageIndex] = {}
    if not joins:
        index[root.location] = _CoverageIndex()
        index[root.location].add(root.state, cpa.coverage_items(root.state))
    all_states = [root]
    waitlist: deque[ARGState] = deque([root])
    pop = waitlist.pop if order == "dfs" else waitlist.popleft
    while waitlist:
        s = pop()
        if is_stop_location(s):
            continue
        budget.tick()
        succ = successors(s)
        if succ.targets:
            return all_states, succ.targets
        for s2 in succ.states:
            loc = s2.location
            if loc.error is not None:
                return all_states + [s2], [s2]
            if joins:
                bucket = reached.setdefault(loc, [])
                for i, old in enumerate(bucket):
                    merged = cpa.merge(s2.state, old.state, prec, loc)
                    if merged is not old.state and merged != old.state:
                        repl = ARGState(merged, old.parent, old.edge, old.summary_exit)
                        bucket[i] = repl
                        all_states.append(repl)
                        waitlist.append(repl)
                if cpa.stop(s2.state, [b.state for b in bucket], prec):
                    continue
                bucket.append(s2)
            else:
                items = cpa.coverage_items(s2.state)
                idx = index.setdefault(loc, _CoverageIndex())
                if any(cpa.is_less_or_equal(s2.state, c) for c in idx.candidates(items)):
                    continue
                idx.add(s2.state, items)
            all_states.append(s2)
            waitlist.append(s2)
    return all_states, []


class _CoverageIndex:
    """Reached states of one location, grouped by the keys of their coverage items.

    Items are (key, value) pairs, and a reached state can cover a new one only if its pairs are
    among the new one's; so per group of reached states with key set K, the candidates are the
    members with the new state's values on K: one hash lookup per key set (usually a handful).
    """

    __slots__ = ("groups", "orders")

    def __init__(self) -> None:
        self.groups: dict[frozenset, dict[tuple, list]] = {}
        self.orders: dict[frozenset, tuple] = {}

    def add(self, state, items) -> None:
        d = dict(items)
        keys = frozenset(d)
        order = self.orders.get(keys)
        if order is None:
            order = self.orders[keys] = tuple(sorted(keys, key=repr))
        self.groups.setdefault(keys, {}).setdefault(tuple(d[k] for k in order), []).append(state)

    def candidates(self, items):
        d = dict(items)
        mine = d.keys()
        for keys, group in self.groups.items():
            if keys <= mine:
                yield from group.get(tuple(d[k] for k in self.orders[keys]), ())
