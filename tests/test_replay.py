"""Confirming an error path by running it with earlier inputs (engine/cex/replay.py): the
same finding as z3's where the inputs run the path, None where they do not, and a new
process re-verifying an edit confirms its violation without importing z3."""

from __future__ import annotations

import csv
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from cbam.engine.cache.store import CacheStore
from cbam.engine.cex import replay as replay_mod
from cbam.engine.cex.encoding import check_path
from cbam.engine.cex.report import build_violation
from cbam.engine.cfa.load import load_program
from cbam.engine.frontend.preprocess import PreprocessOptions
from cbam.engine.tasks import load_task
from cbam.engine.verify import VerifyOptions, run_deep, verify_program

from .conftest import ROOT, SVCOMP, assert_replay_reaches_error, check_error_path

HEAD = "extern int __VERIFIER_nondet_int(void);\nextern void reach_error(void);\n"

# The violation needs n == 5 (twice(n) == 10 within [3, 9]) and k > 0.
PROGRAM = HEAD + """int twice(int x) { return x + x; }
int main(void) {
  int n = __VERIFIER_nondet_int();
  int k = __VERIFIER_nondet_int();
  if (n < 3 || n > 9) return 0;
  if (twice(n) == 10) { if (k > 0) reach_error(); }
  return 0;
}
"""


def _paths(src: str, tmp_path: Path, name: str = "p.c") -> tuple:
    """The program and the error paths CEGAR confirms, each with z3's finding."""
    path = tmp_path / name
    path.write_text(src)
    program = load_program(str(path), options=PreprocessOptions(data_model="LP64"))
    found: list = []

    def spy(program_, path_, ms, poll):
        feas = check_path(program_, path_, ms, poll)
        found.append((path_, feas))
        return feas

    result = run_deep(lambda: _verify_with(program, spy))
    return program, found, result


def _verify_with(program, check):
    from cbam.engine.pipeline import search

    real = search.cegar

    def cegar(*args, **kwargs):
        kwargs["check"] = check
        return real(*args, **kwargs)

    search.cegar = cegar
    try:
        # (CEGAR's checks are what is spied on: path exploration, which would go first where the
        # clauses are off, stays off)
        return verify_program(program, VerifyOptions(config="value", timeout=60, horn=False, path_exploration=False))
    finally:
        search.cegar = real


def test_a_path_run_with_its_inputs_is_the_same_finding_as_z3s(tmp_path: Path) -> None:
    program, found, result = _paths(PROGRAM, tmp_path)
    assert result.verdict == "FALSE" and found
    path, feas = found[-1]
    assert feas.status == "sat" and not feas.replayed
    inputs = [inp.value for inp in feas.encoding.inputs]
    assert inputs[0] == 5 and inputs[1] > 0
    again = replay_mod.replay(program, path, inputs)
    assert again is not None and again.replayed and again.status == "sat"
    # The report built from the run is the report built from z3's model: every step, every value.
    assert build_violation(program, path, again).to_json() == build_violation(program, path, feas).to_json()


@pytest.mark.parametrize("inputs", [[4, 1], [5, 0], [5], [5, 1, 7], []])
def test_inputs_that_do_not_run_the_path_to_its_error_confirm_nothing(tmp_path: Path, inputs: list[int]) -> None:
    """A branch that fails (n = 4, k = 0), too few inputs, or more than the path reads (they
    were another path's)."""
    program, found, _ = _paths(PROGRAM, tmp_path)
    path, _ = found[-1]
    assert replay_mod.replay(program, path, inputs) is None


def test_the_path_check_falls_back_to_z3_when_no_hint_runs_the_path(tmp_path: Path) -> None:
    program, found, _ = _paths(PROGRAM, tmp_path)
    path, _ = found[-1]
    check = replay_mod.with_replay([[4, 1], [9, 9]])
    feas = check(program, path, 60_000, lambda: None)
    assert feas.status == "sat" and not feas.replayed and feas.model is not None
    feas = replay_mod.with_replay([[4, 1], [5, 3]])(program, path, 60_000, lambda: None)
    assert feas.replayed and [i.value for i in feas.encoding.inputs] == [5, 3]


def test_signed_overflow_on_the_path_wraps_and_is_noted_as_z3_does(tmp_path: Path) -> None:
    src = HEAD + """int main(void) {
  int a = __VERIFIER_nondet_int();
  if (a < 2147483000) return 0;
  int b = a + 1000;
  if (b < 0) reach_error();
  return 0;
}
"""
    program, found, result = _paths(src, tmp_path)
    path, feas = found[-1]
    assert feas.overflow_steps
    again = replay_mod.replay(program, path, [2147483647])
    assert again is not None and again.overflow_steps == feas.overflow_steps
    assert any("signed integer overflow" in n for n in build_violation(program, path, again).notes)


def test_a_path_through_a_division_by_zero_is_not_run(tmp_path: Path) -> None:
    src = HEAD + """int main(void) {
  int a = __VERIFIER_nondet_int();
  int d = __VERIFIER_nondet_int();
  if (d > 1) return 0;
  int q = a / d;
  if (q == 7) reach_error();
  return 0;
}
"""
    program, found, _ = _paths(src, tmp_path)
    path, feas = found[-1]
    d = feas.encoding.inputs[1].value
    assert d != 0
    assert replay_mod.replay(program, path, [7 * d, d]) is not None
    assert replay_mod.replay(program, path, [7, 0]) is None  # undefined: a run may not pass there


