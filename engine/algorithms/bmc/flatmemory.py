"""Memory for merged-path BMC (algorithms/bmc/merged.py): the path encoding's memory model
(cex/memory.MemoryState: object-tagged addresses, bytes, bounds, liveness) without z3 arrays.

Merged states make memory a tree of ``If``s, and z3 decides bit-vector formulas by
bit-blasting far faster than array formulas with ``If``s over arrays (an incremental check
with arrays took over 10 s where the same question without them took 0.4 s). So here memory
is only the log, a byte per concrete address:

- a byte never written is the address's initial content, one name per address (``@mem#a``),
  the same in every state as the base model's initial array is;
- a *write* at a symbolic address updates every byte it may hit with ``If(a == k, v, old)``.
  Which bytes: those of the objects the address points into, read off its structure (a
  constant base plus an offset, an ``If`` of pointers, a pointer stored byte by byte); the
  write must stay within them, which is an access the engine checks like any other (going
  from one object into another by pointer arithmetic is undefined in C anyway). Where the
  structure says nothing, every object of a known size is a candidate (an object whose size is
  not known in Python then ends the engine: the write cannot be laid out);
- a *read* at a symbolic address is ``If(a == k, byte(k), ...)`` over the candidate objects'
  bytes, and an arbitrary byte elsewhere: a valid read elsewhere (which the structure did not
  foresee) may see any value, which is sound for a proof, and an error path is confirmed by the
  exact check anyway;
- liveness is per object, a Python bool where the path decides it and a condition elsewhere.

Object ids are functions of what created the object, not of a running count, so that two
states merged at one point agree on them: a variable's object of its name (``x@frame``, and
frames are functions of the call stack), a string literal of its text, anything else (a heap
object) of its allocation step's place in the unrolled program and its order within the step.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import z3

from ...cex.memory import Access, MemoryState, MemoryUnsupported
from ...cfa.cfa import Program
from ...cfa.ctype import CType

MAX_FLAT_BYTES = 4096  # bytes an access at a symbolic address may be laid out over


@dataclass
class Names:
    """What every state of one round shares: the counter behind fresh z3 names and the ids of
    memory objects, by what created them."""

    n: int = 0
    objects: dict[tuple, int] = field(default_factory=dict)


def counter_property() -> property:
    """A ``counter`` attribute that is the round's shared counter: PathEncoder and MemoryState
    name fresh terms ``...#<counter>``, and merged states must never share such a name."""

    def get(self: Any) -> int:
        return self._names.n

    def set_(self: Any, v: int) -> None:
        self._names.n = max(self._names.n, v)  # the base classes start their counters at 0

    return property(get, set_)


