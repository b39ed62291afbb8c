"""Path exploration (algorithms/paths.py) behind CEGAR in the portfolio (pipeline/portfolio.py):
it decides bounded programs exactly, memory included, and never answers TRUE where a path
has undefined behaviour or leaves what the memory model covers."""

from __future__ import annotations

from pathlib import Path

import pytest
from cbam.engine import api
from cbam.engine.algorithms.paths import explore
from cbam.engine.core.cpa_algorithm import Budget
from cbam.engine.core.result import UnknownReason
from cbam.engine.verify import run_deep

from .conftest import (
    ROOT,
    assert_replay_reaches_error,
    assert_replay_shows_memory_error,
    check_error_path,
    load_src,
    verify_src,
)

SWAP = """#include <assert.h>
static void swap(int *a, int *b) { int t = *a; *a = *b; *b = t; }
void swap_params(int *p, int *q) {
    int x = *p, y = *q;
    swap(p, q);
    assert(*p == y && *q == x);
}
"""


def _verify(code: str, tmp_path: Path, **kw):
    path = tmp_path / "prog.c"
    path.write_text(code)
    return run_deep(lambda: api.verify_entries(str(path), options=api.VerifyOptions(timeout=30, **kw))).result


def test_a_swap_through_pointers_is_proved_by_path_exploration(tmp_path: Path) -> None:
    alone = _verify(SWAP, tmp_path, path_exploration=False)
    assert alone.verdict == "UNKNOWN"  # the relation *p == y is beyond the value analysis
    assert alone.statistics.decided_by == ""
    result = _verify(SWAP, tmp_path)
    assert result.verdict == "TRUE"
    assert result.statistics.decided_by == "paths" and result.statistics.explored_paths >= 1


def test_a_violation_cegar_gives_up_on_is_found_replayed_and_complete(tmp_path: Path) -> None:
    source = ROOT / "tests" / "programs" / "memory" / "bounded_copy_false.c"
    path = tmp_path / source.name
    path.write_text(source.read_text())
    result = run_deep(lambda: api.verify_entries(str(path), options=api.VerifyOptions(timeout=30))).result
    check_error_path(result)
    # On a program with loops that uses memory, path exploration's first moment comes before
    # merged-path BMC and CEGAR, and decides it on a quiet machine; merged-path BMC, next in
    # line, finds the same violation where that moment is not enough (a race: not checked here;
    # path exploration alone is, below).
    assert [v.range.line for v in result.violations] == [29]
    assert_replay_reaches_error(path, result, result.data_model, tmp_path)
    every = run_deep(lambda: api.verify_entries(str(path), options=api.VerifyOptions(timeout=30,
                                                                                     max_violations=100))).result
    assert [v.range.line for v in every.violations] == [29]
    assert not every.search_stopped  # exhaustive: the list is complete
    # Path exploration alone finds it as well.
    program = load_src(source.read_text(), tmp_path, entry="copy_name")
    out = run_deep(lambda: explore(program, Budget(30)))
    assert out.status == "unsafe" and [c.path.error.range.line for c in out.confirmed] == [29]


@pytest.mark.parametrize("body", [
    # division by zero yields an arbitrary value: the failure is reachable only through it
    "int d = __VERIFIER_nondet_int(); int q = 10 / d; if (d == 0 && q != 7) return 0; "
    "assert(d != 0);",
    # a string longer than the string functions follow (64 bytes)
    "char b[100]; memset(b, 'a', 99); b[99] = 0; assert(strlen(b) != 99);",
    # a dangling pointer to a returned function's local
    "int *p = dangling(); assert(*p == 5);",
    # reading past an array's end
    "int a[4] = {1, 2, 3, 4}; int i = __VERIFIER_nondet_int(); if (i < 0 || i > 4) return 0; "
    "assert(a[i] != 0 || i == 4);",
    # a call through a null function pointer
    "int x = __VERIFIER_nondet_int(); if (x) fp = noop; fp(); assert(x != 0);",
    # a freed object's address compared with a new one's (the allocator may give it again)
    "int *p = malloc(sizeof(int)); int *q = p; free(p); int *r = malloc(sizeof(int)); "
    "if (!r) return 0; assert(r != q);",
    # one object's end compared with another object (which may lie right there)
    "int a[2], b[2]; a[0] = b[0] = 0; assert(a + 2 != b && b + 2 != a);",
], ids=["division-by-zero", "long-string", "dangling-pointer", "out-of-bounds-read", "null-function-pointer",
        "freed-address-compared", "end-compared-with-another-object"])
