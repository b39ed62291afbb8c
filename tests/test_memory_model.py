"""The memory model: pointers, arrays, structs, the heap and the C library in the value analysis
(value/memory.py), in the path encoding that confirms a FALSE (pathmemory.py) and in the
memory-safety check (cfa/memsafety.py). Every FALSE has its path checked and its harness
replayed by gcc, for ILP32 and LP64."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from cbam.engine.cfa.layout import Layout
from cbam.engine.cfa.load import load_program
from cbam.engine.cpa.value.memory import Heap, Ptr, Zero, split_key
from cbam.engine.frontend.preprocess import PreprocessOptions

from .conftest import (
    ROOT,
    assert_replay_reaches_error,
    assert_replay_shows_memory_error,
    check_error_path,
    verify_src,
)

HEADER = "#include <assert.h>\n#include <stdlib.h>\n#include <string.h>\nextern int __VERIFIER_nondet_int(void);\n"


def run(code: str, tmp_path: Path, data_model: str = "LP64", **kw):
    return verify_src(HEADER + code, tmp_path, data_model=data_model, **kw)


def false_replayed(code: str, tmp_path: Path, data_model: str = "LP64", **kw):
    r = run(code, tmp_path, data_model, **kw)
    assert r.verdict == "FALSE", r.reason
    check_error_path(r)
    assert_replay_reaches_error(tmp_path / "prog.c", r, data_model, tmp_path)
    return r


SWAP = """
void swap(int *a, int *b) { int t = *a; *a = *b; *b = t; }
int main(void) {
  int x = 1, y = 2;
  swap(&x, &y);
  assert(x == 2 && y == 1);
  int v[3] = {3, 1, 2};
  swap(&v[0], &v[2]);
  assert(v[0] == 2 && v[2] == 3);
  return 0;
}
"""


def test_swap_through_pointers_is_proved(tmp_path: Path):
    assert run(SWAP, tmp_path).verdict == "TRUE"


def test_swap_with_a_wrong_expectation_is_refuted_and_replayed(tmp_path: Path):
    false_replayed(SWAP.replace("assert(v[0] == 2", "assert(v[0] == 3"), tmp_path)


LIST = """
struct node { int v; struct node *next; };
int main(void) {
  struct node *head = 0;
  for (int i = 0; i < 3; i++) {
    struct node *n = malloc(sizeof *n);
    n->v = i; n->next = head; head = n;
  }
  int sum = 0, len = 0;
  for (struct node *p = head; p; p = p->next) { sum += p->v; len++; }
  assert(len == 3 && sum == 3);
  while (head) { struct node *n = head->next; free(head); head = n; }
  return 0;
}
"""


@pytest.mark.parametrize("data_model", ["LP64", "ILP32"])
def test_a_linked_list_built_with_malloc(tmp_path: Path, data_model: str):
    assert run(LIST, tmp_path, data_model).verdict == "TRUE"
    false_replayed(LIST.replace("sum == 3", "sum == 4"), tmp_path, data_model)


def test_struct_layout_follows_the_data_model(tmp_path: Path):
    code = """
