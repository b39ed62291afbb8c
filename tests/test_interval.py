"""The interval domain under BAM: widening at loop heads and for recursion, soundness."""

from __future__ import annotations

import subprocess
import sys

from cbam.engine.core.cpa import Block
from cbam.engine.cpa.interval.cpa import IntervalCPA, IntervalState

from .conftest import ROOT, check_error_path, load_src, verify_src

ERR = 'extern void __assert_fail(const char *, const char *, unsigned int, const char *);\n' \
      'void reach_error(void) { __assert_fail("0", "p.c", 2, "reach_error"); }\n' \
      'extern int __VERIFIER_nondet_int(void);\nextern unsigned __VERIFIER_nondet_uint(void);\n'


def test_lattice_widening_and_bam_operators(tmp_path):
    p = load_src("int g; int f(int n) { return n; } int main(void) { int a = 1; return f(a) + g; }", tmp_path)
    cpa = IntervalCPA(p)
    a = IntervalState({"main::a": (0, 5)})
    b = IntervalState({"main::a": (0, 10)})
    assert cpa.is_less_or_equal(a, b) and not cpa.is_less_or_equal(b, a)
    assert cpa.join(a, IntervalState({"main::a": (7, 9)})).m == {"main::a": (0, 9)}
    assert cpa.widen(a, b).m == {"main::a": (0, 2147483647)}
    assert cpa.is_less_or_equal(a, IntervalState())  # missing = the whole type
    block = Block("f", p.functions["f"], frozenset({"f"}), frozenset({"f::n", "f::__retval"}), False, False)
    entry = IntervalState({"main::a": (1, 1), "f::n": (1, 1), "g": (0, 3)})
    reduced = cpa.reduce(entry, block, None)
    assert reduced.m == {"f::n": (1, 1)}
    expanded = cpa.expand(entry, IntervalState({"f::n": (1, 1), "f::__retval": (1, 1)}), block)
    assert expanded.m["main::a"] == (1, 1) and expanded.m["g"] == (0, 3)


def test_loop_with_a_million_iterations_is_proven(tmp_path):
    src = ERR + "int main(void) { int i = 0; while (i < 1000000) { i++; } if (i < 1000000) reach_error(); return 0; }"
    assert verify_src(src, tmp_path, config="interval").verdict == "TRUE"


def test_bounded_recursion_summary_needs_delayed_widening(tmp_path):
    src = ERR + """
    unsigned id(unsigned x) { if (x == 0) return 0; unsigned r = id(x - 1) + 1; if (r > 2) return 2; return r; }
    int main(void) { if (id(__VERIFIER_nondet_uint()) == 3) reach_error(); return 0; }
    """
    r = verify_src(src, tmp_path, config="interval", horn=False)
    assert r.verdict == "TRUE"
    assert r.statistics.fixpoint_iterations >= 3


def test_interval_false_is_confirmed(tmp_path):
    src = ERR + "int main(void) { int x = __VERIFIER_nondet_int(); if (x > 10 && x < 20) reach_error(); return 0; }"
    r = verify_src(src, tmp_path, config="interval")
    check_error_path(r)
    assert 10 < r.violations[0].inputs[0].value < 20


def test_overflow_is_never_assumed_away(tmp_path):
    src = ERR + "int main(void) { int x = __VERIFIER_nondet_int(); if (x > 0) { int y = x + 1; " \
                "if (y < 0) reach_error(); } return 0; }"
    assert verify_src(src, tmp_path, config="interval").verdict != "TRUE"


def test_summary_cli_prints_readable_summaries(tmp_path):
    f = tmp_path / "c.c"
    f.write_text(ERR + """
    int clamp(int x) { if (x < 0) return 0; if (x > 255) return 255; return x; }
    int main(void) { int v = clamp(__VERIFIER_nondet_int()); if (v > 255) reach_error(); return 0; }
    """)
    r = subprocess.run([sys.executable, "-m", "cbam", "summary", str(f), "--config", "interval", "--no-cache"],
                       capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    assert "clamp(x):" in r.stdout
    assert "true  ==>  0 <= \\result <= 255" in r.stdout
    assert r.stdout.strip().endswith("Verification result: TRUE")
    r = subprocess.run([sys.executable, "-m", "cbam", "summary", "examples/safe.c", "--function", "fib",
                        "--no-cache"], capture_output=True, text=True, cwd=ROOT)
    assert "n == 10  ==>  \\result == 55" in r.stdout
