"""Int-blasting (engine/smt/intblast.py) must be exact: every bit-vector term it reads has,
over the integers, the unsigned value z3's bit-vector semantics gives it, and every formula
the same truth value, for every assignment. Checked by z3 itself (BV2Int of the bit-vector term
against the translation, with each variable's integer tied to its bits), on every operation
alone at several widths, and on random nestings of them."""

from __future__ import annotations

import random

import pytest
import z3
from cbam.engine.smt.intblast import Unsupported, _Translation, blast


def _exact_term(t: z3.BitVecRef) -> None:
    _exact(t, lambda tr: tr.num(t) != z3.BV2Int(t))


def _exact_pred(f: z3.BoolRef) -> None:
    _exact(f, lambda tr: tr.pred(f) != f)


def _exact(e: z3.ExprRef, differs) -> None:
    """No values of e's bit-vector variables (each the integer its translation names, in its
    range) for which the translation and e disagree."""
    tr = _Translation()
    s = z3.Solver()
    s.add(differs(tr))
    s.add(*tr.ranges)
    for bv_id, iv in tr.vars.items():
        s.add(iv == z3.BV2Int(_by_id(e, bv_id)))
    assert s.check() == z3.unsat, (e, s.model() if s.check() == z3.sat else None)


def _by_id(t: z3.ExprRef, ident: int) -> z3.ExprRef:
    todo = [t]
    while todo:
        x = todo.pop()
        if x.get_id() == ident:
            return x
        todo.extend(x.children())
    raise KeyError(ident)


@pytest.mark.parametrize("w", [1, 3, 8])
def test_each_operation_reads_exactly(w):
    a, b = z3.BitVecs(f"a{w} b{w}", w)
    c = z3.BitVecVal(5 % (1 << w), w)
    terms = [a + b, a - b, -a, a * c, c * a * c, ~a, z3.Extract(w - 1, w // 2, a), z3.Concat(a, b),
             z3.ZeroExt(7, a), z3.SignExt(7, a), z3.If(a == b, a, b), z3.UDiv(a, c), z3.URem(a, c),
             z3.LShR(a, z3.BitVecVal(1, w)), a << z3.BitVecVal(1 % (1 << w), w), a >> z3.BitVecVal(1, w),
             z3.UDiv(a, z3.BitVecVal(0, w)), z3.URem(a, z3.BitVecVal(0, w))]
    if c.as_long() != 0:
        terms += [a / c, z3.SRem(a, c), a % c]
    neg = z3.BitVecVal((-3) % (1 << w), w)
    if neg.as_long() != 0:
        terms += [a / neg, z3.SRem(a, neg), a % neg]
    for t in terms:
        _exact_term(t)
    for f in [z3.ULT(a, b), z3.ULE(a, b), z3.UGT(a, b), z3.UGE(a, b), a < b, a <= b, a > b, a >= b,
              a == b, a != b, z3.And(a == b, z3.ULT(a, c)), z3.Or(a < b, b < a), z3.Implies(a < b, a != b),
              z3.Not(a == c), z3.Xor(a < b, b < c), z3.BVAddNoOverflow(a, b, True), z3.BVAddNoUnderflow(a, b),
              z3.BVSubNoOverflow(a, b), z3.BVSubNoUnderflow(a, b, True), z3.BVMulNoOverflow(a, c, True),
              z3.BVMulNoUnderflow(a, c)]:
        _exact_pred(f)


def test_random_nestings_read_exactly():
    rng = random.Random(7)
    for _ in range(300):
        w = rng.choice([2, 3, 4])  # z3 proves wider equivalences slowly (a minute at 8 bits)
        xs = list(z3.BitVecs(" ".join(f"x{i}_{w}" for i in range(3)), w))

        def term(depth: int, w: int = w, xs: list = xs) -> z3.BitVecRef:
            if depth == 0 or rng.random() < 0.25:
                return rng.choice(xs + [z3.BitVecVal(rng.randrange(1 << w), w)])
            op = rng.randrange(9)
            a, b = term(depth - 1, w, xs), term(depth - 1, w, xs)
            k = z3.BitVecVal(rng.randrange(1, 1 << w), w)
            return [a + b, a - b, a * k, -a, ~a, z3.If(a < b, a, b), z3.UDiv(a, k), a / k, a % k][op]

        f = rng.choice([lambda p, q: p < q, lambda p, q: z3.ULE(p, q), lambda p, q: p == q])(term(3, w, xs), term(3, w, xs))
        _exact_pred(f)


def test_what_it_does_not_read_exactly_is_refused():
    a, b = z3.BitVecs("p q", 8)
    for t in [a & b, a | b, a ^ b, a * b, z3.UDiv(a, b), a << b]:
        with pytest.raises(Unsupported):
            blast([t == 0])


def test_a_loop_nests_step_is_decided_over_the_integers_fast():
    """The check that bit-blasting did not finish in 20 s (a three-dimensional array's flat index,
    bench/memory's init-3-u): the integer reading decides it at once."""
    d, i, j, k = z3.BitVecs("d i j k", 70)
    inside = [z3.SignExt(38, z3.Extract(31, 0, x)) == x for x in (i, j, k)]
    pre = z3.And(d >= 0, d < 1000000 * i + 1000 * j + k, k >= 1000, k <= 1000, i >= 0, j >= 0, i < 1000, j < 1000)
    post = d < 1000000 * i + 1000 * (j + 1)
    s = z3.Solver()
    s.add(*blast([*inside, pre, z3.Not(post)]))
    s.set("timeout", 5000)
    assert s.check() == z3.unsat
