"""Generalized (parametric) block summaries: a function of its parameters alone is analysed
once with symbolic parameters, and each call instantiates that summary.

What must hold: symbolic evaluation deferred to instantiation computes exactly what the
concrete evaluation computes (machine integers, undefined behaviour as "no value"); only
functions whose symbolic analysis is bounded and cannot lose a target are generalized; and a
program's verdicts and error paths are those of the analysis without generalization.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from cbam.engine.cache.store import CacheStore
from cbam.engine.cfa.ctype import IntType
from cbam.engine.cfa.ir import Binary, Cast, Const, Unary, Var
from cbam.engine.cfa.load import load_program
from cbam.engine.core.summaries import summary_lines
from cbam.engine.cpa.value import symbolic as sym
from cbam.engine.cpa.value.cpa import ValueCPA, evaluate, evaluate_symbolic
from cbam.engine.frontend.preprocess import PreprocessOptions
from cbam.engine.verify import VerifyOptions, run_deep, verify_program
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from .test_incremental_equivalence import observe

INT = IntType("int", 32, True, 3)
UINT = IntType("unsigned int", 32, False, 3)
CHAR = IntType("char", 8, True, 1)
LONG = IntType("long", 64, True, 4)
HEADER = ("extern int __VERIFIER_nondet_int(void);\n"
          "extern void __assert_fail(const char *, const char *, unsigned int, const char *);\n"
          'void reach_error(void) { __assert_fail("0", "p.c", 3, "reach_error"); }\n')


# ---- deferred evaluation is the concrete evaluation -------------------------------------------
def exprs(depth: int = 3):
    leaf = st.one_of(st.just(Var("f::x", INT)), st.just(Var("f::u", INT)), st.integers(-300, 300).map(lambda v: Const(v, INT)),
                     st.sampled_from([Const(2**31 - 1, INT), Const(-(2**31), INT), Const(0, INT)]))
    if depth == 0:
        return leaf
    sub = exprs(depth - 1)
    ops = ["+", "-", "*", "/", "%", "<<", ">>", "&", "|", "^", "==", "!=", "<", ">", "<=", ">="]
    return st.one_of(
        leaf,
        st.tuples(st.sampled_from(ops), sub, sub).map(lambda t: Binary(t[0], t[1], t[2], INT)),
        st.tuples(st.sampled_from(["-", "~", "!"]), sub).map(lambda t: Unary(t[0], t[1], INT)),
        st.tuples(st.sampled_from([CHAR, UINT, LONG]), sub).map(
            lambda t: Cast(Cast(t[1], t[0]), INT)),
    )


@settings(max_examples=400, deadline=None)
@given(exprs(), st.integers(-(2**31), 2**31 - 1) | st.integers(-20, 20))
def test_instantiating_a_symbolic_value_is_evaluating_it(e, x):
    # f::u has no single value (unknown), as after an overflow
    concrete = evaluate(e, {"f::x": x}.get)
    symbolic = evaluate_symbolic(e, {"f::x": sym.Param("f::x")}.get)
    assert sym.instantiate(symbolic, {"f::x": x}, {}) == concrete
    # ... and the same when the unknown is a symbolic value that has no single value
    symbolic = evaluate_symbolic(e, {"f::x": sym.Param("f::x"), "f::u": sym.Param("f::u")}.get)
    assert sym.instantiate(symbolic, {"f::x": x}, {}) == concrete


BOOL = IntType("_Bool", 8, False, 0)
ULONG = IntType("unsigned long", 64, False, 4)
TYPES = [INT, UINT, CHAR, LONG, BOOL, ULONG]


def in_range(t):
    return st.one_of(st.integers(t.min, t.max), st.sampled_from([t.min, t.max, 0, 1, -1 if t.signed else 2]))


@settings(max_examples=3000, deadline=None)
@given(st.sampled_from(["+", "-", "*", "/", "%", "<<", ">>", "&", "|", "^", "==", "!=", "<", ">", "<=", ">="]),
       st.sampled_from(TYPES), st.sampled_from(TYPES), st.data())
def test_an_instantiated_operation_is_eval_binary(op, left_t, result_t, data):
    """The operations a summary's instantiation runs (unrolled per operator and type) compute
    what cfa.semantics computes."""
    from cbam.engine.cfa.semantics import binary_function, eval_binary

    a, b = data.draw(in_range(left_t)), data.draw(in_range(left_t))
    assert binary_function(op, left_t, result_t)(a, b) == eval_binary(op, a, b, left_t, result_t)
    fn = sym._make_operation("b", op, (left_t, result_t))
    assert fn(a, b) == eval_binary(op, a, b, left_t, result_t)
    absorbed = 0 if op in ("*", "&") and 0 in (a, b) else None
    assert fn(a, None) == (0 if op in ("*", "&") and a == 0 else None)
    assert fn(None, b) == (0 if op in ("*", "&") and b == 0 else None)
    assert absorbed is None or fn(a, None) == 0 or fn(None, b) == 0

def test_symbolic_values_survive_json_with_shared_nodes():
    x = sym.Param("f::x")
    acc: object = 0
    for i in range(300):
        acc = sym.binary("+", acc, sym.binary("%", sym.binary("+", x, i, INT, INT), 3, INT, INT), INT, INT)
    both = sym.binary("+", acc, acc, INT, INT)  # shares acc: stored once
    enc = sym.Encoder()
    ref = enc.value(both)
    assert len(enc.nodes) < 1000
    back = sym.Decoder(enc.nodes).value(ref)
    assert back == both and back is not both
    for v in (0, 7, -5, 2**31 - 1):
        assert sym.instantiate(back, {"f::x": v}, {}) == sym.instantiate(both, {"f::x": v}, {})


def test_an_expression_that_grows_too_large_abandons_generalization():
    x = sym.Param("f::x")
    acc: object = x
    with pytest.raises(sym.Abandon):
        for i in range(sym.MAX_SIZE):
            acc = sym.binary("+", acc, i, INT, INT)


# ---- which functions are generalized ---------------------------------------------------------
def _program(tmp_path: Path, body: str):
    p = tmp_path / "p.c"
    p.write_text(HEADER + body + "\nint main(void) { return 0; }\n")
    return load_program(str(p), options=PreprocessOptions(data_model="LP64"))


@pytest.mark.parametrize("body, expected", [
    ("int f(int x) { int a = 0; for (int i = 0; i < 50; i++) a += (x + i) % 3; if (x > 9) return 9; return a; }",
     True),
    ("int f(int x, int y) { if (x > y) return x - y; return y - x; }", True),
    # the loop's trip count depends on x: its symbolic analysis would not terminate
    ("int f(int x) { int a = 0; while (a < x) a++; return a; }", False),
    # a branch on x inside a loop forks at every iteration
    ("int f(int x) { int a = 0; for (int i = 0; i < 9; i++) if (x > i) a++; return a; }", False),
    ("int g(int x) { return x; } int f(int x) { return g(x) + 1; }", False),  # calls
    ("int f(int x) { if (x == 3) reach_error(); return x; }", False),  # calls, and reaches an error
    ("int f(int x) { int *p = &x; return *p; }", False),  # memory
    ("int f(int x) { int n = __VERIFIER_nondet_int(); return x + n; }", False),  # nondeterminism
    ("int f(int x) { if (x > 1) x++; if (x > 2) x++; if (x > 3) x++; if (x > 4) x++; if (x > 5) x++; return x; }",
     False),  # more branch sites than MAX_BRANCH_SITES
    ("int f(void) { return 3; }", False),  # nothing to generalize
])
def test_generalizable_functions(tmp_path, body, expected):
    program = _program(tmp_path, body)
    cpa = ValueCPA(program)
    int_vars = {n for n, v in program.vars.items() if isinstance(v.type, IntType) and not v.addressed}
    assert sym.generalizable(program.functions["f"], int_vars) is expected
    assert cpa.generalizes


# ---- verdicts and paths are those of the concrete analysis --------------------------------------
def _observe(src: str, path: Path, config: str, store=None, timeout: float = 30) -> tuple:
    path.write_text(src)
    program = load_program(str(path), options=PreprocessOptions(data_model="LP64"))
    return observe(run_deep(lambda: verify_program(
        # CEGAR alone: what generalization changes is CEGAR's to report.
        program, VerifyOptions(config=config, cache=store, timeout=timeout, harness=False, path_exploration=False, horn=False))))


def _without_generalization(monkeypatch):
    monkeypatch.setattr(ValueCPA, "generalize", lambda self, reduced, block, prec: reduced)


LEAF = """int leaf(int x) {{
  int acc = {c0};
  for (int i = 0; i < {n}; i++) {{ acc = acc {op1} (x {op2} i) % {k}; }}
  if (x {cmp} {c1}) return acc {op3} {c2};
  return x {op4} acc;
}}
"""


@st.composite
def leaf_programs(draw):
    ops = ["+", "-", "*"]
    leaf = LEAF.format(c0=draw(st.integers(-5, 5)), n=draw(st.integers(0, 12)), op1=draw(st.sampled_from(ops)),
                       op2=draw(st.sampled_from(ops)), k=draw(st.sampled_from([3, 5, 7, -4])),
                       cmp=draw(st.sampled_from(["<", "<=", ">", ">=", "==", "!="])),
                       c1=draw(st.integers(-10, 10)), op3=draw(st.sampled_from(ops)), c2=draw(st.integers(-9, 9)),
                       op4=draw(st.sampled_from(ops)))
    args = draw(st.lists(st.sampled_from(["0", "1", "-3", "7", "12", "2147483647", "-2147483647", "n"]),
                         min_size=1, max_size=4))
    target = draw(st.integers(-40, 40))
    calls = "\n".join(f"  int r{j} = leaf({a});" for j, a in enumerate(args))
    total = " + ".join(f"r{j}" for j in range(len(args)))
    main = ("int main(void) {\n  int n = __VERIFIER_nondet_int();\n  if (n < -2) n = -2;\n  if (n > 2) n = 2;\n"
            f"{calls}\n  if ({total} == {target}) reach_error();\n  return 0;\n}}\n")
    return HEADER + leaf + main


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
@given(leaf_programs())
def test_generalization_reports_what_the_concrete_analysis_reports(tmp_path, monkeypatch, src):
    general = _observe(src, tmp_path / "p.c", "value")
    with monkeypatch.context() as m:
        _without_generalization(m)
        concrete = _observe(src, tmp_path / "p.c", "value")
    assert general == concrete, src


def test_a_call_chain_error_path_through_an_instantiated_summary(tmp_path):
    src = HEADER + LEAF.format(c0=0, n=10, op1="+", op2="+", k=3, cmp=">", c1=5, op3="+", c2=100, op4="+") + """