def test_a_program_with_memory_is_left_to_z3(tmp_path: Path) -> None:
    src = HEAD + """int main(void) {
  int a[2];
  a[0] = __VERIFIER_nondet_int();
  if (a[0] == 3) reach_error();
  return 0;
}
"""
    program, found, _ = _paths(src, tmp_path)
    path, _ = found[-1]
    assert replay_mod.replay(program, path, [3]) is None


def test_an_edit_is_confirmed_with_the_earlier_inputs_without_z3(tmp_path: Path) -> None:
    """The user's view: `cbam verify` after an edit of a function the violation's path calls
    (its certificate fails) reports the violation again, its inputs run through the new path,
    and the process never loads z3; the harness still replays it."""
    src = tmp_path / "e.c"
    src.write_text(PROGRAM)
    cache = tmp_path / "cache"
    probe = ("import sys, runpy; sys.argv = ['cbam', *sys.argv[1:]]\n"
             "from cbam.cli import main\nmain()\n"
             "print('z3 imported:', 'z3.z3' in sys.modules, file=sys.stderr)")

    def cli() -> tuple[dict, str]:
        r = subprocess.run([sys.executable, "-c", probe, "verify", str(src), "--cache-dir", str(cache),
                            "--format", "json"], capture_output=True, text=True, cwd=ROOT, timeout=120,
                           env={**os.environ, "CBAM_IN_PROCESS": "1"})  # the analysis's imports are this process's
        return json.loads(r.stdout), r.stderr

    first, err = cli()
    assert first["verdict"] == "FALSE" and "z3 imported: True" in err
    assert first["statistics"]["confirmed_by_replay"] == 0
    shutil.copytree(cache, tmp_path / "before-edit")
    src.write_text(PROGRAM.replace("return x + x;", "int y = x; return y + x;"))
    again, err = cli()
    assert again["verdict"] == "FALSE" and again["source"] == "fresh"
    assert "z3 imported: False" in err
    assert again["statistics"]["confirmed_by_replay"] == 1
    assert [i["value"] for i in again["violations"][0]["inputs"]] == [i["value"] for i in first["violations"][0]["inputs"]]
    # The same check and path a fresh run finds, and a harness that reaches the error.
    program = load_program(str(src), options=PreprocessOptions(data_model="LP64"))
    fresh = run_deep(lambda: verify_program(program, VerifyOptions(timeout=60)))
    assert [s["range"] for s in again["violations"][0]["path"]] == [s.to_json()["range"]
                                                                    for s in fresh.violations[0].steps]
    store = CacheStore(tmp_path / "before-edit")
    try:
        edited = run_deep(lambda: verify_program(program, VerifyOptions(cache=store, timeout=60, harness=True)))
    finally:
        store.close()
    assert edited.verdict == "FALSE" and edited.statistics.confirmed_by_replay == 1
    check_error_path(edited)
    assert_replay_reaches_error(src, edited, "LP64", tmp_path)


_INDEX = SVCOMP / "INDEX.tsv"
with open(_INDEX) as _index:
    _FALSE = [r["task_yml_path"] for r in csv.DictReader(_index, delimiter="\t") if r["expected_verdict"] == "false"]


# A sixth of them (all 67 pass: run with _FALSE), and the one whose function falls off its end.
_SAMPLE = list(dict.fromkeys([*_FALSE[::6], *(t for t in _FALSE if "BallRajamani" in t)]))


@pytest.mark.parametrize("task_path", _SAMPLE, ids=lambda p: p)
def test_every_confirmed_path_of_shared_tasks_runs_to_the_same_report(task_path: str) -> None:
    """The run and the bit-vector encoding agree on C's semantics: on the shared tasks' error
    paths (integer programs, with recursion, wrap-around and casts), running each path with
    z3's inputs gives exactly z3's report, value for value."""
    task = load_task(str(SVCOMP / task_path))
    program = load_program(task.input_file, options=PreprocessOptions(data_model=task.data_model))
    found: list = []

    def spy(program_, path_, ms, poll):
        feas = check_path(program_, path_, ms, poll)
        if feas.status == "sat":
            found.append((path_, feas))
        return feas

    from cbam.engine.pipeline import search

    real = search.cegar

    def cegar(*args, **kwargs):
        kwargs["check"] = spy
        return real(*args, **kwargs)

    search.cegar = cegar
    try:
        run_deep(lambda: verify_program(program, VerifyOptions(timeout=10, horn=False, path_exploration=False)))
    finally:
        search.cegar = real
    if not found:
        pytest.skip("CEGAR confirmed no path within the time limit")
    for path, feas in found:
        again = replay_mod.replay(program, path, [i.value for i in feas.encoding.inputs])
        assert again is not None, "z3's inputs do not run the path"
        assert build_violation(program, path, again).to_json() == build_violation(program, path, feas).to_json()
