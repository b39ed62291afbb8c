"""Path formulas for the predicate analysis, in two theories.

* ``bv``: bit-vectors with C's machine-integer semantics: unsigned arithmetic wraps; undefined
  behaviour (signed overflow, division by zero, out-of-range shifts) yields an arbitrary
  value, the policy of cfa/semantics.py, so a proof never relies on a compiler's choice.
* ``lia``: unbounded integers. Fast and good for interpolation, but not exact: a proof
  found with it is re-checked in ``bv`` before it becomes TRUE (see verify.py).

Variables are named per frame: ``term(var, tag)`` is the value of ``var`` in the frame
``tag``, so a recursive call's variables never meet the caller's. Only integer variables
whose address is never taken are modelled; everything else reads as an arbitrary value,
which over-approximates and is therefore sound.
"""

from __future__ import annotations

from collections.abc import Callable

import z3

from ...cfa.cfa import Program
from ...cfa.ctype import CType, IntType
from ...cfa.ir import (
    AbortEdge,
    AssignEdge,
    AssumeEdge,
    Binary,
    BlankEdge,
    Cast,
    Const,
    DeclEdge,
    Edge,
    Expr,
    ExternalCallEdge,
    Nondet,
    ReturnEdge,
    Unary,
    Var,
)
from ...smt.solving import bv_cast, shift_amount
from .atoms import OLD, base_var

COMPARE = ("==", "!=", "<", ">", "<=", ">=")


class Theory:
    def __init__(self, program: Program, name: str):
        assert name in ("bv", "lia")
        self.program = program
        self.name = name
        self.vars = program.vars
        self._consts: dict[tuple[str, str], z3.ExprRef] = {}
        self.counter = 0

    # ---- variables ----------------------------------------------------------------
    def modelled(self, var: str) -> bool:
        info = self.vars.get(base_var(var))
        return info is not None and isinstance(info.type, IntType) and not info.addressed

    def type_of(self, var: str) -> IntType:
        t = self.vars[base_var(var)].type
        assert isinstance(t, IntType)
        return t

    def sort(self, t: IntType) -> z3.SortRef:
        return z3.BitVecSort(t.bits) if self.name == "bv" else z3.IntSort()

    def term(self, var: str, tag: str) -> z3.ExprRef:
        key = (var, tag)
        c = self._consts.get(key)
        if c is None:
            c = z3.Const(f"{var}!{tag}", self.sort(self.type_of(var)))
            self._consts[key] = c
        return c

    def fresh(self, t: IntType, base: str = "v") -> z3.ExprRef:
        self.counter += 1
        return z3.Const(f"{base}#{self.counter}", self.sort(t))

    def const(self, value: int, t: IntType) -> z3.ExprRef:
        if self.name == "bv":
            return z3.BitVecVal(value % (1 << t.bits), t.bits)
        return z3.IntVal(t.wrap(value))

    def in_range(self, x: z3.ExprRef, t: IntType) -> z3.BoolRef | None:
        if self.name == "bv":
            # Every bit pattern is a value of the type, except for _Bool's byte: 0 or 1.
            return z3.ULE(x, 1) if t.is_bool else None
        return z3.And(x >= t.min, x <= t.max)


