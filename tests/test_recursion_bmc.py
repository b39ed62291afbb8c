"""BMC through recursion (algorithms/bmc/recursion.py): deep violations in recursive programs,
found with machine integers and confirmed exactly; never a proof, never an unconfirmed FALSE;
and its place in the portfolio (the time CEGAR leaves on a small recursive program)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from cbam.engine.algorithms.bmc import recursion
from cbam.engine.core.result import UnknownReason
from cbam.engine.verify import run_deep

from .conftest import assert_replay_reaches_error, check_error_path, load_src, verify_src
from .engines_off import switch_off

HEAD = """extern int __VERIFIER_nondet_int(void);
extern unsigned int __VERIFIER_nondet_uint(void);
extern void abort(void);
extern void reach_error(void);
"""

# Fibonacci05's shape: the violation needs x = 8, a tree of calls 8 deep.
FIB = HEAD + """
int fib(int n) { if (n < 1) return 0; else if (n == 1) return 1; else return fib(n - 1) + fib(n - 2); }
int main() {
  int x = __VERIFIER_nondet_int();
  int r = fib(x);
  if (x < 8 || r >= 34) return 0;
  ERROR: reach_error();
  return 1;
}
"""

# id_o1000's shape, 300 deep: a chain no value analysis enumerates in time.
CHAIN = HEAD + """
unsigned int id(unsigned int x) { if (x == 0) return 0; return id(x - 1) + 1; }
int main() {
  unsigned int input = __VERIFIER_nondet_uint();
  if (id(input) == 300) { ERROR: reach_error(); }
  return 0;
}
"""


def _solve(code: str, tmp_path: Path, seconds: float = 60.0) -> recursion.BmcOutcome:
    program = load_src(code, tmp_path)
    return run_deep(lambda: recursion.solve(program, seconds))  # deep recursion in the path check


def _inputs(out: recursion.BmcOutcome) -> list[int]:
    assert out.confirmed is not None
    feas = out.confirmed.feasibility
    assert feas.encoding is not None and feas.model is not None
    return [feas.model.eval(i.term, model_completion=True).as_long() for i in feas.encoding.inputs]


def test_a_violation_in_a_tree_of_calls_8_deep(tmp_path: Path) -> None:
    out = _solve(FIB, tmp_path)
    assert out.status == "unsafe" and out.depth >= 8
    assert _inputs(out) == [8]
    calls = [s for s in out.confirmed.path.steps if s.kind == "call"]  # type: ignore[union-attr]
    assert len(calls) == 1 + 67  # of main, and fib(8)'s whole tree of calls


def test_a_chain_300_calls_deep(tmp_path: Path) -> None:
    out = _solve(CHAIN, tmp_path)
    assert out.status == "unsafe" and 300 <= out.depth <= 512
    assert _inputs(out) == [300]
    calls = [s for s in out.confirmed.path.steps if s.kind == "call"]  # type: ignore[union-attr]
    assert len(calls) == 1 + 1 + 300  # of main, of id(300), and the recursive ones down to id(0)


def test_no_error_within_reach_is_no_proof(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(recursion, "MAX_BITS", 20_000)
    safe = FIB.replace("r >= 34", "r >= 21")  # fib(8) = 21: safe for every x
    out = _solve(safe, tmp_path)
    assert out.status == "unknown" and out.confirmed is None
    assert "no error location within" in out.reason and "20000 bits" in out.reason


def test_a_path_the_clauses_allow_but_memory_does_not_is_no_violation(tmp_path: Path) -> None:
    """The clauses leave arrays arbitrary: their model reaches the error, the exact check does not."""
    code = HEAD + """
int a[2];
int f(int n) { if (n <= 0) return a[0]; return f(n - 1); }
int main() { a[0] = 1; if (f(3) != 1) { ERROR: reach_error(); } return 0; }
"""
    out = _solve(code, tmp_path)
    assert out.status == "unknown" and out.confirmed is None
    assert "not confirmed" in out.reason


def test_what_it_leaves_to_other_engines(tmp_path: Path) -> None:
    plain = HEAD + "int main() { int x = __VERIFIER_nondet_int(); if (x == 3) { ERROR: reach_error(); } return 0; }\n"
    assert "no recursion" in _solve(plain, tmp_path).reason
    looping = HEAD + """
