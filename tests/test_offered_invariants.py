"""What cbam's analyses offer k-induction's step case (registry.invariants): the interval
analysis's facts, the predicate analysis's loop equalities and the predicates CEGAR's refinement
found. Each is a candidate Houdini must prove before the step case assumes it: the tests check
that what is offered reaches the proof, and that what is wrong never does."""

from __future__ import annotations

import time
from functools import partial
from pathlib import Path

from cbam.engine.algorithms import kinduction
from cbam.engine.algorithms.horn import clauses as horn
from cbam.engine.algorithms.kinduction.invariants import Offered, houdini, offered
from cbam.engine.cpa import registry
from cbam.engine.cpa.interval.invariants import fixpoint
from cbam.engine.cpa.predicate.cpa import PredicateCPA, PredicatePrecision

from .conftest import load_src, verify_src
from .engines_off import switch_off

HEAD = """extern unsigned int __VERIFIER_nondet_uint(void);
extern int __VERIFIER_nondet_int(void);
extern void abort(void);
void reach_error(void) {}
void __VERIFIER_assert(int c) { if (!c) { reach_error(); abort(); } }
"""

# j - i == 10 at the loop head: Karr's equality (the predicate analysis's loop predicates);
# Houdini's own candidates are bounds by constants, and without the equality no k suffices
# (from j == i + 11 the loop may leave at once).
OFFSET = HEAD + """
int main(void) {
  unsigned int n = __VERIFIER_nondet_uint();
  unsigned int i = 0, j = 10;
  while (i < n) { i++; j++; }
  __VERIFIER_assert(j == i + %d);
  return 0;
}
"""

# j <= i at the loop head: no equality, no interval; what predicate refinement finds.
BELOW = HEAD + """
int main(void) {
  unsigned int n = __VERIFIER_nondet_uint();
  if (n > 1000) return 0;
  unsigned int i = 0, j = 0;
  while (i < n) { i++; if (__VERIFIER_nondet_int()) j++; }
  __VERIFIER_assert(j <= i);
  return 0;
}
"""

CALLS = HEAD + """
int clamp(int a) { if (a < 0) return 0; if (a > 9) return 9; return a; }
int main(void) {
  int k = 7 * 5, s = 0;
  while (__VERIFIER_nondet_int()) { s = clamp(__VERIFIER_nondet_int()); }
  __VERIFIER_assert(s <= 9 && k == 35);
  return 0;
}
"""


def _loop_head(program) -> tuple[str, int]:
    (head,) = [(f.name, n.canon) for f in program.all_functions() for n in f.nodes if n.loop_head]
    return head


def _facts(program, precisions: dict | None = None, config: str = "value+predicate"):
    return partial(registry.invariants, registry.configuration(config), program, precisions or {})


def test_interval_facts_at_the_loop_head_and_after_a_call(tmp_path: Path) -> None:
    """A variable the loop never writes keeps its value; a call's result has the callee's exit
    interval (its summary in the interval domain, joined over the calls)."""
    program = load_src(CALLS, tmp_path)
    states = fixpoint(program, time.monotonic() + 10)
    assert states is not None
    head = next(n for n in program.functions["main"].nodes if n.loop_head)
    assert states[head].m["main::k"] == (35, 35)
    assert states[head].m["main::s"] == (0, 9)
    assert states[program.functions["clamp"].exit].m["clamp::__retval"] == (0, 9)
    facts = registry.invariants(registry.configuration("value"), program, {}, time.monotonic() + 10)
    at_head = facts[_loop_head(program)]
    assert ("==", (("main::k", 1),), 35) in at_head
    assert ("<=", (("main::s", 1),), 9) in at_head and ("<=", (("main::s", -1),), 0) in at_head


def test_interval_facts_give_up_past_their_visits(tmp_path: Path, monkeypatch) -> None:
    """Past its limit the analysis offers nothing (rather than a state short of its fixpoint)."""
    program = load_src(CALLS, tmp_path)
    from cbam.engine.cpa.interval import invariants as interval

    assert interval.invariants(program, None, time.monotonic() + 10)
    monkeypatch.setattr(interval, "MAX_VISITS", 3)
    assert fixpoint(program, time.monotonic() + 10) is None
    assert interval.invariants(program, None, time.monotonic() + 10) == {}


def test_the_predicate_analysis_offers_loop_equalities_and_its_precision(tmp_path: Path) -> None:
    program = load_src(OFFSET % 10, tmp_path)
    head = _loop_head(program)
    facts = _facts(program)(time.monotonic() + 10)
    assert ("==", (("main::i", 1), ("main::j", -1)), -10) in facts[head]
    elsewhere = ("main", 0)
    prec = PredicatePrecision({elsewhere: frozenset({("<=", (("main::n", 1),), 5),
                                                     ("<=", (("main::n", 1), ("main::n@old", -1)), 0)})})
    facts = _facts(program, {"predicate": prec})(time.monotonic() + 10)
    assert ("<=", (("main::n", 1),), 5) in facts[elsewhere]
    assert all(not v.endswith("@old") for f in facts[elsewhere] for v, _ in f[1])  # one state's facts only


SUMMARY = HEAD + """
unsigned int upto(unsigned int n, unsigned int step) {
  unsigned int r = 0;
  while (r < n) { r++; step--; }
  return r;
}
int main(void) { unsigned int x = __VERIFIER_nondet_uint(); __VERIFIER_assert(upto(x, 3) == x); return 0; }
"""


