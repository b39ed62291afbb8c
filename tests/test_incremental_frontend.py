"""The incremental front end (parse and build only what an edit touched) builds exactly the
program a whole-file build makes: every CFA node and edge with its range and text, every
variable, diagnostic and declaration. Checked on random edit sequences and on every
SV-COMP task of tests/data/svcomp, before and after moving its code."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest
from cbam.engine.cache.store import CacheStore
from cbam.engine.cfa import load as load_module
from cbam.engine.cfa import reuse
from cbam.engine.cfa.cfa import Program
from cbam.engine.cfa.load import _build, load_program
from cbam.engine.frontend import chunks
from cbam.engine.frontend.errors import FrontendError
from cbam.engine.frontend.preprocess import PreprocessOptions, preprocess
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pycparser import c_ast

from .conftest import SVCOMP as VENDORED_SVCOMP

# ($CBAM_SVCOMP: another folder of tasks laid out the same way)
SVCOMP = Path(os.environ.get("CBAM_SVCOMP", VENDORED_SVCOMP))


def digest(p: Program) -> list:
    """Everything the analyses and the reports read from a program, in order."""
    out: list = [p.entry, p.main_file, p.data_model.name, sorted(p.structs.items(), key=str)]
    out.append([(v.name, v.type.key(), v.function, v.is_param, v.is_temp, v.is_result, v.addressed, v.range)
                for v in p.vars.values()])
    out.append([str(d) for d in p.diagnostics] + [d.range for d in p.diagnostics])
    out.append(list(p.declared.items()))
    out.append(sorted((k, str(t)) for k, t in p.func_types.items()))
    for f in p.all_functions():
        idx = {id(n): i for i, n in enumerate(f.nodes)}
        out.append((f.name, f.params, f.return_type.key(), f.result_var, f.range, f.name_range, f.unsupported,
                    sorted(f.calls), f.variadic, f.fingerprint, idx[id(f.entry)], idx[id(f.exit)]))
        for n in f.nodes:
            out.append((n.id, n.loop_head, n.label, n.canon, n.error,
                        [(type(e).__name__, idx[id(e.succ)], e.range, e.text, e.canon()) for e in n.out],
                        [(idx[id(e.pred)], e.canon()) for e in n.inn]))
    return out


def whole(path: Path, opts: PreprocessOptions | None = None) -> Program:
    opts = opts or PreprocessOptions()
    return _build(str(path), None, preprocess(str(path), None, opts), opts, "main", incremental_ok=False)


def _items(k: int, i: int) -> list[str]:
    """Top-level pieces: declarations, functions and the awkward cases (a static local,
    an address-taken global, an implicit declaration, floats, macros, two definitions on
    one line, braces in a string, a struct declared in a body, a K&R definition, calls through
    a pointer)."""
    j = max(0, i - 1)
    return [
        f"int g{i} = {k};",
        f"typedef int T{i};\nT{i} t{i}(T{i} x) {{ T{i} y = x * {k}; return y; }}",
        f"struct S{i} {{ int a; int b; }};\nint sa{i}(int x) {{ struct S{i} s; s.a = x; s.b = {k}; return s.a + s.b; }}",
        f"int f{i}(int x) {{\n  int y = x + {k};\n  if (y > {k}) return y;\n  return y - 1;\n}}",
        f"int h{i}(int x) {{ static int c = {k}; c++; return c + x; }}",
        f"int g{i}b = 1;\nint p{i}(void) {{\n  int *q = &g{i}b;\n  return *q + {k};\n}}",
        f"int u{i}(int x) {{ return undeclared_{i}(x) + {k}; }}",
        f"double d{i}(double x) {{ return x * {k}; }}",
        f"#define M{i}(a) ((a) + {k})\nint m{i}(int x) {{\n  return M{i}(x) +\n    M{i}(1);\n}}",
        f"int a{i}(int x) {{ return x; }} int b{i}(int x) {{ return x + {k}; }}",
        f"int e{i}(int x) {{\n  if (x == {k}) reach_error();\n  return x;\n}}",
        f"enum E{i} {{ A{i} = {k}, B{i} }};\nint en{i}(void) {{ return B{i}; }}",
        f'int s{i}(void) {{ const char *p = "{{(;"; return p[0] + {k}; }}',
        f"int st{i}(int x) {{ struct In{i} {{ int v; }} w; w.v = x + {k}; return w.v; }}",
        f"int c{i}(int x) {{\n  /* a comment { k } */\n  int z = x; // {k}\n  for (int q = 0; q < {k % 5}; q++) z += q;\n  return z;\n}}",
        f"int w{i}(int x) {{ while (x > {k}) x--; return f{j}_missing(x); }}",
        # A call through a pointer dispatches over every function the program names other than
        # by calling it, in any body: one that names another on an edit of its constant.
        f"int cp{i}(int (*fp)(int), int x) {{ return fp(x) + {k}; }}",
        f"int na{i}(int x) {{ return x; }}\nint nb{i}(int x) {{ return -x; }}\n"
        f"int nm{i}(int x) {{\n  int (*q)(int) = {'na' if k % 2 else 'nb'}{i};\n  return q == 0 ? x : x + 1;\n}}",
    ]


N_KINDS = len(_items(0, 0))


def render(items: list[tuple[int, int, int]], joined: set[int]) -> str:
    head = ["extern int __VERIFIER_nondet_int(void);", "extern void reach_error(void);"]
    body: list[str] = []
    for pos, (kind, k, i) in enumerate(items):
        text = _items(k, i)[kind]
        if pos - 1 in joined and body and not text.startswith("#"):
            body[-1] += " " + text  # on the line where the previous item ends
        else:
            body.append(text)
    main = ["int main(void) {", "  int n = __VERIFIER_nondet_int();", "  return n;", "}"]
    return "\n".join(head + body + main) + "\n"


edit = st.one_of(
    st.tuples(st.just("blank"), st.integers(0, 30), st.integers(1, 4)),
    st.tuples(st.just("comment"), st.integers(0, 30), st.integers(0, 0)),
    st.tuples(st.just("const"), st.integers(0, 30), st.integers(0, 99)),
    st.tuples(st.just("swap"), st.integers(0, 30), st.integers(0, 30)),
    st.tuples(st.just("delete"), st.integers(0, 30), st.integers(0, 0)),
    st.tuples(st.just("add"), st.integers(0, 30), st.integers(0, N_KINDS - 1)),
    st.tuples(st.just("join"), st.integers(0, 30), st.integers(0, 0)),
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(kinds=st.lists(st.integers(0, N_KINDS - 1), min_size=1, max_size=10),
       edits=st.lists(edit, min_size=1, max_size=6))
def test_random_edits_build_what_a_whole_build_builds(kinds: list[int], edits: list[tuple[str, int, int]]) -> None:
    _replay_edits(kinds, edits, lambda path: load_program(str(path)))


def _as_a_new_process(store: CacheStore):
    """Load as a new process would: nothing memoized in memory, the builds of earlier
    processes in the persistent cache."""
    def load(path: Path) -> Program:
        reuse.clear()
        chunks._AST_MEMO.clear()
        load_module._MEMO.clear()
        return load_program(str(path), store=store)
    return load


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(kinds=st.lists(st.integers(0, N_KINDS - 1), min_size=1, max_size=10),
       edits=st.lists(edit, min_size=1, max_size=6))
def test_random_edits_in_new_processes_build_what_a_whole_build_builds(kinds: list[int],
                                                                       edits: list[tuple[str, int, int]]) -> None:
    with tempfile.TemporaryDirectory() as d:
        store = CacheStore(Path(d) / "cache")
        _replay_edits(kinds, edits, _as_a_new_process(store))
        store.close()


def _replay_edits(kinds: list[int], edits: list[tuple[str, int, int]], load) -> None:
    items = [(kind, 3, i) for i, kind in enumerate(kinds)]
    joined: set[int] = set()
    extra: dict[int, str] = {}  # position -> text inserted before that item
    fresh = len(items)
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "p.c"

        def check() -> None:
            text = render(items, joined)
            lines = text.split("\n")
            for pos in sorted(extra, reverse=True):
                at = min(pos + 2, len(lines))
                lines.insert(at, extra[pos])
            path.write_text("\n".join(lines))
            try:
                ref = whole(path)
            except FrontendError:
                with pytest.raises(FrontendError):
                    load(path)
                return
            assert digest(load(path)) == digest(ref)

        check()
        for op, a, b in edits:
            if not items:
                break
            at = a % len(items)
            if op == "blank":
                extra[at] = extra.get(at, "") + "\n" * b
            elif op == "comment":
                extra[at] = extra.get(at, "") + "/* moved */"
            elif op == "const":
                kind, _, i = items[at]
                items[at] = (kind, b, i)
            elif op == "swap":
                other = b % len(items)
                items[at], items[other] = items[other], items[at]
            elif op == "delete":
                items.pop(at)
                joined = {j for j in joined if j < len(items) - 1}
            elif op == "add":
                items.insert(at, (b, 5, fresh))
                fresh += 1
            elif op == "join":
                joined.add(at)
            check()


def _program_text(n: int, k: int) -> str:
    fns = "\n".join(f"int f{i}(int x) {{\n  int y = x + {k if i == 0 else i};\n  return y;\n}}" for i in range(n))
    return f"{fns}\nint main(void) {{ return f0(1); }}\n"


def test_an_edit_rebuilds_only_the_edited_function(tmp_path: Path) -> None:
    path = tmp_path / "p.c"
    path.write_text(_program_text(10, 1))
    first = load_program(str(path))
    assert first.load_stats["functions_built"] == 11
    assert load_program(str(path)).load_stats["functions_built"] == 0  # the same file: the memoized program
    path.write_text(_program_text(10, 2))
    edited = load_program(str(path))
    assert (edited.load_stats["functions_built"], edited.load_stats["functions_reused"]) == (1, 10)
    assert digest(edited) == digest(whole(path))
    # Code moved down by lines above it: every function is reused, at its new place.
    path.write_text("\n\n/* header comment */\n" + _program_text(10, 2))
    moved = load_program(str(path))
    assert moved.load_stats["functions_reused"] == 11
    assert moved.functions["f3"].range.line == edited.functions["f3"].range.line + 3
    assert digest(moved) == digest(whole(path))


def test_a_new_process_parses_and_builds_only_the_edited_function(tmp_path: Path) -> None:
    """The persistent cache keeps each build: a new process finds every unchanged function
    there (it parses only its declarator) and builds the edited one."""
    store = CacheStore(tmp_path / "cache")
    load = _as_a_new_process(store)
    path = tmp_path / "p.c"
    path.write_text(_program_text(10, 1))
    assert load(path).load_stats["functions_built"] == 11
    path.write_text(_program_text(10, 2))
    edited = load(path)
    assert (edited.load_stats["functions_built"], edited.load_stats["functions_reused"]) == (1, 10)
    assert digest(edited) == digest(whole(path))
    path.write_text("\n\n/* header comment */\n" + _program_text(10, 2))
    moved = load(path)
    assert moved.load_stats["functions_reused"] == 11 and digest(moved) == digest(whole(path))
    # A build written by other front-end code is never read: its key names the code.
    reuse._CODE[:] = ["another front end"]
    try:
        assert load(path).load_stats["functions_built"] == 11
    finally:
        reuse._CODE.clear()
    store.close()


FP_PROGRAM = (Path(__file__).parent / "data" / "repro" / "callback_edit.c").read_text()


@pytest.mark.parametrize("new_process", [False, True])
def test_a_call_through_a_pointer_sees_the_functions_a_reused_body_names(tmp_path: Path, new_process: bool) -> None:
    """The targets of ``r(b, 4)`` are the functions named anywhere (``mine``, in main's body):
    when main's build is reused its body is not parsed, and the targets were once lost (the
    call became undefined behaviour, and a cached run of the edited program said TRUE)."""
    store = CacheStore(tmp_path / "cache")
    load = _as_a_new_process(store) if new_process else (lambda p: load_program(str(p)))
    path = tmp_path / "fp.c"
    path.write_text(FP_PROGRAM)
    load(path)
    path.write_text(FP_PROGRAM.replace("b[0] == 'x'", "b[0] == 'y'"))  # an edit of go only
    edited = load(path)
    assert edited.load_stats["functions_reused"] >= 2  # (main and mine)
    assert digest(edited) == digest(whole(path))
    assert "mine" in edited.functions["go"].calls
    # An edit of main alone that names another function: go, unchanged, calls it too.
    path.write_text(FP_PROGRAM.replace("static int go", "static char *other(char *b, int n) { return 0; }\n"
                                       "static int go").replace("go(mine)", "go(mine) && go(other)"))
    again = load(path)
    assert digest(again) == digest(whole(path)) and "other" in again.functions["go"].calls
    store.close()


def test_a_changed_declaration_rebuilds_every_function(tmp_path: Path) -> None:
    path = tmp_path / "p.c"
    path.write_text("int g = 1;\n" + _program_text(4, 1))
    load_program(str(path))
    path.write_text("long g = 1;\n" + _program_text(4, 1))
    again = load_program(str(path))
    assert again.load_stats["functions_reused"] == 0
    assert digest(again) == digest(whole(path))


def test_a_header_edit_is_seen(tmp_path: Path) -> None:
    (tmp_path / "h.h").write_text("static int helper(int x) { return x + 1; }\n")
    path = tmp_path / "p.c"
    path.write_text('#include "h.h"\nint main(void) { return helper(1); }\n')
    load_program(str(path))
    (tmp_path / "h.h").write_text("/* now longer */\n\nstatic int helper(int x) { return x + 2; }\n")
    again = load_program(str(path))
    assert digest(again) == digest(whole(path))
    assert again.functions["helper"].range.line == 3


def test_unchunkable_input_falls_back_to_the_whole_parse(tmp_path: Path) -> None:
    path = tmp_path / "p.c"
    path.write_text("int kr(a) int a; { return a; }\nint main(void) { return kr(1); }\n")
    prog = load_program(str(path))
    assert prog.load_stats == {}  # built whole
    assert digest(prog) == digest(whole(path))
    path.write_text("int main(void) { return 1 }\n")
    with pytest.raises(FrontendError) as err:
        load_program(str(path))
    assert "p.c:1:" in str(err.value)


def test_chunks_cover_the_text() -> None:
    text = 'int a; int f(void) { return "}"[0]; }\n#pragma once\nstruct S { int x; } s = { 1 };\n'
    got = chunks.split_chunks(text)
    assert [c.text for c in got] == ["int a;", 'int f(void) { return "}"[0]; }', "#pragma once",
                                     "struct S { int x; } s = { 1 };"]
    assert [c.is_function for c in got] == [False, True, False, False]
    assert [c.alone for c in got] == [False, False, True, True]
    with pytest.raises(chunks.NotChunkable):
        chunks.split_chunks("int f(void) { return 0;")


def _svcomp_sources() -> list[tuple[Path, str]]:
    out = []
    for yml in sorted((SVCOMP / "c").rglob("*.yml")):
        text = yml.read_text()
        model = "ILP32" if "ILP32" in text else "LP64"
        for line in text.splitlines():
            if line.startswith("input_files:"):
                src = yml.parent / line.split(":", 1)[1].strip().strip("'\"")
                if src.exists():
                    out.append((src, model))
    return out


def test_every_svcomp_task_builds_the_same_incrementally(tmp_path: Path) -> None:
    reuse.clear()
    checked = reused = 0
    for src, model in _svcomp_sources():
        opts = PreprocessOptions(data_model=model)
        copy = tmp_path / src.name
        copy.write_text(src.read_text())
        try:
            ref = whole(copy, opts)
        except FrontendError:
            continue
        assert digest(load_program(str(copy), options=opts)) == digest(ref), src.name
        copy.write_text("/* moved */\n\n\n" + src.read_text())
        again = load_program(str(copy), options=opts)
        assert digest(again) == digest(whole(copy, opts)), src.name
        checked += 1
        reused += again.load_stats.get("functions_reused", 0) > 0
    assert checked > 150
    assert reused > 140  # the moved functions were reused, not rebuilt


def test_every_svcomp_task_builds_the_same_in_a_new_process_after_moving(tmp_path: Path) -> None:
    """A new process takes each unchanged function's build and its declarator's parse from the
    persistent cache (reuse.stub), at the function's new place."""
    store = CacheStore(tmp_path / "cache")
    stubs: list = []
    real_stub = reuse.stub

    def stub(key: str, line: int):
        stubs.append(real_stub(key, line))
        return stubs[-1]

    checked = 0
    for src, model in _svcomp_sources():
        opts = PreprocessOptions(data_model=model)
        copy = tmp_path / src.name
        copy.write_text(src.read_text())
        try:
            whole(copy, opts)
        except FrontendError:
            continue
        reuse.clear()
        chunks._AST_MEMO.clear()
        load_module._MEMO.clear()
        load_program(str(copy), options=opts, store=store)
        copy.write_text("/* moved */\n\n\n" + src.read_text())
        reuse.clear()
        chunks._AST_MEMO.clear()
        load_module._MEMO.clear()
        stubs.clear()
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(reuse, "stub", stub)
            moved = load_program(str(copy), options=opts, store=store)
        assert digest(moved) == digest(whole(copy, opts)), src.name
        given = [s[0] for s in stubs if s is not None]
        if given:  # each declarator as a parse of the moved file has it, coordinates included
            fresh = _definitions(copy, opts)
            for fd in given:
                assert _same_ast(fd, fresh[fd.decl.name]) is None, (src.name, _same_ast(fd, fresh[fd.decl.name]))
            checked += 1
    store.close()
    assert checked > 140


