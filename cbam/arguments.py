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


def pp_options(args: argparse.Namespace, data_model: str) -> api.PreprocessOptions:
    return api.PreprocessOptions(include_paths=args.include, defines=args.define, undefines=args.undefine,
                                 data_model=data_model)


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


