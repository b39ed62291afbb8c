"""SV-COMP tasks with their expected verdicts.

* No task may get a wrong verdict (a short time limit keeps the suite fast; the full
  60-second table is the benchmark's job).
* Tasks listed in data/svcomp_solved.txt must keep their verdict.
* Every FALSE has its error path checked and its harness replayed with gcc (-m32: ILP32).
"""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
from cbam.engine.cfa.load import load_program
from cbam.engine.frontend.preprocess import PreprocessOptions
from cbam.engine.tasks import load_task
from cbam.engine.verify import VerifyOptions, run_deep, verify_program

from .conftest import SVCOMP, assert_replay_reaches_error, check_error_path

INDEX = SVCOMP / "INDEX.tsv"
with open(INDEX) as _index:
    ROWS = list(csv.DictReader(_index, delimiter="\t"))
SOLVED = dict(line.split("\t") for line in (Path(__file__).parent / "data" / "svcomp_solved.txt").read_text()
              .splitlines() if line and not line.startswith("#"))
# A solved task must stay solved (with room for a loaded machine); any other task is run only to
# check that no wrong verdict comes out, which a shorter run checks on most of its paths.
SOLVED_LIMIT = 10.0
OTHER_LIMIT = 4.0


@pytest.mark.parametrize("row", ROWS, ids=[r["task_yml_path"] for r in ROWS])
def test_task(row, tmp_path):
    task = load_task(str(SVCOMP / row["task_yml_path"]))
    if not task.has_unreach_call:
        assert row["expected_verdict"] == "none"
        return
    program = load_program(task.input_file, options=PreprocessOptions(data_model=task.data_model))
    limit = SOLVED_LIMIT if row["task_yml_path"] in SOLVED else OTHER_LIMIT
    result = run_deep(lambda: verify_program(program, VerifyOptions(timeout=limit)))
    expected = "TRUE" if task.expected else "FALSE"
    assert result.verdict in (expected, "UNKNOWN"), f"WRONG VERDICT {result.verdict}: {result.reason}"
    if row["task_yml_path"] in SOLVED:
        assert result.verdict == expected, f"regression: {result.verdict} ({result.reason})"
    if result.verdict == "FALSE":
        check_error_path(result)
        assert_replay_reaches_error(Path(task.input_file), result, task.data_model, tmp_path)
