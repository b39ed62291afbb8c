"""Memory for the explicit-value analysis, as CPAchecker's value analysis tracks memory locations.

A memory location is a byte range of an object: ``obj[off:size]`` is a state key like a
variable's name. Objects are the variables that are aggregates or have their address taken
(named like the variable), heap objects (``#h:<site>.<n>``: allocation site and instance
number), string literals (``#s:"..."``, read-only, never stored) and functions (``#f:<name>``).
Plain scalar variables keep their own names as keys, so integer-only programs pay nothing.

Values are ints or :class:`Ptr` (object, byte offset; the offset is None when unknown, e.g.
``&a[i]`` for an unknown ``i``). NULL is the int 0. Beside cells an object may have:

* ``obj[*]`` -> :class:`Zero`: every byte outside the ranges it lists is zero (``= {0}``,
  ``calloc``, static storage). Large arrays are never enumerated. The written ranges are
  part of the value, so state coverage (``b``'s facts among ``a``'s) stays exact;
* ``obj[#]`` -> :class:`Heap`: a heap object's size and whether it was freed.

``#n:<site>`` counts a site's allocations, so a loop that allocates gets distinct objects;
past :data:`MAX_INSTANCES` the site allocates one *summary* object (``.?``) that stands for
all further ones: its reads are unknown and its writes havoc it.

In a block's reduced state (BAM) the memory the block cannot reach is left out (see
:func:`reachable_objects`), and ``#intact`` -> :class:`Intact` says that nothing has written
outside the state since the block's entry: an operation that may write anywhere removes it,
and then expand cannot give the caller its other memory back as it was. (The fact is the
positive one so that a state without it covers nothing that has it: a missing key is less
knowledge.)

Soundness rules: a missing key is an unknown value. A write through an unknown pointer,
out of bounds or to freed memory (undefined behaviour) forgets all memory: no TRUE relies on
such a path being impossible; so does a write at an unknown offset (it may be out of bounds).
Two facts are read from absence: the leak check takes the heap objects a state lists (their
``[#]`` keys, never dropped by a precision) as all there are, and a variable's object without
one is alive (``end_lifetime`` marks a dead one); so under memsafety a state covers another
only if both list the same objects (``ValueCPA.is_less_or_equal``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ...cfa.cfa import Program
from ...cfa.ctype import ArrayType, CType, IntType, PointerType, StructType
from ...cfa.folding import folded_to_sign
from ...cfa.ir import (
    AddrOf,
    Binary,
    Cast,
    Const,
    Deref,
    Expr,
    FuncRef,
    Index,
    Member,
    StrLit,
    Unary,
    Valid,
    Var,
)
from ...cfa.layout import Layout
from ...cfa.output_calls import writes_nothing
from ...cfa.semantics import eval_cast
from ...cfa.traits import ALLOCATORS, memory_variables

MAX_INSTANCES = 10  # concrete objects per allocation site before it turns to a summary object
ENDED = "~"  # suffix of a variable's instance whose lifetime ended before its block began again
MAX_ENUMERATED = 4096  # bytes an operation may enumerate (memset, memcpy, unknown-index reads)
HEAP = "#h:"
STACK = "#a:"  # alloca's objects: named like heap objects, they die when their function returns
COUNTER = "#n:"
INTACT = "#intact"
STRING = "#s:"
FUNCTION = "#f:"
_MISSING: Any = object()


@dataclass(frozen=True, slots=True)
class Ptr:
    """A pointer value: an object and an offset in bytes (None: not known)."""

    obj: str
    off: int | None

    def __repr__(self) -> str:
        return f"&{self.obj}+{'?' if self.off is None else self.off}"


@dataclass(frozen=True, slots=True)
class Zero:
    """The object's bytes are zero, except in these (offset, size) ranges written since."""

    written: frozenset = frozenset()

    def __repr__(self) -> str:
        return f"zero-filled{'' if not self.written else f' but {len(self.written)} cell(s)'}"


@dataclass(frozen=True, slots=True)
class Heap:
    """A heap object's size (None: not known) and whether it was freed."""

    size: int | None
    freed: bool = False

    def __repr__(self) -> str:
        return f"heap({'?' if self.size is None else self.size}{', freed' if self.freed else ''})"


@dataclass(frozen=True, slots=True)
class Intact:
    """The value of :data:`INTACT`."""

    def __repr__(self) -> str:
        return "memory beyond the block untouched"


INTACT_VALUE = Intact()


def cell(obj: str, off: int, size: int) -> str:
    return f"{obj}[{off}:{size}]"


def zero_key(obj: str) -> str:
    return f"{obj}[*]"


def heap_key(obj: str) -> str:
    return f"{obj}[#]"


@lru_cache(maxsize=65536)
def split_key(key: str) -> tuple[str, int, int] | None:
    """``obj[off:size]`` -> (obj, off, size); None for other keys."""
    if not key.endswith("]"):
        return None
    i = key.rfind("[")
    body = key[i + 1:-1]
    if ":" not in body:
        return None
    off, size = body.split(":", 1)
    return key[:i], int(off), int(size)