int f(int n) { int s = 0; while (n > 0) { s += n; n--; } return n < -5 ? f(n + 1) : s; }
int main() { if (f(__VERIFIER_nondet_int()) == 7) { ERROR: reach_error(); } return 0; }
"""
    out = _solve(looping, tmp_path)
    assert out.status == "unknown" and "has a loop" in out.reason


def test_it_stops_at_its_limit(tmp_path: Path) -> None:
    t0 = time.monotonic()
    out = _solve(CHAIN.replace("== 300", "== 2000"), tmp_path, seconds=2.0)
    assert out.status == "unknown" and out.timed_out, out.reason  # the limit ended it, and it says so
    # 2 s and a moment on a quiet machine: a run that ignored its limit, not a slow machine,
    # breaks this bound.
    assert time.monotonic() - t0 < 10 * 2.0 + 5


@pytest.mark.parametrize("code", [FIB, CHAIN], ids=["tree", "chain"])
def test_the_portfolio_gives_it_what_cegar_leaves(code: str, tmp_path: Path, monkeypatch) -> None:
    """CEGAR made to run out of its share at once: BMC decides, and the harness replays."""
    from cbam.engine.pipeline import portfolio, schedule
    from cbam.engine.pipeline.search import Search

    def cegar_runs_out(program, opts, stats, cegar, *rest):
        def cut(first_phase_only: bool, limit, stop=None):
            if first_phase_only:
                return Search(stats=stats, precision={})
            assert limit is not None and limit < opts.timeout * schedule.CEGAR_SHARE + 0.01
            return Search(status="unknown", kind=UnknownReason.TIMEOUT, reason="timeout", stats=stats, precision={},
                          stopped=UnknownReason.TIMEOUT, run_timed_out=True)
        return portfolio._portfolio(program, opts, stats, cut, *rest)

    monkeypatch.setitem(portfolio.STRATEGIES, "portfolio", cegar_runs_out)
    switch_off(monkeypatch, "TESTING")  # (random tests reach it too)
    # (and path exploration, which follows the chain's 300 calls within its first moment)
    switch_off(monkeypatch, "EXPLORE", "EXPLORE_AFTER_BMC")
    r = verify_src(code, tmp_path, timeout=60, config="value+predicate")
    assert r.verdict == "FALSE"
    check_error_path(r)
    assert r.statistics.decided_by == "bmc" and r.statistics.unwinding_depth >= 8
    assert r.statistics.phases_cut_by_time >= 1  # CEGAR's share ran out: not compared by the self-check
    assert_replay_reaches_error(tmp_path / "prog.c", r, "LP64", tmp_path)


def test_the_depth_it_searched_is_in_the_reason(tmp_path: Path, monkeypatch) -> None:
    """A safe program, CEGAR made to run out and the provers to fail: UNKNOWN, and the reason
    says how deep BMC looked, so the user knows what was ruled out."""
    from cbam.engine.algorithms import cparec
    from cbam.engine.algorithms.horn import clauses
    from cbam.engine.pipeline import portfolio
    from cbam.engine.pipeline.search import Search

    def cegar_runs_out(program, opts, stats, cegar, *rest):
        def cut(first_phase_only: bool, limit, stop=None):
            return Search(status="unknown", kind=UnknownReason.TIMEOUT, reason="timeout", stats=stats, precision={},
                          stopped=UnknownReason.TIMEOUT, run_timed_out=not first_phase_only)
        return portfolio._portfolio(program, opts, stats, cut, *rest)

    monkeypatch.setitem(portfolio.STRATEGIES, "portfolio", cegar_runs_out)
    monkeypatch.setattr(clauses, "solve", lambda *a, **k: clauses.HornOutcome("unknown", "stubbed out"))
    monkeypatch.setattr(cparec, "solve", lambda *a, **k: cparec.CparecOutcome("unknown", reason="stubbed out"))
    monkeypatch.setattr(recursion, "MAX_BITS", 20_000)
    r = verify_src(FIB.replace("r >= 34", "r >= 21"), tmp_path, timeout=30, config="value+predicate")
    assert r.verdict == "UNKNOWN" and r.reason_kind == UnknownReason.TIMEOUT
    assert "BMC through the recursion: no error location within" in r.reason
    assert r.statistics.unwinding_depth >= 2 and r.statistics.phases_cut_by_time >= 1


def test_a_short_time_limit_leaves_cegar_all_of_it(tmp_path: Path, monkeypatch) -> None:
    """Under 20 s CEGAR is not cut to a share: BMC would get too little to go deep."""
    from cbam.engine.pipeline import portfolio
    from cbam.engine.pipeline.search import Search

    limits: list = []

    def record(program, opts, stats, cegar, *rest):
        def cut(first_phase_only: bool, limit, stop=None):
            if first_phase_only:
                return Search(stats=stats, precision={})
            limits.append(limit)
            return Search(status="safe", stats=stats, precision={})
        return portfolio._portfolio(program, opts, stats, cut, *rest)

    monkeypatch.setitem(portfolio.STRATEGIES, "portfolio", record)
    switch_off(monkeypatch, "TESTING")  # (they find CHAIN's violation)
    switch_off(monkeypatch, "EXPLORE", "EXPLORE_AFTER_BMC")  # (and so does it)
    for timeout in (10, 40):
        verify_src(CHAIN, tmp_path, timeout=timeout, config="value+predicate")
    assert limits[0] is None and limits[-1] is not None and limits[-1] <= 0.4 * 40
