"""What gcc computes itself instead of calling the C library: the value a call has in the
program as gcc compiles it, where C leaves it to the implementation.

strcmp and memcmp promise only the sign of their result. glibc's return the difference of the
first bytes that differ (as unsigned chars); gcc, given two string literals, folds strcmp and
memcmp to -1, 0 or 1 (gcc 12 at -O0; strncmp it leaves to glibc). cbam reads a comparison as
the program built by gcc runs it: tests/test_libc.py checks each case against gcc and glibc."""

from __future__ import annotations

from .ir import Expr
from .output_calls import string_literal

FOLDED_WITH_LITERALS = frozenset({"strcmp", "memcmp"})


def folded_to_sign(name: str, args: tuple[Expr, ...] | list[Expr]) -> bool:
    """Whether gcc folds this comparison to the sign of its result (both operands literals)."""
    return name in FOLDED_WITH_LITERALS and len(args) >= 2 and string_literal(args[0]) is not None \
        and string_literal(args[1]) is not None