def test_no_true_rests_on_undefined_behaviour_or_on_the_models_limits(tmp_path: Path, body: str) -> None:
    code = ("#include <assert.h>\n#include <stdlib.h>\n#include <string.h>\nextern int __VERIFIER_nondet_int(void);\n"
            "int *dangling(void) { int x = 5; return &x; }\nvoid noop(void) {}\nvoid (*fp)(void);\n"
            f"int main(void) {{ {body} return 0; }}\n")
    result = verify_src(code, tmp_path, timeout=20)
    assert result.verdict != "TRUE", result.reason
    program = load_src(code, tmp_path)
    out = run_deep(lambda: explore(program, Budget(20)))
    assert out.status != "safe", out.reason


def test_a_loop_of_input_dependent_length_is_not_proved_by_unwinding(tmp_path: Path) -> None:
    code = """#include <assert.h>
extern int __VERIFIER_nondet_int(void);
int main(void) {
    int n = __VERIFIER_nondet_int(), i = 0, a[2];
    a[0] = 0;
    while (i < n) { a[0] += 2; i++; }
    assert(a[0] % 2 == 0);
    return 0;
}
"""
    program = load_src(code, tmp_path)
    out = run_deep(lambda: explore(program, Budget(3)))
    assert out.status == "unknown"


def test_a_bounded_loop_is_unwound_completely(tmp_path: Path) -> None:
    code = """#include <assert.h>
extern int __VERIFIER_nondet_int(void);
int main(void) {
    int a[10], i, s = 0;
    for (i = 0; i < 10; i++) a[i] = __VERIFIER_nondet_int() & 1;
    for (i = 0; i < 10; i++) s += a[i];
    assert(s <= 10);
    return 0;
}
"""
    program = load_src(code, tmp_path)
    out = run_deep(lambda: explore(program, Budget(30)))
    assert out.status == "safe" and out.paths == 1
    bad = load_src(code.replace("s <= 10", "s < 10"), tmp_path, name="bad.c")
    found = run_deep(lambda: explore(bad, Budget(30)))
    assert found.status == "unsafe"
    [c] = found.confirmed
    assert c.feasibility.status == "sat" and c.path.error_node.error is not None


def test_calls_through_a_table_of_function_pointers_are_decided(tmp_path: Path) -> None:
    # The call dispatches by comparing function addresses: C decides those (a function has no
    # end that another object could follow), so the comparison is not left open.
    source = ROOT / "tests" / "programs" / "memory" / "dispatch_table.c"
    path = tmp_path / source.name
    path.write_text(source.read_text())
    result = run_deep(lambda: api.verify_entries(str(path), options=api.VerifyOptions(timeout=30))).result
    assert result.verdict == "TRUE", result.reason


def test_a_location_reached_first_only_through_overflow_stays_a_target(tmp_path: Path) -> None:
    """cohencu_unwindbound5 (nla-digbench-scaling, bench/loops): every check goes through the one
    error location of __VERIFIER_assert. The first path there (the loop left at once) fails a
    check only through signed overflow of ``6*a*x``; a path that runs the loop five times fails
    it for real. Giving the location up after the first path left the task UNKNOWN."""

    src = ROOT / "bench" / "loops" / "c" / "nla-digbench-scaling" / "cohencu_unwindbound5.c"
    program = load_src(src.read_text(), tmp_path, "cohencu.c", "ILP32")
    budget = Budget(60.0)
    out = run_deep(lambda: explore(program, budget))
    assert out.status == "unsafe", out.reason
    r = verify_src(src.read_text(), tmp_path, data_model="ILP32", timeout=60, name="cohencu.c")
    check_error_path(r)
    assert_replay_reaches_error(tmp_path / "cohencu.c", r, "ILP32", tmp_path)


