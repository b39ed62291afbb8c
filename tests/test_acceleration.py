"""Acceleration of counting loops (engine/cfa/acceleration.py): which loops are replaced, and
that the closed form computes what the iterations compute, checked against gcc's binary."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from .conftest import assert_replay_reaches_error, check_error_path, load_src, verify_src

HEAD = """extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
extern unsigned __VERIFIER_nondet_uint(void);
"""


def loop_heads(program, fn="main"):
    return [n for n in program.functions[fn].nodes if n.loop_head]


def accelerated(program, fn="main"):
    return [e for e in program.functions[fn].edges() if "(loop accelerated)" in e.text]


# (declarations, loop, the variables whose final values are checked); each runs a long time
# if iterated, and every variable's closed form is exercised: steps up and down, narrow types
# that wrap, a 64-bit sum, a constant assignment, and the unsigned `!=` that wraps around.
LOOPS = [
    ("int i = 0, j = 5; unsigned char c = 3; long long s = 0; int flag = 0;",
     "while (i < 1000000) { i++; j += 3; c += 7; s -= 2; flag = 1; }", ["i", "j", "c", "s", "flag"]),
    ("int i = 17; short t = 0;", "for (; i <= 99999; i += 4) t -= 3;", ["i", "t"]),
    ("int k = 500000; unsigned u = 1;", "while (k > -3) { k -= 2; u += 5; }", ["k", "u"]),
    ("signed char k = 100; int n = 0;", "while (k >= -120) { k = k - 3; n++; }", ["k", "n"]),
    ("unsigned u = 5; unsigned long long m = 0;", "while (u != 2) { u++; m += 2; }", ["u", "m"]),
    ("unsigned short w = 9; int z = 1;", "while (w != 7) { w--; z = z + 1; }", ["w", "z"]),
]
NO_ITERATION = ("int i = 2000000; int x = 0;", "while (i < 1000) { i++; x++; }", ["i", "x"])


def _program(decls: str, loop: str, names: list[str], values: list[int] | None) -> str:
    body = f"int main(void) {{\n  {decls}\n  {loop}\n"
    if values is None:
        body += "".join(f'  printf("%lld\\n", (long long){n});\n' for n in names)
        return "#include <stdio.h>\n" + body + "  return 0;\n}\n"
    cond = " || ".join(f"{n} != {v}LL" for n, v in zip(names, values))
    return HEAD + body + f"  if ({cond}) reach_error();\n  return 0;\n}}\n"


@pytest.mark.skipif(shutil.which("gcc") is None, reason="gcc is not installed")
@pytest.mark.parametrize("decls,loop,names", [*LOOPS, NO_ITERATION])
def test_the_closed_form_computes_what_the_iterations_compute(tmp_path, decls, loop, names):
    exe = tmp_path / "a.out"
    (tmp_path / "run.c").write_text(_program(decls, loop, names, None))
    subprocess.run(["gcc", "-O1", "-fwrapv", "-o", str(exe), str(tmp_path / "run.c")], check=True)
    values = [int(x) for x in subprocess.run([str(exe)], check=True, capture_output=True, text=True,
                                             timeout=120).stdout.split()]
    src = _program(decls, loop, names, values)
    p = load_src(src, tmp_path)
    assert accelerated(p) and not loop_heads(p), "the loop is replaced"
    r = verify_src(src, tmp_path, timeout=30)
    assert r.verdict == "TRUE", r.reason
    wrong = _program(decls, loop, names[:1], [values[0] + 1])
    r = verify_src(wrong, tmp_path, name="wrong.c", timeout=30)
    check_error_path(r)
    through = any("(loop accelerated)" in s.text for s in r.violations[0].steps if s.text)
    assert through == ((decls, loop, names) != NO_ITERATION)


def test_a_counterexample_through_an_accelerated_loop_replays(tmp_path):
    src = HEAD + """int main(void) {
  int n = __VERIFIER_nondet_int();
  int i = n, x = 0;
  for (; i <= 1000; i += 3) x += 2;
  if (x == 668) reach_error();
  return 0;
}
"""
    r = verify_src(src, tmp_path, name="p.c")
    check_error_path(r)
    n = next(i.value for i in r.violations[0].inputs)
    assert (1000 - n) // 3 + 1 == 334
    assert_replay_reaches_error(tmp_path / "p.c", r, "LP64", tmp_path)


def test_an_input_dependent_count_is_proved_without_an_invariant(tmp_path):
    """issue 18's counting loop: `while (k > 0) { k--; i++; }` then `i == k0`."""
    src = HEAD + """int main(void) {
  int k = __VERIFIER_nondet_int();
  if (k < 0) return 0;
  int k0 = k, i = 0;
  while (k > 0) { k--; i++; }
  if (i != k0) reach_error();
  return 0;
}
"""
    r = verify_src(src, tmp_path, timeout=30)
    assert r.verdict == "TRUE", r.reason


@pytest.mark.parametrize("decls,loop", [
    ("unsigned char c = 0;", "while (c < 255) c += 2;"),  # c would wrap past 255: never ends
    ("unsigned x = 10;", "while (x >= 10) x += 2;"),  # ends only by wrapping
    ("int i = 0;", "while (i != 10) i++;"),  # signed `!=`: from above 10, only overflow ends it
    ("long long i = 0;", "while (i < 100) i++;"),  # 64-bit counter: n * d could overflow
    ("int i = 0, j = 0;", "while (i < 100) { i++; if (j < 5) j++; }"),  # a branch
    ("int i = 0, j = 0;", "while (i < 100) { i++; j = j + i; }"),  # not a constant step
    ("int i = 0, j = 0;", "while (i < 100) { i++; j++; j++; }"),  # j written twice
    ("int i = 0;", "while (i < 100) { i++; reach_error(); }"),  # a call
    ("int i = 0; int a[200];", "while (i < 100) { a[i] = 0; i++; }"),  # memory
    ("int i = 0; _Bool b = 0;", "while (i < 100) { i++; b += 1; }"),  # to _Bool: not modulo 2
])
def test_loops_that_do_not_qualify_are_left_alone(tmp_path, decls, loop):
    p = load_src(HEAD + f"int main(void) {{ {decls} {loop} return 0; }}\n", tmp_path)
    assert not accelerated(p) and loop_heads(p)
