"""The front end's entry point: C source (or .i) to a Program of per-function CFAs."""

from __future__ import annotations

import re
import subprocess
from collections import OrderedDict

from pycparser import c_parser

from ..frontend import libc
from ..frontend.attributes import AttributeTable, read_attributes
from ..frontend.chunks import PARSE_FILENAME, NotChunkable
from ..frontend.cparser import GnuParser
from ..frontend.errors import Diagnostic, FrontendError
from ..frontend.gnu_syntax import rewrite_gnu_syntax
from ..frontend.link import rename_internal
from ..frontend.preprocess import Preprocessing, PreprocessOptions, find_cpp, parse_gcc_errors, search_path
from ..frontend.source_key import source_key, unpreprocessed_key
from ..frontend.srcmap import SourceMap, Spans, read_text
from ..frontend.tokens import split_preprocessed
from . import incremental, linkage
from .builder import ProgramBuilder
from .callgraph import CallGraph
from .cfa import Program
from .ctype import DataModel
from .fingerprint import assign_fingerprints
from .ir import ExternalCallEdge

_PARSE_ERR = re.compile(r"^(?P<file>.*?):(?P<line>\d+):(?P<col>\d+): (?P<msg>.*)$")


_MEMO: OrderedDict[str, Program] = OrderedDict()
_MEMO_SIZE = 16


def load_program(path: str, text: str | None = None, options: PreprocessOptions | None = None,
                 entry: str = "main", preprocessed: str | None = None, store=None,
                 unpreprocessed: str | None = None) -> Program:
    """Preprocess, parse and build CFAs. Raises :class:`FrontendError` and nothing else
    for bad input; an unsupported construct only marks its function (see Program.diagnostics).

    The parse is memoized per process on the preprocessed text (and on the original files'
    contents, which the source ranges come from), so re-verifying an unchanged file costs
    one run of the preprocessor. ``preprocessed`` is that run's output when the caller has
    already made it. ``store`` (a cache.store.CacheStore) keeps each function's build for
    later processes: one finds there every function an earlier process built, and parses and
    builds only the others.

    ``unpreprocessed`` is the caller's ``unpreprocessed_key`` of the bytes it preprocessed into
    ``preprocessed``; where this function preprocesses, it finds that key itself. A result is
    filed under it too (pipeline/cachepolicy.py), for a process that has not preprocessed yet.
    """
    opts = options or PreprocessOptions()
    if preprocessed is None:
        run = Preprocessing(path, text, opts)
        pp = run.result()
        unpreprocessed = unpreprocessed_key(path, run.raw, run.cmd, opts, entry)
    else:
        pp = preprocessed
    key = source_key(path, text, pp, opts, entry)
    if key is not None and key in _MEMO:
        _MEMO.move_to_end(key)
        program = _MEMO[key]
        program.unpreprocessed_key = unpreprocessed
        if program.load_stats:  # this load built nothing
            program.load_stats = {**program.load_stats, "functions_built": 0,
                                  "functions_reused": len(program.functions)}
        return program
    program = _build_linked(path, text, pp, opts, entry, store)
    # C library functions cbam reads as C (frontend/libc.py), linked in as members, and what
    # they call in turn (strtol sets errno through __errno_location), as an archive is searched.
    wanted: set[str] = set()
    while new := (_external_calls(program) & libc.MEMBERS) - wanted:
        wanted |= new
        program = _build_linked(path, text, libc.with_members(pp, path, wanted, opts.data_model), opts, entry, store)
    program.source_key = key
    program.unpreprocessed_key = unpreprocessed if key is not None else None
    if key is not None:
        _MEMO[key] = program
        while len(_MEMO) > _MEMO_SIZE:
            _MEMO.popitem(last=False)
    return program


def _build_linked(path: str, text: str | None, pp: str, opts: PreprocessOptions, entry: str, store) -> Program:
    """``_build``, again with a static name two linked units share renamed in its own unit
    where the first build finds one (frontend/link.py)."""
    try:
        return _build(path, text, pp, opts, entry, store=store)
    except linkage.InternalNames as clash:
        return _build(path, text, rename_internal(pp, clash.names), opts, entry, store=store)


def _external_calls(program: Program) -> set[str]:
    """The functions the program calls and does not define."""
    return {e.callee for f in program.functions.values() for e in f.edges() if isinstance(e, ExternalCallEdge)}


