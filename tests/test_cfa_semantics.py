"""CFA construction details: conversions, side effects, error events, ranges, aliasing."""

from __future__ import annotations

import pytest
from cbam.engine.cfa.cfa import FunctionCallEdge, FunctionReturnEdge
from cbam.engine.cfa.ctype import DataModel
from cbam.engine.cfa.ir import (
    AbortEdge,
    AssignEdge,
    AssumeEdge,
    Binary,
    CallEdge,
    Cast,
    Const,
    DeclEdge,
    ExternalCallEdge,
    Nondet,
    Var,
)

from .conftest import assert_replay_reaches_error, check_error_path, load_src, verify_src


def edges(program, fn="main"):
    return list(program.functions[fn].edges())


def test_data_models_fix_long_width(tmp_path):
    for dm, bits in (("ILP32", 32), ("LP64", 64)):
        p = load_src("long g; int main(void){ return sizeof(long) + sizeof(void*); }", tmp_path, data_model=dm)
        assert p.vars["g"].type.bits == bits
        ret = [e for e in edges(p) if type(e).__name__ == "ReturnEdge"][0]
        assert isinstance(ret.value, Const) and ret.value.value == 2 * bits // 8


def test_usual_arithmetic_conversions():
    dm = DataModel("ILP32")
    assert dm.usual_arithmetic(dm.int, dm.uint) == dm.uint
    assert dm.usual_arithmetic(dm.long, dm.uint) == dm.ulong  # long is not wider than unsigned int on ILP32
    assert DataModel("LP64").usual_arithmetic(DataModel("LP64").long, DataModel("LP64").uint).name == "long"
    assert dm.usual_arithmetic(dm.char, dm.uchar) == dm.int
    assert dm.usual_arithmetic(dm.llong, dm.uint) == dm.llong
    assert dm.promote(dm.bool) == dm.int


def test_integer_constants_take_c_types(tmp_path):
    p = load_src("int main(void){ long long a = 2147483648; unsigned b = 0xFFFFFFFF; int c = '\\xff'; return 0; }",
                 tmp_path, data_model="ILP32")
    decls = {e.var.name.split("::")[1]: e for e in edges(p) if isinstance(e, DeclEdge)}
    assert decls["a"].init.value == 2147483648
    assert decls["b"].init.value == 0xFFFFFFFF
    assert decls["c"].init.value == -1  # plain char is signed


def test_comparison_mixing_signedness_is_converted(tmp_path):
    p = load_src("int main(void){ unsigned u = 1; int i = -1; if (u > i) return 1; return 0; }", tmp_path)
    cond = [e for e in edges(p) if isinstance(e, AssumeEdge)][0].cond
    assert isinstance(cond, Binary) and cond.left.type.name == "unsigned int"
    assert isinstance(cond.right, Cast) and cond.right.type.name == "unsigned int"


def test_side_effects_become_edges(tmp_path):
    p = load_src("int f(int a){return a;} int main(void){ int x = 0; int y = f(x++) + (x += 2); return y; }",
                 tmp_path)
    kinds = [type(e).__name__ for e in edges(p)]
    assert "CallEdge" in kinds
    assigns = [e for e in edges(p) if isinstance(e, AssignEdge)]
    assert len(assigns) >= 3  # temp for x++, x = x + 1, x += 2


def test_short_circuit_and_ternary_are_branches(tmp_path):
    p = load_src("int main(void){ int a = 1, b = 0; int c = (a && b) ? 3 : 4; return c; }", tmp_path)
    assumes = [e for e in edges(p) if isinstance(e, AssumeEdge)]
    assert {str(e.cond) for e in assumes} == {"a", "b"}


