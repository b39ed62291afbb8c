"""The dataclass method cache (cbam/codecache.py) must give every class exactly the methods
that compiling gives, and must never let a damaged or foreign file change that."""

from __future__ import annotations

import json
import marshal
import os
import subprocess
import sys
import textwrap

import pytest

from .conftest import ROOT

# Loads every module a verification and the language server load, then describes each
# dataclass's generated methods by their code (bytecode, constants, names, annotations).
DRIVER = textwrap.dedent("""
    import dataclasses, importlib, json, os, pkgutil, sys
    mode, path = sys.argv[1], sys.argv[2]
    import cbam
    from cbam import codecache
    if mode == "off":
        del dataclasses.exec  # the builtin again: the classes compile as without cbam
    else:
        codecache.cache_file = lambda: path
        codecache._codes.clear()
        codecache._codes.update(codecache._read(path))
    compiled = []
    real_compile = compile
    def counting_compile(*args, **kwargs):
        compiled.append(args[0])
        return real_compile(*args, **kwargs)
    codecache.compile = counting_compile
    import cbam.engine
    for pkg in (cbam.engine,):
        for info in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + "."):
            if ".tests" in info.name:
                continue
            try:
                importlib.import_module(info.name)
            except ImportError:
                pass
    import cbam.server.lsp, pycparser.c_parser  # noqa: F401
    def describe(fn):
        c = fn.__code__
        return [c.co_code.hex(), repr(c.co_consts), c.co_names, c.co_varnames, c.co_filename,
                repr(fn.__annotations__), repr(fn.__defaults__), repr(fn.__kwdefaults__),
                [type(cell.cell_contents).__name__ for cell in fn.__closure__ or ()]]
    out = {}
    for mod in list(sys.modules.values()):
        for name, obj in list(vars(mod).items()):
            if isinstance(obj, type) and dataclasses.is_dataclass(obj) and obj.__module__ == mod.__name__:
                methods = {}
                for m in ("__init__", "__repr__", "__eq__", "__hash__", "__setattr__", "__delattr__"):
                    fn = obj.__dict__.get(m)
                    if hasattr(fn, "__code__"):
                        methods[m] = describe(fn)
                out[f"{mod.__name__}.{name}"] = methods
    if mode != "off":
        codecache.save()
    print(json.dumps({"classes": out, "compiled": len(compiled)}))
""")


def run(mode: str, path, dont_write: bool = False) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    flags = ["-B"] if dont_write else []
    p = subprocess.run([sys.executable, *flags, "-c", DRIVER, mode, str(path)], capture_output=True, text=True,
                       cwd=ROOT, timeout=120, env=env)
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)


@pytest.fixture(scope="module")
def compiled_afresh(tmp_path_factory):
    return run("off", tmp_path_factory.mktemp("off") / "unused")["classes"]


def test_kept_code_gives_the_classes_compiling_gives(compiled_afresh, tmp_path):
    path = tmp_path / "methods.marshal"
    first = run("on", path)
    assert first["compiled"] > 200 and path.exists()
    second = run("on", path)
    assert second["compiled"] == 0, "a warm cache compiles nothing"
    assert len(compiled_afresh) > 60
    assert first["classes"] == compiled_afresh
    assert second["classes"] == compiled_afresh