struct s { char c; long long x; int *p; };
int main(void) { assert(sizeof(struct s) == 24); return 0; }
"""
    assert run(code, tmp_path, "LP64").verdict == "TRUE"
    false_replayed(code, tmp_path, "ILP32")  # 4 + 8 + 4 = 16 on i386
    program = load_program(str(tmp_path / "prog.c"), options=PreprocessOptions(data_model="ILP32"))
    layout = Layout(program.data_model, program.structs)
    t = program.vars["main::__t1"].type if "main::__t1" in program.vars else None
    del t
    key = next(k for k in program.structs if k.endswith(" s"))
    from cbam.engine.cfa.ctype import StructType

    st = StructType(key.split(" ", 1)[1])
    assert layout.offset(st, "x")[0] == 4 and layout.offset(st, "p")[0] == 12


FLEXIBLE = """struct buf { int n; int d[]; };
struct wide { char c; long d[]; };
int main(void) {
  assert(sizeof(struct buf) == 4 && sizeof(struct wide) == WIDE);
  int n = __VERIFIER_nondet_int();
  if (n < 1 || n > 4) return 0;
  struct buf *b = malloc(sizeof(struct buf) + n * sizeof(int));
  b->n = n;
  for (int i = 0; i < BOUND; i++) b->d[i] = i;
  int s = 0;
  for (int i = 0; i < b->n; i++) s += b->d[i];
  assert(s == n * (n - 1) / 2 EXTRA);
  free(b);
  return 0;
}
"""


@pytest.mark.parametrize("data_model,wide", [("LP64", 8), ("ILP32", 4)])
def test_a_flexible_array_member_holds_what_the_allocation_adds(tmp_path: Path, data_model: str, wide: int):
    """``int d[];`` adds no bytes to its struct (sizeof was 'of an incomplete type': UNKNOWN),
    and the elements an allocation adds beyond the struct are its own."""
    code = FLEXIBLE.replace("WIDE", str(wide))
    safe = code.replace("BOUND", "n").replace(" EXTRA", "")
    assert run(safe, tmp_path, data_model).verdict == "TRUE"
    assert run(safe, tmp_path, data_model, property="memsafety").verdict == "TRUE"
    false_replayed(safe.replace("n * (n - 1) / 2", "n * (n - 1) / 2 + (n == 3)"), tmp_path, data_model)
    r = run(code.replace("BOUND", "n + 1").replace(" EXTRA", ""), tmp_path, data_model, property="memsafety")
    assert r.verdict == "FALSE" and r.violations[0].kind == "valid-deref", r.reason
    check_error_path(r)
    assert_replay_shows_memory_error(tmp_path / "prog.c", r, tmp_path, data_model)


def test_large_zero_initialised_arrays_cost_nothing(tmp_path: Path):
    code = """
int g[1000000];
int main(void) {
  int i = __VERIFIER_nondet_int();
  if (i < 0 || i >= 1000000) return 0;
  g[5] = 7;
  assert(g[5] + g[999999] == 7);
  assert(g[i] == 0 || i == 5);
  return 0;
}
"""
    r = run(code, tmp_path, timeout=20)
    assert r.verdict in ("TRUE", "UNKNOWN")
    # A fraction of a second on a quiet machine; a million cells one by one run into the limit
    # (a status, not a clock reading: only a run that cost far more than it should breaks it).
    assert r.reason_kind != "timeout", r.reason
    false_replayed(code.replace("g[999999] == 7", "g[999999] == 8"), tmp_path)


def test_library_functions_are_modelled(tmp_path: Path):
    code = """
struct pt { int x, y; };
int main(void) {
  char buf[16];
  strcpy(buf, "hello");
  assert(strlen(buf) == 5);
  assert(strcmp(buf, "hello") == 0 && strncmp(buf, "help", 3) == 0);
  strcat(buf, "!!");
  assert(strlen(buf) == 7 && strchr(buf, '!') == buf + 5 && strchr(buf, 'z') == 0);
  struct pt a = {1, 2}, b;
  memcpy(&b, &a, sizeof a);
  assert(b.x == 1 && b.y == 2);
  memset(&a, 0, sizeof a);
  assert(a.x == 0 && a.y == 0);
  int *v = calloc(4, sizeof(int));
  assert(v[3] == 0);
  v = realloc(v, 8 * sizeof(int));
  v[7] = 1;
  assert(v[0] == 0 && v[7] == 1);
  free(v);
  return 0;
}
"""
    assert run(code, tmp_path).verdict == "TRUE"
    false_replayed(code.replace("strlen(buf) == 5", "strlen(buf) == 4"), tmp_path)


def test_calls_through_function_pointers_with_known_targets(tmp_path: Path):
    code = """
static int inc(int x) { return x + 1; }
static int dbl(int x) { return 2 * x; }
int main(void) {
  int (*ops[2])(int) = {inc, dbl};
  int k = __VERIFIER_nondet_int();
  if (k < 0 || k > 1) return 0;
  int r = ops[k](5);
  assert(r == 6 || r == 10);
  assert(r != 10);
  return 0;
}
"""
    r = false_replayed(code, tmp_path)
    assert r.violations[0].range.line == 14


def test_variable_length_arrays(tmp_path: Path):
    code = """
