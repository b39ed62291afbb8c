"""GNU syntax pycparser cannot parse, rewritten by the token pass (frontend/gnu_syntax.py) with
the positions of what the user wrote kept: ``a ?: b``, ``case lo ... hi:``, range designators,
the obsolete ``x:`` field designators and wide constants of several characters (``L'ab'``); and
literals of every width (``L'a'``, ``L"ab"``, ``u"..."``, ``U"..."``, ``u8"..."``). Each value is gcc's (gcc_oracle.py): cbam proves it and refutes it off by
one, with the value analysis alone and with the default configuration."""

from __future__ import annotations

from pathlib import Path

import pytest
from cbam.engine.cfa.ir import AssignEdge, AssumeEdge, CallEdge
from cbam.engine.cfa.translate.common import parse_char_literal, parse_string_literal
from cbam.engine.frontend.cparser import GnuParser
from cbam.engine.frontend.gnu_syntax import rewrite_gnu_syntax
from cbam.engine.frontend.tokens import split_preprocessed
from pycparser import c_ast

from .conftest import load_src
from .gcc_oracle import check_against_gcc

MODELS = ["LP64", "ILP32"]

ELVIS = """
int calls;
int g = 0 ?: 5, h = 3 ?: 5;                /* static initialisers */
int *gp = 0 ?: &g;
struct sized { char m[1 ?: 9]; };
int count(int v) { calls++; return v; }
int *pick(int *p, int *q) { return p ?: q; }
int main(void) {
  int x = 0, y = 5, z;
  CHECK(x ?: y);
  CHECK(y ?: 9);
  CHECK(count(0) ?: count(4));
  CHECK(calls);                         /* the condition is evaluated once */
  CHECK(count(3) ?: count(4));
  CHECK(calls);
  CHECK(x ?: y ?: 7);                   /* nested, to the right */
  CHECK((x ?: 0) ?: 8);                 /* nested, to the left */
  CHECK(x ? 1 : y ?: 2);
  CHECK(-1 ?: 2u);                      /* the usual conversions: unsigned */
  CHECK((x ?: 2u) - 3 > 0);
  CHECK(sizeof(x ?: 1LL));
  CHECK((char)0 ?: (char)-1);
  z = x++ ?: 10;                        /* x++ is 0: the result is 10, and x is 1 */
  CHECK(z); CHECK(x);
  z = x++ ?: 10;
  CHECK(z); CHECK(x);
  if (x - 2 ?: 0) z = 1; else z = 2;    /* as a condition */
  CHECK(z);
  while (y - 3 ?: 0) y--;
  CHECK(y);
  int a[] = { 4, 0 };
  CHECK(a[1] ?: a[0]);
  CHECK(*pick(&a[1], &a[0]));
  CHECK(*pick(0, &a[0]));
  enum { E = 0 ?: 6, F = E ?: 1 };      /* in constant expressions */
  CHECK(E + F);
  char buf[(0 ?: 3) + 1];
  CHECK(sizeof buf);
  for (int n = 0; n < 3; n++)
    switch (n) { case 1 ?: 2: z += 11; break; case 0 ?: 2: z += 100; break; default: z += 1000; }
  CHECK(z);
  static int st = 0 ?: 7;
  CHECK(g); CHECK(h); CHECK(*gp); CHECK(sizeof(struct sized)); CHECK(st);
  return 0;
}
"""

CASE_RANGES = """
int classify(int c) {
  switch (c) {
    case '0' ... '9': return 1;
    case 'a' ... 'f': case 'A' ... 'F': return 2;
    case -5 ... -1: return 3;
    case 200 ... 200: return 4;
    case 20 ... 10: return 5;             /* empty: never taken */
    default: return 0;
  }
}
int wide(unsigned char u) {
  switch (u) { case 0 ... 127: return 1; case 128 ... 255: return 2; }
  return 3;
}
int main(void) {
  CHECK(classify('0')); CHECK(classify('9')); CHECK(classify('5'));
  CHECK(classify('/')); CHECK(classify(':'));
  CHECK(classify('c')); CHECK(classify('F')); CHECK(classify('g'));
  CHECK(classify(-5)); CHECK(classify(-1)); CHECK(classify(0)); CHECK(classify(-6));
  CHECK(classify(200)); CHECK(classify(15)); CHECK(classify(201));
  CHECK(wide(127) * 10 + wide(128) + wide(255));
  int k = 0;
  for (int i = -10; i < 210; i++) k += classify(i);
  CHECK(k);
  return 0;
}
"""

