"""The ``cbam`` command line: ``cbam verify``, ``cbam cfa``, and friends."""

from __future__ import annotations

import argparse
import faulthandler
import gc
import os
import sys

from cbam import __version__, codecache


def cmd_lsp(args: argparse.Namespace) -> int:
    from cbam.server.lsp import main as lsp_main

    return lsp_main(["--tcp", args.tcp] if args.tcp else [])


# argparse passes each of its messages through gettext, and where no catalogue is installed for
# its domain (CPython ships none), every lookup searches the locale directories again, after
# importing locale: 5-6 ms of a start-up that answers an unchanged file from the cache in 40.
# cbam's own messages are English too.
argparse._ = lambda message: message  # type: ignore[attr-defined]
argparse.ngettext = lambda singular, plural, n: singular if n == 1 else plural  # type: ignore[attr-defined]


class _HelpFormatter(argparse.HelpFormatter):
    """argparse's formatter sizes itself with shutil, which costs milliseconds to import on every
    start-up (argparse builds a formatter for each argument), even when no help is printed."""

    def __init__(self, prog: str, **kwargs) -> None:
        if kwargs.get("width") is None:
            kwargs["width"] = _columns() - 2  # as argparse does
        super().__init__(prog, **kwargs)


def _columns() -> int:
    # shutil.get_terminal_size's rule: $COLUMNS, else the terminal's width, else 80.
    try:
        return int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        pass
    try:
        return os.get_terminal_size(sys.__stdout__.fileno()).columns or 80  # type: ignore[union-attr]
    except (AttributeError, ValueError, OSError):
        return 80


class _Parser(argparse.ArgumentParser):
    """Subcommand parsers are of the same class (argparse's default), so they share the formatter."""

    def __init__(self, *args, **kwargs) -> None:
        kwargs.setdefault("formatter_class", _HelpFormatter)
        super().__init__(*args, **kwargs)


COMMANDS = ("cfa", "lsp", "verify", "summary", "cache")


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The parser of every command, or of the named one alone (argparse builds each argument's
    help eagerly, which a start-up that answers from the cache would otherwise pay for)."""
    parser = _Parser(prog="cbam", description="Verify C programs: assertions proven or broken.")
    parser.add_argument("--version", action="version", version=f"cbam {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)

    if only in (None, "lsp"):
        p = sub.add_parser("lsp", help="run the language server (stdio, or --tcp HOST:PORT)")
        p.add_argument("--tcp", metavar="HOST:PORT", help="listen on TCP instead of stdio")
        p.add_argument("--stdio", action="store_true", help="use stdio (the default)")
        p.set_defaults(func=cmd_lsp)

    if only != "lsp":
        from cbam.commands import add_commands

        add_commands(sub, only)
    return parser


EXIT_INTERNAL = 4  # 0 TRUE, 1 FALSE, 2 bad input, 3 UNKNOWN (cbam.commands)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    parser = build_parser(argv[0] if argv and argv[0] in COMMANDS else None)
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return 2 if exc.code not in (0, None) else 0
    try:
        return int(args.func(args))
    except KeyboardInterrupt:
        print("cbam: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except Exception as exc:  # a bug in cbam (or a failed self-check): never a verdict's exit status
        import traceback

        traceback.print_exc(limit=6, file=sys.stderr)
        print(f"cbam: internal error: {exc}", file=sys.stderr)
        return EXIT_INTERNAL


def run() -> None:
    """The console entry point: main, then an exit without Python's finalization.

    Finalization frees every module and object one by one: 10-15 ms, about a sixth of a run
    answered from the cache, and more after an analysis has loaded pycparser and z3. Nothing
    of cbam's needs it (the cache's writes are committed transactions, and it is closed here
    anyway); the language server, which owns worker processes, exits the ordinary way."""
    # z3 runs in this process and, rarely, crashes when a check is interrupted at its time limit
    # (Z3Prover/z3#595); a crash then leaves every thread's Python stack on stderr.
    faulthandler.enable()
    argv = sys.argv[1:]
    if argv[:1] == ["verify"]:
        # Start-up and loading create objects that live for the whole run (modules, classes,
        # the program's CFAs) and little garbage; the collector's passes over them cost 7% of
        # an edit answered in a new process. `cbam verify` turns it back on once the program
        # is loaded (commands.loaded), with those objects frozen out of its sight.
        gc.disable()
    code = main(argv)
    if argv[:1] == ["lsp"]:
        raise SystemExit(code)
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except BrokenPipeError:
            pass
    codecache.save()  # what atexit would do
    os._exit(code)


if __name__ == "__main__":
    run()
