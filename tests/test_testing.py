"""Random tests as a source of violations (algorithms/testing.py): a run that reaches an error is
a violation only once its path, replayed with the values the run drew, reaches it again; every
one found is reported with its path and a harness that gcc runs to the error."""

from __future__ import annotations

import time
from pathlib import Path

from cbam.engine.algorithms import testing
from cbam.engine.algorithms.paths import explore
from cbam.engine.core.cpa_algorithm import Budget
from cbam.engine.pipeline import schedule

from .conftest import ROOT, assert_replay_reaches_error, check_error_path, load_src, verify_src
from .engines_off import replace_run
from .test_horn_samples import ACKERMANN

# ackermann(2, 3) == 9: the call tree is deeper than BMC through the recursion unwinds in a minute.
DEEP = ACKERMANN.replace("M", "2").replace("AT", "3").replace("EXPECTED", "8")
RIGHT = ACKERMANN.replace("M", "2").replace("AT", "3").replace("EXPECTED", "9")
PROD4BR = ROOT / "bench" / "loops" / "c" / "nla-digbench-scaling" / "prod4br_unwindbound5.c"


def _random_tests_get(monkeypatch, seconds: float, turns: list | None = None) -> None:
    """Random tests in their turn get ``seconds`` (never more than is left of the run), not their
    2 s: DEEP's error takes them 0.6 s on a quiet machine, which a loaded one may not give them
    in 2 s, and nothing else reaches it then (an UNKNOWN). ``turns``: True while they run, False after."""
    run = schedule.TESTING.run

    def longer(ctx, given: float):
        if turns is not None:
            turns.append(True)
        try:
            return run(ctx, max(given, ctx.share(seconds, 1.0)))
        finally:
            if turns is not None:
                turns.append(False)

    replace_run(monkeypatch, "TESTING", longer)


def test_a_run_that_reaches_the_error_is_a_violation_with_the_values_it_drew(tmp_path: Path) -> None:
    found = testing.find(load_src(DEEP, tmp_path), Budget(30), 1)
    assert len(found) == 1
    feas = found[0].feasibility
    assert feas.status == "sat" and [i.value for i in feas.encoding.inputs] == [2, 3]
    assert found[0].path.steps[-1].edge.succ is found[0].path.error_node


def test_the_portfolio_reports_it_with_its_path_and_a_harness(tmp_path: Path, monkeypatch) -> None:
    _random_tests_get(monkeypatch, 30)
    r = verify_src(DEEP, tmp_path, timeout=60)
    # (no other engine reaches DEEP's error within the minute: no race decides this)
    assert r.verdict == "FALSE" and r.statistics.decided_by == "testing", r.reason
    check_error_path(r)
    assert_replay_reaches_error(tmp_path / "prog.c", r, "LP64", tmp_path)


def test_runs_that_reach_no_error_say_nothing(tmp_path: Path) -> None:
    assert testing.find(load_src(RIGHT, tmp_path), Budget(2), 1) == []


def test_a_program_with_memory_is_left_to_the_other_engines(tmp_path: Path) -> None:
    src = """extern int __VERIFIER_nondet_int(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error(void) { __assert_fail("0", "m.c", 3, "reach_error"); }
int main(void) {
  int a[2];
  a[0] = __VERIFIER_nondet_int();
  if (a[0] == 3) reach_error();
  return 0;
}
"""
    assert testing.find(load_src(src, tmp_path), Budget(2), 1) == []


def test_a_nonlinear_loop_is_broken_by_a_run(tmp_path: Path, monkeypatch) -> None:
    """prod4br_unwindbound5: five iterations of products whose bit-vector encoding the solver
    takes minutes over; a run with x = 13, y = 10 has not finished the product by then (no
    other engine breaks it within the minute: no race decides this)."""
    _random_tests_get(monkeypatch, 30)
    r = verify_src(PROD4BR.read_text(), tmp_path, data_model="ILP32", timeout=60)
    assert r.verdict == "FALSE" and r.statistics.decided_by == "testing", r.reason
    check_error_path(r)
    assert_replay_reaches_error(tmp_path / "prog.c", r, "ILP32", tmp_path)


def test_path_exploration_keeps_to_its_time(tmp_path: Path) -> None:
    """Each check gets at most what is left of the phase's time (a check of prod4br's products
    took 30 s of a 1.2 s turn before)."""
    program = load_src(PROD4BR.read_text(), tmp_path, data_model="ILP32")
    t0 = time.monotonic()
    explore(program, Budget(1.0), 1)
    # 1 s and a moment on a quiet machine; a check that overran its share by tens of seconds,
    # not a slow machine, breaks this bound.
    assert time.monotonic() - t0 < 10 * 1.0 + 5


def test_with_more_violations_asked_for_they_are_shown_at_once_and_kept(tmp_path: Path, monkeypatch) -> None:
    """The editor's mode (20 violations): the tests decide nothing, the engines after them go on
    (to the run's limit: they look for the other 19), but what the tests found is streamed the
    moment it is confirmed, in their own turn, and is in the final answer."""
    turns: list[bool] = []
    _random_tests_get(monkeypatch, 10, turns)  # (they look for 20 violations: all of it)
    shown: list[tuple[bool, int]] = []
    r = verify_src(DEEP, tmp_path, timeout=30, max_violations=20,
                   on_partial=lambda p: shown.append((bool(turns) and turns[-1], len(p.violations))))
    assert r.verdict == "FALSE" and r.statistics.decided_by == "testing", r.reason
    assert len(r.violations) == 1
    check_error_path(r)
    assert_replay_reaches_error(tmp_path / "prog.c", r, "LP64", tmp_path)
    assert turns == [True, False]
    assert shown and shown[0] == (True, 1), shown  # shown while the tests still ran
