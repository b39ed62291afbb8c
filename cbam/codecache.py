"""Code that every start-up compiles, kept across processes: dataclass methods and regular
expressions.

``@dataclass`` writes each class's ``__init__``, ``__repr__``, ``__eq__``, ``__hash__`` (and, for
a frozen class, ``__setattr__`` and ``__delattr__``) as source text and compiles that text when
the class is created. For the 72 dataclasses a verification loads (cbam's and pycparser's) that
is about 40 ms of every new process: a sixth of an edit answered by ``cbam verify``. The regular
expressions a verification compiles (pycparser's lexer, the front end's, argparse's and json's)
are another 9 ms, 2 of them on the path that answers an unchanged file.

Compiling the same text always gives the same code, so the code is kept, by its text, in a
marshal file in ``__pycache__`` beside this module, as Python keeps the modules' own bytecode
there (and, like Python, only if ``sys.dont_write_bytecode`` is off). The dataclasses module then
runs the kept code instead of compiling: the text, the globals and the namespace it executes in
are still its own, so a class comes out exactly as it would have. A regular expression is kept
as what the ``re`` compiler hands to ``_sre.compile`` (its opcodes, groups and flags), by its
pattern, flags and ``_sre.MAGIC``; ``_sre.compile`` validates the opcodes again when it builds
the pattern from them.

The hooks are installed when ``dataclasses`` and ``re`` are first imported (a finder on
``sys.meta_path`` waits for them), not before: answering an unchanged file from the cache
imports no dataclass.
"""

import _thread
import builtins
import marshal
import os
import sys

# importlib's own machinery, loaded at every start-up (importlib.util would cost an import).
from _frozen_importlib_external import MAGIC_NUMBER, PathFinder

# Programs that import cbam as a library add their own classes, and an upgrade leaves the old
# texts behind: past this many entries, a process keeps only what it used (about 450 for a
# verification, 1 KB each).
_MAX_ENTRIES = 2_000
# A method's text -> its code; ("re", _sre.MAGIC, pattern, flags) -> _sre.compile's arguments.
_codes: dict[object, object] = {}
_used: set[object] = set()
_dirty = False
_installed: set[str] = set()


def cache_file() -> str:
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "__pycache__",
                        f"startup-code.{sys.implementation.cache_tag}.marshal")


def _valid(key: object, value: object, code_type: type) -> bool:
    if isinstance(key, str):
        return isinstance(value, code_type)
    return (type(key) is tuple and len(key) == 4 and key[0] == "re" and type(key[1]) is int
            and type(key[2]) in (str, bytes) and type(key[3]) is int and type(value) is tuple and len(value) == 6
            and value[0] == key[2] and type(value[0]) is type(key[2]) and all(type(v) is t for v, t in zip(
                value[1:], (int, list, int, dict, tuple), strict=True)))


def _read(path: str) -> dict[object, object]:
    """The code kept in ``path``; nothing if it is missing, damaged or from another Python
    (its header is the bytecode magic number, as a .pyc file's is)."""
    try:
        with open(path, "rb") as fh:
            data = fh.read()
    except OSError:
        return {}
    if not data.startswith(MAGIC_NUMBER):
        return {}
    try:
        codes = marshal.loads(data[len(MAGIC_NUMBER):])
    except (ValueError, EOFError, TypeError):
        return {}
    if not isinstance(codes, dict):
        return {}
    code_type = type(_read.__code__)
    return {k: v for k, v in codes.items() if _valid(k, v, code_type)}


def _exec(source, globals=None, locals=None, /):  # noqa: A002 - exec's own parameter names
    global _dirty
    if type(source) is str:
        code = _codes.get(source)
        if code is None:
            # What exec(source) compiles: the file name "<string>", and no __future__ flags
            # inherited from this module (dataclasses has none).
            code = _codes[source] = compile(source, "<string>", "exec", dont_inherit=True)
            _dirty = True
        _used.add(source)
        source = code
    return builtins.exec(source, globals, locals)


