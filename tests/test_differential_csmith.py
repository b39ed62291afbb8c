"""Differential tests of C semantics against gcc: stored Csmith programs (tests/data/csmith/).

Each program ends with gcc's values of its globals stated as ``if (g != V) reach_error();``
(bench/csmith_harness.py; picked by bench/csmith_suite.py from the campaign's programs; each
file's header records the seed, the options and the csmith version). In each data model listed
for a program, gcc (-m64 for LP64, -m32 for ILP32) ran it to 0 and its mutant, one stated value
off by one (manifest.json: the lines to substitute), into reach_error. So in those models:

* the program must not be FALSE: a FALSE means cbam reads some C construct otherwise than gcc;
* the mutant must not be TRUE, and its FALSE must be at the mutated check (a FALSE elsewhere is
  the same misreading, seen through the mutant).

UNKNOWN is undecided, not wrong. Every stored program was decided when the suite was built
(bench/csmith_suite.py keeps only programs cbam answered within 1 CPU second per run), so undecided
runs are a loss of power: each chunk fails when it has more than UNDECIDED_SLACK of them, a
margin for a loaded machine, and says how many it had. The campaign (bench/csmith_campaign.py,
bench/reports/csmith.md) measures the programs cbam does not decide.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from cbam.engine.cfa.load import load_program
from cbam.engine.frontend.preprocess import PreprocessOptions
from cbam.engine.verify import VerifyOptions, run_deep, verify_program

from .conftest import M32, check_error_path

DATA = Path(__file__).parent / "data" / "csmith"
MANIFEST = json.loads((DATA / "manifest.json").read_text())
PROGRAMS = sorted(MANIFEST["programs"])
CHUNKS = 8
# The stored programs take at most 1 CPU second per run; the limit leaves room for a machine
# running the rest of the suite beside this one.
LIMIT = 20.0
UNDECIDED_SLACK = 2


def mutant_text(name: str) -> str:
    lines = (DATA / name).read_text().splitlines()
    for number, text in MANIFEST["programs"][name]["mutant"]:
        assert lines[number - 1] != text
        lines[number - 1] = text
    return "\n".join(lines) + "\n"


def verify(path: Path, data_model: str):
    program = load_program(str(path), options=PreprocessOptions(data_model=data_model))
    return run_deep(lambda: verify_program(program, VerifyOptions(timeout=LIMIT)))


def run_one(name: str, tmp_path: Path) -> tuple[list[str], int, int]:
    """(wrong verdicts, undecided runs, runs) for one program and its mutant."""
    entry = MANIFEST["programs"][name]
    mutant = tmp_path / f"mutant-{name}"
    mutant.write_text(mutant_text(name))
    mutated_lines = {number for number, _ in entry["mutant"]}
    wrong: list[str] = []
    undecided = runs = 0
    for model in entry["models"]:
        ok = verify(DATA / name, model)
        bad = verify(mutant, model)
        runs += 2
        undecided += (ok.verdict == "UNKNOWN") + (bad.verdict == "UNKNOWN")
        if ok.verdict == "FALSE":
            v = ok.violations[0]
            wrong.append(f"{name} {model}: FALSE at line {v.range.line if v.range else '?'}, but gcc runs it to 0 "
                         f"(cbam verify --data-model {model} tests/data/csmith/{name})")
        if bad.verdict == "TRUE":
            wrong.append(f"{name} {model}: the mutant (check {entry['mutated_check']} off by one) is TRUE, "
                         f"but gcc's run of it reaches reach_error")
        elif bad.verdict == "FALSE":
            check_error_path(bad)
            line = bad.violations[0].range.line if bad.violations[0].range else None
            if line not in mutated_lines:
                wrong.append(f"{name} {model}: the mutant is FALSE at line {line}, not at the mutated check "
                             f"{sorted(mutated_lines)}")
    return wrong, undecided, runs


def test_the_suite_is_large_and_covers_every_option_set():
    sets = {e["set"] for e in MANIFEST["programs"].values()}
    assert len(PROGRAMS) >= 200
    assert {"scalar", "arrays", "structs", "pointers"} <= sets
    for name in PROGRAMS:
        header = (DATA / name).read_text().split("*/", 1)[0]
        assert f"--seed {MANIFEST['programs'][name]['seed']} " in header, name


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_csmith_programs(chunk: int, tmp_path: Path):
    names = PROGRAMS[chunk::CHUNKS]
    wrong: list[str] = []
    undecided = runs = 0
    for name in names:
        w, u, r = run_one(name, tmp_path)
        wrong += w
        undecided += u
        runs += r
    summary = f"chunk {chunk}: {len(names)} programs, {runs} runs, {len(wrong)} wrong, {undecided} undecided"
    print(summary)
    assert not wrong, summary + "\n" + "\n".join(wrong)
    assert undecided <= UNDECIDED_SLACK, summary + " (every stored program was decided when it was stored)"


def gcc_exit(source: Path, bits: int, tmp_path: Path) -> int:
    exe = tmp_path / f"{source.stem}-{bits}"
    subprocess.run(["gcc", f"-m{bits}", "-w", "-o", str(exe), str(source)], check=True, capture_output=True)
    return subprocess.run([str(exe)], capture_output=True, timeout=30).returncode


@pytest.mark.skipif(shutil.which("gcc") is None, reason="gcc is not installed")
def test_stored_programs_still_agree_with_gcc(tmp_path: Path):
    """A sample, one program per option set, in the data models it is checked in: the stated
    values are gcc's and each mutant fails (the whole set was checked when it was built; this
    guards against edits of the data)."""
    first: dict[str, str] = {}
    for name in PROGRAMS:
        first.setdefault(MANIFEST["programs"][name]["set"], name)
    for name in first.values():
        mutant = tmp_path / f"mutant-{name}"
        mutant.write_text(mutant_text(name))
        for bits in [64 if m == "LP64" else 32 for m in MANIFEST["programs"][name]["models"]]:
            if bits == 32 and not M32:
                continue
            assert gcc_exit(DATA / name, bits, tmp_path) == 0, f"{name}: gcc -m{bits} does not run it to 0"
            assert gcc_exit(mutant, bits, tmp_path) != 0, f"{name}: its mutant runs to 0 under gcc -m{bits}"


@pytest.mark.skipif(shutil.which("csmith") is None or not Path("/usr/include/csmith/safe_math.h").exists(),
                    reason="csmith is not installed (only the campaign and the suite's rebuild need it)")
def test_the_harness_still_builds_a_case(tmp_path: Path):
    """bench/csmith_harness.py, which made the data, keeps working: seed 1 of the scalar set
    gives a program whose stated values gcc confirms and whose mutant differs in one check."""
    import sys
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
    import csmith_harness as h
    case, k = h.build_case(1, "scalar", tmp_path, (64,))
    ok, bad = h.check_source(case), h.check_source(case, k)
    assert "reach_error(); /* check 1: " in ok and '#include "csmith.h"' not in ok
    changed = [a for a, b in zip(ok.splitlines(), bad.splitlines()) if a != b]
    assert len(changed) == 1 and f"/* check {k}: " in changed[0]
