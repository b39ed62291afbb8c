"""Shared helpers: verify C snippets, replay counterexamples through their harness."""

from __future__ import annotations

import os
import resource
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import pytest
from cbam.engine.cfa.load import load_program
from cbam.engine.core.result import VerificationResult
from cbam.engine.frontend.preprocess import PreprocessOptions
from cbam.engine.verify import VerifyOptions, run_deep, verify_program

ROOT = Path(__file__).resolve().parents[1]
# The SV-COMP tasks and the issues' reproductions the tests read, copied into the project so
# that a clone of it alone runs every test (where they come from, and their licences: the
# README.md in each folder).
SVCOMP = ROOT / "tests" / "data" / "svcomp"
REPRO = ROOT / "tests" / "data" / "repro"


def _m32_available() -> bool:
    if shutil.which("gcc") is None:
        return False
    with tempfile.TemporaryDirectory() as d:
        src = Path(d, "t.c")
        src.write_text("int main(void){return 0;}\n")
        r = subprocess.run(["gcc", "-m32", str(src), "-o", str(Path(d, "t"))], capture_output=True)
        return r.returncode == 0


M32 = _m32_available()


# What AddressSanitizer (and its LeakSanitizer) prints for each kind of memory-safety violation.
ASAN_REPORTS = {
    "valid-memtrack": ("LeakSanitizer: detected memory leaks",),
    "valid-free": ("attempting double-free", "attempting free on address which was not malloc()-ed",
                   "bad-free"),
    "valid-deref": ("heap-use-after-free", "heap-buffer-overflow", "stack-buffer-overflow",
                    "global-buffer-overflow", "dynamic-stack-buffer-overflow", "stack-use-after-scope",
                    "stack-use-after-return", "SEGV on unknown address"),
}


def cpu_idle_fraction(seconds: float) -> float:
    """The fraction of the machine's CPU time that was idle over the next ``seconds``."""
    def sample() -> tuple[int, int]:
        fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
        return fields[3] + fields[4], sum(fields)  # idle + iowait, total

    idle0, total0 = sample()
    time.sleep(seconds)
    idle1, total1 = sample()
    return (idle1 - idle0) / max(1, total1 - total0)


def wait_until_quiet(timeout: float = 30) -> tuple[bool, float]:
    """The quiet-machine guard: (True, idle fraction) once the machine is at least 80 % idle,
    (False, ...) if it did not settle within ``timeout`` seconds (something else keeps it busy)
    or cannot tell (no /proc/stat). A test whose point is a duration checks it only on a quiet
    machine: a shared one kept busy by other work says nothing about cbam's speed (the
    benchmarks in bench/ measure that)."""
    if not Path("/proc/stat").exists():
        return False, 0.0
    deadline = time.monotonic() + timeout
    idle = 0.0
    while time.monotonic() < deadline:
        idle = cpu_idle_fraction(0.5)
        if idle >= 0.8:
            return True, idle
    return False, idle


def load_src(code: str, tmp_path: Path, name: str = "prog.c", data_model: str = "LP64", entry: str = "main"):
    path = tmp_path / name
    path.write_text(code)
    return load_program(str(path), options=PreprocessOptions(data_model=data_model), entry=entry)


def verify_src(code: str, tmp_path: Path, data_model: str = "LP64", timeout: float = 30.0,
               name: str = "prog.c", entry: str = "main", **kw) -> VerificationResult:
    program = load_src(code, tmp_path, name, data_model, entry)
    return run_deep(lambda: verify_program(program, VerifyOptions(timeout=timeout, **kw)))


def replay(source: Path, harness: str, data_model: str, workdir: Path) -> subprocess.CompletedProcess:
    """Compile the program with its harness (gcc, -m32 for ILP32) and run it."""
    hpath = workdir / "harness.c"
    hpath.write_text(harness)
    exe = workdir / "replay.out"
    flags = ["-m32"] if data_model == "ILP32" else []
    cc = subprocess.run(["gcc", "-w", *flags, str(source), str(hpath), "-o", str(exe)], capture_output=True, text=True)
    assert cc.returncode == 0, f"harness does not compile:\n{cc.stderr}\n{harness}"
    return subprocess.run([str(exe)], capture_output=True, text=True, timeout=60)