def _load_once() -> None:
    if not _installed:
        _codes.update(_read(cache_file()))
        import atexit

        atexit.register(save)  # processes that end with os._exit call save themselves


def _patch_dataclasses(module) -> None:
    if "dataclasses" in _installed:
        return
    _load_once()
    _installed.add("dataclasses")
    # A module global shadows the builtin for that module's code only.
    module.exec = _exec


class _Capture:
    """Stands in for ``_sre`` in the ``re`` compiler during one compilation, to see the
    arguments it gives ``_sre.compile``."""

    def __init__(self, real) -> None:
        self.real = real
        self.args: tuple | None = None

    def __getattr__(self, name: str):
        return getattr(self.real, name)

    def compile(self, *args):
        self.args = args
        return self.real.compile(*args)


def _patch_re_compiler(module) -> None:
    if "re" in _installed:
        return
    _load_once()
    _installed.add("re")
    real_sre, original = module._sre, module.compile
    capture, lock = _Capture(real_sre), _thread.allocate_lock()
    debug = getattr(module, "SRE_FLAG_DEBUG", 128)

    def compile_kept(p, flags=0):
        global _dirty
        if (type(p) is not str and type(p) is not bytes) or flags & debug:
            return original(p, flags)
        key = ("re", real_sre.MAGIC, p, int(flags))
        args = _codes.get(key)
        if args is not None:
            try:
                pattern = real_sre.compile(*args)
                _used.add(key)
                return pattern
            except Exception:  # noqa: BLE001 - not what this Python's _sre takes: compile it
                pass
        with lock:  # the stand-in is the compiler module's, for every thread
            capture.args = None
            module._sre = capture
            try:
                pattern = original(p, flags)
            finally:
                module._sre = real_sre
            got = capture.args
        if got is not None and len(got) == 6:
            # Plain types (a flag may be a RegexFlag), which marshal writes and _valid reads back.
            _codes[key] = (got[0], int(got[1]), [int(c) for c in got[2]], int(got[3]),
                           {str(k): int(v) for k, v in got[4].items()}, tuple(got[5]))
            _used.add(key)
            _dirty = True
        return pattern

    module.compile = compile_kept


def save() -> None:
    """Write the code compiled by this process (merged with what another process may have
    written meanwhile). Failing to write only costs the next process the compilation."""
    global _dirty
    if not _dirty or sys.dont_write_bytecode:
        return
    _dirty = False
    path = cache_file()
    merged = _read(path)
    merged.update(_codes)
    if len(merged) > _MAX_ENTRIES:
        merged = {text: _codes[text] for text in _used}
    tmp = f"{path}.{os.getpid()}.tmp"
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(tmp, "wb") as fh:
            fh.write(MAGIC_NUMBER + marshal.dumps(merged))
        os.replace(tmp, path)  # readers see the old file or the new one, never half of one
    except (OSError, ValueError):
        try:
            os.unlink(tmp)
        except OSError:
            pass


_PATCHES = {"dataclasses": _patch_dataclasses, "re._compiler": _patch_re_compiler}


class _Finder:
    """Patches ``dataclasses`` and ``re._compiler`` right after each is imported, then steps aside."""

    @staticmethod
    def find_spec(name, path=None, target=None):
        patch = _PATCHES.get(name)
        if patch is None:
            return None
        if all(n == name or n in sys.modules for n in _PATCHES):
            sys.meta_path.remove(_Finder)
        spec = PathFinder.find_spec(name, path)
        if spec is None or spec.loader is None:
            return spec
        loader = spec.loader
        exec_module = loader.exec_module

        def exec_and_patch(module):
            exec_module(module)
            patch(module)

        loader.exec_module = exec_and_patch
        return spec


def install() -> None:
    for name, patch in _PATCHES.items():
        module = sys.modules.get(name)
        if module is not None:
            patch(module)
    if any(name not in sys.modules for name in _PATCHES) and _Finder not in sys.meta_path:
        sys.meta_path.insert(0, _Finder)