class FlatMemory(MemoryState):
    counter = counter_property()

    def __init__(self, program: Program, names: Names):
        self._names = names
        self._pending: tuple | None = None
        self.site: tuple = ()  # the place of the step being taken (merged.py sets it)
        self.seq = 0  # objects that step created so far
        super().__init__(program)
        self.alive = None  # the base model's Python liveness: ``lives`` here
        self.lives: dict[int, Any] = {}  # object id -> live (a bool, or a condition)
        # Objects whose size is a term: how many bytes to lay out (a bound of the size where the
        # object was made, from ``bound_of``; the accesses are checked against the size itself).
        self.caps: dict[int, int] = {}
        self.bound_of: Callable[[z3.ExprRef], int | None] | None = None

    @property
    def mem(self) -> z3.ExprRef:
        raise MemoryUnsupported("memory as one array (merged-path BMC lays it out byte by byte)")

    # ---- objects ------------------------------------------------------------------------
    def _new_id(self) -> int:
        self.used = True
        if self._pending is not None:
            what, self._pending = self._pending, None
        else:
            self.seq += 1
            what = ("site", self.site, self.seq)
        oid = self._names.objects.get(what)
        if oid is None:
            oid = len(self._names.objects) + 1
            if oid >= (1 << self.id_bits):
                raise MemoryUnsupported(f"more than {(1 << self.id_bits) - 1} memory objects in one unrolling")
            self._names.objects[what] = oid
        return oid

    def _named(self, key: str) -> None:
        if key not in self.names:
            self._pending = ("name", key)

    def object(self, key: str, t: CType) -> int:
        self._named(key)
        try:
            return super().object(key, t)
        finally:
            self._pending = None

    def string(self, text: str, data: list[int]) -> z3.ExprRef:
        self._named("#s:" + text)
        try:
            return super().string(text, data)
        finally:
            self._pending = None

    def function(self, name: str) -> z3.ExprRef:
        self._named("#f:" + name)
        try:
            return super().function(name)
        finally:
            self._pending = None

    def create(self, size: Any, heap: bool = False) -> int:
        oid = self._new_id()
        known = self._concrete(size)
        if known is not None:
            size = known
        if isinstance(size, int):
            if size >= (1 << self.off_bits):
                raise MemoryUnsupported(f"an object of {size} bytes")
            self.known_sizes[oid] = size
            self.sizes[oid] = z3.BitVecVal(size, self.bits)
        else:
            self.bounds.append(z3.ULT(size, z3.BitVecVal(1 << self.off_bits, self.bits)))
            self.sizes[oid] = size
            cap = self.bound_of(size) if self.bound_of is not None else None
            if cap is not None:
                self.caps[oid] = cap
        self.lives[oid] = True
        if heap:
            self.heap.add(oid)
        return oid

    def live_of(self, oid: Any) -> Any:
        """Whether the object ``oid`` (an int, or a term of id_bits) is live: a bool or a condition."""
        if isinstance(oid, int):
            return self.lives.get(oid, False)
        terms = [oid == z3.BitVecVal(k, self.id_bits) if v is True else z3.And(oid == z3.BitVecVal(k, self.id_bits), v)
                 for k, v in self.lives.items() if v is not False]
        return z3.Or(*terms) if terms else z3.BoolVal(False)

    def _live_term(self, oid: Any) -> z3.BoolRef:
        v = self.live_of(oid)
        return z3.BoolVal(v) if isinstance(v, bool) else v

    # ---- validity -----------------------------------------------------------------------
    def valid(self, p: Any, n: Any) -> Any:
        if isinstance(p, int) and isinstance(n, int):
            oid, off = p >> self.off_bits, p & self.off_mask
            if oid not in self.sizes:
                return False
            size = self.known_sizes.get(oid)
            if size is not None:
                if not (off + n <= size and n <= size):
                    return False
                return self.live_of(oid)
        nn = self.term(n)
        oid_t, off = self.oid(p), self.offset(p)
        inside = []
        for k, size in self.sizes.items():
            live = self.lives.get(k, False)
            if live is False:
                continue
            c = [oid_t == z3.BitVecVal(k, self.id_bits), z3.ULE(off + nn, size), z3.ULE(nn, size)]
            inside.append(z3.And(*c) if live is True else z3.And(*c, live))
        return z3.Or(*inside) if inside else False

    def freeable(self, p: Any) -> z3.BoolRef:
        p = self.term(p)
        oid = self.oid(p)
        heap = [oid == z3.BitVecVal(k, self.id_bits) if self.lives.get(k) is True
                else z3.And(oid == z3.BitVecVal(k, self.id_bits), self._live_term(k))
                for k in self.heap if self.lives.get(k, False) is not False]
        return z3.Or(p == 0, z3.And(self.offset(p) == 0, z3.Or(*heap) if heap else z3.BoolVal(False)))

    def determined(self, op: str, a: Any, b: Any) -> z3.BoolRef:
        a, b = self.term(a), self.term(b)

        def alive(p: z3.ExprRef) -> z3.BoolRef:
            return z3.Or(p == 0, self._live_term(self.oid(p)))

        def at_end(p: z3.ExprRef) -> z3.BoolRef:
            ends = [z3.And(self.oid(p) == z3.BitVecVal(k, self.id_bits), self.offset(p) == size, size != 0)
                    for k, size in self.sizes.items()]
            return z3.Or(*ends) if ends else z3.BoolVal(False)

        same = z3.Or(self.oid(a) == self.oid(b), a == 0, b == 0)
        order = z3.Or(same, z3.Not(z3.Or(at_end(a), at_end(b)))) if op in ("==", "!=") else same
        return z3.And(alive(a), alive(b), order)

    def end_frame(self, suffix: str) -> None:
        for key, oid in self.names.items():
            if key.endswith(suffix):
                self.lives[oid] = False

    def release(self, p: Any, step: int) -> None:
        self.accesses.append(Access(step, self.freeable(p), "free"))  # with the liveness before
        k = self._concrete(p)
        if k is not None:
            if k != 0 and (k >> self.off_bits) in self.lives:
                self.lives[k >> self.off_bits] = False
            return
        oid = self.oid(p)
        for h in self.heap:
            v = self.lives.get(h, False)
            if v is not False:
                self.lives[h] = z3.And(oid != z3.BitVecVal(h, self.id_bits), self._live_term(h))

    def tracked(self, pointers: list[z3.ExprRef], frames: set[int]) -> z3.BoolRef:
        """cex/memory.MemoryState.tracked, with liveness per object."""
        ptr_bytes = self.bits // 8

        holders = self.holders(frames)
        sizes = {}
        for oid, _ in holders:
            size = self.known_sizes.get(oid)
            if size is None or size > 4096:
                raise MemoryUnsupported("a leak check with objects of unknown or large size")
            sizes[oid] = size
        leaks = []
        for k in self.heap:
            kk = z3.BitVecVal(k, self.id_bits)
            conds = [self._live_term(k)]
            conds += [self.oid(g) != kk for g in pointers]
            for oid, always in holders:
                if oid == k:
                    continue
                b = self.base(oid)
                for off in range(0, sizes[oid] - ptr_bytes + 1, ptr_bytes):
                    parts = [self.byte_term(b + off + i) for i in range(ptr_bytes)]
                    points = self.oid(z3.Concat(*reversed(parts))) == kk
                    holder_live = z3.BoolVal(True) if always else self._live_term(oid)
                    conds.append(z3.Not(z3.And(holder_live, points)))
            leaks.append(z3.And(*conds))
        return z3.Not(z3.Or(*leaks)) if leaks else z3.BoolVal(True)

    # ---- bytes --------------------------------------------------------------------------
    def load(self, p: Any, t: CType, step: int) -> Any:
        v = super().load(p, t, step)
        if not isinstance(v, int) and z3.is_app_of(v, z3.Z3_OP_CONCAT):
            whole = contiguous(v)
            if whole is not None:  # the bytes of one merged word (see _merge_log): that part of it
                hi, lo, src = whole
                return src if (hi, lo) == (src.size() - 1, 0) else z3.Extract(hi, lo, src)
        return v

    def initial(self, k: int) -> z3.ExprRef:
        """The byte at address ``k`` before anything wrote it (the same name in every state)."""
        return z3.BitVec(f"@mem#{k}", 8)  # (no C name starts with @)

    def byte(self, a: Any) -> Any:
        k = self._concrete(a)
        if k is not None:
            v = self.log.get(k)
            return v if v is not None else self.initial(k)
        return self._read(a, a, ranged=False)

    def _read(self, a: z3.ExprRef, pointer: z3.ExprRef, ranged: bool) -> z3.ExprRef:
        """The byte at symbolic ``a``: ``pointer`` itself (not ``ranged``), or somewhere in an
        object ``pointer`` points into (``ranged``)."""
        self.counter += 1
        out: z3.ExprRef = z3.BitVec(f"unforeseen#{self.counter}", 8)  # a byte outside the candidates
        for addr in reversed(self._addresses(pointer, write=False, ranged=ranged)):
            out = z3.If(a == z3.BitVecVal(addr, self.bits), self.byte_term(addr), out)
        return out

    def put(self, a: Any, v: Any) -> None:
        self.depth += 1
        k = self._concrete(a)
        if k is not None:
            self.log[k] = v
            return
        v = self.term(v, 8)
        for addr in self._addresses(a, write=True, ranged=False):
            self.log[addr] = z3.If(a == z3.BitVecVal(addr, self.bits), v, self.byte_term(addr))

    def fill(self, dst: Any, byte: Any, n: Any) -> None:
        if isinstance(n, int) and n <= 64:
            for i in range(n):
                self.put(self.add(dst, i), byte)
            return
        d, nn, v = self.term(dst), self.term(n), self.term(byte, 8)
        for addr in self._addresses(d, write=True, ranged=True):
            k = z3.BitVecVal(addr, self.bits)
            self.log[addr] = z3.If(z3.And(z3.ULE(d, k), z3.ULT(k - d, nn)), v, self.byte_term(addr))

    def copy(self, dst: Any, src: Any, n: Any) -> None:
        if isinstance(n, int) and n <= 64:
            super().copy(dst, src, n)  # byte by byte, all read before any is written
            return
        d, nn, s = self.term(dst), self.term(n), self.term(src)
        new = {}
        for addr in self._addresses(d, write=True, ranged=True):
            k = z3.BitVecVal(addr, self.bits)
            here = s + (k - d)
            src_byte = self._read(here, s, ranged=True) if self._concrete(here) is None else self.byte_term(here)
            new[addr] = z3.If(z3.And(z3.ULE(d, k), z3.ULT(k - d, nn)), src_byte, self.byte_term(addr))
        self.log.update(new)

    def _addresses(self, a: z3.ExprRef, write: bool, ranged: bool) -> list[int]:
        """The byte addresses an access at ``a`` may touch: for one byte, the values ``a`` can
        take if its structure says (a pointer among a few, plus an offset); for a range from
        ``a`` (``ranged``), or where the values are not known, the bytes of the objects ``a``
        points into. A write must stay within them (an access checked like any other, where they
        may not be all: going from one object into another by pointer arithmetic is undefined in
        C anyway)."""
        vs = None if ranged else values(a)
        if vs and len(vs) <= MAX_POINTS:
            if write:
                self.accesses.append(Access(0, z3.Or(*[a == z3.BitVecVal(v, self.bits) for v in sorted(vs)]), "deref"))
            return sorted(vs)
        oids = points_to(a, self.off_bits, self.bits)
        everything = oids is None
        if oids is None:
            oids = set(self.sizes)
        out: list[int] = []
        for oid in sorted(oids):
            if oid not in self.sizes:
                continue
            size = self.known_sizes.get(oid, self.caps.get(oid))
            if size is None:
                if write:
                    raise MemoryUnsupported("a write at a symbolic address beside an object of a size not bounded "
                                            "where it was made")
                continue  # a read there gives an arbitrary byte
            out.extend(range(self.base(oid), self.base(oid) + size))
            if len(out) > MAX_FLAT_BYTES:
                raise MemoryUnsupported(f"an access at a symbolic address into more than {MAX_FLAT_BYTES} bytes")
        if write and not everything:
            within = z3.Or(*[self.oid(a) == z3.BitVecVal(k, self.id_bits) for k in sorted(oids)]) if oids \
                else z3.BoolVal(False)
            self.accesses.append(Access(0, within, "deref"))
        return out

    def clone(self) -> FlatMemory:
        m = copy.copy(self)
        m.sizes, m.heap, m.names = dict(self.sizes), set(self.heap), dict(self.names)
        m.known_sizes, m.lives, m.log = dict(self.known_sizes), dict(self.lives), dict(self.log)
        m.caps = dict(self.caps)
        m.accesses, m.constraints, m.bounds = list(self.accesses), list(self.constraints), list(self.bounds)
        return m


