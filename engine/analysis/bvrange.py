"""Signed ranges of bit-vector terms, to leave out overflow cases that cannot happen.

The path encodings give a signed ``+``, ``-`` or ``*`` whose result may overflow an arbitrary
value in that case (``If(overflow, undefined#k, sum)``). Such a case hides the sum from z3's
rewriter: a long long sum of a thousand ``int`` cells, taken before and after the cells are
permuted (array-crafted/mapavg), is equal term for term once z3 sorts the summands, and hard
for the SAT solver with the cases in place. Where the operands' ranges show that the exact
result fits its type, the case is left out: that is exact, not an approximation.

A range is an interval of the term's value read as a signed number: a sign extension has its
source's range, a variable the path wrote has the range of what was written (``note``), and a
sum the sum of its operands' ranges while that fits. Anything else has its type's full range.
"""

from __future__ import annotations

import z3

Range = tuple[int, int]


def full(bits: int) -> Range:
    return -(1 << (bits - 1)), (1 << (bits - 1)) - 1


class Ranges:
    """A cache of ranges by term, for one encoding (its terms stay alive while it does, so the
    ids it keys on are not reused)."""

    def __init__(self) -> None:
        self._known: dict[int, tuple[z3.ExprRef, Range]] = {}
        # Definitions, read only when a range is asked for: most written values never are.
        self._defs: dict[int, tuple[z3.ExprRef, z3.ExprRef]] = {}

    def note(self, var: z3.ExprRef, value: z3.ExprRef) -> None:
        """``var`` was constrained equal to ``value``: it has ``value``'s range."""
        self._defs[var.get_id()] = (var, value)

    def fits(self, op: str, a: z3.ExprRef, b: z3.ExprRef, bits: int) -> bool:
        """Whether ``a op b`` (signed, ``bits`` wide) is sure not to overflow."""
        lo, hi = _combine(op, self.of(a), self.of(b))
        top = full(bits)
        return top[0] <= lo and hi <= top[1]

    def of(self, t: z3.ExprRef) -> Range:
        # Iterative, children first: a sum built step by step is a chain thousands of terms deep.
        todo = [t]
        while todo:
            u = todo[-1]
            if u.get_id() in self._known:
                todo.pop()
                continue
            d = self._defs.get(u.get_id())
            kids = [d[1]] if d is not None else _operands(u)
            missing = [k for k in kids if k.get_id() not in self._known]
            if missing:
                todo.extend(missing)
                continue
            todo.pop()
            self._known[u.get_id()] = (u, self._compute(u))
        return self._known[t.get_id()][1]

    def _compute(self, t: z3.ExprRef) -> Range:
        d = self._defs.get(t.get_id())
        if d is not None:
            return self._known[d[1].get_id()][1]
        bits = t.size()
        top = full(bits)
        if z3.is_bv_value(t):
            v = t.as_long()
            return (v - (1 << bits), v - (1 << bits)) if v >> (bits - 1) else (v, v)
        k = t.decl().kind()
        if k == z3.Z3_OP_SIGN_EXT:
            return self._known[t.arg(0).get_id()][1]
        if k == z3.Z3_OP_ZERO_EXT:
            n = t.arg(0).size()
            return (0, (1 << n) - 1) if n < bits else top
        if k == z3.Z3_OP_ITE:
            (a, b), (c, d) = self._known[t.arg(1).get_id()][1], self._known[t.arg(2).get_id()][1]
            return min(a, c), max(b, d)
        if k in (z3.Z3_OP_BADD, z3.Z3_OP_BMUL):
            op = "+" if k == z3.Z3_OP_BADD else "*"
            r = self._known[t.arg(0).get_id()][1]
            for i in range(1, t.num_args()):
                r = _combine(op, r, self._known[t.arg(i).get_id()][1])
            return r if top[0] <= r[0] and r[1] <= top[1] else top
        if k == z3.Z3_OP_BSUB:
            r = _combine("-", self._known[t.arg(0).get_id()][1], self._known[t.arg(1).get_id()][1])
            return r if top[0] <= r[0] and r[1] <= top[1] else top
        if k == z3.Z3_OP_BNEG:
            lo, hi = self._known[t.arg(0).get_id()][1]
            return (-hi, -lo) if -hi >= top[0] and -lo <= top[1] else top
        if k == z3.Z3_OP_EXTRACT:
            hi_bit, lo_bit = t.params()
            src = self._known[t.arg(0).get_id()][1]
            if lo_bit == 0 and full(bits)[0] <= src[0] and src[1] <= full(bits)[1]:
                return src  # the low bits of a value that fits in them: the same value
        return top


def _operands(t: z3.ExprRef) -> list[z3.ExprRef]:
    """The operands whose ranges ``_compute`` reads."""
    k = t.decl().kind() if z3.is_app(t) else None
    if k in (z3.Z3_OP_SIGN_EXT, z3.Z3_OP_EXTRACT, z3.Z3_OP_BNEG):
        return [t.arg(0)]
    if k == z3.Z3_OP_ITE:
        return [t.arg(1), t.arg(2)]
    if k in (z3.Z3_OP_BADD, z3.Z3_OP_BMUL, z3.Z3_OP_BSUB):
        return [t.arg(i) for i in range(t.num_args())]
    return []


def _combine(op: str, a: Range, b: Range) -> Range:
    if op == "+":
        return a[0] + b[0], a[1] + b[1]
    if op == "-":
        return a[0] - b[1], a[1] - b[0]
    ps = [x * y for x in a for y in b]
    return min(ps), max(ps)
