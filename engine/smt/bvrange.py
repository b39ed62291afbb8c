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
        return _within(_combine(op, self.of(a), self.of(b)), bits)

    def of(self, t: z3.ExprRef) -> Range:
        # Iterative, children first: a sum built step by step is a chain thousands of terms deep.
        # (A term waits on the stack with its operands, asked of z3 once.)
        todo: list[tuple[z3.ExprRef, list[z3.ExprRef] | None]] = [(t, None)]
        while todo:
            u, kids = todo[-1]
            if u.get_id() in self._known:
                todo.pop()
                continue
            if kids is None:
                kids = _operands(u, self._defs)
                missing = [k for k in kids if k.get_id() not in self._known]
                if missing:
                    todo[-1] = (u, kids)
                    todo.extend((k, None) for k in missing)
                    continue
            todo.pop()
            self._known[u.get_id()] = (u, self._compute(u, kids))
        return self._known[t.get_id()][1]

    def _compute(self, t: z3.ExprRef, kids: list[z3.ExprRef]) -> Range:
        ranges = [self._known[k.get_id()][1] for k in kids]
        if t.get_id() in self._defs:
            return ranges[0]  # what was written
        bits = t.size()
        top = full(bits)
        if z3.is_bv_value(t):
            v = t.as_long()
            return (v - (1 << bits), v - (1 << bits)) if v >> (bits - 1) else (v, v)
        k = t.decl().kind()
        if k == z3.Z3_OP_SIGN_EXT:
            return ranges[0]
        if k == z3.Z3_OP_ZERO_EXT:
            n = t.arg(0).size()
            return (0, (1 << n) - 1) if n < bits else top
        if k == z3.Z3_OP_ITE:
            (a, b), (c, d) = ranges
            return min(a, c), max(b, d)
        if k in (z3.Z3_OP_BADD, z3.Z3_OP_BMUL, z3.Z3_OP_BSUB):
            op = "+" if k == z3.Z3_OP_BADD else "*" if k == z3.Z3_OP_BMUL else "-"
            r = ranges[0]
            for other in ranges[1:]:
                r = _combine(op, r, other)
            return r if _within(r, bits) else top
        if k == z3.Z3_OP_BNEG:
            r = (-ranges[0][1], -ranges[0][0])
            return r if _within(r, bits) else top
        if k == z3.Z3_OP_EXTRACT and t.params()[1] == 0 and _within(ranges[0], bits):
            return ranges[0]  # the low bits of a value that fits in them: the same value
        return top


def _operands(t: z3.ExprRef, defs: dict[int, tuple[z3.ExprRef, z3.ExprRef]]) -> list[z3.ExprRef]:
    """The terms whose ranges ``t``'s range is computed from: a written variable's definition
    (in ``defs``), else the operands ``_compute`` reads."""
    d = defs.get(t.get_id())
    if d is not None:
        return [d[1]]
    k = t.decl().kind() if z3.is_app(t) else None
    if k in (z3.Z3_OP_SIGN_EXT, z3.Z3_OP_EXTRACT, z3.Z3_OP_BNEG):
        return [t.arg(0)]
    if k == z3.Z3_OP_ITE:
        return [t.arg(1), t.arg(2)]
    if k in (z3.Z3_OP_BADD, z3.Z3_OP_BMUL, z3.Z3_OP_BSUB):
        return [t.arg(i) for i in range(t.num_args())]
    return []


def _within(r: Range, bits: int) -> bool:
    lo, hi = full(bits)
    return lo <= r[0] and r[1] <= hi


def _combine(op: str, a: Range, b: Range) -> Range:
    if op == "+":
        return a[0] + b[0], a[1] + b[1]
    if op == "-":
        return a[0] - b[1], a[1] - b[0]
    ps = [x * y for x in a for y in b]
    return min(ps), max(ps)
