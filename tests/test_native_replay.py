"""Every FALSE is run before it is shown (engine/cex/native_replay.py): compiled by gcc with
its test harness and run, it must show the violation; a run that does not withdraws it."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import replace
from pathlib import Path

import pytest
from cbam.engine.cex import harness as harness_module
from cbam.engine.core.result import ReplayStatus, UnknownReason
from cbam.engine.options import NativeReplay
from cbam.engine.verify import VerifyOptions, run_deep, verify_program

from tests.conftest import M32, ROOT, load_src

pytestmark = pytest.mark.skipif(shutil.which("gcc") is None, reason="gcc is not installed")

NONDET_7 = """extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error() { __assert_fail("0", "prog.c", 3, "reach_error"); }
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int x = __VERIFIER_nondet_int();
  if (x == 7)
    reach_error();
  return 0;
}
"""
ASSERT = """#include <assert.h>
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int x = __VERIFIER_nondet_int();
  int y = x * 2;
  assert(y != 14);
  return 0;
}
"""
# Read before it is written: cbam takes any value, so the path check finds x == 123456789; the
# harness has no say over the stack, and gcc's run does not reach the error.
UNINITIALISED = """extern void reach_error(void);
int main(void) {
  int x;
  if (x == 123456789) reach_error();
  return 0;
}
"""
USE_AFTER_FREE = """#include <stdlib.h>
int main(void) {
  int *p = malloc(2 * sizeof(int));
  p[0] = 1;
  free(p);
  return p[0];
}
"""
DOUBLE_FREE = """#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int *p = malloc(sizeof(int));
  if (__VERIFIER_nondet_int() > 3)
    free(p);
  free(p);
  return 0;
}
"""
LEAK = """#include <stdlib.h>
int main(void) {
  int *p = malloc(sizeof(int));
  p = 0;
  return 0;
}
"""


def _verify(code: str, tmp_path: Path, keep: Path, data_model: str = "LP64", **kw):
    program = load_src(code, tmp_path, data_model=data_model)
    settings = NativeReplay(source=str(tmp_path / "prog.c"), keep_dir=str(keep))
    return run_deep(lambda: verify_program(program, VerifyOptions(timeout=60, replay=settings, **kw)))


@pytest.mark.parametrize("code, line, reached", [(NONDET_7, 8, "reach_error()"), (ASSERT, 6, "assert()")])
@pytest.mark.parametrize("data_model", ["LP64", "ILP32"])
def test_a_false_whose_run_reaches_the_error_is_marked_replayed(tmp_path, code, line, reached, data_model):
    if data_model == "ILP32" and not M32:
        pytest.skip("gcc -m32 (gcc-multilib) is not installed")
    result = _verify(code, tmp_path, tmp_path / "kept", data_model=data_model)
    assert result.verdict == "FALSE"
    replay = result.violations[0].replay
    assert replay is not None and replay.status == ReplayStatus.REPLAYED, replay
    assert replay.observed == f"reached {reached} at prog.c:{line}"
    assert result.to_json()["violations"][0]["replay"]["status"] == "replayed"
    assert not (tmp_path / "kept").exists()


@pytest.mark.parametrize("code, kind, report", [
    (USE_AFTER_FREE, "valid-deref", "AddressSanitizer: heap-use-after-free at prog.c:6"),
    (DOUBLE_FREE, "valid-free", "AddressSanitizer: attempting double-free at prog.c:7"),
    (LEAK, "valid-memtrack", "LeakSanitizer: detected memory leaks"),
])
def test_a_memory_safety_false_is_replayed_under_the_sanitizers(tmp_path, code, kind, report):
    result = _verify(code, tmp_path, tmp_path / "kept", property="memsafety")
    assert result.verdict == "FALSE" and result.violations[0].kind == kind
    replay = result.violations[0].replay
    assert replay is not None and replay.status == ReplayStatus.REPLAYED, replay
    assert replay.observed == f"reported {report}"


def _shifted_harness(real):
    """The harness of the same path with every input one more than the path check found: a
    harness that cannot reach the error, whatever the front end does."""
    def write(program, violation, source_name):
        wrong = replace(violation, inputs=[replace(i, value=i.value + 1) for i in violation.inputs])
        return real(program, wrong, source_name)
    return write


def test_a_run_that_does_not_show_the_violation_withdraws_it(tmp_path, monkeypatch):
    monkeypatch.setattr(harness_module, "write_harness", _shifted_harness(harness_module.write_harness))
    keep = tmp_path / "kept"
    result = _verify(NONDET_7, tmp_path, keep)
    assert result.verdict == "UNKNOWN" and result.reason_kind == UnknownReason.REPLAY_DISAGREES
    assert result.violations == []
    assert result.reason_range is not None and result.reason_range.line == 8
    assert result.replay is not None and result.replay.status == ReplayStatus.DISAGREES
    kept = Path(result.replay.kept)
    assert kept.parent == keep and str(kept) in result.reason
    assert (kept / "prog.c").read_text() == NONDET_7
    assert "= {8}" in (kept / "cbam_harness.c").read_text()  # the harness that was run
    bundle = json.loads((kept / "outcome.json").read_text())
    assert bundle["path_check"]["kind"] == "reach_error" and bundle["path_check"]["inputs"][0]["value"] == 7
    assert bundle["run"]["exit_status"] == 0
    assert "without reaching an error function" in bundle["run"]["disagreement"]
    assert result.to_json()["replay"]["kept"] == str(kept)


def test_an_error_reached_elsewhere_is_a_disagreement(tmp_path, monkeypatch):
    """The run must reach the error where the path check said: here the harness's input takes
    the program to the other reach_error call."""
    real = harness_module.write_harness

    def swapped(program, violation, source_name):  # 7 for 8 and 8 for 7: whichever the search found
        return real(program, replace(violation, inputs=[replace(i, value=15 - i.value) for i in violation.inputs]),
                    source_name)

    monkeypatch.setattr(harness_module, "write_harness", swapped)
    program = NONDET_7.replace("  return 0;", "  if (x == 8)\n    reach_error();\n  return 0;")
    result = _verify(program, tmp_path, tmp_path / "kept")
    assert result.verdict == "UNKNOWN" and result.reason_kind == UnknownReason.REPLAY_DISAGREES
    found = result.replay.kept and json.loads((Path(result.replay.kept) / "outcome.json").read_text())
    line = found["path_check"]["range"]["start"]["line"]
    other = {8: 10, 10: 8}[line]
    assert result.replay.reason == f"the run reached reach_error() at prog.c:{other}, not at prog.c:{line}"


def test_a_memory_error_the_run_does_not_show_withdraws_it(tmp_path, monkeypatch):
    """The double free happens only for an input above 3; the harness gives one less."""
    monkeypatch.setattr(harness_module, "write_harness", _shifted_harness(harness_module.write_harness))
    program = DOUBLE_FREE.replace("> 3", "== 4")
    result = _verify(program, tmp_path, tmp_path / "kept", property="memsafety")
    assert result.verdict == "UNKNOWN" and result.reason_kind == UnknownReason.REPLAY_DISAGREES
    bundle = json.loads((Path(result.replay.kept) / "outcome.json").read_text())
    assert bundle["path_check"]["kind"] == "valid-free"
    assert "AddressSanitizer" not in bundle["run"]["stderr_tail"]


def _cbam(args: list[str], tmp_path: Path, path: str | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "CBAM_REPLAY_DIR": str(tmp_path / "kept")}
    if path is not None:
        env["PATH"] = path
    return subprocess.run([sys.executable, "-m", "cbam", "verify", *args], capture_output=True, text=True,
                          cwd=ROOT, timeout=180, env=env)


def test_the_command_line_withdraws_a_false_gcc_does_not_reproduce(tmp_path):
    src = tmp_path / "uninit.c"
    src.write_text(UNINITIALISED)
    r = _cbam([str(src), "--no-cache", "--format", "json"], tmp_path)
    assert r.returncode == 3, r.stderr
    report = json.loads(r.stdout)
    assert report["verdict"] == "UNKNOWN" and report["reason_kind"] == "replay-disagrees"
    kept = Path(report["replay"]["kept"])
    assert kept.parent == tmp_path / "kept" and str(kept) in report["reason"]
    assert sorted(p.name for p in kept.iterdir()) == ["cbam_harness.c", "outcome.json", "uninit.c"]
    text = _cbam([str(src), "--no-cache"], tmp_path)
    assert "did not replay" in text.stdout and str(kept) in text.stdout
    # Without the replay the path check's answer is reported as it is.
    off = _cbam([str(src), "--no-cache", "--no-replay", "--format", "json"], tmp_path)
    assert off.returncode == 1 and "replay" not in json.loads(off.stdout)["violations"][0]


def _without_gcc(tmp_path: Path) -> str:
    """A PATH with the preprocessor the front end runs, and no gcc to build a replay."""
    cpp = shutil.which("cpp")
    if cpp is None:
        pytest.skip("no cpp apart from gcc")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "cpp").symlink_to(cpp)
    return str(bin_dir)


def test_without_gcc_the_false_stands_and_says_it_was_not_replayed(tmp_path):
    src = tmp_path / "prog.c"
    src.write_text(NONDET_7)
    r = _cbam([str(src), "--no-cache", "--format", "json"], tmp_path, path=_without_gcc(tmp_path))
    assert r.returncode == 1, r.stderr
    replay = json.loads(r.stdout)["violations"][0]["replay"]
    assert replay["status"] == "not-replayed" and "no gcc" in replay["reason"]
    text = _cbam([str(src), "--no-cache"], tmp_path, path=str(tmp_path / "bin"))
    assert "not replayed: no gcc on PATH" in text.stdout


def test_a_replay_past_its_time_limit_leaves_the_false_not_replayed(tmp_path):
    program = load_src(NONDET_7, tmp_path)
    settings = NativeReplay(source=str(tmp_path / "prog.c"), time_limit=0.001)
    result = run_deep(lambda: verify_program(program, VerifyOptions(timeout=60, replay=settings)))
    assert result.verdict == "FALSE"
    replay = result.violations[0].replay
    assert replay.status == ReplayStatus.NOT_REPLAYED and "longer than its time limit" in replay.reason


def test_a_cached_false_carries_its_replay_only_for_the_same_text(tmp_path):
    """An unchanged source is answered with the runs that showed its violations; any other
    answer from the cache is run again (here with and without gcc, so that a carried-over or a
    missing status would show)."""
    src = tmp_path / "prog.c"
    src.write_text(NONDET_7)
    cache = ["--cache-dir", str(tmp_path / "cache"), "--format", "json"]
    bare = _without_gcc(tmp_path)

    def status(path: str | None = None) -> tuple[str, str]:
        report = json.loads(_cbam([str(src), *cache], tmp_path, path=path).stdout)
        return report["source"], report["violations"][0]["replay"]["status"]

    assert status(bare) == ("fresh", "not-replayed")
    assert status() == ("cache", "replayed")  # filed without a run that showed it: run now
    assert status(bare) == ("cache", "replayed")  # the same text: that run's evidence
    src.write_text(NONDET_7 + "/* the same functions, another text */\n")
    assert status(bare) == ("cache", "not-replayed")


def test_a_withdrawn_false_stays_withdrawn_when_answered_from_the_cache(tmp_path):
    src = tmp_path / "uninit.c"
    src.write_text(UNINITIALISED)
    args = [str(src), "--cache-dir", str(tmp_path / "cache"), "--format", "json"]
    for source in ("fresh", "cache"):
        report = json.loads(_cbam(args, tmp_path).stdout)
        assert (report["source"], report["verdict"], report["reason_kind"]) == (source, "UNKNOWN", "replay-disagrees")


def test_a_program_that_does_not_link_is_not_replayed_and_says_why(tmp_path):
    """helper() is defined nowhere; the path never calls it, so the harness does not either."""
    program = NONDET_7.replace("  return 0;", "  if (x == 9)\n    return helper();\n  return 0;").replace(
        "extern int __VERIFIER_nondet_int(void);", "extern int __VERIFIER_nondet_int(void);\nextern int helper(void);")
    result = _verify(program, tmp_path, tmp_path / "kept")
    assert result.verdict == "FALSE"
    replay = result.violations[0].replay
    assert replay.status == ReplayStatus.NOT_REPLAYED and replay.reason.startswith("the program does not link")
    assert "helper" in replay.reason


def test_a_harness_gcc_rejects_is_a_disagreement(tmp_path, monkeypatch):
    """The program compiles: a harness that does not is cbam's reading of the program gone wrong."""
    real = harness_module.write_harness
    monkeypatch.setattr(harness_module, "write_harness",
                        lambda p, v, name: real(p, v, name) + "\nint __VERIFIER_nondet_int(void) { return 0 }\n")
    result = _verify(NONDET_7, tmp_path, tmp_path / "kept")
    assert result.verdict == "UNKNOWN" and result.reason_kind == UnknownReason.REPLAY_DISAGREES
    assert result.replay.reason.startswith("its test harness does not compile")
    bundle = json.loads((Path(result.replay.kept) / "outcome.json").read_text())
    assert bundle["run"]["compile_status"] != 0 and "error" in bundle["run"]["compile_stderr"]