@lru_cache(maxsize=65536)
def object_of(key: str) -> str | None:
    """The object a memory key belongs to (None for a plain variable or a counter)."""
    if not key.endswith("]"):
        return None
    return key[:key.rfind("[")]


@lru_cache(maxsize=65536)
def root_of(key: str) -> str:
    """What a precision tracks for a key: its variable, or its heap object's allocation site."""
    if key.startswith(COUNTER):
        return HEAP + key[len(COUNTER):]
    obj = object_of(key)
    if obj is None:
        return key
    if obj.startswith((HEAP, STACK)):
        return obj[:obj.rfind(".")]
    return obj


def is_allocation_site(root: str) -> bool:
    """Whether a precision's root is an allocation site (its objects outlive the call that made
    them, or are passed on from it)."""
    return root.startswith((HEAP, STACK))


def release_frame(m: dict[str, Any], function: str) -> None:
    """``function`` returned: the objects its alloca calls made are gone (in place). (Those of an
    outer activation of a recursive function go too: their later accesses are flagged, never
    assumed valid.)"""
    prefix = f"{STACK}{function}:"
    for k in [k for k in m if k.startswith(prefix)]:
        v = m[k]
        if k.endswith("[#]") and isinstance(v, Heap):
            m[k] = Heap(v.size, True)
        elif not k.startswith(COUNTER):
            del m[k]


def is_summary(obj: str) -> bool:
    return obj.endswith(".?")


def always_kept(key: str) -> bool:
    """Allocation counters and object sizes: kept under every precision (they keep objects
    distinct and bounds known), so never part of an interpolant."""
    return key.startswith(COUNTER) or key.endswith("[#]") or key == INTACT


class _KeyKinds(dict):
    """Whether a key is a memory key, memoized: BAM's reduce, expand and rebuild ask it of every
    key of a state at every call (25 million times on tiny-AES-c's own test, a fifth of its run),
    and a hit is a lookup in C. Bounded: it starts over past ``MAX_KEY_KINDS`` keys."""

    def __missing__(self, key: str) -> bool:
        if len(self) > MAX_KEY_KINDS:
            self.clear()
        kind = self[key] = key.endswith("]") or key.startswith(COUNTER) or key == INTACT
        return kind


MAX_KEY_KINDS = 1 << 20
MEMORY_KEY = _KeyKinds()


def is_memory_key(key: str) -> bool:
    return MEMORY_KEY[key]


def site_function(counter: str) -> str:
    """The function of an allocation counter's site (``#n:<function>:<node id>``)."""
    return counter[len(COUNTER):].rsplit(":", 1)[0]


def reachable_objects(m: dict[str, Any], by_object: dict[str, list[str]], roots: set[str]) -> set[str]:
    """The objects of ``m`` reachable from ``roots`` through the pointers their cells hold
    (``by_object``: each object's keys in ``m``)."""
    seen: set[str] = set()
    todo = list(roots)
    while todo:
        obj = todo.pop()
        if obj in seen:
            continue
        seen.add(obj)
        for k in by_object.get(obj, ()):
            v = m[k]
            if isinstance(v, Ptr) and v.obj not in seen:
                todo.append(v.obj)
    return seen


class Memory:
    """Program-wide facts the memory model reads: layouts and which variables are objects."""

    def __init__(self, program: Program):
        self.program = program
        self.layout = Layout(program.data_model, program.structs)
        self.vars = program.vars
        self.objects = memory_variables(program)
        self.ptr_bits = program.data_model.pointer_bits

    def view(self, m: dict[str, Any], name: Callable[[str], str] = lambda n: n,
             base: Callable[[str], str] = lambda n: n) -> View:
        return View(self, m, name, base)