WIDE = """
#include <stddef.h>
#include <uchar.h>
int main(void) {
  CHECK(L'a'); CHECK(sizeof(L'a'));
  CHECK(L'\\xff'); CHECK(L'\\xFFFFFFFF'); CHECK(L'\\377');
  CHECK(u'\\xFFFF'); CHECK(sizeof(u'x')); CHECK(u'x' - 200 < 0);
  CHECK(U'\\U0001F600'); CHECK(sizeof(U'x')); CHECK(U'x' - 200 < 0);
  CHECK(L'\\u00e9'); CHECK(L'\u00e9');
  CHECK(L'ab'); CHECK(u'ab'); CHECK(U'a\\x41'); CHECK(u'\\U0001F600');   /* the last element */
  CHECK(sizeof(L"ab")); CHECK(L"ab"[1]); CHECK(L"ab"[2]);
  CHECK(sizeof(L"ab" "cd"));
  CHECK(sizeof(u"\\U0001F600")); CHECK(u"\\U0001F600"[0]); CHECK(u"\\U0001F600"[1]);
  CHECK(sizeof(U"\\U0001F600x")); CHECK(U"\\U0001F600x"[1]);
  CHECK(sizeof(u8"\\u00e9")); CHECK((unsigned char)u8"\\u00e9"[0]); CHECK(u8"\\u00e9"[1]);
  CHECK(sizeof("\\u00e9")); CHECK("\\u00e9"[0]);
  CHECK(L"\\x80\\377"[1]); CHECK(L"\\xFFFFFFFF"[0]);
  wchar_t *p = L"xyz";
  CHECK(p[0] + p[1] * 1000 + p[3]);
  const char16_t *q = u"hi";
  CHECK(q[1]); CHECK(sizeof(*q));
  const char32_t *r = U"\\xFFFFFFFF";
  CHECK(r[0] > 0);
  int n = 0;
  for (const wchar_t *w = L"hello"; *w; w++) n++;
  CHECK(n);
  return 0;
}
"""


@pytest.mark.parametrize("model", MODELS)
def test_elvis_operator(model: str, tmp_path: Path) -> None:
    check_against_gcc(ELVIS, tmp_path, model, timeout=120, mutant=3)
    check_against_gcc(ELVIS, tmp_path, model, timeout=120, mutant=15, config="value")


@pytest.mark.parametrize("model", MODELS)
def test_case_ranges(model: str, tmp_path: Path) -> None:
    values = check_against_gcc(CASE_RANGES, tmp_path, model, timeout=120)
    assert values[13] == 0  # the empty range 20 ... 10 takes nothing
    check_against_gcc(CASE_RANGES, tmp_path, model, timeout=120, mutant=8, config="value")


@pytest.mark.parametrize("model", MODELS)
def test_wide_literals(model: str, tmp_path: Path) -> None:
    check_against_gcc(WIDE, tmp_path, model, timeout=120, mutant=14)
    check_against_gcc(WIDE, tmp_path, model, timeout=120, mutant=-2, config="value")


def test_literal_helpers() -> None:
    assert parse_string_literal('L"ab"') == ([97, 98, 0], "int")
    assert parse_string_literal('u"\\U0001F600"') == ([0xD83D, 0xDE00, 0], "unsigned short")
    assert parse_string_literal('U"\\xFFFFFFFF" "a"') == ([0xFFFFFFFF, 97, 0], "unsigned int")
    assert parse_string_literal('u8"\\u00e9"') == ([0xC3, 0xA9, 0], "char")
    assert parse_string_literal('"\\x1" "2"') == ([1, 50, 0], "char")
    assert parse_string_literal('L"\u00e9"') == ([0xE9, 0], "int")
    assert parse_char_literal("L'\\xFFFFFFFF'") == (-1, "int")
    assert parse_char_literal("u'\\xFFFF'") == (0xFFFF, "unsigned short")


def _rewritten(code: str, tmp_path: Path) -> str:
    from cbam.engine.frontend.preprocess import preprocess
    path = tmp_path / "r.c"
    path.write_text(code)
    return rewrite_gnu_syntax(*split_preprocessed(preprocess(str(path))))[1]


DESIGNATORS = """
struct point { int x, y; unsigned flag: 1, more: 2; };
struct line { struct point a, b; };
int f(int v) {
  struct point p = { y: 2, x: 1 };
  struct point q = { y: 5, .x = 6 };
  struct line l = { a: { x: 1 }, .b = { y: v ? 1 : 2 } };
  int arr[8] = { [1 ... 3] = 7, [5] = 1, [6 ... 7] = v ?: 3 };
  struct point r = (struct point){ x: 4 };
  switch (v) { case 1: break; default: break; }
  lbl: v = v ? 1 : 2;
  { inner: v++; }
  return p.x + q.y + l.a.x + arr[2] + r.x;
}
"""


DESIGNATED = """
struct point { int x, y; };
struct shape { struct point a, b; int n[4]; };
int main(void) {
  struct point p = { y: 2, x: 1 };
  struct shape s = { b: { y: 5 }, n: { [1 ... 2] = 9 } };
  int a[8] = { [1 ... 3] = 7, [5] = 1, [6 ... 7] = 4 };
  struct point q = (struct point){ y: 8 };
  CHECK(p.x); CHECK(p.y);
  CHECK(s.a.x); CHECK(s.b.x); CHECK(s.b.y); CHECK(s.n[0]); CHECK(s.n[1]); CHECK(s.n[2]); CHECK(s.n[3]);
  CHECK(a[0]); CHECK(a[1]); CHECK(a[3]); CHECK(a[4]); CHECK(a[5]); CHECK(a[6]); CHECK(a[7]);
  CHECK(q.x); CHECK(q.y);
  return 0;
}
"""