# Bresenham's loop from nla-digbench-scaling: inputs bounded ahead of a loop whose branches rest
# on their products. Each path splits at the loop head into one per value of its state (100),
# whose branches need no solver after that.
BRESENHAM = """#include <assert.h>
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
int main(void) {
    int X = __VERIFIER_nondet_int(), Y = __VERIFIER_nondet_int(), junk;
    __VERIFIER_assume(X > 0 && X <= 10);
    __VERIFIER_assume(Y > 0 && Y <= 10);
    long long v = 2LL * Y - X, x = 0, y = 0;
    while (x <= X) {
        assert(2 * Y * x - 2 * X * y - X + 2LL * Y - v == 0);
        if (v < 0) {
            v = v + 2LL * Y;
        } else {
            v = v + 2 * ((long long) Y - X);
            y++;
        }
        x++;
    }
    assert(CHECK);
    return 0;
}
"""


def test_bounded_inputs_split_into_concrete_paths(tmp_path: Path) -> None:
    program = load_src(BRESENHAM.replace("CHECK", "2 * Y * x - 2 * x * y - X + 2LL * Y - v + 2 * y == 0"), tmp_path)
    out = run_deep(lambda: explore(program, Budget(30)))
    assert out.status == "safe" and out.kind.name == "NONE"
    assert out.paths >= 100  # every pair of inputs ran to the end
    # In the portfolio: path exploration's moment right after CEGAR's first phase proves it on
    # a quiet machine; merged-path BMC, next in line, proves it too where that moment is not
    # enough (a race: which engine, is not checked here; path exploration alone is, above).
    result = verify_src(BRESENHAM.replace("CHECK", "1"), tmp_path, timeout=60)
    assert result.verdict == "TRUE", result.reason


def test_a_violation_for_one_pair_of_bounded_inputs_is_found(tmp_path: Path) -> None:
    # Only X == 7 and Y == 3 end with y == 3: a single concrete path of the hundred.
    result = verify_src(BRESENHAM.replace("CHECK", "!(X == 7 && Y == 3) || y != 3"), tmp_path, timeout=60)
    assert result.verdict == "FALSE", result.reason
    check_error_path(result)
    assert sorted(int(i.value) for i in result.violations[0].inputs) == [3, 7]
    assert_replay_reaches_error(tmp_path / "prog.c", result, result.data_model, tmp_path)


def test_a_value_read_after_the_split_stays_free(tmp_path: Path) -> None:
    # `junk` is read only after the split, uninitialised: a value no split fixed, free on
    # every concrete path; the error needs junk == 12345, which is found.
    code = BRESENHAM.replace("CHECK", "x != X + 1 || junk != 12345")
    program = load_src(code, tmp_path)
    out = run_deep(lambda: explore(program, Budget(30)))
    assert out.status == "unsafe"
    check_error_path(verify_src(code, tmp_path, timeout=60))


SLL_LENGTH = """#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
typedef struct node { struct node *next; } *SLL;
int main(void) {
  int len = 2;
  while (len < 32 && __VERIFIER_nondet_int()) len++;
  SLL head = NULL;
  for (int k = len; k > 0; k--) { SLL n = malloc(sizeof *n); n->next = head; head = n; }
  int count = 0;
  for (SLL p = head; p; p = p->next) count++;
  if (count != len) reach_error();
  while (head) { SLL next = head->next; free(head); head = next; }
  return 0;
}
"""


def test_a_list_malloc_builds_is_followed_at_known_addresses(tmp_path: Path) -> None:
    # malloc's result is its object's base, a number: the writes through it go to known
    # addresses (before, each pointer was a fresh term, every store a symbolic one, and the
    # exploration gave up after a few lists as sll_length_check-2's 32 nodes).
    program = load_src(SLL_LENGTH, tmp_path)
    out = run_deep(lambda: explore(program, Budget(60)))
    assert out.status == "safe" and out.kind.name == "NONE", out.reason
    assert out.paths >= 31
    program = load_src(SLL_LENGTH.replace("count != len", "count == 9"), tmp_path)
    out = run_deep(lambda: explore(program, Budget(60)))
    assert out.status == "unsafe"
    check_error_path(verify_src(SLL_LENGTH.replace("count != len", "count == 9"), tmp_path, timeout=60))


# The sum of an array before and after its cells are rotated: the same sum, which z3 sees once
# each step's definition is substituted and the summands sorted (array-crafted/mapavg1).
ROTATED_SUM = """extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
#define N 100
long long sum(int *x) {
    long long s = 0;
    for (int i = 0; i < N; i++) s = s + i + x[i];
    return s / N;
}
int main(void) {
    int x[N];
    for (int i = 0; i < N; i++) x[i] = __VERIFIER_nondet_int();
    long long before = sum(x);
    int t = x[0];
    for (int i = 0; i < N - 1; i++) x[i] = x[i + 1];
    x[N - 1] = t;
    if (sum(x) != before) reach_error();
    return 0;
}
"""


