"""Bit-fields, lowered to mask and shift arithmetic on their struct's storage members.

A struct's bit-fields live in unsigned storage members at exact byte offsets
(cfa/struct_layout.py); ``s.f`` for a bit-field ``f`` is a ``BitFieldRef`` that never leaves
the front end: read (ExpressionBuilder.rvalue), it becomes the storage's bits shifted down
and, for a signed field, sign-extended; assigned (FunctionBuilder.emit), it becomes one
read-modify-write of each storage member the field touches, which leaves the neighbours'
bits as they were. So the engines see ordinary members and integer arithmetic only.
"""

from __future__ import annotations

from pycparser import c_ast

from ...frontend.errors import Range, Unsupported
from ..ctype import CType, IntType, StructType
from ..ir import AssignEdge, Binary, Cast, Const, Expr, Member, Var
from ..struct_layout import BitField, Fields, storage_for
from .forms import BitFieldRef
from .parts import BuilderParts


class BitFieldBuilder(BuilderParts):
    """Bit-field accesses as arithmetic on storage members (a part of FunctionBuilder)."""

    def member(self, base: Expr, name: str, node: c_ast.Node) -> Expr:
        """``base.name``: a Member, or a BitFieldRef for a bit-field (also one reached through
        anonymous struct and union members)."""
        found = self.find_bitfield(base, name)
        if found is not None:
            return found
        return Member(base, name, self.field_type(base.type, name, node))

    def find_bitfield(self, base: Expr, name: str) -> BitFieldRef | None:
        t = base.type
        if not isinstance(t, StructType):
            return None
        fields = self.pb.structs.get(t.key())
        if not isinstance(fields, Fields):
            return None
        bf = fields.bitfields.get(name)
        if bf is not None:
            return BitFieldRef(base, bf, fields, bf.type)
        for fname, ftype in fields:
            if isinstance(ftype, StructType) and fname.startswith("__anon"):
                inner = self.find_bitfield(Member(base, fname, ftype), name)
                if inner is not None:
                    return inner
        return None

    def declared_members(self, fields: list[tuple[str, CType]]) -> list[tuple[str, CType]]:
        """The members an initialiser fills and a designator names, in declaration order, a
        bit-field with its declared type; unnamed bit-fields take no initialiser (C11 6.7.9p9)."""
        if not isinstance(fields, Fields) or not fields.bitfields:
            return fields
        types = dict(fields)
        return [(n, fields.bitfields[n].type if n in fields.bitfields else types[n]) for n in fields.declared]

    def member_lvalue(self, base: Expr, name: str, t: CType) -> Expr:
        """``base.name`` of a known member: a BitFieldRef for a bit-field."""
        found = self.find_bitfield(base, name)
        return found if found is not None and name in found.fields.bitfields else Member(base, name, t)

    def bitfield_value_type(self, bf: BitField) -> IntType:
        """The type a bit-field's value has in an expression: int when int holds all its values
        (C11 6.3.1.1p2, as gcc applies it to every declared type), else the declared type."""
        dm = self.dm
        if bf.width < dm.int.bits:
            return dm.int
        return bf.type if bf.type.rank >= dm.int.rank else (dm.uint if not bf.signed else dm.int)

    def bitfield_load(self, ref: BitFieldRef) -> Expr:
        dm = self.dm
        bf = ref.field
        work = dm.uint if bf.width <= 32 else dm.ullong
        value: Expr | None = None
        for name, st, s_bit, width, v_bit in storage_for(ref.fields, bf):
            piece: Expr = Member(ref.base, name, st)
            wide = st if st.bits >= 32 else dm.uint
            piece = self.convert(piece, wide)
            if s_bit:
                piece = self.fold(Binary(">>", piece, Const(s_bit, wide), wide))
            if s_bit + width < st.bits:
                piece = self.fold(Binary("&", piece, Const((1 << width) - 1, wide), wide))
            piece = self.convert(piece, work)
            if v_bit:
                piece = self.fold(Binary("<<", piece, Const(v_bit, work), work))
            value = piece if value is None else self.fold(Binary("|", value, piece, work))
        assert value is not None
        result = self.bitfield_value_type(bf)
        if not bf.signed:
            return self.convert(value, result)
        signed_work = dm.int if work is dm.uint else dm.llong
        if bf.width == work.bits:
            return self.convert(self.convert(value, signed_work), result)
        sign = 1 << (bf.width - 1)
        flipped = self.convert(self.fold(Binary("^", value, Const(sign, work), work)), signed_work)
        return self.convert(self.fold(Binary("-", flipped, Const(sign, signed_work), signed_work)), result)

    def bitfield_assign(self, node: c_ast.Node | None, rng: Range | None, lhs: Expr, rhs: Expr) -> AssignEdge:
        """``lhs = rhs`` where either side is a bit-field, as edges on storage members."""
        if isinstance(rhs, BitFieldRef):
            rhs = self.convert(self.bitfield_load(rhs), lhs.type)
        if not isinstance(lhs, BitFieldRef):
            return self.emit(AssignEdge, node, rng, lhs=lhs, rhs=rhs)
        dm = self.dm
        bf = lhs.field
        pieces = storage_for(lhs.fields, bf)
        work = dm.uint if bf.width <= 32 else dm.ullong
        value = self.convert(rhs, work) if isinstance(rhs.type, IntType) else Cast(rhs, work)
        if len(pieces) > 1 and not isinstance(value, Const | Var):
            # Each piece is its own edge: the value must not read storage an earlier one wrote.
            tmp = self.new_temp(work, rng if rng is not None else self.pb.range(node))
            self.emit(AssignEdge, node, rng, lhs=tmp, rhs=value)
            value = tmp
        edge: AssignEdge | None = None
        for name, st, s_bit, width, v_bit in pieces:
            wide = st if st.bits >= 32 else dm.uint
            mask = ((1 << width) - 1) << s_bit
            storage = Member(lhs.base, name, st)
            part: Expr = value
            if v_bit:
                part = self.fold(Binary(">>", part, Const(v_bit, work), work))
            part = self.fold(Binary("&", part, Const((1 << width) - 1, work), work))
            part = self.convert(part, wide)
            if s_bit:
                part = self.fold(Binary("<<", part, Const(s_bit, wide), wide))
            if mask == (1 << st.bits) - 1:
                new = part
            else:
                kept = self.fold(Binary("&", self.convert(storage, wide), Const(~mask & ((1 << wide.bits) - 1), wide),
                                        wide))
                new = self.fold(Binary("|", kept, part, wide))
            edge = self.emit(AssignEdge, node, rng, lhs=storage, rhs=self.convert(new, st))
        assert edge is not None
        return edge

    def no_bitfield(self, e: Expr, what: str, node: c_ast.Node) -> None:
        """gcc rejects ``&`` and ``sizeof`` of a bit-field; so does cbam, with its message."""
        if isinstance(e, BitFieldRef):
            raise Unsupported(f"{what} bit-field '{e.field.name}' (a compile error in C)", self.pb.range(node))
