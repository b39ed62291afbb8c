"""Bit-vector formulas as integer formulas with the same models ("int-blasting").

A check such as "this linear invariant is preserved by a clause over machine integers" is a
bit-vector formula whose arithmetic is additions and multiplications by constants, at widths
of 40 to 70 bits. Bit-blasting turns that into adder circuits, and a SAT solver then has to
rediscover that ``d < 1000000*i + 1000*j + k`` and ``k >= 1000`` give ``d < 1000000*i +
1000*(j+1)``: a three-dimensional array's loop nest took 15 s or more per clause. Read over the
integers, every bit-vector term ``t`` of width ``w`` becomes its unsigned value in ``[0, 2^w)``,
each operation the same value modulo ``2^w`` (addition, subtraction, multiplication by a
constant, extraction, concatenation, extensions, shifts and division by constants), signed
comparisons compare the two's-complement readings; linear integer arithmetic decides that in
milliseconds. The translation is exact: the integer formula is satisfiable exactly when the
bit-vector one is, with the same values. What it does not read exactly (bitwise and, or, xor,
products and divisions of two variables, shifts by a variable, arrays, functions) makes it give
up (``Unsupported``), and the caller bit-blasts as before.
"""

from __future__ import annotations

import z3


class Unsupported(Exception):
    """A construct the translation does not read exactly."""


def blast(formulas: list[z3.BoolRef]) -> list[z3.BoolRef]:
    """The integer formulas (their conjunction equisatisfiable with ``formulas``'), plus the range
    of every variable. Raises Unsupported."""
    t = _Translation()
    out = [t.pred(f) for f in formulas]
    return out + t.ranges


