"""Summaries guessed from runs (algorithms/horn/samples.py): the runs record what the program
does, the guesses are the equalities every run satisfies, and only what Houdini proves over the
clauses is believed: a guess that holds on the small inputs alone proves nothing."""

from __future__ import annotations

import time
from pathlib import Path

import z3
from cbam.engine.algorithms.horn import clauses
from cbam.engine.algorithms.horn import samples as samples

from .conftest import SVCOMP, assert_replay_reaches_error, check_error_path, load_src, verify_src
from .test_horn import TWICE_UNBOUNDED

# MultCommutative-2's shape: a product by repeated addition, whose summary is nonlinear and
# holds with machine integers only where the product fits.
MULT = """extern int __VERIFIER_nondet_int(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error(void) { __assert_fail("0", "mult.c", 3, "reach_error"); }
int mult(int n, int m) {
  if (m < 0) return mult(n, -m);
  if (m == 0) return 0;
  BODY
}
int main(void) {
  int m = __VERIFIER_nondet_int();
  if (m < 0 || m > 46340) return 0;
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 46340) return 0;
  int a = mult(m, n);
  int b = mult(n, m);
  if (a != b && m > 0 && n > 0) reach_error();
  return 0;
}
"""
RIGHT = MULT.replace("BODY", "return n + mult(n, m - 1);")
# Beyond every input the runs draw (|x| <= 16), a wrong product: mult(x, 1) == x + 1 for x > 20.
WRONG = RIGHT.replace("return n + mult(n, m - 1);", "return n + mult(n, m - 1) + (n > 20);")
WRONG = WRONG[:WRONG.index("int main")] + """int main(void) {
  int x = __VERIFIER_nondet_int();
  if (x < 0 || x > 1000) return 0;
  if (mult(x, 1) != x) reach_error();
  return 0;
}
"""


def _encoder(program) -> clauses.Encoder:
    return clauses.Encoder(program, "lia", products=True)


def test_the_runs_record_each_call_with_the_values_it_was_called_with(tmp_path: Path) -> None:
    program = load_src(RIGHT, tmp_path)
    enc = _encoder(program)
    rows = samples.sample(program, enc, time.monotonic() + 10)
    fn = program.functions["mult"]
    at_exit = rows[clauses.key(fn.exit)]
    assert len(at_exit) >= 40
    r, n, m = fn.result_var, "mult::n@old", "mult::m@old"
    assert all(s[r] == s[n] * s[m] for s in at_exit)
    assert any(s[m] > 1 for s in at_exit)
    # Only reachable calls: main lets no negative value through.
    assert all(s[n] >= 0 and s[m] >= 0 for s in at_exit)
    # The frame's other values are the callee's own, at its exit.
    assert all(s["mult::n"] == s[n] for s in at_exit)


def test_the_guessed_summary_is_the_product_and_the_product_where_it_fits(tmp_path: Path) -> None:
    program = load_src(RIGHT, tmp_path)
    enc = _encoder(program)
    fn = program.functions["mult"]
    guessed = samples.guesses(program, enc, time.monotonic() + 10)[0][clauses.key(fn.exit)]
    names = {v: z3.Int(v) for v in enc.frame(fn)}
    r, n, m = names[str(fn.result_var)], names["mult::n@old"], names["mult::m@old"]
    fits = z3.And(n * m >= -(2**31), n * m <= 2**31 - 1)

    def equivalent(f: z3.BoolRef, g: z3.BoolRef) -> bool:
        s = z3.Solver()
        s.add(f != g)
        return s.check() == z3.unsat

    got = [g(names) for g in guessed]
    assert any(equivalent(f, r == n * m) for f in got)
    assert any(equivalent(f, z3.Implies(fits, r == n * m)) for f in got)


def test_a_nonlinear_summary_is_proved(tmp_path: Path) -> None:
    out = samples.solve(load_src(RIGHT, tmp_path), 30)
    assert out.status == "safe", out.reason
    assert "\\result == n * m" in out.summaries["mult"]
    r = verify_src(RIGHT, tmp_path, timeout=60)
    assert r.verdict == "TRUE", r.reason
    assert r.statistics.decided_by == "cparec"


def test_a_linear_summary_is_proved_where_it_fits_its_type() -> None:
    """Addition03-1: ``\\result == m + n`` is inductive with machine integers only where
    ``m + n`` fits a long long (elsewhere ``m+1`` overflows on the way)."""
    from cbam.engine.cfa.load import load_program
    from cbam.engine.frontend.preprocess import PreprocessOptions

    program = load_program(str(SVCOMP / "c" / "recursive" / "Addition03-1.c"),
                           options=PreprocessOptions(data_model="ILP32"))
    out = samples.solve(program, 30)
    assert out.status == "safe", out.reason
    assert "9223372036854775807" in out.summaries["addition"] and "\\result == m + n" in out.summaries["addition"]