def test_nondet_assume_assert_abort_and_error(tmp_path):
    src = """
    extern int __VERIFIER_nondet_int(void);
    extern char __VERIFIER_nondet_char(void);
    void reach_error(void) { }
    int main(void) {
      int x = __VERIFIER_nondet_int();
      char c = __VERIFIER_nondet_char();
      __VERIFIER_assume(x > 3);
      if (c) abort();
      if (x == 7) reach_error();
      return 0;
    }"""
    p = load_src(src, tmp_path)
    es = edges(p)
    nondets = [e for e in es if isinstance(e, DeclEdge) and isinstance(e.init, Nondet)]
    assert [n.init.type.name for n in nondets] == ["int", "char"]
    assert any(isinstance(e, AbortEdge) for e in es)
    errors = [n for n in p.functions["main"].nodes if n.error is not None]
    assert len(errors) == 1 and errors[0].error.kind == "reach_error"
    # The body of reach_error is never analysed: main does not call it.
    assert not any(isinstance(e, CallEdge) and e.callee == "reach_error" for e in es)


def test_external_functions_are_sound(tmp_path):
    p = load_src("int g; int lib(int *p); int main(void){ int v = 1; int r = lib(&v); return r + g; }", tmp_path)
    ext = [e for e in edges(p) if isinstance(e, ExternalCallEdge)][0]
    assert ext.callee == "lib" and ext.writes_globals
    assert p.vars["main::v"].addressed  # visible as aliased


def test_write_through_pointer_is_visible(tmp_path):
    p = load_src("int main(void){ int v = 1; int *q = &v; *q = 2; return v; }", tmp_path)
    assert p.vars["main::v"].addressed
    writes = [e for e in edges(p) if isinstance(e, AssignEdge)]
    assert type(writes[0].lhs).__name__ == "Deref"


def test_shadowed_locals_get_distinct_names(tmp_path):
    p = load_src("int main(void){ int x = 1; { int x = 2; x++; } return x; }", tmp_path)
    decls = [e.var.name for e in edges(p) if isinstance(e, DeclEdge)]
    assert decls == ["main::x", "main::x.1"]


def test_globals_and_static_locals_are_initialised_in_start(tmp_path):
    p = load_src("int g = 3; int h; int f(void){ static int n = 5; return n++; } int main(void){ return f() + g + h; }",
                 tmp_path)
    start = list(p.start.edges())
    inits = {e.var.name: e.init for e in start if isinstance(e, DeclEdge)}
    assert inits["g"].value == 3 and inits["h"].value == 0
    assert any("n" in k for k in inits)
    assert isinstance(start[-2], CallEdge) and start[-2].callee == "main"


def test_ranges_are_exact(tmp_path):
    src = "int main(void) {\n  int  x =   1;\n  if (x   >  0 && x < 5)\n    x = x + 1;\n  return x;\n}\n"
    p = load_src(src, tmp_path)
    es = edges(p)
    cond = [e for e in es if isinstance(e, AssumeEdge)][0]
    r = cond.range
    assert (r.line, r.col, r.end_line, r.end_col) == (3, 7, 3, 15)
    assert cond.text == "x   >  0"
    assign = [e for e in es if isinstance(e, AssignEdge)][0]
    assert (assign.range.line, assign.range.col, assign.range.end_col) == (4, 5, 14)


def test_ranges_survive_macros_and_comments(tmp_path):
    src = "#define LIMIT 10 /* c */\nint main(void) {\n  /* a comment */ int y = LIMIT;\n  return y;\n}\n"
    p = load_src(src, tmp_path)
    decl = [e for e in edges(p) if isinstance(e, DeclEdge)][0]
    assert decl.range.line == 3 and decl.range.col == 23
    assert decl.text == "y = LIMIT"


def test_unsupported_construct_only_marks_its_function(tmp_path):
    p = load_src("double half(double d){ return d / 2; } int main(void){ return 0; }", tmp_path)
    assert p.functions["half"].unsupported is not None
    assert p.functions["main"].unsupported is None
    assert p.diagnostics and "floating-point" in p.diagnostics[0].message
    assert p.diagnostics[0].line == 1


