"""What makes a command-line run that is answered from the cache start fast, and must not change
anything else: the preprocessor runs in the background (from memory files where the platform has
them), only the invoked command's parser is built, and the process exits without Python's
finalization (so whatever needs cleaning up is cleaned up explicitly)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from cbam.engine.frontend.errors import FrontendError
from cbam.engine.frontend.preprocess import Preprocessing, PreprocessOptions, preprocess

from cbam.cli import COMMANDS, build_parser

from .conftest import ROOT

SOURCE = """#include "lim.h"
int g(int x) { return x < LIMIT ? x : LIMIT; }
int main(void) { return g(3); }
"""


def cbam(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "cbam", *args], capture_output=True, text=True, cwd=ROOT,
                          timeout=120, env=env)


@pytest.fixture(params=["memory files", "pipes"])
def mode(request, monkeypatch):
    if request.param == "pipes":
        monkeypatch.delattr(os, "memfd_create", raising=False)
    elif not hasattr(os, "memfd_create"):
        pytest.skip("this platform has no anonymous memory files")
    return request.param


def test_background_preprocessing_equals_the_plain_run(tmp_path, monkeypatch):
    if not hasattr(os, "memfd_create"):
        pytest.skip("this platform has no anonymous memory files")
    (tmp_path / "lim.h").write_text("#define LIMIT 10\n")
    src = tmp_path / "p.c"
    # Far more than a pipe holds, in and out: the memory files must not truncate or stall.
    src.write_text(SOURCE + "".join(f"int pad{i}(int a) {{ return a + {i}; }} /* {'x' * 60} */\n"
                                    for i in range(4000)))
    opts = PreprocessOptions(data_model="LP64")
    run = Preprocessing(str(src), None, opts)
    assert run._proc is not None  # started on construction
    assert run._proc.wait(timeout=60) == 0  # and ran to the end with nobody reading its output
    text = run.result()
    assert "int g(int x) { return x < 10 ? x : 10; }" in text and "pad3999" in text
    assert len(text) > 150_000
    monkeypatch.delattr(os, "memfd_create")
    piped = Preprocessing(str(src), None, opts)
    assert piped._proc is None  # through pipes, it runs when the result is asked for
    assert piped.result() == text


def test_preprocessor_errors_come_from_result_and_bad_input_from_the_start(tmp_path, mode):
    bad = tmp_path / "bad.c"
    bad.write_text('#include "missing.h"\nint main(void) { return 0; }\n')
    run = Preprocessing(str(bad), None, PreprocessOptions())
    with pytest.raises(FrontendError) as exc:
        run.result()
    assert str(exc.value) == f"{bad}:1:10: error: header missing.h not found in the source's folder, the -I " \
                             "folders or the system's include path (a relative -I is read from the current directory)"
    with pytest.raises(FrontendError, match="cannot read file"):
        Preprocessing(str(tmp_path / "nope.c"))
    with pytest.raises(FrontendError, match="unknown data model"):
        Preprocessing(str(bad), None, PreprocessOptions(data_model="LP128"))


def test_a_hanging_preprocessor_is_stopped(tmp_path, mode, monkeypatch):
    fake = tmp_path / "bin"
    fake.mkdir()
    (fake / "gcc").write_text("#!/bin/sh\nexec sleep 30\n")
    (fake / "gcc").chmod(0o755)
    monkeypatch.setenv("PATH", f"{fake}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setattr(Preprocessing, "TIMEOUT", 0.5)
    src = tmp_path / "p.c"
    src.write_text("int main(void) { return 0; }\n")
    run = Preprocessing(str(src))
    with pytest.raises(FrontendError, match="the preprocessor timed out"):
        run.result()
    if run._proc is not None:
        assert run._proc.returncode is not None  # killed and reaped, not left running
    with pytest.raises(FrontendError, match="the preprocessor timed out"):
        preprocess(str(src))


def test_unchanged_source_with_errors_in_the_first_file_still_reports_each(tmp_path):
    """The first file is preprocessed before the cache opens; its errors are still its own."""
    (tmp_path / "a.c").write_text('#include "missing.h"\nint main(void) { return 0; }\n')
    (tmp_path / "b.c").write_text("int main(void) { return 0; }\n")
    r = cbam("verify", str(tmp_path / "a.c"), str(tmp_path / "b.c"), "--format", "json",
             "--cache-dir", str(tmp_path / "cache"))
    assert r.returncode == 2
    assert f"{tmp_path / 'a.c'}:1:10: error: header missing.h not found" in r.stderr
    results = json.loads(r.stdout)["results"]
    assert [x["verdict"] for x in results] == ["ERROR", "TRUE"]


def test_only_the_invoked_command_is_built_and_help_still_lists_all(tmp_path):
    full = build_parser()
    sub = next(a for a in full._actions if a.dest == "command")
    assert sorted(sub.choices) == sorted(COMMANDS)
    one = build_parser("verify")
    assert sorted(next(a for a in one._actions if a.dest == "command").choices) == ["verify"]
    r = cbam("--help")
    assert r.returncode == 0 and all(c in r.stdout for c in COMMANDS)
    r = cbam("verify", "--help")
    assert r.returncode == 0 and "--cache-dir" in r.stdout and "usage: cbam verify" in r.stdout
    r = cbam("cache", "stats", "--format", "json", "--cache-dir", str(tmp_path / "c"))
    assert r.returncode == 0 and json.loads(r.stdout)["blocks"] == 0


def test_exit_without_finalization_still_cleans_up(tmp_path):
    """summary --no-cache works in a temporary store; with no finalization to remove it, it
    must be removed explicitly. Output written before the exit is complete."""
    src = tmp_path / "p.c"
    (tmp_path / "lim.h").write_text("#define LIMIT 10\n")
    src.write_text(SOURCE)
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    r = cbam("summary", str(src), "--no-cache", env={**os.environ, "TMPDIR": str(tmp)})
    assert r.returncode == 0, r.stderr
    assert "g(x):" in r.stdout and r.stdout.rstrip().endswith("Verification result: TRUE")
    assert list(tmp.iterdir()) == []
    # A reader that stops early: no traceback, the run still ends.
    many = [str(src)] * 30
    p = subprocess.Popen([sys.executable, "-m", "cbam", "verify", *many, "--no-cache"], cwd=ROOT,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert p.stdout is not None and p.stderr is not None
    p.stdout.read(10)
    p.stdout.close()
    err = p.stderr.read().decode()
    p.wait(timeout=120)
    assert "Traceback" not in err


_FINALIZATION_PROBE = """
import atexit, sys
atexit.register(lambda: print("finalized", file=sys.stderr))
sys.argv = ["cbam", *sys.argv[1:]]
from cbam.cli import run
run()
"""


def test_the_entry_point_skips_finalization_and_keeps_the_exit_status(tmp_path):
    src = tmp_path / "p.c"
    src.write_text("extern void reach_error(void);\nint main(void) { int x = 2; if (x == 2) reach_error(); }\n")
    r = subprocess.run([sys.executable, "-c", _FINALIZATION_PROBE, "verify", str(src), "--no-cache"],
                       capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert r.returncode == 1 and "finalized" not in r.stderr
    assert r.stdout.rstrip().endswith("Property violation (unreach-call) found by chosen configuration.")
    assert "p.c:2:" in r.stdout  # the error path was printed in full before the exit


_Z3_PROBE = """
import sys
sys.argv = ["cbam", *sys.argv[1:]]
from cbam.cli import main
try:
    main()
