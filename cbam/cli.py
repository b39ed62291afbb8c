"""The ``cbam`` command line: ``cbam verify``, ``cbam cfa``, and friends."""

from __future__ import annotations

import argparse
import os
import sys

from cbam import __version__


def _add_frontend_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("-I", dest="include", action="append", default=[], metavar="DIR", help="add an include path")
    p.add_argument("-D", dest="define", action="append", default=[], metavar="NAME[=VAL]", help="define a macro")
    p.add_argument("-U", dest="undefine", action="append", default=[], metavar="NAME", help="undefine a macro")
    p.add_argument("--data-model", choices=["ILP32", "LP64"], default=None,
                   help="integer widths (default: the task's, else LP64 for .c files)")


def pp_options(args: argparse.Namespace, data_model: str):
    from cbam.engine.frontend.preprocess import PreprocessOptions

    return PreprocessOptions(include_paths=args.include, defines=args.define, undefines=args.undefine,
                             data_model=data_model)


def cmd_cfa(args: argparse.Namespace) -> int:
    from cbam.engine.cfa.dot import function_text, program_dot
    from cbam.engine.frontend.errors import FrontendError
    from cbam.engine.frontend.load import load_program

    try:
        program = load_program(args.file, options=pp_options(args, args.data_model or "LP64"))
    except FrontendError as exc:
        for d in exc.diagnostics:
            print(d, file=sys.stderr)
        return 2
    status = 0
    for d in program.diagnostics:
        print(str(d).replace(": warning: ", ": error: ", 1), file=sys.stderr)
        status = 2
    if args.function and args.function not in program.functions:
        print(f"cbam: no function named '{args.function}' in {args.file}", file=sys.stderr)
        return 2
    if args.dot:
        sys.stdout.write(program_dot(program, args.function))
    else:
        funcs = [program.functions[args.function]] if args.function else list(program.functions.values())
        for f in funcs:
            sys.stdout.write(function_text(f))
            sys.stdout.write(f"  fingerprint {f.fingerprint}\n")
    return status


def cmd_lsp(args: argparse.Namespace) -> int:
    from cbam.server.lsp import main as lsp_main

    return lsp_main(["--tcp", args.tcp] if args.tcp else [])


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

    if only in (None, "cfa"):
        p = sub.add_parser("cfa", help="print control-flow automata")
        p.add_argument("file")
        p.add_argument("--function", help="only this function")
        p.add_argument("--dot", action="store_true", help="Graphviz output")
        _add_frontend_options(p)
        p.set_defaults(func=cmd_cfa)

    if only in (None, "lsp"):
        p = sub.add_parser("lsp", help="run the language server (stdio, or --tcp HOST:PORT)")
        p.add_argument("--tcp", metavar="HOST:PORT", help="listen on TCP instead of stdio")
        p.add_argument("--stdio", action="store_true", help="use stdio (the default)")
        p.set_defaults(func=cmd_lsp)

    if only not in ("cfa", "lsp"):
        from cbam.verify_cli import add_verify_commands

        add_verify_commands(sub, _add_frontend_options, only)
    return parser


EXIT_INTERNAL = 4  # 0 TRUE, 1 FALSE, 2 bad input, 3 UNKNOWN (cbam.verify_cli)


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
    argv = sys.argv[1:]
    code = main(argv)
    if argv[:1] == ["lsp"]:
        raise SystemExit(code)
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except BrokenPipeError:
            pass
    os._exit(code)


if __name__ == "__main__":
    run()