class View:
    """Evaluation and update of one state's map. ``name`` maps a program variable to its key
    (the refiner renames per call frame), ``base`` maps a key back to the variable."""

    __slots__ = ("mem", "m", "name", "base", "owned")

    def __init__(self, mem: Memory, m: dict[str, Any], name: Callable[[str], str], base: Callable[[str], str]):
        self.mem = mem
        self.m = m
        self.name = name
        self.base = base
        self.owned = False

    # ---- copy on write ---------------------------------------------------------------
    def _own(self) -> dict[str, Any]:
        if not self.owned:
            self.m = dict(self.m)
            self.owned = True
        return self.m

    def get(self, key: str) -> Any:
        return self.m.get(key)

    def set_plain(self, key: str, value: Any) -> None:
        if value is None:
            if key in self.m:
                del self._own()[key]
        elif self.m.get(key, _MISSING) != value:
            self._own()[key] = value

    # ---- objects ---------------------------------------------------------------------
    def object_size(self, obj: str) -> int | None:
        h = self.m.get(heap_key(obj))
        if isinstance(h, Heap):  # a heap object, or a variable-length array
            return h.size
        if obj.startswith((HEAP, STACK)):
            return None
        if obj.startswith(STRING):
            return len(_string_bytes(obj[len(STRING):]))
        if obj.startswith(FUNCTION):
            return 0
        info = self.mem.vars.get(self.base(obj))
        return None if info is None else self.mem.layout.sizeof(info.type)


    # ---- addresses -------------------------------------------------------------------
    def address(self, lv: Expr, evaluate: Callable[[Expr], Any]) -> Ptr | int | None:
        """The address of an lvalue: a Ptr (its offset None if unknown), 0 for NULL-based, or None."""
        if isinstance(lv, Var):
            return Ptr(self.name(lv.name), 0) if lv.name in self.mem.objects else None
        if isinstance(lv, Deref):
            v = evaluate(lv.ptr)
            return v if isinstance(v, Ptr) or v == 0 else None
        if isinstance(lv, Member):
            b = self.address(lv.base, evaluate)
            if not isinstance(b, Ptr):
                return b if b == 0 else None
            f = self.mem.layout.offset(lv.base.type, lv.field)
            if f is None:
                return None
            return Ptr(b.obj, None if b.off is None else b.off + f[0])
        if isinstance(lv, Index):
            b = self.address(lv.base, evaluate)
            if not isinstance(b, Ptr):
                return b if b == 0 else None
            i = evaluate(lv.index)
            es = self.mem.layout.sizeof(lv.type)
            if type(i) is not int or b.off is None or es is None:
                return Ptr(b.obj, None)
            return Ptr(b.obj, b.off + i * es)
        return None

    # ---- reads -----------------------------------------------------------------------
    def load(self, addr: Ptr | int | None, t: CType) -> Any:
        if not isinstance(addr, Ptr) or not isinstance(t, IntType | PointerType):
            return None
        size = self.mem.layout.sizeof(t)
        if size is None:
            return None
        if addr.off is None:
            return self._load_any(addr.obj, t, size)
        return self.read(addr.obj, addr.off, t, size)

    def read(self, obj: str, off: int, t: CType, size: int) -> Any:
        if obj.startswith(STRING):
            data = _string_bytes(obj[len(STRING):])
            if off < 0 or off + size > len(data) or not isinstance(t, IntType):
                return None
            return t.wrap(int.from_bytes(bytes(data[off:off + size]), "little"))
        if is_summary(obj):
            return None
        osize = self.object_size(obj)
        if osize is None or off < 0 or off + size > osize:
            return None
        h = self.m.get(heap_key(obj))
        if isinstance(h, Heap) and h.freed:
            return None
        v = self.m.get(cell(obj, off, size))
        if v is not None:
            if isinstance(t, IntType):
                return t.wrap(v) if type(v) is int else None
            return v
        z = self.m.get(zero_key(obj))
        if isinstance(z, Zero) and not any(o < off + size and off < o + s for o, s in z.written):
            return 0
        if size > 1 and isinstance(t, IntType):
            byte = self.mem.program.data_model.uchar
            parts = []
            for i in range(size):
                b = self.read(obj, off + i, byte, 1)
                if b is None:
                    return None
                parts.append(b)
            return t.wrap(int.from_bytes(bytes(parts), "little"))
        return None

    def _load_any(self, obj: str, t: CType, size: int) -> Any:
        """A read at an unknown offset: known only if every candidate cell agrees."""
        osize = self.object_size(obj)
        if osize is None or is_summary(obj) or osize // size > MAX_ENUMERATED:
            return None
        seen: Any = _MISSING
        for off in range(0, osize - size + 1, size):
            v = self.read(obj, off, t, size)
            if v is None or (seen is not _MISSING and v != seen):
                return None
            seen = v
        return None if seen is _MISSING else seen

    # ---- writes ----------------------------------------------------------------------
    def store(self, addr: Ptr | int | None, t: CType, value: Any) -> None:
        size = self.mem.layout.sizeof(t)
        if not isinstance(addr, Ptr) or size is None or addr.off is None:
            # Through an unknown or NULL pointer, or at an unknown offset: it may be anywhere
            # (out of bounds is undefined): no TRUE may rely on where it went.
            self.forget_all()
            return
        if is_summary(addr.obj):
            self.forget_object(addr.obj)
            return
        self.write(addr.obj, addr.off, size, value)

    def write(self, obj: str, off: int, size: int, value: Any) -> None:
        osize = self.object_size(obj)
        h = self.m.get(heap_key(obj))
        if (osize is None or off < 0 or off + size > osize or obj.startswith((STRING, FUNCTION))
                or (isinstance(h, Heap) and h.freed)):
            self.forget_all()  # out of bounds, read-only or freed: undefined behaviour
            return
        key = cell(obj, off, size)
        m = self.m
        if key not in m:
            prefix = obj + "["
            clash = [k for k in m if k.startswith(prefix) and _overlaps(k, off, size)]
            if clash:
                m = self._own()
                for k in clash:
                    del m[k]
        z = self.m.get(zero_key(obj))
        if isinstance(z, Zero) and (off, size) not in z.written:
            self._own()[zero_key(obj)] = Zero(z.written | {(off, size)})
        self.set_plain(key, value)

    def forget_object(self, obj: str, meta: bool = False) -> None:
        prefix = obj + "["
        keep = None if meta else heap_key(obj)
        doomed = [k for k in self.m if k.startswith(prefix) and k != keep]
        if doomed:
            m = self._own()
            for k in doomed:
                del m[k]

    def forget_all(self, heap_only: bool = False) -> None:
        doomed = [k for k in self.m if k.endswith("]") and not k.endswith("[#]")
                  and (not heap_only or k.startswith(HEAP))]
        if INTACT in self.m:  # the write may have gone beyond the state, too
            doomed.append(INTACT)
        if doomed:
            m = self._own()
            for k in doomed:
                del m[k]

    def declare(self, obj: str, zero: bool, size: Any = _MISSING) -> None:
        """A fresh instance of a variable's object: unknown contents, or all zero. ``size``: a
        variable-length array's size in bytes (None if unknown)."""
        self.forget_object(obj)
        if zero:
            self._own()[zero_key(obj)] = Zero()
        if size is not _MISSING:
            self._own()[heap_key(obj)] = Heap(size if type(size) is int and size >= 0 else None)
        elif heap_key(obj) in self.m:  # a lifetime begins again (a block entered once more)
            m = self._own()
            ended = m.pop(heap_key(obj))
            # A pointer to the ended instance still dangles: it now points to a dead copy of it.
            old = obj + ENDED
            held = [(k, v) for k, v in m.items() if isinstance(v, Ptr) and v.obj == obj]
            for k, v in held:
                m[k] = Ptr(old, v.off)
            if held:
                m[heap_key(old)] = ended

    def end_lifetime(self, obj: str) -> None:
        """A variable's object is gone (control left its block, or its call returned): its
        contents are forgotten, and under memsafety it is marked dead like a freed object, so
        an access through a pointer that outlived it is invalid."""
        size = self.object_size(obj)
        self.forget_object(obj)
        if self.mem.program.memsafety:
            self._own()[heap_key(obj)] = Heap(size, True)

    # ---- block operations (the modelled C library) --------------------------------------
    def cells_in(self, obj: str, lo: int, hi: int) -> list[tuple[int, int, Any]]:
        out = []
        prefix = obj + "["
        for k, v in self.m.items():
            if k.startswith(prefix):
                s = split_key(k)
                if s is not None and s[0] == obj and lo <= s[1] and s[1] + s[2] <= hi:
                    out.append((s[1], s[2], v))
        return out

    def _in_bounds(self, p: Any, n: Any) -> bool:
        """Whether ``n`` bytes at ``p`` are known to lie in one (non-summary) object. A block
        write that is not known to is treated as possibly out of bounds: it forgets all memory."""
        if not isinstance(p, Ptr) or p.off is None or type(n) is not int or is_summary(p.obj):
            return False
        size = self.object_size(p.obj)
        return size is not None and 0 <= p.off and p.off + n <= size

    def fill(self, dst: Ptr | int | None, byte: Any, n: Any) -> None:
        """memset(dst, byte, n)."""
        if not self._in_bounds(dst, n):
            self.forget_all()
            return
        assert isinstance(dst, Ptr) and dst.off is not None
        if n == 0:
            return
        if byte == 0 and dst.off == 0 and n == self.object_size(dst.obj):
            self.declare(dst.obj, zero=True)
            return
        if n > MAX_ENUMERATED:
            self.forget_object(dst.obj)
            return
        for i in range(n):
            self.write(dst.obj, dst.off + i, 1, None if type(byte) is not int else byte & 0xFF)

    def copy(self, dst: Ptr | int | None, src: Ptr | int | None, n: Any) -> None:
        """memcpy / memmove / struct assignment: ``n`` bytes from ``src`` to ``dst``."""
        if not self._in_bounds(dst, n):
            self.forget_all()
            return
        assert isinstance(dst, Ptr) and dst.off is not None
        if n == 0:
            return
        if not isinstance(src, Ptr):
            self.forget_object(dst.obj)  # the bytes copied are unknown
            return
        dsize = self.object_size(dst.obj)
        assert dsize is not None
        ssize = self.object_size(src.obj)
        if src.off is None or ssize is None or src.off < 0 or src.off + n > ssize or is_summary(src.obj):
            self.forget_object(dst.obj)  # the bytes copied are unknown (or the read is undefined)
            return
        # Read the source's cells first (the ranges may overlap: memmove).
        z: Any = None
        if src.obj.startswith(STRING):
            data = _string_bytes(src.obj[len(STRING):])[src.off:src.off + n]
            cells = [(src.off + i, 1, b) for i, b in enumerate(data)]
            zero_gaps = False
        else:
            cells = self.cells_in(src.obj, src.off, src.off + n)
            z = self.m.get(zero_key(src.obj))
            zero_gaps = isinstance(z, Zero)
        if zero_gaps:
            assert isinstance(z, Zero)
            covered = bytearray(n)
            for o, s, _ in cells:
                for b in range(o - src.off, o - src.off + s):
                    covered[b] = 1
            written = {o - src.off + i for o, s in z.written for i in range(s)
                       if 0 <= o - src.off + i < n}
            gaps = [i for i in range(n) if not covered[i] and i not in written]
        else:
            gaps = []
        if dst.off == 0 and n == dsize and zero_gaps and not cells and not z.written:
            self.declare(dst.obj, zero=True)
            return
        if n > MAX_ENUMERATED and (gaps or dst.off != 0 or n != dsize):
            self.forget_object(dst.obj)
            return
        # Clear the destination range, then write what is known.
        for k in [k for k in self.m if k.startswith(dst.obj + "[") and _overlaps(k, dst.off, n)]:
            del self._own()[k]
        z = self.m.get(zero_key(dst.obj))
        if isinstance(z, Zero):
            self._own()[zero_key(dst.obj)] = Zero(z.written | {(dst.off, n)})
        for o, s, v in cells:
            self.write(dst.obj, dst.off + (o - src.off), s, v)
        for i in gaps:
            self.write(dst.obj, dst.off + i, 1, 0)

    def c_string_length(self, p: Ptr | int | None) -> int | None:
        if not isinstance(p, Ptr) or p.off is None:
            return None
        byte = self.mem.program.data_model.char
        i = 0
        while i <= MAX_ENUMERATED:
            c = self.read(p.obj, p.off + i, byte, 1)
            if c is None:
                return None
            if c == 0:
                return i
            i += 1
        return None

    def c_string_compare(self, a: Any, b: Any, limit: int | None) -> int | None:
        if not isinstance(a, Ptr) or not isinstance(b, Ptr) or a.off is None or b.off is None:
            return None
        byte = self.mem.program.data_model.uchar
        i = 0
        while limit is None or i < limit:
            if i > MAX_ENUMERATED:
                return None
            x = self.read(a.obj, a.off + i, byte, 1)
            y = self.read(b.obj, b.off + i, byte, 1)
            if x is None or y is None:
                return None
            if x != y:
                return x - y  # (as glibc's: cfa/folding.py)
            if x == 0:
                return 0
            i += 1
        return 0

    def bytes_compare(self, a: Any, b: Any, n: int) -> int | None:
        """memcmp(a, b, n) where the bytes are known (as glibc's: cfa/folding.py)."""
        if not isinstance(a, Ptr) or not isinstance(b, Ptr) or a.off is None or b.off is None or n > MAX_ENUMERATED:
            return None
        byte = self.mem.program.data_model.uchar
        for i in range(n):
            x = self.read(a.obj, a.off + i, byte, 1)
            y = self.read(b.obj, b.off + i, byte, 1)
            if x is None or y is None:
                return None
            if x != y:
                return x - y
        return 0

    # ---- the heap ----------------------------------------------------------------------
    def allocate(self, site: str, size: Any, zero: bool, stack: bool = False) -> Ptr:
        count = self.m.get(COUNTER + site, 0)
        prefix = STACK if stack else HEAP
        if count == -1 or count >= MAX_INSTANCES:
            obj = f"{prefix}{site}.?"
            self.set_plain(COUNTER + site, -1)
        else:
            obj = f"{prefix}{site}.{count}"
            self.set_plain(COUNTER + site, count + 1)
        self.forget_object(obj, meta=True)
        self._own()[heap_key(obj)] = Heap(size if type(size) is int else None)
        if zero and not is_summary(obj):
            self._own()[zero_key(obj)] = Zero()
        return Ptr(obj, 0)

    def release(self, p: Any) -> None:
        if p == 0:
            return
        if not isinstance(p, Ptr) or not p.obj.startswith(HEAP) or p.off != 0 or is_summary(p.obj):
            if isinstance(p, Ptr) and is_summary(p.obj):
                self.forget_object(p.obj)
            else:
                self.forget_all(heap_only=not isinstance(p, Ptr))
            return
        h = self.m.get(heap_key(p.obj))
        self.forget_object(p.obj)
        if isinstance(h, Heap):
            self._own()[heap_key(p.obj)] = Heap(h.size, True)


