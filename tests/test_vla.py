"""Variable-length arrays with any number of variable lengths (cfa/translate/vla.py): each length
is kept in a hidden variable when the declaration runs, the array is one object of their product
of elements, and indexing and sizeof use the hidden lengths (row-major). Checked in the front end,
in the value analysis, in the exact path check and its gcc-replayed harness (LP64 and ILP32), and
in the memory-safety check (an access outside the whole object is an invalid dereference)."""

from __future__ import annotations

from pathlib import Path

import pytest
from cbam.engine import api
from cbam.engine.cfa.ctype import ArrayType, PointerType
from cbam.engine.cfa.ir import AssignEdge, Binary, Cast, Const, DeclEdge, Expr, Index, Var

from .conftest import (
    assert_replay_reaches_error,
    check_error_path,
    load_src,
    replay_under_asan,
    verify_src,
)

HEADER = "#include <assert.h>\n#include <string.h>\nextern int __VERIFIER_nondet_int(void);\n"


def _edges(program, fn: str = "main"):
    return list(program.functions[fn].edges())


def _decl(program, name: str, fn: str = "main") -> DeclEdge:
    return next(e for e in _edges(program, fn) if isinstance(e, DeclEdge) and e.var.name == f"{fn}::{name}")


def _hidden(program, fn: str = "main") -> dict[str, Expr]:
    """The hidden lengths: temporary -> what it was assigned."""
    return {e.lhs.name: e.rhs for e in _edges(program, fn)
            if isinstance(e, AssignEdge) and isinstance(e.lhs, Var) and program.vars[e.lhs.name].is_temp}


def _strip(e: Expr) -> Expr:
    while isinstance(e, Cast):
        e = e.arg
    return e


# ---- the front end ------------------------------------------------------------------------------


@pytest.mark.parametrize("data_model", ["LP64", "ILP32"])
def test_a_2d_vla_is_one_object_indexed_row_major(tmp_path: Path, data_model: str):
    p = load_src("int main(void) { int n = 2, m = 3, i = 1; int a[n][m]; a[i][2] = 7;\n"
                 "  unsigned long s = sizeof a, r = sizeof a[1], e = sizeof a[1][2]; return 0; }",
                 tmp_path, data_model=data_model)
    dm = p.data_model
    d = _decl(p, "a")
    assert d.text == "a[n][m]"  # the declaration's range covers every length
    assert p.vars["main::a"].type == ArrayType(dm.int, None)  # flat
    assert len(d.lengths) == 2 and all(isinstance(n, Var) for n in d.lengths)
    hidden = _hidden(p)
    n, m = d.lengths
    assert _strip(hidden[n.name]) == Var("main::n", dm.int) and _strip(hidden[m.name]) == Var("main::m", dm.int)
    assert n.type == m.type == dm.size_t
    store = next(e for e in _edges(p) if isinstance(e, AssignEdge) and isinstance(e.lhs, Index))
    assert store.lhs.base == Var("main::a", ArrayType(dm.int, None))
    idx = store.lhs.index  # i * m + 2
    assert isinstance(idx, Binary) and idx.op == "+" and idx.type == dm.ptrdiff_t
    assert isinstance(idx.left, Binary) and idx.left.op == "*"
    assert _strip(idx.left.left) == Var("main::i", dm.int) and _strip(idx.left.right) == m
    assert idx.right == Const(2, dm.ptrdiff_t)
    size = _strip(_decl(p, "s").init)  # n * m * sizeof(int), in size_t
    assert isinstance(size, Binary) and size.op == "*" and size.right == Const(4, dm.size_t)
    assert size.left == Binary("*", n, m, dm.size_t)
    assert _strip(_decl(p, "r").init) == Binary("*", m, Const(4, dm.size_t), dm.size_t)
    assert _decl(p, "e").init.value == 4


def test_a_3d_vla_and_its_rows(tmp_path: Path):
    p = load_src("struct pt { char c; int x; };\n"
                 "int main(void) { int n = 2, m = 3, k = 4; struct pt b[n][m][k][2]; b[1][2][3][1].x = 5;\n"
                 "  unsigned long s0 = sizeof b, s1 = sizeof b[0], s2 = sizeof b[0][0], s3 = sizeof b[0][0][0];\n"
                 "  return 0; }", tmp_path)
    dm = p.data_model
    d = _decl(p, "b")
    pt = p.vars["main::b"].type.elem
    assert pt == ArrayType(p.vars["main::b"].type.elem.elem, 2)  # the constant innermost length stays in the element
    n, m, k = d.lengths
    ps = Const(16, dm.size_t)  # struct pt[2]
    assert _decl(p, "s0").init == Binary("*", Binary("*", Binary("*", n, m, dm.size_t), k, dm.size_t), ps, dm.size_t)
    assert _decl(p, "s1").init == Binary("*", Binary("*", m, k, dm.size_t), ps, dm.size_t)
    assert _decl(p, "s2").init == Binary("*", k, ps, dm.size_t)
    assert _decl(p, "s3").init == Const(16, dm.size_t)


