"""Arrays in the Horn clauses by a distinguished cell (algorithms/horn/cells.py), loop bounds
generalized to parameters, Spacer's seeds: loops over arrays proved where the other engines
unroll, and never a proof of a program that fails, reads out of bounds or depends on the
constant that was generalized."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from cbam.engine.algorithms.horn import clauses as horn
from cbam.engine.algorithms.horn.cells import Cells

from .conftest import assert_replay_reaches_error, check_error_path, load_src, verify_src

HEAD = """extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
void __VERIFIER_assert(int cond) { if (!(cond)) { ERROR: reach_error(); } }
"""

# Set, then check, every element: the invariant is over the cell (d < i ==> v == 7).
INIT_CHECK = HEAD + """int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n <= 0 || n > 1000) return 0;
  int a[1000];
  int i;
  for (i = 0; i < n; i++) a[i] = 7;
  for (i = 0; i < n; i++) __VERIFIER_assert(a[i] == 7);
  return 0;
}
"""

# A copy, then an element-wise comparison: two arrays, one cell each.
COPY = HEAD + """int main(void) {
  int a[500], b[500];
  int i;
  for (i = 0; i < 500; i++) a[i] = __VERIFIER_nondet_int();
  for (i = 0; i < 500; i++) b[i] = a[i];
  for (i = 0; i < 500; i++) if (a[i] != b[i]) reach_error();
  return 0;
}
"""

# Two dimensions: one cell, indexed as the array is laid out (i * 60 + j). Spacer does not prove
# this one (it enumerates the constant bounds); its failing variant must still never be proved.
MATRIX = HEAD + """int main(void) {
  int m[40][60];
  int i, j;
  for (i = 0; i < 40; i++)
    for (j = 0; j < 60; j++)
      m[i][j] = i + j;
  for (i = 0; i < 40; i++)
    for (j = 0; j < 60; j++)
      __VERIFIER_assert(m[i][j] >= 0);
  return 0;
}
"""


def solve(src: str, tmp_path: Path, seconds: float = 20.0) -> horn.HornOutcome:
    from cbam.engine.verify import run_deep

    program = load_src(src, tmp_path)
    return run_deep(lambda: horn.solve(program, seconds))


# The proofs are checked in a process of their own, the way users get them: Spacer's search
# depends on what the process did before (z3's terms and tables), and in a test process that had
# run the recursion BMC tests, every attempt on INIT_CHECK could fail for 20 s.
_SOLVE = """import sys
from cbam.engine.algorithms.horn import clauses as horn
from cbam.engine.cfa.load import load_program
from cbam.engine.verify import run_deep
program = load_program(sys.argv[1])
out = run_deep(lambda: horn.solve(program, float(sys.argv[2])))
print(out.status, out.reason)
"""


@pytest.mark.parametrize("src", [INIT_CHECK, COPY], ids=["init-check", "copy"])
def test_loops_over_arrays_are_proved_by_their_cells(tmp_path: Path, src: str) -> None:
    program = load_src(src, tmp_path)
    assert Cells.of(program).arrays, "the arrays are morphed"
    out = subprocess.run([sys.executable, "-c", _SOLVE, str(tmp_path / "prog.c"), "20"], capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.startswith("safe"), out.stdout


def test_the_portfolio_proves_them_as_invariants(tmp_path: Path) -> None:
    (tmp_path / "prog.c").write_text(INIT_CHECK)
    out = subprocess.run([sys.executable, "-m", "cbam", "verify", str(tmp_path / "prog.c"), "--timeout", "60",
                          "--no-cache", "--format", "json"], capture_output=True, text=True, timeout=180)
    r = json.loads(out.stdout)
    assert r["verdict"] == "TRUE" and r["statistics"]["decided_by"] == "invariants", r["reason"]


@pytest.mark.parametrize("src, line", [
    # one element left unset: a[n-1] is arbitrary
    (INIT_CHECK.replace("for (i = 0; i < n; i++) a[i] = 7;", "for (i = 0; i < n - 1; i++) a[i] = 7;"), 10),
    # the copy misses the last element
    (COPY.replace("for (i = 0; i < 500; i++) b[i] = a[i];", "for (i = 0; i < 499; i++) b[i] = a[i];"), 9),
    # a negative entry: i + j - 50 < 0 for small i, j
    (MATRIX.replace("m[i][j] = i + j;", "m[i][j] = i + j - 50;"), 12),
], ids=["unset", "short-copy", "negative"])
def test_a_failing_array_program_is_never_proved(tmp_path: Path, src: str, line: int) -> None:
    assert solve(src, tmp_path, 10.0).status != "safe"
    r = verify_src(src, tmp_path, timeout=60)
    assert r.verdict in ("FALSE", "UNKNOWN")
    if r.verdict == "FALSE":
        check_error_path(r)
        assert r.violations[0].range.line == line
        assert_replay_reaches_error(tmp_path / "prog.c", r, "LP64", tmp_path)


def test_an_access_out_of_bounds_is_no_proof(tmp_path: Path) -> None:
    """The check holds for every cell the loop sets, but the loop writes one element past the
    end (undefined behaviour): no proof may rely on what that write did."""
    src = INIT_CHECK.replace("for (i = 0; i < n; i++) a[i] = 7;", "for (i = 0; i <= n; i++) a[i] = 7;")
    assert solve(src, tmp_path, 10.0).status != "safe"


def test_a_check_of_two_cells_of_one_array_is_not_restricted_to_either(tmp_path: Path) -> None:
    """`a[i] <= a[i + 1]` reads two cells: no single distinguished cell reads both, so neither
    read is assumed to be it (which would lose the error)."""
    src = HEAD + """int main(void) {
  int a[100];
  int i;
  for (i = 0; i < 100; i++) a[i] = 100 - i;
  for (i = 0; i < 99; i++) __VERIFIER_assert(a[i] <= a[i + 1]);
  return 0;
}
"""
    assert solve(src, tmp_path, 10.0).status != "safe"


def test_a_property_of_the_exact_bound_is_not_proved_by_its_generalization(tmp_path: Path) -> None:
    """The loop bound 1000 becomes a parameter n >= 1 only in an attempt whose proof covers every
    n, 1000 among them: a check that fails for 1000 itself can be proved by neither attempt."""
    src = HEAD + """int main(void) {
  int i, s = 0;
  for (i = 0; i < 1000; i++) s = s + 1;
  if (s == 1000) reach_error();
  return 0;
}
"""
    assert horn.generalizable(load_src(src, tmp_path)) == {1000}
    assert solve(src, tmp_path, 10.0).status != "safe"


def test_a_wrapper_with_side_effects_is_not_read_in_place(tmp_path: Path) -> None:
    """Only a function whose sole effect is the check is read at its call; one that also writes a
    global goes through its own relations."""
    program = load_src(HEAD + """int g;