@pytest.mark.parametrize("model", MODELS)
def test_old_style_and_range_designators_mean_what_gcc_makes_of_them(model: str, tmp_path: Path) -> None:
    check_against_gcc(DESIGNATED, tmp_path, model, timeout=120, mutant=4)
    check_against_gcc(DESIGNATED, tmp_path, model, timeout=120, mutant=11, config="value")


def test_designators_are_rewritten_to_what_pycparser_parses(tmp_path: Path) -> None:
    """Only inside an initialiser's braces: labels, bit-fields, case labels and ``?:`` stay."""
    text = _rewritten(DESIGNATORS, tmp_path)
    lines = [ln.strip() for ln in text.split("\n") if ln.strip()]
    assert "struct point { int x, y; unsigned flag: 1, more: 2; };" in lines
    assert "struct point p = { .y= 2, .x= 1 };" in lines
    assert "struct point q = { .y= 5, .x = 6 };" in lines
    assert "struct line l = { .a= { .x= 1 }, .b = { .y= v ? 1 : 2 } };" in lines
    assert "int arr[8] = { [__cbam_range(1 , 3)] = 7, [5] = 1, [__cbam_range(6 , 7)] = v ? __cbam_elvis : 3 };" \
        in lines
    assert "struct point r = (struct point){ .x= 4 };" in lines
    assert "switch (v) { case 1: break; default: break; }" in lines
    assert "lbl: v = v ? 1 : 2;" in lines and "{ inner: v++; }" in lines
    ast = GnuParser().parse(text)
    fn = ast.ext[-1]
    assert isinstance(fn, c_ast.FuncDef)
    arr = next(d for d in fn.body.block_items if isinstance(d, c_ast.Decl) and d.name == "arr")
    first = arr.init.exprs[0]
    assert isinstance(first, c_ast.NamedInitializer)
    (designator,) = first.name
    call = designator.expr
    assert isinstance(call, c_ast.FuncCall) and call.name.name == "__cbam_range"
    assert [a.value for a in call.args.exprs] == ["1", "3"]


def test_text_without_the_constructs_is_left_alone(tmp_path: Path) -> None:
    from cbam.engine.frontend.preprocess import preprocess
    path = tmp_path / "plain.c"
    path.write_text("#include <stdio.h>\nint main(void) { int a = 1 ? 2 : 3; printf(\"%d ...\", a); return 0; }\n")
    lines, text = split_preprocessed(preprocess(str(path)))
    out_lines, out_text = rewrite_gnu_syntax(lines, text)
    assert out_lines is lines and out_text is text


def test_positions_of_what_the_user_wrote_are_kept(tmp_path: Path) -> None:
    code = ("int g(int a, int b) {\n"
            "  int r = a  ?:   b + 100;\n"
            "  switch (a) { case 1   ...   3: r = 7; break; }\n"
            "  return r;\n"
            "}\n"
            "int main(void) { return g(0, 1); }\n")
    p = load_src(code, tmp_path)
    g = p.functions["g"]
    assert g.unsupported is None, p.diagnostics
    edges = list(g.edges())
    cond = [e for e in edges if isinstance(e, AssumeEdge) and e.range.line == 2]
    assert cond and all((e.range.col, e.range.end_col, e.text) == (11, 12, "a") for e in cond)
    arm = [e for e in edges if isinstance(e, AssignEdge) and e.range.line == 2 and "100" in e.text]
    assert arm and (arm[0].range.col, arm[0].range.end_col) == (19, 26)  # `b + 100`
    rng = [e for e in edges if isinstance(e, AssumeEdge) and e.range.line == 3]
    assert rng and all((e.range.col, e.range.end_col) == (21, 32) for e in rng)  # `1   ...   3`
    assert any(isinstance(e, CallEdge) for e in p.functions["main"].edges())


@pytest.mark.parametrize("model", MODELS)
def test_the_incremental_front_end_builds_the_rewritten_program_as_a_whole_file_build(model: str,
                                                                                      tmp_path: Path) -> None:
    from cbam.engine.cfa import load as load_module
    from cbam.engine.cfa import reuse
    from cbam.engine.frontend import chunks
    from cbam.engine.frontend.preprocess import PreprocessOptions

    from .test_incremental_frontend import digest, whole
    from .test_variadic import VARIADIC

    path = tmp_path / "all.c"
    path.write_text("#define CHECK(e) __cbam_assert(e)\n" + VARIADIC.replace("int main(void)", "int main2(void)")
                    + ELVIS
                    + CASE_RANGES.replace("int main(void)", "int main3(void)"))
    opts = PreprocessOptions(data_model=model)
    reuse.clear()
    chunks._AST_MEMO.clear()
    load_module._MEMO.clear()
    built = load_module.load_program(str(path), options=opts)
    assert built.load_stats and built.load_stats["chunks"] > 10  # the incremental front end built it
    assert all(f.unsupported is None for f in built.functions.values()), built.diagnostics
    assert digest(built) == digest(whole(path, opts))
