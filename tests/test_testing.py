"""Random tests as a source of violations (algorithms/testing.py): a run that reaches an error is
a violation only once its path, replayed with the values the run drew, reaches it again; every
one found is reported with its path and a harness that gcc runs to the error."""

from __future__ import annotations

import time
from pathlib import Path

from cbam.engine.algorithms import testing
from cbam.engine.algorithms.paths import explore
from cbam.engine.core.cpa_algorithm import Budget

from .conftest import ROOT, assert_replay_reaches_error, check_error_path, load_src, verify_src
from .test_horn_samples import ACKERMANN

# ackermann(2, 3) == 9: the call tree is deeper than BMC through the recursion unwinds in a minute.
DEEP = ACKERMANN.replace("M", "2").replace("AT", "3").replace("EXPECTED", "8")
RIGHT = ACKERMANN.replace("M", "2").replace("AT", "3").replace("EXPECTED", "9")
PROD4BR = ROOT / "bench" / "loops" / "c" / "nla-digbench-scaling" / "prod4br_unwindbound5.c"


def test_a_run_that_reaches_the_error_is_a_violation_with_the_values_it_drew(tmp_path: Path) -> None:
    found = testing.find(load_src(DEEP, tmp_path), Budget(30), 1)
    assert len(found) == 1
    feas = found[0].feasibility
    assert feas.status == "sat" and [i.value for i in feas.encoding.inputs] == [2, 3]
    assert found[0].path.steps[-1].edge.succ is found[0].path.error_node


def test_the_portfolio_reports_it_with_its_path_and_a_harness(tmp_path: Path) -> None:
    r = verify_src(DEEP, tmp_path, timeout=60)
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


def test_a_nonlinear_loop_is_broken_by_a_run(tmp_path: Path) -> None:
    """prod4br_unwindbound5: five iterations of products whose bit-vector encoding the solver
    takes minutes over; a run with x = 13, y = 10 has not finished the product by then."""
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
    assert time.monotonic() - t0 < 8.0


def test_with_more_violations_asked_for_they_are_shown_at_once_and_kept(tmp_path: Path) -> None:
    """The editor's mode (20 violations): the tests decide nothing, the engines after them go on,
    but what they found is streamed the moment it is confirmed and is in the final answer."""
    shown: list[tuple[float, int]] = []
    t0 = time.monotonic()
    r = verify_src(DEEP, tmp_path, timeout=60, max_violations=20,
                   on_partial=lambda p: shown.append((time.monotonic() - t0, len(p.violations))))
    assert r.verdict == "FALSE" and r.statistics.decided_by == "testing", r.reason
    assert len(r.violations) == 1
    check_error_path(r)
    assert_replay_reaches_error(tmp_path / "prog.c", r, "LP64", tmp_path)
    assert shown and shown[0][1] == 1 and shown[0][0] < r.statistics.time / 2
