"""An engine in a forked child beside the probe (engine/pipeline/beside.py): its answer, its
time limit, its failures, and the portfolio's use of it (Spacer's proof ends the probe)."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from cbam.engine.algorithms import cparec
from cbam.engine.algorithms.horn import clauses
from cbam.engine.algorithms.horn import samples as samples
from cbam.engine.core.result import UnknownReason
from cbam.engine.pipeline import beside, portfolio, schedule
from cbam.engine.pipeline.beside import Beside
from cbam.engine.pipeline.search import Search

from tests.conftest import verify_src

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="no os.fork here")

TWICE = """
extern int __VERIFIER_nondet_int(void);
extern void abort(void);
void reach_error(void);
int twice(int n) {
  if (n <= 0) return 0;
  return twice(n - 1) + 2;
}
int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 1000) return 0;
  if (twice(n) != 2 * n) { reach_error(); abort(); }
  return 0;
}
"""


@pytest.fixture(autouse=True)
def two_cores(monkeypatch) -> None:
    """The tests below are about the child, whatever this machine's cores (one core runs nothing beside)."""
    monkeypatch.delenv("CBAM_NO_BESIDE", raising=False)
    monkeypatch.setattr(beside, "cores", lambda: 2)


def _gone(pid: int) -> bool:
    try:
        os.waitpid(pid, os.WNOHANG)
    except ChildProcessError:
        return True
    return False


def test_the_childs_answer_comes_back() -> None:
    big = {"summaries": {f"f{i}": "x" * 1000 for i in range(200)}}  # more than a pipe's buffer
    child = Beside.start(lambda: (os.getpid(), big), 5.0)
    assert child is not None
    pid = child.pid
    got = child.answer()
    assert got is not None and got[0] == pid != os.getpid() and got[1] == big
    assert _gone(pid)  # reaped: no zombie left behind


def test_a_child_past_its_time_is_killed_without_an_answer() -> None:
    child = Beside.start(lambda: time.sleep(600), 0.2)
    assert child is not None
    pid = child.pid
    t0 = time.monotonic()
    assert not child.ready()
    assert child.answer() is None
    # Killed at its time, not waited for: a bound only waiting out the sleep would break (it
    # takes 0.2 s and the grace on a quiet machine; speed is not the point here).
    assert time.monotonic() - t0 < 10 * (0.2 + beside.GRACE_SECONDS) + 30
    assert _gone(pid)


def test_a_failing_child_answers_nothing() -> None:
    def fails() -> None:
        raise RuntimeError("boom")

    child = Beside.start(fails, 600.0)
    assert child is not None
    t0 = time.monotonic()
    assert child.answer() is None
    # The end of its pipe says so at once: a wait for its 600 s limit would break this bound.
    assert time.monotonic() - t0 < 60


def test_stop_kills_a_running_child() -> None:
    child = Beside.start(lambda: time.sleep(60), 30.0)
    assert child is not None
    pid = child.pid
    child.stop()
    assert _gone(pid) and child.ready() and child.answer() is None


def test_a_cancelled_wait_ends_at_once() -> None:
    child = Beside.start(lambda: time.sleep(600), 600.0)
    assert child is not None
    pid = child.pid
    t0 = time.monotonic()
    assert child.answer(lambda: True) is None
    # (a wait for the child's 600 s limit would break this bound)
    assert time.monotonic() - t0 < 60 and _gone(pid)


def test_nothing_runs_beside_on_one_core(monkeypatch) -> None:
    monkeypatch.setattr(beside, "cores", lambda: 1)
    assert Beside.start(lambda: 1, 1.0) is None
    monkeypatch.setattr(beside, "cores", lambda: 2)
    monkeypatch.setenv("CBAM_NO_BESIDE", "1")
    assert Beside.start(lambda: 1, 1.0) is None


def _probe_until_stopped(seen: dict, seconds: float):
    """The portfolio with a probe that finds nothing and runs until it is stopped (or ``seconds``)."""

    def strategy(program, opts, stats, cegar, *rest):
        def probe_first(first_phase_only: bool, limit, stop=None):
            if not first_phase_only:
                return cegar(first_phase_only, limit)
            seen["stop"] = stop is not None
            t0 = time.monotonic()
            while time.monotonic() - t0 < seconds:
                if stop is not None and stop():
                    seen["stopped_after"] = time.monotonic() - t0
                    return Search(stats=stats, precision={})
                time.sleep(0.01)
            return Search(stats=stats, precision={})
        return portfolio._portfolio(program, opts, stats, probe_first, *rest)

    return strategy