@pytest.mark.parametrize("damage", ["truncated", "other Python", "not a dict", "garbage"])
def test_a_damaged_or_foreign_file_is_ignored(compiled_afresh, tmp_path, damage):
    path = tmp_path / "methods.marshal"
    run("on", path)
    data = path.read_bytes()
    magic = data[:4]
    damaged = {"truncated": data[: len(data) // 2],
               "other Python": b"\x00\x00\r\n" + data[4:],
               "not a dict": magic + marshal.dumps(["def x(): pass"]),
               "garbage": magic + b"\xff" * 64}[damage]
    path.write_bytes(damaged)
    got = run("on", path)
    assert got["compiled"] > 200
    assert got["classes"] == compiled_afresh


def test_a_wrong_entry_cannot_come_from_another_text(tmp_path):
    """Entries are looked up by the exact text they were compiled from: a file that maps a text
    to other code is the only way to get other code, and only for that text."""
    from cbam import codecache

    code = compile("x = 1", "<string>", "exec", dont_inherit=True)
    path = tmp_path / "methods.marshal"
    from _frozen_importlib_external import MAGIC_NUMBER

    path.write_bytes(MAGIC_NUMBER + marshal.dumps({"x = 2": code, 3: code, "y = 1": "not code"}))
    assert codecache._read(str(path)) == {"x = 2": code}


def test_nothing_is_written_when_python_writes_no_bytecode(tmp_path):
    path = tmp_path / "methods.marshal"
    got = run("on", path, dont_write=True)
    assert got["compiled"] > 200
    assert not path.exists()


def test_save_keeps_what_another_process_wrote(tmp_path, monkeypatch):
    from cbam import codecache

    path = tmp_path / "methods.marshal"
    monkeypatch.setattr(codecache, "cache_file", lambda: str(path))
    monkeypatch.setattr(codecache, "_codes", {})
    monkeypatch.setattr(codecache, "_dirty", False)
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    codecache._exec("a = 1", {}, {})
    codecache.save()
    monkeypatch.setattr(codecache, "_codes", {})
    codecache._exec("b = 2", {}, {})
    codecache.save()
    assert set(codecache._read(str(path))) == {"a = 1", "b = 2"}
    assert not list(tmp_path.glob("*.tmp"))


def test_dataclasses_imported_after_cbam_is_patched_and_the_finder_leaves():
    p = subprocess.run([sys.executable, "-c", textwrap.dedent("""
        import sys
        assert "dataclasses" not in sys.modules
        import cbam
        from cbam import codecache
        assert codecache._Finder in sys.meta_path
        import dataclasses
        assert dataclasses.exec is codecache._exec
        assert codecache._Finder not in sys.meta_path
        @dataclasses.dataclass(frozen=True)
        class P:
            x: int
            y: int = 2
        assert P(1) == P(1, 2) and hash(P(1)) == hash(P(1, 2)) and repr(P(1)) == "P(x=1, y=2)"
        print("ok")
    """)], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert p.stdout.strip() == "ok", p.stderr


def test_past_its_bound_the_file_keeps_what_the_process_used(tmp_path, monkeypatch):
    from cbam import codecache

    path = tmp_path / "methods.marshal"
    monkeypatch.setattr(codecache, "cache_file", lambda: str(path))
    monkeypatch.setattr(codecache, "_MAX_ENTRIES", 3)
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    for batch in (["a = 1", "b = 2", "c = 3"], ["d = 4", "e = 5"]):
        monkeypatch.setattr(codecache, "_codes", {})
        monkeypatch.setattr(codecache, "_used", set())
        monkeypatch.setattr(codecache, "_dirty", False)
        for text in batch:
            codecache._exec(text, {}, {})
        codecache.save()
    assert set(codecache._read(str(path))) == {"d = 4", "e = 5"}


# ---- regular expressions ----------------------------------------------------------------------
# Compiles patterns of every kind (flags, bytes, named groups, look-behind, verbose, Unicode) and
# describes each compiled pattern by its attributes and what it finds in sample texts.
RE_DRIVER = textwrap.dedent(r"""
    import json, sys
    mode, path = sys.argv[1], sys.argv[2]
    if mode == "on":
        import cbam
        from cbam import codecache
        codecache.cache_file = lambda: path
        codecache._codes.clear()
        codecache._codes.update(codecache._read(path))
    import re
    PATTERNS = [
        (r"(?P<file>[^:\n]+):(?P<line>\d+):(?P<col>\d+): (?:fatal )?(?P<sev>error|warning): (?P<msg>.*)$", re.M),
        (r"^# \d+ \"([^\"]+)\"", re.M),
        (r"(?<=[a-z])\d+(?!x)", 0),
        (r"ÄÖ\w+", re.I),
        (r"\w+", re.A),
        (r"  (?P<ws>[ \t]+) | (?P<id>[A-Za-z_]\w*) | (?P<num>0[xX][0-9a-fA-F]+|\d+)  ", re.X),
        (rb"\x00+|(ab){2,5}?", 0),
        (r"(a)|(b)|(?P<c>c)", re.S | re.I),
        (r"", 0),
    ]
    TEXT = "p.c:3:4: error: no\n# 12 \"/a/b.h\"\nab12x cd345 äöxy ÄÖz\t foo 0x1F 42 abc\n"
    out = []
    for pattern, flags in PATTERNS:
        r = re.compile(pattern, flags)
        text = TEXT.encode("latin-1", "replace") + b"\x00\x00ababab" if isinstance(pattern, bytes) else TEXT
        out.append([repr(r.pattern), r.flags, r.groups, sorted(r.groupindex.items()),
                    [(m.span(), repr(m.groups())) for m in r.finditer(text)]])
    report = {"patterns": out}
    if mode == "on":
        report["new"] = codecache._dirty
        codecache.save()
    print(json.dumps(report))
""")


def run_re(mode: str, path) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    p = subprocess.run([sys.executable, "-c", RE_DRIVER, mode, str(path)], capture_output=True, text=True,
                       cwd=ROOT, timeout=60, env=env)
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)


def test_kept_regular_expressions_find_what_compiled_ones_find(tmp_path):
    path = tmp_path / "code.marshal"
    fresh = run_re("off", path)
    first = run_re("on", path)
    assert first["new"] and path.exists()
    second = run_re("on", path)
    assert not second["new"], "every pattern came from the file"
    assert first["patterns"] == fresh["patterns"] == second["patterns"]


def test_a_regular_expression_entry_is_used_for_its_own_pattern_only(tmp_path):
    from _frozen_importlib_external import MAGIC_NUMBER

    from cbam import codecache

    path = tmp_path / "code.marshal"
    run_re("on", path)
    kept = codecache._read(str(path))
    entries = {k: v for k, v in kept.items() if isinstance(k, tuple)}
    assert len(entries) >= 9
    # The code of one pattern filed under another's key, and entries of the wrong shape.
    (k1, v1), (k2, _v2) = list(entries.items())[:2]
    forged = {k2: v1, ("re", k1[1], k1[2]): v1, ("re", k1[1], k1[2], k1[3]): v1[:5], k1: v1}
    path.write_bytes(MAGIC_NUMBER + marshal.dumps(forged))
    assert codecache._read(str(path)) == {k1: v1}