def contiguous(t: z3.ExprRef) -> tuple[int, int, z3.ExprRef] | None:
    """``(hi, lo, src)`` when the concatenation ``t`` is ``src``'s bits ``hi..lo``, part by part."""
    parts = t.children()
    if not parts or not all(z3.is_app_of(x, z3.Z3_OP_EXTRACT) for x in parts):
        return None
    src = parts[0].arg(0)
    hi = parts[0].params()[0]
    nxt = hi
    for x in parts:
        h, lo = x.params()
        if h != nxt or not x.arg(0).eq(src):
            return None
        nxt = lo - 1
    return hi, nxt + 1, src


def points_to(a: Any, off_bits: int, bits: int, depth: int = 0) -> set[int] | None:
    """The objects a pointer term points into, read off its structure (None: it does not say).
    A term with a few possible values (constants under ``If``s, stored byte by byte, read back)
    names their objects (NULL none); an ``If`` either branch's; a sum or difference its one
    pointer operand's (the others are offsets). A byte read from where no candidate lay
    (``unforeseen``) is left out: a write there is an access checked like any other, and a read
    there gives an arbitrary byte anyway."""
    if isinstance(a, int):
        return {a >> off_bits} - {0}
    vs = values(a)
    if vs:
        return {v >> off_bits for v in vs} - {0}
    if depth > 64:
        return None
    if z3.is_app_of(a, z3.Z3_OP_ITE):
        x, y = points_to(a.arg(1), off_bits, bits, depth + 1), points_to(a.arg(2), off_bits, bits, depth + 1)
        return None if x is None or y is None else x | y
    if z3.is_app_of(a, z3.Z3_OP_BADD) or z3.is_app_of(a, z3.Z3_OP_BSUB):
        args = a.children() if z3.is_app_of(a, z3.Z3_OP_BADD) else a.children()[:1]
        found: set[int] | None = None
        for x in args:
            if z3.is_bv_value(x) and _small(x.as_long(), off_bits, bits):
                continue  # a constant offset
            p = points_to(x, off_bits, bits, depth + 1)
            if p is None:
                continue  # an offset, as far as the structure says
            if found is not None:
                return None  # two pointers added
            found = p
        return found
    return None