int main(void) {
  int n = 4;
  int a[n];
  for (int i = 0; i < n; i++) a[i] = i * i;
  assert(a[3] == 9);
  assert(a[2] == 5);
  return 0;
}
"""
    r = false_replayed(code, tmp_path)
    assert r.violations[0].range.line == 11


def test_entry_pointer_parameters_point_to_fresh_objects(tmp_path: Path):
    code = """
struct acc { int total; int count; };
void add(struct acc *a, int v) {
  if (v < 0 || v > 100 || a->total < 0 || a->total > 1000 || a->count < 0 || a->count > 10) return;
  a->total += v;
  a->count++;
  assert(a->count <= 10);
}
"""
    path = tmp_path / "prog.c"
    path.write_text(HEADER + code)
    from cbam.engine import api

    report = api.verify_entries(str(path), options=api.VerifyOptions(timeout=20))
    assert report.result.verdict == "FALSE"
    v = report.result.violations[0]
    assert any(i.source == "input *a" for i in v.inputs)  # the object's bytes are an input
    assert_replay_reaches_error(path, report.result, "LP64", tmp_path)


def test_writes_through_unknown_pointers_forget_memory(tmp_path: Path):
    code = """
int g = 1;
int main(void) {
  int *p = __VERIFIER_nondet_int() ? &g : 0;
  int x = 5;
  int *q = __VERIFIER_nondet_int() ? &x : &g;
  *q = 7;
  assert(g == 1);
  return 0;
}
"""
    false_replayed(code, tmp_path)


@pytest.mark.parametrize("code,kind", [
    ("int *a = malloc(10 * sizeof(int)); int n = __VERIFIER_nondet_int();"
     " if (n >= 0 && n <= 10) a[n] = 1; free(a);", "valid-deref"),
    ("int *a = malloc(sizeof(int)); free(a); if (__VERIFIER_nondet_int()) free(a);", "valid-free"),
    ("int *a = malloc(sizeof(int)); free(a); *a = 3;", "valid-deref"),
    ("int *p = 0; if (__VERIFIER_nondet_int()) *p = 1;", "valid-deref"),
    ("int *a = malloc(sizeof(int)); if (__VERIFIER_nondet_int()) free(a);", "valid-memtrack"),
    ("int *a = malloc(sizeof(int)); a = 0; if (__VERIFIER_nondet_int()) abort();", "valid-memtrack"),
    ("char b[4]; strcpy(b, \"abcd\");", "valid-deref"),
    # (found by fuzzing against AddressSanitizer: realloc frees its argument as free does)
    ("int *a = malloc(4); free(a); a = realloc(a, 8); free(a);", "valid-free"),
    ("int st[2] = {1, 2}; int *a = realloc(st, 16); free(a);", "valid-free"),
    ("char *s = \"abc\"; if (__VERIFIER_nondet_int()) s[0] = 'x';", "valid-deref"),  # a string literal
    ("char b[4]; memcpy(\"abc\", b, 4);", "valid-deref"),
    ("char *d = \"long enough\"; strcpy(d, \"hi\");", "valid-deref"),
])
def test_memory_errors_are_reported_as_their_own_kind(tmp_path: Path, code: str, kind: str):
    r = run("int main(void) { " + code + " return 0; }", tmp_path, property="memsafety")
    assert r.verdict == "FALSE", r.reason
    check_error_path(r)
    assert r.violations[0].kind == kind
    assert_replay_shows_memory_error(tmp_path / "prog.c", r, tmp_path)


# A list of nondeterministic length (at most 6 nodes), freed up to the first node holding 3:
# with 5 or 6 nodes the rest leaks. The first state at the loop's head (no object allocated
# yet) covered the later ones, the heap objects the loop made never reached the leak check,
# and CEGAR's value analysis answered TRUE.
LIST_FREED_UP_TO_3 = """struct node { int v; struct node *next; };
int main(void) {
  struct node *h = 0;
  int n = __VERIFIER_nondet_int();
  for (int i = 0; i < n && i < 6; i++) {
    struct node *x = malloc(sizeof(struct node));
    x->v = i * 7 % 5; x->next = h; h = x;
  }
  while (COND) { struct node *t = h->next; free(h); h = t; }
  return 0;
}
"""


@pytest.mark.parametrize("config", ["value", "value+predicate"])
def test_a_leak_from_a_loop_of_unknown_length_is_not_covered_away(tmp_path: Path, config: str):
    r = run(LIST_FREED_UP_TO_3.replace("COND", "h && h->v != 3"), tmp_path, property="memsafety", config=config,
            path_exploration=False)
    assert r.verdict == "FALSE", r.reason
    check_error_path(r)
    v = r.violations[0]
    assert v.kind == "valid-memtrack"
    assert any(i.value in (5, 6) for i in v.inputs), v.inputs  # fewer nodes: all of them freed
    assert_replay_shows_memory_error(tmp_path / "prog.c", r, tmp_path)
    # Freed to the end, the same lists leak nothing, and that is still proved.
    assert run(LIST_FREED_UP_TO_3.replace("COND", "h"), tmp_path, property="memsafety", config=config,
               path_exploration=False).verdict == "TRUE"


RING = """struct cn { int d; struct cn *next; };
int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 1 || n > 6) return 0;
  struct cn *head = 0, *last = 0;
  for (int i = 0; i <= n; i++) {
    struct cn *x = malloc(sizeof *x);
    x->d = i; x->next = head; head = x;
    if (!last) last = x;
  }
  last->next = head;
  EARLY
  struct cn *cur = head->next;
  while (cur != head) { struct cn *nx = cur->next; free(cur); cur = nx; }
  free(head);
  return 0;
}
"""


def test_a_ring_of_objects_that_nothing_reaches_is_a_leak(tmp_path: Path):
    """Each object of the ring is pointed to by another: path exploration's leak check, which
    asked only that, proved this TRUE (found by bench-style fuzzing against AddressSanitizer)."""
    r = run(RING.replace("EARLY", "if (n == 4) return 0;"), tmp_path, property="memsafety")
    assert r.verdict == "FALSE", r.reason
    check_error_path(r)
    assert r.violations[0].kind == "valid-memtrack" and [i.value for i in r.violations[0].inputs] == [4]
    assert_replay_shows_memory_error(tmp_path / "prog.c", r, tmp_path)
    assert run(RING.replace("EARLY", ""), tmp_path, property="memsafety").verdict == "TRUE"


@pytest.mark.parametrize("code", [
    # found by fuzzing against AddressSanitizer: the array lived on after its block
    "int s = 0; int *p = &s; if (__VERIFIER_nondet_int()) { int t[3] = {1, 2, 3}; p = &t[1]; } s += *p;",
    # (the block is left by the jump alone: its end is never reached)
    "int *p = 0; for (int i = 0; i < 3; i++) { int x = i; p = &x; break; } return *p;",
    "int *p = 0; int n = __VERIFIER_nondet_int(); while (n-- > 0) { int x = n; p = &x; continue; }"
    " if (p) return *p;",
    # the instance of the iteration before (AddressSanitizer sees the same slot: not checked by it)
    "int z = 0, s = 0; int *p = &z; for (int i = 0; i < 2; i++) { int o[2] = {i, i}; if (p != &z) s += *p;"
    " p = &o[1]; }",
], ids=["block", "break", "continue", "iteration"])
def test_a_pointer_that_outlives_its_block_dangles(tmp_path: Path, code: str):
    for path_exploration in (True, False):
        r = run("int main(void) { " + code + " return 0; }", tmp_path, property="memsafety",
                path_exploration=path_exploration)
        assert r.verdict == "FALSE", r.reason
        check_error_path(r)
        assert r.violations[0].kind == "valid-deref"
        assert any(s.kind == "scope" for s in r.violations[0].steps)  # where the lifetime ended
    if "p != &z" not in code:
        assert_replay_shows_memory_error(tmp_path / "prog.c", r, tmp_path)


def test_a_pointer_to_a_local_that_outlives_its_call_dangles(tmp_path: Path):
    code = """int *f(int v) { int x = v; int *p = &x; return p; }
