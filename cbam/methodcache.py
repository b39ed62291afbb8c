"""Compiled dataclass methods, kept across processes.

``@dataclass`` writes each class's ``__init__``, ``__repr__``, ``__eq__``, ``__hash__`` (and, for
a frozen class, ``__setattr__`` and ``__delattr__``) as source text and compiles that text when
the class is created. For the 72 dataclasses a verification loads (cbam's and pycparser's) that
is about 40 ms of every new process: a sixth of an edit answered by ``cbam verify``.

Compiling the same text always gives the same code, so the code is kept, by its text, in a
marshal file in ``__pycache__`` beside this module, as Python keeps the modules' own bytecode
there (and, like Python, only if ``sys.dont_write_bytecode`` is off). The dataclasses module then
runs the kept code instead of compiling: the text, the globals and the namespace it executes in
are still its own, so a class comes out exactly as it would have.

The hook is installed when ``dataclasses`` is first imported (a finder on ``sys.meta_path``
waits for it), not before: answering an unchanged file from the cache imports no dataclass.
"""

import builtins
import marshal
import os
import sys

# importlib's own machinery, loaded at every start-up (importlib.util would cost an import).
from _frozen_importlib_external import MAGIC_NUMBER, PathFinder

# Programs that import cbam as a library add their own classes, and an upgrade leaves the old
# texts behind: past this many entries, a process keeps only what it used (about 400 for a
# verification, 1 KB each).
_MAX_ENTRIES = 2_000
_codes: dict[str, object] = {}
_used: set[str] = set()
_dirty = False
_installed = False


def cache_file() -> str:
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "__pycache__",
                        f"dataclass-methods.{sys.implementation.cache_tag}.marshal")


def _read(path: str) -> dict[str, object]:
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
    return {k: v for k, v in codes.items() if isinstance(k, str) and isinstance(v, code_type)}


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


def _patch(module) -> None:
    global _installed
    if _installed:
        return
    _installed = True
    _codes.update(_read(cache_file()))
    # A module global shadows the builtin for that module's code only.
    module.exec = _exec
    import atexit

    atexit.register(save)  # processes that end with os._exit call save themselves


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


class _Finder:
    """Patches ``dataclasses`` right after it is imported, then steps aside."""

    @staticmethod
    def find_spec(name, path=None, target=None):
        if name != "dataclasses":
            return None
        sys.meta_path.remove(_Finder)
        spec = PathFinder.find_spec(name, path)
        if spec is None or spec.loader is None:
            return spec
        loader = spec.loader
        exec_module = loader.exec_module

        def exec_and_patch(module):
            exec_module(module)
            _patch(module)

        loader.exec_module = exec_and_patch
        return spec


def install() -> None:
    module = sys.modules.get("dataclasses")
    if module is not None:
        _patch(module)
    elif _Finder not in sys.meta_path:
        sys.meta_path.insert(0, _Finder)