def test_spacers_proof_ends_the_probe(tmp_path: Path, monkeypatch) -> None:
    """Spacer proves twice() beside the probe; its proof stops the probe, which would otherwise
    run past the run's limit, and is the run's answer (no other engine ran: the probe was
    stopped, and the proof is taken before the next engine starts)."""
    seen: dict = {}
    monkeypatch.setitem(portfolio.STRATEGIES, "portfolio", _probe_until_stopped(seen, 300))
    r = verify_src(TWICE, tmp_path, timeout=60, config="value+predicate")
    assert seen["stop"] and "stopped_after" in seen  # stopped, not run to its end
    assert r.verdict == "TRUE" and r.statistics.decided_by == "invariants"
    assert "twice" in r.invariants


def test_without_a_proof_the_probe_runs_on(tmp_path: Path, monkeypatch) -> None:
    """A child that finds no proof does not stop the probe, and the run goes on as without it."""
    seen: dict = {}
    monkeypatch.setitem(portfolio.STRATEGIES, "portfolio", _probe_until_stopped(seen, 2))
    monkeypatch.setattr(clauses, "solve", lambda *a, **k: clauses.HornOutcome("unknown", "stubbed out"))
    r = verify_src(TWICE.replace("n > 1000", "n > 10"), tmp_path, timeout=60, config="value+predicate")
    assert seen["stop"] and "stopped_after" not in seen
    assert r.verdict == "TRUE" and r.statistics.decided_by != "invariants"


def test_one_core_runs_spacer_after_the_probe(tmp_path: Path, monkeypatch) -> None:
    seen: dict = {}
    monkeypatch.setattr(beside, "cores", lambda: 1)
    monkeypatch.setitem(portfolio.STRATEGIES, "portfolio", _probe_until_stopped(seen, 0.5))
    calls: list = []
    solve = clauses.solve

    def counted(*a, **k):
        calls.append((os.getpid(), "stop" in seen))  # where, and whether the probe had started
        out = solve(*a, **k)
        calls[-1] += (out.status,)
        return out

    monkeypatch.setattr(clauses, "solve", counted)
    r = verify_src(TWICE, tmp_path, timeout=60, config="value+predicate")
    assert not seen["stop"]  # no child: nothing to stop the probe
    assert r.verdict == "TRUE"
    # Spacer ran here, not in a child, and only after the probe.
    assert calls and all(pid == os.getpid() and after for pid, after, _ in calls), calls
    # Its turn has 2 s, which a busy machine may not give it (then the guessed summaries, next
    # in line, prove TWICE). Where that turn proved it, its proof is the answer, at once.
    if calls[0][2] == "safe":
        assert r.statistics.decided_by == "invariants" and len(calls) == 1


def test_a_silent_child_keeps_the_run_within_its_limit(tmp_path: Path, monkeypatch) -> None:
    """CEGAR gives up at once, and Spacer's child never answers: the run waits for the child's
    answer before an UNKNOWN, but not past the run's own limit."""

    def gives_up(program, opts, stats, cegar, *rest):
        def none(first_phase_only: bool, limit, stop=None):
            return Search(status="unknown", kind=UnknownReason.NO_PROGRESS, reason="stubbed out", stats=stats,
                          precision={})
        return portfolio._portfolio(program, opts._replace(path_exploration=False), stats, none, *rest)

    monkeypatch.setitem(portfolio.STRATEGIES, "portfolio", gives_up)
    monkeypatch.setattr(clauses, "solve", lambda *a, **k: time.sleep(100))
    monkeypatch.setattr(cparec, "solve", lambda *a, **k: cparec.CparecOutcome("unknown", reason="stubbed out"))
    # (The summaries guessed from runs would prove TWICE on their own.)
    monkeypatch.setattr(samples, "solve", lambda *a, **k: clauses.HornOutcome("unknown", "stubbed out"))
    t0 = time.monotonic()
    r = verify_src(TWICE, tmp_path, timeout=4, config="value+predicate")
    elapsed = time.monotonic() - t0
    assert r.verdict == "UNKNOWN"
    assert elapsed >= 4 * schedule.BESIDE_SHARE  # it waited for the child ...
    # ... and not for its sleep: the run's 4 s on a quiet machine; a hang, not a slow machine,
    # breaks this bound.
    assert elapsed < 10 * 4 + 10