def _overlaps(key: str, off: int, size: int) -> bool:
    s = split_key(key)
    if s is None:
        return False
    return s[1] < off + size and off < s[1] + s[2]


@lru_cache(maxsize=1024)
def _string_bytes(text: str) -> tuple[int, ...]:
    from ...cfa.translate.common import parse_string

    return tuple(b & 0xFF for b in parse_string(text))


def evaluate_memory(e: Expr, view: View, evaluate: Callable[[Expr], Any]) -> Any:
    """The value of an expression the integer evaluator does not handle: memory reads,
    addresses, pointer arithmetic and comparison, casts from and to pointers."""
    mem = view.mem
    if isinstance(e, Var):
        if e.name in mem.objects:
            if isinstance(e.type, IntType | PointerType):
                return view.load(Ptr(view.name(e.name), 0), e.type)
            return None
        return view.get(view.name(e.name)) if isinstance(e.type, PointerType) else None
    if isinstance(e, Deref | Index | Member):
        return view.load(view.address(e, evaluate), e.type)
    if isinstance(e, AddrOf):
        a = view.address(e.arg, evaluate)
        return a if isinstance(a, Ptr) else None
    if isinstance(e, FuncRef):
        return Ptr(FUNCTION + e.name, 0)
    if isinstance(e, StrLit):
        return Ptr(STRING + e.text, 0)
    if isinstance(e, Cast):
        v = evaluate(e.arg)
        if v is None:
            return None
        if isinstance(e.type, PointerType):
            return v
        if isinstance(e.type, IntType):
            if isinstance(v, Ptr):
                return 1 if e.type.is_bool else None
            return eval_cast(v, e.type)
        return None
    if isinstance(e, Unary):
        v = evaluate(e.arg)
        if e.op == "!" and v is not None:
            return 0 if isinstance(v, Ptr) else int(v == 0)
        return None
    if isinstance(e, Binary):
        return _pointer_binary(e, view, evaluate)
    if isinstance(e, Valid):
        return _valid(e, view, evaluate)
    return None


