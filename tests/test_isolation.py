"""The command line's analysis runs in a forked child (cbam/isolation.py): a crash of the child
is retried with the time left, then answered UNKNOWN; a child past its limit is killed."""

from __future__ import annotations

import faulthandler
import json
import os
import signal
import subprocess
import sys
import time

import pytest
from cbam.engine.frontend.errors import Diagnostic, FrontendError

from cbam import commands, isolation
from cbam.cli import main

from .conftest import ROOT

pytestmark = pytest.mark.skipif(not isolation.available(), reason="no fork on this platform")

BUG = """extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int main(void) { int x = __VERIFIER_nondet_int(); if (x == 7) reach_error(); return 0; }
"""
SAFE = """extern void reach_error(void);
int main(void) { int x = 2; if (x != 2) reach_error(); return 0; }
"""


def _verify(capfd, *args: str) -> tuple[int, dict, str]:
    code = main(["verify", "--format", "json", "--no-progress", *args])
    out, err = capfd.readouterr()
    return code, json.loads(out), err


def _crash_first(marker, times: int):
    """An analysis that crashes as z3 does (a segmentation fault) its first ``times`` times."""
    real = commands._analyse

    def analyse(*args, **kwargs):
        crashed = int(marker.read_text()) if marker.exists() else 0
        if crashed < times:
            marker.write_text(str(crashed + 1))
            faulthandler.disable()  # its stack dump would only fill the test's log
            os.kill(os.getpid(), signal.SIGSEGV)
        return real(*args, **kwargs)

    return analyse


# ---- isolation.run ------------------------------------------------------------------------------
def test_a_child_sends_its_value_and_its_peak_memory():
    out = isolation.run(lambda: {"verdict": "TRUE", "pid": os.getpid()}, 10.0, lambda: 12.5)
    assert out.ok and out.value["verdict"] == "TRUE" and out.value["pid"] != os.getpid()
    assert out.peak_memory_mb == 12.5


def test_an_exception_in_the_child_is_raised_as_itself():
    diag = Diagnostic("error", "expected ';'", "p.c", 3, 7)

    def bad():
        raise FrontendError(diag)

    out = isolation.run(bad, 10.0, lambda: 0.0)
    assert isinstance(out.raised, FrontendError) and out.raised.diagnostics == [diag]


def test_a_child_that_dies_of_a_signal_says_which():
    def abort():
        faulthandler.disable()
        os.kill(os.getpid(), signal.SIGABRT)

    out = isolation.run(abort, 10.0, lambda: 0.0)
    assert not out.ok and out.signal == signal.SIGABRT and isolation.signal_name(out.signal) == "SIGABRT"


def test_a_child_past_its_limit_is_killed():
    t0 = time.monotonic()
    out = isolation.run(lambda: time.sleep(120), 0.5, lambda: 0.0)
    assert out.over_limit and not out.ok
    assert time.monotonic() - t0 < 60  # far below the sleep: the child was killed, not waited for


_ORPHAN = """
import os, sys, time
from cbam import isolation

def work():
    with open(sys.argv[1], "w") as f:
        f.write(str(os.getpid()))
    time.sleep(600)

isolation.run(work, 600.0, lambda: 0.0)
"""


