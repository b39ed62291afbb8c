"""compile_commands.json, as clang-tidy and clangd read it: which files a project compiles, and
with which flags (only include paths, macros, forced includes and the standard are taken;
nothing is ever executed). The command line (``-p``) and the editor read it here."""

from __future__ import annotations

import os
from collections import namedtuple

from .preprocess import PreprocessOptions

DATABASE = "compile_commands.json"


class CompileFlags(namedtuple("CompileFlags", "include_paths defines undefines force_includes std",
                              defaults=((), (), (), (), None))):
    """What compile_commands.json says for one file."""

    __slots__ = ()
    include_paths: tuple[str, ...]
    defines: tuple[str, ...]
    undefines: tuple[str, ...]
    force_includes: tuple[str, ...]
    std: str | None

    def options(self, data_model: str, include_paths=(), defines=()) -> PreprocessOptions:
        """The preprocessor's options: ``include_paths`` and ``defines`` (the user's own) first."""
        return PreprocessOptions(include_paths=(*include_paths, *self.include_paths),
                                 defines=(*defines, *self.defines), undefines=self.undefines,
                                 force_includes=self.force_includes, std=self.std, data_model=data_model)


class Unit(namedtuple("Unit", "path options text", defaults=(None, None))):
    """One translation unit of a program (frontend/link.py links them): its file, the flags it
    is compiled with, and (in the editor) the unsaved text that stands for the file."""

    __slots__ = ()
    path: str
    options: PreprocessOptions | None
    text: str | None


def parse_compile_flags(args: list[str]) -> CompileFlags:
    """Only -I, -D, -U, -include and -std are taken; nothing is ever executed."""
    out: dict[str, list[str]] = {"-I": [], "-D": [], "-U": [], "-include": []}
    std = None
    i = 0
    while i < len(args):
        a = args[i]
        nxt = args[i + 1] if i + 1 < len(args) else None
        for flag in ("-I", "-D", "-U"):
            if a == flag and nxt is not None:
                out[flag].append(nxt)
                i += 1
                break
            if a.startswith(flag) and len(a) > len(flag):
                out[flag].append(a[len(flag):])
                break
        else:
            if a == "-include" and nxt is not None:
                out["-include"].append(nxt)
                i += 1
            elif a.startswith("-std="):
                std = a[len("-std="):]
        i += 1
    return CompileFlags(include_paths=tuple(out["-I"]), defines=tuple(out["-D"]), undefines=tuple(out["-U"]),
                        force_includes=tuple(out["-include"]), std=std)


def load_compile_commands(root: str) -> dict[str, list[str]]:
    """Each file's arguments (by its real path), from ``root``'s compile_commands.json; {} when
    there is none or it cannot be read."""
    import json  # only where a database is read: not on the path that answers from the cache
    import shlex

    path = os.path.join(root, DATABASE)
    try:
        with open(path, encoding="utf-8") as fh:
            entries = json.load(fh)
    except (OSError, ValueError):
        return {}
    table: dict[str, list[str]] = {}
    if not isinstance(entries, list):
        return table
    for e in entries:
        if not isinstance(e, dict) or "file" not in e:
            continue
        directory = e.get("directory", root)
        args = e.get("arguments")
        if args is None and isinstance(e.get("command"), str):
            try:
                args = shlex.split(e["command"])
            except ValueError:
                continue
        if not isinstance(args, list):
            continue
        args = [str(a) for a in args]
        # Relative include directories are relative to the entry's directory.
        fixed = []
        for i, a in enumerate(args):
            if a.startswith("-I") and len(a) > 2 and not os.path.isabs(a[2:]):
                a = "-I" + os.path.join(directory, a[2:])
            elif i > 0 and args[i - 1] in ("-I", "-include") and not os.path.isabs(a):
                a = os.path.join(directory, a)
            fixed.append(a)
        table[os.path.realpath(os.path.join(directory, e["file"]))] = fixed
    return table


def flags_for(table: dict[str, list[str]], path: str) -> CompileFlags | None:
    """The database's flags for ``path`` (None: the database does not compile it)."""
    args = table.get(os.path.realpath(path))
    return parse_compile_flags(args) if args is not None else None
