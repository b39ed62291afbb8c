"""The seeds' worked examples (bam-digest §6, cpa-value-cparec-digest §5) and engine behaviour.

Every FALSE has its error path checked and its inputs replayed through the harness.
"""

from __future__ import annotations

import pytest

from .conftest import assert_replay_reaches_error, check_error_path, verify_src

NONDET = """extern int __VERIFIER_nondet_int(void);
extern unsigned __VERIFIER_nondet_uint(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error(void) { __assert_fail("0", "prog.c", 3, "reach_error"); }
"""


def expect_false(src, tmp_path, data_model="LP64", **kw):
    r = verify_src(src, tmp_path, data_model=data_model, **kw)
    assert r.verdict == "FALSE", r.reason
    check_error_path(r)
    assert_replay_reaches_error(tmp_path / "prog.c", r, data_model, tmp_path)
    return r


def test_bam_example2_unsafe_needs_two_iterations(tmp_path):
    src = NONDET + """
    int f(int x) { if (x <= 0) { return 0; } else { int tmp = f(x - 1); return tmp + 1; } }
    int main(void) { int a = __VERIFIER_nondet_int(); int b = f(a); if (b == 1) { reach_error(); } return 0; }
    """
    r = expect_false(src, tmp_path)
    assert r.statistics.fixpoint_iterations >= 2
    assert [i.value for i in r.violations[0].inputs] == [1]
    calls = [s.message for s in r.violations[0].steps if s.kind == "call"]
    assert calls == ["call f(x = 1)", "call f(x = 0)"]


def test_bam_example3_safe_by_explicit_unrolling(tmp_path):
    src = NONDET + """
    int f(int x) { if (x <= 0) { return x; } else { int tmp = f(x - 1); return tmp + 1; } }
    int main(void) { int a = 2; int b = f(a); if (b != 2) { reach_error(); } return 0; }
    """
    assert verify_src(src, tmp_path).verdict == "TRUE"


@pytest.mark.parametrize("arg,verdict", [(4, "FALSE"), (2, "TRUE")])
def test_afterrec(tmp_path, arg, verdict):
    src = NONDET + f"""
    void f(int n) {{ if (n < 3) return; n--; f(n); reach_error(); }}
    int main(void) {{ f({arg}); return 0; }}
    """
    if verdict == "FALSE":
        expect_false(src, tmp_path)
    else:
        assert verify_src(src, tmp_path).verdict == "TRUE"


def test_id_bounded_output_fixpoint_is_safe(tmp_path):
    src = NONDET + """
    unsigned id(unsigned x) { if (x == 0) return 0; unsigned r = id(x - 1) + 1; if (r > 2) return 2; return r; }
    int main(void) { unsigned in = __VERIFIER_nondet_uint(); if (id(in) == 3) reach_error(); return 0; }
    """
    r = verify_src(src, tmp_path, horn=False)  # BAM's fixpoint is what this is about
    assert r.verdict == "TRUE"
    assert r.statistics.fixpoint_iterations >= 3  # the summary grows 0, 1, 2 before it is inductive


def test_id_bounded_output_false_variant(tmp_path):
    src = NONDET + """
    unsigned id(unsigned x) { if (x == 0) return 0; unsigned r = id(x - 1) + 1; if (r > 3) return 3; return r; }
    int main(void) { unsigned in = __VERIFIER_nondet_uint(); if (id(in) == 2) reach_error(); return 0; }
    """
    r = expect_false(src, tmp_path)
    assert r.violations[0].inputs[0].value == 2


def test_id_i5_o5_false(tmp_path):
    src = NONDET + """
    int id(int x) { if (x == 0) return 0; return id(x - 1) + 1; }
    int main(void) { if (id(5) == 5) reach_error(); return 0; }
    """
    expect_false(src, tmp_path)


