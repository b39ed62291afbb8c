"""Polynomial loop invariants (algorithms/kinduction/algebraic.py and kinduction.solve_algebraic):
equalities guessed from sampled states, proved over integer clauses with exact products; what
they prove, what they must not prove, and their place in the portfolio."""

from __future__ import annotations

import time
from pathlib import Path

from cbam.engine.algorithms import equalities, kinduction
from cbam.engine.algorithms.horn import clauses as horn
from cbam.engine.algorithms.kinduction import algebraic

from .conftest import ROOT, assert_replay_reaches_error, check_error_path, load_src, verify_src

HEAD = """extern int __VERIFIER_nondet_int(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error(void) { __assert_fail("0", "sum.c", 3, "reach_error"); }
"""

# x is the sum 1 + ... + y: 2x == y*y + y at the loop head, which no bound expresses; k up to
# a million keeps value analysis from enumerating it, and keeps y*y within long long.
SUM = HEAD + """
int main(void) {
  int k = __VERIFIER_nondet_int();
  if (k < 0 || k > 1000000) return 0;
  long long x = 0, y = 0;
  while (y < k) {
    y = y + 1;
    x = x + y;
  }
  if (2 * x != y * y + y%s) reach_error();
  return 0;
}
"""
SUM_TRUE = SUM % ""
SUM_FALSE = SUM % " || (y == 7 && x != 27)"  # x is 28 there
# With int instead of long long the sum overflows for large k (undefined: any value), so
# the equality is not an invariant of the machine program and must not be proved.
SUM_OVERFLOWS = SUM_TRUE.replace("long long x = 0, y = 0;", "int x = 0, y = 0;")


def test_the_null_space_finds_the_sums_equality() -> None:
    rows = [[1, y, y * (y + 1) // 2, y * y] for y in range(8)]  # 1, y, x, y*y
    (vec,) = equalities.null_space(rows)
    assert vec in ([0, 1, -2, 1], [0, -1, 2, -1])


def test_a_sum_is_proved_by_its_polynomial_invariant(tmp_path: Path) -> None:
    out = kinduction.solve_algebraic(load_src(SUM_TRUE, tmp_path), 30.0)
    assert out.status == "safe", out.reason


def test_a_violation_is_never_proved(tmp_path: Path) -> None:
    for code in (SUM_FALSE, SUM_OVERFLOWS):
        out = kinduction.solve_algebraic(load_src(code, tmp_path), 10.0)
        assert out.status == "unknown"


def test_the_guess_covers_the_loop_head(tmp_path: Path) -> None:
    program = load_src(SUM_TRUE, tmp_path)
    enc = horn.Encoder(program, "bv")
    ts = kinduction.TransitionSystem(enc.clauses(time.monotonic() + 10),
                                     {f.name: enc.frame(f) for f in program.all_functions()}, enc.globals)
    heads = kinduction._loop_heads(program, set(ts.pc_of))
    guessed = algebraic.guess(ts, heads, lambda v: True, time.monotonic() + 10, lambda: False)
    texts = {e.text(lambda v: v[1].split("::")[-1]) for h in heads for e in guessed.get(h, [])}
    assert any("y*y" in t and "x" in t for t in texts), texts


def test_the_portfolio_proves_the_sum_and_finds_the_violation(tmp_path: Path) -> None:
    r = verify_src(SUM_TRUE, tmp_path, timeout=60, config="value+predicate")
    # Which engine answers first moves with the machine's load (the tests above prove it with
    # k-induction alone); the portfolio's answer must be TRUE whichever does.
    assert r.verdict == "TRUE", r.reason
    r = verify_src(SUM_FALSE, tmp_path, timeout=60, config="value+predicate")
    assert r.verdict == "FALSE"
    check_error_path(r)
    assert_replay_reaches_error(tmp_path / "prog.c", r, "LP64", tmp_path)


def test_an_svcomp_nla_task() -> None:
    from cbam.engine.cfa.load import load_program
    from cbam.engine.frontend.preprocess import PreprocessOptions

    task = ROOT / "bench" / "loops" / "c" / "nla-digbench-scaling" / "ps2-ll_valuebound10.c"
    program = load_program(str(task), options=PreprocessOptions(data_model="ILP32"))
    out = kinduction.solve_algebraic(program, 40.0)
    assert out.status == "safe", out.reason
