"""Structs laid out as gcc lays them out (issue 54): packed and aligned attributes, #pragma
pack, bit-fields; attributes read, not erased, and the ones cbam does not model unsupported.

The layouts and values are gcc's: random shapes (tests/struct_shapes.py) are compiled by gcc,
which prints their layout, or a snippet's values (gcc_oracle.py) that cbam must prove, and
refute off by one with a harness that fails under gcc, in both data models."""

from __future__ import annotations

import random
import shutil
import subprocess
from pathlib import Path

import pytest
from cbam.engine.cfa.ctype import DataModel
from cbam.engine.cfa.struct_layout import Fields, LayoutError, MemberSpec, lay_out
from cbam.engine.frontend.attributes import HARMLESS, LAYOUT, UNSUPPORTED, read_attributes

from .conftest import M32, REPRO, load_src, verify_src
from .gcc_oracle import check_against_gcc
from .struct_shapes import definitions, measure, random_shapes, value_program

MODELS = ["LP64", "ILP32"]


def _needs_gcc(model: str) -> None:
    if shutil.which("gcc") is None:
        pytest.skip("gcc is not installed")
    if model == "ILP32" and not M32:
        pytest.skip("gcc -m32 (gcc-multilib) is not installed")


# ---- the layout algorithm, on facts gcc 12 gives ---------------------------------------
def _layout(model: str, members: list[MemberSpec], union: bool = False, **kw) -> Fields:
    dm = DataModel(model)
    return lay_out(dm, union, members, dm.sizeof, dm.alignof, **kw)


@pytest.mark.parametrize("model", MODELS)
def test_packed_struct_has_no_padding(model: str) -> None:
    dm = DataModel(model)
    f = _layout(model, [MemberSpec("len", dm.uint), MemberSpec("flags", dm.char)], packed=True)
    assert (f.size, f.align, f.offsets) == (5, 1, [0, 4])


def test_a_bitfield_that_would_straddle_its_unit_starts_the_next() -> None:
    dm = DataModel("LP64")
    f = _layout("LP64", [MemberSpec("a", dm.char), MemberSpec("b", dm.int, 31)])
    assert (f.size, f.align, f.bitfields["b"].bit) == (8, 4, 32)
    f = _layout("LP64", [MemberSpec("a", dm.char), MemberSpec("b", dm.int, 24)])
    assert (f.size, f.bitfields["b"].bit) == (4, 8)  # fits in the unit after a


@pytest.mark.parametrize("model, size, align", [("ILP32", 8, 4), ("LP64", 8, 8)])
def test_long_long_bitfields_use_the_models_alignment(model: str, size: int, align: int) -> None:
    dm = DataModel(model)
    f = _layout(model, [MemberSpec("a", dm.char), MemberSpec("b", dm.llong, 40)])
    assert (f.size, f.align, f.bitfields["b"].bit) == (size, align, 8)


def test_zero_width_bitfield_aligns_what_follows_but_not_the_struct() -> None:
    dm = DataModel("LP64")
    f = _layout("LP64", [MemberSpec("a", dm.char), MemberSpec(None, dm.int, 0), MemberSpec("b", dm.char)])
    assert (f.size, f.align, f.offset_of("b")) == (5, 1, 4)


def test_pragma_pack_caps_even_an_aligned_member_and_drops_the_straddle_rule() -> None:
    dm = DataModel("LP64")
    f = _layout("LP64", [MemberSpec("a", dm.char), MemberSpec("b", dm.int, aligned=8)], pack=2)
    assert (f.size, f.align, f.offset_of("b")) == (6, 2, 2)
    f = _layout("LP64", [MemberSpec("a", dm.char), MemberSpec("b", dm.int, 31), MemberSpec("c", dm.int, 2)], pack=2)
    assert (f.size, f.align, f.bitfields["b"].bit, f.bitfields["c"].bit) == (6, 2, 8, 39)


def test_aligned_without_argument_is_sixteen_and_storage_never_overlaps_members() -> None:
    dm = DataModel("ILP32")
    f = _layout("ILP32", [MemberSpec("c", dm.char)], aligned=16)
    assert (f.size, f.align) == (16, 16)
    f = _layout("ILP32", [MemberSpec("a", dm.uint, 3), MemberSpec("c", dm.char), MemberSpec("d", dm.ushort, 9)])
    assert [o for o in f.offsets] == sorted(f.offsets)
    spans = [(o, o + dm.sizeof(t)) for (_, t), o in zip(f, f.offsets)]
    assert all(a[1] <= b[0] for a, b in zip(spans, spans[1:]))
    assert f.declared == ["a", "c", "d"]