def _refuted(src: str, tmp_path: Path) -> None:
    """No guess proves ``src``, and the portfolio finds its violation: path checked, replayed."""
    assert samples.solve(load_src(src, tmp_path), 30).status != "safe"
    r = verify_src(src, tmp_path, timeout=60)
    assert r.verdict == "FALSE", r.reason
    check_error_path(r)
    assert_replay_reaches_error(tmp_path / "prog.c", r, "LP64", tmp_path)


def test_a_guess_only_the_small_inputs_satisfy_proves_nothing(tmp_path: Path) -> None:
    _refuted(WRONG, tmp_path)


def test_a_summary_that_overflows_is_never_proved(tmp_path: Path) -> None:
    """``\\result == 2 * n`` holds on every run; with machine integers ``twice`` overflows for
    large ``n``, where it differs from ``2 * n`` (an arbitrary value)."""
    assert samples.solve(load_src(TWICE_UNBOUNDED, tmp_path), 30).status != "safe"


def test_no_guess_without_runs_that_reach_a_call(tmp_path: Path) -> None:
    src = RIGHT.replace("if (m < 0 || m > 46340) return 0;", "if (m < 1000) return 0;")
    out = samples.solve(load_src(src, tmp_path), 10)
    assert out.status == "unknown"


FIB = """extern int __VERIFIER_nondet_int(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error(void) { __assert_fail("0", "fib.c", 3, "reach_error"); }
int fib(int n) {
  if (n < 1) return 0;
  if (n == 1) return 1;
  return fib(n - 1) + fib(n - 2);
}
int main(void) {
  int x = __VERIFIER_nondet_int();
  if (x > 40) return 0;
  int r = fib(x);
  if (x >= FROM && r < LEAST) reach_error();
  return 0;
}
"""


def test_a_pure_function_of_bounded_recursion_is_tabulated(tmp_path: Path) -> None:
    """fib(10) == 55 and fib grows: no polynomial says it and no bound keeps fib(n-1) + fib(n-2)
    from overflowing but the values themselves, computed once each (fib(40) would be 3e8 calls),
    up to the program's largest constant (55) or the first value that overflows (fib(47))."""
    out = samples.solve(load_src(FIB.replace("FROM", "10").replace("LEAST", "55"), tmp_path), 30)
    assert out.status == "safe", out.reason
    assert "(0 <= n && n <= 46 ==> \\result == {0, 1, 1, 2, 3, 5, 8," in out.summaries["fib"]
    assert out.summaries["fib"].endswith("}[n]) && (n < 0 ==> \\result == 0)")
    r = verify_src(FIB.replace("FROM", "10").replace("LEAST", "55"), tmp_path, timeout=60)
    assert r.verdict == "TRUE" and r.statistics.decided_by == "cparec", r.reason


def test_a_table_proves_no_more_than_the_values_say(tmp_path: Path) -> None:
    _refuted(FIB.replace("FROM", "5").replace("LEAST", "6"), tmp_path)  # fib(5) == 5


def test_a_function_that_draws_an_input_is_not_tabulated(tmp_path: Path) -> None:
    src = FIB.replace("FROM", "10").replace("if (n == 1) return 1;", "if (n == 1) return __VERIFIER_nondet_int();")
    program = load_src(src, tmp_path)
    assert samples._tabulable(program, samples._met(program, _encoder(program))) == {}
    assert samples.guesses(program, _encoder(program), time.monotonic() + 10)[1] == {}


def _hanoi(body: str = "counter++;"):
    from cbam.engine.cfa.load import load_program
    from cbam.engine.frontend.preprocess import PreprocessOptions

    src = (SVCOMP / "c" / "recursive" / "recHanoi01.c").read_text()
    assert "\tcounter++;\n" in src
    return src.replace("\tcounter++;\n", f"\t{body}\n"), load_program, PreprocessOptions


def test_what_a_call_adds_to_a_global_is_tabulated_too(tmp_path: Path) -> None:
    """recHanoi01: applyHanoi(n) adds 2^n - 1 to ``counter`` (2^31 calls for n = 31, one per
    value with the table) and hanoi(n) returns it; main compares the two."""
    src, load_program, options = _hanoi()
    path = tmp_path / "hanoi.c"
    path.write_text(src)
    program = load_program(str(path), options=options(data_model="ILP32"))
    enc = _encoder(program)
    tables = samples.guesses(program, enc, time.monotonic() + 10)[1]
    assert tables["applyHanoi"].result is None
    assert tables["applyHanoi"].effects["counter"][1][:5] == [0, 1, 3, 7, 15]
    assert tables["hanoi"].result is not None and tables["hanoi"].result[:2] == (1, [2**k - 1 for k in range(1, 32)])
    out = samples.solve(program, 30)
    assert out.status == "safe", out.reason
    assert "counter - \\old(counter) == {0, 1, 3, 7, 15," in out.summaries["applyHanoi"]


