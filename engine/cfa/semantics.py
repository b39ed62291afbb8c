"""Exact C integer semantics on Python ints, shared by constant folding and the analyses.

Policy for undefined behaviour: signed overflow, division by zero, and out-of-range
shifts yield ``None`` ("no single value"). Analyses treat ``None`` as an arbitrary value
of the result type, which over-approximates every behaviour a compiler may choose, so a
TRUE verdict never relies on a particular treatment of undefined behaviour.
"""

from __future__ import annotations

from collections.abc import Callable

from .ctype import CType, IntType


def _int(t: CType) -> IntType | None:
    return t if isinstance(t, IntType) else None


def eval_binary(op: str, a: int, b: int, left_t: CType, result_t: CType) -> int | None:
    lt = _int(left_t)
    rt = _int(result_t)
    if lt is None or rt is None:
        return None
    if op in ("==", "!=", "<", ">", "<=", ">="):
        return int(
            (op == "==" and a == b) or (op == "!=" and a != b) or (op == "<" and a < b)
            or (op == ">" and a > b) or (op == "<=" and a <= b) or (op == ">=" and a >= b)
        )
    if op in ("+", "-", "*"):
        r = a + b if op == "+" else a - b if op == "-" else a * b
        if rt.signed and not rt.contains(r):
            return None
        return rt.wrap(r)
    if op in ("/", "%"):
        return _divide(op == "/", a, b, rt)
    if op in ("<<", ">>"):
        if b < 0 or b >= rt.bits:
            return None
        if op == ">>":
            return rt.wrap(a >> b)
        if rt.signed and (a < 0 or not rt.contains(a << b)):
            return None
        return rt.wrap(a << b)
    if op == "&":
        return rt.wrap(a & b)
    if op == "|":
        return rt.wrap(a | b)
    if op == "^":
        return rt.wrap(a ^ b)
    return None


def _divide(quotient: bool, a: int, b: int, rt: IntType) -> int | None:
    if b == 0:
        return None
    q = abs(a) // abs(b)  # C truncates toward zero
    if (a < 0) != (b < 0):
        q = -q
    r = q if quotient else a - q * b
    if rt.signed and not rt.contains(r):
        return None
    return rt.wrap(r)


_COMPARE = {"==": int.__eq__, "!=": int.__ne__, "<": int.__lt__, ">": int.__gt__, "<=": int.__le__,
            ">=": int.__ge__}
_ARITH = {"+": int.__add__, "-": int.__sub__, "*": int.__mul__}
_BITWISE = {"&": int.__and__, "|": int.__or__, "^": int.__xor__}


def binary_function(op: str, left_t: CType, result_t: CType) -> Callable[[int, int], int | None]:
    """``eval_binary`` for one operator and its types, as a function of the operands: for code
    that applies one operation to many values (a summary instantiated at every call). The
    commonest cases are unrolled; tests/test_generalized_summaries.py checks them against
    eval_binary."""
    lt, rt = _int(left_t), _int(result_t)
    if lt is not None and rt is not None and not rt.is_bool:
        cmp = _COMPARE.get(op)
        if cmp is not None:
            return lambda a, b: 1 if cmp(a, b) else 0
        arith = _ARITH.get(op)
        if arith is not None:
            if rt.signed:
                lo, hi = rt.min, rt.max
                # A signed result in range is its own wrap; out of range it is undefined.
                return lambda a, b: r if lo <= (r := arith(a, b)) <= hi else None
            mask = (1 << rt.bits) - 1
            return lambda a, b: arith(a, b) & mask
        if op in ("/", "%"):
            quotient = op == "/"
            return lambda a, b: _divide(quotient, a, b, rt)
        bitwise = _BITWISE.get(op)
        if bitwise is not None:
            wrap = rt.wrap
            return lambda a, b: wrap(bitwise(a, b))
    return lambda a, b: eval_binary(op, a, b, left_t, result_t)


def eval_unary(op: str, a: int, t: CType) -> int | None:
    it = _int(t)
    if it is None:
        return None
    if op == "-":
        if it.signed and not it.contains(-a):
            return None
        return it.wrap(-a)
    if op == "~":
        return it.wrap(~a)
    if op == "!":
        return int(a == 0)
    if op == "+":
        return a
    return None


def eval_cast(v: int, to: CType) -> int | None:
    it = _int(to)
    if it is None:
        return None
    return it.wrap(v)
