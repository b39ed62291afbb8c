"""The Horn-clause engine (algorithms/horn/clauses.py): Spacer's integer invariants become a proof only
when every clause holds with machine integers; anything else leaves the run to CEGAR."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
import z3
from cbam.engine.algorithms.horn import clauses as horn
from cbam.engine.core.result import DecidedBy
from cbam.engine.options import VerifyOptions

from .conftest import REPRO, assert_replay_reaches_error, check_error_path, load_src, verify_src
from .test_loops_and_recursion import COUNT
from .test_lsp import RECURSIVE_TWICE

# True over the integers, false in C: 2 * n overflows for large n (undefined: any value), so
# no bound on n keeps twice's summary exact. Spacer may not prove it; it must never be TRUE.
TWICE_UNBOUNDED = """extern int __VERIFIER_nondet_int(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error(void) { __assert_fail("0", "twice.c", 3, "reach_error"); }
int twice(int n) { if (n <= 0) return 0; return twice(n - 1) + 2; }
int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 0) return 0;
  if (twice(n) != 2 * n) reach_error();
  return 0;
}
"""

# What CEGAR's probe cannot settle in its 0.5 s (value analysis unwinds the recursion up to 1000
# deep before its growing-summary check fires, about 1.6 s) and Spacer proves in a fraction of a
# second: `\result == 2 * n` for `n <= 1000`. (The counting loop COUNT no longer is one: with a
# constant bound it is accelerated away, and with a variable one the probe's predicate analysis
# proves it from Karr's invariant.)
TWICE = RECURSIVE_TWICE

WRAP = """extern unsigned __VERIFIER_nondet_uint(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error(void) { __assert_fail("0", "wrap.c", 3, "reach_error"); }
int main(void) {
  unsigned x = __VERIFIER_nondet_uint(), n = 0;
  while (n < 10) n++;
  unsigned y = x + n;
  if (y < x) reach_error();
  return 0;
}
"""


def test_a_bounded_recursion_is_proved_by_its_summary(tmp_path: Path) -> None:
    """Spacer alone proves it, with twice's summary. In the portfolio, after CEGAR's short probe
    (which cannot), Spacer beside and the summaries guessed from runs both prove it: which comes
    first depends on the machine, and either's proof is the answer, with the summary it used."""
    out = horn.solve(load_src(TWICE, tmp_path), 60.0)
    assert out.status == "safe", out.reason
    assert out.summaries["twice"] not in ("", "true"), out.summaries
    r = verify_src(TWICE, tmp_path, name="run.c")
    assert r.verdict == "TRUE"
    assert r.statistics.decided_by.proved_by_summaries() and r.invariants["twice"], r.statistics.decided_by


def test_without_the_engine_cegar_decides_the_same(tmp_path: Path) -> None:
    # (and without path exploration, the only other engine that would still run)
    r = verify_src(COUNT.replace("DELTA", "0"), tmp_path, horn=False, path_exploration=False)
    assert r.verdict == "TRUE"
    assert r.statistics.decided_by == "cegar"


@pytest.mark.parametrize("data_model", ["LP64", "ILP32"])
def test_a_failing_counting_loop_is_left_to_the_engines_that_confirm(tmp_path: Path, data_model: str) -> None:
    src = COUNT.replace("DELTA", "1")
    r = verify_src(src, tmp_path, data_model=data_model)
    check_error_path(r)
    assert r.statistics.decided_by != "invariants"
    assert_replay_reaches_error(tmp_path / "prog.c", r, data_model, tmp_path)


def test_twice_true_is_proved_by_a_bounded_summary(tmp_path: Path) -> None:
    from cbam.engine.cfa.load import load_program

    program = load_program(str(REPRO / "twice_true.c"))
    out = horn.solve(program, 10.0)
    assert out.status == "safe", out.reason
    assert "twice" in out.summaries


def test_an_integer_truth_that_overflows_is_never_proved(tmp_path: Path) -> None:
    program = load_src(TWICE_UNBOUNDED, tmp_path)
    assert horn.solve(program, 5.0).status == "unknown"
    r = verify_src(TWICE_UNBOUNDED, tmp_path, timeout=20)
    assert r.verdict != "TRUE"


def test_unsigned_wrap_around_is_machine_arithmetic(tmp_path: Path) -> None:
    program = load_src(WRAP, tmp_path)
    assert horn.solve(program, 5.0).status == "unknown"
    r = verify_src(WRAP, tmp_path, timeout=20)
    check_error_path(r)
    assert_replay_reaches_error(tmp_path / "prog.c", r, "LP64", tmp_path)


LOOP = """extern int __VERIFIER_nondet_int(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error(void) { __assert_fail("0", "loop.c", 3, "reach_error"); }
int main(void) {
  int i = 0;
  while (__VERIFIER_nondet_int()) { if (i < 100) i++; }
  if (i < 0) reach_error();
  return 0;
}
"""


def test_the_machine_integer_check_rejects_what_holds_only_over_the_integers(tmp_path: Path) -> None:
    """Spacer's answer for the plain integer clauses (``exact=False``: no overflow at all) says
    ``i >= 0`` at the loop head; in C, i++ overflows (undefined: any value), so the check
    refutes it. The same loop with a bound is proved."""
    unbounded = load_src(LOOP.replace("if (i < 100) i++;", "i++;"), tmp_path, "unbounded.c")
    candidate = horn.spacer(horn.Encoder(unbounded, "lia", exact=False).clauses(), 10.0)
    assert isinstance(candidate, dict), candidate
    enc = horn.Encoder(unbounded, "bv")
    assert "machine integers" in horn.check(enc.clauses(), candidate, enc.signs, 10.0)
    assert horn.solve(unbounded, 5.0).status == "unknown"
    assert horn.solve(load_src(LOOP, tmp_path), 5.0).status == "safe"


def test_to_bv_reads_each_argument_by_its_signedness() -> None:
    x = z3.BitVec("x", 32)
    a = z3.Int("__a0")

    def valid(f: z3.BoolRef) -> bool:
        s = z3.Solver()
        s.add(z3.Not(f))
        return s.check() == z3.unsat

    as_unsigned = {a.get_id(): False}
    as_signed = {a.get_id(): True}
    args = {a.get_id(): x}
    assert valid(horn.to_bv(a >= 0, args, as_unsigned))
    assert not valid(horn.to_bv(a <= 2**31 - 1, args, as_unsigned))
    assert valid(horn.to_bv(a <= 2**31 - 1, args, as_signed))
    assert not valid(horn.to_bv(a >= 0, args, as_signed))
    # Arithmetic in a width where nothing wraps: 2 * x + 1 is odd for every x.
    assert valid(horn.to_bv((2 * a + 1) % 2 == 1, args, as_signed))
    with pytest.raises(horn.Untranslatable):
        horn.to_bv(a * a >= 0, args, as_signed)


def test_what_the_engine_does_not_try(tmp_path: Path) -> None:
    program = load_src(COUNT.replace("DELTA", "0"), tmp_path)
    assert horn.applies(program) == ""
    no_error = load_src("int main(void) { return 0; }\n", tmp_path, "plain.c")
    assert horn.applies(no_error) == "no error location"
    straight = load_src("void reach_error(void);\nint main(void) { int x = 1; if (x != 1) reach_error(); return 0; }\n",
                        tmp_path, "straight.c")
    assert horn.applies(straight) == "no loop or recursion"


def test_the_option_turns_it_off_and_is_in_the_key_material() -> None:
    assert "no-horn" in VerifyOptions(horn=False).key_material()
    assert "no-horn" not in VerifyOptions().key_material()


def test_through_the_command_line(tmp_path: Path) -> None:
    import json
    import subprocess
    import sys

    from .conftest import ROOT

    twice, count = tmp_path / "twice.c", tmp_path / "count.c"
    twice.write_text(TWICE)
    count.write_text(COUNT.replace("DELTA", "0"))

    def run(src: Path, *extra: str) -> dict:
        out = subprocess.run([sys.executable, "-m", "cbam", "verify", str(src), "--format", "json", "--no-cache",
                              "--timeout", "30", *extra], capture_output=True, text=True, cwd=ROOT)
        assert out.returncode == 0, out.stdout + out.stderr
        return json.loads(out.stdout)

    on = run(twice)
    # Spacer's proof or the guessed summaries' (they race: see the first test)
    assert on["verdict"] == "TRUE" and DecidedBy(on["statistics"]["decided_by"]).proved_by_summaries(), on
    assert on["invariants"]["twice"]  # the proved summaries travel with the result
    off = run(count, "--no-horn", "--no-path-exploration")
    assert off["verdict"] == "TRUE" and off["statistics"]["decided_by"] == "cegar"
    assert "invariants" not in off


def test_a_cached_result_keeps_the_proved_summaries(tmp_path: Path) -> None:
    from cbam.engine.cache.store import CacheStore

    store = CacheStore(tmp_path / "cache")
    first = verify_src(TWICE, tmp_path, cache=store)
    again = verify_src(TWICE, tmp_path, cache=store)
    assert first.source == "fresh" and again.source == "cache"
    # (Spacer or the guessed summaries: they race, see the first test)
    assert first.statistics.decided_by.proved_by_summaries()
    assert again.statistics.decided_by == first.statistics.decided_by
    assert again.invariants == first.invariants and first.invariants


def test_c_division_by_a_constant_rounds_toward_zero(tmp_path: Path) -> None:
    """x / 2 and x % 2 for negative x: -7 / 2 == -3 and -7 % 2 == -1 in C (floor would say -4, 1)."""
    src = """extern int __VERIFIER_nondet_int(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error(void) { __assert_fail("0", "div.c", 3, "reach_error"); }
int main(void) {
  int x = __VERIFIER_nondet_int(), n = 0, three = 3;
  if (x < -100 || x > 100) return 0;
  while (n < three) n++;  /* a loop for the engine (a constant bound would be accelerated away) */
  if (x / 2 * 2 + x % 2 != x) reach_error();
  if (x < 0 && x % 2 > 0) reach_error();
  if (x == -7 && x / 2 != -3) reach_error();
  return 0;
}
"""
    program = load_src(src, tmp_path)
    assert horn.solve(program, 10.0).status == "safe"
    failing = src.replace("if (x == -7 && x / 2 != -3)", "if (x == -7 && x / 2 != -4)")
    assert horn.solve(load_src(failing, tmp_path, "f.c"), 10.0).status == "unknown"
    r = verify_src(failing, tmp_path, name="g.c")
    check_error_path(r)
    assert_replay_reaches_error(tmp_path / "g.c", r, "LP64", tmp_path)


def test_spacer_gets_the_time_cegar_leaves_when_it_gives_up_early(tmp_path: Path) -> None:
    """A program whose candidate takes Spacer longer than its first 2 s: CEGAR gives up at once
    (no progress), and the engines tried again with the time left prove it (on this recursion,
    CPArec first, then Spacer's second try)."""
    from .conftest import SVCOMP

    task = SVCOMP / "c" / "recursive" / "EvenOdd01-1.c"
    from cbam.engine.cfa.load import load_program
    from cbam.engine.frontend.preprocess import PreprocessOptions
    from cbam.engine.verify import run_deep, verify_program

    program = load_program(str(task), options=PreprocessOptions(data_model="ILP32"))
    alone = run_deep(lambda: verify_program(program, VerifyOptions(timeout=30, horn=False, path_exploration=False)))
    assert alone.verdict == "UNKNOWN"
    r = run_deep(lambda: verify_program(program, VerifyOptions(timeout=30)))
    assert r.verdict == "TRUE" and r.statistics.decided_by in ("cparec", "invariants")
    assert r.invariants


def test_the_machine_integer_check_tries_the_integers_then_bit_blasts(monkeypatch):
    """_holds_not: with a moment for the integers, an answer there stands; no answer there
    (here forced) leaves the clause to bit-blasting, which still decides it exactly; with no
    moment, the integers are not tried at all."""
    x = z3.BitVec("x", 8)
    unsat = [x + 1 == x]
    calls: list[int] = []
    real = horn.check_within

    def forced(solver, ms, *a):
        calls.append(ms)
        return z3.unknown if len(calls) == 1 and forced.skip_ints else real(solver, ms, *a)

    monkeypatch.setattr(horn, "check_within", forced)
    forced.skip_ints = False
    assert horn._holds_not(unsat, time.monotonic() + 10, 1.0) == z3.unsat
    assert len(calls) == 1  # the integers answered
    calls.clear()
    forced.skip_ints = True
    assert horn._holds_not(unsat, time.monotonic() + 10, 1.0) == z3.unsat
    assert len(calls) == 2  # no answer over the integers: bit-blasted
    calls.clear()
    forced.skip_ints = False
    assert horn._holds_not([x + 1 == x + 2 - 1], time.monotonic() + 10, 0.0) == z3.sat
    assert len(calls) == 1  # bit-blasted only


@pytest.mark.parametrize("d", [3, -3, 7])
def test_a_quotient_times_its_divisor_becomes_a_remainder(d: int) -> None:
    """_remainders: ``d * (x div d)`` and ``-d * (x div d)`` rewritten are the same integers as
    before for every x (z3's division: x == d * (x div d) + x mod d), and other products stay."""
    x, y = z3.Ints("x y")
    cases = [(d * ((x + y) / d), 0), (((-x) / d) * -d, 0), (x + d * (x / d) - 2 * (y / d), 1), (2 * (x / d), 1)]
    for t, quotients in cases:
        got = horn._remainders(t)
        s = z3.Solver()
        s.add(got != t)
        assert s.check() == z3.unsat, (t, got)
        assert str(got).count("/") == quotients, got


def test_a_candidate_is_simplified_into_an_equivalent_before_its_check() -> None:
    """Spacer's answer on mod3 (bench/loops), as the deterministic search gives it: an implied
    conjunct and a quotient multiplied back. Simplified, it is the same relation over the
    integers, with no division left for the machine-integer check to bit-blast."""
    a = z3.Int("__a0")
    f = z3.And(a - 3 * (a / 3) < 1, z3.Not(a + 3 * ((-a) / 3) <= -1))
    got, holes = horn._simplified({("main", 1): (f, [a])}, time.monotonic() + 10)[("main", 1)]
    assert holes == [a]
    s = z3.Solver()
    s.add(got != f)
    assert s.check() == z3.unsat
    assert "/" not in str(got)


def test_mod3_is_proved_with_a_check_that_does_not_divide() -> None:
    """bench/loops' mod3 (lhb-reducer variant): Spacer's candidate held with machine integers
    only after 27 s of bit-blasted 35-bit divisions; rewritten into remainders, in well under a
    second, so the 10 s here prove it."""
    from cbam.engine.cfa.load import load_program
    from cbam.engine.frontend.preprocess import PreprocessOptions
    from cbam.engine.verify import run_deep

    task = Path(__file__).parents[1] / "bench" / "loops" / "c" / "loop-industry-pattern" / "mod3.c.v+lhb-reducer.c"
    program = load_program(str(task), options=PreprocessOptions(data_model="ILP32"))
    got = run_deep(lambda: horn.solve(program, 10.0))
    assert got.status == "safe", got.reason