def _definitions(path: Path, opts: PreprocessOptions) -> dict[str, c_ast.FuncDef]:
    """Each function definition of the file, as a body-less FuncDef (as chunks.parse_declarator makes)."""
    # As the loader reads it: attributes blanked (frontend/attributes.py).
    text = load_module.read_attributes(load_module.split_preprocessed(preprocess(str(path), None, opts))[1])[0]
    parser, scope = chunks._ChunkParser(), chunks._LoggedScope()
    out = {}
    for ch in chunks.split_chunks(text):
        for ext in parser.parse_chunk(ch, scope):
            if isinstance(ext, c_ast.FuncDef):
                out[ext.decl.name] = c_ast.FuncDef(ext.decl, None, c_ast.Compound([]), ext.decl.coord)
    return out


def _same_ast(a, b, where: str = "") -> str | None:
    """Where two pycparser trees differ (coordinates included), or None."""
    if type(a) is not type(b):
        return f"{where}: {type(a).__name__} != {type(b).__name__}"
    if isinstance(a, c_ast.Node):
        for slot in a.__slots__:
            if slot != "__weakref__":
                diff = _same_ast(getattr(a, slot, None), getattr(b, slot, None), f"{where}.{slot}")
                if diff:
                    return diff
        return None
    if isinstance(a, list):
        if len(a) != len(b):
            return f"{where}: {len(a)} != {len(b)} items"
        return next((d for i, (x, y) in enumerate(zip(a, b)) if (d := _same_ast(x, y, f"{where}[{i}]"))), None)
    if hasattr(a, "line") and hasattr(a, "column"):
        same = (a.file, a.line, a.column) == (b.file, b.line, b.column)
        return None if same else f"{where}: {a} != {b}"
    return None if a == b else f"{where}: {a!r} != {b!r}"


