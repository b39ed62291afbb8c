"""A construct cbam cannot translate never disappears from a proof.

The front end gives a function it cannot translate (floating point, inline assembly, ...) an
empty CFA and marks it unsupported. An engine over the whole program would read that empty CFA as
"never returns" and prove everything after a call of it unreachable: a vector library's own test
program, made to fail, was TRUE by Spacer's invariants that way. Each program here fails when gcc
runs it; cbam must answer UNKNOWN with the reason (or FALSE), never TRUE, and so must each
whole-program engine asked on its own."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from cbam.engine.algorithms import cparec, kinduction, scope
from cbam.engine.algorithms.bmc import recursion
from cbam.engine.algorithms.horn import clauses, samples, templates
from cbam.engine.cfa.load import load_program
from cbam.engine.core.result import UnknownReason
from cbam.engine.frontend.preprocess import PreprocessOptions
from cbam.engine.verify import VerifyOptions, run_deep, verify_program

from .conftest import REPRO, load_src, verify_src

HEAD = "extern void reach_error(void);\nextern int __VERIFIER_nondet_int(void);\n"

# Each one reaches reach_error when run; the loop or recursion is what lets the Horn-clause
# engines try it at all.
PROGRAMS = {
    "float local in a callee": HEAD + """
int f(int x) { double d = x; return (int)(d * 2.0); }
int main(void) { int s = 0; for (int i = 0; i < 3; i++) s += f(i); if (s == 6) reach_error(); return 0; }
""",
    "float in a function called through a pointer": HEAD + """
int h(int x) { float f = x; return f > 1.5f; }
int (*fp)(int) = h;
int main(void) { int r = 0; for (int i = 0; i < 3; i++) r += fp(i); if (r == 1) reach_error(); return 0; }
""",
    "float global read in a callee": HEAD + """
double g = 2.0;
int f(void) { return g > 1.0; }
int main(void) { int r = 0; for (int i = 0; i < 2; i++) r += f(); if (r == 2) reach_error(); return 0; }
""",
    "float return type of a recursive callee": HEAD + """
double half(int n) { return n <= 0 ? 1.0 : half(n - 1) / 2.0; }
int main(void) { int n = 3; if (half(n) < 0.2) reach_error(); return 0; }
""",
    "asm volatile with qualifiers in a callee": HEAD + """
int g;
void set(void) { asm volatile ("nop" ::: "memory"); g = 5; }
int main(void) { for (int i = 0; i < 2; i++) set(); if (g == 5) reach_error(); return 0; }
""",
    "__asm__ __volatile__ in a callee": HEAD + """
int g;
void set(void) { __asm__ __volatile__ ("" ::: "memory"); g = 5; }
int main(void) { for (int i = 0; i < 2; i++) set(); if (g == 5) reach_error(); return 0; }
""",
    "inline assembly in a callee": HEAD + """
int g;
void set(void) { __asm__("" ::: "memory"); g = 5; }
int main(void) { for (int i = 0; i < 2; i++) set(); if (g == 5) reach_error(); return 0; }
""",
}


def _fails_natively(code: str, tmp_path: Path) -> None:
    if shutil.which("gcc") is None:
        pytest.skip("gcc is not installed")
    src = tmp_path / "native.c"
    src.write_text(code.replace("extern void reach_error(void);", "#include <stdlib.h>\n#define reach_error abort"))
    exe = tmp_path / "native"
    subprocess.run(["gcc", "-w", str(src), "-o", str(exe)], check=True)
    assert subprocess.run([str(exe)]).returncode != 0, "the program is meant to fail when run"


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_never_true(name: str, tmp_path: Path) -> None:
    code = PROGRAMS[name]
    _fails_natively(code, tmp_path)
    r = verify_src(code, tmp_path, timeout=30)
    assert r.verdict != "TRUE", f"{name}: TRUE ({r.stats.decided_by})"
    if r.verdict == "UNKNOWN":
        assert r.reason_kind == UnknownReason.UNSUPPORTED, r.reason
        assert "unsupported feature" in r.reason


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_each_whole_program_engine_gives_up(name: str, tmp_path: Path) -> None:
    program = load_src(PROGRAMS[name], tmp_path)
    assert scope.unsupported_reached(program)
    outcomes = {
        "spacer": clauses.solve(program, 10),
        "templates": templates.prove(program, 10),
        "samples": samples.solve(program, 10),
        "cparec": cparec.solve(program, 10),
        "k-induction": kinduction.solve(program, 10),
        "algebraic": kinduction.solve_algebraic(program, 10),
        "recursion-bmc": recursion.solve(program, 10),
    }
    for engine, out in outcomes.items():
        assert out.status != "safe", f"{engine} proved {name}"


def test_unreached_unsupported_function_still_proves(tmp_path: Path) -> None:
    """A function nobody calls is irrelevant: it does not stop a proof."""
    code = HEAD + """
double unused(double x) { return x * 2.0; }
int main(void) { int s = 0; for (int i = 0; i < 3; i++) s += i; if (s != 3) reach_error(); return 0; }
"""
    program = load_src(code, tmp_path)
    assert not scope.unsupported_reached(program)
    assert verify_src(code, tmp_path, timeout=30).verdict == "TRUE"


def test_vector_library_mutant_is_not_true(tmp_path: Path) -> None:
    """rxi/vec's own test program with one check made to fail (exit 134 under gcc)."""
    program = load_program(str(REPRO / "vec_float" / "vec_float_wrong_true.c"), options=PreprocessOptions())
    r = run_deep(lambda: verify_program(program, VerifyOptions(timeout=60)))
    assert r.verdict in ("UNKNOWN", "FALSE"), r.verdict
    if r.verdict == "UNKNOWN":
        assert r.reason_kind == UnknownReason.UNSUPPORTED and "floating-point" in r.reason