void check(int c) { g = g + 1; if (!c) reach_error(); }
int main(void) { int a[4]; a[0] = 1; check(a[0] == 1); __VERIFIER_assert(g == 1); return 0; }
""", tmp_path)
    wrappers = horn._assertion_wrappers(program)
    assert "__VERIFIER_assert" in wrappers and "check" not in wrappers


def test_every_attempt_first_gets_a_moment_where_the_time_allows() -> None:
    schedule = [("a", 0.5), ("b", 0.3), ("c", 0.2)]
    got = horn.rounds(schedule, 20.0)
    first = horn.FIRST_ROUND_SECONDS
    assert got[:3] == [("a", first), ("b", first), ("c", first)]
    rest = 20.0 - 3 * first
    assert [w for w, _ in got[3:]] == ["a", "b", "c"]
    assert [s for _, s in got[3:]] == pytest.approx([0.5 * rest, 0.3 * rest, 0.2 * rest])
    assert sum(s for _, s in got) == pytest.approx(20.0)
    # Too little time for a round of moments (the portfolio's first 2 s): the shares alone.
    assert horn.rounds(schedule, 2.0) == [("a", 1.0), ("b", 0.6), ("c", 0.4)]


def test_the_order_of_the_clauses_varies_with_the_seed(tmp_path: Path) -> None:
    program = load_src(COPY, tmp_path)
    _, clauses = horn.clauses_of(program, "lia", frozenset(), float("inf"))
    assert horn._in_order(clauses, 0) == clauses and horn._in_order(clauses, 1) == clauses[::-1]
    shuffled = horn._in_order(clauses, 2)
    assert shuffled == horn._in_order(clauses, 2) and sorted(map(id, shuffled)) == sorted(map(id, clauses))
    assert shuffled not in (clauses, clauses[::-1])
