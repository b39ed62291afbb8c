"""Merged-path BMC (algorithms/bmc/merged.py): the unrolled program executed symbolically with states
merged where they meet. Its violations are confirmed by the exact path check and replayed by
their harness; it answers TRUE only when a round covered every execution, never through a cut
loop, an undefined operation, or an access the memory model does not cover."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from cbam.engine import api
from cbam.engine.algorithms.bmc import merged
from cbam.engine.core.cpa_algorithm import Budget
from cbam.engine.core.result import UnknownReason
from cbam.engine.pipeline.engines import Situation
from cbam.engine.pipeline.schedule import BEFORE_CEGAR, MERGED_BMC
from cbam.engine.verify import run_deep

from .conftest import ROOT, assert_replay_reaches_error, check_error_path, load_src

# Sixteen data-dependent branches: 65,536 paths for path exploration, one merged state per point here.
COUNT = """#include <assert.h>
extern int __VERIFIER_nondet_int(void);
int main(void) {
    int a[16], i, n = 0;
    for (i = 0; i < 16; i++) a[i] = __VERIFIER_nondet_int();
    for (i = 0; i < 16; i++) if (a[i] > 0) n++;
    assert(n <= LIMIT);
    return 0;
}
"""


def _check(code: str, tmp_path: Path, seconds: float = 30, **kw) -> merged.MergedOutcome:
    program = load_src(code, tmp_path, **kw)
    return run_deep(lambda: merged.check(program, Budget(seconds)))


def test_many_paths_through_a_bounded_loop_are_one_merged_formula(tmp_path: Path) -> None:
    out = _check(COUNT.replace("LIMIT", "16"), tmp_path)
    assert out.status == "safe" and out.kind == UnknownReason.NONE
    assert out.bound >= 16  # every loop ran to its end: nothing was cut


def test_a_violation_deep_in_a_loop_is_confirmed_and_replayed(tmp_path: Path) -> None:
    out = _check(COUNT.replace("LIMIT", "15"), tmp_path)
    assert out.status == "unsafe"
    [c] = out.confirmed
    assert c.feasibility.status == "sat" and c.path.error_node.error is not None


def test_the_portfolio_decides_with_it_and_the_harness_replays(tmp_path: Path) -> None:
    # CEGAR cannot relate the array's contents to the inputs; the merged formula can.
    source = ROOT / "tests" / "programs" / "memory" / "array_minmax.c"
    program = load_src(source.read_text(), tmp_path, name=source.name, entry="check_min_max")
    # The schedule puts merged-path BMC first here (a program with memory whose paths merge late) ...
    situation = Situation.of(program, api.VerifyOptions(timeout=60), alongside=False)
    assert situation.merges_first
    assert MERGED_BMC in [s.engine for s in BEFORE_CEGAR if s.when(situation)]
    # ... and it proves it alone, given time (the portfolio's share of it, and the engine's 10 s
    # for one solver check, are races with the load: a loaded CI machine took longer).
    out = run_deep(lambda: merged.check(program, Budget(300), solver_ms=120_000))
    assert out.status == "safe" and out.kind == UnknownReason.NONE, out
    # min_max skips the last element: a minimum there is missed; whatever finds it, the path replays.
    path = tmp_path / source.name
    path.write_text(source.read_text().replace("for (i = 1; i < n; i++)", "for (i = 1; i < n - 1; i++)"))
    bad = run_deep(lambda: api.verify_entries(str(path), entries=["check_min_max"],
                                              options=api.VerifyOptions(timeout=120))).result
    assert bad.verdict == "FALSE", bad.reason
    check_error_path(bad)
    assert_replay_reaches_error(path, bad, bad.data_model, tmp_path)


def test_an_input_bounded_loop_is_never_proved_by_its_unwinding(tmp_path: Path) -> None:
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
    out = _check(code, tmp_path, seconds=4)
    assert out.status == "unknown"


def test_a_violation_after_many_iterations_of_an_input_bounded_loop_is_found(tmp_path: Path) -> None:
    code = """#include <assert.h>