def _running(pid: int) -> bool:
    """Not ended: neither gone nor a zombie (which only waits for init to reap it)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def test_a_child_ends_with_its_parent(tmp_path):
    """A parent killed outright (a CI job's timeout) leaves no analysis running unwatched."""
    pid_file = tmp_path / "child.pid"
    parent = subprocess.Popen([sys.executable, "-c", _ORPHAN, str(pid_file)], cwd=ROOT)
    try:
        for _ in range(600):
            if pid_file.exists() and pid_file.read_text():
                break
            time.sleep(0.1)
        child = int(pid_file.read_text())
        assert _running(child)
        parent.kill()
        parent.wait()
        for _ in range(300):
            if not _running(child):
                break
            time.sleep(0.1)
        else:
            os.kill(child, signal.SIGKILL)
            pytest.fail("the child outlived its parent")
    finally:
        parent.kill()


# ---- through cbam verify ------------------------------------------------------------------------
def test_a_crashed_analysis_is_run_again_and_answers(tmp_path, capfd, monkeypatch):
    src = tmp_path / "bug.c"
    src.write_text(BUG)
    monkeypatch.setattr(commands, "_analyse", _crash_first(tmp_path / "crashes", 1))
    code, data, err = _verify(capfd, str(src), "--no-cache")
    assert code == 1 and data["verdict"] == "FALSE"
    assert data["violations"][0]["inputs"][0]["value"] == 7
    assert data["statistics"]["crashed_attempts"] == 1
    assert "the analysis process crashed (SIGSEGV)" in err and "analysing again" in err


def test_an_analysis_that_crashes_twice_is_unknown_with_the_reason(tmp_path, capfd, monkeypatch):
    src = tmp_path / "bug.c"
    src.write_text(BUG)
    monkeypatch.setattr(commands, "_analyse", _crash_first(tmp_path / "crashes", 2))
    code, data, err = _verify(capfd, str(src), "--no-cache")
    assert code == 3 and data["verdict"] == "UNKNOWN" and data["reason_kind"] == "crashed"
    assert "SIGSEGV, then SIGSEGV" in data["reason"] and data["statistics"]["crashed_attempts"] == 2
    assert (tmp_path / "crashes").read_text() == "2"  # not a third time


def test_no_time_left_means_no_second_attempt(tmp_path, capfd, monkeypatch):
    src = tmp_path / "bug.c"
    src.write_text(BUG)
    monkeypatch.setattr(isolation, "RETRY_MIN_S", 1e9)
    monkeypatch.setattr(commands, "_analyse", _crash_first(tmp_path / "crashes", 1))
    code, data, err = _verify(capfd, str(src), "--no-cache")
    assert code == 3 and data["reason_kind"] == "crashed" and data["statistics"]["crashed_attempts"] == 1
    assert "analysing again" not in err


def test_an_analysis_that_overruns_its_limit_is_stopped(tmp_path, capfd, monkeypatch):
    """A solver that ignores its interruption: the child is killed past the limit."""
    src = tmp_path / "bug.c"
    src.write_text(BUG)
    monkeypatch.setattr(commands, "_analyse", lambda *a, **k: time.sleep(600))
    code, data, _ = _verify(capfd, str(src), "--no-cache", "--timeout", "0.5")
    assert code == 3 and data["verdict"] == "UNKNOWN" and data["reason_kind"] == "timeout"
    assert "overran" in data["reason"]


def test_the_peak_memory_is_the_analysing_childs(tmp_path, capfd, monkeypatch):
    src = tmp_path / "safe.c"
    src.write_text(SAFE)
    real = commands._analyse

    def analyse(*args, **kwargs):
        ballast = bytearray(300 << 20)  # zero pages are not resident until written
        ballast[::4096] = b"\1" * len(ballast[::4096])
        return real(*args, **kwargs)

    monkeypatch.setattr(commands, "_analyse", analyse)
    code, data, _ = _verify(capfd, str(src), "--no-cache")
    assert code == 0 and data["statistics"]["peak_memory_mb"] >= 300


def test_the_cache_is_shared_with_the_children_of_every_file(tmp_path, capfd):
    """The store is closed before each fork and opened again for the next file: a run over two
    files fills the cache for both, and the next run answers both from it."""
    (tmp_path / "a.c").write_text(BUG)
    (tmp_path / "b.c").write_text(SAFE)
    cache = tmp_path / "cache"
    files = [str(tmp_path / "a.c"), str(tmp_path / "b.c")]
    code, first, _ = _verify(capfd, *files, "--cache-dir", str(cache))
    assert code == 1 and [r["source"] for r in first["results"]] == ["fresh", "fresh"]
    code, again, _ = _verify(capfd, *files, "--cache-dir", str(cache))
    assert code == 1 and [r["source"] for r in again["results"]] == ["cache", "cache"]
    assert [r["verdict"] for r in again["results"]] == ["FALSE", "TRUE"]


def test_a_syntax_error_found_in_the_child_is_reported_as_usual(tmp_path, capfd):
    src = tmp_path / "bad.c"
    src.write_text("int main(void) { int x = ; }\n")
    code = main(["verify", "--no-cache", "--no-progress", str(src)])
    _, err = capfd.readouterr()
    assert code == 2 and f"{src}:1:" in err and "error" in err


def test_cbam_summary_analyses_in_a_child_too(tmp_path, capfd, monkeypatch):
    """A crash while cbam summary analyses is run again; the summaries are read back from the
    cache the child filled."""
    src = tmp_path / "twice.c"
    src.write_text("int twice(int n) { return n + n; }\nint main(void) { return twice(3); }\n")
    real = commands.api.verify_entries
    marker = tmp_path / "crashes"

    def verify_entries(*args, **kwargs):
        if not marker.exists():
            marker.write_text("1")
            faulthandler.disable()
            os.kill(os.getpid(), signal.SIGSEGV)
        return real(*args, **kwargs)

    monkeypatch.setattr(commands.api, "verify_entries", verify_entries)
    code = main(["summary", str(src), "--cache-dir", str(tmp_path / "cache")])
    out, err = capfd.readouterr()
    assert code == 0 and "the analysis process crashed (SIGSEGV)" in err
    assert "twice(n):" in out and "\\result == 6" in out and out.rstrip().endswith("Verification result: TRUE")


def test_the_time_limit_is_the_files_loading_included(tmp_path, capfd, monkeypatch):
    """The analysis gets what loading left of the limit: the engine stops by itself before the
    child is killed at the limit (which counts from before loading)."""
    src = tmp_path / "safe.c"
    src.write_text(SAFE)
    real_load, real_verify = commands.api.load, commands.api.verify
    given = tmp_path / "given"

    def slow_load(*args, **kwargs):
        time.sleep(0.5)
        return real_load(*args, **kwargs)

    def verify(program, opts):
        given.write_text(str(opts.timeout))
        return real_verify(program, opts)

    monkeypatch.setattr(commands.api, "load", slow_load)
    monkeypatch.setattr(commands.api, "verify", verify)
    code, data, _ = _verify(capfd, str(src), "--no-cache", "--timeout", "10")
    assert code == 0 and data["verdict"] == "TRUE"
    assert float(given.read_text()) <= 9.5


@pytest.mark.parametrize("limit", ["inf", "0", "-1", "nan", "soon"])
def test_a_time_limit_is_a_positive_number_of_seconds(limit, capfd):
    code = main(["verify", "--timeout", limit, "examples/safe.c"])
    _, err = capfd.readouterr()
    assert code == 2 and f"--timeout: not a positive number of seconds: '{limit}'" in err