def test_a_definitions_declarator_is_what_parsing_the_declarator_alone_gives() -> None:
    """What reuse.remember stores as a function's declarator (its definition's Decl) is what
    chunks.parse_declarator makes of the declarator alone, coordinates and the names it
    declares at file scope included: a new process takes one for the other."""
    checked = 0
    for src, model in _svcomp_sources():
        try:
            pp = preprocess(str(src), None, PreprocessOptions(data_model=model))
        except FrontendError:
            continue
        text = load_module.read_attributes(load_module.split_preprocessed(pp)[1])[0]
        whole_parser, alone_parser = chunks._ChunkParser(), chunks._ChunkParser()
        whole_scope, alone_scope = chunks._LoggedScope(), chunks._LoggedScope()
        for ch in chunks.split_chunks(text):
            whole_scope.log = []
            ext = whole_parser.parse_chunk(ch, whole_scope)
            alone_scope.log = []
            stub = alone_parser.parse_declarator(ch, alone_scope) if ch.is_function else None
            if stub is None:
                alone_scope.log = []
                alone_parser.parse_chunk(ch, alone_scope)
                continue
            (fd,) = ext
            assert fd.param_decls is None and fd.coord == stub.coord, (src.name, ch.declarator)
            assert _same_ast(fd.decl, stub.decl) is None, (src.name, ch.declarator, _same_ast(fd.decl, stub.decl))
            assert whole_scope.log == alone_scope.log, (src.name, ch.declarator)
            checked += 1
    assert checked > 500


_FRAGMENTS = ["int x = 1;", "/*", "*/", "/* c */", "// c", "\\", "\n", "\r\n", " ", "#", "#define M(a) \\", "#include <x.h>",
              '"s"', '"/* not a comment */"', "'\\''", '"a\\', "'", "x++", "a->b", "1.5e+3", "L\"w\"", "\t"]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(_FRAGMENTS), max_size=40))
def test_line_by_line_tokens_are_the_whole_file_tokens(parts: list[str]) -> None:
    """The original file's tokens are memoized line by line (tokenize_file); comments that span
    lines, continued lines and directives must give what one pass over the whole text gives."""
    from cbam.engine.frontend.tokens import tokenize_file, tokenize_source

    text = "".join(parts)
    assert tokenize_file(text) == tokenize_source(text)
    assert tokenize_file(text) == tokenize_source(text)  # again, from the memo


def test_line_by_line_tokens_of_every_svcomp_source() -> None:
    from cbam.engine.frontend.tokens import tokenize_file, tokenize_source

    files = sorted(SVCOMP.glob("**/*.[ci]"))
    assert files
    for f in files:
        text = f.read_text(errors="replace")
        assert tokenize_file(text) == tokenize_source(text), f