def _small(v: int, off_bits: int, bits: int) -> bool:
    s = v - (1 << bits) if v >> (bits - 1) else v
    return abs(s) < (1 << off_bits)


MAX_VALUES = 256  # possible values ``values`` follows
MAX_POINTS = 64  # ... and an access is laid out over, rather than over whole objects


def values(t: z3.ExprRef, exact: bool = False) -> set[int] | None:
    """The values ``t`` can take, when it is built from constants by ``If``, ``Extract``,
    ``Concat``, extensions and additions (None otherwise, or when there are too many). Unless
    ``exact``, a byte read from where no candidate lay (``unforeseen``) and a byte never written
    (``@mem``) are left out under an ``If``: where a pointer is one of a few objects' addresses,
    such a byte is one it does not hold on any valid path (a dead object's, NULL's next field),
    and an access the set misses is covered anyway (see FlatMemory._addresses). Only a guide,
    then: an empty set says nothing."""
    memo: dict[int, set[int] | None] = {}

    def go(t: z3.ExprRef, depth: int) -> set[int] | None:
        if z3.is_bv_value(t):
            return {t.as_long()}
        key = t.get_id()
        if key in memo:
            return memo[key]
        memo[key] = None  # (no term contains itself; this only bounds the work)
        out: set[int] | None = None
        if depth > 400:
            pass
        elif z3.is_const(t):
            out = set() if not exact and t.decl().name().startswith(("unforeseen#", "@mem#")) else None
        elif z3.is_app_of(t, z3.Z3_OP_ITE):
            x = go(t.arg(1), depth + 1)
            y = go(t.arg(2), depth + 1) if x is not None else None
            out = None if x is None or y is None or len(x) + len(y) > MAX_VALUES else x | y
        elif z3.is_app_of(t, z3.Z3_OP_EXTRACT):
            hi, lo = t.params()
            x = go(t.arg(0), depth + 1)
            out = None if x is None else {(v >> lo) & ((1 << (hi - lo + 1)) - 1) for v in x}
        elif z3.is_app_of(t, z3.Z3_OP_ZERO_EXT) or z3.is_app_of(t, z3.Z3_OP_SIGN_EXT):
            x = go(t.arg(0), depth + 1)
            w, top = t.arg(0).size(), t.size()
            signed = z3.is_app_of(t, z3.Z3_OP_SIGN_EXT)
            out = None if x is None else {(v - (1 << w) if signed and v >> (w - 1) else v) % (1 << top) for v in x}
        elif z3.is_app_of(t, z3.Z3_OP_CONCAT) and (whole := contiguous(t)) is not None:
            hi, lo, src = whole
            x = go(src, depth + 1)
            out = None if x is None else {(v >> lo) & ((1 << (hi - lo + 1)) - 1) for v in x}
        elif z3.is_app_of(t, z3.Z3_OP_CONCAT) or z3.is_app_of(t, z3.Z3_OP_BADD):
            concat = z3.is_app_of(t, z3.Z3_OP_CONCAT)
            mask = (1 << t.size()) - 1
            acc: set[int] | None = {0}
            for part in t.children():
                x = go(part, depth + 1)
                if not x or acc is None or len(acc) * len(x) > MAX_VALUES:
                    acc = None
                    break
                w = part.size()
                acc = {(v << w) | b for v in acc for b in x} if concat else {(v + b) & mask for v in acc for b in x}
            out = acc
        memo[key] = out
        return out

    return go(t, 0)