def test_a_sum_kept_by_a_rotation_is_proved_without_overflow_cases(tmp_path: Path) -> None:
    # No long long sum of ints overflows, so no step gets an arbitrary value for that case
    # (smt/bvrange.py); a check the incremental solver cannot answer at once goes to a
    # solver of its own, which substitutes the definitions (solving.lean_solver).
    program = load_src(ROTATED_SUM, tmp_path)
    out = run_deep(lambda: explore(program, Budget(30)))
    assert out.status == "safe", out.reason
    assert out.paths == 1
    # With int sums, an overflow is possible: no TRUE then.
    wraps = ROTATED_SUM.replace("long long s = 0", "int s = 0").replace("N 100", "N 4")
    out = run_deep(lambda: explore(load_src(wraps, tmp_path), Budget(30)))
    assert out.status != "safe"


# The xor of an array's cells before and after a swap and a rotation (array-crafted/xor2, with
# 1,000 cells): the same term once its chain of ^ is one application, whose operands z3 sorts.
ROTATED_XOR = """extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
#define N 1000
int fold(int *x) {
    long long r = x[0];
    for (int i = 1; i < N; i++) r = r ^ x[i];
    return r;
}
int main(void) {
    int x[N];
    for (int i = 0; i < N; i++) x[i] = __VERIFIER_nondet_int();
    int before = fold(x);
    int t = x[0]; x[0] = x[1]; x[1] = t;
    int swapped = fold(x);
    t = x[0];
    for (int i = 0; i < N - 1; i++) x[i] = x[i + 1];
    x[N - 1] = t;
    if (before != swapped || before != fold(x)) reach_error();
    return 0;
}
"""


def test_a_fold_kept_by_a_permutation_is_one_term(tmp_path: Path) -> None:
    """Values stay terms (not variables defined equal to them) up to a depth, and a deep
    condition is flattened before it is simplified: the check that took 4 s per branch (z3
    flattening 1,000 nested ^ itself) is decided without the solver."""
    out = run_deep(lambda: explore(load_src(ROTATED_XOR, tmp_path), Budget(60)))
    assert out.status == "safe", out.reason
    # (Fewer cells: the violation's exact check substitutes every definition of the path.)
    wrong = ROTATED_XOR.replace("x[N - 1] = t;", "x[N - 1] = t + 1;").replace("#define N 1000", "#define N 200")
    out = run_deep(lambda: explore(load_src(wrong, tmp_path, "wrong.c"), Budget(60)))
    assert out.status == "unsafe" and out.confirmed


# A loop of 9,000 iterations with a concrete bound: deeper than merged-path BMC's deepest
# bound (1,024) and than path exploration's before (8,192), and a value 9,000 operations deep.
LONG_FOLD = """extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main(void) {
    int x[2];
    x[0] = __VERIFIER_nondet_int();
    x[1] = __VERIFIER_nondet_int();
    long long r = 0;
    for (int i = 0; i < 9000; i++) r = r ^ x[i & 1];
    if (r != 0) reach_error();
    return 0;
}
"""


def test_a_long_loop_with_a_concrete_bound_is_followed_to_its_end(tmp_path: Path) -> None:
    """Each cell is folded in 4,500 times: the value stays one term (it was named past a depth
    of 1,500, where only the solver could see through the names), and the flattened chain of
    ``^`` cancels to 0. The portfolio gives it to path exploration when merged-path BMC stops at
    its deepest bound."""
    out = run_deep(lambda: explore(load_src(LONG_FOLD, tmp_path), Budget(60)))
    assert out.status == "safe", out.reason
    assert out.unwind == 32768 and not out.deeper
    path = tmp_path / "long.c"
    path.write_text(LONG_FOLD)
    res = run_deep(lambda: api.verify_entries(str(path), options=api.VerifyOptions(timeout=60))).result
    assert res.verdict == "TRUE", res.reason  # by whichever engine answers first


def test_a_loop_longer_than_every_bound_is_not_proved(tmp_path: Path) -> None:
    code = LONG_FOLD.replace("i < 9000", "i < 40000")
    out = run_deep(lambda: explore(load_src(code, tmp_path), Budget(60)))
    assert out.status == "unknown" and out.deeper


