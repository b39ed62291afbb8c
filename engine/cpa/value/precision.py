"""Value-analysis precision: which variables are tracked where (Beyer & Löwe 2012, §III-F).

Refinement finds (location, variable) pairs; with scoped refinement (the default) a local
variable is then tracked in its whole function and a global everywhere, which avoids a
second refinement for the same variable on another branch. A local object that another
function reaches through a pointer is tracked in that function as well, where the
interpolant needs it there.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from typing import TYPE_CHECKING

from ...cfa.cfa import Program
from ...cfa.ir import CFANode
from . import memory as mem

if TYPE_CHECKING:
    from ...core.cpa import Block


class ValuePrecision:
    def __init__(self, scoped: dict[str, frozenset[str]] | None = None,
                 local: dict[str, frozenset[str]] | None = None,
                 global_vars: frozenset[str] = frozenset(), track_all: bool = False):
        self.scoped = scoped or {}  # function -> variables tracked in all of it
        self.local = local or {}  # node key -> variables tracked at that node only
        self.global_vars = global_vars
        self.track_all = track_all
        self._keys: dict[str, Hashable] = {}

    def tracks(self, node: CFANode, var: str) -> bool:
        if self.track_all or var in self.global_vars:
            return True
        s = self.scoped.get(node.function)
        if s is not None and var in s:
            return True
        loc = self.local.get(node.key)
        return loc is not None and var in loc

    def key_for(self, block: Block) -> Hashable:
        key = self._keys.get(block.name)
        if key is None:
            if self.track_all:
                key = "all"
            else:
                fs = tuple(sorted((f, tuple(sorted(self.scoped[f]))) for f in block.functions if f in self.scoped))
                gs = tuple(sorted(g for g in self.global_vars if g in block.vars or mem.is_allocation_site(g)))
                ls = tuple(sorted((n, tuple(sorted(v))) for n, v in self.local.items()
                                  if n.split(":", 1)[0] in block.functions))
                key = (fs, gs, ls)
            self._keys[block.name] = key
        return key

    def refined(self, pairs: Iterable[tuple[CFANode, str]], program: Program, scoped: bool = True) -> ValuePrecision:
        new_scoped = dict(self.scoped)
        new_local = dict(self.local)
        new_globals = set(self.global_vars)
        for node, var in pairs:
            if mem.is_allocation_site(var):  # its objects outlive the function that made them
                new_globals.add(var)
                continue
            info = program.vars.get(var)
            if info is None:
                continue
            if info.is_global:
                new_globals.add(var)
            elif scoped:
                # A local object is read and written through pointers in other functions too
                # (``push(&r)``): it is tracked in its own function and wherever the interpolant
                # needs it, or a callee would forget what it writes there and the same path
                # would come back after every refinement.
                for fn in {info.function or node.function, node.function}:
                    new_scoped[fn] = new_scoped.get(fn, frozenset()) | {var}
            else:
                new_local[node.key] = new_local.get(node.key, frozenset()) | {var}
        return ValuePrecision(new_scoped, new_local, frozenset(new_globals), self.track_all)

    def size(self) -> int:
        return len(self.global_vars) + sum(len(v) for v in self.scoped.values()) + sum(
            len(v) for v in self.local.values())

    def same_as(self, other: ValuePrecision) -> bool:
        return (self.scoped == other.scoped and self.local == other.local and self.global_vars == other.global_vars
                and self.track_all == other.track_all)

    def to_json(self) -> dict:
        return {
            "globals": sorted(self.global_vars),
            "functions": {f: sorted(v) for f, v in sorted(self.scoped.items())},
            "locations": {n: sorted(v) for n, v in sorted(self.local.items())},
            "track_all": self.track_all,
        }

    @staticmethod
    def from_json(data: dict) -> ValuePrecision:
        return ValuePrecision(
            {f: frozenset(v) for f, v in data.get("functions", {}).items()},
            {n: frozenset(v) for n, v in data.get("locations", {}).items()},
            frozenset(data.get("globals", [])),
            bool(data.get("track_all", False)),
        )