class SegmentEncoder:
    """Encodes straight-line edges of one frame: ``ssa`` holds each variable's current term."""

    def __init__(self, theory: Theory, read: Callable[[str], z3.ExprRef]):
        self.th = theory
        self.ssa: dict[str, z3.ExprRef] = {}
        self.read_initial = read
        self.constraints: list[z3.BoolRef] = []

    def read(self, var: str) -> z3.ExprRef:
        t = self.ssa.get(var)
        if t is None:
            t = self.read_initial(var)
            self.ssa[var] = t
        return t

    def havoc(self, var: str) -> None:
        t = self.th.type_of(var)
        v = self.th.fresh(t, var)
        r = self.th.in_range(v, t)
        if r is not None:
            self.constraints.append(r)
        self.ssa[var] = v

    def write(self, var: str, value: z3.ExprRef) -> None:
        self.ssa[var] = value

    def arbitrary(self, t: CType) -> z3.ExprRef:
        assert isinstance(t, IntType)
        v = self.th.fresh(t)
        r = self.th.in_range(v, t)
        if r is not None:
            self.constraints.append(r)
        return v

    # ---- expressions ----------------------------------------------------------------
    def cond(self, e: Expr) -> z3.BoolRef:
        if isinstance(e, Unary) and e.op == "!":
            return z3.Not(self.cond(e.arg))
        if isinstance(e, Binary) and e.op in COMPARE and isinstance(e.left.type, IntType) \
                and isinstance(e.right.type, IntType):
            a, b = self.expr(e.left), self.expr(e.right)
            op = e.op
            if op == "==":
                return a == b
            if op == "!=":
                return a != b
            if self.th.name == "lia" or e.left.type.signed:
                return {"<": a < b, ">": a > b, "<=": a <= b, ">=": a >= b}[op]
            return {"<": z3.ULT(a, b), ">": z3.UGT(a, b), "<=": z3.ULE(a, b), ">=": z3.UGE(a, b)}[op]
        if not isinstance(e.type, IntType) or (isinstance(e, Binary) and e.op in COMPARE):
            return z3.Bool(f"ptrcond#{self._next()}")  # pointer conditions are not modelled
        return self.expr(e) != self.th.const(0, e.type)

    def _next(self) -> int:
        self.th.counter += 1
        return self.th.counter

    def expr(self, e: Expr) -> z3.ExprRef:
        th = self.th
        t = e.type
        if not isinstance(t, IntType):
            raise TypeError("non-integer expression")
        if isinstance(e, Const):
            return th.const(e.value, t)
        if isinstance(e, Var):
            if th.modelled(e.name):
                return self.read(e.name)
            return self.arbitrary(t)
        if isinstance(e, Cast):
            if not isinstance(e.arg.type, IntType):
                return self.arbitrary(t)
            v = self.expr(e.arg)
            return self.cast(v, e.arg.type, t)
        if isinstance(e, Unary):
            if e.op == "!":
                return z3.If(self.cond(e.arg), th.const(0, t), th.const(1, t))
            a = self.expr(e.arg)
            if e.op == "-":
                if th.name == "bv" and t.signed:  # -INT_MIN overflows
                    return z3.If(a == th.const(t.min, t), self.arbitrary(t), -a)
                return -a
            if e.op == "~":
                return ~a if th.name == "bv" else -a - 1
            return self.arbitrary(t)
        if isinstance(e, Binary):
            if e.op in COMPARE:
                return z3.If(self.cond(e), th.const(1, t), th.const(0, t))
            if not isinstance(e.left.type, IntType) or not isinstance(e.right.type, IntType):
                return self.arbitrary(t)
            a, b = self.expr(e.left), self.expr(e.right)
            return self._arith(e.op, a, b, e.left.type, e.right.type, t)
        return self.arbitrary(t)  # memory reads and anything else: any value

    def cast(self, v: z3.ExprRef, src: IntType, dst: IntType) -> z3.ExprRef:
        th = self.th
        if th.name == "lia":
            if dst.is_bool:
                return z3.If(v != 0, th.const(1, dst), th.const(0, dst))
            return v
        return bv_cast(v, src, dst)

    def _arith(self, op: str, a, b, lt: IntType, rt: IntType, t: IntType) -> z3.ExprRef:
        th = self.th
        if th.name == "lia":
            # Unbounded: no overflow at all. Good for interpolation; a proof found this way is
            # re-checked with bit-vectors, where overflow is handled (verify.py).
            if op in ("+", "-") or (op == "*" and (z3.is_int_value(a) or z3.is_int_value(b))):
                return a + b if op == "+" else a - b if op == "-" else a * b
            return self.arbitrary(t)
        signed = lt.signed
        # Undefined behaviour (signed overflow, division by zero, bad shifts) gives an arbitrary
        # value, as in the value analysis: a proof must not rely on what a compiler does then.
        if op in ("+", "-", "*"):
            r = a + b if op == "+" else a - b if op == "-" else a * b
            if not t.signed:
                return r
            if op == "+":
                ok = z3.And(z3.BVAddNoOverflow(a, b, True), z3.BVAddNoUnderflow(a, b))
            elif op == "-":
                ok = z3.And(z3.BVSubNoOverflow(a, b), z3.BVSubNoUnderflow(a, b, True))
            else:
                ok = z3.And(z3.BVMulNoOverflow(a, b, True), z3.BVMulNoUnderflow(a, b))
            return z3.If(ok, r, self.arbitrary(t))
        if op in ("/", "%"):
            zero = b == th.const(0, rt)
            if signed:
                r = a / b if op == "/" else z3.SRem(a, b)
                bad = z3.Or(zero, z3.Not(z3.BVSDivNoOverflow(a, b)))
            else:
                r = z3.UDiv(a, b) if op == "/" else z3.URem(a, b)
                bad = zero
            return z3.If(bad, self.arbitrary(t), r)
        if op in ("<<", ">>"):
            bw = rt.bits
            in_range = z3.ULT(b, z3.BitVecVal(t.bits, bw))
            amount = shift_amount(b, bw, t.bits)
            if op == "<<":
                r = a << amount
                if signed:  # shifting a negative value, or a bit into the sign, is undefined too
                    ok = z3.And(in_range, a >= 0, (r >> amount) == a, r >= 0)
                    return z3.If(ok, r, self.arbitrary(t))
                return z3.If(in_range, r, self.arbitrary(t))
            r = a >> amount if signed else z3.LShR(a, amount)
            return z3.If(in_range, r, self.arbitrary(t))
        if op == "&":
            return a & b
        if op == "|":
            return a | b
        if op == "^":
            return a ^ b
        return self.arbitrary(t)

    # ---- edges ----------------------------------------------------------------------
    def assign(self, lhs: Expr | None, value: Callable[[], z3.ExprRef] | None) -> None:
        """Writes through pointers need nothing: only variables whose address is never taken
        are modelled, and no pointer can reach them."""
        if isinstance(lhs, Var) and self.th.modelled(lhs.name):
            if value is None:
                self.havoc(lhs.name)
            else:
                self.write(lhs.name, value())

    def edge(self, e: Edge, all_globals: Callable[[], list[str]]) -> None:
        if isinstance(e, BlankEdge | AbortEdge):
            return
        if isinstance(e, AssumeEdge):
            assert e.cond is not None
            c = self.cond(e.cond)
            self.constraints.append(c if e.truth else z3.Not(c))
            return
        if isinstance(e, DeclEdge):
            var = e.var
            assert var is not None
            if not self.th.modelled(var.name):
                return
            if e.init is None or isinstance(e.init, Nondet):
                self.havoc(var.name)
            elif isinstance(var.type, IntType):
                init = e.init
                self.write(var.name, self.expr(init))
            return
        if isinstance(e, AssignEdge):
            rhs = e.rhs
            if isinstance(rhs, Nondet) or rhs is None or not isinstance(rhs.type, IntType):
                self.assign(e.lhs, None)
            else:
                self.assign(e.lhs, lambda: self.expr(rhs))
            return
        if isinstance(e, ReturnEdge):
            if e.result_var is not None and self.th.modelled(e.result_var.name):
                if e.value is not None and isinstance(e.value.type, IntType):
                    self.write(e.result_var.name, self.expr(e.value))
                else:
                    self.havoc(e.result_var.name)
            return
        if isinstance(e, ExternalCallEdge):
            if e.writes_globals:
                for g in all_globals():
                    self.havoc(g)
            if e.lhs is not None:
                self.assign(e.lhs, None)
            return
        raise TypeError(f"predicate analysis: unexpected edge {type(e).__name__}")