def test_a_summary_predicate_at_a_functions_exit_is_offered(tmp_path: Path) -> None:
    """The predicate analysis gives entry copies only to parameters the body assigns
    (frame_copies): its summary of ``upto`` relates ``\\result`` to ``n`` itself, and that is
    offered at the exit; an atom over ``step``'s entry copy speaks of two states and is not."""
    program = load_src(SUMMARY, tmp_path)
    fn = program.functions["upto"]
    copies = PredicateCPA(program, {}).copies["upto"]
    assert "upto::step" in copies and "upto::n" not in copies
    exit_ = ("upto", fn.exit.canon)
    summary = ("==", (("upto::__retval", 1), ("upto::n", -1)), 0)
    two_states = ("<=", (("upto::r", 1), ("upto::step@old", -1)), 0)
    prec = PredicatePrecision({exit_: frozenset({summary, two_states})})
    facts = _facts(program, {"predicate": prec})(time.monotonic() + 10)
    assert summary in facts[exit_] and two_states not in facts[exit_]


def test_an_offered_loop_equality_proves_what_k_induction_alone_cannot(tmp_path: Path) -> None:
    program = load_src(OFFSET % 10, tmp_path)
    alone = kinduction.solve(program, 8.0)
    assert alone.status == "unknown"
    out = kinduction.solve(program, 30.0, facts=_facts(program))
    assert out.status == "safe" and out.offered_kept > 0
    assert "i == j - 10" in out.summaries["main"]


def test_a_predicate_from_cegar_reaches_the_step_case(tmp_path: Path) -> None:
    program = load_src(BELOW, tmp_path)
    head = _loop_head(program)
    without = kinduction.solve(program, 8.0, facts=_facts(program))
    assert without.status == "unknown"
    prec = PredicatePrecision({head: frozenset({("<=", (("main::i", -1), ("main::j", 1)), 0)})})
    out = kinduction.solve(program, 30.0, facts=_facts(program, {"predicate": prec}))
    assert out.status == "safe" and out.offered_kept > 0


def test_a_wrong_offer_is_dropped_and_never_proves_a_violation(tmp_path: Path) -> None:
    """An analysis may offer what it only guesses: a false fact at the loop head (here the
    equality of the true program, offered for the false one) must not survive Houdini."""
    program = load_src(OFFSET % 9, tmp_path)
    head = _loop_head(program)
    wrong = {head: [("==", (("main::i", 1), ("main::j", -1)), -9)]}
    enc = horn.Encoder(program, "bv")
    ts = kinduction.TransitionSystem(enc.clauses(), {f.name: enc.frame(f) for f in program.all_functions()},
                                     enc.globals)
    offers = offered(program, ts, wrong)
    assert any(isinstance(c, Offered) for c in offers[head])
    inv = houdini(ts, time.monotonic() + 30, lambda: False, offers=offers)
    assert inv is not None and not any(isinstance(c, Offered) for v in inv.values() for c in v)
    out = kinduction.solve(program, 20.0, facts=lambda deadline: wrong)
    assert out.status != "safe"
    r = verify_src(OFFSET % 9, tmp_path, timeout=60)
    assert r.verdict == "FALSE"


def test_facts_over_globals_are_not_offered_at_a_cut_point(tmp_path: Path) -> None:
    """A caller's facts at a call are assumed while the callee runs (kinduction.holds), and the
    callee may write a global: a keyed fact over one would be assumed where it no longer holds."""
    program = load_src(HEAD + """
int g;
void bump(void) { g++; }
int main(void) { g = 0; while (__VERIFIER_nondet_int()) { bump(); } __VERIFIER_assert(g >= 0); return 0; }
""", tmp_path)
    enc = horn.Encoder(program, "bv")
    ts = kinduction.TransitionSystem(enc.clauses(), {f.name: enc.frame(f) for f in program.all_functions()},
                                     enc.globals)
    head = _loop_head(program)
    offers = offered(program, ts, {head: [("<=", (("g", 1),), 0), ("==", (("main::__retval", 1),), 0)]})
    assert all(v != "g" for cands in offers.values() for c in cands if isinstance(c, Offered)
               for v, _, _ in c.vars)


def test_the_portfolio_offers_cegars_predicates_to_k_induction(tmp_path: Path, monkeypatch) -> None:
    """End to end: Spacer and CEGAR (stubbed) give up, CEGAR with the predicate its refinement
    found; k-induction's second try proves the program with it, and the statistics say so."""
    from cbam.engine.core.result import UnknownReason
    from cbam.engine.pipeline import portfolio
    from cbam.engine.pipeline.search import Search

    program = load_src(BELOW, tmp_path)
    head = _loop_head(program)
    prec = PredicatePrecision({head: frozenset({("<=", (("main::i", -1), ("main::j", 1)), 0)})})

    def no_progress(program, opts, stats, cegar, *rest):
        def stuck(first_phase_only: bool, limit, stop=None):
            return Search(status="unknown", kind=UnknownReason.NO_PROGRESS, reason="refinement made no progress",
                          stats=stats, precision={"predicate": prec})
        return portfolio._portfolio(program, opts, stats, stuck, *rest)

    monkeypatch.setitem(portfolio.STRATEGIES, "portfolio", no_progress)
    monkeypatch.setattr(horn, "solve", lambda *a, **k: horn.HornOutcome("unknown", "stubbed out", timed_out=True))
    switch_off(monkeypatch, "TESTING")
    switch_off(monkeypatch, "EXPLORE", "EXPLORE_AFTER_BMC")
    monkeypatch.setattr(portfolio, "complete", lambda *a, **k: None)
    r = verify_src(BELOW, tmp_path, timeout=60, config="value+predicate")
    assert r.verdict == "TRUE", r.reason
    assert r.statistics.decided_by == "k-induction" and r.statistics.induction_offered > 0