int main(void) { int *q = f(3); if (__VERIFIER_nondet_int()) return *q; return 0; }
"""
    for path_exploration in (True, False):
        r = run(code, tmp_path, property="memsafety", path_exploration=path_exploration)
        assert r.verdict == "FALSE" and r.violations[0].kind == "valid-deref", r.reason
        check_error_path(r)
        assert_replay_shows_memory_error(tmp_path / "prog.c", r, tmp_path)
    # Called twice, the pointers from both calls dangle; unused, they are harmless.
    twice = code.replace("int *q = f(3);", "int *q = f(3); int *q2 = f(4);").replace("return *q;", "return *q2;")
    assert run(twice, tmp_path, property="memsafety", path_exploration=False).verdict == "FALSE"
    assert run(code.replace("return *q;", "return 0;"), tmp_path, property="memsafety").verdict == "TRUE"
    # In a recursive function a caller's instance has the same name: never TRUE.
    recursive = """int *r(int n) { int x = n; if (n > 0) { int *q = r(n - 1); return q; } return &x; }
int main(void) { int *p = r(2); return *p; }
"""
    assert run(recursive, tmp_path, property="memsafety", path_exploration=False).verdict == "UNKNOWN"
    assert run(recursive, tmp_path, property="memsafety").verdict in ("FALSE", "UNKNOWN")


def test_a_block_entered_again_gives_its_variables_a_new_lifetime(tmp_path: Path):
    code = """int main(void) {
  int total = 0;
  for (int i = 0; i < 4; i++) {
    int buf[2] = {i, i + 1};
    int *p = &buf[1];
    if (i % 2) { int y = 5; int *q = &y; total += *q; }
    total += *p;
  }
  assert(total == 20);
  return 0;
}
"""
    for path_exploration in (True, False):
        assert run(code, tmp_path, property="memsafety", path_exploration=path_exploration).verdict == "TRUE"
    assert run(code, tmp_path).verdict == "TRUE"


def test_memory_safe_code_is_proved_safe(tmp_path: Path):
    code = """
