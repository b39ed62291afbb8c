"""Small loops and recursions that value analysis can only enumerate: the first phase hands
over early (bam.FixpointDiverging) and predicate refinement gets the loop's affine invariant
as a candidate (predicate/invariants.py), so they are decided rather than timed out."""

from __future__ import annotations

from pathlib import Path

from cbam.engine.core.bam import FixpointDiverging
from cbam.engine.cpa.predicate.invariants import LoopInvariants
from cbam.engine.options import VerifyOptions
from cbam.engine.verify import run_deep, verify_program

from .conftest import REPRO, assert_replay_reaches_error, check_error_path, load_src, verify_src

# The bound is a variable: with a constant one, cfa/acceleration.py would replace the loop by
# its closed form, and these tests are about the engines that need its invariant.
COUNT = """extern int __VERIFIER_nondet_int(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error(void) { __assert_fail("0", "count.c", 3, "reach_error"); }
int main(void) {
  int k0 = __VERIFIER_nondet_int();
  if (k0 < 0) return 0;
  int k = k0, i = 0, stop = 0;
  while (k > stop) { k--; i++; }
  if (i != k0 + DELTA) reach_error();
  return 0;
}
"""


def test_karr_finds_the_counting_loops_invariant(tmp_path: Path) -> None:
    program = load_src(COUNT.replace("DELTA", "0"), tmp_path)
    inv = LoopInvariants(program)
    heads = [n for n in program.functions["main"].nodes if n.loop_head]
    assert len(heads) == 1
    assert inv.at("main", heads[0].canon) == [("==", (("main::i", 1), ("main::k", 1), ("main::k0", -1)), 0)]


def test_affine_equalities_survive_joins_and_forget_what_calls_change(tmp_path: Path) -> None:
    src = """extern int __VERIFIER_nondet_int(void);
int g;
void touch(void) { g++; }
int main(void) {
  int a = __VERIFIER_nondet_int(), b = 2 * a + 1, c = 0;
  while (__VERIFIER_nondet_int()) {
    if (__VERIFIER_nondet_int()) { a += 1; b += 2; } else { a -= 3; b -= 6; }
    g = a; touch(); c = a * a;
  }
  return b;
}
"""
    program = load_src(src, tmp_path)
    head = next(n for n in program.functions["main"].nodes if n.loop_head)
    atoms = LoopInvariants(program).at("main", head.canon)
    assert ("==", (("main::a", 2), ("main::b", -1)), -1) in atoms  # b == 2a + 1 on both branches
    assert all("g" not in dict(a[1]) and "main::c" not in dict(a[1]) for a in atoms)  # havocked


def test_the_counting_loop_is_proved(tmp_path: Path) -> None:
    result = verify_src(COUNT.replace("DELTA", "0"), tmp_path, timeout=30)
    assert result.verdict == "TRUE", result.reason


def test_the_counting_loop_off_by_one_is_false_with_a_replayable_path(tmp_path: Path) -> None:
    result = verify_src(COUNT.replace("DELTA", "1"), tmp_path, timeout=30)
    check_error_path(result)
    assert_replay_reaches_error(tmp_path / "prog.c", result, "LP64", tmp_path)


def test_twice_is_proved_within_ten_seconds(tmp_path: Path) -> None:
    """The recursion's value summary grows by one exit per iteration (0, 2, 4, ...); it took
    18.5 s before the first phase handed over early."""
    program = load_src((REPRO / "twice_true.c").read_text(), tmp_path)
    result = run_deep(lambda: verify_program(program, VerifyOptions(timeout=10)))
    assert result.verdict == "TRUE", result.reason


def test_only_a_phase_with_a_successor_hands_over(tmp_path: Path, monkeypatch) -> None:
    """The last phase never gives up on a growing summary: it is the run's last chance."""
    raised: list[str] = []
    import cbam.engine.core.bam as bam

    original = bam.FixpointDiverging.__init__

    def record(self, function: str, what: str = "the summary of") -> None:
        raised.append(function)
        original(self, function, what)

    monkeypatch.setattr(FixpointDiverging, "__init__", record)
    src = COUNT.replace("DELTA", "0")
    # CEGAR's phases are what this is about (the Horn-clause engine would prove it first).
    assert verify_src(src, tmp_path, timeout=30, horn=False).verdict == "TRUE"
    assert raised and raised[0].startswith("main")
    raised.clear()
    # config predicate has a single phase: nothing to hand over to.
    assert verify_src(src, tmp_path, timeout=30, config="predicate", horn=False).verdict == "TRUE"
    assert raised == []