def listed_objects(m: dict[str, Any]) -> int:
    """How many objects the state ``m`` lists the size or the death of: heap objects (live or
    freed), variable-length arrays, variables whose lifetime ended."""
    return sum(1 for k in m if k.endswith("[#]"))


def _tracked(view: View) -> int | None:
    """Whether every live heap object is reachable from a variable the state holds (globals and
    the current call's locals); None when the state cannot tell (a caller's locals are not in a
    callee's state, and an unknown pointer may reach anything)."""
    live = {object_of(k) for k, v in view.m.items() if k.endswith("[#]") and isinstance(v, Heap)
            and not v.freed and k.startswith(HEAP)}
    if not live:
        return 1
    if any(o is not None and is_summary(o) for o in live):  # (a heap key always names its object)
        return None  # one pointer to it says nothing of the other instances it stands for
    reached: set[str] = set()
    todo = [v.obj for k, v in view.m.items() if isinstance(v, Ptr) and not k.startswith(HEAP)]
    while todo:
        obj = todo.pop()
        if obj in reached:
            continue
        reached.add(obj)
        prefix = obj + "["
        todo.extend(v.obj for k, v in view.m.items() if isinstance(v, Ptr) and k.startswith(prefix))
    return 1 if live <= reached else None


def _valid(e: Valid, view: View, evaluate: Callable[[Expr], Any]) -> int | None:
    """Whether an access (or a free) is defined, if the state decides it."""
    if e.kind == "memtrack":
        return _tracked(view)
    if e.kind == "opaque":
        return None
    p = evaluate(e.ptr)
    if p is None:
        return None
    if not isinstance(p, Ptr):
        if e.kind == "free":
            return 1 if p == 0 else 0
        return 0 if p == 0 else None  # an integer address: only NULL is known to be invalid
    if is_summary(p.obj):
        return None
    h = view.get(heap_key(p.obj))
    freed = isinstance(h, Heap) and h.freed
    if e.kind == "free":
        if not p.obj.startswith(HEAP):
            return 0
        if p.off is None:
            return None
        return int(p.off == 0 and not freed)
    if freed or p.obj.startswith(FUNCTION) or (e.kind in ("write", "strcpy") and p.obj.startswith(STRING)):
        return 0
    if e.kind == "string":  # a NUL within the object (c_string_length reads in bounds only)
        return None if view.c_string_length(p) is None else 1
    if e.kind in ("strcmp", "strchr"):  # in bounds where the strings end in bounds; else the path check reads the bytes
        other = evaluate(e.size) if e.kind == "strcmp" else None
        ends = view.c_string_length(p) is not None and (
            e.kind == "strchr" or isinstance(other, Ptr) and view.c_string_length(other) is not None)
        return 1 if ends else None
    n = evaluate(e.size)
    if e.kind == "strcpy":  # room for the source string and its NUL
        length = view.c_string_length(n)
        n = None if length is None else length + 1
    size = view.object_size(p.obj)
    if p.off is None or type(n) is not int or size is None:
        return None
    return int(0 <= p.off and p.off + n <= size)


