"""What the front end lowers means what gcc makes of it: _Bool and its conversions, initialisers of
every shape, sizeof of every kind of object, string literals. Each value is gcc's (gcc_oracle.py):
cbam proves it and refutes it off by one, with a harness that fails under gcc."""

from __future__ import annotations

from pathlib import Path

import pytest

from .conftest import REPRO, verify_src
from .gcc_oracle import check_against_gcc

MODELS = ["LP64", "ILP32"]

BOOL_CONVERSIONS = """
extern int __VERIFIER_nondet_int(void);
struct flags { _Bool a; _Bool b; int n; };
_Bool ret_bool(int x) { return x; }
int take_bool(_Bool b) { return b; }
int main(void) {
  _Bool b = 256;          /* nonzero: 1, not the low byte */
  CHECK(b);
  _Bool c = 3 > 2;
  CHECK(c);
  b = -1; CHECK(b);
  b = 0; b++; CHECK(b); b++; CHECK(b);
  b--; CHECK(b); b--; CHECK(b);   /* 1 - 1 is 0; 0 - 1 is nonzero: 1 */
  b = 0; b += 2; CHECK(b);
  CHECK(~b);               /* promoted to int */
  CHECK(b << 8);
  CHECK(sizeof(_Bool)); CHECK(sizeof b);
  CHECK(ret_bool(512)); CHECK(take_bool(1024));
  struct flags f = { 3, 0, 7 };
  CHECK(f.a); CHECK(f.b); CHECK(f.n);
  _Bool arr[3] = { 5, 0, -7 };
  CHECK(arr[0] + arr[1] + arr[2]);
  _Bool *p = &arr[1]; *p = 1000; CHECK(arr[1]);
  CHECK((char)b); CHECK(-b); CHECK(!b); CHECK(b == 1);
  unsigned char u = 2; b = u & 2; CHECK(b);
  return 0;
}
"""


@pytest.mark.parametrize("model", MODELS)
def test_bool_conversions(model: str, tmp_path: Path) -> None:
    check_against_gcc(BOOL_CONVERSIONS, tmp_path, model)


@pytest.mark.parametrize("source", ["__VERIFIER_nondet_bool()", "__VERIFIER_nondet_int()", "__VERIFIER_nondet_uchar()"])
@pytest.mark.parametrize("model", MODELS)
def test_bool_holds_zero_or_one(source: str, model: str, tmp_path: Path) -> None:
    """A _Bool from any input is 0 or 1, in every engine's encoding (the bit-vector path check kept
    all 256 values of its byte, and confirmed ``b != 0 && b != 1``)."""
    code = f"""extern void reach_error(void);
extern _Bool __VERIFIER_nondet_bool(void); extern int __VERIFIER_nondet_int(void);
extern unsigned char __VERIFIER_nondet_uchar(void);
struct s {{ _Bool f; }};
int main(void) {{
  _Bool b1 = {source};
  if (!(b1 == 0 || b1 == 1)) reach_error();
  struct s x; x.f = {source};
  if (x.f > 1) reach_error();
  _Bool a[2]; a[1] = {source};
  if (a[1] != 0 && a[1] != 1) reach_error();
  int n = 0;
  for (int i = 0; i < 3; i++) {{ _Bool t = {source}; n += t; }}
  if (n > 3) reach_error();
  return 0;
}}
"""
    r = verify_src(code, tmp_path, model, timeout=60)
    assert r.verdict == "TRUE", (r.verdict, r.reason, [str(s) for v in r.violations for s in v.steps])


@pytest.mark.parametrize("model", MODELS)
def test_bool_inputs_that_break(model: str, tmp_path: Path) -> None:
    """The other side: a property that one of _Bool's two values breaks is FALSE, and replays."""
    from .conftest import assert_replay_reaches_error

    code = """extern void reach_error(void);
extern _Bool __VERIFIER_nondet_bool(void);
int main(void) { _Bool b = __VERIFIER_nondet_bool(); int x = b + 1; if (x == 2) reach_error(); return 0; }
"""
    r = verify_src(code, tmp_path, model, timeout=60)
    assert r.verdict == "FALSE"
    assert_replay_reaches_error(tmp_path / "prog.c", r, model, tmp_path)


@pytest.mark.parametrize("prop", ["unreach-call", "memsafety"])
def test_bool_compare_repro(prop: str, tmp_path: Path) -> None:
    r = verify_src((REPRO / "bool_compare.c").read_text(), tmp_path, timeout=60, property=prop)
    assert r.verdict == "TRUE", r.reason


