"""Property: building CFAs from randomly mutated C raises nothing but FrontendError."""

from __future__ import annotations

import tempfile
from pathlib import Path

from cbam.engine.cfa.load import load_program
from cbam.engine.frontend.errors import FrontendError
from cbam.engine.frontend.preprocess import PreprocessOptions
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

SEEDS = [
    """
    #include <assert.h>
    extern int __VERIFIER_nondet_int(void);
    struct s { int a; char b; };
    int g = 4;
    int f(int n) { if (n <= 0) return 0; return f(n - 1) + 1; }
    int main(void) {
      int x = __VERIFIER_nondet_int(), y = 0, *p = &y;
      struct s v = {1, 2};
      for (int i = 0; i < 3; i++) { y += i ? i : -i; if (y > 5) break; }
      switch (x) { case 1: y++; case 2: y--; break; default: *p = 3; }
      while (x-- > 0 && g) { g--; continue; }
      do { v.a <<= 1; } while (v.a < 100 || x == 7);
      assert(f(2) == 2 && v.b != 0);
      goto out;
    out:
      return (unsigned char)y + sizeof(v) + (x, y);
    }
    """,
    """
    extern unsigned __VERIFIER_nondet_uint();
    unsigned sum(unsigned n, unsigned m) { return n == 0 ? m : sum(n - 1, m + 1); }
    void reach_error() {}
    int main() { unsigned a = __VERIFIER_nondet_uint(); if (sum(a, 2) != a + 2) reach_error(); return 0; }
    """,
]
TOKENS = ["(", ")", "{", "}", ";", ",", "*", "&", "+", "-", "=", "==", "x", "int", "if", "else", "while", "return",
          "1", "0x10", "'a'", '"s"', "->", ".", "[", "]", "?", ":", "++", "goto", "case", "switch", "break",
          "continue", "#define M 3\n", "M", "__VERIFIER_nondet_int()", "1.5", "struct", "unsigned", "long"]


@st.composite
def mutated(draw):
    src = draw(st.sampled_from(SEEDS))
    for _ in range(draw(st.integers(1, 4))):
        pos = draw(st.integers(0, len(src)))
        op = draw(st.sampled_from(["insert", "delete", "replace"]))
        tok = draw(st.sampled_from(TOKENS))
        if op == "insert":
            src = src[:pos] + " " + tok + " " + src[pos:]
        elif op == "delete":
            src = src[:pos] + src[pos + draw(st.integers(1, 8)):]
        else:
            src = src[:pos] + tok + src[pos + draw(st.integers(1, 4)):]
    return src


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
# Found by this test: ``int f { ... }`` (pycparser reads a body without a parameter list), called.
@example(SEEDS[0].replace("int f(int n) {", "int f {"))
def test_only_frontend_errors_escape(src):
    with tempfile.TemporaryDirectory() as d:
        path = Path(d, "m.c")
        path.write_text(src)
        try:
            program = load_program(str(path), options=PreprocessOptions(data_model="ILP32"))
        except FrontendError as exc:
            assert exc.diagnostics and all(str(diag) for diag in exc.diagnostics)
            return
        for f in program.all_functions():
            assert f.fingerprint