def _pointer_binary(e: Binary, view: View, evaluate: Callable[[Expr], Any]) -> Any:
    a = evaluate(e.left)
    b = evaluate(e.right)
    lt = e.left.type
    if e.op in ("+", "-") and isinstance(lt, PointerType) and isinstance(e.right.type, IntType):
        es = view.mem.layout.elem_size(lt.target)
        if a is None or es is None:
            return None
        if isinstance(a, Ptr):
            if a.off is None or type(b) is not int:
                return Ptr(a.obj, None)
            return Ptr(a.obj, a.off + (b if e.op == "+" else -b) * es)
        if type(b) is not int:
            return None
        return (a + (b if e.op == "+" else -b) * es) % (1 << view.mem.ptr_bits)
    if e.op == "-" and isinstance(lt, PointerType) and isinstance(e.right.type, PointerType):
        es = view.mem.layout.elem_size(lt.target)
        if isinstance(a, Ptr) and isinstance(b, Ptr) and a.obj == b.obj and a.off is not None \
                and b.off is not None and es:
            diff = a.off - b.off
            return diff // es if diff % es == 0 else None
        return None
    if e.op in ("==", "!=", "<", ">", "<=", ">="):
        if a is None or b is None:
            return None
        if type(a) is int and type(b) is int:
            if isinstance(lt, IntType):
                return None  # not a pointer comparison: the integer evaluator's job
            from ...cfa.semantics import eval_binary
            unsigned = IntType("uintptr", view.mem.ptr_bits, False, 4)
            return eval_binary(e.op, a, b, unsigned, e.type)
        if isinstance(a, Ptr) and isinstance(b, Ptr):
            if a.obj == b.obj:
                if is_summary(a.obj) or a.off is None or b.off is None:
                    return None
                return int({"==": a.off == b.off, "!=": a.off != b.off, "<": a.off < b.off,
                            ">": a.off > b.off, "<=": a.off <= b.off, ">=": a.off >= b.off}[e.op])
            if e.op in ("==", "!="):
                if _freed(view, a.obj) or _freed(view, b.obj):
                    return None  # the allocator may have reused a freed object's address
                if not (_inside(view, a) and _inside(view, b)):
                    return None  # one object's end may be where another begins
                return int(e.op == "!=")  # distinct live objects never share an address
            return None
        other = b if isinstance(a, Ptr) else a
        if other == 0 and e.op in ("==", "!="):
            return int(e.op == "!=")  # an object's address is never NULL
        return None
    return None