int main(void) {
  int a[10];
  for (int i = 0; i < 10; i++) a[i] = i;
  int *p = malloc(sizeof(int));
  *p = a[9];
  free(p);
  return 0;
}
"""
    assert run(code, tmp_path, property="memsafety").verdict == "TRUE"
    kept = "struct n { struct n *next; } *head;\nint main(void) { head = malloc(sizeof *head); head->next = 0; return 0; }"
    assert run(kept, tmp_path, property="memsafety").verdict == "TRUE"  # still reachable: tracked
    grown = "int main(void) { int *a = malloc(4); a = realloc(a, 8); a[1] = 2; a = realloc(a, 12); free(a);" \
        " int *b = realloc(0, 4); free(b); return 0; }"
    assert run(grown, tmp_path, property="memsafety").verdict == "TRUE"
    copied = "int main(void) { char b[] = \"abc\"; const char *s = \"xyz\"; b[0] = s[1]; memcpy(b + 1, s, 2);" \
        " return b[0] - 'y'; }"
    assert run(copied, tmp_path, property="memsafety").verdict == "TRUE"  # a literal read, copied, never written
    held = "int main(void) { int *a = malloc(4); if (__VERIFIER_nondet_int()) abort(); free(a); return 0; }"
    assert run(held, tmp_path, property="memsafety").verdict == "TRUE"  # at abort() a still points to it


def test_alloca_memory_lives_with_its_call_and_is_never_a_leak(tmp_path: Path):
    # sv-benchmarks array-memsafety/*-alloca: the exact path check counted alloca's objects as
    # heap objects never freed, and every such task was a wrong FALSE(valid-memtrack).
    code = """
extern void *alloca(unsigned long);
int main(void) {
  int *a = alloca(4 * sizeof(int));
  for (int i = 0; i < 4; i++) a[i] = i;
  return a[3] - 3;
}
"""
    assert run(code, tmp_path, property="memsafety").verdict == "TRUE"
    dangling = """
