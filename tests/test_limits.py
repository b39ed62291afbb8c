"""Limits are promises: a run stops at its time limit in every phase, not only while exploring
states. tests/data/repro/timeout_overrun.c (fibo_2calls_25-2.c whose base case falls off its end)
once ran 134 s and took 1.4 GB under --timeout 5: its error path through unrolled recursion has
millions of steps, and rebuilding and encoding it never looked at the clock."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import pytest

from .conftest import REPRO
from .engines_off import replace_run, switch_off

SLACK = 10.0  # start-up, imports and a loaded machine; the overrun was two minutes


def test_the_time_limit_holds_while_an_error_path_is_rebuilt_and_encoded(tmp_path) -> None:
    t0 = time.monotonic()
    code, out, err, peak_kb = _run_measured([sys.executable, "-m", "cbam", "verify", "--timeout", "3", "--no-cache",
                                             "--format", "json", str(REPRO / "timeout_overrun.c")], tmp_path)
    elapsed = time.monotonic() - t0
    assert code == 3, err[-2000:]
    assert '"reason_kind": "timeout"' in out
    # 3 s and start-up on a quiet machine; the overrun took two minutes, as a hang would: that,
    # not a loaded machine, breaks this bound.
    assert elapsed < 10 * 3 + SLACK, f"--timeout 3 took {elapsed:.1f} s"
    # 130 MB on a 2-core machine; the overrun took 1.4 GB.
    assert peak_kb < 600_000, f"peak {peak_kb / 1000:.0f} MB: {out}"


# Runs a command and writes its peak resident memory (KiB) to a file. The command is started
# from this small process: Linux keeps the highest resident size across fork and exec, so a
# child started by the test process itself reports at least the test process's own size
# (661 MB and 823 MB where the run itself takes 130 MB, after other tests in that process).
_MEASURE = """import resource, subprocess, sys
code = subprocess.run(sys.argv[2:]).returncode
open(sys.argv[1], "w").write(str(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss))
sys.exit(code)
"""


def _run_measured(cmd: list[str], cwd) -> tuple[int, str, str, int]:
    """Exit code, output, errors and peak resident memory (KiB) of exactly this command."""
    peak = cwd / "peak"
    r = subprocess.run([sys.executable, "-c", _MEASURE, str(peak), *cmd], capture_output=True, text=True,
                       timeout=120, cwd=cwd, env={**os.environ, "CBAM_DEBUG": ""})
    return r.returncode, r.stdout, r.stderr, int(peak.read_text())


def test_the_peak_memory_reported_is_the_runs_own(tmp_path) -> None:
    """A run started from a large process reports its own peak, not its parent's."""
    src = tmp_path / "p.c"
    src.write_text("int main(void) { return 0; }\n")
    big = ("import subprocess, sys\nheld = bytearray(400 << 20)\nheld[::4096] = b'x' * len(held[::4096])\n"
           "sys.exit(subprocess.run(sys.argv[1:]).returncode)\n")
    r = subprocess.run([sys.executable, "-c", big, sys.executable, "-m", "cbam", "verify", "--no-cache", "--format",
                        "json", str(src)], capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert r.returncode == 0, r.stderr[-2000:]
    peak = json.loads(r.stdout)["statistics"]["peak_memory_mb"]
    assert 0 < peak < 300, f"reported {peak} MB: the parent's 400 MB counted"


@pytest.mark.parametrize("used", [3.0, 4.5])
def test_the_engines_before_cegar_take_their_time_from_the_run(tmp_path, monkeypatch, used: float) -> None:
    """CEGAR after the Horn-clause engine gets what is left of the limit, not the whole limit
    again (systemc/toy.cil ran 87 s under --timeout 60 that way), and a moment, not an
    unlimited run, if nothing is left."""
    from cbam.engine.pipeline.engines import NOTHING

    from .conftest import verify_src
    from .programs import SLOW

    def slow_prove(ctx, seconds):
        time.sleep(used)  # an engine that used its share (or more) and proved nothing
        return NOTHING

    from cbam.engine import verify
    from cbam.engine.pipeline import beside

    # Spacer in its turn, on any machine (with a second core it would run beside, in a child).
    monkeypatch.setattr(beside, "cores", lambda: 1)
    replace_run(monkeypatch, "SPACER", slow_prove)
    # k-induction, next in line, proves this program; here it finds nothing, at once.
    switch_off(monkeypatch, "KINDUCTION", "KINDUCTION_OFFERED")
    limits: list[tuple[bool, float | None]] = []  # CEGAR's runs: whether a probe, and the limit each had
    run_phases = verify.run_phases

    def recorded(*args, **kwargs):
        limits.append((kwargs.get("probe", False), args[5].timeout))
        return run_phases(*args, **kwargs)

    monkeypatch.setattr(verify, "run_phases", recorded)
    t0 = time.monotonic()
    r = verify_src(SLOW, tmp_path, timeout=4.0)
    elapsed = time.monotonic() - t0
    assert r.verdict == "UNKNOWN" and r.reason_kind == "timeout"
    # CEGAR's probe runs before the engine that overran; its full run after it has at most what
    # the engines before it left of the 4 s, a moment (1 ms) if nothing.
    [probe, full] = limits
    assert probe[0] and not full[0]
    assert full[1] is not None and full[1] <= max(1e-3, 4.0 - used), limits
    # (and the run ended: a bound only a hang breaks)
    assert elapsed < 10 * 4.0 + 10, f"timeout 4 took {elapsed:.1f} s"


def test_the_solver_watchdog_survives_an_interrupt_z3_refuses(monkeypatch) -> None:
    """z3 may answer an interrupt with an error (a context it already cancelled): the watchdog
    thread must live on, or no later check would be stopped at its time."""
    import z3
    from cbam.engine.smt import solving

    class Refusing:
        def interrupt(self):
            raise z3.Z3Exception(b"canceled")

    dog = solving._Watchdog()
    dog.arm(Refusing(), time.monotonic())  # type: ignore[arg-type]
    time.sleep(0.2)
    assert dog.thread is not None and dog.thread.is_alive()
    solver = z3.Solver()
    x = z3.BitVec("x", 64)
    solver.add(x * x * x == 12345678912345 * x + 987654321)  # no answer within 50 ms
    token = dog.arm(solver.ctx, time.monotonic() + 0.05)
    t0 = time.monotonic()
    solver.check()
    dog.disarm(token)
    # Interrupted at 50 ms on a quiet machine; unchecked, the check goes on for far longer, as
    # a hang: that, not a loaded machine, breaks this bound.
    assert time.monotonic() - t0 < 30.0


DEEP_NESTED = """extern void reach_error(void);
int main(void) {
  unsigned a, b, c;
  for (a = 0; a < 0xfffffffeU; ++a)
    for (b = 0; b < 0xfffffffeU; ++b)
      for (c = 0; c < 0xfffffffeU; ++c)
        if (a == b && b == c && c == 0xfffffffdU) reach_error();
  return 0;
}
"""


def test_a_search_cut_by_its_limit_is_freed_after_the_answer(tmp_path) -> None:
    """Freeing the state space of a search cut by the time limit took most of a second past the
    deadline (deep-nested at 60 s: the command line's guard killed the run). The search hands
    it over instead (engine/release.py), and it is freed once the answer is out, or when the
    next run starts."""
    from cbam.engine import api, release
    from cbam.engine.cfa.load import load_program
    from cbam.engine.verify import run_deep, verify_program

    path = tmp_path / "deep.c"
    path.write_text(DEEP_NESTED)
    program = load_program(str(path))
    opts = api.VerifyOptions(config="value", timeout=1.0, horn=False)
    release.now()
    result = run_deep(lambda: verify_program(program, opts))
    assert result.verdict == "UNKNOWN" and result.reason_kind == "timeout", result.reason
    kept = release.pending()
    assert kept >= 1, "the cut search was freed before the answer"
    run_deep(lambda: verify_program(program, opts._replace(timeout=0.3)))
    assert release.pending() == kept  # this run's own: the earlier run's were freed when it started
    api.release_leftovers()
    assert release.pending() == 0


def test_an_interrupt_that_comes_as_a_check_returns_leaves_no_cancelled_context():
    """The watchdog can interrupt a context just as its check answers (at the deadline): z3
    keeps the context cancelled, and the model's next evaluation failed with "canceled", an
    internal error (1 run in 700 of a differential campaign). Disarming clears it."""
    import time

    import z3
    from cbam.engine.smt.solving import solver_watchdog

    x = z3.BitVec("x", 8)
    solver = z3.Solver()
    solver.add(x + 1 == 3)
    assert solver.check() == z3.sat
    model = solver.model()
    token = solver_watchdog.arm(solver.ctx, time.monotonic())  # its deadline has come: it fires
    for _ in range(500):
        with solver_watchdog.cond:
            if token in solver_watchdog.fired:
                break
        time.sleep(0.01)
    assert token in solver_watchdog.fired
    solver_watchdog.disarm(token)
    assert model.eval(x + 1, model_completion=True).as_long() == 3
