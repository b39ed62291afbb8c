"""Programs as C developers write them (tests/programs/memory): pointers, arrays, structs, the
heap, strings, function pointers, entry functions without main whose pointer parameters point
to fresh objects. Each states its verdict in its first line; cbam must never contradict it,
and every FALSE must fail at the stated assertion and be replayed by its harness.

How many are decided is measured by bench/memory_bench.py (bench/reports/memory.md), not
here: an UNKNOWN is a missing capability, a contradiction is a bug."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from cbam.engine import api
from cbam.engine.verify import run_deep

from .conftest import assert_replay_reaches_error, check_error_path

PROGRAMS = Path(__file__).parent / "programs" / "memory"
FILES = sorted(PROGRAMS.glob("*.c"))


def expectation(path: Path) -> tuple[str, int | None]:
    m = re.match(r"// expect: (TRUE|FALSE)(?: line=(\d+))?", path.read_text().splitlines()[0])
    assert m, f"{path.name}: no expectation line"
    return m.group(1), int(m.group(2)) if m.group(2) else None


def test_the_set_is_large_and_balanced():
    verdicts = [expectation(p)[0] for p in FILES]
    assert len(FILES) >= 20
    assert verdicts.count("TRUE") >= 8 and verdicts.count("FALSE") >= 8


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_memory_program(path: Path, tmp_path: Path):
    expected, line = expectation(path)
    report = run_deep(lambda: api.verify_entries(str(path), options=api.VerifyOptions(timeout=8.0)))
    result = report.result
    if result.verdict == "UNKNOWN":
        assert result.reason, "an UNKNOWN without a reason"
        return
    assert result.verdict == expected, f"{path.name}: {result.verdict}, expected {expected}: {result.reason}"
    if expected == "FALSE":
        check_error_path(result)
        v = result.violations[0]
        assert v.range is not None and v.range.line == line, f"fails at {v.range}, expected line {line}"
        assert_replay_reaches_error(path, result, "LP64", tmp_path)
