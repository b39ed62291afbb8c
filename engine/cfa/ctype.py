"""C types with exact widths for a data model, and the integer conversion rules."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class CType:
    """A C type as the analyses see it, with exact widths for the data model."""

    def key(self) -> str:
        raise NotImplementedError


@dataclass(frozen=True)
class VoidType(CType):
    """void."""

    def key(self) -> str:
        return "void"

    def __str__(self) -> str:
        return "void"


@dataclass(frozen=True)
class IntType(CType):
    """An integer type. ``rank`` orders conversions (bool < char < short < int < long < long long)."""

    name: str
    bits: int
    signed: bool
    rank: int

    @property
    def is_bool(self) -> bool:
        return self.name == "_Bool"

    @property
    def min(self) -> int:
        return -(1 << (self.bits - 1)) if self.signed else 0

    @property
    def max(self) -> int:
        if self.is_bool:  # a byte wide, but its values are 0 and 1 (C11 6.2.5p2, 6.3.1.2)
            return 1
        return (1 << (self.bits - 1)) - 1 if self.signed else (1 << self.bits) - 1

    def wrap(self, value: int) -> int:
        """The value converted to this type (modulo 2^bits, as gcc does for signed types)."""
        if self.is_bool:
            return 1 if value != 0 else 0
        mask = (1 << self.bits) - 1
        value &= mask
        if self.signed and value >= (1 << (self.bits - 1)):
            value -= 1 << self.bits
        return value

    def contains(self, value: int) -> bool:
        return self.min <= value <= self.max

    def key(self) -> str:
        return self.name

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True)
class PointerType(CType):
    """A pointer, of the data model's width."""

    target: CType
    bits: int

    def key(self) -> str:
        return f"ptr({self.target.key()})"

    def __str__(self) -> str:
        return f"{self.target} *"


@dataclass(frozen=True)
class ArrayType(CType):
    """An array; size None for an incomplete or variable-length one."""

    elem: CType
    size: int | None

    def key(self) -> str:
        return f"arr({self.elem.key()},{self.size})"

    def __str__(self) -> str:
        return f"{self.elem}[{'' if self.size is None else self.size}]"


@dataclass(frozen=True)
class StructType(CType):
    """A struct or union, identified by tag; members are resolved through the program's table."""

    tag: str
    union: bool = False

    def key(self) -> str:
        return f"{'union' if self.union else 'struct'} {self.tag}"

    def __str__(self) -> str:
        return self.key()


@dataclass(frozen=True)
class FunctionType(CType):
    """A function's type: result, parameters, and whether it is variadic or unprototyped."""

    ret: CType
    params: tuple[CType, ...]
    variadic: bool = False
    unprototyped: bool = False

    def key(self) -> str:
        ps = ",".join(p.key() for p in self.params)
        return f"fn({self.ret.key()};{ps}{';...' if self.variadic else ''})"

    def __str__(self) -> str:
        return self.key()


@dataclass(frozen=True)
class FloatType(CType):
    """A floating type (float, double, long double), by name."""

    name: str

    def key(self) -> str:
        return self.name

    def __str__(self) -> str:
        return self.name