# A value stored whole and then changed in one byte: reading it back must not give the value
# (pathmemory reads a value back whole by the bytes it cut from it: the same value's, in order).
BYTE_OVERWRITTEN = """extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
struct three { unsigned char b[3]; };
int main(void) {
    int v = __VERIFIER_nondet_int(), w = __VERIFIER_nondet_int();
    int a[2];
    a[0] = w;
    a[1] = v;
    unsigned char *p = (unsigned char *)a;
    CHANGE;
    if (a[1] != v) reach_error();
    return 0;
}
"""


@pytest.mark.parametrize("change", ["p[5] = 0", "p[5] = p[1]", "p[4] = p[5]",
                                    "*(struct three *)(p + 4) = *(struct three *)(p + 5)"])
def test_a_value_changed_in_one_byte_is_not_read_back_whole(tmp_path: Path, change: str) -> None:
    """A byte of no value, a byte of another value, a byte of the same value (stored as a
    char), the same value's bytes moved by one (a struct copy of three bytes): each fails a
    check of ``MemoryState._whole`` if that check is left out."""
    found = run_deep(lambda: explore(load_src(BYTE_OVERWRITTEN.replace("CHANGE", change), tmp_path), Budget(30)))
    assert found.status == "unsafe"
    [c] = found.confirmed
    assert c.feasibility.status == "sat"


def test_a_value_whose_byte_is_put_back_is_read_back(tmp_path: Path) -> None:
    code = BYTE_OVERWRITTEN.replace("CHANGE", "unsigned char t = p[5]; p[5] = p[1]; p[5] = t")
    out = run_deep(lambda: explore(load_src(code, tmp_path), Budget(30)))
    assert out.status == "safe", out.reason


def test_a_condition_too_deep_for_the_solver_ends_the_exploration_at_once(tmp_path: Path) -> None:
    """A product a loop built 3,000 times over an input is not given to z3, whose assertion of
    it (30,000 times: minutes) would not heed the time limit."""
    code = """extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main(void) {
    int a[2];
    a[0] = __VERIFIER_nondet_int();
    a[1] = 3;
    unsigned x = 1;
    for (int i = 0; i < 3000; i++) x = x * a[i & 1] + 7;
    if (x == 12345u) reach_error();
    return 0;
}
"""
    out = run_deep(lambda: explore(load_src(code, tmp_path), Budget(60)))
    assert out.status == "unknown" and out.kind == UnknownReason.DEPTH, out.reason
    assert "operations deep" in out.reason


def test_comparisons_of_addresses_c_decides_are_proved(tmp_path: Path) -> None:
    # Concrete addresses compared without the solver: within one object, NULL, two live objects.
    code = """#include <assert.h>
#include <stdlib.h>
int main(void) {
    int a[4], b = 0;
    int *p = a + 1, *h = malloc(sizeof(int));
    if (!h) return 0;
    assert(p > a && p != a + 2 && p == &a[1]);
    assert(h != 0 && h != &b && h != p);
    free(h);
    return 0;
}
"""
    program = load_src(code, tmp_path)
    out = run_deep(lambda: explore(program, Budget(20)))
    assert out.status == "safe" and out.kind == UnknownReason.NONE, out.reason
    bad = load_src(code.replace("p != a + 2", "p != a + 1"), tmp_path, name="bad.c")
    found = run_deep(lambda: explore(bad, Budget(20)))
    assert found.status == "unsafe" and [c.path.error.range.line for c in found.confirmed] == [7]


# One short path and one whose loop runs past the first bounds (2 and 8 passes) to a violation.
SHORT_AND_LONG = """extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main(void) {
    int i, s = 0;
    if (__VERIFIER_nondet_int()) return 0;
    for (i = 0; i < 20; i++) s ^= i * 3;
    if (s == 60) reach_error();
    return 0;
}
"""


