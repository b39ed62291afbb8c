"""End to end through the CLI: verdict lines, exit codes, JSON, tasks, harness files."""

from __future__ import annotations

import json
import subprocess
import sys

from .conftest import ROOT, SVCOMP, replay


def cbam(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "cbam", *args], capture_output=True, text=True, timeout=300,
                          cwd=ROOT)


def test_examples_folder_shows_a_proof_and_a_counterexample(tmp_path):
    r = cbam("verify", "examples/", "--harness-dir", str(tmp_path))
    assert r.returncode == 1  # FALSE wins over TRUE
    assert "== examples/buggy.c" in r.stdout and "== examples/safe.c" in r.stdout
    buggy, safe = r.stdout.split("== examples/safe.c")
    assert buggy.strip().splitlines()[-1].startswith("Verification result: FALSE")
    assert safe.strip().splitlines()[-1].startswith("Verification result: TRUE")
    assert "examples/buggy.c:15:5: error: assertion `lo <= mid` may fail" in buggy
    assert "branch `lo <= hi` taken" in buggy and "call average(a = " in buggy
    run = replay(ROOT / "examples" / "buggy.c", (tmp_path / "buggy.harness.c").read_text(), "LP64", tmp_path)
    assert run.returncode != 0 and "Assertion" in run.stderr


def test_json_output(tmp_path):
    r = cbam("verify", "examples/buggy.c", "--format", "json")
    assert r.returncode == 1
    data = json.loads(r.stdout)
    assert data["verdict"] == "FALSE" and data["reason"] == ""
    v = data["violations"][0]
    assert v["message"].startswith("assertion `lo <= mid` may fail")
    assert v["range"]["start"] == {"line": 15, "column": 5}
    assert v["path"][-1]["kind"] == "error"
    assert all(step["range"] for step in v["path"])
    assert [i["source"] for i in v["inputs"]] == ["__VERIFIER_nondet_uint"] * 2
    st = data["statistics"]
    for key in ("time", "states", "refinements", "cache_hits", "cache_misses"):
        assert key in st
    r = cbam("verify", "examples/safe.c", "--format", "json")
    assert r.returncode == 0 and json.loads(r.stdout)["verdict"] == "TRUE"


def test_harness_option_writes_a_replayable_file(tmp_path):
    h = tmp_path / "h.c"
    r = cbam("verify", "examples/buggy.c", "--harness", str(h))
    assert r.returncode == 1 and h.exists()
    assert "__VERIFIER_nondet_uint" in h.read_text()


def test_unknown_exit_status_and_reason(tmp_path):
    f = tmp_path / "rel.c"
    f.write_text("extern int __VERIFIER_nondet_int(void);\nvoid reach_error(void);\n"
                 "int main(void) { int x = __VERIFIER_nondet_int(); int y = x + 1;\n"
                 "  if (x < 100 && y == x) reach_error();\n  return 0;\n}\n")
    r = cbam("verify", str(f), "--timeout", "20", "--config", "value", "--no-path-exploration", "--no-horn")
    assert r.returncode == 3
    assert "Verification result: UNKNOWN" in r.stdout.strip().splitlines()[-1]
    # The default (value+predicate) proves it: the relation y == x + 1 is a predicate.
    r = cbam("verify", str(f), "--timeout", "20")
    assert r.returncode == 0, r.stdout


def test_task_file_and_not_applicable():
    r = cbam("verify", str(SVCOMP / "c/recursive-simple/sum_non.yml"))
    assert r.returncode == 3 and "not applicable" in r.stdout
    r = cbam("verify", str(SVCOMP / "c/recursive-simple/afterrec-1.yml"), "--format", "json")
    data = json.loads(r.stdout)
    assert r.returncode == 1 and data["verdict"] == "FALSE" and data["data_model"] == "ILP32"
    assert data["expected_verdict"] == "FALSE"


def test_entry_and_config_options(tmp_path):
    f = tmp_path / "lib.c"
    f.write_text("void reach_error(void);\nint check(int a) { if (a == 7) reach_error(); return a; }\n")
    r = cbam("verify", str(f), "--entry", "check", "--format", "json")
    assert r.returncode == 1
    data = json.loads(r.stdout)
    assert data["violations"][0]["inputs"][0]["source"] == "input a"
    r = cbam("verify", str(f), "--config", "nonsense")
    assert r.returncode == 2 and "invalid choice" in r.stderr