def test_a_constant_length_between_variable_ones(tmp_path: Path):
    p = load_src("int main(void) { int n = 2, m = 3; int a[n][4][m]; a[1][2][0] = 1; return sizeof a[1]; }", tmp_path)
    d = _decl(p, "a")
    assert d.lengths[1] == Const(4, p.data_model.size_t) and isinstance(d.lengths[2], Var)
    assert p.vars["main::a"].type == ArrayType(p.data_model.int, None)


def test_a_vla_with_only_the_outermost_length_variable_keeps_its_rows(tmp_path: Path):
    p = load_src("int main(void) { int n = 2; int a[n][3]; a[1][2] = 1; return 0; }", tmp_path)
    dm = p.data_model
    assert p.vars["main::a"].type == ArrayType(ArrayType(dm.int, 3), None)
    store = next(e for e in _edges(p) if isinstance(e, AssignEdge) and isinstance(e.lhs, Index))
    assert store.lhs == Index(Index(Var("main::a", p.vars["main::a"].type), Const(1, dm.ptrdiff_t),
                                    ArrayType(dm.int, 3)), Const(2, dm.ptrdiff_t), dm.int)


def test_a_vla_parameter_is_a_pointer_to_rows_of_hidden_length(tmp_path: Path):
    p = load_src("int f(int n, int m, int a[n][m]) { return a[1][2] + sizeof a[0] + sizeof a; }\n"
                 "int main(void) { int b[2][3]; return f(2, 3, b); }", tmp_path)
    dm = p.data_model
    assert p.functions["f"].unsupported is None
    row = ArrayType(dm.int, None)
    assert p.vars["f::a"].type == PointerType(row, 64)
    assert p.func_types["f"].params[2] == PointerType(row, 64)
    (m_name, m_value), = _hidden(p, "f").items()
    assert _strip(m_value) == Var("f::m", dm.int)


@pytest.mark.parametrize("code,what", [
    ("int n = 2; int a[n][n] = {0};", "an initialised or static variable-length array"),
    ("int n = 2; static int a[n][n];", "an initialised or static variable-length array"),
    ("int n = 2; int a[n][n]; int (*p)[n] = a;", "a variable-length array type here"),
    ("int n = 2; unsigned long s = sizeof(int[n][n]);", "a variable-length array type here"),
    ("int n = 2; struct { int a[n]; } s;", "a variable-length array type here"),
    ("int n = 2, i = 0; int a[n][n]; unsigned long s = sizeof a[i++];",
     "sizeof of a variable-length array whose operand has side effects"),
    ("int n = 2; int a[n][n]; int b[2]; a[0] = b;", "assignment to an array"),
    ("int n = 2; int a[n][];", "a variable-length array of int[], a type of no known size"),
])
def test_what_stays_unsupported_says_so(tmp_path: Path, code: str, what: str):
    p = load_src("int main(void) { " + code + " return 0; }", tmp_path)
    assert p.functions["main"].unsupported is not None
    assert p.functions["main"].unsupported[0].startswith(what)


def test_arithmetic_on_a_vla_parameter_is_unsupported(tmp_path: Path):
    p = load_src("int f(int n, int a[n][n]) { a++; return a[0][0]; } int main(void) { int b[2][2]; return f(2, b); }",
                 tmp_path)
    assert p.functions["f"].unsupported[0] == "arithmetic on a pointer to a variable-length array"
    r = verify_src("int f(int n, int a[n][n]) { a++; return a[0][0]; }\n"
                   "int main(void) { int b[2][2]; if (f(2, b) == 5) reach_error(); return 0; }\n"
                   "void reach_error(void);", tmp_path)
    assert r.verdict == "UNKNOWN"


# ---- end to end ---------------------------------------------------------------------------------

GRID = HEADER + """
int main(void) {
  int n = 2, m = 3;
  int a[n][m];
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      a[i][j] = 10 * i + j;
  int *row = a[1];
  assert(row[2] == 12);
  int k = __VERIFIER_nondet_int();
  if (k >= 0 && k < 6)
    assert(a[k / 3][k % 3] != 11);
  return 0;
}
"""


