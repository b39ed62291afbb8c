"""Signed ranges of bit-vector terms (smt/bvrange.py): an overflow case is left out of a
path's encoding only where the operands' ranges rule the overflow out."""

from __future__ import annotations

import z3
from cbam.engine.smt.bvrange import Ranges, full


def test_a_long_long_sum_of_ints_cannot_overflow() -> None:
    r = Ranges()
    xs = [z3.BitVec(f"x{i}", 32) for i in range(1000)]
    s = z3.BitVecVal(0, 64)
    for x in xs:  # as the path encoding builds it: one definition per step
        assert r.fits("+", s, z3.SignExt(32, x), 64)
        s = s + z3.SignExt(32, x)
    assert r.of(s) == (1000 * -(1 << 31), 1000 * ((1 << 31) - 1))


def test_two_ints_may_overflow_and_an_int_sum_is_not_assumed_to_fit() -> None:
    r = Ranges()
    a, b = z3.BitVec("a", 32), z3.BitVec("b", 32)
    assert not r.fits("+", a, b, 32)
    assert not r.fits("-", a, b, 32)
    assert not r.fits("*", a, z3.BitVecVal(2, 32), 32)
    assert r.of(a + b) == full(32)  # the sum wraps: its range is the whole type
    assert r.fits("+", z3.SignExt(16, z3.Extract(15, 0, a)), z3.SignExt(16, z3.Extract(15, 0, b)), 32)


def test_a_variable_has_the_range_of_what_was_written_to_it() -> None:
    r = Ranges()
    c = z3.BitVec("c", 8)
    v = z3.BitVec("v", 32)
    r.note(v, z3.ZeroExt(24, c))  # an unsigned char, converted: 0..255
    assert r.of(v) == (0, 255)
    w = z3.BitVec("w", 32)
    r.note(w, z3.If(z3.Bool("p"), v, z3.BitVecVal(-7, 32)))
    assert r.of(w) == (-7, 255)
    assert r.fits("*", w, z3.BitVecVal(1000, 32), 32)
    assert not r.fits("*", w, z3.BitVecVal(1 << 24, 32), 32)
    # The low bits of a value that fits in them are the value; of one that does not, anything.
    assert r.of(z3.Extract(15, 0, v)) == (0, 255)
    assert r.of(z3.Extract(7, 0, v)) == full(8)
    assert r.of(-w) == (-255, 7)
    assert r.of(z3.BitVecVal(0xFFFFFFFF, 32)) == (-1, -1)
