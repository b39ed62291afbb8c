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

What the path determines stays a Python int (an address computed from a loop counter, a byte
written from a constant): such accesses cost no z3 term and need no solver, and the z3 array
is built only when an access at a symbolic address needs it. A value here is either a z3
bit-vector term or an int (its bit pattern); a condition either a z3 Boolean or a bool.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import z3

from ..cfa.cfa import Program
from ..cfa.ctype import CType, IntType, PointerType
from ..cfa.layout import Layout

MAX_SYMBOLIC_COST = 30_000  # summed store-chain lengths under symbolic reads and writes
MAX_LEAK_TERMS = 50_000  # a leak check's terms: objects whose reachability is open, squared, times (them + open values)



def byte_difference(x: z3.ExprRef, y: z3.ExprRef) -> z3.ExprRef:
    """What glibc's strcmp, strncmp and memcmp return at the first pair of bytes that differ:
    their difference as unsigned chars, an int (C promises only its sign; cfa/folding.py)."""
    return z3.ZeroExt(24, x) - z3.ZeroExt(24, y)

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
    sizes: dict[int, z3.ExprRef] = field(default_factory=dict)
    known_sizes: dict[int, int] = field(default_factory=dict)  # the sizes that are concrete
    alive: dict[int, bool] | None = field(default_factory=dict)  # liveness, while every free was at a concrete address
    heap: set[int] = field(default_factory=set)
    readonly: set[int] = field(default_factory=set)  # string literals' objects
    ended: set[str] = field(default_factory=set)  # variables whose block was left
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
        # Memory is the array ``logged_from`` updated by ``log``, the writes at concrete addresses
        # made since (address -> byte): a read at a concrete address takes its byte from the log,
        # or reads ``logged_from`` (no chain of stores for z3 to wade through). The whole array,
        # ``mem``, is made when a symbolic access needs it.
        self.logged_from = z3.Array("mem#0", z3.BitVecSort(self.bits), z3.BitVecSort(8))
        self.log: dict[int, Any] = {}
        self._array: z3.ExprRef | None = self.logged_from
        # z3 can spend minutes, deaf to its time limit, on reads at symbolic addresses through
        # long chains of stores: their total length is bounded (MAX_SYMBOLIC_COST).
        self.depth = 0
        self.cost = 0
        # Liveness, as memory: the array ``live_from`` and the objects born or dead since (the
        # whole array, a chain of stores, is made only when a symbolic question needs it).
        self.live_from: z3.ExprRef = z3.Array("live#0", z3.BitVecSort(self.id_bits), z3.BoolSort())
        self.live_log: dict[int, bool] = {}
        self._live: z3.ExprRef | None = self.live_from
        self.mask = (1 << self.bits) - 1
        self.off_mask = (1 << self.off_bits) - 1
        # A byte cut from a stored value: its id -> (it, the value, the value's id, which byte).
        # Facts of terms, so the copies of a state share them.
        self.slices: dict[int, tuple[z3.ExprRef, z3.ExprRef, int, int]] = {}

    def term(self, v: Any, bits: int | None = None) -> z3.ExprRef:
        """A value as a z3 term (an int: of ``bits`` bits, by default an address's)."""
        return z3.BitVecVal(v, self.bits if bits is None else bits) if isinstance(v, int) else v

    @property
    def mem(self) -> z3.ExprRef:
        """The whole memory as one z3 array (made from the log on demand)."""
        if self._array is None:
            arr = self.logged_from
            for k, v in self.log.items():
                arr = z3.Store(arr, z3.BitVecVal(k, self.bits), self.term(v, 8))
            self._array = arr
        return self._array

    @property
    def live(self) -> z3.ExprRef:
        """Which objects are alive, as one z3 array (made from the log on demand)."""
        if self._live is None:
            arr = self.live_from
            for oid, alive in self.live_log.items():
                arr = z3.Store(arr, z3.BitVecVal(oid, self.id_bits), z3.BoolVal(alive))
            self._live = arr
        return self._live

    @live.setter
    def live(self, arr: z3.ExprRef) -> None:
        self._live = self.live_from = arr
        self.live_log = {}

    def _set_live(self, oid: int, alive: bool) -> None:
        self.live_log[oid] = alive
        self._live = None

    # ---- bytes ----------------------------------------------------------------------------
    @staticmethod
    def _concrete(a: Any) -> int | None:
        if isinstance(a, int):
            return a
        a = z3.simplify(a)
        return a.as_long() if z3.is_bv_value(a) else None

    def _symbolic(self) -> None:
        self.cost += self.depth
        if self.cost > MAX_SYMBOLIC_COST:
            raise MemoryUnsupported("a path that reads or writes at symbolic addresses after more memory writes "
                                    "than the solver handles in time")

    def add(self, a: Any, k: int) -> Any:
        """The address ``k`` bytes after ``a``."""
        return (a + k) & self.mask if isinstance(a, int) else a + k

    def byte(self, a: Any) -> Any:
        k = self._concrete(a)
        if k is not None:
            v = self.log.get(k)
            return v if v is not None else z3.Select(self.logged_from, z3.BitVecVal(k, self.bits))
        self._symbolic()
        return z3.Select(self.mem, a)

    def put(self, a: Any, v: Any) -> None:
        self.depth += 1
        k = self._concrete(a)
        if k is None:  # a write somewhere: the log no longer describes memory
            self._symbolic()
            self.replace(z3.Store(self.mem, a, self.term(v, 8)), count=False)
        else:
            self.log[k] = v
            self._array = None

    def replace(self, mem: z3.ExprRef, count: bool = True) -> None:
        self._array = self.logged_from = mem
        if count:
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

    def base(self, oid: int) -> int:
        return oid << self.off_bits

    def object(self, key: str, t: CType) -> int:
        """The address of a variable's object (one per frame instance), created on first use."""
        oid = self.names.get(key)
        if oid is None:
            size = self.layout.sizeof(t)
            if size is None:
                raise MemoryUnsupported(f"objects of incomplete or variable size ({t})")
            oid = self.create(size)
            self.names[key] = oid
        return self.base(oid)

    def create(self, size: Any, heap: bool = False) -> int:
        oid = self._new_id()
        known = self._concrete(size)
        if known is not None:
            size = known
        term = z3.BitVecVal(size, self.bits) if isinstance(size, int) else size
        if isinstance(size, int) and size >= (1 << self.off_bits):
            raise MemoryUnsupported(f"an object of {size} bytes")
        if isinstance(size, int):
            self.known_sizes[oid] = size
        else:
            self.bounds.append(z3.ULT(term, z3.BitVecVal(1 << self.off_bits, self.bits)))
        self.sizes[oid] = term
        self._set_live(oid, True)
        if self.alive is not None:
            self.alive[oid] = True
        if heap:
            self.heap.add(oid)
        return oid

    def string(self, text: str, data: list[int]) -> z3.ExprRef:
        key = "#s:" + text
        oid = self.names.get(key)
        if oid is None:
            oid = self.create(len(data))
            self.names[key] = oid
            self.readonly.add(oid)
            b = self.base(oid)
            for i, byte in enumerate(data):
                self.put(b + i, byte & 0xFF)
        return self.base(oid)

    def function(self, name: str) -> z3.ExprRef:
        key = "#f:" + name
        oid = self.names.get(key)
        if oid is None:
            oid = self.create(0)
            self.names[key] = oid
        return self.base(oid)

    # ---- validity -----------------------------------------------------------------------
    def oid(self, p: Any) -> z3.ExprRef:
        return z3.Extract(self.bits - 1, self.off_bits, self.term(p))

    def offset(self, p: Any) -> z3.ExprRef:
        return z3.ZeroExt(self.id_bits, z3.Extract(self.off_bits - 1, 0, self.term(p)))

    def valid(self, p: Any, n: Any) -> Any:
        """``p .. p+n`` lies in one live object (a bool where the path decides it)."""
        if isinstance(p, int) and isinstance(n, int) and self.alive is not None:
            oid, off = p >> self.off_bits, p & self.off_mask
            size = self.known_sizes.get(oid)
            if size is not None or oid not in self.sizes:
                return size is not None and off + n <= size and n <= size and self.alive.get(oid, False)
        nn = self.term(n)
        oid_t, off = self.oid(p), self.offset(p)
        inside = [z3.And(oid_t == z3.BitVecVal(k, self.id_bits), z3.ULE(off + nn, size), z3.ULE(nn, size))
                  for k, size in self.sizes.items()]
        return z3.And(z3.Or(*inside) if inside else z3.BoolVal(False), z3.Select(self.live, oid_t))

    def writable(self, p: Any) -> Any:
        """Whether ``p`` points to no string literal (a bool where the path decides it)."""
        k = self._concrete(p)
        if k is not None:
            return (k >> self.off_bits) not in self.readonly
        return self.writable_term(p)

    def writable_term(self, p: Any) -> z3.BoolRef:
        oid = self.oid(p)
        return z3.And(*[oid != z3.BitVecVal(k, self.id_bits) for k in self.readonly])

    def valid_term(self, p: Any, n: Any) -> z3.BoolRef:
        v = self.valid(p, n)
        return z3.BoolVal(v) if isinstance(v, bool) else v

    def check(self, p: Any, n: Any, step: int, kind: str = "deref") -> None:
        v = self.valid(p, n)
        if v is not True:  # (an access the path shows valid needs no record)
            self.accesses.append(Access(step, z3.BoolVal(False) if v is False else v, kind))

    # ---- bytes --------------------------------------------------------------------------
    def load(self, p: Any, t: CType, step: int) -> Any:
        size = self._size(t)
        self.check(p, size, step)
        parts = [self.byte(self.add(p, i)) for i in range(size)]
        if size == 1:
            return parts[0]
        if all(isinstance(b, int) for b in parts):
            return sum(b << (8 * i) for i, b in enumerate(parts))
        whole = self._whole(parts)
        return whole if whole is not None else z3.Concat(*(self.term(b, 8) for b in reversed(parts)))

    def store(self, p: Any, t: CType, v: Any, step: int) -> None:
        size = self._size(t)
        self.check(p, size, step)
        for i in range(size):
            self.put(self.add(p, i), (v >> (8 * i)) & 0xFF if isinstance(v, int) else self._slice(v, i))

    def _slice(self, v: z3.ExprRef, i: int) -> z3.ExprRef:
        """Byte ``i`` of ``v``, noted so that a read of all of ``v``'s bytes gives ``v`` back
        without asking z3 what each byte is (a fold over 10,000 cells reads 40,000 of them)."""
        b = z3.Extract(8 * i + 7, 8 * i, v)
        self.slices.setdefault(b.get_id(), (b, v, v.get_id(), i))
        return b

    def _whole(self, parts: list[Any]) -> z3.ExprRef | None:
        """The value whose bytes, lowest first, ``parts`` are, when they are the consecutive
        bytes of one term (a value stored and read back whole): that term, not their
        concatenation."""
        whole = None
        for i, b in enumerate(parts):
            noted = None if isinstance(b, int) else self.slices.get(b.get_id())
            if noted is None or noted[3] != i or (whole is not None and noted[2] != whole[2]):
                return _whole(parts)  # (bytes this state did not cut: z3 says what they are)
            whole = noted
        assert whole is not None
        return whole[1] if whole[1].size() == 8 * len(parts) else None

    def _size(self, t: CType) -> int:
        if not isinstance(t, IntType | PointerType):
            raise MemoryUnsupported(f"memory values of type {t}")
        size = self.layout.sizeof(t)
        assert size is not None
        return size

    def _fresh_address(self) -> z3.ExprRef:
        self.counter += 1
        return z3.BitVec(f"addr#{self.counter}", self.bits)

    def zero(self, base: Any, n: Any) -> None:
        self.fill(base, 0, n)

    def fill(self, dst: Any, byte: Any, n: Any) -> None:
        if isinstance(n, int) and n <= 64:
            for i in range(n):
                self.put(self.add(dst, i), byte)
            return
        nn, d = self.term(n), self.term(dst)
        a = self._fresh_address()
        old = self.mem
        self.replace(z3.Lambda([a], z3.If(z3.And(z3.ULE(d, a), z3.ULT(a - d, nn)), self.term(byte, 8),
                                          z3.Select(old, a))))

    def copy(self, dst: Any, src: Any, n: Any) -> None:
        if isinstance(n, int) and n <= 64:
            data = [self.byte(self.add(src, i)) for i in range(n)]  # read all first: the ranges may overlap
            for i in range(n):
                self.put(self.add(dst, i), data[i])
            return
        old = self.mem
        nn, d, sr = self.term(n), self.term(dst), self.term(src)
        a = self._fresh_address()
        self.replace(z3.Lambda([a], z3.If(z3.And(z3.ULE(d, a), z3.ULT(a - d, nn)),
                                          z3.Select(old, a - d + sr), z3.Select(old, a))))

    def byte_term(self, a: Any) -> z3.ExprRef:
        return self.term(self.byte(a), 8)

    def c_string_length(self, p: Any, step: int, bound: int = 64) -> z3.ExprRef:
        """strlen(p), for strings shorter than ``bound`` (a longer one is not a defined path here)."""
        p = self.term(p)
        out = z3.BitVecVal(bound, self.bits)
        for i in reversed(range(bound)):
            out = z3.If(self.byte_term(p + i) == 0, z3.BitVecVal(i, self.bits), out)
        self.bounds.append(z3.ULT(out, z3.BitVecVal(bound, self.bits)))
        self.check(p, out + 1, step)
        return out

    def c_string_find(self, p: Any, c: z3.ExprRef, step: int, bound: int = 64) -> z3.ExprRef:
        """strchr(p, c): the address of the first byte that is ``c``, NULL where a NUL comes first
        (it reads no further: the string need not end in bounds); for a search that stops
        within ``bound`` bytes."""
        p = self.term(p)
        out: z3.ExprRef = z3.BitVecVal(0, self.bits)
        stop: z3.ExprRef = z3.BitVecVal(bound, self.bits)
        for i in reversed(range(bound)):
            x = self.byte_term(p + i)
            out = z3.If(x == c, p + i, z3.If(x == 0, z3.BitVecVal(0, self.bits), out))
            stop = z3.If(z3.Or(x == c, x == 0), z3.BitVecVal(i, self.bits), stop)
        self.bounds.append(z3.ULT(stop, z3.BitVecVal(bound, self.bits)))
        self.check(p, stop + 1, step)
        return out

    def c_string_compare(self, a: z3.ExprRef, b: z3.ExprRef, limit: z3.ExprRef | None, step: int,
                         bound: int = 64) -> z3.ExprRef:
        """strcmp / strncmp as glibc's return it (``byte_difference``), for comparisons that stop
        within ``bound`` bytes. Both strings are read up to the first byte that differs or is NUL (or ``limit``
        bytes), and no further: neither need end in bounds."""
        a, b = self.term(a), self.term(b)
        zero = z3.BitVecVal(0, 32)
        out: z3.ExprRef = zero
        read: z3.ExprRef = z3.BitVecVal(bound + 1, self.bits)  # how many bytes of each it reads
        for i in reversed(range(bound)):
            x, y = self.byte_term(a + i), self.byte_term(b + i)
            here = z3.If(x != y, byte_difference(x, y), z3.If(x == 0, zero, out))
            count = z3.If(z3.Or(x != y, x == 0), z3.BitVecVal(i + 1, self.bits), read)
            if limit is not None:
                past = z3.UGE(z3.BitVecVal(i, self.bits), limit)
                here = z3.If(past, zero, here)
                count = z3.If(past, z3.BitVecVal(i, self.bits), count)
            out, read = here, count
        self.bounds.append(z3.ULE(read, z3.BitVecVal(bound, self.bits)))
        self.check(a, read, step)
        self.check(b, read, step)
        return out

    def c_string_ncopy(self, dst: Any, src: Any, n: Any, step: int) -> None:
        """strncpy(dst, src, n): the bytes of ``src`` up to its terminator or ``n`` (only those
        are read, so ``src`` need not end within ``n``), then zeros up to ``n``. A length not
        known on the path is at most the largest object's size (``dst`` must hold it)."""
        k = self._concrete(n)
        span = k if k is not None else self._string_bound()
        if span > 256:
            raise MemoryUnsupported("strncpy of a large length")
        self.check(dst, n, step)
        nn = self.term(n)
        data = [self.byte_term(self.add(src, i)) for i in range(span)]  # all read first: they may overlap
        read = nn  # how many bytes of src are read: to its terminator, at most n
        for i in reversed(range(span)):
            here = z3.BitVecVal(i + 1, self.bits)
            read = z3.If(z3.And(data[i] == 0, z3.ULE(here, nn)), here, read)
        self.check(src, read, step)
        zero = z3.BitVecVal(0, 8)
        for i in range(span):
            at = z3.BitVecVal(i, self.bits)
            new = z3.If(z3.ULT(at, read), data[i], zero)
            self.put(self.add(dst, i), new if k is not None else z3.If(z3.ULT(at, nn), new, self.byte_term(self.add(dst, i))))

    def compare_bytes(self, a: z3.ExprRef, b: z3.ExprRef, n: z3.ExprRef, step: int) -> z3.ExprRef:
        """memcmp as glibc's returns it (``byte_difference``), for a length known on the path."""
        k = self._concrete(n)
        if k is None or k > 4096:
            raise MemoryUnsupported("memcmp of a length that is not known or is large")
        self.check(a, k, step)
        self.check(b, k, step)
        a, b = self.term(a), self.term(b)
        out: z3.ExprRef = z3.BitVecVal(0, 32)
        for i in reversed(range(k)):
            x, y = self.byte_term(a + i), self.byte_term(b + i)
            out = z3.If(x != y, byte_difference(x, y), out)
        return out

    # ---- the heap -----------------------------------------------------------------------
    def allocate(self, size: z3.ExprRef, zero: bool, frame: int | None = None) -> z3.ExprRef:
        """A new object: on the heap, or with ``frame`` on that call's stack (``alloca``: it dies
        when the call returns, is never a leak, and freeing it is invalid)."""
        oid = self.create(size, heap=frame is None)
        if frame is not None:
            self.names[f"#a:{oid}@{frame}"] = oid
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

    def terminated(self, p: Any) -> z3.BoolRef:
        """A NUL lies between ``p`` and the end of its live object."""
        p = self.term(p)
        bound = self._string_bound()
        oid, off = self.oid(p), self.offset(p)
        size = z3.BitVecVal(0, self.bits)
        for k, sz in self.sizes.items():
            size = z3.If(oid == z3.BitVecVal(k, self.id_bits), sz, size)
        nul = [z3.And(z3.ULT(off + i, size), self.byte_term(p + i) == 0) for i in range(bound)]
        return z3.And(self.valid_term(p, 1), z3.Or(*nul))

    def read_until(self, p: Any, q: Any, compare: bool) -> z3.BoolRef:
        """The bytes that strcmp(p, q) (``compare``) or strchr(p, q) reads lie in bounds: those
        of ``p`` (and of ``q``) up to the first that differs from ``q``'s (or equals the char
        ``q``) or is NUL. A byte out of bounds makes it false whatever its value: it is read
        only when every byte before it went on."""
        p = self.term(p)
        q = self.term(q) if compare else z3.Extract(7, 0, q) if z3.is_bv(q) else z3.BitVecVal(q & 0xFF, 8)
        bound = self._string_bound()
        stop: z3.ExprRef = z3.BitVecVal(bound, self.bits)
        for i in reversed(range(bound)):
            x = self.byte_term(p + i)
            ends = z3.Or(x == 0, x != self.byte_term(q + i) if compare else x == q)
            stop = z3.If(ends, z3.BitVecVal(i, self.bits), stop)
        ok = [z3.ULT(stop, z3.BitVecVal(bound, self.bits)), self.valid_term(p, stop + 1)]
        if compare:
            ok.append(self.valid_term(q, stop + 1))
        return z3.And(*ok)

    def string_length(self, p: Any) -> z3.ExprRef:
        p = self.term(p)
        bound = self._string_bound()
        out = z3.BitVecVal(bound, self.bits)
        for i in reversed(range(bound)):
            out = z3.If(self.byte_term(p + i) == 0, z3.BitVecVal(i, self.bits), out)
        return out

    def freeable(self, p: Any) -> z3.BoolRef:
        k = self._concrete(p)
        if k is not None and self.alive is not None:  # (a path's pointers are mostly concrete)
            oid = k >> self.off_bits
            return z3.BoolVal(k == 0 or (k & self.off_mask == 0 and oid in self.heap and self.alive.get(oid, False)))
        p = self.term(p)
        oid = self.oid(p)
        heap = z3.Or(*[oid == z3.BitVecVal(k, self.id_bits) for k in self.heap]) if self.heap else z3.BoolVal(False)
        return z3.Or(p == 0, z3.And(self.offset(p) == 0, heap, z3.Select(self.live, oid)))

    def holders(self, frames: set[int]) -> list[tuple[int, bool]]:
        """The objects that may hold pointers to heap objects: those named by the globals and
        by the active calls' ``frames`` (True), and the heap objects (False)."""

        def alive(key: str) -> bool:
            if key.startswith(("#s:", "#f:")):
                return False
            return "@" not in key or int(key.rsplit("@", 1)[1]) in frames

        return [(oid, True) for key, oid in self.names.items() if alive(key)] + [(oid, False) for oid in self.heap]

    def tracked(self, pointers: list[Any], frames: set[int]) -> z3.BoolRef:
        """No live heap object is lost: each is reachable from ``pointers`` (the plain pointer
        variables of the globals and of the active calls' ``frames``) or from the pointers
        stored in those calls' and the globals' objects, through pointers stored in live heap
        objects. (A cycle that nothing reaches is lost: each of its objects pointed to by
        another counted as tracked here once, and a leaked ring was proved TRUE.)

        What the path decides is decided in Python: reachability through the pointers that are
        numbers gives the objects surely reached, and with the open ones taken to point
        anywhere, those that may be; only the objects in between make terms, a reachability
        fixpoint unrolled over them. (A term over a list of 120 nodes took 42 s to simplify,
        deaf to the time limit.)"""
        if all(self._alive(k) is False for k in self.heap):
            return z3.BoolVal(True)  # (every object freed: whatever holds what, nothing leaks)
        ptr_bytes = self.bits // 8
        id_mask = (1 << self.id_bits) - 1
        roots: set[int] = set()  # objects a root points to
        open_roots: list[z3.ExprRef] = []  # root values the path leaves open
        points: dict[int, set[int]] = {}  # heap object -> the objects it points to
        open_points: dict[int, list[z3.ExprRef]] = {}  # heap object -> its stored values left open
        for g in pointers:
            v = self._value(g)
            if v is None:
                open_roots.append(self.term(g))
            else:
                roots.add((v >> self.off_bits) & id_mask)
        for oid, always in self.holders(frames):
            size = self.known_sizes.get(oid)
            if size is None:
                t = z3.simplify(self.sizes[oid])
                size = t.as_long() if z3.is_bv_value(t) else None
            if size is None or size > 4096:
                raise MemoryUnsupported("a leak check with objects of unknown or large size")
            if not always and self._alive(oid) is False:
                continue
            targets = roots if always else points.setdefault(oid, set())
            opened = open_roots if always else open_points.setdefault(oid, [])
            b = self.base(oid)
            for off in range(0, size - ptr_bytes + 1, ptr_bytes):
                parts = [self.byte(b + off + i) for i in range(ptr_bytes)]
                whole = 0
                for part in reversed(parts):
                    byte = self._value(part)
                    if byte is None:
                        opened.append(z3.Concat(*reversed([self.term(x, 8) for x in parts])))
                        break
                    whole = (whole << 8) | byte
                else:
                    targets.add((whole >> self.off_bits) & id_mask)
        heap = [k for k in self.heap if self._alive(k) is not False]

        def reach(through: Callable[[int], bool], anywhere: bool) -> set[int]:
            seen: set[int] = set()
            todo = list(heap) if anywhere and open_roots else [k for k in roots if k in self.heap]
            while todo:
                k = todo.pop()
                if k in seen:
                    continue
                seen.add(k)
                if k in points and through(k):
                    todo.extend(t for t in points[k] if t in self.heap)
                    if anywhere and open_points.get(k):
                        todo.extend(heap)
            return seen

        surely = reach(lambda k: self._alive(k) is True, False)
        maybe = reach(lambda k: self._alive(k) is not False, True)
        if any(self._alive(k) is True and k not in maybe for k in heap):
            return z3.BoolVal(False)  # a live object nothing can reach
        lost = [k for k in heap if k not in maybe]  # (of unknown liveness)
        between = [k for k in heap if k in maybe and k not in surely]
        if not lost and not between:
            return z3.BoolVal(True)
        n_open = len(open_roots) + sum(len(v) for v in open_points.values())
        if len(between) * len(between) * (len(between) + n_open) > MAX_LEAK_TERMS:
            raise MemoryUnsupported(f"a leak check over {len(between)} heap objects whose reachability the path "
                                    "leaves open")

        def live(k: int) -> z3.BoolRef:
            return z3.BoolVal(True) if self._alive(k) is True else z3.Select(self.live, z3.BitVecVal(k, self.id_bits))

        def to(k: int, values: list[z3.ExprRef]) -> list[z3.BoolRef]:
            kk = z3.BitVecVal(k, self.id_bits)
            return [self.oid(v) == kk for v in values]

        # Reached in 0 steps from the objects surely reached: through the roots left open, and
        # through what those objects hold (if they live).
        reached = {}
        for k in between:
            r = to(k, open_roots)
            for h in surely:
                if h in points or h in open_points:
                    via = [z3.BoolVal(True)] if k in points.get(h, ()) else []
                    via += to(k, open_points.get(h, []))
                    if via:
                        r.append(z3.And(live(h), z3.Or(*via)))
            reached[k] = z3.Or(*r) if r else z3.BoolVal(False)
        for _ in range(len(between)):
            step = {}
            for k in between:
                r = [reached[k]]
                for h in between:
                    if h == k:
                        continue
                    via = [z3.BoolVal(True)] if k in points.get(h, ()) else []
                    via += to(k, open_points.get(h, []))
                    if via:
                        r.append(z3.And(reached[h], live(h), z3.Or(*via)))
                step[k] = z3.Or(*r)
            reached = step
        leaks = [live(k) for k in lost] + [z3.And(live(k), z3.Not(reached[k])) for k in between]
        return z3.Not(z3.Or(*leaks))

    def _alive(self, oid: int) -> bool | None:
        """Whether an object lives, where the path's frees (all at concrete addresses) decide it."""
        return None if self.alive is None else self.alive.get(oid, False)

    @staticmethod
    def _value(v: Any) -> int | None:
        """A value as a number, if it is one (without asking z3 to simplify it)."""
        if isinstance(v, int):
            return v
        return v.as_long() if z3.is_bv_value(v) else None

    def end_frame(self, suffix: str) -> None:
        """A function returned: the objects of its frame's variables (named ``var@frame``) die."""
        for key, oid in self.names.items():
            if key.endswith(suffix):
                self.set_alive(oid, False)

    def end_lifetime(self, key: str) -> None:
        """Control left the block of the variable named ``key``: its object is dead."""
        oid = self.names.get(key)
        if oid is not None:
            self.set_alive(oid, False)
            self.ended.add(key)

    def begin_lifetime(self, key: str) -> None:
        """The variable named ``key`` is declared: after an ended lifetime it gets a new object."""
        if key in self.ended:
            self.ended.discard(key)
            del self.names[key]

    def set_alive(self, oid: int, alive: bool) -> None:
        """An object's lifetime begins or ends (a variable's, as control enters or leaves its block)."""
        if self.alive is not None and self.alive.get(oid) is alive:
            return
        self._set_live(oid, alive)
        if self.alive is not None:
            self.alive[oid] = alive

    def determined(self, op: str, a: z3.ExprRef, b: z3.ExprRef) -> z3.BoolRef:
        """Where C itself decides a comparison of two pointers. Not if either points to a freed
        object (the allocator may have reused its address), not ``<`` and the like between two
        objects (their order is the allocator's), and not ``==`` between one object's end and
        another object (which may lie right there)."""
        known = self.determined_now(op, a, b)
        if known is not None:
            return z3.BoolVal(known)
        a, b = self.term(a), self.term(b)

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

    def determined_now(self, op: str, a: Any, b: Any) -> bool | None:
        """``determined`` where both pointers are concrete and liveness is known, else None."""
        ka, kb = self._concrete(a), self._concrete(b)
        if ka is None or kb is None or self.alive is None:
            return None
        ends = []
        for k in (ka, kb):
            oid, off = k >> self.off_bits, k & self.off_mask
            if oid in self.sizes and oid not in self.known_sizes:
                return None  # an object of symbolic size: where it ends is the solver's
            if k != 0 and not self.alive.get(oid, False):
                return False
            size = self.known_sizes.get(oid)
            ends.append(size is not None and size != 0 and off == size)
        if ka == 0 or kb == 0 or ka >> self.off_bits == kb >> self.off_bits:
            return True
        return op in ("==", "!=") and not any(ends)

    def release(self, p: Any, step: int) -> None:
        k = self._concrete(p)
        self.accesses.append(Access(step, self.freeable(k if k is not None else p), "free"))  # liveness before
        if k is None:
            self.alive = None  # which object died is a matter of the solver from here
            p = self.term(p)
            self.live = z3.If(p == 0, self.live, z3.Store(self.live, self.oid(p), z3.BoolVal(False)))
        elif k != 0:
            if self.alive is not None:
                self.alive[k >> self.off_bits] = False
            self._set_live(k >> self.off_bits, False)


def _whole(parts: list[Any]) -> z3.ExprRef | None:
    """The value whose bytes, lowest first, ``parts`` are, when they are the consecutive byte
    extracts of one term (a value stored and read back whole): that term, not their concatenation."""
    first = parts[0]
    if isinstance(first, int) or not z3.is_app_of(first, z3.Z3_OP_EXTRACT):
        return None
    src = first.arg(0)
    if src.size() != 8 * len(parts):
        return None
    for i, b in enumerate(parts):
        if isinstance(b, int) or not z3.is_app_of(b, z3.Z3_OP_EXTRACT) or b.params() != [8 * i + 7, 8 * i] \
                or not b.arg(0).eq(src):
            return None
    return src
