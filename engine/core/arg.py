"""The abstract reachability graph: states with their parents, for counterexamples."""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

from ..cfa.ir import Edge

_ids = itertools.count()


@dataclass(eq=False, slots=True)
class ARGState:
    """A wrapped composite state. ``edge`` led here from ``parent``.

    For a state created by applying a block abstraction at a call, ``edge`` is the
    CallEdge and ``summary_exit`` is the callee's exit state inside its own (cached)
    block analysis, so the path can be spliced through it later.
    """

    state: tuple
    parent: ARGState | None = None
    edge: Edge | None = None
    summary_exit: ARGState | None = None
    id: int = field(default_factory=lambda: next(_ids))
    origin: tuple | None = None  # (block name, reduced entry, precision) of an exit loaded from the cache

    @property
    def location(self):
        return self.state[0]


def block_root(s: ARGState) -> ARGState:
    while s.parent is not None:
        s = s.parent
    return s