extern void *alloca(unsigned long);
static int *buffer(void) { int *a = alloca(2 * sizeof(int)); a[0] = 1; return a; }
int main(void) { int *p = buffer(); if (__VERIFIER_nondet_int()) return *p; return 0; }
"""
    r = run(dangling, tmp_path, property="memsafety")
    assert r.verdict == "FALSE" and r.violations[0].kind == "valid-deref", r.reason
    check_error_path(r)
    # Freeing it is invalid (the value analysis answered TRUE here).
    freed = "extern void *alloca(unsigned long);\nint main(void) { int *a = alloca(8); a[0] = 1; free(a); return 0; }"
    r = run(freed, tmp_path, property="memsafety")
    assert r.verdict == "FALSE" and r.violations[0].kind == "valid-free", r.reason
    check_error_path(r)
    assert_replay_shows_memory_error(tmp_path / "prog.c", r, tmp_path)


RECURSIVE_ALLOCA = """
#include <alloca.h>
int f(int n) {
  int *p = alloca(sizeof(int));
  *p = n;
  if (n > 0) f(n - 1);
  return *p;  /* the inner calls' objects died; this one lives */
}
int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 3) return 0;
  assert(f(n) CHECK);
  return 0;
}
"""


def test_alloca_from_its_header_in_a_recursion(tmp_path: Path):
    # <alloca.h> was missing from the stand-in headers (and <stdlib.h> did not declare alloca,
    # as glibc's does): such a file was a syntax error. Each activation keeps its own object.
    assert run(RECURSIVE_ALLOCA.replace("CHECK", "== n"), tmp_path, property="memsafety").verdict == "TRUE"
    assert run(RECURSIVE_ALLOCA.replace("CHECK", "== n"), tmp_path).verdict == "TRUE"
    r = false_replayed(RECURSIVE_ALLOCA.replace("CHECK", "!= 2"), tmp_path)
    assert [i.value for i in r.violations[0].inputs] == [2]
    stdlib_only = "int main(void) { int *a = alloca(2 * sizeof(int)); a[1] = 5; assert(a[1] == 5); return 0; }"
    assert run(stdlib_only, tmp_path).verdict == "TRUE"


@pytest.mark.parametrize("task", ["cstrlen-alloca-2", "count_down-alloca-1"])
def test_alloca_tasks_are_not_false(task: str):
    """The memory-safety tasks that the exact check got wrong (bench/memsafety)."""
    yml = ROOT / "bench" / "memsafety" / "c" / "array-memsafety" / f"{task}.yml"
    out = subprocess.run([sys.executable, "-m", "cbam", "verify", "--no-cache", "--timeout", "8", "--format", "json",
                          str(yml)], capture_output=True, text=True, timeout=120)
    assert out.returncode != 1, out.stdout[-2000:]  # 1: FALSE


def test_values_and_keys():
    assert split_key("main::a[8:4]") == ("main::a", 8, 4)
    assert split_key("main::a[*]") is None
    assert Ptr("x", None) != Ptr("x", 0)
    assert Zero(frozenset({(0, 4)})) != Zero()
    assert Heap(4) != Heap(4, True)


def test_allocation_succeeds_unless_the_option_lets_it_fail(tmp_path: Path):
    code = """
int main(void) {
  int *a = malloc(4 * sizeof(int));
  int *b = malloc(4 * sizeof(int));
  if (a == 0 && b != 0) { free(b); assert(0); }
  free(a); free(b);
  return 0;
}
"""
    assert run(code, tmp_path).verdict == "TRUE"
    r = false_replayed(code, tmp_path, alloc_may_fail=True)  # the harness's malloc fails the first call
    assert [i.source for i in r.violations[0].inputs].count("__cbam_alloc_fails") == 2


def test_a_freed_objects_address_may_be_reused(tmp_path: Path):
    # sv-benchmarks memsafety/cmp-freed-ptr: malloc may return the address just freed, so the
    # comparison may hold and free(x) may run twice. Never TRUE.
    code = """
struct T { struct T *next; };
int main(void) {
  struct T *y = malloc(sizeof *y);
  free(y);
  struct T *x = malloc(sizeof *x);
  if (x == y) free(x);
  free(x);
  return 0;
}
"""
    assert run(code, tmp_path, property="memsafety").verdict != "TRUE"


def test_structs_passed_and_returned_by_value(tmp_path: Path):
    code = """
