"""solving.flat_ac: chains of one associative, commutative bit-vector operation as one
application, equivalent to what it was given, in time linear in the term."""

from __future__ import annotations

import z3
from cbam.engine.smt.solving import flat_ac


def _chain(op, xs):
    r = xs[0]
    for x in xs[1:]:
        r = op(r, x)
    return r


def test_a_chain_becomes_one_application_of_all_its_operands() -> None:
    xs = [z3.BitVec(f"x{i}", 32) for i in range(50)]
    for op in (lambda a, b: a + b, lambda a, b: a ^ b, lambda a, b: a & b, lambda a, b: a | b):
        t = _chain(op, xs)
        (f,) = flat_ac([t == 0])
        flat = f.arg(0)
        assert flat.num_args() == 50 and flat.decl().kind() == t.decl().kind()
        assert z3.Solver().check(f != (t == 0)) == z3.unsat  # the same formula


def test_other_operations_stop_the_chain() -> None:
    a, b, c, d = z3.BitVecs("a b c d", 8)
    t = (a + b) * (c + d) + a
    (f,) = flat_ac([t == 1])
    assert z3.Solver().check(f != (t == 1)) == z3.unsat
    s = z3.Solver()
    s.add(f.arg(0) != t)
    assert s.check() == z3.unsat


def test_a_permuted_fold_is_equal_after_flattening() -> None:
    xs = [z3.SignExt(32, z3.BitVec(f"x{i}", 32)) for i in range(300)]
    order = [1, 0, *range(2, 300)]
    before, after = _chain(lambda p, q: p ^ q, xs), _chain(lambda p, q: p ^ q, [xs[i] for i in order])
    (f,) = flat_ac([before != after])
    assert z3.is_false(z3.simplify(f))


def test_a_shared_chain_does_not_blow_up() -> None:
    x = z3.BitVec("x", 16)
    t = x
    for _ in range(40):  # 2**40 operands as a tree
        t = t + t
    (f,) = flat_ac([t == 3])
    assert f.arg(0).num_args() <= 42  # each shared sum once: x, x, then 2x, 4x, ... as operands
    assert z3.Solver().check(f != (t == 3)) == z3.unsat


def test_what_an_earlier_call_flattened_is_reused_and_the_same() -> None:
    xs = [z3.BitVec(f"x{i}", 32) for i in range(200)]
    t = _chain(lambda p, q: p + q, xs)
    done: dict = {}
    (first,) = flat_ac([t == 0], done)
    assert done  # remembered, the terms kept alive with their ids
    (again,) = flat_ac([z3.Not(t == 0)], done)
    assert again.arg(0).eq(first)  # the chain was not walked again: the same application
    assert z3.Solver().check(again != z3.Not(t == 0)) == z3.unsat
