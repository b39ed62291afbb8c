"""The flags compile_commands.json gives a file (only include paths, macros, forced includes and
the standard are taken)."""

from __future__ import annotations

import json
import os
import shlex

from .worker import CompileFlags


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
    path = os.path.join(root, "compile_commands.json")
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
            elif i > 0 and args[i - 1] == "-I" and not os.path.isabs(a):
                a = os.path.join(directory, a)
            fixed.append(a)
        table[os.path.realpath(os.path.join(directory, e["file"]))] = fixed
    return table