def test_bitfields_gcc_rejects_are_layout_errors() -> None:
    dm = DataModel("LP64")
    for bad in ([MemberSpec("a", dm.char, 9)], [MemberSpec("a", dm.int, 0)], [MemberSpec("b", dm.bool, 2)]):
        with pytest.raises(LayoutError):
            _layout("LP64", bad)


# ---- gcc's layouts of random shapes --------------------------------------------------------
@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("model", MODELS)
def test_layouts_of_random_shapes_are_gccs(model: str, seed: int, tmp_path: Path) -> None:
    """sizeof, alignment, every member's offset and every bit-field's bits, of 150 shapes."""
    _needs_gcc(model)
    shapes = random_shapes(random.Random(seed), 150, model)
    gcc = measure(shapes, tmp_path, model)
    program = load_src(definitions(shapes) + "int main(void) { return 0; }\n", tmp_path, "shapes.c", model)
    for shape, want in zip(shapes, gcc):
        fields = program.structs.get(shape.ctype)
        assert isinstance(fields, Fields), shape.definition()
        got = (fields.size, fields.align, {n: fields.offset_of(n) for n in want.offsets},
               {n: (b.bit, b.width) for n, b in fields.bitfields.items()})
        assert got == (want.size, want.align, want.offsets, want.bits), shape.definition()