def assert_replay_reaches_error(source: Path, result: VerificationResult, data_model: str, workdir: Path) -> None:
    if data_model == "ILP32" and not M32:
        pytest.skip("gcc -m32 (gcc-multilib) is not installed: cannot replay an ILP32 counterexample")
    assert result.violations, "a FALSE without a violation"
    v = result.violations[0]
    assert v.harness is not None
    run = replay(source, v.harness, data_model, workdir)
    reached = run.returncode != 0 and ("reach_error" in run.stderr or "Assertion" in run.stderr
                                       or "cbam harness" in run.stderr)
    assert reached, f"replay did not reach the error (exit {run.returncode}):\n{run.stderr}\n{v.harness}"


def replay_under_asan(source: Path, harness: str, data_model: str, workdir: Path) -> subprocess.CompletedProcess:
    """Build the program with its harness under AddressSanitizer (leaks checked at exit) and run it."""
    if shutil.which("gcc") is None or (data_model == "ILP32" and not M32):
        pytest.skip("gcc (with -m32 for ILP32) is not installed")
    hpath = workdir / "harness.c"
    hpath.write_text(harness)
    exe = workdir / "replay-asan.out"
    flags = ["-m32"] if data_model == "ILP32" else []
    cc = subprocess.run(["gcc", "-w", "-g", "-fsanitize=address", *flags, str(source), str(hpath), "-o", str(exe)],
                        capture_output=True, text=True)
    if cc.returncode != 0 and "asan" in cc.stderr.lower():
        pytest.skip(f"AddressSanitizer is not available: {cc.stderr.strip()[:200]}")
    assert cc.returncode == 0, f"harness does not compile:\n{cc.stderr}\n{harness}"

    def unlimited() -> None:  # AddressSanitizer reserves terabytes of address space for its shadow
        _, hard = resource.getrlimit(resource.RLIMIT_AS)
        resource.setrlimit(resource.RLIMIT_AS, (hard, hard))

    # (An earlier test in this worker may have set cbam's memory limit, which children inherit.)
    env = {**os.environ, "ASAN_OPTIONS": "detect_leaks=1:halt_on_error=1:detect_stack_use_after_return=1"}
    return subprocess.run([str(exe)], capture_output=True, text=True, timeout=60, preexec_fn=unlimited, env=env)


def assert_replay_shows_memory_error(source: Path, result: VerificationResult, workdir: Path,
                                     data_model: str = "LP64") -> None:
    """A memory-safety FALSE replayed under AddressSanitizer, which must report its kind. A leak
    at abort() is not one LeakSanitizer looks for (it checks at exit): that replay must end in
    abort() with no other report."""
    assert result.violations, "a FALSE without a violation"
    v = result.violations[0]
    assert v.harness is not None
    run = replay_under_asan(source, v.harness, data_model, workdir)
    if run.returncode != 0 and any(r in run.stderr for r in ASAN_REPORTS[v.kind]):
        return
    at_abort = v.kind == "valid-memtrack" and run.returncode == -6 and "Sanitizer" not in run.stderr
    assert at_abort, f"replay did not show {v.kind} (exit {run.returncode}):\n{run.stderr}\n{v.harness}"


def check_error_path(result: VerificationResult) -> None:
    """Every FALSE in the tests has its error path checked, not just its verdict."""
    assert result.verdict == "FALSE"
    for v in result.violations:
        assert v.range is not None and v.message
        assert v.steps, "empty error path"
        assert v.steps[-1].kind == "error"
        for s in v.steps:
            assert s.message
        # Each nondet value the harness replays appears on the path.
        shown = [s for s in v.steps if s.kind == "input"]
        nondets = [i for i in v.inputs if not i.source.startswith("input ") and not i.source.startswith("extern ")]
        assert len(shown) >= len(nondets), (shown, nondets)


@pytest.fixture
def workdir(tmp_path: Path) -> Path:
    return tmp_path


# Keep the tests' summary cache away from the user's (CLI subprocesses inherit this).
os.environ["XDG_CACHE_HOME"] = tempfile.mkdtemp(prefix="cbam-test-cache-")
