"""Acceptance: every SV-COMP task of tests/data/svcomp builds CFAs without errors."""

from __future__ import annotations

import csv

import pytest
from cbam.engine.cfa.load import load_program
from cbam.engine.frontend.preprocess import PreprocessOptions

from .conftest import SVCOMP

with open(SVCOMP / "INDEX.tsv") as _index:
    ROWS = list(csv.DictReader(_index, delimiter="\t"))


def test_all_174_tasks_are_present():
    assert len(ROWS) == 174


@pytest.mark.parametrize("row", ROWS, ids=[r["task_yml_path"] for r in ROWS])
def test_task_builds_cfas(row):
    program = load_program(str(SVCOMP / row["source_file"]), options=PreprocessOptions(data_model=row["data_model"]))
    assert program.diagnostics == []
    assert "main" in program.functions
    for f in program.all_functions():
        assert f.unsupported is None, f"{f.name}: {f.unsupported}"
        assert f.fingerprint
        for e in f.edges():
            assert e.range is not None, f"{f.name}: edge without a range: {e.describe()}"
            if e.range is not None:
                assert e.range.file == str(SVCOMP / row["source_file"])
                assert (e.range.line, e.range.col) <= (e.range.end_line, e.range.end_col)
