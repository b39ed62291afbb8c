"""Struct and union layout with explicit offsets, as gcc lays them out on i386 (ILP32) and
x86-64 (LP64) System V: ``packed`` and ``aligned`` attributes, ``#pragma pack``, and
bit-fields (gcc's stor-layout.c, with PCC_BITFIELD_TYPE_MATTERS).

Bit-fields are not members the analyses see: a struct's bit-fields live in synthetic
unsigned storage members at exact byte offsets (``Fields.bitfields`` says where each one's
bits are), and the front end lowers every access to mask and shift arithmetic on them
(cfa/translate/bitfields.py). So every engine reads one representation: a list of
``(name, type)`` members, each at an explicit offset, with an explicit size and alignment.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .ctype import ArrayType, CType, DataModel, IntType

STORAGE_PREFIX = "__cbam_bits"  # synthetic storage members: a name no C program can declare by accident


@dataclass(frozen=True, slots=True)
class MemberSpec:
    """A member as declared: ``bits`` is a bit-field's width (None for an ordinary member),
    ``packed``/``aligned`` its own attributes (``aligned`` in bytes)."""

    name: str | None  # None: an unnamed bit-field
    type: CType
    bits: int | None = None
    packed: bool = False
    aligned: int | None = None


@dataclass(frozen=True, slots=True)
class BitField:
    """Where a bit-field's value lives: ``width`` bits from bit ``bit`` of the struct (bit 0
    is the low bit of byte 0, as on little-endian x86), read as ``type``."""

    name: str
    type: IntType
    width: int
    bit: int

    @property
    def signed(self) -> bool:
        return self.type.signed and not self.type.is_bool


class Fields(list):
    """A struct's members, ``(name, type)`` in offset order, with the layout gcc gives them:
    ``offsets`` (bytes, one per member), ``size`` and ``align``; ``bitfields`` maps each
    named bit-field to its bits, ``members`` lists the C-level members in declaration order
    (a bit-field by name) for initialisers."""

    def __init__(self, members: list[tuple[str, CType]], offsets: list[int], size: int, align: int,
                 bitfields: dict[str, BitField] | None = None, declared: list[str] | None = None):
        super().__init__(members)
        self.offsets = list(offsets)
        self.size = size
        self.align = align
        self.bitfields = dict(bitfields or {})
        self.declared = list(declared) if declared is not None else [m for m, _ in members]

    def offset_of(self, name: str) -> int | None:
        for (fname, _), off in zip(self, self.offsets):
            if fname == name:
                return off
        return None

    def key(self) -> tuple:
        return (tuple((f, t.key(), o) for (f, t), o in zip(self, self.offsets)), self.size, self.align)

    def __reduce__(self):  # a list subclass with state: pickled with its layout
        return (Fields, (list(self), self.offsets, self.size, self.align, self.bitfields, self.declared))


class LayoutError(Exception):
    """A struct gcc rejects, or one whose members have no known size."""


def _round_up(v: int, a: int) -> int:
    return (v + a - 1) // a * a


def _excess_unit_span(bitpos: int, width: int, align_bits: int, type_bits: int) -> bool:
    """A bit-field may not span more units of its type's alignment than its type does."""
    off = bitpos % align_bits
    return (off + width + align_bits - 1) // align_bits > type_bits // align_bits