@pytest.mark.parametrize("data_model", ["LP64", "ILP32"])
def test_a_2d_vla_true_and_false(tmp_path: Path, data_model: str):
    # The memory model's own proof: the engines over Horn clauses (which read memory as arbitrary
    # values) would spend seconds on the loops first.
    r = verify_src(GRID.replace("!= 11", "!= 13"), tmp_path, data_model=data_model, horn=False)
    assert r.verdict == "TRUE", r.reason
    r = verify_src(GRID, tmp_path, data_model=data_model)
    assert r.verdict == "FALSE", r.reason
    check_error_path(r)
    assert r.violations[0].range.line == 15
    assert [i.value for i in r.violations[0].inputs] == [4]
    assert_replay_reaches_error(tmp_path / "prog.c", r, data_model, tmp_path)


SIZES = HEADER + """
struct pt { char c; int x; };
unsigned long rows(int n, int m, int a[n][m]) { return sizeof a[0] + sizeof *a + sizeof a; }
int main(void) {
  int n = 2, m = 3, p = 4;
  int a[n][m];
  struct pt b[n][p][m][2];
  n = 5;  /* the arrays keep the lengths they were declared with */
  assert(sizeof a == 6 * sizeof(int) && sizeof a[1] == 3 * sizeof(int) && sizeof a[1][2] == sizeof(int));
  assert(sizeof b == 2 * 4 * 3 * 2 * sizeof(struct pt) && sizeof b[1] == 4 * 3 * 2 * sizeof(struct pt));
  assert(sizeof b[1][3] == 3 * 2 * sizeof(struct pt) && sizeof b[1][3][2] == 2 * sizeof(struct pt));
  assert(rows(2, m, a) == 2 * 3 * sizeof(int) + sizeof(int *));
  assert((char *) &a[1] - (char *) a == 3 * sizeof(int) && (char *) &a - (char *) a[0] == 0);
  assert(&b[1][3][2][1] - &b[0][0][0][0] == 1 * 4 * 3 * 2 + 3 * 3 * 2 + 2 * 2 + 1);
  memset(a, 0, sizeof a);
  assert(a[1][2] == 0);
  return 0;
}
"""


@pytest.mark.parametrize("data_model", ["LP64", "ILP32"])
def test_sizeof_a_vla_and_its_rows(tmp_path: Path, data_model: str):
    r = verify_src(SIZES, tmp_path, data_model=data_model)
    assert r.verdict == "TRUE", r.reason
    # Each of them is what gcc says: changing any one of them is a FALSE that gcc replays.
    for line in (13, 15, 17):
        lines = SIZES.split("\n")
        lines[line - 1] = lines[line - 1].replace("==", "!=", 1)
        r = verify_src("\n".join(lines), tmp_path, data_model=data_model)
        assert r.verdict == "FALSE", r.reason
        check_error_path(r)
        assert r.violations[0].range.line == line
        assert_replay_reaches_error(tmp_path / "prog.c", r, data_model, tmp_path)


PARAMETERS = HEADER + """
long total(int p, int q, int r, int c[p][q][r]) {
  long s = 0;
  for (int i = 0; i < p; i++)
    for (int j = 0; j < q; j++)
      for (int k = 0; k < r; k++)
        s += c[i][j][k];
  return s;
}
int main(void) {
  int q = 2;
  int c[2][q][3];
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < q; j++)
      for (int k = 0; k < 3; k++)
        c[i][j][k] = i + j + k;
  int fixed[2][2] = {{1, 2}, {3, 4}};
  assert(total(1, 2, 2, (void *) fixed) == 10);
  long t = __VERIFIER_nondet_int() ? total(1, q, 3, c) : total(2, q, 3, c);
  assert(t != 24);
  return 0;
}
"""


@pytest.mark.parametrize("data_model", ["LP64", "ILP32"])
def test_vla_parameters(tmp_path: Path, data_model: str):
    r = verify_src(PARAMETERS.replace("!= 24", "!= 25"), tmp_path, data_model=data_model)
    assert r.verdict == "TRUE", r.reason
    r = verify_src(PARAMETERS, tmp_path, data_model=data_model)  # all 2*2*3 cells: they sum to 24
    assert r.verdict == "FALSE", r.reason
    check_error_path(r)
    assert r.violations[0].range.line == 23
    assert [i.value for i in r.violations[0].inputs] == [0]
    assert_replay_reaches_error(tmp_path / "prog.c", r, data_model, tmp_path)