@pytest.mark.parametrize("limit", ["MAX_FRONTIER", "MAX_FRONTIER_CELLS"])
def test_a_round_goes_on_from_the_paths_the_last_bound_cut(tmp_path: Path, monkeypatch, limit: str) -> None:
    from cbam.engine.algorithms import paths

    safe = load_src(SHORT_AND_LONG.replace("s == 60", "s != 60"), tmp_path)
    out = run_deep(lambda: explore(safe, Budget(30)))
    # The short path is followed once, not again in each round (it was 3 times: bounds 2, 8, 32).
    assert out.status == "safe" and out.paths == 2 and out.unwind == 32
    bad = load_src(SHORT_AND_LONG, tmp_path, name="bad.c")
    found = run_deep(lambda: explore(bad, Budget(30)))
    assert found.status == "unsafe" and [c.path.error.range.line for c in found.confirmed] == [7]
    check_error_path(verify_src(SHORT_AND_LONG, tmp_path, timeout=30))
    # Too many cut paths, or too much of their memory, to keep: the next round starts over,
    # with the same answers.
    monkeypatch.setattr(paths, limit, 0)
    out = run_deep(lambda: explore(safe, Budget(30)))
    assert out.status == "safe" and out.paths == 4
    found = run_deep(lambda: explore(bad, Budget(30)))
    assert found.status == "unsafe" and [c.path.error.range.line for c in found.confirmed] == [7]


def _stop_every(n: int):
    calls = [0]

    def cancel() -> bool:
        calls[0] += 1
        return calls[0] % n == 0

    return cancel


@pytest.mark.parametrize("source, every", [("SLL_LENGTH", 97), ("SHORT_AND_LONG", 7)])
def test_an_exploration_its_budget_paused_goes_on_where_it_stopped(tmp_path: Path, source: str, every: int) -> None:
    from cbam.engine.algorithms.paths import Explorer

    code = globals()[source]
    program = load_src(code, tmp_path)
    whole = run_deep(lambda: explore(program, Budget(60)))
    explorer = Explorer(program, Budget(60, cancel=_stop_every(every)), 1)
    out = run_deep(explorer.run)
    pauses = 0
    while explorer.resumable:
        assert out.status == "unknown" and out.kind == UnknownReason.CANCELLED
        pauses += 1
        out = run_deep(lambda: explorer.resume(Budget(60, cancel=_stop_every(every))))
    assert pauses >= 3
    # Nothing followed twice, nothing lost: the same answer, the same paths, the same violation.
    assert (out.status, out.kind, out.paths, out.unwind) == (whole.status, whole.kind, whole.paths, whole.unwind)
    assert [c.path.error.range.line for c in out.confirmed] == [c.path.error.range.line for c in whole.confirmed]
    assert len(out.confirmed) == len(whole.confirmed) == (1 if source == "SHORT_AND_LONG" else 0)


def test_an_exploration_paused_before_cegar_goes_on_after_it(tmp_path: Path) -> None:
    import time

    from cbam.engine.algorithms.paths import Explorer
    from cbam.engine.options import VerifyOptions
    from cbam.engine.pipeline import portfolio
    from cbam.engine.pipeline.search import Search

    program = load_src(SLL_LENGTH, tmp_path)
    explorer = Explorer(program, Budget(60, cancel=_stop_every(97)), 1)
    run_deep(explorer.run)
    assert explorer.resumable
    before = explorer.out.paths
    search = Search(status="unknown", kind=UnknownReason.NO_PROGRESS, reason="CEGAR gave up")
    paused = {"explorer": explorer}
    opts = VerifyOptions(timeout=60)
    run_deep(lambda: portfolio.complete(program, opts, search, time.monotonic(), {}, merge_paths=False, paused=paused))
    # The paused exploration itself went on (a fresh one would have left it paused).
    assert not explorer.resumable and explorer.out.status == "safe" and "explorer" not in paused
    assert search.status == "safe" and search.stats.decided_by == "paths"
    assert search.stats.explored_paths == explorer.out.paths >= 31 and before < 31


def test_a_leak_after_main_returns_is_found_by_path_exploration(tmp_path: Path) -> None:
    # The leak check after main's return read the open calls of the step before (main's own):
    # its dead pointers still held the list, and the branch to the error was never taken.
    code = """#include <stdlib.h>
struct node { int v; struct node *next; };
int main(void) {
  struct node *h = 0;
  for (int i = 0; i < 60; i++) {
    struct node *x = malloc(sizeof(struct node));
    x->v = i * 7 % 61; x->next = h; h = x;
  }
  while (h && h->v != 5) {
    struct node *t = h->next;
    free(h);
    h = t;
  }
  return 0;
}
"""
    from cbam.engine.cfa.memsafety import instrument

    result = verify_src(code, tmp_path, timeout=30, property="memsafety")
    assert result.verdict == "FALSE" and result.violations[0].kind == "valid-memtrack", result.reason
    check_error_path(result)
    assert_replay_shows_memory_error(tmp_path / "prog.c", result, tmp_path)
    program = load_src(code, tmp_path, name="alone.c")
    instrument(program)
    out = run_deep(lambda: explore(program, Budget(30)))
    assert out.status == "unsafe", out.reason


