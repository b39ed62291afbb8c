"""Golden CFAs for each statement and expression form (regenerate with CBAM_REGEN=1)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from cbam.engine.cfa.dot import function_text
from cbam.engine.cfa.load import load_program
from cbam.engine.frontend.preprocess import PreprocessOptions

GOLDEN = Path(__file__).parent / "golden"
CASES = sorted(p.stem for p in GOLDEN.glob("*.c"))


def render(path: Path) -> str:
    program = load_program(str(path), options=PreprocessOptions(data_model="LP64"))
    out = []
    for f in program.functions.values():
        out.append(function_text(f))
        out.append(f"  fingerprint {f.fingerprint}\n")
    return "".join(out)


@pytest.mark.parametrize("case", CASES)
def test_golden(case: str):
    actual = render(GOLDEN / f"{case}.c")
    expected_path = GOLDEN / f"{case}.cfa"
    if os.environ.get("CBAM_REGEN"):
        expected_path.write_text(actual)
    assert actual == expected_path.read_text()


def test_golden_covers_every_form():
    text = "".join((GOLDEN / f"{c}.c").read_text() for c in CASES)
    for form in ("while", "do {", "for (", "switch", "case", "default", "break", "continue", "goto", "return",
                 "++", "+=", "?", "&&", "||", "sizeof", "(long long)", "->", "&p", "*q", "[", "abort()", "exit(",
                 "__VERIFIER_assume", "assert(", "reach_error", "__VERIFIER_nondet_"):
        assert form in text, form