INITIALISER_DECLARATIONS = r"""
struct point { int x, y; };
struct rect { struct point a, b; int tag; };
struct named { const char *name; int v; };
union num { int i; unsigned char bytes[4]; short s; };
struct anon { int k; union { int u; char c; }; struct { short p, q; }; };
struct holder { int n; char text[6]; int arr[3]; };

static const unsigned char braced[] = {"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"};
char plain[] = "hello";
char sized[8] = {"hi"};
int by_index[] = { [4] = 7, [1] = 3, 9 };       /* 0 3 9 0 7: length 5 */
struct rect r1 = { .b = { .y = 4, 5 }, .a.x = 1, 2, 99 };
struct rect r2 = { 1, 2, 3, 4, 5 };              /* braces elided */
struct rect r3 = { { 1 }, .tag = 6, };
struct point pts[] = { { 1, 2 }, [3].y = 8, 5, 6 };   /* .y of [3], then [4] = {5, 6}: length 5 */
struct named names[] = { { "a", 1 }, { .v = 2, .name = "bb" } };
union num n1 = { .s = -2 };
union num n2 = { 0x01020304 };
struct anon an = { .c = 'z', .q = 3, .k = 1 };
struct holder h1 = { 1, "abc", { 4, 5 } };
struct holder h2 = { .arr[2] = 9, .text = { 'x', 'y' } };
int grid[][3] = { 1, 2, 3, 4, [3][1] = 5 };     /* rows: {1,2,3} {4,0,0} {0,0,0} {0,5,0} */
char words[][4] = { "ab", { "cde" }, "f" };
int scalar = { 42 };
struct point empty_braces = {};
static int counter;
int next(void) { return ++counter; }
"""

INITIALISERS = {
    # (a program per half: CEGAR refines once per value checked, and its cost grows faster than that)
    "globals": INITIALISER_DECLARATIONS + "int main(void) {\n" + r"""  CHECK(sizeof(braced)); CHECK(braced[63]); CHECK(braced[64]);
  CHECK(sizeof(plain)); CHECK(plain[4]);
  CHECK(sizeof(sized)); CHECK(sized[1]); CHECK(sized[7]);
  CHECK(sizeof(by_index) / sizeof(by_index[0]));
  CHECK(by_index[0]); CHECK(by_index[1]); CHECK(by_index[2]); CHECK(by_index[3]); CHECK(by_index[4]);
  CHECK(r1.a.x); CHECK(r1.a.y); CHECK(r1.b.x); CHECK(r1.b.y); CHECK(r1.tag);
  CHECK(r2.a.x); CHECK(r2.b.y); CHECK(r2.tag);
  CHECK(r3.a.x); CHECK(r3.a.y); CHECK(r3.tag);
  CHECK(sizeof(pts) / sizeof(pts[0])); CHECK(pts[3].x); CHECK(pts[3].y); CHECK(pts[4].x); CHECK(pts[4].y);
  CHECK(names[1].v); CHECK(names[1].name[1]); CHECK(names[0].name[0]);
  CHECK(n1.s); CHECK(n2.i); CHECK(n2.bytes[0]);
  CHECK(an.k); CHECK(an.c); CHECK(an.p); CHECK(an.q);
  CHECK(h1.text[2]); CHECK(h1.text[3]); CHECK(h1.arr[1]); CHECK(h1.arr[2]);
  CHECK(h2.n); CHECK(h2.text[1]); CHECK(h2.arr[2]);
  CHECK(sizeof(grid) / sizeof(grid[0])); CHECK(grid[1][0]); CHECK(grid[3][1]); CHECK(grid[2][2]);
  CHECK(sizeof(words)); CHECK(words[1][2]); CHECK(words[2][0]); CHECK(words[2][1]);
  CHECK(scalar); CHECK(empty_braces.y);
""" + "  return 0;\n}\n",
    "locals": INITIALISER_DECLARATIONS + "int main(void) {\n" + r"""  /* the same shapes as locals, with side effects evaluated once each, in order */
  char lbr[] = {"abc"};
  int lidx[] = { [2] = next(), next(), [0] = next() };
  struct rect lr = { .b.x = next(), next(), .a = { next() } };
  struct point lp[] = { [1] = { .y = 2 }, { 3 } };
  static char sl[] = {"stat"};
  CHECK(sizeof(lbr)); CHECK(lbr[2]); CHECK(lbr[3]);
  CHECK(sizeof(lidx) / sizeof(int)); CHECK(lidx[0]); CHECK(lidx[1]); CHECK(lidx[2]); CHECK(lidx[3]);
  CHECK(lr.b.x); CHECK(lr.b.y); CHECK(lr.a.x); CHECK(lr.a.y); CHECK(lr.tag);
  CHECK(sizeof(lp) / sizeof(lp[0])); CHECK(lp[1].y); CHECK(lp[2].x); CHECK(lp[0].y);
  CHECK(sizeof(sl)); CHECK(sl[3]);
  struct rect copy = { lr.a, { 7, 8 } };
  CHECK(copy.a.x); CHECK(copy.b.y);
""" + "  return 0;\n}\n",
}