@pytest.mark.parametrize("check,verdict", [("!=", "TRUE"), ("==", "FALSE")])
def test_sum_2x3(tmp_path, check, verdict):
    src = NONDET + f"""
    int sum(int n, int m) {{ if (n <= 0) return m + n; return sum(n - 1, m + 1); }}
    int main(void) {{ int a = 2, b = 3; if (sum(a, b) {check} a + b) reach_error(); return 0; }}
    """
    if verdict == "FALSE":
        expect_false(src, tmp_path)
    else:
        assert verify_src(src, tmp_path).verdict == "TRUE"


def test_bam_example1_sum_is_relational(tmp_path):
    # Proving ret == n + m needs a relational summary: the value analysis must not claim
    # anything wrong (it says UNKNOWN and why); the default, value+predicate, proves it.
    src = NONDET + """
    unsigned sum(unsigned n, unsigned m) { if (n == 0) { return m; } else { unsigned tmp = sum(n - 1, m + 1);
      return tmp; } }
    int main(void) { unsigned a = __VERIFIER_nondet_uint(), b = __VERIFIER_nondet_uint();
      unsigned s = sum(a, b); if (s != a + b) { reach_error(); } return 0; }
    """
    r = verify_src(src, tmp_path, config="value", horn=False)  # the value analysis's own answer
    assert r.verdict == "UNKNOWN"
    assert "relations between unknown values" in r.reason
    r = verify_src(src, tmp_path)
    assert r.verdict == "TRUE", r.reason


def test_explicit_value_cegar_example_ev1(tmp_path):
    # [EV] Fig. 1: only `flag` must be tracked; `ticks` stays abstract and the loop need not unroll.
    src = """
    extern int system_call();
    void reach_error(void) { }
    int main(int x) {
      int flag, ticks, result;
      flag = 0; ticks = 0;
      while (1) {
        ticks = ticks + 1;
        result = system_call();
        if (result == 0 || ticks > x) { break; }
      }
      if (flag > 0) { reach_error(); return 1; }
      return 0;
    }
    """
    r = verify_src(src, tmp_path)
    assert r.verdict == "TRUE"


def test_mccarthy91_does_not_get_a_wrong_verdict(tmp_path):
    src = NONDET + """
    int mc91(int m) { if (m > 100) return m - 10; int s = mc91(m + 11); return mc91(s); }
    int main(void) { int n = __VERIFIER_nondet_int(); if (n < 0) return 0; if (mc91(n) < 90) reach_error();
      return 0; }
    """
    assert verify_src(src, tmp_path, timeout=20).verdict in ("TRUE", "UNKNOWN")


def test_mutual_recursion_even_odd(tmp_path):
    src = NONDET + """
    int odd(int n);
    int even(int n) { if (n == 0) return 1; return odd(n - 1); }
    int odd(int n) { if (n == 0) return 0; return even(n - 1); }
    int main(void) { if (even(6) != 1) reach_error(); if (odd(3) != 1) reach_error(); return 0; }
    """
    assert verify_src(src, tmp_path).verdict == "TRUE"


def test_machine_integers_ilp32_vs_lp64(tmp_path):
    src = NONDET + """
    int main(void) { long x = 2147483647L; x = x + 1; if (x > 0) reach_error(); return 0; }
    """
    # LP64: long is 64-bit and x + 1 > 0 holds: the error is reachable.
    expect_false(src, tmp_path, data_model="LP64")
    # ILP32: long is 32-bit: x + 1 overflows (undefined); cbam must not claim TRUE.
    r = verify_src(src, tmp_path, data_model="ILP32")
    assert r.verdict != "TRUE"


def test_unsigned_wraparound_bug(tmp_path):
    src = NONDET + """
    int main(void) { unsigned a = __VERIFIER_nondet_uint(); unsigned b = a + 1;
      if (b < a) reach_error(); return 0; }
    """
    r = expect_false(src, tmp_path, data_model="ILP32")
    assert r.violations[0].inputs[0].value == 4294967295