# ---- merging --------------------------------------------------------------------------------
def same(a: Any, b: Any) -> bool:
    if a is b:
        return True
    if isinstance(a, int | bool) or isinstance(b, int | bool):
        return type(a) is type(b) and a == b
    return a.eq(b)


def _term8(v: Any) -> z3.ExprRef:
    return z3.BitVecVal(v, 8) if isinstance(v, int) else v


def _merge_log(a: FlatMemory, b: FlatMemory, p: z3.BoolRef) -> dict[int, Any]:
    """The bytes that are ``a``'s where ``p`` holds and ``b``'s elsewhere. Where the two differ,
    each aligned 8-byte group becomes one word ``W = If(p, word_a, word_b)`` and its bytes
    ``Extract(8i+7, 8i, W)``: an int or pointer read back is then a part of one ``If`` (a sign
    merged from -1, 0 and 1 has those three values, not the 81 combinations of its bytes; see
    ``values``), not a concatenation of bytes that each chose on their own."""
    groups: dict[int, list[int]] = {}
    for k in a.log.keys() | b.log.keys():
        groups.setdefault(k & ~7, []).append(k)
    out: dict[int, Any] = {}
    for g, ks in groups.items():
        va = {k: a.log.get(k) for k in range(g, g + 8)}
        vb = {k: b.log.get(k) for k in range(g, g + 8)}
        if all(same(va[k], vb[k]) for k in ks if va[k] is not None and vb[k] is not None) \
                and all(va[k] is not None and vb[k] is not None for k in ks):
            out.update((k, va[k]) for k in ks)
            continue
        word_a = z3.Concat(*[_term8(va[k] if va[k] is not None else a.initial(k)) for k in range(g + 7, g - 1, -1)])
        word_b = z3.Concat(*[_term8(vb[k] if vb[k] is not None else b.initial(k)) for k in range(g + 7, g - 1, -1)])
        w = z3.If(p, word_a, word_b)
        for k in ks:
            i = k - g
            out[k] = z3.Extract(8 * i + 7, 8 * i, w)
    return out