@pytest.mark.parametrize("part", sorted(INITIALISERS))
@pytest.mark.parametrize("model", MODELS)
def test_initialisers(part: str, model: str, tmp_path: Path) -> None:
    check_against_gcc(INITIALISERS[part], tmp_path, model, timeout=120)


RANGES = r"""
int a[10] = { [2 ... 5] = 7, [8] = 1 };
struct point { int x, y; } ps[4] = { [1 ... 2] = { 3, 4 } };
static int calls;
int f(void) { return ++calls; }
int main(void) {
  CHECK(a[1]); CHECK(a[2]); CHECK(a[5]); CHECK(a[6]); CHECK(a[8]);
  CHECK(ps[0].x); CHECK(ps[1].y); CHECK(ps[2].x); CHECK(ps[3].y);
  int b[] = { [0 ... 3] = f(), f() };   /* GNU: the range's initialiser is evaluated once */
  CHECK(sizeof(b) / sizeof(int)); CHECK(b[0]); CHECK(b[3]); CHECK(b[4]); CHECK(calls);
  struct { int k; int v; } o = { v: 5, k: 6 };   /* GNU's old member designators */
  CHECK(o.k); CHECK(o.v);
  return 0;
}
"""


@pytest.mark.parametrize("model", MODELS)
def test_gnu_range_and_old_designators(model: str, tmp_path: Path) -> None:
    check_against_gcc(RANGES, tmp_path, model, timeout=120)


@pytest.mark.parametrize("prop", ["unreach-call", "memsafety"])
def test_braced_string_repro(prop: str, tmp_path: Path) -> None:
    """crypto-algorithms' base64 alphabet: sizeof is 65 and every charset[c >> 2] is in bounds."""
    r = verify_src((REPRO / "braced_string_init.c").read_text(), tmp_path, timeout=60, property=prop)
    assert r.verdict == "TRUE", (r.reason, [str(s) for v in r.violations for s in v.steps])


COMPOUND_LITERALS = r"""
struct point { int x, y; };
int *gp = (int[]){ 10, 20, 30 };
struct point *gq = &(struct point){ .y = 7 };
int sum(const int *a, int n) { int s = 0; for (int i = 0; i < n; i++) s += a[i]; return s; }
int norm1(struct point p) { return (p.x < 0 ? -p.x : p.x) + (p.y < 0 ? -p.y : p.y); }
int main(void) {
  CHECK(gp[1]); CHECK(gq->x); CHECK(gq->y);
  CHECK(sum((int[]){ 1, 2, 3, 4 }, 4));
  CHECK(norm1((struct point){ -3, 4 }));
  struct point p = (struct point){ .y = 1, .x = 2 };
  CHECK(p.x); CHECK(p.y);
  int *q = (int[5]){ [3] = 9 };
  q[0] = 4;
  CHECK(q[0] + q[3] + q[4]);
  CHECK(sizeof((char[]){ "abc" }));
  CHECK((int){ 41 } + 1);
  p = (struct point){ p.y, p.x };   /* reads the old p before the new one is stored */
  CHECK(p.x); CHECK(p.y);
  return 0;
}
"""


@pytest.mark.parametrize("model", MODELS)
def test_compound_literals(model: str, tmp_path: Path) -> None:
    check_against_gcc(COMPOUND_LITERALS, tmp_path, model, timeout=120)


@pytest.mark.parametrize("model", MODELS)
def test_compound_literals_memsafety(model: str, tmp_path: Path) -> None:
    """A compound literal is an object of its size: in bounds within it, out of bounds past it."""
    code = """extern int __VERIFIER_nondet_int(void);
int main(void) { int i = __VERIFIER_nondet_int(); if (i < 0 || i > 3) return 0;
  int *p = (int[]){ 1, 2, 3, 4 }; return p[i]; }
"""
    assert verify_src(code, tmp_path, model, timeout=60, property="memsafety").verdict == "TRUE"
    bad = code.replace("i > 3", "i > 4")
    r = verify_src(bad, tmp_path, model, timeout=60, property="memsafety", name="bad.c")
    assert r.verdict == "FALSE" and r.violations[0].kind == "valid-deref"