def _inside(view: View, p: Ptr) -> bool:
    """``p`` points into its object (a function's address too): not at its end, where another
    object may begin (C lets ``a + 2 == b`` hold for ``int a[2], b[2]``), nor outside it."""
    if p.obj.startswith(FUNCTION):
        return p.off == 0
    size = view.object_size(p.obj)
    return p.off is not None and size is not None and 0 <= p.off < size


def _freed(view: View, obj: str) -> bool:
    h = view.get(heap_key(obj))
    return isinstance(h, Heap) and h.freed





# ---- edge semantics shared by the value CPA and its refiner's path semantics ---------------


def assign(view: View, lhs: Expr, rhs: Expr, evaluate: Callable[[Expr], Any]) -> None:
    """``lhs = rhs`` (a struct assignment copies the bytes)."""
    from ...cfa.ir import Nondet, is_lvalue

    if isinstance(lhs.type, StructType):
        size = view.mem.layout.sizeof(lhs.type)
        src = view.address(rhs, evaluate) if is_lvalue(rhs) else None
        view.copy(view.address(lhs, evaluate), src, size)
        return
    assign_value(view, lhs, None if isinstance(rhs, Nondet) else evaluate(rhs), evaluate)


def assign_value(view: View, lhs: Expr, value: Any, evaluate: Callable[[Expr], Any]) -> None:
    if isinstance(lhs, Var) and lhs.name not in view.mem.objects:
        view.set_plain(view.name(lhs.name), value if isinstance(lhs.type, IntType | PointerType) else None)
        return
    if isinstance(lhs.type, StructType):
        view.copy(view.address(lhs, evaluate), None, view.mem.layout.sizeof(lhs.type))
        return
    view.store(view.address(lhs, evaluate), lhs.type, value)


def declare(view: View, var: Var, init: Expr | None, evaluate: Callable[[Expr], Any],
            lengths: tuple[Expr, ...] = ()) -> None:
    """A declaration: a fresh instance of the variable, zero-filled or initialised by ``init``
    (``lengths``: a variable-length array's, whose product of elements it holds)."""
    from ...cfa.ir import Nondet

    if lengths:
        assert isinstance(var.type, ArrayType)
        size = view.mem.layout.sizeof(var.type.elem)
        for n in lengths:
            v = evaluate(n)
            size = size * v if type(v) is int and size is not None else None
        # An object larger than the address space (the size computed in size_t would wrap): what
        # a run does then is not C; its size stays unknown, so no access to it is assumed defined.
        if size is not None and size >= 1 << view.mem.ptr_bits:
            size = None
        view.declare(view.name(var.name), False, size)
        return
    if var.name not in view.mem.objects:
        value = None if init is None or isinstance(init, Nondet) else evaluate(init)
        view.set_plain(view.name(var.name), value if isinstance(var.type, IntType | PointerType) else None)
        return
    obj = view.name(var.name)
    aggregate = isinstance(var.type, ArrayType | StructType)
    zero = aggregate and isinstance(init, Const) and init.value == 0
    value = None if init is None or isinstance(init, Nondet) or aggregate else evaluate(init)
    view.declare(obj, zero)
    if not aggregate and value is not None:
        view.store(Ptr(obj, 0), var.type, value)


