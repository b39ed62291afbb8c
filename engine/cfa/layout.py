"""Object layout for the data model: sizes and member offsets, as gcc lays out structs on
i386 (ILP32) and x86-64 (LP64). The memory models of the value analysis and of the path
encoder both read memory through these numbers, so a FALSE's harness sees the same bytes."""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache

from .ctype import ArrayType, CType, DataModel, StructType, flexible_member


class Layout:
    def __init__(self, dm: DataModel, structs: dict[str, list[tuple[str, CType]]]):
        self.dm = dm
        self.structs = structs
        self.offset = lru_cache(maxsize=None)(self._offset)
        self.sizeof = lru_cache(maxsize=None)(self._sizeof)

    def _sizeof(self, t: CType) -> int | None:
        if isinstance(t, StructType) and t.key() not in self.structs:
            return None
        return self.dm.sizeof(t, self.structs)

    def _offset(self, t: CType, field: str) -> tuple[int, CType] | None:
        """The byte offset and type of member ``field`` of struct/union ``t`` (members of
        anonymous members included), or None."""
        if not isinstance(t, StructType):
            return None
        fields = self.structs.get(t.key())
        if fields is None:
            return None
        # struct_layout.Fields has explicit offsets; a plain member list is laid out in order.
        offsets = getattr(fields, "offsets", None)
        starts = iter(offsets) if offsets is not None else self._starts(t, fields)
        for (fname, ftype), start in zip(fields, starts):
            if fname == field:
                return start, ftype
            if isinstance(ftype, StructType) and fname.startswith("__anon"):
                inner = self._offset(ftype, field)
                if inner is not None:
                    return start + inner[0], inner[1]
        return None

    def _starts(self, t: StructType, fields: list[tuple[str, CType]]) -> Iterator[int]:
        """The members' offsets in order, up to the first of unknown size or alignment."""
        off = 0
        for i, (_, ftype) in enumerate(fields):
            size = 0 if flexible_member(t, ftype, i == len(fields) - 1) else self.dm.sizeof(ftype, self.structs)
            align = self.dm.alignof(ftype, self.structs)
            if size is None or align is None:
                return
            start = 0 if t.union else (off + align - 1) // align * align
            yield start
            off = start + size

    def elem_size(self, t: CType) -> int | None:
        """sizeof of what a pointer to ``t`` steps over (GNU C: void and functions step 1 byte)."""
        from .ctype import FunctionType, VoidType

        if isinstance(t, VoidType | FunctionType):
            return 1
        return self.sizeof(t)

    def is_aggregate(self, t: CType) -> bool:
        return isinstance(t, ArrayType | StructType)