def old(var: str) -> str:
    return var + OLD


class MachineEncoder(SegmentEncoder):
    """In the integer theory, C's machine integers exactly where that stays linear: unsigned
    arithmetic and conversions wrap, signed overflow gives an arbitrary value (as with
    bit-vectors). Candidates found under these semantics are the ones the bit-vector check
    can accept: a summary like ``\\result == 2 * n`` holds only where ``2 * n`` does not overflow,
    so Spacer has to find the bound that keeps it there."""

    def cast(self, v: z3.ExprRef, src: IntType, dst: IntType) -> z3.ExprRef:
        if self.th.name != "lia":
            return super().cast(v, src, dst)
        if dst.is_bool:
            return z3.If(v != 0, self.th.const(1, dst), self.th.const(0, dst))
        if dst.min <= src.min and src.max <= dst.max:
            return v  # every value of the source fits: nothing wraps
        return self._wrap(v, dst, periods=None)

    def _wrap(self, r: z3.ExprRef, t: IntType, periods: int | None = 1) -> z3.ExprRef:
        """``r`` reduced into ``t``'s range; ``periods``: how far out of range it can be (None: any)."""
        n = 1 << t.bits
        r = _folded(r)
        if z3.is_int_value(r):
            return z3.IntVal(t.wrap(r.as_long()))
        inside = z3.And(r >= t.min, r <= t.max)
        if periods == 1:
            return z3.If(inside, r, z3.If(r > t.max, r - n, r + n))
        m = r % n
        return z3.If(inside, r, z3.If(m > t.max, m - n, m) if t.signed else m)

    def _arith(self, op: str, a, b, lt: IntType, rt: IntType, t: IntType) -> z3.ExprRef:
        if self.th.name != "lia":
            return super()._arith(op, a, b, lt, rt, t)
        if op in ("/", "%") and z3.is_int_value(b) and b.as_long() > 0:
            # C divides toward zero; z3's integer division (by a positive divisor) rounds down.
            c = b.as_long()
            q = z3.If(a >= 0, a / c, -((-a) / c))
            return q if op == "/" else a - c * q
        if op == "*":
            a, b = _folded(a), _folded(b)
        linear = op in ("+", "-") or (op == "*" and (z3.is_int_value(a) or z3.is_int_value(b)))
        if not linear:
            return self.arbitrary(t)
        r = a + b if op == "+" else a - b if op == "-" else a * b
        if t.signed:
            return z3.If(z3.And(r >= t.min, r <= t.max), r, self.arbitrary(t))
        return self._wrap(r, t, 1 if op != "*" else None)

    def expr(self, e):
        t = e.type
        if self.th.name == "lia" and isinstance(e, Unary) and e.op in ("-", "~") and isinstance(t, IntType):
            a = self.expr(e.arg)
            r = -a if e.op == "-" else -a - 1
            if t.signed:
                return z3.If(z3.And(r >= t.min, r <= t.max), r, self.arbitrary(t))
            return self._wrap(r, t)
        return super().expr(e)



def _folded(t: z3.ExprRef) -> z3.ExprRef:
    """``t`` as a numeral where it is a constant (a variable-length array's stride, ``n * m``
    of fixed lengths): a product with it is linear."""
    if z3.is_int_value(t) or z3.is_const(t):
        return t
    s = z3.simplify(t)
    return s if z3.is_int_value(s) else t
