"""The exact path encoding (smt.PathEncoder) for states that stand for many paths at once:
what merged-path BMC (algorithms/bmc/merged.py) runs each step with, and how two such states
become one.

Two states at the same point of the unrolled program merge under the path condition ``p`` of
the first: each variable becomes ``If(p, a, b)``, memory likewise (algorithms/bmc/flatmemory.py), so
a model that makes ``p`` true sees exactly the first state's values and one that makes it
false the second's. For that every name must mean the same on both sides: z3 names are
unique across the round (one counter for every state: two states that each made their own
``x#5`` would otherwise share it once merged), and memory object ids are functions of what
created the object. A variable that only one side has read or written is arbitrary on the
other (as its first read there would have made it).

Undefined behaviour is an arbitrary value, as in path exploration (paths.ExplorationEncoder).
"""

from __future__ import annotations

import copy
from typing import Any

import z3

from ...cex.feasibility import Encoding
from ...cfa.cfa import Program
from ...cfa.ctype import CType
from ...cfa.ir import Binary, Expr
from ..paths import ExplorationEncoder
from . import flatmemory
from .flatmemory import FlatMemory, Names, counter_property, same

# Operations a merged operand makes hard for bit-blasting (a full multiplier or divider) where
# each of its few values makes them easy: split over those values (split_cases).
_SPLIT_OPS = (z3.Z3_OP_BMUL, z3.Z3_OP_BSDIV, z3.Z3_OP_BUDIV, z3.Z3_OP_BSREM, z3.Z3_OP_BUREM, z3.Z3_OP_BSMOD)
_THROUGH = (z3.Z3_OP_ITE, z3.Z3_OP_NOT, z3.Z3_OP_EQ, z3.Z3_OP_DISTINCT, z3.Z3_OP_SIGN_EXT, z3.Z3_OP_ZERO_EXT,
            z3.Z3_OP_EXTRACT)
MAX_SPLIT = 8  # values an operand may have to be split over


class MergeEncoder(ExplorationEncoder):
    """The path encoding with undefined behaviour as an arbitrary value (path exploration's),
    memory without arrays, fresh names unique across states, and each new variable's
    definition kept apart from the path's conditions (``defs``: a definition constrains only its
    fresh variable, so it holds on every path and goes to the solver once)."""

    counter = counter_property()

    def __init__(self, program: Program, names: Names):
        self._names = names
        super().__init__(program)
        self.mem: FlatMemory = FlatMemory(program, names)
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
            self.ranges.note(v, value)
        self.cur[key] = v

    def overflow(self, happens: z3.BoolRef, wrapped: z3.ExprRef, step: int) -> z3.ExprRef:
        # (before path exploration's hook simplifies the check, which hides the operands)
        return super().overflow(split_cases(happens), split_cases(wrapped), step)

    def value(self, e: Expr, frame: int, step: int) -> Any:
        v = super().value(e, frame, step)
        if isinstance(e, Binary) and e.op in ("*", "/", "%") and not isinstance(v, int):
            v = split_cases(v)
        return v

    def clone(self) -> MergeEncoder:
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


def split_cases(t: z3.ExprRef, depth: int = 0) -> z3.ExprRef:
    """``t`` with each product, quotient or remainder of an operand that has a few values (a
    variable merged from paths that gave it constants: a sign in -1, 0, 1) split over them:
    ``x * s`` becomes ``If(s == -1, x * -1, If(s == 0, x * 0, x * 1))``, exactly, which z3
    simplifies, where a merged ``s`` would make it bit-blast a full multiplier. Only the
    operation's own term is rewritten (its overflow check included), not its operands."""
    if depth > 8 or not z3.is_app(t):
        return t
    kind = t.decl().kind()
    if kind in _SPLIT_OPS and t.num_args() == 2:
        x, y = t.arg(0), t.arg(1)
        for this, other, left in ((y, x, False), (x, y, True)):
            if z3.is_bv_value(other) or z3.is_bv_value(this):
                continue
            vs = flatmemory.values(this, exact=True)
            if vs is None or not 1 < len(vs) <= MAX_SPLIT:
                continue
            cases = sorted(vs)
            out = t.decl()(*((z3.BitVecVal(cases[-1], this.size()), other) if left else
                             (other, z3.BitVecVal(cases[-1], this.size()))))
            for v in reversed(cases[:-1]):
                c = z3.BitVecVal(v, this.size())
                out = z3.If(this == c, t.decl()(*((c, other) if left else (other, c))), out)
            return out
        return t
    if kind in _THROUGH:
        kids = [split_cases(k, depth + 1) for k in t.children()]
        if all(k.eq(o) for k, o in zip(kids, t.children())):
            return t
        return t.decl()(*kids)
    return t


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
    # (In the dicts' order, not a set's: the fresh names made here must not depend on the
    # process's string hashing, or each run's model, and so its error path, would differ.)
    for k in [*a.cur, *(k for k in b.cur if k not in a.cur)]:
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