class DataModel:
    """Integer widths for ILP32 or LP64; plain char is signed, as on x86."""

    def __init__(self, name: str):
        if name not in ("ILP32", "LP64"):
            raise ValueError(f"unknown data model {name!r}")
        self.name = name
        long_bits = 32 if name == "ILP32" else 64
        self.pointer_bits = long_bits
        mk = IntType
        self.bool = mk("_Bool", 8, False, 0)
        self.char = mk("char", 8, True, 1)
        self.schar = mk("signed char", 8, True, 1)
        self.uchar = mk("unsigned char", 8, False, 1)
        self.short = mk("short", 16, True, 2)
        self.ushort = mk("unsigned short", 16, False, 2)
        self.int = mk("int", 32, True, 3)
        self.uint = mk("unsigned int", 32, False, 3)
        self.long = mk("long", long_bits, True, 4)
        self.ulong = mk("unsigned long", long_bits, False, 4)
        self.llong = mk("long long", 64, True, 5)
        self.ullong = mk("unsigned long long", 64, False, 5)
        self.int128 = mk("__int128", 128, True, 6)
        self.uint128 = mk("unsigned __int128", 128, False, 6)
        self.void = VoidType()
        self.size_t = self.ulong if long_bits == 64 else self.uint
        self.ptrdiff_t = self.long if long_bits == 64 else self.int

    def __repr__(self) -> str:
        return f"DataModel({self.name})"

    def unsigned_of(self, t: IntType) -> IntType:
        table = {1: self.uchar, 2: self.ushort, 3: self.uint, 4: self.ulong, 5: self.ullong, 6: self.uint128}
        return table[t.rank] if t.rank in table else t

    def pointer(self, target: CType) -> PointerType:
        return PointerType(target, self.pointer_bits)

    def sizeof(self, t: CType, structs: dict[str, list[tuple[str, CType]]] | None = None) -> int | None:
        if isinstance(t, IntType):
            return max(1, t.bits // 8)
        if isinstance(t, PointerType):
            return self.pointer_bits // 8
        if isinstance(t, ArrayType):
            inner = self.sizeof(t.elem, structs)
            return None if inner is None or t.size is None else inner * t.size
        if isinstance(t, FloatType):
            # None: a floating type cbam does not know (the front end's placeholder for one it
            # does not support) has no size here.
            return {"float": 4, "double": 8, "long double": 12 if self.name == "ILP32" else 16}.get(t.name)
        if isinstance(t, StructType) and structs is not None and t.key() in structs:
            fields = structs[t.key()]
            laid_out = getattr(fields, "size", None)  # struct_layout.Fields: gcc's layout, computed once
            if laid_out is not None:
                return laid_out
            size = 0
            align = 1
            for i, (_, ft) in enumerate(fields):
                fs = 0 if flexible_member(t, ft, i == len(fields) - 1) else self.sizeof(ft, structs)
                fa = self.alignof(ft, structs)
                if fs is None or fa is None:
                    return None
                align = max(align, fa)
                if t.union:
                    size = max(size, fs)
                else:
                    size = (size + fa - 1) // fa * fa + fs
            return (size + align - 1) // align * align
        return None

    def alignof(self, t: CType, structs: dict[str, list[tuple[str, CType]]] | None = None) -> int | None:
        if isinstance(t, ArrayType):
            return self.alignof(t.elem, structs)
        if isinstance(t, StructType) and structs is not None and t.key() in structs:
            laid_out = getattr(structs[t.key()], "align", None)
            if laid_out is not None:
                return laid_out
            aligns = [self.alignof(ft, structs) for _, ft in structs[t.key()]]
            return max([a for a in aligns if a] or [1])
        size = self.sizeof(t, structs)
        if size is None:
            return None
        # ILP32 (i386) aligns 8-byte scalars to 4.
        return min(size, 4) if self.name == "ILP32" else size

    # ---- conversions (C11 6.3.1) ------------------------------------------
    def promote(self, t: CType) -> CType:
        if isinstance(t, IntType) and t.rank < self.int.rank:
            return self.int  # every type below int fits in int here
        return t

    def usual_arithmetic(self, a: CType, b: CType) -> CType:
        a, b = self.promote(a), self.promote(b)
        if not isinstance(a, IntType) or not isinstance(b, IntType):
            return a if not isinstance(a, IntType) else b
        if a == b:
            return a
        if a.signed == b.signed:
            return a if a.rank >= b.rank else b
        uns, sig = (a, b) if not a.signed else (b, a)
        if uns.rank >= sig.rank:
            return uns
        if sig.bits > uns.bits:
            return sig
        return self.unsigned_of(sig)


def flexible_member(t: CType, member: CType, last: bool) -> bool:
    """Whether ``member`` is a struct's flexible array member (C99 ``int d[];``, the last one):
    it adds no bytes to the struct's size, and an object allocated larger holds its elements."""
    return last and isinstance(t, StructType) and not t.union and isinstance(member, ArrayType) and member.size is None
