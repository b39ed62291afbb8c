"""Command-line arguments the commands share, and what they turn into for the engine."""

from __future__ import annotations

import argparse
import os
import sys

from cbam.engine import api


def add_frontend_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("-I", dest="include", action="append", default=[], metavar="DIR", help="add an include path")
    p.add_argument("-D", dest="define", action="append", default=[], metavar="NAME[=VAL]", help="define a macro")
    p.add_argument("-U", dest="undefine", action="append", default=[], metavar="NAME", help="undefine a macro")
    p.add_argument("--data-model", choices=api.DATA_MODELS, default=None,
                   help="integer widths (default: the task's, else LP64 for .c files)")


def add_project_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("-p", dest="build_dir", metavar="BUILD_DIR",
                   help="take each file's flags (-I, -D, -U, -include, -std) from BUILD_DIR/compile_commands.json, "
                        "as clang-tidy -p does")
    p.add_argument("--link", action="store_true",
                   help="verify the files given as one program, linked as the linker links them (reported under "
                        "the first); without it, each file is a program of its own")


def pp_options(args: argparse.Namespace, data_model: str, path: str | None = None) -> api.PreprocessOptions:
    """The preprocessor's options for ``path``: the command line's, after what the build
    directory's compile_commands.json says for it (-p)."""
    flags = _database_flags(args, path) if path is not None else None
    if flags is not None:
        pp = flags.options(data_model, args.include, args.define)
        return pp._replace(undefines=(*pp.undefines, *args.undefine))
    return api.PreprocessOptions(include_paths=args.include, defines=args.define, undefines=args.undefine,
                                 data_model=data_model)


def _database_flags(args: argparse.Namespace, path: str):
    build_dir = getattr(args, "build_dir", None)
    if build_dir is None:
        return None
    table = getattr(args, "_database", None)
    if table is None:
        table = args._database = api.load_compile_commands(build_dir)
        if not table:
            print(f"cbam: warning: no readable {os.path.join(build_dir, 'compile_commands.json')}; "
                  "using the command line's flags", file=sys.stderr)
    flags = api.flags_for(table, path)
    warned = args.__dict__.setdefault("_warned", set())
    if flags is None and table and path not in warned:
        warned.add(path)
        print(f"cbam: warning: {path} is not in {build_dir}'s compile_commands.json; using the command line's flags",
              file=sys.stderr)
    return flags


def add_cache_options(p: argparse.ArgumentParser, allow_disable: bool = True) -> None:
    p.add_argument("--cache-dir", metavar="DIR", help="where the summary cache lives (default: $XDG_CACHE_HOME/cbam)")
    if allow_disable:
        p.add_argument("--no-cache", action="store_true", help="neither read nor write the summary cache")


def open_cache(args: argparse.Namespace):
    if getattr(args, "no_cache", False):
        return None
    try:
        store = api.open_cache(args.cache_dir)
    except OSError as exc:
        print(f"cbam: warning: cache unavailable ({exc}); running without it", file=sys.stderr)
        return None
    if store.rebuilt_reason:
        print(f"cbam: note: the summary cache was rebuilt: {store.rebuilt_reason}", file=sys.stderr)
    return store


def collect(paths: list[str]) -> list[str]:
    out: list[str] = []
    for p in paths:
        if os.path.isdir(p):
            for root, _dirs, files in os.walk(p):
                for f in sorted(files):
                    if f.endswith((".c", ".i", ".yml")):
                        out.append(os.path.join(root, f))
        else:
            out.append(p)
    # A .yml next to its .c would verify the same program twice: prefer the task.
    tasks = {os.path.splitext(p)[0] for p in out if p.endswith(".yml")}
    return sorted(p for p in out if p.endswith(".yml") or os.path.splitext(p)[0] not in tasks)


