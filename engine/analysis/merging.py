"""The exact path encoding (smt.PathEncoder) for states that stand for many paths at once:
what merged-path BMC (analysis/merged.py) runs each step with, and how two such states
become one.

Two states at the same point of the unrolled program merge under the path condition ``p`` of
the first: each variable becomes ``If(p, a, b)``, memory likewise (analysis/flatmemory.py), so
a model that makes ``p`` true sees exactly the first state's values and one that makes it
false the second's. For that every name must mean the same on both sides: z3 names are
unique across the round (one counter for every state: two states that each made their own
``x#5`` would otherwise share it once merged), and memory object ids are functions of what
created the object. A variable that only one side has read or written is arbitrary on the
other (as its first read there would have made it).

Undefined behaviour is an arbitrary value, as in path exploration (paths._Encoder).
"""

from __future__ import annotations

import copy
from typing import Any

import z3

from ..cfa.cfa import Program
from ..cfa.ctype import CType
from . import flatmemory
from .feasibility import Encoding
from .flatmemory import FlatMemory, Names, counter_property, same
from .paths import _Encoder


class MergeEncoder(_Encoder):
    """The path encoding with undefined behaviour as an arbitrary value (path exploration's),
    memory without arrays, fresh names unique across states, and each new variable's
    definition kept apart from the path's conditions (``defs``: a definition constrains only its
    fresh variable, so it holds on every path and goes to the solver once)."""

    counter = counter_property()  # type: ignore[assignment]

    def __init__(self, program: Program, names: Names):
        self._names = names
        super().__init__(program)
        self.mem: FlatMemory = FlatMemory(program, names)  # type: ignore[assignment]
        self.defs: list[z3.BoolRef] = []

    def write(self, name: str, t: CType, value: Any, frame: int, step: int) -> None:
        key = self.inst(name, frame)
        if isinstance(value, int):
            v = value
        elif z3.is_bv_value(value):
            v = value.as_long()
        elif flatmemory.values(value):
            v = value  # one of a few values (a pointer among some objects): its structure stays visible
        else:
            v = self.fresh(key, t)
            self.defs.append(v == value)
        self.cur[key] = v

    def clone(self) -> MergeEncoder:  # type: ignore[override]
        new = copy.copy(self)
        new.cur = dict(self.cur)
        new.live_frames = list(self.live_frames)
        new.stack = list(self.stack)
        new.enc = Encoding()
        new.defs = []
        new.mem = self.mem.clone()
        return new

    def forget_frame(self, frame: int) -> None:
        """A call returned: its plain variables are never read again (frames are not reused)."""
        suffix = f"@{frame}"
        for k in [k for k in self.cur if k.endswith(suffix)]:
            del self.cur[k]

    def type_of(self, key: str) -> CType:
        """The type of the variable stored under ``key`` (``name@frame`` or a global's name)."""
        return self.vars[key.rsplit("@", 1)[0]].type


def mergeable(a: MergeEncoder, b: MergeEncoder) -> bool:
    """Whether two states at the same point can be merged exactly (the point gives them the
    same calls and frames; memory must agree on object ids)."""
    return a.stack == b.stack and a.live_frames == b.live_frames and flatmemory.mergeable(a.mem, b.mem)


def merge(a: MergeEncoder, b: MergeEncoder, p: z3.BoolRef) -> MergeEncoder:
    """The encoding that is ``a``'s where ``p`` holds and ``b``'s elsewhere (``mergeable(a, b)``
    must hold). ``a`` and ``b`` are consumed."""
    flatmemory.complete(a.mem, b.mem, a.live_frames)
    flatmemory.complete(b.mem, a.mem, a.live_frames)
    cur: dict[str, Any] = {}
    for k in a.cur.keys() | b.cur.keys():
        va, vb = a.cur.get(k), b.cur.get(k)
        if va is not None and vb is not None and same(va, vb):
            cur[k] = va
            continue
        t = a.type_of(k)
        if va is None:  # never read or written on that side: any value, as a first read gives
            va = a.fresh(k, t)
        if vb is None:
            vb = b.fresh(k, t)
        bits = a.width(t)
        cur[k] = z3.If(p, z3.BitVecVal(va, bits) if isinstance(va, int) else va,
                       z3.BitVecVal(vb, bits) if isinstance(vb, int) else vb)
    out = copy.copy(a)
    out.cur = cur
    out.mem = flatmemory.merge_memory(a.mem, b.mem, p)
    out.live_frames, out.stack = list(a.live_frames), list(a.stack)
    out.enc = Encoding()
    out.defs = []
    return out
