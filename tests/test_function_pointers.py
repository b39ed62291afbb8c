"""Calls through function pointers (cfa/translate/calls.py): a call dispatches over the
functions the program names other than by calling them; a named function without a body is
called as the external function it is, only where the pointer holds its address."""

from __future__ import annotations

from pathlib import Path

from cbam.engine import api
from cbam.engine.verify import run_deep

from .conftest import assert_replay_reaches_error, check_error_path

READER = """#include <stdio.h>
#include <string.h>
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error(void) { __assert_fail("0", __FILE__, __LINE__, "reach_error"); }
typedef char *(*reader)(char *, int, void *);
struct src { const char *s; };
static char *from_string(char *buf, int n, void *p) {
    struct src *in = p;
    if (!*in->s) return NULL;
    buf[0] = *in->s++;
    buf[1] = 0;
    return buf;
}
static int count(reader r, void *arg) {
    char b[4];
    int n = 0;
    while (r(b, sizeof b, arg)) n++;
    return n;
}
/* The library also reads files: fgets has its address taken, as in inih's ini_parse_file. */
int count_file(FILE *f) { return count((reader)fgets, f); }
int main(void) {
    struct src in = { "abc" };
    if (count(from_string, &in) != %d) reach_error();
    return 0;
}
"""


def _verify(code: str, tmp_path: Path):
    path = tmp_path / "prog.c"
    path.write_text(code)
    opts = api.VerifyOptions(timeout=60)
    return path, run_deep(lambda: api.verify_entries(str(path), options=opts)).result


def test_a_callback_library_that_can_also_take_fgets_is_proved_and_refuted(tmp_path: Path) -> None:
    """Before, fgets's address made every call of ``r`` an unknown external call (with pointer
    arguments: no path could be confirmed, and the run was UNKNOWN)."""
    _, result = _verify(READER % 3, tmp_path)
    assert result.verdict == "TRUE", result.reason
    path, result = _verify(READER % 2, tmp_path)
    check_error_path(result)
    assert_replay_reaches_error(path, result, "LP64", tmp_path)


EXTERNAL = """extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error(void) { __assert_fail("0", __FILE__, __LINE__, "reach_error"); }
extern int scale(int);
static int twice(int x) { return 2 * x; }
extern int __VERIFIER_nondet_int(void);
int main(void) {
    int (*f)(int) = twice;
    if (__VERIFIER_nondet_int())
        f = scale;
    if (f(3) == 7) reach_error();
    return 0;
}
"""


def test_a_pointer_to_an_external_function_calls_it_as_external(tmp_path: Path) -> None:
    """``scale`` has no body: through the pointer it returns any value, so 7 is possible (and
    ``twice`` never gives it). The harness defines ``scale`` to return what the path needs."""
    path, result = _verify(EXTERNAL, tmp_path)
    check_error_path(result)
    assert any(s.kind == "extern" and "scale() returns 7" in s.message for s in result.violations[0].steps)
    assert_replay_reaches_error(path, result, "LP64", tmp_path)