def test_a_run_past_its_time_limit_is_stopped_and_the_false_stands(tmp_path, monkeypatch):
    """The harness's input (one more than the path's) takes the program into an endless loop:
    the run is killed at the replay's limit, and the violation is reported as not replayed."""
    monkeypatch.setattr(harness_module, "write_harness", _shifted_harness(harness_module.write_harness))
    program = load_src(NONDET_7.replace("  return 0;", "  while (x != 7) {}\n  return 0;"), tmp_path)
    settings = NativeReplay(source=str(tmp_path / "prog.c"), time_limit=3.0)
    result = run_deep(lambda: verify_program(program, VerifyOptions(timeout=60, replay=settings)))
    assert result.verdict == "FALSE"
    replay = result.violations[0].replay
    assert replay.status == ReplayStatus.NOT_REPLAYED and "longer than its time limit of 3 s" in replay.reason
    workdirs = os.path.join(tempfile.gettempdir(), "cbam-replay-")
    left = [pid for pid in os.listdir("/proc") if pid.isdigit() and _cmdline(pid).startswith(workdirs)]
    assert left == [], "the run was not stopped"


def _cmdline(pid: str) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_text()
    except OSError:
        return ""


def test_failing_allocations_under_the_sanitizers(tmp_path):
    """With --alloc-may-fail the harness replaces malloc; under AddressSanitizer it hands out the
    sanitizer's memory (a use after free is seen), and a path on which an allocation fails is not
    replayed there (the sanitizers' runtime calls malloc before main)."""
    # (the allocation checked: else its failing, then p[0] = 1 through NULL, is a violation too,
    # which path exploration, going first under memory safety, finds first)
    checked = USE_AFTER_FREE.replace("  p[0] = 1;\n", "  if (!p) return 0;\n  p[0] = 1;\n")
    result = _verify(checked, tmp_path, tmp_path / "kept", property="memsafety", alloc_may_fail=True)
    assert result.violations[0].replay.observed == "reported AddressSanitizer: heap-use-after-free at prog.c:7"
    unchecked = USE_AFTER_FREE.replace("  p[0] = 1;\n", "").replace("  free(p);\n", "").replace("p[0]", "*p")
    result = _verify(unchecked, tmp_path, tmp_path / "kept", property="memsafety", alloc_may_fail=True)
    assert result.verdict == "FALSE" and result.violations[0].kind == "valid-deref"
    replay = result.violations[0].replay
    assert replay.status == ReplayStatus.NOT_REPLAYED and "allocation that fails" in replay.reason
