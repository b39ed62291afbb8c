"""Reduced disagreements between gcc and cbam (tests/data/*/reduced/*.c), found by the
differential suites and the Csmith campaign (bench/csmith_campaign.py, bench/csmith_reduce.py)
and reported for the front end (issue 54). Each file's first line says what gcc's run shows
(``// expect: TRUE`` when gcc runs it to 0, ``FALSE`` when it reaches reach_error; an optional
``data-model=ILP32``); cbam must not give the opposite answer.

They are strict expected failures while cbam misreads them: when the front end is fixed, the
test passes, which fails the run until the mark is removed and the case becomes a plain
regression test.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from cbam.engine.cfa.load import load_program
from cbam.engine.frontend.preprocess import PreprocessOptions
from cbam.engine.verify import VerifyOptions, run_deep, verify_program

DATA = Path(__file__).parent / "data"
FILES = sorted(DATA.glob("*/reduced/*.c"))
# Still misread when they were reported; remove a name once cbam answers it right.
OPEN: set[str] = set()


def expectation(path: Path) -> tuple[str, str]:
    m = re.match(r"// expect: (TRUE|FALSE)(?:.*?data-model=(LP64|ILP32))?", path.read_text().splitlines()[0])
    assert m, f"{path}: no expectation line"
    return m.group(1), m.group(2) or "LP64"


def test_every_open_case_exists():
    assert OPEN <= {str(p.relative_to(DATA)) for p in FILES}


@pytest.mark.parametrize("path", [pytest.param(p, marks=pytest.mark.xfail(strict=True, reason="reported, open"))
                                  if str(p.relative_to(DATA)) in OPEN else p for p in FILES],
                         ids=[str(p.relative_to(DATA)) for p in FILES])
def test_reduced_case(path: Path):
    expected, model = expectation(path)
    program = load_program(str(path), options=PreprocessOptions(data_model=model))
    result = run_deep(lambda: verify_program(program, VerifyOptions(timeout=30.0)))
    opposite = "FALSE" if expected == "TRUE" else "TRUE"
    assert result.verdict != opposite, f"{path.name}: {result.verdict}, gcc shows {expected} ({result.reason})"