def test_an_effect_that_differs_from_the_result_proves_nothing(tmp_path: Path) -> None:
    src, load_program, options = _hanoi("counter += (n == 25) ? 2 : 1;")
    path = tmp_path / "hanoi.c"
    path.write_text(src)
    program = load_program(str(path), options=options(data_model="ILP32"))
    assert samples.solve(program, 30).status != "safe"


def test_through_the_command_line_with_the_table_on_hover(tmp_path: Path) -> None:
    import json
    import subprocess
    import sys

    from .conftest import ROOT

    src = tmp_path / "fib.c"
    src.write_text(FIB.replace("FROM", "10").replace("LEAST", "55"))
    out = subprocess.run([sys.executable, "-m", "cbam", "verify", str(src), "--format", "json", "--no-cache",
                          "--timeout", "60"], capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 0, out.stdout + out.stderr
    got = json.loads(out.stdout)
    assert got["verdict"] == "TRUE" and got["statistics"]["decided_by"] == "cparec"
    # What the hover shows (the summary command gives BAM's per-context summaries instead).
    assert "(0 <= n && n <= 46 ==> \\result == {0, 1, 1, 2," in got["invariants"]["fib"]


# Ackermann03's shape: a pure function of two parameters, each compared with 0, whose values at
# m == 2 (2n + 3) rest on those at m == 1 (n + 2) up to 2n + 1, and those on m == 0.
ACKERMANN = """extern int __VERIFIER_nondet_int(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error(void) { __assert_fail("0", "ack.c", 3, "reach_error"); }
int ackermann(int m, int n) {
  if (m == 0) return n + 1;
  if (n == 0) return ackermann(m - 1, 1);
  return ackermann(m - 1, ackermann(m, n - 1));
}
int main(void) {
  int m = __VERIFIER_nondet_int();
  if (m < 0 || m > 3) return 0;
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 23) return 0;
  int result = ackermann(m, n);
  if (m == M && n == AT && result != EXPECTED) reach_error();
  return 0;
}
"""


def test_a_pure_function_of_two_parameters_is_tabulated_per_value_of_the_first(tmp_path: Path) -> None:
    """ackermann(3, 23) is 2^26 - 3, far past what a run computes: the tables hold what the
    calls that return compute (ackermann(2, n) up to n = 23, and ackermann(1, n) up to 2n + 1
    for it), and Houdini keeps the prefixes of each that what they call supports."""
    program = load_src(ACKERMANN.replace("M", "2").replace("AT", "2").replace("EXPECTED", "7"), tmp_path)
    tables = samples.guesses(program, _encoder(program), time.monotonic() + 10)[1]
    ack = tables["ackermann"]
    assert isinstance(ack, samples.Curried)
    assert ack.tables[(2,)][:2] == (0, [2 * n + 3 for n in range(len(ack.tables[(2,)][1]))])
    assert ack.tables[(1,)][1][:48] == [n + 2 for n in range(48)]
    assert ack.tables[(3,)][1][:4] == [5, 13, 29, 61]
    out = samples.solve(program, 30)
    assert out.status == "safe", out.reason
    assert "(m == 2 ==> (0 <= n && n <= 15 ==> \\result == {3, 5, 7, 9," in out.summaries["ackermann"]
    assert "(m == 0 ==> (-1 <= n && n <= 62 ==> \\result == {0, 1, 2," in out.summaries["ackermann"]
    assert "[n + 1]" in out.summaries["ackermann"]


def test_the_tables_of_two_parameters_prove_no_more_than_the_values_say(tmp_path: Path) -> None:
    # ackermann(1, 3) == 5 (a violation at m == 2 is deeper than the portfolio's BMC goes in a minute)
    _refuted(ACKERMANN.replace("M", "1").replace("AT", "3").replace("EXPECTED", "4"), tmp_path)


def test_a_function_of_two_parameters_that_reads_a_global_is_not_tabulated(tmp_path: Path) -> None:
    src = ACKERMANN.replace("int ackermann(int m, int n) {", "int g;\nint ackermann(int m, int n) {").replace(
        "return n + 1;", "return n + g;")
    program = load_src(src.replace("M", "2").replace("AT", "2").replace("EXPECTED", "7"), tmp_path)
    assert samples._curriable(program, samples._met(program, _encoder(program))) == []