def test_an_entry_with_a_vla_parameter(tmp_path: Path):
    code = HEADER + """
void fill(int n, int m, int a[n][m]) {
  if (n < 2 || m < 2 || m > 4) return;
  a[1][1] = 7;
  assert(a[1][1] == 7 && sizeof a[1] == m * sizeof(int));
  assert(a[0][m + 1] != 7);
}
"""
    path = tmp_path / "prog.c"
    path.write_text(code)
    report = api.verify_entries(str(path), options=api.VerifyOptions(timeout=30))
    r = report.result
    assert r.verdict == "FALSE", r.reason
    check_error_path(r)
    assert r.violations[0].range.line == 9
    assert_replay_reaches_error(path, r, "LP64", tmp_path)


def test_a_vla_larger_than_any_object_stops_the_run(tmp_path: Path):
    # 65536 * 65536 ints do not fit in ILP32's largest object (PTRDIFF_MAX bytes): no stack
    # holds the array, and the run stops at its declaration (gcc's code wraps the size and
    # crashes at the first access), so no error call follows it. Under memsafety that crash
    # is a memory error: no TRUE there, and no access to the wrapped object assumed valid.
    code = HEADER + """
int main(void) {
  int n = 65536;
  int a[n][n];
  a[0][0] = 1;
  assert(a[0][0] == 2);
  return 0;
}
"""
    assert verify_src(code, tmp_path, data_model="ILP32", timeout=20).verdict == "TRUE"
    assert verify_src(code, tmp_path, data_model="ILP32", timeout=20, property="memsafety").verdict == "UNKNOWN"
    # A small one goes on to the failing assertion.
    small = verify_src(code.replace("65536", "256"), tmp_path, data_model="ILP32", timeout=20)
    assert small.verdict == "FALSE", small.reason
    check_error_path(small)
    assert_replay_reaches_error(tmp_path / "prog.c", small, "ILP32", tmp_path)


def test_only_the_runs_whose_vla_fits_go_on(tmp_path: Path):
    # The error needs n * m * 4 <= PTRDIFF_MAX: found with such lengths and replayed; the
    # lengths whose product would wrap stop at the declaration.
    code = HEADER + """
extern unsigned __VERIFIER_nondet_uint(void);
int main(void) {
  unsigned n = __VERIFIER_nondet_uint(), m = __VERIFIER_nondet_uint();
  if (n < 1 || m < 1) return 0;
  int a[n][m];
  a[n - 1][m - 1] = 5;
  assert(n < 3 || a[n - 1][m - 1] != 5);
  return 0;
}
"""
    r = verify_src(code, tmp_path, data_model="ILP32", timeout=30)
    assert r.verdict == "FALSE", r.reason
    check_error_path(r)
    assert_replay_reaches_error(tmp_path / "prog.c", r, "ILP32", tmp_path)
    # With n >= 65536 demanded, the array never fits next to an m >= 8192: no error call.
    bounded = code.replace("if (n < 1 || m < 1) return 0;", "if (n < 65536 || m < 8192) return 0;")
    assert verify_src(bounded, tmp_path, data_model="ILP32", timeout=30).verdict == "TRUE"


# ---- memory safety ------------------------------------------------------------------------------


OUT_OF_BOUNDS = HEADER + """
int main(void) {
  int n = 2, m = 3;
  int a[n][m];
  int i = __VERIFIER_nondet_int(), j = __VERIFIER_nondet_int();
  if (i < 0 || i > n || j < 0 || j >= m) return 0;
  a[0][m] = 1;  /* past its row, inside the object: valid */
  a[i][j] = 1;
  return a[0][m];
}
"""


@pytest.mark.parametrize("data_model", ["LP64", "ILP32"])
def test_memsafety_out_of_bounds_of_a_2d_vla(tmp_path: Path, data_model: str):
    r = verify_src(OUT_OF_BOUNDS, tmp_path, data_model=data_model, property="memsafety")
    assert r.verdict == "FALSE", r.reason
    check_error_path(r)
    v = r.violations[0]
    assert v.kind == "valid-deref" and v.range.line == 11
    assert [i.value for i in v.inputs][0] == 2  # only i == n leaves the object
    run = replay_under_asan(tmp_path / "prog.c", v.harness, data_model, tmp_path)
    assert run.returncode != 0 and "AddressSanitizer: dynamic-stack-buffer-overflow" in run.stderr, run.stderr
    safe = OUT_OF_BOUNDS.replace("i > n", "i >= n")
    assert verify_src(safe, tmp_path, data_model=data_model, property="memsafety").verdict == "TRUE"