PROMOTIONS = r"""
enum colour { RED = -1, GREEN = 5 };
struct padded { char c; long l; short s; };
struct inner { char a[3]; };
int f(void) { return 1; }
int main(void) {
  unsigned char uc = 200, ud = 100;
  signed char sc = -3;
  unsigned short us = 65535;
  short ss = -32768;
  unsigned u = 1;
  long l = -1;
  CHECK(uc + ud); CHECK((unsigned char)(uc + ud)); CHECK(uc * ud);
  CHECK(sc >> 1); CHECK(sc / 2); CHECK(sc % 2); CHECK(-7 / 2); CHECK(-7 % 2);
  CHECK(us + 1); CHECK((unsigned short)(us + 1)); CHECK(ss - 1); CHECK((short)(ss - 1));
  CHECK(l < u); CHECK(-1 < 0u); CHECK(l < 1ul); CHECK((char)200); CHECK((signed char)128);
  CHECK(~uc); CHECK(~0u); CHECK(-u); CHECK(u << 31); CHECK(1 << 30);
  uc += 300; CHECK(uc); sc *= 50; CHECK(sc); us <<= 4; CHECK(us);
  char c = 127; c++; CHECK(c);
  CHECK(sizeof 'a'); CHECK(sizeof "abc"); CHECK(sizeof(struct padded)); CHECK(sizeof(struct inner[2]));
  CHECK(sizeof(long)); CHECK(sizeof(void *)); CHECK(sizeof(long long)); CHECK(sizeof l + 1);
  CHECK(sizeof(f)); CHECK(sizeof(&f)); CHECK(sizeof(enum colour)); CHECK(RED < GREEN);
  CHECK(sizeof(uc + uc)); CHECK(sizeof(uc ? l : uc)); CHECK(sizeof(-uc)); CHECK(sizeof(1 ? 'a' : 2L));
  CHECK(_Alignof(long long)); CHECK(_Alignof(struct padded)); CHECK(__alignof__(long long)); CHECK(_Alignof(void));
  CHECK((1, 2)); CHECK(0x7fffffff + 0u + 1u); CHECK((unsigned long)-1 > 0);
  CHECK((long long)(unsigned)-1); CHECK((int)(unsigned short)-1); CHECK((unsigned char)-1 == 255);
  CHECK('\377'); CHECK('\x41'); CHECK("\101\x42"[1]); CHECK(L'a'); CHECK(sizeof(L"ab")); CHECK(L"ab"[1]);
  return 0;
}
"""


@pytest.mark.parametrize("model", MODELS)
def test_promotions_conversions_sizeof(model: str, tmp_path: Path) -> None:
    check_against_gcc(PROMOTIONS, tmp_path, model, timeout=120)


TENTATIVE = r"""
extern int x; int x;
int y; extern int y;
extern int z; int z; int z;
extern int a[]; int a[3];
struct s { int f; }; extern struct s s1; struct s s1;
extern int w; int w = 4;
int main(void) {
  CHECK(x); CHECK(y); CHECK(z); CHECK(a[2]); CHECK(sizeof a); CHECK(s1.f); CHECK(w);
  return 0;
}
"""


@pytest.mark.parametrize("model", MODELS)
def test_tentative_definition_after_extern(model: str, tmp_path: Path) -> None:
    """``extern int x; int x;`` defines x here, as zero (C11 6.9.2p2): the extern declaration's
    unknown value was kept (c-testsuite 00110, found by the differential suite)."""
    check_against_gcc(TENTATIVE, tmp_path, model)


FLEXIBLE = r"""
#include <string.h>
struct msg { int n; int d[]; };
struct name { short len; char text[]; };
static struct msg m = { 3, { 7, 8, 9 } };
struct name greeting = { .text = "hello", .len = 5 };
int total(const struct msg *p) { int s = 0; for (int i = 0; i < p->n; i++) s += p->d[i]; return s; }
int main(void) {
  static struct msg local = { 1, { 42 } };
  CHECK(sizeof m); CHECK(sizeof(struct msg)); CHECK(m.d[2]); CHECK(total(&m));
  CHECK(sizeof greeting); CHECK(greeting.text[4]); CHECK(strlen(greeting.text)); CHECK(greeting.len);
  CHECK(local.d[0]); CHECK(total(&local));
  return 0;
}
"""


@pytest.mark.parametrize("model", MODELS)
def test_flexible_array_member_initialisers(model: str, tmp_path: Path) -> None:
    """GNU C: a static struct's flexible array member takes its length from its initialiser; the
    object is that large, sizeof of its type is not."""
    check_against_gcc(FLEXIBLE, tmp_path, model)


@pytest.mark.parametrize("model", MODELS)
def test_flexible_array_member_bounds(model: str, tmp_path: Path) -> None:
    code = """extern int __VERIFIER_nondet_int(void);
struct msg { int n; int d[]; };
static struct msg m = { 3, { 7, 8, 9 } };
int main(void) { int i = __VERIFIER_nondet_int(); if (i < 0 || i > 2) return 0; return m.d[i]; }
"""
    assert verify_src(code, tmp_path, model, timeout=60, property="memsafety").verdict == "TRUE"
    r = verify_src(code.replace("i > 2", "i > 3"), tmp_path, model, timeout=60, property="memsafety", name="bad.c")
    assert r.verdict == "FALSE" and r.violations[0].kind == "valid-deref"
