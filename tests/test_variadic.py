"""Variadic functions the program defines: <stdarg.h>'s va_start, va_arg, va_copy and va_end, a
va_list passed on to a helper, calls through a function pointer, the default argument promotions
at the call, structs by value, in both data models. Each value is gcc's (gcc_oracle.py): cbam proves it and refutes
it off by one, with the value analysis alone and with the default configuration (whose FALSE the
bit-precise path check confirms)."""

from __future__ import annotations

from pathlib import Path

import pytest
from cbam.engine.cfa.ir import CallEdge, DeclEdge

from .conftest import load_src, verify_src
from .gcc_oracle import check_against_gcc

MODELS = ["LP64", "ILP32"]

VARIADIC = """
#include <stdarg.h>
int sum(int n, ...) {
  va_list ap; int s = 0;
  va_start(ap, n);
  for (int i = 0; i < n; i++) s += va_arg(ap, int);
  va_end(ap);
  return s;
}
long long mixed(const char *fmt, ...) {   /* one letter per argument: i int, l long long, p char * */
  va_list ap; long long r = 0;
  va_start(ap, fmt);
  for (const char *f = fmt; *f; f++) {
    if (*f == 'i') r = r * 3 + va_arg(ap, int);
    else if (*f == 'l') r = r * 5 + va_arg(ap, long long);
    else if (*f == 'u') r = r * 7 + va_arg(ap, unsigned long);
    else { char *p = va_arg(ap, char *); r = r * 11 + p[1]; }
  }
  va_end(ap);
  return r;
}
int vsum(int n, va_list ap) { int s = 0; while (n-- > 0) s = s * 10 + va_arg(ap, int); return s; }
int outer(int n, ...) { va_list ap; va_start(ap, n); int r = vsum(n, ap); va_end(ap); return r; }
int twice(int n, ...) {      /* va_copy: two independent walks over the same arguments */
  va_list ap, aq; va_start(ap, n); va_copy(aq, ap);
  int a = vsum(n, ap), b = vsum(n, aq);
  va_end(aq); va_end(ap);
  return a * 1000 + b;
}
int first_then(int n, ...) { /* on x86-64 vsum moves this frame's va_list on; on i386 it gets a copy */
  va_list ap; va_start(ap, n);
  int a = vsum(1, ap);
  int b = va_arg(ap, int);
  va_end(ap);
  return a * 100 + b;
}
int restart(int n, ...) {    /* va_start again after va_end */
  va_list ap; int a, b;
  va_start(ap, n); a = va_arg(ap, int); va_end(ap);
  va_start(ap, n); b = va_arg(ap, int); b = va_arg(ap, int); va_end(ap);
  return a * 10 + b;
}
int promoted(int n, ...) {   /* char, short, _Bool and unsigned char arrive as int */
  va_list ap; va_start(ap, n);
  int a = va_arg(ap, int), b = va_arg(ap, int), c = va_arg(ap, int), d = va_arg(ap, int);
  unsigned e = va_arg(ap, unsigned);
  va_end(ap);
  return a * 1000000 + b * 1000 + c * 100 + d + (int)(e >> 28);
}
struct rec { char c; int a; long long b; };
struct small { short x; };
long long records(int n, ...) { /* structs by value: a slot of their size, rounded up to a word */
  va_list ap; long long r = 0;
  va_start(ap, n);
  for (int i = 0; i < n; i++) {
    struct rec v = va_arg(ap, struct rec);
    struct small w = va_arg(ap, struct small);
    r = r * 7 + v.c + v.a * 10 + v.b * 100 + w.x * 1000;
  }
  va_end(ap);
  return r;
}
int main(void) {
  char c = -3; short s = 300; _Bool b = 7; unsigned char uc = 250; unsigned u = 0xF0000000u;
  CHECK(sum(3, 1, 2, 3));
  CHECK(sum(0));
  CHECK(sum(1, -8));
  CHECK(promoted(5, c, s, b, uc, u));
  CHECK(mixed("ilpi", 4, 5000000000LL, "xyz", -2));
  CHECK(mixed("uli", (unsigned long)-1, -7LL, 9));
  CHECK(outer(3, 1, 2, 3));
  CHECK(twice(2, 4, 5));
  CHECK(first_then(0, 6, 7));
  CHECK(restart(0, 8, 9));
  int (*fp)(int, ...) = sum;
  CHECK(fp(2, 20, 22));
  struct rec r1 = { 1, 2, 3 }, r2 = { -4, 5, 6 };
  struct small s1 = { 7 }, s2 = { 8 };
  CHECK(records(2, r1, s1, r2, s2));
  CHECK(sizeof(va_list));
  int k = 0;
  for (int i = 1; i <= 3; i++) k += sum(i, i, i, i);
  CHECK(k);
  return 0;
}
"""


