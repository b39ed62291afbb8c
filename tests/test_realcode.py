"""The real-code benchmark's harnesses (tests/realcode/<lib>/harnesses, run by
bench/realcode/run.py): every header parses, every planted library copy differs from the
original in one line, every FALSE harness really fails when gcc compiles and runs it on the
input its header records (and every TRUE one runs clean on the all-zero input) -- this keeps the
expected verdicts honest without cbam -- and cbam, on a small fast subset, gives no wrong
verdict and replays its counterexamples."""

from __future__ import annotations

import difflib
import importlib.util
import shutil
import sys
from pathlib import Path

import pytest

from .conftest import ROOT

_spec = importlib.util.spec_from_file_location("realcode_run", ROOT / "bench" / "realcode" / "run.py")
assert _spec is not None and _spec.loader is not None
realcode = importlib.util.module_from_spec(_spec)
sys.modules["realcode_run"] = realcode  # dataclasses look their module up by name
_spec.loader.exec_module(realcode)

FILES = sorted(realcode.REALCODE.glob("*/harnesses/*.c"))
HARNESSES = realcode.discover()
FALSES = [h for h in HARNESSES if h.expect == "FALSE"]
TRUES = [h for h in HARNESSES if h.expect == "TRUE"]
# Decided in a few seconds each on a quiet machine: both verdicts, both properties, linked files.
FAST = ("jsmn/jsmn_known_object", "rxi-vec/vec_push_pop", "ringbuffer/ringbuffer_capacity_bug",
        "rxi-vec/vec_pop_empty_bug")

needs_gcc = pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc")


def _ids(hs: list) -> list[str]:
    return [h.name for h in hs]


@pytest.mark.parametrize("path", FILES, ids=[f"{p.parent.parent.name}/{p.stem}" for p in FILES])
def test_header_parses(path: Path) -> None:
    h = realcode.parse_header(path)
    assert h.why.endswith(".") and len(h.why) > 30, "the why: line should be a sentence"
    if h.expect == "FALSE":
        assert h.input is not None
    for f in h.link:
        assert (h.dir / f).suffix == ".c"


def test_the_benchmark_covers_libraries_properties_and_verdicts() -> None:
    libs = {h.path.parent.parent.name for h in HARNESSES}
    assert len(libs) >= 6
    assert len({h.path.parent.parent.name for h in HARNESSES if h.link and not h.link[0].startswith("../glue")}) >= 2
    kinds = {(h.expect, h.prop) for h in HARNESSES}
    assert kinds == {(e, p) for e in realcode.VERDICTS for p in realcode.PROPERTIES}


def _original_of(planted: Path) -> Path:
    lib = planted.parent.parent
    for candidate in (lib / planted.name, lib / "src" / planted.name):
        if candidate.is_file():
            return candidate
    raise AssertionError(f"no original for {planted}")


PLANTED = sorted(realcode.REALCODE.glob("*/planted/*.c"))


@pytest.mark.parametrize("planted", PLANTED, ids=[f"{p.parent.parent.name}/{p.name}" for p in PLANTED])
def test_a_planted_copy_changes_one_line_of_the_original(planted: Path) -> None:
    original = _original_of(planted).read_text().splitlines()
    changed = [d for d in difflib.ndiff(original, planted.read_text().splitlines()) if d[:1] in "+-"]
    assert len(changed) == 2 and changed[0][0] == "-" and changed[1][0] == "+", changed
    assert "PLANTED" in changed[1]
    users = [h for h in HARNESSES if any((h.dir / f).resolve() == planted for f in h.link)]
    assert users and all(h.expect == "FALSE" and "planted" in h.why for h in users)


@needs_gcc
@pytest.mark.parametrize("h", FALSES, ids=_ids(FALSES))
def test_a_false_harness_fails_natively_on_its_input(h) -> None:
    run = realcode.run_native(h, h.input or "")
    assert run.compiled, run.output
    what = "an AddressSanitizer report" if h.prop == "memsafety" else "a failed assertion"
    assert realcode.shows_bug(h, run), f"expected {what} on input {h.input!r}, got exit {run.returncode}:\n{run.output[-2000:]}"


@needs_gcc
@pytest.mark.parametrize("h", TRUES, ids=_ids(TRUES))
def test_a_true_harness_runs_clean_natively(h) -> None:
    run = realcode.run_native(h, "")
    assert run.compiled, run.output
    assert run.returncode == 0 and not realcode.shows_bug(h, run), run.output[-2000:]


@needs_gcc
@pytest.mark.parametrize("name", FAST)
def test_cbam_gives_no_wrong_verdict_and_replays_its_counterexamples(name: str) -> None:
    [h] = [h for h in HARNESSES if h.name == name]
    r = realcode.run_cbam(h, timeout=30)
    assert r.verdict in (h.expect, "UNKNOWN"), f"{name}: expected {h.expect}, cbam {r.verdict} ({r.reason})"
    if r.verdict == "FALSE":
        assert r.replayed, r.replay_note