except SystemExit:
    pass
print("z3 imported:", "z3.z3" in sys.modules, file=sys.stderr)
LAZY = ("cex.encoding", "cex.report", "algorithms.horn.clauses", "algorithms.kinduction", "algorithms.cparec",
        "algorithms.bmc.recursion", "algorithms.paths")
print("loaded:", sorted(m for m in LAZY if "cbam.engine." + m in sys.modules), file=sys.stderr)
"""


def test_z3_is_imported_only_by_a_run_that_uses_it(tmp_path):
    """A new process pays for importing z3 only when a run builds a formula: an explicit-value
    proof does not; a FALSE, whose path z3 confirms, does, and gets its inputs."""
    safe = tmp_path / "safe.c"
    safe.write_text("extern void reach_error(void);\nint main(void) { int x = 2; if (x != 2) reach_error(); "
                    "return 0; }\n")
    bug = tmp_path / "bug.c"
    bug.write_text("extern void reach_error(void);\nextern int __VERIFIER_nondet_int(void);\n"
                   "int main(void) { int x = __VERIFIER_nondet_int(); if (x == 7) reach_error(); return 0; }\n")
    runs = {}
    env = {**os.environ, "CBAM_IN_PROCESS": "1"}  # the analysis's imports are this process's
    for src in (safe, bug):
        r = subprocess.run([sys.executable, "-c", _Z3_PROBE, "verify", str(src), "--no-cache", "--format", "json"],
                           capture_output=True, text=True, cwd=ROOT, timeout=120, env=env)
        runs[src.name] = (json.loads(r.stdout), r.stderr)
    report, err = runs["safe.c"]
    assert report["verdict"] == "TRUE" and "z3 imported: False" in err
    # Nor the path encoding and the report of a violation, nor the engines beside CEGAR that this
    # program gives no work (no loop, no recursion): a new process pays for what it runs.
    assert "loaded: []" in err
    report, err = runs["bug.c"]
    assert report["verdict"] == "FALSE" and "z3 imported: True" in err
    assert "loaded: ['cex.encoding', 'cex.report']" in err
    assert report["violations"][0]["inputs"][0]["value"] == 7


def test_a_checkout_needs_no_import_hook_to_find_its_engine(tmp_path):
    """cbam/__init__.py finds engine/ and server/ beside it, so the checkout's install can be a
    plain path entry (make: editable_mode=compat) rather than setuptools' import hook, which
    every Python start-up would load (22 ms of every run). Here with the checkout on the path
    and no site packages' hooks at all."""
    probe = ("import sys, cbam.engine.api, cbam.server.settings; "
             "print(cbam.engine.__file__); print(sorted(m for m in sys.modules if 'editable' in m))")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    r = subprocess.run([sys.executable, "-S", "-c", probe], capture_output=True, text=True, cwd=tmp_path,
                       timeout=120, env=env)
    assert r.returncode == 0, r.stderr
    engine_file, hooks = r.stdout.splitlines()
    assert engine_file == str(ROOT / "engine" / "__init__.py") and hooks == "[]"


