"""GNU C's ``typeof`` (``__typeof__``, ``__typeof``): parsed wherever a type specifier may stand
and given the type of its expression (or type name), which is not evaluated; the ``container_of``
idiom built on it, end to end. Every FALSE has its path checked and its harness replayed."""

from __future__ import annotations

from pathlib import Path

import pytest
from cbam.engine.cfa.ctype import ArrayType, IntType, PointerType, StructType
from cbam.engine.cfa.ir import AssignEdge, CallEdge, Cast, Const, DeclEdge, ReturnEdge
from cbam.engine.cfa.load import load_program
from cbam.engine.frontend.preprocess import PreprocessOptions
from cbam.engine.verify import VerifyOptions, run_deep, verify_program

from .conftest import ROOT, assert_replay_reaches_error, check_error_path, load_src, verify_src

POSITIONS = """
struct s { char c; long x; short list[3]; };
long g;
typedef __typeof__(g) gtype;                                       /* typedef */
struct t { typeof(g) a; __typeof(struct s) inner; typeof(int *) p; };  /* members */
typeof(g) h(typeof(g) v, __typeof__(struct s) *q) { return v + q->x; }  /* return type, parameters */
int main(void) {
  struct s v = {1, 2, {3, 4, 5}};
  struct s *m = &v;
  typeof(*m) copy = v;                                             /* declaration */
  typeof(m->list[0]) e = 7;
  const typeof(((struct s *)0)->list) *lp = &m->list;
  gtype k = h(3, m);
  struct t w;
  w.p = (typeof(int *)) 0;                                         /* cast */
  unsigned long z1 = sizeof(typeof(*m));                           /* sizeof */
  unsigned long z2 = sizeof(w.inner) + sizeof(typeof(typeof(e) *));
  return (int) (z1 + z2 + k + copy.c + e + (*lp)[0]);
}
"""


def _decls(program, fn: str = "main") -> dict[str, DeclEdge]:
    return {e.var.name.split("::")[1]: e for e in program.functions[fn].edges() if isinstance(e, DeclEdge)}


@pytest.mark.parametrize("data_model", ["LP64", "ILP32"])
def test_typeof_in_every_position(tmp_path: Path, data_model: str):
    p = load_src(POSITIONS, tmp_path, data_model=data_model)
    assert all(f.unsupported is None for f in p.functions.values()), p.diagnostics
    word = 8 if data_model == "LP64" else 4
    long_t = p.vars["g"].type
    assert isinstance(long_t, IntType) and long_t.bits == 8 * word
    s = StructType("s")
    assert p.vars["main::copy"].type == s
    assert p.vars["main::e"].type == p.data_model.short
    assert p.vars["main::lp"].type == PointerType(ArrayType(p.data_model.short, 3), 8 * word)
    assert p.vars["main::k"].type == long_t  # through the typedef
    assert p.func_types["h"].ret == long_t
    assert p.func_types["h"].params == (long_t, PointerType(s, 8 * word))
    t = dict(p.structs["struct t"])
    assert t["a"] == long_t and t["inner"] == s and t["p"] == PointerType(p.data_model.int, 8 * word)
    sizeof_s = 24 if data_model == "LP64" else 16  # char, long, short[3], as gcc lays it out
    d = _decls(p)
    assert isinstance(d["z1"].init, Const) and d["z1"].init.value == sizeof_s
    assert isinstance(d["z2"].init, Const) and d["z2"].init.value == sizeof_s + word
    cast = [e for e in p.functions["main"].edges() if isinstance(e, AssignEdge) and "w.p" in e.text]
    assert cast and isinstance(cast[0].rhs, Cast) and cast[0].rhs.type == PointerType(p.data_model.int, 8 * word)


def test_typeof_does_not_evaluate_its_expression(tmp_path: Path):
    p = load_src("int calls; int f(void) { return ++calls; }\n"
                 "int main(void) { int i = 0; typeof(f()) a = 1; __typeof__(i++) b = 2; return a + b + i; }",
                 tmp_path)
    main = p.functions["main"]
    assert main.unsupported is None
    assert not [e for e in main.edges() if isinstance(e, CallEdge)]
    assert not [e for e in main.edges() if isinstance(e, AssignEdge)]  # no i++
    assert p.vars["main::a"].type == p.data_model.int