def external_call(view: View, edge: Any, evaluate: Callable[[Expr], Any], globals_: frozenset[str]) -> None:
    """A call of a function without a body: the C library's memory and string functions are
    modelled; any other function may write every object its pointer arguments reach (and the
    globals, unless it is a known library function)."""
    name = edge.callee.removeprefix("__builtin_")
    args = [evaluate(a) for a in edge.args]
    result: Any = None
    kind = ALLOCATORS.get(name)
    site = edge.pred.key
    if kind == "malloc" and args:
        result = view.allocate(site, args[0], zero=False, stack=name == "alloca")
    elif kind == "calloc" and len(args) >= 2:
        n = args[0] * args[1] if type(args[0]) is int and type(args[1]) is int else None
        result = view.allocate(site, n, zero=True)
    elif kind == "realloc" and len(args) >= 2:
        old = args[0]
        old_size = view.object_size(old.obj) if isinstance(old, Ptr) else 0 if old == 0 else None
        result = view.allocate(site, args[1], zero=False)
        if old != 0:
            n = min(old_size, args[1]) if type(old_size) is int and type(args[1]) is int else None
            if isinstance(old, Ptr) and old.off == 0 and n is not None:
                view.copy(result, old, n)
            else:
                view.forget_object(result.obj)
            view.release(old)
    elif name == "free" and args:
        view.release(args[0])
    elif name == "memset" and len(args) >= 3:
        view.fill(args[0], args[1], args[2])
        result = args[0]
    elif name in ("memcpy", "memmove") and len(args) >= 3:
        view.copy(args[0], args[1], args[2])
        result = args[0]
    elif name == "strlen" and args:
        result = view.c_string_length(args[0])
    elif name == "strcmp" and len(args) >= 2:
        result = view.c_string_compare(args[0], args[1], None)
    elif name == "memcmp" and len(args) >= 3:
        result = view.bytes_compare(args[0], args[1], args[2]) if type(args[2]) is int else None
    elif name == "strncmp" and len(args) >= 3:
        result = view.c_string_compare(args[0], args[1], args[2]) if type(args[2]) is int else None
    elif name == "strchr" and len(args) >= 2:
        result = _strchr(view, args[0], args[1])
    elif name == "strcat" and len(args) >= 2:
        length = view.c_string_length(args[0])
        added = view.c_string_length(args[1])
        dst = args[0]
        if length is None or added is None or not isinstance(dst, Ptr) or dst.off is None:
            view.forget_all()
        else:
            view.copy(Ptr(dst.obj, dst.off + length), args[1], added + 1)
        result = dst
    elif name in ("strcpy", "strncpy") and len(args) >= 2:
        length = view.c_string_length(args[1])
        if name == "strcpy":
            view.copy(args[0], args[1], None if length is None else length + 1)
        else:
            limit = args[2] if len(args) >= 3 else None
            if length is None or type(limit) is not int:
                view.copy(args[0], args[1], None)
            else:
                n = min(length + 1, limit)
                view.copy(args[0], args[1], n)
                if n < limit and isinstance(args[0], Ptr) and args[0].off is not None:
                    view.fill(Ptr(args[0].obj, args[0].off + n), 0, limit - n)
        result = args[0]
    elif writes_nothing(name, edge.args):
        pass  # printf and the like read, and write none of the program's memory (cfa/output_calls.py)
    else:
        if edge.writes_globals:
            for g in [k for k in view.m if k in globals_]:
                view.set_plain(g, None)
        if edge.writes_globals or any(not isinstance(a.type, IntType) for a in edge.args):
            view.forget_all()
    if type(result) is int and folded_to_sign(name, edge.args):
        result = (result > 0) - (result < 0)
    if edge.lhs is not None:
        assign_value(view, edge.lhs, result, evaluate)


def apply(view: View, edge: Any, evaluate: Callable[[Expr], Any], globals_: frozenset[str]) -> None:
    """The effect of an assignment, declaration, return or external call on ``view``."""
    from ...cfa.ir import AssignEdge, BlankEdge, DeclEdge, ExternalCallEdge, ReturnEdge

    if isinstance(edge, BlankEdge):
        for v in edge.ends:
            if v.name in view.mem.objects:
                view.end_lifetime(view.name(v.name))
    elif isinstance(edge, AssignEdge):
        assert edge.lhs is not None and edge.rhs is not None
        assign(view, edge.lhs, edge.rhs, evaluate)
    elif isinstance(edge, DeclEdge):
        assert edge.var is not None
        declare(view, edge.var, edge.init, evaluate, edge.lengths)
    elif isinstance(edge, ReturnEdge):
        if edge.result_var is not None:
            if edge.value is None:
                declare(view, edge.result_var, None, evaluate)
            else:
                assign(view, edge.result_var, edge.value, evaluate)
    elif isinstance(edge, ExternalCallEdge):
        external_call(view, edge, evaluate, globals_)


def _strchr(view: View, s: Any, c: Any) -> Any:
    """strchr(s, c): a pointer to the first c in s (its NUL counts), or NULL."""
    if not isinstance(s, Ptr) or s.off is None or type(c) is not int:
        return None
    byte = view.mem.program.data_model.uchar
    for i in range(MAX_ENUMERATED):
        x = view.read(s.obj, s.off + i, byte, 1)
        if x is None:
            return None
        if x == c & 0xFF:
            return Ptr(s.obj, s.off + i)
        if x == 0:
            return 0
    return None


def value_to_json(v: Any) -> Any:
    if type(v) is int:
        return v
    if isinstance(v, Ptr):
        return {"ptr": [v.obj, v.off]}
    if isinstance(v, Zero):
        return {"zero": sorted([o, s] for o, s in v.written)}
    if isinstance(v, Heap):
        return {"heap": [v.size, v.freed]}
    if isinstance(v, Intact):
        return {"intact": True}
    raise TypeError(f"not a value: {v!r}")


def value_from_json(d: Any) -> Any:
    if isinstance(d, int):
        return d
    if "ptr" in d:
        return Ptr(str(d["ptr"][0]), d["ptr"][1])
    if "zero" in d:
        return Zero(frozenset((int(o), int(s)) for o, s in d["zero"]))
    if "heap" in d:
        return Heap(d["heap"][0], bool(d["heap"][1]))
    if "intact" in d:
        return INTACT_VALUE
    raise ValueError(f"not a value: {d!r}")