def test_switch_fallthrough_and_default(tmp_path):
    p = load_src("int main(void){ int x = 2, y = 0; switch (x) { case 1: y = 1; case 2: y += 2; break; "
                 "default: y = 9; } return y; }", tmp_path)
    assumes = [str(e.cond) for e in edges(p) if isinstance(e, AssumeEdge) and e.truth]
    assert assumes == ["x == 1", "x == 2"]


def test_var_types_are_recorded(tmp_path):
    p = load_src("typedef unsigned short u16; u16 g; int main(void){ return g; }", tmp_path)
    assert p.vars["g"].type.name == "unsigned short"
    assert isinstance(Var("g", p.vars["g"].type), Var)


def test_call_and_return_edges_connect_the_cfas(tmp_path):
    p = load_src("int f(int a) { return a + 1; } int main(void) { int x = f(1); return f(x); }", tmp_path)
    ip = p.interprocedural_edges()
    calls = [e for e in ip if isinstance(e, FunctionCallEdge) and e.pred.function == "main"]
    rets = [e for e in ip if isinstance(e, FunctionReturnEdge) and e.succ.function == "main"]
    assert len(calls) == 2 and len(rets) == 2
    assert all(e.succ is p.functions["f"].entry for e in calls)
    assert all(e.pred is p.functions["f"].exit for e in rets)
    summaries = [e for e in edges(p) if isinstance(e, CallEdge)]
    assert {e.summary for e in calls} == set(summaries)  # each call site: summary, call and return edge
    from cbam.engine.cfa.dot import program_dot

    assert program_dot(p).count('label="call"') >= 2


def test_a_floating_type_cbam_does_not_support_has_no_size(tmp_path) -> None:
    """The front end's placeholder for an unsupported floating type (a struct field, say) has no
    size: a layout through it is unknown, never an internal error. ofuf_1 (loop-industry-pattern,
    bench/loops) crashed under a short limit when pointer arithmetic stepped over such a struct."""
    from cbam.engine.cfa.ctype import FloatType, StructType

    from .conftest import ROOT, verify_src

    for name in ("LP64", "ILP32"):
        dm = DataModel(name)
        odd = FloatType("unsupported:floating-point types")
        assert dm.sizeof(odd) is None and dm.alignof(odd) is None
        s = StructType("s", False)
        assert dm.sizeof(s, {s.key(): [("x", dm.int), ("f", odd)]}) is None
    src = ROOT / "bench" / "loops" / "c" / "loop-industry-pattern" / "ofuf_1.c"
    r = verify_src(src.read_text(), tmp_path, timeout=5, name="ofuf_1.c")
    assert r.verdict in ("TRUE", "UNKNOWN") and r.reason_kind != "internal-error", r.reason


FLOAT_NONDET = """extern double __VERIFIER_nondet_double(void);
extern float __VERIFIER_nondet_float(void);
extern void reach_error(void);
int main(void) {
  int a = __VERIFIER_nondet_double();
  short s;
  s = __VERIFIER_nondet_float();
  if (a == 123456789 && s == -300) reach_error();
  return 0;
}
"""


def test_a_floating_nondet_value_into_an_integer_it_holds_exactly_is_that_integers_nondet(tmp_path):
    """nla-digbench's `int A; A = __VERIFIER_nondet_double();`: every int is a double's exact
    value, so the assignment gives any int; the harness's __VERIFIER_nondet_double returns a
    double (its declared type), which the program converts back."""
    p = load_src(FLOAT_NONDET, tmp_path)
    assert p.functions["main"].unsupported is None
    values = [x for e in edges(p) for x in (getattr(e, "init", None), getattr(e, "rhs", None)) if isinstance(x, Nondet)]
    assert sorted((x.source, str(x.type)) for x in values) == \
        [("__VERIFIER_nondet_double", "int"), ("__VERIFIER_nondet_float", "short")]
    r = verify_src(FLOAT_NONDET, tmp_path, name="f.c")
    check_error_path(r)
    assert {(i.source, i.value) for i in r.violations[0].inputs} == \
        {("__VERIFIER_nondet_double", 123456789), ("__VERIFIER_nondet_float", -300)}
    harness = r.violations[0].harness
    assert "double __VERIFIER_nondet_double()" in harness and "123456789.0" in harness
    assert "float __VERIFIER_nondet_float()" in harness and "-300.0f" in harness
    assert_replay_reaches_error(tmp_path / "f.c", r, "LP64", tmp_path)


