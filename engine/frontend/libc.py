"""The C library's functions that cbam reads as C (``libc_src/*.c``, one function a file), linked
into a program that calls them and defines none of them: an archive's members, as the linker
pulls them in. Every analysis then reads what glibc's function does as it reads the program's
own code (memory-safety checks included), where a model by name would need each engine to
learn it. The native replay links glibc's own: what cbam reads must be what glibc does, for
every defined argument (tests/test_libc.py runs both side by side).

A program that defines one of these names keeps its own; a function called only through a
pointer stays external (any value, any effect on what its arguments reach)."""

from __future__ import annotations

import os

from .compile_db import Unit
from .link import UNIT_PRAGMA, linked_text, unit_pragma
from .preprocess import PreprocessOptions

LIBC_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "libc_src")
MEMBERS: frozenset[str] = frozenset(f[:-2] for f in os.listdir(LIBC_DIR) if f.endswith(".c"))

_TEXTS: dict[tuple[str, str], str] = {}  # (member, data model) -> its preprocessed text


def is_member_file(path: str) -> bool:
    """Whether ``path`` is one of the library's own files (not the program's)."""
    return os.path.dirname(os.path.abspath(path)) == LIBC_DIR


def with_members(pp: str, path: str, names: set[str], data_model: str) -> str:
    """The program's preprocessed text ``pp`` (of ``path``, a unit or already linked) with the
    members ``names`` linked in."""
    members = sorted(names & MEMBERS)
    if not members:
        return pp
    parts = [pp if pp.startswith(f"#pragma {UNIT_PRAGMA} ") else f"{unit_pragma(path)}\n{pp}"]
    for name in members:
        key = (name, data_model)
        if key not in _TEXTS:
            member = os.path.join(LIBC_DIR, f"{name}.c")
            _TEXTS[key] = linked_text([Unit(member, PreprocessOptions(data_model=data_model))])
        parts.append(_TEXTS[key])
    return "\n".join(parts)