@pytest.mark.parametrize("model", MODELS)
def test_variadic_functions_mean_what_gcc_makes_of_them(model: str, tmp_path: Path) -> None:
    values = check_against_gcc(VARIADIC, tmp_path, model, timeout=120)
    assert values[-2] == (24 if model == "LP64" else 4)  # va_list is gcc's own type
    # On x86-64 a va_list passed on is a pointer to the caller's: vsum's va_arg moves it.
    assert values[8] == (607 if model == "LP64" else 606)
    check_against_gcc(VARIADIC, tmp_path, model, timeout=120, mutant=3, config="value")


@pytest.mark.parametrize("model", MODELS)
def test_extra_arguments_live_in_the_callers_frame(model: str, tmp_path: Path) -> None:
    """Each call stores its promoted extra arguments in an object of its own, a word per slot
    (4 bytes on i386, 8 on x86-64, long long taking two on i386), and passes its address as the
    callee's hidden last parameter; a call without extra arguments passes NULL."""
    p = load_src("#include <stdarg.h>\nint f(int n, ...) { va_list ap; va_start(ap, n); va_end(ap); return n; }\n"
                 "int main(void) { char c = 1; return f(1, c, 2LL, &c) + f(0); }", tmp_path, data_model=model)
    assert all(fn.unsupported is None for fn in p.functions.values()), p.diagnostics
    assert [v.split("::")[1] for v in p.functions["f"].params] == ["n", "__cbam_va_area"]
    areas = [e.var for e in p.functions["main"].edges() if isinstance(e, DeclEdge) and "__va_args" in e.var.name]
    assert len(areas) == 1
    assert p.data_model.sizeof(areas[0].type) == (24 if model == "LP64" else 16)
    calls = [e for e in p.functions["main"].edges() if isinstance(e, CallEdge)]
    assert len(calls) == 2 and all(len(e.args) == 2 for e in calls)


OVERREAD = """
#include <stdarg.h>
extern int __VERIFIER_nondet_int(void);
int sum(int n, ...) {
  va_list ap; int s = 0;
  va_start(ap, n);
  for (int i = 0; i < n; i++) s += va_arg(ap, int);
  va_end(ap);
  return s;
}
int main(void) { int n = __VERIFIER_nondet_int(); if (n < 0 || n > 2) return 0; return sum(n, 1, 2); }
"""


@pytest.mark.parametrize("model", MODELS)
def test_reading_past_the_arguments_is_an_invalid_read(model: str, tmp_path: Path) -> None:
    """va_arg past the last argument reads outside the arguments' object. (gcc's code reads on
    into the stack or the register save area without a fault, so the command line's native
    replay cannot confirm this FALSE: it answers UNKNOWN.)"""
    r = verify_src(OVERREAD, tmp_path, model, timeout=60, property="memsafety")
    assert r.verdict == "TRUE", r.reason
    for bad in (OVERREAD.replace("n > 2", "n > 3"), OVERREAD.replace("sum(n, 1, 2)", "sum(n)")):
        r = verify_src(bad, tmp_path, model, timeout=60, property="memsafety", name="bad.c")
        assert r.verdict == "FALSE" and r.violations[0].kind == "valid-deref", r.reason