def _build(path: str, text: str | None, pp: str, opts: PreprocessOptions, entry: str,
           incremental_ok: bool = True, store=None) -> Program:
    """``incremental_ok=False`` parses and builds the whole file (the reference the
    incremental front end is tested against)."""

    files: dict[str, str | None] = {}

    def read(p: str) -> str | None:
        # The source map, the layout keys and the edge texts all read the same files: once.
        if text is not None and p == path:
            return text
        if p not in files:
            files[p] = read_text(p)
        return files[p]

    pplines, parser_text = rewrite_gnu_syntax(*split_preprocessed(pp))
    parser_text, attrs = read_attributes(parser_text)
    program: Program | None = None
    try:
        if incremental_ok:
            program = incremental.build_program(path, pplines, parser_text, read, opts.data_model, entry, store,
                                                 attrs=attrs)
    except NotChunkable:
        pass  # parsed whole below, which also reports any syntax error properly
    except RecursionError:
        raise FrontendError(Diagnostic("error", "the program is nested too deeply for cbam", path)) from None
    if program is None:
        program = _build_whole(path, text, pplines, parser_text, read, opts, entry, attrs)
    assign_fingerprints(program)
    program.callgraph = CallGraph.of(program)
    return program


def _build_whole(path: str, text: str | None, pplines, parser_text: str, read, opts: PreprocessOptions,
                 entry: str, attrs: AttributeTable | None = None) -> Program:
    sm = SourceMap(pplines, read)
    try:
        ast = GnuParser().parse(parser_text, filename=PARSE_FILENAME)
    except c_parser.ParseError as exc:
        raise FrontendError(_syntax_diagnostics(str(exc), path, text, opts, sm)) from None
    except (RecursionError, IndexError, AssertionError, AttributeError, TypeError, ValueError) as exc:
        raise FrontendError(Diagnostic("error", f"cannot parse this file: {type(exc).__name__}", path)) from None
    spans = Spans(sm)
    try:
        builder = ProgramBuilder(ast, spans, DataModel(opts.data_model), path, entry, attrs=attrs)
        return builder.build()
    except RecursionError:
        raise FrontendError(Diagnostic("error", "the program is nested too deeply for cbam", path)) from None


def _syntax_diagnostics(msg: str, path: str, text: str | None, opts: PreprocessOptions,
                        sm: SourceMap) -> list[Diagnostic]:
    return [_as_written(d, path, text) for d in _syntax_messages(msg, path, text, opts, sm)]


def _syntax_messages(msg: str, path: str, text: str | None, opts: PreprocessOptions,
                     sm: SourceMap) -> list[Diagnostic]:
    # gcc locates syntax errors precisely in the user's file; prefer its account.
    gcc = _gcc_syntax_check(path, text, opts)
    if gcc:
        return gcc
    m = _PARSE_ERR.match(msg)
    if m:
        line, col = int(m.group("line")), int(m.group("col"))
        idx = sm._by_coord.get((line, col))
        if idx is not None:
            f, ol, oc, _, _ = sm.origin[idx]
            return [Diagnostic("error", f"syntax cbam cannot parse: {m.group('msg')}", f, ol, oc)]
        file, oline = sm.phys.get(line, (path, line))
        return [Diagnostic("error", f"syntax cbam cannot parse: {m.group('msg')}", file, oline, 1)]
    return [Diagnostic("error", f"syntax cbam cannot parse: {msg.split(': ', 1)[-1]}", path)]


# A name that cbam's stand-in headers substitute for what the user wrote (assert ->
# __cbam_assert, __int128 -> __cbam_int128), as a message quotes it: 'x', `x' or ‘x’.
_INTERNAL_QUOTED = re.compile(r"([‘'`])(__cbam_[A-Za-z0-9_]*)([’'])")
_IDENT_AT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _as_written(d: Diagnostic, path: str, text: str | None) -> Diagnostic:
    """A message about a macro's expansion quotes the expansion; the user wrote the macro's
    name at the diagnostic's position, so that is the name the message gives."""
    if "__cbam_" not in d.message or d.file != path:
        return d
    source = text if text is not None else read_text(path)
    if source is None:
        return d
    lines = source.splitlines()
    if not 1 <= d.line <= len(lines):
        return d
    m = _IDENT_AT.match(lines[d.line - 1], max(0, d.col - 1))
    if m is None or m.group(0).startswith("__cbam_"):
        return d
    return d._replace(message=_INTERNAL_QUOTED.sub(lambda q: q.group(1) + m.group(0) + q.group(3), d.message))


def _gcc_syntax_check(path: str, text: str | None, opts: PreprocessOptions) -> list[Diagnostic]:
    cmd = find_cpp()
    if cmd[-1] == "-E":
        cmd = cmd[:-1]
    else:
        return []
    cmd += ["-fsyntax-only", "-x", "c", "-w", *search_path(opts)]
    for d in opts.defines:
        cmd.append(f"-D{d}")
    src = text.encode() if text is not None else open(path, "rb").read()
    marker = f'# 1 "{path}"\n'.encode()
    try:
        proc = subprocess.run(cmd + ["-"], input=marker + src, capture_output=True, timeout=60)
    except (subprocess.TimeoutExpired, OSError):
        return []
    if proc.returncode == 0:
        return []
    diags = parse_gcc_errors(proc.stderr.decode("utf-8", "replace"), path)
    return [d for d in diags if d.line > 0][:1] or diags[:1]
