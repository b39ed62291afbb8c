"""The dataclass method cache (cbam/methodcache.py) must give every class exactly the methods
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
    from cbam import methodcache
    if mode == "off":
        del dataclasses.exec  # the builtin again: the classes compile as without cbam
    else:
        methodcache.cache_file = lambda: path
        methodcache._codes.clear()
        methodcache._codes.update(methodcache._read(path))
    compiled = []
    real_compile = compile
    def counting_compile(*args, **kwargs):
        compiled.append(args[0])
        return real_compile(*args, **kwargs)
    methodcache.compile = counting_compile
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
        methodcache.save()
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
    from cbam import methodcache

    code = compile("x = 1", "<string>", "exec", dont_inherit=True)
    path = tmp_path / "methods.marshal"
    from _frozen_importlib_external import MAGIC_NUMBER

    path.write_bytes(MAGIC_NUMBER + marshal.dumps({"x = 2": code, 3: code, "y = 1": "not code"}))
    assert methodcache._read(str(path)) == {"x = 2": code}


def test_nothing_is_written_when_python_writes_no_bytecode(tmp_path):
    path = tmp_path / "methods.marshal"
    got = run("on", path, dont_write=True)
    assert got["compiled"] > 200
    assert not path.exists()


def test_save_keeps_what_another_process_wrote(tmp_path, monkeypatch):
    from cbam import methodcache

    path = tmp_path / "methods.marshal"
    monkeypatch.setattr(methodcache, "cache_file", lambda: str(path))
    monkeypatch.setattr(methodcache, "_codes", {})
    monkeypatch.setattr(methodcache, "_dirty", False)
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    methodcache._exec("a = 1", {}, {})
    methodcache.save()
    monkeypatch.setattr(methodcache, "_codes", {})
    methodcache._exec("b = 2", {}, {})
    methodcache.save()
    assert set(methodcache._read(str(path))) == {"a = 1", "b = 2"}
    assert not list(tmp_path.glob("*.tmp"))


def test_dataclasses_imported_after_cbam_is_patched_and_the_finder_leaves():
    p = subprocess.run([sys.executable, "-c", textwrap.dedent("""
        import sys
        assert "dataclasses" not in sys.modules
        import cbam
        from cbam import methodcache
        assert methodcache._Finder in sys.meta_path
        import dataclasses
        assert dataclasses.exec is methodcache._exec
        assert methodcache._Finder not in sys.meta_path
        @dataclasses.dataclass(frozen=True)
        class P:
            x: int
            y: int = 2
        assert P(1) == P(1, 2) and hash(P(1)) == hash(P(1, 2)) and repr(P(1)) == "P(x=1, y=2)"
        print("ok")
    """)], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert p.stdout.strip() == "ok", p.stderr


def test_past_its_bound_the_file_keeps_what_the_process_used(tmp_path, monkeypatch):
    from cbam import methodcache

    path = tmp_path / "methods.marshal"
    monkeypatch.setattr(methodcache, "cache_file", lambda: str(path))
    monkeypatch.setattr(methodcache, "_MAX_ENTRIES", 3)
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    for batch in (["a = 1", "b = 2", "c = 3"], ["d = 4", "e = 5"]):
        monkeypatch.setattr(methodcache, "_codes", {})
        monkeypatch.setattr(methodcache, "_used", set())
        monkeypatch.setattr(methodcache, "_dirty", False)
        for text in batch:
            methodcache._exec(text, {}, {})
        methodcache.save()
    assert set(methodcache._read(str(path))) == {"d = 4", "e = 5"}