int main(void) {
  int a = leaf(2);
  int b = leaf(9);
  if (a + b == 122) reach_error();
  return 0;
}
"""
    # leaf(2): acc = sum (2+i)%3 for i < 10 = 11, returns 2 + 11; leaf(9): acc = 9, returns 9 + 100.
    store = CacheStore(tmp_path / "cache")
    result = run_deep(lambda: verify_program(
        load_program(str(_write(tmp_path / "p.c", src)), options=PreprocessOptions(data_model="LP64")),
        VerifyOptions(config="value", cache=store, timeout=30, harness=False)))
    assert result.verdict == "FALSE" and result.statistics.blocks_analysed == 3  # start, main, leaf once
    steps = result.violations[0].steps
    # Each call is shown with the value its instance returns.
    assert [(s.kind, s.message, s.range.line) for s in steps if s.kind != "branch"] == [
        ("call", "call leaf(x = 2)", 12), ("return", "leaf returns 13", 12), ("decl", "a = 13", 12),
        ("call", "call leaf(x = 9)", 13), ("return", "leaf returns 109", 13), ("decl", "b = 109", 13),
        ("error", "reach_error() is reachable", 14)]
    assert result.violations[0].range.line == 14
    with pytest.MonkeyPatch.context() as m:
        _without_generalization(m)
        concrete = _observe(src, tmp_path / "q.c", "value")
    assert observe(result)[0] == concrete[0] == "FALSE"
    assert str(observe(result)[3]).replace("p.c", "q.c") == str(concrete[3])
    # The summary is stored once, parametric; each call's instance as an ordinary entry.
    rows = store.blocks_for_function("leaf")
    parametric = [r for r in rows if "#constraints" in str(r["entry"])]
    assert len(rows) == 3 and len(parametric) == 1
    lines = summary_lines("leaf", ["x"], rows)
    assert any(line.startswith("true  ==>  ") and "x > 5" in line and "!(x > 5)" in line for line in lines), lines
    assert "x == 2  ==>  \\result == 13" in lines and "x == 9  ==>  \\result == 109" in lines, lines


def _write(p: Path, src: str) -> Path:
    p.write_text(src)
    return p


def test_an_accumulation_too_large_to_generalize_is_analysed_concretely(tmp_path):
    src = HEADER + """int leaf(int x) {
  int acc = 0;
  for (int i = 0; i < 30000; i++) { acc = acc + (x + i) % 2; }
  return acc;
}
int main(void) { if (leaf(1) != 15000) reach_error(); return 0; }
"""
    result = _observe(src, tmp_path / "p.c", "value", timeout=120)
    assert result[0] == "TRUE"