def test_only_the_gnu_spellings_become_keywords(tmp_path: Path):
    # The legacy dialect stays: C23's keywords are still names an older program may use.
    p = load_src("int main(void) { int bool = 1, true = 2, nullptr = 3; typeof(bool) x = true; return x + nullptr; }",
                 tmp_path)
    assert p.functions["main"].unsupported is None


def test_typeof_of_a_variable_length_array_is_unsupported(tmp_path: Path):
    p = load_src("int main(void) { int n = 2; int a[n][n]; typeof(a) b; return 0; }", tmp_path)
    assert p.functions["main"].unsupported[0] == "typeof of a variable-length array"


CONTAINER_OF = """
#include <assert.h>
#include <stddef.h>
extern int __VERIFIER_nondet_int(void);
#define container_of(ptr, type, member) ({ \\
    const typeof(((type *)0)->member) *__mptr = (ptr); \\
    (type *)((char *)__mptr - ((size_t) &((type *)0)->member)); })
struct list_head { struct list_head *next, *prev; };
struct item { char tag; int value; struct list_head node; };
int value_of(struct list_head *h) {
  struct item *it = container_of(h, typeof(*it), node);
  return it->value;
}
int main(void) {
  struct item a = {'a', 10, {0, 0}}, b = {'b', 20, {0, 0}};
  a.node.next = &b.node;
  b.node.prev = &a.node;
  struct item *first = container_of(b.node.prev, struct item, node);
  assert(first == &a && first->tag == 'a');
  int v = value_of(__VERIFIER_nondet_int() ? &a.node : a.node.next);
  assert(v == 10 || v == 20);
  assert(v != 20);
  return 0;
}
"""


@pytest.mark.parametrize("data_model", ["LP64", "ILP32"])
def test_container_of(tmp_path: Path, data_model: str):
    r = verify_src(CONTAINER_OF.replace("assert(v != 20);", ""), tmp_path, data_model=data_model)
    assert r.verdict == "TRUE", r.reason
    r = verify_src(CONTAINER_OF, tmp_path, data_model=data_model)
    assert r.verdict == "FALSE", r.reason
    check_error_path(r)
    assert r.violations[0].range.line == 22
    assert_replay_reaches_error(tmp_path / "prog.c", r, data_model, tmp_path)


def test_offsetof_written_out_is_a_constant(tmp_path: Path):
    # &((T *)0)->m is computed from the layout: the value analysis reads no memory for it.
    p = load_src("struct s { char c; int x[4]; };\n"
                 "int main(void) { unsigned long o = (unsigned long) &((struct s *)0)->x[2]; return (int) o; }",
                 tmp_path, data_model="ILP32")
    init = _decls(p)["o"].init
    assert isinstance(init, Cast) and isinstance(init.arg, Cast) and init.arg.arg == Const(12, p.data_model.size_t)


def test_ldv_sets_task_with_container_of(tmp_path: Path):
    # bench/memory's ldv-sets tasks use typeof through container_of; test_add-1 is a FALSE (ILP32).
    task = ROOT / "bench" / "memory" / "c" / "ldv-sets" / "test_add-1.i"
    if not task.is_file():
        pytest.skip(f"{task} is not here")
    program = load_program(str(task), options=PreprocessOptions(data_model="ILP32"))
    assert all(f.unsupported is None for f in program.functions.values())
    r = run_deep(lambda: verify_program(program, VerifyOptions(timeout=30)))
    assert r.verdict == "FALSE", r.reason
    check_error_path(r)
    assert_replay_reaches_error(task, r, "ILP32", tmp_path)
    ret = [e for e in program.functions["ldv_set_empty"].edges() if isinstance(e, ReturnEdge)]
    assert ret  # the file's other functions are built too
