"""Exact C integer semantics on Python ints, shared by constant folding and the analyses.

Policy for undefined behaviour: signed overflow, division by zero, and out-of-range
shifts yield ``None`` ("no single value"). Analyses treat ``None`` as an arbitrary value
of the result type, which over-approximates every behaviour a compiler may choose, so a
TRUE verdict never relies on a particular treatment of undefined behaviour.
"""

from __future__ import annotations

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
        if b == 0:
            return None
        q = abs(a) // abs(b)
        if (a < 0) != (b < 0):
            q = -q
        r = q if op == "/" else a - q * b
        if rt.signed and not rt.contains(r):
            return None
        return rt.wrap(r)
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