extern int __VERIFIER_nondet_int(void);
int main(void) {
    int n = __VERIFIER_nondet_int(), i = 0, s[1];
    s[0] = 0;
    while (i < n) { s[0] += 3; i++; }
    assert(s[0] != 30);
    return 0;
}
"""
    out = _check(code, tmp_path)
    assert out.status == "unsafe" and out.bound >= 10
    [c] = out.confirmed
    assert c.feasibility.status == "sat"


@pytest.mark.parametrize("body", [
    # reading past an array's end
    "int a[4] = {1, 2, 3, 4}; int i = __VERIFIER_nondet_int(); if (i < 0 || i > 4) return 0; "
    "assert(a[i] != 0 || i == 4);",
    # division by zero yields an arbitrary value: the failure is reachable only through it
    "int d = __VERIFIER_nondet_int(); int q = 10 / d; if (d == 0 && q != 7) return 0; assert(d != 0);",
    # a write past a heap object's end in a loop
    "int n = 4, i; int *p = malloc(n * sizeof(int)); for (i = 0; i <= n; i++) p[i] = 1; assert(p[0] == 1);",
], ids=["out-of-bounds-read", "division-by-zero", "heap-overflow-in-loop"])
def test_no_true_rests_on_undefined_behaviour(tmp_path: Path, body: str) -> None:
    code = ("#include <assert.h>\n#include <stdlib.h>\nextern int __VERIFIER_nondet_int(void);\n"
            f"int main(void) {{ {body} return 0; }}\n")
    out = _check(code, tmp_path, seconds=20)
    assert out.status != "safe", out.reason


def test_its_counterexample_does_not_depend_on_string_hashing(tmp_path: Path) -> None:
    """The differential campaign's self-check saw two runs of one program give two error paths:
    merged variables got their fresh names in a set's order, which Python's string hashing
    changes from process to process. Each run is a process of its own, with another seed, that
    runs merged BMC alone (in the portfolio, path exploration's first moment now finds this
    violation before it)."""
    source = ROOT / "tests" / "programs" / "memory" / "tokenizer_false.c"
    path = tmp_path / source.name
    path.write_text(source.read_text().replace("sum += cur;", "sum -= cur;"))
    script = (
        "import sys\n"
        "from cbam.engine.algorithms.bmc import merged\n"
        "from cbam.engine.core.cpa_algorithm import Budget\n"
        "from cbam.engine.cfa.load import load_program\n"
        "from cbam.engine.frontend.preprocess import PreprocessOptions\n"
        "from cbam.engine.verify import run_deep\n"
        "program = load_program(sys.argv[1], options=PreprocessOptions(data_model='LP64'), entry='check_sum')\n"
        "out = run_deep(lambda: merged.check(program, Budget(30)))\n"
        "print(out.status, [[i.value for i in c.feasibility.encoding.inputs] for c in out.confirmed])\n")
    reports = []
    for seed in ("1", "2", "3"):
        out = subprocess.run([sys.executable, "-c", script, str(path)], capture_output=True, text=True, timeout=120,
                             env={**os.environ, "PYTHONHASHSEED": seed})
        assert out.returncode == 0, out.stderr
        assert out.stdout.startswith("unsafe [["), out.stdout
        reports.append(out.stdout)
    assert reports[0] == reports[1] == reports[2]


def test_a_sum_kept_by_a_rotation_is_proved(tmp_path: Path) -> None:
    from .test_path_exploration import ROTATED_SUM

    # Without the overflow cases a long long sum of ints cannot have (smt/bvrange.py),
    # the sums before and after are one term to z3's rewriter.
    out = _check(ROTATED_SUM, tmp_path)
    assert out.status == "safe", out.reason


def test_its_counterexample_does_not_depend_on_what_the_process_built_before(tmp_path: Path) -> None:
    """In the run's z3 context, the model follows the ids of its terms, which depend on every term
    the process made before (CEGAR's probe gets further on a quiet machine): the same violation
    came with inputs (8, 5) in one run and (8, 43) in the next. Its model is taken again in a
    fresh context."""
    import z3

    source = (ROOT / "tests" / "programs" / "memory" / "tokenizer_false.c").read_text()
    code = source.replace("sum += cur;", "sum -= cur;")
    inputs = []
    for made_before in (0, 1000):
        _ = [z3.BitVec(f"before{made_before}_{i}", 32) + i for i in range(made_before)]
        out = _check(code, tmp_path, entry="check_sum")
        assert out.status == "unsafe"
        inputs.append([[i.value for i in c.feasibility.encoding.inputs] for c in out.confirmed])
    assert inputs[0] == inputs[1]