def test_a_value_of_few_values_splits_the_path_memory_or_not() -> None:
    """crypto-algorithms' SHA-256 fed "abc" in two pieces at a split point drawn as
    ``nondet % 4``: one path per split point, each concrete (before, the one symbolic path put
    the hash over symbolic addresses to the solver, which gave up)."""
    from cbam.engine.frontend.compile_db import Unit
    from cbam.engine.frontend.preprocess import PreprocessOptions

    lib = ROOT / "tests" / "realcode" / "crypto-algorithms"
    opts = PreprocessOptions(include_paths=(str(lib),), data_model="LP64")
    units = [Unit(str(lib / "harnesses" / "sha256_split_abc.c"), opts), Unit(str(lib / "sha256.c"), opts)]
    program = api.load(units[0].path, preprocess=opts, preprocessed=api.link(units))
    out = explore(program, Budget(60))
    assert (out.status, out.paths) == ("safe", 4), out.reason
    planted = lib / "harnesses" / "sha256_split_abc_planted.c"
    units = [Unit(str(planted), opts), Unit(str(lib / "planted" / "sha256.c"), opts)]
    out = explore(api.load(units[0].path, preprocess=opts, preprocessed=api.link(units)), Budget(60))
    assert out.status == "unsafe" and out.confirmed


def test_how_many_values_a_term_can_take_is_read_off_its_shape() -> None:
    import z3
    from cbam.engine.smt.terms import few_values

    x = z3.ZeroExt(56, z3.BitVec("x", 8))
    y = z3.BitVec("y", 32)
    assert few_values(z3.URem(x, 4), 64) == 4
    assert few_values(z3.simplify(z3.URem(x, 4)), 64) == 4  # (z3 makes it a Concat of 0 and two bits)
    assert few_values(x & 1, 64) == 2 and few_values(z3.URem(x, 9) + 1, 64) == 9
    assert few_values(z3.SRem(y, 3), 64) == 5
    assert few_values(z3.If(y > 0, z3.URem(x, 3), z3.BitVecVal(7, 64)), 64) == 4
    assert few_values(x, 64) is None and few_values(y, 64) is None  # 256 and 2^32 values
    assert few_values(z3.URem(x, 100), 64) is None
    assert few_values(z3.Extract(2, 0, y), 64) == 8


SPLIT_WRITES = """extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error(void) { __assert_fail("0", __FILE__, __LINE__, "reach_error"); }
extern unsigned char __VERIFIER_nondet_uchar(void);
int main(void) {
    unsigned char buf[64] = {0};
    unsigned k = __VERIFIER_nondet_uchar() % 4;
    for (unsigned i = 0; i < 3000; i++)
        buf[(i + k) % 64] = (unsigned char)i;
    if (buf[k] == 128) reach_error();
    return 0;
}
"""


def test_a_violation_on_a_split_path_is_confirmed_with_the_paths_own_inputs(tmp_path: Path, monkeypatch) -> None:
    """The exploration makes k a number; the error path, checked again from its steps alone,
    writes 3,000 times at an address over a symbolic k, past what the memory model gives the
    solver. Checked first with the inputs of the path's model (cex.encoding.check_path's
    ``inputs``), it is concrete, and confirmed."""
    from cbam.engine.algorithms import paths

    program = load_src(SPLIT_WRITES, tmp_path)
    out = explore(program, Budget(60))
    assert out.status == "unsafe" and out.confirmed, out.reason
    path = tmp_path / "whole.c"
    path.write_text(SPLIT_WRITES)
    result = verify_src(SPLIT_WRITES, tmp_path, name="whole.c")
    check_error_path(result)
    assert_replay_reaches_error(path, result, "LP64", tmp_path)
    monkeypatch.setattr(paths.Explorer, "_input_values", lambda self, path, solver: None)
    unconfirmed = explore(load_src(SPLIT_WRITES, tmp_path, name="again.c"), Budget(60))
    assert unconfirmed.status == "unknown" and "symbolic addresses" in unconfirmed.reason