def test_a_floating_nondet_value_an_integer_does_not_hold_exactly_stays_unsupported(tmp_path):
    """Not every long long is a double (nor every int a float): reading the nondet as any
    integer could make up a counterexample no real double gives."""
    for decl in ("long long a = __VERIFIER_nondet_double();", "int a = __VERIFIER_nondet_float();",
                 "int a = 2 * __VERIFIER_nondet_double();"):
        src = FLOAT_NONDET.replace("int a = __VERIFIER_nondet_double();", decl)
        r = verify_src(src, tmp_path, name="g.c")
        assert r.verdict == "UNKNOWN" and "floating-point" in r.reason, (decl, r.reason)


def test_every_expression_kind_pickles_as_itself():
    """Expressions unpickle through their constructor (ir.Expr.__reduce__); every kind, the
    variable-length array's included, must come back with every field as it was."""
    import dataclasses
    import pickle
    import sys

    from cbam.engine.cfa import ir
    from cbam.engine.cfa.ctype import IntType
    from cbam.engine.cfa.translate import vla

    int_t = IntType("int", 32, True, 3)
    sample = {"type": int_t, "value": -7, "name": "f::x", "op": "+", "field": "next", "text": "ab",
              "kind": "deref", "source": "__VERIFIER_nondet_int", "truth": False}

    def kinds(cls):
        for sub in cls.__subclasses__():
            yield sub
            yield from kinds(sub)

    seen = set()
    for cls in kinds(ir.Expr):
        # (dataclass(slots=True) makes a new class; the one it replaced may linger here)
        if not dataclasses.is_dataclass(cls) or getattr(sys.modules[cls.__module__], cls.__name__, None) is not cls:
            continue
        values = {}
        for f in dataclasses.fields(cls):
            values[f.name] = sample.get(f.name, ir.Var(f"f::{f.name}", int_t))
        e = cls(**values)
        back = pickle.loads(pickle.dumps(e, protocol=pickle.HIGHEST_PROTOCOL))
        assert type(back) is cls
        assert {f.name: getattr(back, f.name) for f in dataclasses.fields(cls)} == values, cls
        seen.add(cls.__name__)
    assert {"Const", "Var", "Binary", "Cast", "Deref", "Index", "Valid", "Nondet"} <= seen
    assert {c.__name__ for c in (vla.VlaSlice, vla.VlaPointer)} <= seen


SIZEOF = """#include <assert.h>
int main(void) {
  int a[6] = {1};
  unsigned long s = sizeof "za", c = sizeof(0, a), p = sizeof(int *);
  assert(CHECK);
  return 0;
}
"""


@pytest.mark.parametrize("data_model", ["LP64", "ILP32"])
def test_sizeof_a_string_literal_and_a_comma_expression(tmp_path, data_model):
    """A string literal is an array (``sizeof "za" == 3``), and a comma expression's value is
    not: ``(0, a)`` is a pointer. cbam had taken a pointer's size for the first and the
    array's for the second, and proved assertions that fail when the program runs."""
    good = verify_src(SIZEOF.replace("CHECK", "s == 3 && c == p"), tmp_path, data_model=data_model)
    assert good.verdict == "TRUE", good.reason
    for i, wrong in enumerate(["s == p", "c == sizeof a"]):
        name = f"wrong{i}.c"
        r = verify_src(SIZEOF.replace("CHECK", wrong), tmp_path, data_model=data_model, name=name)
        assert r.verdict == "FALSE", (wrong, r.reason)
        check_error_path(r)
        assert_replay_reaches_error(tmp_path / name, r, data_model, tmp_path)