_GC_PROBE = """
import gc, sys
sys.argv = ["cbam", *sys.argv[1:]]
from cbam import cli
from cbam.engine import api
verify = api.verify
def probe(program, options=None):
    print("analysis:", gc.isenabled(), gc.get_freeze_count(), file=sys.stderr, flush=True)
    return verify(program, options)
api.verify = probe
main = cli.main
def recording(argv):
    print("start:", gc.isenabled(), file=sys.stderr, flush=True)
    return main(argv)
cli.main = recording
cli.run()  # exits without finalization
"""


def test_the_collector_is_off_while_loading_and_on_for_the_analysis(tmp_path):
    """`cbam verify` starts with the collector off (start-up and loading make long-lived objects,
    and its passes over them cost an edit's new process 7%), and the analysis, which makes
    garbage, runs with it on and the loaded program frozen out of its sight."""
    src = tmp_path / "p.c"
    src.write_text("extern void reach_error(void);\nint main(void) { int x = 2; if (x == 3) reach_error(); }\n")
    r = subprocess.run([sys.executable, "-c", _GC_PROBE, "verify", str(src), "--no-cache"],
                       capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert r.returncode == 0, r.stderr
    lines = dict(line.split(": ", 1) for line in r.stderr.splitlines() if ": " in line)
    assert lines["start"] == "False"
    enabled, frozen = lines["analysis"].split()
    assert enabled == "True" and int(frozen) > 1000


_CRASH = """
import ctypes, sys
import cbam.commands
def crash(args):
    ctypes.string_at(0)  # what a solver crash does: a segmentation fault in native code
cbam.commands.cmd_verify = crash
from cbam import cli
sys.argv = ["cbam", *sys.argv[1:]]
cli.run()
"""


def test_a_crash_in_native_code_leaves_the_python_stack_on_stderr(tmp_path):
    """A segmentation fault (z3 can crash when a check is interrupted at its time limit) is
    still a crash, but one that says where: faulthandler prints every thread's stack."""
    src = tmp_path / "p.c"
    src.write_text("int main(void) { return 0; }\n")
    r = subprocess.run([sys.executable, "-c", _CRASH, "verify", str(src), "--no-cache"],
                       capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert r.returncode < 0
    assert "Fatal Python error: Segmentation fault" in r.stderr
    assert "in crash" in r.stderr