class _Translation:
    def __init__(self) -> None:
        self.vars: dict[int, z3.ArithRef] = {}
        self.ranges: list[z3.BoolRef] = []
        self.memo: dict[int, z3.ExprRef] = {}

    # ---- bit-vector terms: their unsigned value -----------------------------------------------
    def num(self, t: z3.ExprRef) -> z3.ArithRef:
        key = t.get_id()
        got = self.memo.get(key)
        if got is None:
            got = self._num(t)
            self.memo[key] = got
        return got

    def _num(self, t: z3.ExprRef) -> z3.ArithRef:
        w = t.size()
        m = 1 << w
        if z3.is_bv_value(t):
            return z3.IntVal(t.as_long())
        if z3.is_const(t):  # an uninterpreted constant
            v = z3.Int(f"{t}!int{t.get_id()}")
            self.ranges += [v >= 0, v < m]
            self.vars[t.get_id()] = v
            return v
        if not z3.is_app(t):
            raise Unsupported(str(t)[:60])
        k = t.decl().kind()
        ch = t.children()
        if k == z3.Z3_OP_BADD:
            return _mod(z3.Sum([self.num(c) for c in ch]), m)
        if k == z3.Z3_OP_BSUB:
            r = self.num(ch[0])
            for c in ch[1:]:
                r = r - self.num(c)
            return _mod(r, m)
        if k == z3.Z3_OP_BNEG:
            return _mod(-self.num(ch[0]), m)
        if k == z3.Z3_OP_BMUL:
            factor = 1
            others = []
            for c in ch:
                x = self.num(c)
                v = self._constant(x)
                if v is not None:
                    factor = factor * v % m
                else:
                    others.append(x)
            if len(others) > 1:
                raise Unsupported("a product of two variables")
            return _mod(factor * others[0], m) if others else z3.IntVal(factor)
        if k == z3.Z3_OP_BNOT:
            return (m - 1) - self.num(ch[0])
        if k == z3.Z3_OP_EXTRACT:
            hi, lo = t.params()
            return _mod(_div(self.num(ch[0]), 1 << lo), 1 << (hi - lo + 1))
        if k == z3.Z3_OP_CONCAT:
            r = self.num(ch[0])
            for c in ch[1:]:
                r = r * (1 << c.size()) + self.num(c)
            return r
        if k == z3.Z3_OP_ZERO_EXT:
            return self.num(ch[0])
        if k == z3.Z3_OP_SIGN_EXT:
            a = ch[0]
            wa = a.size()
            x = self.num(a)
            return z3.If(x >= (1 << (wa - 1)), x + (m - (1 << wa)), x)
        if k == z3.Z3_OP_ITE:
            return z3.If(self.pred(ch[0]), self.num(ch[1]), self.num(ch[2]))
        if k in (z3.Z3_OP_BUDIV, z3.Z3_OP_BUDIV_I, z3.Z3_OP_BUREM, z3.Z3_OP_BUREM_I) and z3.is_bv_value(ch[1]):
            d = ch[1].as_long()
            a = self.num(ch[0])
            if d == 0:  # z3's division by zero: quotient all ones, remainder the dividend
                return z3.IntVal(m - 1) if k in (z3.Z3_OP_BUDIV, z3.Z3_OP_BUDIV_I) else a
            return _div(a, d) if k in (z3.Z3_OP_BUDIV, z3.Z3_OP_BUDIV_I) else _mod(a, d)
        if k in (z3.Z3_OP_BSDIV, z3.Z3_OP_BSDIV_I, z3.Z3_OP_BSREM, z3.Z3_OP_BSREM_I) and z3.is_bv_value(ch[1]):
            d = _signed_value(ch[1].as_long(), w)
            if d == 0:
                raise Unsupported("a signed division by zero")
            a = self._signed(self.num(ch[0]), w)
            # Toward zero, as bvsdiv and bvsrem are: the floor of |a| / |d|, signs restored.
            q_abs = _div(z3.If(a >= 0, a, -a), abs(d))
            q = z3.If((a >= 0) == (d > 0), q_abs, -q_abs)
            r = q if k in (z3.Z3_OP_BSDIV, z3.Z3_OP_BSDIV_I) else a - d * q
            return _mod(r, m)
        if k in (z3.Z3_OP_BSMOD, z3.Z3_OP_BSMOD_I) and z3.is_bv_value(ch[1]):
            d = _signed_value(ch[1].as_long(), w)
            if d == 0:
                raise Unsupported("a signed remainder by zero")
            a = self._signed(self.num(ch[0]), w)
            # The sign of the divisor (bvsmod, Python's ``%`` on bit-vectors): the floor's remainder.
            r = _mod(a, d) if d > 0 else -_mod(-a, -d)
            return _mod(r, m)
        if k == z3.Z3_OP_BSHL and z3.is_bv_value(ch[1]):
            s = ch[1].as_long()
            return z3.IntVal(0) if s >= w else _mod(self.num(ch[0]) * (1 << s), m)
        if k == z3.Z3_OP_BLSHR and z3.is_bv_value(ch[1]):
            s = ch[1].as_long()
            return z3.IntVal(0) if s >= w else _div(self.num(ch[0]), 1 << s)
        if k == z3.Z3_OP_BASHR and z3.is_bv_value(ch[1]):
            s = min(ch[1].as_long(), w - 1)
            return _mod(_div(self._signed(self.num(ch[0]), w), 1 << s), m)  # floor division: arithmetic shift
        raise Unsupported(f"{t.decl().name()}")

    @staticmethod
    def _constant(x: z3.ArithRef) -> int | None:
        """The number ``x`` (a translated term) always is, or None (an extended constant
        translates to an expression that simplifies to one)."""
        v = x if z3.is_int_value(x) else z3.simplify(x)
        return v.as_long() if z3.is_int_value(v) else None

    @staticmethod
    def _signed(x: z3.ArithRef, w: int) -> z3.ArithRef:
        return z3.If(x >= (1 << (w - 1)), x - (1 << w), x)

    # ---- formulas -----------------------------------------------------------------------------
    def pred(self, f: z3.ExprRef) -> z3.BoolRef:
        key = f.get_id()
        got = self.memo.get(key)
        if got is None:
            got = self._pred(f)
            self.memo[key] = got
        return got

    def _pred(self, f: z3.ExprRef) -> z3.BoolRef:
        if z3.is_true(f) or z3.is_false(f):
            return f
        if not z3.is_app(f):
            raise Unsupported(str(f)[:60])
        if z3.is_const(f):  # a Boolean constant: itself
            return f
        k = f.decl().kind()
        ch = f.children()
        if k == z3.Z3_OP_AND:
            return z3.And([self.pred(c) for c in ch])
        if k == z3.Z3_OP_OR:
            return z3.Or([self.pred(c) for c in ch])
        if k == z3.Z3_OP_NOT:
            return z3.Not(self.pred(ch[0]))
        if k == z3.Z3_OP_IMPLIES:
            return z3.Implies(self.pred(ch[0]), self.pred(ch[1]))
        if k == z3.Z3_OP_XOR:
            return z3.Xor(self.pred(ch[0]), self.pred(ch[1]))
        if k == z3.Z3_OP_ITE:
            return z3.If(self.pred(ch[0]), self.pred(ch[1]), self.pred(ch[2]))
        if k in (z3.Z3_OP_EQ, z3.Z3_OP_DISTINCT, z3.Z3_OP_IFF):
            if all(z3.is_bool(c) for c in ch):
                xs = [self.pred(c) for c in ch]
            elif all(z3.is_bv(c) for c in ch):
                xs = [self.num(c) for c in ch]
            else:
                raise Unsupported(str(f)[:60])
            if k == z3.Z3_OP_DISTINCT:
                return z3.Distinct(*xs)
            return z3.And([xs[0] == y for y in xs[1:]])
        unsigned = {z3.Z3_OP_ULEQ: lambda a, b: a <= b, z3.Z3_OP_ULT: lambda a, b: a < b,
                    z3.Z3_OP_UGEQ: lambda a, b: a >= b, z3.Z3_OP_UGT: lambda a, b: a > b}
        signed = {z3.Z3_OP_SLEQ: lambda a, b: a <= b, z3.Z3_OP_SLT: lambda a, b: a < b,
                  z3.Z3_OP_SGEQ: lambda a, b: a >= b, z3.Z3_OP_SGT: lambda a, b: a > b}
        if k in unsigned:
            return unsigned[k](self.num(ch[0]), self.num(ch[1]))
        if k in (z3.Z3_OP_BSMUL_NO_OVFL, z3.Z3_OP_BSMUL_NO_UDFL, z3.Z3_OP_BUMUL_NO_OVFL):
            w = ch[0].size()
            a, b = self.num(ch[0]), self.num(ch[1])
            ca, cb = self._constant(a), self._constant(b)
            if ca is None and cb is None:
                raise Unsupported("a product of two variables")
            if k == z3.Z3_OP_BUMUL_NO_OVFL:
                return (a * cb if cb is not None else b * ca) < (1 << w)
            x, c = (a, cb) if cb is not None else (b, ca)
            p = self._signed(x, w) * _signed_value(c, w)  # type: ignore[arg-type]
            return p < (1 << (w - 1)) if k == z3.Z3_OP_BSMUL_NO_OVFL else p >= -(1 << (w - 1))
        if k in signed:
            w = ch[0].size()
            return signed[k](self._signed(self.num(ch[0]), w), self._signed(self.num(ch[1]), w))
        raise Unsupported(f"{f.decl().name()}")


def _mod(x: z3.ArithRef, m: int) -> z3.ArithRef:
    return x % m  # z3's mod by a positive numeral: in [0, m)


def _div(x: z3.ArithRef, d: int) -> z3.ArithRef:
    return x / d  # z3's integer division by a positive numeral: the floor


def _signed_value(v: int, w: int) -> int:
    return v - (1 << w) if v >= 1 << (w - 1) else v