def lay_out(dm: DataModel, union: bool, members: list[MemberSpec], size_of: Callable[[CType], int | None],
            align_of: Callable[[CType], int | None], *, packed: bool = False, aligned: int | None = None,
            pack: int | None = None) -> Fields:
    """The layout gcc gives a struct (or union) with these members. ``packed``/``aligned``:
    the type's own attributes; ``pack``: the ``#pragma pack`` in force. Raises LayoutError."""
    placed: list[tuple[int, str, CType]] = []  # byte offset, name, type of ordinary members
    bitfields: dict[str, BitField] = {}
    declared: list[str] = []
    bitpos = 0  # bits: the end of what is placed so far (a union's largest member)
    record_align = 1
    for idx, m in enumerate(members):
        tsize = size_of(m.type)
        talign = align_of(m.type)
        last = idx == len(members) - 1
        flexible = not union and last and isinstance(m.type, ArrayType) and m.type.size is None
        if flexible:
            tsize = 0
        if tsize is None or talign is None:
            raise LayoutError(f"a member of incomplete type {m.type}")
        is_packed = packed or m.packed
        if m.bits is None:
            if m.aligned is not None:
                a = m.aligned if is_packed else max(m.aligned, talign)
            else:
                a = 1 if is_packed else talign
            if pack:
                a = min(a, pack)
            start = 0 if union else _round_up(bitpos, a * 8)
            assert m.name is not None
            placed.append((start // 8, m.name, m.type))
            declared.append(m.name)
            bitpos = max(bitpos, start + tsize * 8)
            record_align = max(record_align, a)
            continue
        if not isinstance(m.type, IntType):
            raise LayoutError(f"a bit-field of type {m.type}")
        tbits = m.type.bits if not m.type.is_bool else 8
        if m.bits < 0 or m.bits > tbits or (m.type.is_bool and m.bits > 1):
            raise LayoutError(f"the width of bit-field '{m.name or '(unnamed)'}' exceeds its type")
        if m.bits == 0:
            if m.name is not None:
                raise LayoutError(f"zero width for bit-field '{m.name}'")
            # Aligns what follows to its type, whatever the packing; an unnamed bit-field does
            # not align the struct on x86.
            if not union:
                bitpos = _round_up(bitpos, talign * 8)
            continue
        if m.aligned is not None:
            a = m.aligned if pack is None else min(m.aligned, pack)
            bitpos = bitpos if union else _round_up(bitpos, a * 8)
            record_align = max(record_align, a)
        elif not is_packed and not pack and not union and _excess_unit_span(bitpos, m.bits, talign * 8, tbits):
            bitpos = _round_up(bitpos, talign * 8)
        start = 0 if union else bitpos
        if m.name is not None:
            bitfields[m.name] = BitField(m.name, m.type, m.bits, start)
            declared.append(m.name)
            ta = min(talign, pack) if pack else (1 if is_packed else talign)
            record_align = max(record_align, ta)
        bitpos = max(bitpos, start + m.bits)
    if aligned is not None:
        record_align = max(record_align, aligned)
    size = _round_up((bitpos + 7) // 8, record_align)
    # Storage for the bit-fields: the bytes they touch, in naturally aligned unsigned chunks
    # that no ordinary member overlaps (in a union they all share the first bytes).
    storage: list[tuple[int, str, CType]] = []
    covered = sorted({b for bf in bitfields.values() for b in range(bf.bit // 8, (bf.bit + bf.width - 1) // 8 + 1)})
    units = {1: dm.uchar, 2: dm.ushort, 4: dm.uint, 8: dm.ullong}
    k = 0
    while k < len(covered):
        run_start = covered[k]
        run_end = run_start
        while k + 1 < len(covered) and covered[k + 1] == run_end + 1:
            k += 1
            run_end += 1
        k += 1
        off = run_start
        while off <= run_end:
            width = next(w for w in (8, 4, 2, 1) if off % w == 0 and off + w <= run_end + 1)
            storage.append((off, f"{STORAGE_PREFIX}{off}", units[width]))
            off += width
    every = sorted(placed + storage, key=lambda p: p[0]) if not union else placed + storage
    return Fields([(name, t) for _, name, t in every], [off for off, _, _ in every], size, record_align,
                  bitfields, declared)


def storage_for(fields: Fields, bf: BitField) -> list[tuple[str, IntType, int, int, int]]:
    """The pieces of a bit-field in its storage members: (member, its type, the bit of the
    member where the piece starts, its width, the bit of the field's value it holds)."""
    out: list[tuple[str, IntType, int, int, int]] = []
    lo, hi = bf.bit, bf.bit + bf.width
    for (name, t), off in zip(fields, fields.offsets):
        if not name.startswith(STORAGE_PREFIX) or not isinstance(t, IntType):
            continue
        s_lo, s_hi = off * 8, off * 8 + t.bits
        a, b = max(lo, s_lo), min(hi, s_hi)
        if a < b:
            out.append((name, t, a - s_lo, b - a, a - lo))
    return out