# ---- gcc's values, through the engines -------------------------------------------------------
def _value_snippets(model: str, seed: int, count: int, tmp_path: Path) -> list[tuple[str, int]]:
    """Snippets on random shapes with bit-fields, and for each the index of a check that reads a
    bit-field (the one the FALSE mutant puts off by one)."""
    rng = random.Random(seed)
    shapes = random_shapes(rng, 80, model)
    gcc = measure(shapes, tmp_path, model)
    out: list[tuple[str, int]] = []
    for k, (shape, want) in enumerate(zip(shapes, gcc)):
        fields = [m for m in shape.scalars() if m.bits]
        # Two bit-fields sharing a byte: a store must leave the other's bits alone.
        bytes_of = [set(range(lo // 8, (lo + w - 1) // 8 + 1)) for lo, w in want.bits.values()]
        if not any(a & b for i, a in enumerate(bytes_of) for b in bytes_of[i + 1:]):
            continue
        code = value_program(shape, random.Random(k), shapes[:k], want.size)
        body = code[code.index("int main"):]
        target = f"CHECK(s.{fields[-1].name});"
        out.append((code, body[:body.index(target)].count("CHECK(")))
        if len(out) == count:
            break
    return out


@pytest.mark.parametrize("seed", [3, 4])
@pytest.mark.parametrize("model", MODELS)
def test_bitfield_values_are_gccs(model: str, seed: int, tmp_path: Path) -> None:
    """Writes (truncated, neighbours untouched), sign-extended reads, compound assignment, ++,
    whole-struct copies and the bytes they leave, as gcc computes them."""
    _needs_gcc(model)
    for i, (code, mutant) in enumerate(_value_snippets(model, seed, 4, tmp_path)):
        d = tmp_path / f"s{i}"
        d.mkdir()
        check_against_gcc(code, d, model, timeout=120, mutant=mutant)


@pytest.mark.parametrize("options", [dict(config="value", horn=False), dict(config="predicate", horn=False),
                                     dict(config="cparec", horn=False), dict(config="interval", horn=False),
                                     dict(horn=True)], ids=["value", "predicate", "cparec", "interval", "horn"])
@pytest.mark.parametrize("model", MODELS)
def test_every_engine_reads_bitfields_as_gcc(model: str, options: dict, tmp_path: Path) -> None:
    _needs_gcc(model)
    code, mutant = _value_snippets(model, 5, 1, tmp_path)[0]
    check_against_gcc(code, tmp_path, model, timeout=120, mutant=mutant, **options)


@pytest.mark.parametrize("model", MODELS)
def test_bitfields_in_memory_are_memory_safe(model: str, tmp_path: Path) -> None:
    _needs_gcc(model)
    code, _ = _value_snippets(model, 6, 1, tmp_path)[0]
    check_against_gcc(code, tmp_path, model, timeout=120, mutant=None, property="memsafety")


BITFIELDS_BY_HAND = """
struct flags { unsigned a : 3; int b : 5; char c; unsigned long long d : 40; _Bool e : 1; int : 0; short f : 9; };
struct flags g = { 9, 17 };            /* static storage: truncated like any other store */
int main(void) {
  struct flags s = { 5, -3, 7, 0xFFFFFFFFFFull, 1, -200 };
  CHECK(s.a); CHECK(s.b); CHECK(s.c); CHECK(s.d == 0xFFFFFFFFFFull); CHECK(s.e); CHECK(s.f);
  CHECK(g.a); CHECK(g.b); CHECK(g.f);
  s.b += 20; CHECK(s.b);               /* 17 wraps to -15 */
  CHECK(s.a++); CHECK(s.a++); CHECK(++s.a); CHECK(s.a - 1 < 0);   /* promoted to int */
  CHECK(s.a = 12); CHECK((s.b = 100) + 0);
  struct flags t = s;
  t.d = t.d + 1; CHECK(t.d); CHECK(s.d == 0xFFFFFFFFFFull); CHECK(t.f); CHECK(t.c);
  struct flags *p = &t; p->f = 255; CHECK(p->f); p->e = 5; CHECK(t.e); CHECK(t.c);
  CHECK(sizeof(struct flags)); CHECK(_Alignof(struct flags));
  return 0;
}
"""


@pytest.mark.parametrize("model", MODELS)
def test_bitfields_by_hand(model: str, tmp_path: Path) -> None:
    _needs_gcc(model)
    check_against_gcc(BITFIELDS_BY_HAND, tmp_path, model, timeout=120, mutant=9)


ATTRIBUTES_BY_HAND = """
#include <stddef.h>
#pragma pack(push, 1)
struct p1 { char c; int i; };
#pragma pack(push, 2)
struct p2 { char c; long long l; };
#pragma pack(pop)
struct p3 { char c; short s; };
#pragma pack(pop)
struct p4 { char c; short s; };
struct tail { char c; int i; } __attribute__((__packed__));
struct member { char c; int i __attribute__((packed)); short s; };
struct al { char c __attribute__((aligned(8))); int i; } __attribute__((aligned(32)));
typedef struct { char c; struct al a; } holder;
union u { char c[5]; int i; } __attribute__((packed));
struct __attribute__((packed)) hdr { unsigned int len; char flags; };
struct unnamed { short a : 3; char b : 4; long long : 64 __attribute__((packed)); char c; };
struct with_alignas { char c; _Alignas(8) int x; _Alignas(short) char y; };
int main(void) {
  CHECK(sizeof(struct p1)); CHECK(sizeof(struct p2)); CHECK(sizeof(struct p3)); CHECK(sizeof(struct p4));
  CHECK(sizeof(struct tail)); CHECK(offsetof(struct member, s)); CHECK(sizeof(struct member));
  CHECK(sizeof(struct al)); CHECK(_Alignof(struct al)); CHECK(offsetof(holder, a)); CHECK(sizeof(holder));
  CHECK(sizeof(union u)); CHECK(_Alignof(union u));
  struct hdr h; h.len = 0x01020304; h.flags = 9;
  unsigned char *b = (unsigned char *)&h;
  CHECK(b[0]); CHECK(b[3]); CHECK(b[4]);
  struct hdr copy = h; CHECK(copy.len); CHECK(sizeof(struct hdr));
  CHECK(offsetof(struct unnamed, c)); CHECK(sizeof(struct unnamed));
  CHECK(offsetof(struct with_alignas, x)); CHECK(offsetof(struct with_alignas, y)); CHECK(sizeof(struct with_alignas));
  return 0;
}
"""


@pytest.mark.parametrize("model", MODELS)
def test_packed_aligned_and_pragma_pack_by_hand(model: str, tmp_path: Path) -> None:
    _needs_gcc(model)
    check_against_gcc(ATTRIBUTES_BY_HAND, tmp_path, model, timeout=120, mutant=4)


def test_the_packed_struct_repro_is_true(tmp_path: Path) -> None:
    path = REPRO / "packed_struct.c"
    for model in MODELS:
        for prop in ("unreach-call", "memsafety"):
            r = verify_src(path.read_text(), tmp_path, model, property=prop)
            assert r.verdict == "TRUE", (model, prop, r.verdict, r.reason)


# ---- attributes cbam does not model, and ones it drops ------------------------------------------
@pytest.mark.parametrize("decl, reason", [
    ("int f(void) { int x __attribute__((mode(DI))) = 1; return x; }", "mode attribute"),
    ("typedef int v4 __attribute__((vector_size(16))); int f(void) { v4 x; return 0; }", "vector types"),
    ("void done(int *p) {} int f(void) { int x __attribute__((cleanup(done))) = 1; return x; }", "cleanup attribute"),
    ("int f(void) { struct s { int a; } __attribute__((scalar_storage_order(\"big-endian\"))) v; v.a = 1; return v.a; }",
     "scalar_storage_order"),
    ("enum __attribute__((packed)) e { A, B }; int f(void) { return sizeof(enum e); }", "packed attribute on an enum"),
    ("typedef union { int *i; long *l; } arg __attribute__((transparent_union));"
     " int f(void) { int x; arg a; a.i = &x; return 1; }", "transparent_union"),
])
def test_attributes_cbam_does_not_model_make_the_function_unknown(decl: str, reason: str, tmp_path: Path) -> None:
    code = "extern void reach_error(void);\n" + decl + "\nint main(void) { if (f() != 1) reach_error(); return 0; }\n"
    r = verify_src(code, tmp_path)
    assert r.verdict == "UNKNOWN" and reason in (r.reason or ""), (r.verdict, r.reason)


@pytest.mark.parametrize("decl, reason", [
    ("__attribute__((constructor)) void init(void) { g = 0; }", "constructor"),
    ("__attribute__((destructor)) void fini(void) { g = 0; }", "destructor"),
    ("int h(void) { return 1; } int alias_h(void) __attribute__((alias(\"h\")));", "alias"),
])
def test_attributes_that_change_the_program_make_it_unknown(decl: str, reason: str, tmp_path: Path) -> None:
    code = f"extern void reach_error(void);\nint g = 1;\n{decl}\nint main(void) {{ if (g != 1) reach_error(); return 0; }}\n"
    r = verify_src(code, tmp_path)
    assert r.verdict == "UNKNOWN" and reason in (r.reason or ""), (r.verdict, r.reason)


def test_an_unsupported_attribute_is_reported_where_it_is_written(tmp_path: Path) -> None:
    code = "int main(void) {\n  int x\n     __attribute__((mode(DI))) = 1;\n  return x;\n}\n"
    program = load_src(code, tmp_path)
    what, where = program.functions["main"].unsupported
    assert "mode" in what and (where.line, where.col, where.end_col) == (3, 21, 25)


def test_harmless_attributes_are_dropped(tmp_path: Path) -> None:
    code = """extern void reach_error(void);
__attribute__((noreturn, nothrow, leaf)) void die(void);
static int twice(int x) __attribute__((const, warn_unused_result, always_inline, unused));
static int twice(int x) { return 2 * x; }
__attribute__((format(printf, 1, 2), nonnull(1), visibility("default"), deprecated, cold, noinline))
int logf_(const char *fmt, ...);
void *mk(unsigned long n) __attribute__((malloc, returns_nonnull, alloc_size(1)));
struct __attribute__((__may_alias__)) alias_ok { int v; };
int counter __attribute__((used, section(".data"), weak)) = 3;
int main(void) {
  int unused_local __attribute__((unused)) = 0;
  if (twice(counter) != 6) reach_error();
  if (sizeof(struct alias_ok) != 4) reach_error();
  return 0;
}
"""
    r = verify_src(code, tmp_path)
    assert r.verdict == "TRUE", (r.verdict, r.reason)


@pytest.mark.parametrize("op", ["&s.b", "sizeof(s.b)", "sizeof s.b"])
def test_address_and_size_of_a_bitfield_are_errors(op: str, tmp_path: Path) -> None:
    code = f"struct st {{ int a; int b : 3; }};\nint main(void) {{\n  struct st s;\n  return (long)({op});\n}}\n"
    program = load_src(code, tmp_path)
    what, _ = program.functions["main"].unsupported
    assert "bit-field 'b'" in what and "compile error" in what


def test_the_attribute_table_keeps_positions_and_blanks_only_attributes() -> None:
    text = "struct __attribute__((packed)) s { int a __attribute__((aligned(8))), b; char c; };\n"
    out, table = read_attributes(text)
    assert len(out) == len(text) and out.replace(" ", "") == "structs{inta,b;charc;};\n"
    assert [a.name for a in table.types[(1, 32)]] == ["packed"]  # at the tag, pycparser's place
    (lo, hi, a), = table.decls
    assert a.name == "aligned" and a.args == "8" and lo <= (1, 40) < hi and not lo <= (1, 71) < hi


def test_layout_changes_are_seen_by_an_edited_program(tmp_path: Path) -> None:
    """The attributes are blanked in the text the incremental front end keys on: what they said
    is in the key, so an edit of one alone is not answered by a stale build."""
    code = "extern void reach_error(void);\nstruct s { char c; } __attribute__((aligned(%d)));\n" \
           "int f(void) { return sizeof(struct s); }\nint main(void) { if (f() != 4) reach_error(); return 0; }\n"
    assert verify_src(code % 4, tmp_path, name="edit.c").verdict == "TRUE"
    assert verify_src(code % 8, tmp_path, name="edit.c").verdict == "FALSE"


# ---- glibc's own headers ---------------------------------------------------------------------
HEADERS = ["stdio.h", "stdlib.h", "string.h", "pthread.h", "stdint.h", "assert.h", "signal.h", "time.h",
           "unistd.h", "errno.h", "limits.h", "setjmp.h", "sys/types.h", "sys/socket.h", "stddef.h", "ctype.h",
           "wchar.h", "math.h", "fcntl.h", "sys/stat.h", "netinet/in.h", "stdatomic.h", "sys/time.h"]


def _system_preprocessed(model: str, tmp_path: Path, main: str) -> str:
    src = tmp_path / "sys.c"
    src.write_text("#define _GNU_SOURCE\n" + "".join(f"#include <{h}>\n" for h in HEADERS) + main)
    flags = ["-m32"] if model == "ILP32" else []
    cpp = subprocess.run(["gcc", *flags, "-E", str(src)], capture_output=True, text=True)
    if cpp.returncode != 0:
        pytest.skip(f"the system headers do not preprocess: {cpp.stderr[:200]}")
    return cpp.stdout


@pytest.mark.parametrize("model", MODELS)
def test_glibc_headers_use_only_attributes_cbam_classifies(model: str, tmp_path: Path) -> None:
    _needs_gcc(model)
    text = _system_preprocessed(model, tmp_path, "")
    _, table = read_attributes(text)
    import re

    used = {m.group(1).strip("_") for m in re.finditer(r"__attribute__\s*\(\(\s*(\w+)", text)}
    known = LAYOUT | HARMLESS | set(UNSUPPORTED)
    assert used and used <= known, used - known
    # The unsupported ones there are on typedefs (register_t's mode, the socket calls'
    # transparent unions): unsupported where used, not in every program.
    assert {a.name for a in table.unsupported} <= {"mode", "transparent_union"}


@pytest.mark.parametrize("model", MODELS)
def test_a_program_with_glibc_headers_is_verified(model: str, tmp_path: Path) -> None:
    _needs_gcc(model)
    main = """extern void reach_error(void);
struct __attribute__((packed)) hdr { unsigned len; char f; };
int main(void) { struct timeval tv; tv.tv_sec = 1; if (sizeof(struct hdr) != 5 || tv.tv_sec != 1) reach_error(); return 0; }
"""
    # _FloatN and __float128 are gcc's built-in types, which cbam does not read yet: declared here.
    floats = "typedef float _Float32; typedef double _Float64; typedef double _Float32x;" \
             " typedef long double _Float64x; typedef long double _Float128; typedef long double __float128;\n"
    text = floats + _system_preprocessed(model, tmp_path, main)
    r = verify_src(text, tmp_path, model, name="with_glibc.c")
    assert r.verdict == "TRUE", (r.verdict, r.reason)
    r = verify_src(text.replace("!= 5", "!= 6"), tmp_path, model, name="with_glibc_false.c")
    assert r.verdict == "FALSE", (r.verdict, r.reason)


def test_harmless_attributes_take_the_fast_path_and_blank_the_same(monkeypatch) -> None:
    from cbam.engine.frontend import attributes

    text = 'extern void f(int) __attribute__((__nothrow__, __leaf__)) __attribute__ ((noreturn));\n' \
           'int g(const char *s, ...) __attribute__((format(printf, 1, 2), section(".x(")));\n'
    fast, table = read_attributes(text)
    assert table is attributes.EMPTY and len(fast) == len(text) and "__attribute" not in fast
    monkeypatch.setattr(attributes, "_blank_harmless", lambda _: None)
    full, table = read_attributes(text)
    assert full == fast and not table.decls and not table.unsupported
