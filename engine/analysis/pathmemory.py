"""Memory in the bit-precise path encoding: what confirms a FALSE whose path touches memory.

The model, chosen for exact C bytes and simple bounds: one z3 array from addresses to bytes.
An address is a pointer-wide bit-vector whose high bits name the object (its *id*, 0 for
NULL) and whose low bits are the byte offset in it (8 + 24 bits on ILP32, 16 + 48 on LP64).
So pointer arithmetic is bit-vector arithmetic, pointers stored in memory are ordinary bytes,
scalars are read and written little-endian with the data model's sizes and struct layouts
(cfa/layout.py), and every access carries its object: the path is constrained to access
only live objects within their bounds (an error path must be a defined execution; the
memory-safety check asks the opposite question of the same terms).

Objects: a variable that is an aggregate or has its address taken, one per call frame
instance; a heap object per allocation on the path (size: the requested size); a string
literal (its bytes constrained when first used); a function (size 0, for function pointers).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import z3

from ..cfa.cfa import Program
from ..cfa.ctype import CType, IntType, PointerType
from ..cfa.layout import Layout

MAX_SYMBOLIC_COST = 30_000  # summed store-chain lengths under symbolic reads and writes


class MemoryUnsupported(Exception):
    pass


@dataclass
class Access:
    """A memory access on the path: its step, whether it is valid, and what kind it is."""

    step: int
    valid: z3.BoolRef
    kind: str  # "deref" | "free"


@dataclass
class MemoryState:
    program: Program
    layout: Layout = field(init=False)
    bits: int = field(init=False)
    id_bits: int = field(init=False)
    off_bits: int = field(init=False)
    mem: z3.ExprRef = field(init=False)
    live: z3.ExprRef = field(init=False)
    sizes: dict[int, z3.ExprRef] = field(default_factory=dict)
    heap: set[int] = field(default_factory=set)
    names: dict[str, int] = field(default_factory=dict)
    accesses: list[Access] = field(default_factory=list)
    constraints: list[z3.BoolRef] = field(default_factory=list)
    # Limits of the model rather than facts of C (an object smaller than the offset bits allow, a
    # string shorter than the functions unroll): an error path keeps to them; a proof must not.
    bounds: list[z3.BoolRef] = field(default_factory=list)
    counter: int = 0
    used: bool = False

    def __post_init__(self) -> None:
        self.layout = Layout(self.program.data_model, self.program.structs)
        self.bits = self.program.data_model.pointer_bits
        self.id_bits = 8 if self.bits == 32 else 16
        self.off_bits = self.bits - self.id_bits
        self.mem = z3.Array("mem#0", z3.BitVecSort(self.bits), z3.BitVecSort(8))
        # Writes at concrete addresses since ``base``: a read at a concrete address takes the
        # byte from here, or reads ``logged_from`` (no chain of stores for z3 to wade through).
        self.logged_from = self.mem
        self.log: dict[int, z3.ExprRef] = {}
        # z3 can spend minutes, deaf to its time limit, on reads at symbolic addresses through
        # long chains of stores: their total length is bounded (MAX_SYMBOLIC_COST).
        self.depth = 0
        self.cost = 0
        self.live = z3.Array("live#0", z3.BitVecSort(self.id_bits), z3.BoolSort())

    # ---- bytes ----------------------------------------------------------------------------
    @staticmethod
    def _concrete(a: z3.ExprRef) -> int | None:
        a = z3.simplify(a)
        return a.as_long() if z3.is_bv_value(a) else None

    def _symbolic(self) -> None:
        self.cost += self.depth
        if self.cost > MAX_SYMBOLIC_COST:
            raise MemoryUnsupported("a path that reads or writes at symbolic addresses after more memory writes "
                                    "than the solver handles in time")

    def byte(self, a: z3.ExprRef) -> z3.ExprRef:
        k = self._concrete(a)
        if k is not None:
            v = self.log.get(k)
            return v if v is not None else z3.Select(self.logged_from, z3.BitVecVal(k, self.bits))
        self._symbolic()
        return z3.Select(self.mem, a)

    def put(self, a: z3.ExprRef, v: z3.ExprRef) -> None:
        self.mem = z3.Store(self.mem, a, v)
        self.depth += 1
        k = self._concrete(a)
        if k is None:  # a write somewhere: the log no longer describes memory
            self._symbolic()
            self.logged_from, self.log = self.mem, {}
        else:
            self.log[k] = v

    def replace(self, mem: z3.ExprRef) -> None:
        self.mem = self.logged_from = mem
        self.depth += 1
        self._symbolic()
        self.log = {}

    # ---- objects ------------------------------------------------------------------------
    def _new_id(self) -> int:
        self.used = True
        n = len(self.sizes) + 1
        if n >= (1 << self.id_bits):
            raise MemoryUnsupported(f"more than {(1 << self.id_bits) - 1} memory objects on one path")
        return n

    def base(self, oid: int) -> z3.ExprRef:
        return z3.BitVecVal(oid << self.off_bits, self.bits)

    def object(self, key: str, t: CType) -> z3.ExprRef:
        """The address of a variable's object (one per frame instance), created on first use."""
        oid = self.names.get(key)
        if oid is None:
            size = self.layout.sizeof(t)
            if size is None:
                raise MemoryUnsupported(f"objects of incomplete or variable size ({t})")
            oid = self.create(size)
            self.names[key] = oid
        return self.base(oid)

    def create(self, size: int | z3.ExprRef, heap: bool = False) -> int:
        oid = self._new_id()
        term = z3.BitVecVal(size, self.bits) if isinstance(size, int) else size
        if isinstance(size, int) and size >= (1 << self.off_bits):
            raise MemoryUnsupported(f"an object of {size} bytes")
        if not isinstance(size, int):
            self.bounds.append(z3.ULT(term, z3.BitVecVal(1 << self.off_bits, self.bits)))
        self.sizes[oid] = term
        self.live = z3.Store(self.live, z3.BitVecVal(oid, self.id_bits), z3.BoolVal(True))
        if heap:
            self.heap.add(oid)
        return oid

    def string(self, text: str, data: list[int]) -> z3.ExprRef:
        key = "#s:" + text
        oid = self.names.get(key)
        if oid is None:
            oid = self.create(len(data))
            self.names[key] = oid
            b = self.base(oid)
            for i, byte in enumerate(data):
                self.constraints.append(self.byte(b + i) == z3.BitVecVal(byte & 0xFF, 8))
        return self.base(oid)

    def function(self, name: str) -> z3.ExprRef:
        key = "#f:" + name
        oid = self.names.get(key)
        if oid is None:
            oid = self.create(0)
            self.names[key] = oid
        return self.base(oid)

    # ---- validity -----------------------------------------------------------------------
    def oid(self, p: z3.ExprRef) -> z3.ExprRef:
        return z3.Extract(self.bits - 1, self.off_bits, p)

    def offset(self, p: z3.ExprRef) -> z3.ExprRef:
        return z3.ZeroExt(self.id_bits, z3.Extract(self.off_bits - 1, 0, p))

    def valid(self, p: z3.ExprRef, n: int | z3.ExprRef) -> z3.BoolRef:
        """``p .. p+n`` lies in one live object."""
        nn = z3.BitVecVal(n, self.bits) if isinstance(n, int) else n
        oid, off = self.oid(p), self.offset(p)
        inside = [z3.And(oid == z3.BitVecVal(k, self.id_bits), z3.ULE(off + nn, size), z3.ULE(nn, size))
                  for k, size in self.sizes.items()]
        return z3.And(z3.Or(*inside) if inside else z3.BoolVal(False), z3.Select(self.live, oid))

    def check(self, p: z3.ExprRef, n: int | z3.ExprRef, step: int, kind: str = "deref") -> None:
        v = self.valid(p, n)
        self.accesses.append(Access(step, v, kind))

    # ---- bytes --------------------------------------------------------------------------
    def load(self, p: z3.ExprRef, t: CType, step: int) -> z3.ExprRef:
        size = self._size(t)
        self.check(p, size, step)
        parts = [self.byte(p + i) for i in range(size)]
        return parts[0] if size == 1 else z3.Concat(*reversed(parts))

    def store(self, p: z3.ExprRef, t: CType, v: z3.ExprRef, step: int) -> None:
        size = self._size(t)
        self.check(p, size, step)
        for i in range(size):
            self.put(p + i, z3.Extract(8 * i + 7, 8 * i, v))

    def _size(self, t: CType) -> int:
        if not isinstance(t, IntType | PointerType):
            raise MemoryUnsupported(f"memory values of type {t}")
        size = self.layout.sizeof(t)
        assert size is not None
        return size

    def _fresh_address(self) -> z3.ExprRef:
        self.counter += 1
        return z3.BitVec(f"addr#{self.counter}", self.bits)

    def zero(self, base: z3.ExprRef, n: z3.ExprRef | int) -> None:
        self.fill(base, z3.BitVecVal(0, 8), n)

    def fill(self, dst: z3.ExprRef, byte: z3.ExprRef, n: z3.ExprRef | int) -> None:
        if isinstance(n, int) and n <= 64:
            for i in range(n):
                self.put(dst + i, byte)
            return
        nn = z3.BitVecVal(n, self.bits) if isinstance(n, int) else n
        a = self._fresh_address()
        old = self.mem
        self.replace(z3.Lambda([a], z3.If(z3.And(z3.ULE(dst, a), z3.ULT(a - dst, nn)), byte, z3.Select(old, a))))

    def copy(self, dst: z3.ExprRef, src: z3.ExprRef, n: z3.ExprRef | int) -> None:
        old = self.mem
        if isinstance(n, int) and n <= 64:
            data = [self.byte(src + i) for i in range(n)]  # read all first: the ranges may overlap
            for i in range(n):
                self.put(dst + i, data[i])
            return
        nn = z3.BitVecVal(n, self.bits) if isinstance(n, int) else n
        a = self._fresh_address()
        self.replace(z3.Lambda([a], z3.If(z3.And(z3.ULE(dst, a), z3.ULT(a - dst, nn)),
                                          z3.Select(old, a - dst + src), z3.Select(old, a))))

    def c_string_length(self, p: z3.ExprRef, step: int, bound: int = 64) -> z3.ExprRef:
        """strlen(p), for strings shorter than ``bound`` (a longer one is not a defined path here)."""
        out = z3.BitVecVal(bound, self.bits)
        for i in reversed(range(bound)):
            out = z3.If(self.byte(p + i) == 0, z3.BitVecVal(i, self.bits), out)
        self.bounds.append(z3.ULT(out, z3.BitVecVal(bound, self.bits)))
        self.check(p, out + 1, step)
        return out

    def c_string_compare(self, a: z3.ExprRef, b: z3.ExprRef, limit: z3.ExprRef | None, step: int,
                         bound: int = 64) -> z3.ExprRef:
        """strcmp / strncmp as -1, 0 or 1 (an int), for strings that end within ``bound``."""
        one, zero, minus = z3.BitVecVal(1, 32), z3.BitVecVal(0, 32), z3.BitVecVal(-1, 32)
        out: z3.ExprRef = zero
        for i in reversed(range(bound)):
            x, y = self.byte(a + i), self.byte(b + i)
            here = z3.If(x != y, z3.If(z3.ULT(x, y), minus, one), z3.If(x == 0, zero, out))
            if limit is not None:
                here = z3.If(z3.UGE(z3.BitVecVal(i, self.bits), limit), zero, here)
            out = here
        # Read in bounds, as far as the first string reaches (a shorter path is not confirmed).
        n = self.c_string_length(a, step, bound)
        self.check(b, n + 1, step)
        return out

    def compare_bytes(self, a: z3.ExprRef, b: z3.ExprRef, n: z3.ExprRef, step: int) -> z3.ExprRef:
        """memcmp as -1, 0 or 1 (an int), for a length known on the path."""
        k = self._concrete(n)
        if k is None or k > 4096:
            raise MemoryUnsupported("memcmp of a length that is not known or is large")
        self.check(a, k, step)
        self.check(b, k, step)
        one, zero, minus = z3.BitVecVal(1, 32), z3.BitVecVal(0, 32), z3.BitVecVal(-1, 32)
        out: z3.ExprRef = zero
        for i in reversed(range(k)):
            x, y = self.byte(a + i), self.byte(b + i)
            out = z3.If(x != y, z3.If(z3.ULT(x, y), minus, one), out)
        return out

    # ---- the heap -----------------------------------------------------------------------
    def allocate(self, size: z3.ExprRef, zero: bool) -> z3.ExprRef:
        oid = self.create(size, heap=True)
        b = self.base(oid)
        if zero:
            self.zero(b, size)
        return b

    def _string_bound(self) -> int:
        """A bound on how far a string can reach: the largest object (all sizes must be known)."""
        top = 1
        for size in self.sizes.values():
            v = z3.simplify(size)
            if not z3.is_bv_value(v) or v.as_long() > 4096:
                raise MemoryUnsupported("string functions on objects of unknown or large size")
            top = max(top, v.as_long())
        return top

    def terminated(self, p: z3.ExprRef) -> z3.BoolRef:
        """A NUL lies between ``p`` and the end of its live object."""
        bound = self._string_bound()
        oid, off = self.oid(p), self.offset(p)
        size = z3.BitVecVal(0, self.bits)
        for k, sz in self.sizes.items():
            size = z3.If(oid == z3.BitVecVal(k, self.id_bits), sz, size)
        nul = [z3.And(z3.ULT(off + i, size), self.byte(p + i) == 0) for i in range(bound)]
        return z3.And(self.valid(p, 1), z3.Or(*nul))

    def string_length(self, p: z3.ExprRef) -> z3.ExprRef:
        bound = self._string_bound()
        out = z3.BitVecVal(bound, self.bits)
        for i in reversed(range(bound)):
            out = z3.If(self.byte(p + i) == 0, z3.BitVecVal(i, self.bits), out)
        return out

    def freeable(self, p: z3.ExprRef) -> z3.BoolRef:
        oid = self.oid(p)
        heap = z3.Or(*[oid == z3.BitVecVal(k, self.id_bits) for k in self.heap]) if self.heap else z3.BoolVal(False)
        return z3.Or(p == 0, z3.And(self.offset(p) == 0, heap, z3.Select(self.live, oid)))

    def tracked(self, pointers: list[z3.ExprRef], frames: set[int]) -> z3.BoolRef:
        """No live heap object is lost: each is pointed to by one of ``pointers`` (the plain
        pointer variables of the globals and of the active calls' ``frames``), or by a pointer
        stored in their objects or in another live heap object. (A lost cycle counts as
        tracked: a violation is only reported where it is certain.)"""
        ptr_bytes = self.bits // 8

        def alive(key: str) -> bool:
            if key.startswith(("#s:", "#f:")):
                return False
            return "@" not in key or int(key.rsplit("@", 1)[1]) in frames

        holders = [(oid, True) for key, oid in self.names.items() if alive(key)]
        holders += [(oid, False) for oid in self.heap]
        sizes = {}
        for oid, _ in holders:
            size = z3.simplify(self.sizes[oid])
            if not z3.is_bv_value(size) or size.as_long() > 4096:
                raise MemoryUnsupported("a leak check with objects of unknown or large size")
            sizes[oid] = size.as_long()
        leaks = []
        for k in self.heap:
            kk = z3.BitVecVal(k, self.id_bits)
            conds = [z3.Select(self.live, kk)]
            conds += [self.oid(g) != kk for g in pointers]
            for oid, always in holders:
                if oid == k:
                    continue
                b = self.base(oid)
                for off in range(0, sizes[oid] - ptr_bytes + 1, ptr_bytes):
                    parts = [self.byte(b + off + i) for i in range(ptr_bytes)]
                    stored = z3.Concat(*reversed(parts))
                    points = self.oid(stored) == kk
                    holder_live = z3.BoolVal(True) if always else z3.Select(self.live, z3.BitVecVal(oid, self.id_bits))
                    conds.append(z3.Not(z3.And(holder_live, points)))
            leaks.append(z3.And(*conds))
        return z3.Not(z3.Or(*leaks)) if leaks else z3.BoolVal(True)

    def end_frame(self, suffix: str) -> None:
        """A function returned: the objects of its frame's variables (named ``var@frame``) die."""
        for key, oid in self.names.items():
            if key.endswith(suffix):
                self.live = z3.Store(self.live, z3.BitVecVal(oid, self.id_bits), z3.BoolVal(False))

    def determined(self, op: str, a: z3.ExprRef, b: z3.ExprRef) -> z3.BoolRef:
        """Where C itself decides a comparison of two pointers. Not if either points to a freed
        object (the allocator may have reused its address), not ``<`` and the like between two
        objects (their order is the allocator's), and not ``==`` between one object's end and
        another object (which may lie right there)."""
        def alive(p: z3.ExprRef) -> z3.BoolRef:
            return z3.Or(p == 0, z3.Select(self.live, self.oid(p)))

        def at_end(p: z3.ExprRef) -> z3.BoolRef:
            # (a function, an object of size 0 here, has no end that another object could follow)
            ends = [z3.And(self.oid(p) == z3.BitVecVal(k, self.id_bits), self.offset(p) == size, size != 0)
                    for k, size in self.sizes.items()]
            return z3.Or(*ends) if ends else z3.BoolVal(False)

        same = z3.Or(self.oid(a) == self.oid(b), a == 0, b == 0)
        if op in ("==", "!="):
            order = z3.Or(same, z3.Not(z3.Or(at_end(a), at_end(b))))
        else:
            order = same
        return z3.And(alive(a), alive(b), order)

    def release(self, p: z3.ExprRef, step: int) -> None:
        oid = self.oid(p)
        self.accesses.append(Access(step, self.freeable(p), "free"))
        self.live = z3.If(p == 0, self.live, z3.Store(self.live, oid, z3.BoolVal(False)))
