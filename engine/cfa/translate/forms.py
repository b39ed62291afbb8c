"""The expressions only the builder sees, while it builds one: bit-fields (translate/bitfields.py)
and variable-length arrays (translate/vla.py) before they are lowered. None of them reaches a CFA."""

from __future__ import annotations

from dataclasses import dataclass

from ..ctype import CType
from ..ir import Expr, Var
from ..struct_layout import BitField, Fields


@dataclass(frozen=True, slots=True)
class BitFieldRef(Expr):
    """``base.field`` for a bit-field: an lvalue of the field's declared type, which only the
    front end sees (it is lowered before any edge is made)."""

    base: Expr
    field: BitField
    fields: Fields
    type: CType

    def canon(self) -> str:
        return f"(bitfield {self.base.canon()}.{self.field.name}):{self.type.key()}"

    def children(self) -> tuple[Expr, ...]:
        return (self.base,)


@dataclass(frozen=True, slots=True, eq=False)
class VlaSlice(Expr):
    """A variable-length array or one of its rows: ``prod(dims)`` elements from element ``start``
    of ``base``, which is the flat array variable or a pointer to elements (a parameter's)."""

    base: Expr
    start: Expr  # ptrdiff_t
    dims: tuple[Expr, ...]  # its lengths, outermost first (size_t: hidden variables or constants)
    elem: CType
    type: CType  # its C type (arrays of no known length where a length is variable)


@dataclass(frozen=True, slots=True, eq=False)
class VlaPointer(Expr):
    """A parameter declared as an array whose inner lengths are variable: a pointer to rows
    of ``dims`` elements."""

    var: Var
    dims: tuple[Expr, ...]
    elem: CType
    type: CType  # the parameter's type, a pointer to the row type


@dataclass(frozen=True, slots=True)
class VlaShape:
    """What the function knows of a variable-length array variable or parameter."""

    dims: tuple[Expr, ...]  # a variable's lengths, or a parameter's rows' (all but the outermost)
    elem: CType
    parameter: bool