struct pt { int x, y; };
static struct pt moved(struct pt p) { p.x += 1; return p; }
int main(void) {
  struct pt a = {1, 2};
  struct pt b = moved(a);
  assert(a.x == 1 && b.x == 2 && b.y == 2);
  assert(b.x + b.y == 5);
  return 0;
}
"""
    r = false_replayed(code, tmp_path)
    assert r.violations[0].range.line == 12


def test_entry_pointers_may_be_null_on_request(tmp_path: Path):
    code = """
int get(int *p) { return *p; }
"""
    path = tmp_path / "lib.c"
    path.write_text(HEADER + code)
    from cbam.engine import api

    fresh = api.verify_entries(str(path), options=api.VerifyOptions(timeout=20, property="memsafety"))
    assert fresh.result.verdict == "TRUE"  # p points to a fresh int
    null = api.verify_entries(str(path), options=api.VerifyOptions(timeout=20, property="memsafety",
                                                                   entry_null=True))
    assert null.result.verdict == "FALSE" and null.result.violations[0].kind == "valid-deref"
    assert any(i.source == "input p == NULL" and i.value != 0 for i in null.result.violations[0].inputs)
    assert "get((void *)0)" in null.result.violations[0].harness


ELIDED = """struct inner { int a[2]; int b; };
struct outer { struct inner in; int c; char name[4]; };
int main(void) {
  int v = __VERIFIER_nondet_int();
  struct outer o = {v, 2, 3, 4, "ab"};
  struct outer q = {{{v}}, 9};
  int m[2][3] = {1, 2, 3, v};
  struct inner i2 = o.in;
  struct outer r = {i2, 5};
  assert(o.in.a[0] == v && o.in.a[1] == 2 && o.in.b == 3 && o.c == 4 && o.name[1] == 'b' && o.name[2] == 0);
  assert(q.in.a[0] == v && q.in.a[1] == 0 && q.in.b == 0 && q.c == 9);
  assert(m[0][2] == 3 && m[1][0] == v && m[1][1] == 0);
  assert(r.in.a[0] == v && r.in.b == 3 && r.c == 5);
  CHECK
  return 0;
}
"""


@pytest.mark.parametrize("data_model", ["LP64", "ILP32"])
def test_initialisers_with_elided_braces_fill_the_members_in_order(tmp_path: Path, data_model: str):
    """C11 6.7.9p20: ``{1, 2}`` for ``struct { int a[2]; int c; }`` sets ``a`` and leaves ``c``
    zero. cbam had given the first initialiser to the whole member array and the second to
    ``c``, and so proved ``x.c == 2``, which fails when the program runs."""
    r = run(ELIDED.replace("CHECK", ""), tmp_path, data_model)
    assert r.verdict == "TRUE", r.reason
    false_replayed(ELIDED.replace("CHECK", "struct { int a[2]; int c; } x = {1, 2};\n  assert(x.c == 2);"),
                   tmp_path, data_model)
    false_replayed(ELIDED.replace("CHECK", "assert(o.c == 5);"), tmp_path, data_model)


NCOPY = """int main(void) {
  char src[8] = "hello";
  char dst[8];
  char raw[3] = {'a', 'b', 'c'};
  char d2[4];
  int k = __VERIFIER_nondet_int();
  if (k < 1 || k > 7) return 0;
  strncpy(dst, src, 7);
  strncpy(d2, raw, 3);
  d2[3] = 0;
  assert(dst[5] == 0 && dst[6] == 0 && dst[4] == 'o');
  assert(d2[2] == 'c' && strlen(d2) == 3);
  strncpy(dst, src, k);
  assert(CHECK);
  return 0;
}
"""


def test_strncpy_on_a_path_reads_to_the_terminator_and_pads_with_zeros(tmp_path: Path):
    """strncpy in the path encoding (it had made every such path unconfirmable: UNKNOWN): a
    source without a terminator within n (``raw``), padding, and a length only the path knows."""
    assert run(NCOPY.replace("CHECK", "dst[k - 1] == src[k - 1]"), tmp_path).verdict == "TRUE"
    r = false_replayed(NCOPY.replace("CHECK", "dst[k - 1] != 'o'"), tmp_path)
    assert r.violations[0].range.line == HEADER.count("\n") + 14