def test_wide_string_literals_have_wide_elements(tmp_path):
    """L"ab" is an array of wchar_t (int on x86 Linux), not of char (tests/test_gnu_syntax.py
    checks literals of every width against gcc)."""
    src = '#include <assert.h>\nint main(void) { assert(sizeof(L"ab"[0]) == 4 && L"ab"[1] == 98); return 0; }\n'
    assert verify_src(src, tmp_path).verdict == "TRUE"
    r = verify_src(src.replace("== 4", "== 1"), tmp_path, name="narrow.c")
    assert r.verdict == "FALSE", r.reason


ALIGN = """#include <assert.h>
struct S { long long x; };
typedef long long A2[2];
int main(void) {
  int a = __alignof__(long long), b = __alignof__(A2), c = __alignof__(struct S), d = _Alignof(long long);
  char buf[__alignof__(long long)];
  assert(a == A && b == a && c == C && d == D && sizeof buf == a);
  return 0;
}
"""


@pytest.mark.parametrize("data_model, c, d", [("LP64", 8, 8), ("ILP32", 4, 4)])
def test_gnu_alignof_is_the_preferred_alignment(tmp_path, data_model, c, d):
    """On i386 gcc prefers 8 for long long (``__alignof__``) where the ABI says 4 (``_Alignof``,
    and a struct's alignment): cbam had read ``__alignof__`` as ``_Alignof`` (a wrong TRUE for
    ``__alignof__(long long) == 4``, found by fuzzing against gcc -m32)."""
    src = ALIGN.replace("C &&", f"{c} &&").replace("D &&", f"{d} &&")
    r = verify_src(src.replace("== A &&", "== 8 &&"), tmp_path, data_model=data_model)
    assert r.verdict == "TRUE", r.reason
    r = verify_src(src.replace("== A &&", "== 4 &&"), tmp_path, data_model=data_model, name="w.c")
    assert r.verdict == "FALSE"
    check_error_path(r)
    assert_replay_reaches_error(tmp_path / "w.c", r, data_model, tmp_path)


def test_lifetimes_end_where_control_leaves_a_block(tmp_path):
    """An edge ends the lifetimes of a block's variables in memory (aggregates, variables whose
    address is taken) wherever control leaves the block: at its end, at a break or a continue.
    Not the function's outermost block (the return ends its variables), and not variables that
    never live in memory."""
    from cbam.engine.cfa.ir import BlankEdge

    p = load_src("""int main(void) {
  int top[2]; int *p = top; int n = 3;
  while (n--) {
    int a[2]; int plain = n; int x;
    p = &x;
    if (n == 1) { struct { int f; } s; s.f = plain; break; }
    if (n == 2) continue;
    a[0] = plain;
  }
  return *p;
}
""", tmp_path)
    ends = [(e.range.line if e.range else None, [v.name for v in e.ends]) for e in edges(p)
            if isinstance(e, BlankEdge) and e.ends]
    assert sorted(ends) == [(6, ["main::s", "main::x", "main::a"]), (7, ["main::x", "main::a"]),
                            (9, ["main::x", "main::a"])]


def test_a_goto_out_of_blocks_ends_their_lifetimes(tmp_path):
    from cbam.engine.cfa.ir import BlankEdge

    code = """int main(void) {
  int *p = 0;
  { int x = 1; p = &x;
    { int y[2]; if (*p) goto out; y[0] = 0; goto inner; inner: p = &y[1]; }
  }
out:
  return *p;
}
"""
    p = load_src(code, tmp_path)
    ends = sorted((e.range.line, [v.name for v in e.ends]) for e in edges(p) if isinstance(e, BlankEdge) and e.ends)
    # (the goto to `inner` stays in its block: it ends nothing)
    assert ends == [(4, ["main::y"]), (4, ["main::y", "main::x"]), (5, ["main::x"])]
    r = verify_src(code, tmp_path, property="memsafety")
    assert r.verdict == "FALSE" and r.violations[0].kind == "valid-deref", r.reason
    check_error_path(r)