def test_pointer_aliasing_is_sound(tmp_path):
    src = NONDET + """
    void set(int *p) { *p = 5; }
    int main(void) { int v = 1; set(&v); if (v == 1) return 0; reach_error(); return 0; }
    """
    # The write through p may change v: a TRUE here would be wrong.
    assert verify_src(src, tmp_path).verdict != "TRUE"


def test_external_function_may_write_globals(tmp_path):
    src = NONDET + """
    int g = 0; void lib(void);
    int main(void) { lib(); if (g != 0) reach_error(); return 0; }
    """
    r = verify_src(src, tmp_path)
    assert r.verdict == "FALSE"  # lib() may set g: the model says how
    check_error_path(r)


def test_all_violations_are_found(tmp_path):
    src = NONDET + """
    #include <assert.h>
    int main(void) { int x = __VERIFIER_nondet_int(); assert(x != 3); assert(x != 4); return 0; }
    """
    r = verify_src(src, tmp_path, max_violations=10)
    assert r.verdict == "FALSE"
    assert sorted(v.message.split(" (")[0] for v in r.violations) == ["assertion `x != 3` may fail",
                                                                      "assertion `x != 4` may fail"]
    for v in r.violations:
        assert v.range.line == 7


def test_timeout_gives_unknown(tmp_path):
    from .programs import SLOW  # k-induction proves the same loop over a plain variable at once

    r = verify_src(SLOW, tmp_path, timeout=2)
    assert r.verdict == "UNKNOWN" and r.reason == "timeout"


def test_verifier_assert_wrapper_reports_at_the_call(tmp_path):
    src = """
    extern int __VERIFIER_nondet_int(void);
    extern void abort(void);
    extern void __assert_fail(const char *, const char *, unsigned int, const char *);
    void reach_error() { __assert_fail("0", "prog.c", 3, "reach_error"); }
    void __VERIFIER_assert(int cond) { if (!(cond)) { ERROR: {reach_error(); abort();} } return; }
    int main(void) {
      int x = __VERIFIER_nondet_int();
      __VERIFIER_assert(x < 10);
      return 0;
    }
    """
    r = expect_false(src, tmp_path)
    v = r.violations[0]
    assert v.message.startswith("assertion `x < 10` may fail")
    assert v.range.line == 9


def test_deep_recursion_is_handled(tmp_path):
    src = NONDET + """
    int down(int n) { if (n == 0) return 0; return down(n - 1) + 1; }
    int main(void) { if (down(300) != 300) reach_error(); return 0; }
    """
    assert verify_src(src, tmp_path).verdict == "TRUE"


def test_confirmed_violation_survives_a_timeout_of_the_further_search(tmp_path):
    # After the first violation the search goes on (as in the editor); counting down an unknown n
    # never converges in the value domain, so the time runs out: the confirmed violation stands.
    src = NONDET + """
    int rdown(int n) { if (n <= 0) return 0; return rdown(n - 1) + 1; }
    int main(void) { int n = __VERIFIER_nondet_int(); if (n > 2) n = 2; if (n < 0) n = 0;
      if (rdown(n) == 2) reach_error(); return 0; }
    """
    r = verify_src(src, tmp_path, timeout=4, max_violations=20)
    assert r.verdict == "FALSE" and len(r.violations) == 1
    check_error_path(r)


def test_message_names_every_kind_of_input(tmp_path):
    src = NONDET + """
    int check(int a) { int s = 0; for (int i = 0; i < 8; i++) s += __VERIFIER_nondet_int() % 2;
      if (s == 8 && a == 3) reach_error(); return s; }
    int main(void) { return check(__VERIFIER_nondet_int()); }
    """
    r = verify_src(src, tmp_path)
    check_error_path(r)
    msg = r.violations[0].message
    assert "__VERIFIER_nondet_int() = " in msg and "and 3 more inputs" in msg
    lib = tmp_path / "lib"
    lib.mkdir()
    r = verify_src(NONDET + "void f(int a) { if (a == 9) reach_error(); }", lib, entry="f")
    assert r.violations[0].message.endswith("(for example when a = 9)")