def mergeable(a: FlatMemory, b: FlatMemory) -> bool:
    """Whether two memories can be merged exactly: they agree on the ids of the objects both
    have, and an object only one has is a heap object or one of a size known in Python (it can
    be made on the other side)."""
    for side, other in ((a, b), (b, a)):
        for key, oid in side.names.items():
            there = other.names.get(key)
            if there is not None:
                if there != oid:
                    return False
                continue
            if oid in other.sizes or oid not in side.known_sizes:
                return False  # a variable-length array on one side: not merged
        for oid in side.heap:
            if oid in other.sizes and oid not in other.heap:
                return False
    return True


def complete(m: FlatMemory, other: FlatMemory, live_frames: list[int]) -> None:
    """Give ``m`` the objects only ``other`` has: a heap object dead (it was never allocated
    here), any other as its first use would have made it (live while its frame is)."""
    for key, oid in other.names.items():
        if key in m.names:
            continue
        size = other.known_sizes[oid]
        m.names[key] = oid
        m.sizes[oid] = z3.BitVecVal(size, m.bits)
        m.known_sizes[oid] = size
        frame = key.rsplit("@", 1)[1] if "@" in key and not key.startswith(("#s:", "#f:")) else None
        m.lives[oid] = frame is None or int(frame) in live_frames
        if key.startswith("#s:"):
            b = m.base(oid)
            for i in range(size):  # the literal's bytes, as MemoryState.string writes them
                m.put(b + i, other.byte(b + i))
    for oid in other.heap:
        if oid in m.sizes:
            continue
        m.sizes[oid] = other.sizes[oid]
        if oid in other.known_sizes:
            m.known_sizes[oid] = other.known_sizes[oid]
        if oid in other.caps:
            m.caps[oid] = other.caps[oid]
        m.heap.add(oid)
        m.lives[oid] = False


def _layout(m: FlatMemory, oid: int) -> Any:
    return m.known_sizes.get(oid, m.caps.get(oid))


def merge_memory(a: FlatMemory, b: FlatMemory, p: z3.BoolRef) -> FlatMemory:
    """The memory that is ``a`` where ``p`` holds and ``b`` elsewhere (both completed)."""
    out = copy.copy(a)
    out.accesses, out.constraints, out.bounds = [], [], []
    out.sizes = {oid: a.sizes[oid] if same(a.sizes[oid], b.sizes[oid]) else z3.If(p, a.sizes[oid], b.sizes[oid])
                 for oid in a.sizes}
    out.known_sizes = {oid: s for oid, s in a.known_sizes.items() if b.known_sizes.get(oid) == s}
    # A layout bound holds on each side; both together bound the merged size (an object whose
    # Python sizes differ gets the larger).
    out.caps = {oid: max(_layout(a, oid), _layout(b, oid)) for oid in a.sizes
                if oid not in out.known_sizes and _layout(a, oid) is not None and _layout(b, oid) is not None}
    lives = {}
    for oid, va in a.lives.items():
        vb = b.lives[oid]
        lives[oid] = va if same(va, vb) else z3.If(p, a._live_term(oid), b._live_term(oid))
    out.lives = lives
    out.heap = a.heap | b.heap
    out.names = {**b.names, **a.names}
    out.depth, out.cost, out.used = max(a.depth, b.depth), max(a.cost, b.cost), a.used or b.used
    out.log = _merge_log(a, b, p)
    return out
