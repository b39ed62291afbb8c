"""The C library's output functions (printf, puts, ...): what a call reads, and that it writes
none of the program's memory. One table for every consumer: the value analysis keeps what it
knows across the call (cpa/value/memory.py), the path check gives the call its effect-free
meaning (cex/encoding.py), and the memory-safety checks ask that every string it prints be
readable up to its NUL (cfa/memsafety.py).

A call qualifies when its format, if it has one, is a string literal, so that what it reads is
known: each ``%s`` reads a string up to its NUL; ``%n`` (which writes through its argument) and
a ``%s`` with a precision (``%.3s``, which may read a string without a NUL) leave the call to
the general rule for functions cbam does not model. The value it returns (a count of bytes, or
a negative number for an error) is any ``int``; the native replay runs the real function."""

from __future__ import annotations

import re

from .ir import Cast, Expr, StrLit

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

# name -> (index of the format argument or None, indices of the plain string arguments)
OUTPUT_FUNCTIONS: dict[str, tuple[int | None, tuple[int, ...]]] = {
    "printf": (0, ()),
    "fprintf": (1, ()),
    "dprintf": (1, ()),
    "puts": (None, (0,)),
    "fputs": (None, (0,)),
    "putchar": (None, ()),
    "putc": (None, ()),
    "fputc": (None, ()),
    "fflush": (None, ()),
    "perror": (None, ()),  # its argument may be NULL: checked below only where it is a literal
}

# One conversion: flags, width, precision, length, and the conversion character.
_CONVERSION = re.compile(r"%([-+ #0']*)(\*|\d+)?(?:\.(\*|\d*))?(hh|h|ll|l|j|z|t|L)?([diouxXeEfFgGaAcspn%])")


def string_literal(e: Expr) -> StrLit | None:
    """``e`` as the string literal it is under its conversions, if it is one."""
    while isinstance(e, Cast):
        e = e.arg
    return e if isinstance(e, StrLit) else None


def string_reads(name: str, args: Sequence[Expr]) -> list[Expr] | None:
    """The arguments a call of output function ``name`` reads as strings up to their NUL, or
    None where the call is not one this table describes (not an output function, a format
    that is not a literal, ``%n``, a ``%s`` with a precision, a ``*`` width or precision)."""
    spec = OUTPUT_FUNCTIONS.get(name.removeprefix("__builtin_"))
    if spec is None:
        return None
    fmt_at, strings = spec
    if any(k >= len(args) for k in strings):
        return None
    reads = [args[k] for k in strings]
    if fmt_at is None:
        return reads
    if fmt_at >= len(args):
        return None
    fmt = string_literal(args[fmt_at])
    if fmt is None:
        return None
    k = fmt_at + 1
    for m in _CONVERSION.finditer(fmt.text):
        flags, width, precision, _, conv = m.groups()
        if conv == "%":
            continue
        if conv == "n" or width == "*" or precision == "*" or (conv == "s" and precision is not None):
            return None
        if k >= len(args):
            return None  # fewer arguments than conversions: undefined, not modelled
        if conv == "s":
            reads.append(args[k])
        k += 1
    return reads


def writes_nothing(name: str, args: Sequence[Expr]) -> bool:
    """Whether a call of output function ``name`` writes none of the program's memory: its
    format, if it has one, is a literal without ``%n``. (What it reads may still be beyond this
    table, a ``%.*s``: the memory-safety checks then treat it as a function cbam does not model.)"""
    spec = OUTPUT_FUNCTIONS.get(name.removeprefix("__builtin_"))
    if spec is None:
        return False
    fmt_at = spec[0]
    if fmt_at is None:
        return True
    fmt = string_literal(args[fmt_at]) if fmt_at < len(args) else None
    return fmt is not None and all(m.group(5) != "n" for m in _CONVERSION.finditer(fmt.text))
