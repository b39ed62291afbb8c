"""The incremental front end: after an edit, parse and build only what the edit touched.

A file is cut into its top-level definitions (frontend.chunks). Each is parsed unless the
same text was parsed in the same typedef scope before; each function definition is built
unless the same function was built before with the same

- text and column (so the same AST up to a line offset),
- source layout: the original lines and tokens its ranges come from, relative to its first
  line (so the same ranges up to that offset),
- surroundings: every declaration of the file and every other function's declarator,
  in order, and the data model (so the same types, globals and callee signatures);

a reused build is moved to the function's current line (cfa.reuse). Only the lines of
what is built are mapped to the original files. The result equals a whole-file build;
tests/test_incremental_frontend.py checks that on random edits.
"""

from __future__ import annotations

import bisect
import threading
from collections.abc import Callable

from pycparser import c_ast, c_parser

from ..frontend.attributes import EMPTY as NO_ATTRIBUTES
from ..frontend.attributes import AttributeTable
from ..frontend.chunks import Chunk, NotChunkable, parse_chunks, split_chunks
from ..frontend.srcmap import SourceMap, Spans, alignment_groups, original_tokens
from ..frontend.tokens import PPLine
from ..sha import sha1
from . import reuse
from .builder import ProgramBuilder
from .cfa import Program
from .ctype import DataModel

KEY_VERSION = "fe-3"  # fe-2: counting loops accelerated (cfa/acceleration.py); fe-3: variadic functions, GNU syntax

# What pycparser raises on input it cannot parse (the whole-file parse then reports it).
_PARSER_FAILURES = (c_parser.ParseError, RecursionError, IndexError, AssertionError, AttributeError, TypeError,
                    ValueError)


_LOCK = threading.Lock()  # the memos are per process; loads on several threads take turns


def build_program(path: str, pplines: list[PPLine], parser_text: str, read: Callable[[str], str | None],
                  data_model: str, entry: str, store: reuse.FunctionStore | None = None,
                  attrs: AttributeTable | None = None) -> Program:
    """Raises chunks.NotChunkable when the file is not a sequence of definitions this
    front end can cut, or a chunk does not parse: the caller then parses the file whole
    (and reports its errors as usual). ``store``: the persistent cache, which keeps builds
    for later processes (a function found there is neither parsed nor built)."""
    with _LOCK:
        return _build_program(path, pplines, parser_text, read, data_model, entry, store, attrs or NO_ATTRIBUTES)


def _build_program(path: str, pplines: list[PPLine], parser_text: str, read: Callable[[str], str | None],
                   data_model: str, entry: str, store: reuse.FunctionStore | None, attrs: AttributeTable) -> Program:
    chunks = split_chunks(parser_text)
    # The attributes are blanked in the chunks' text: what they said is part of every function's
    # surroundings (a struct's layout, say).
    env = sha1(repr((KEY_VERSION, data_model, path, entry, attrs.key(),
                             [("F", c.declarator) if c.is_function else ("E", c.text) for c in chunks])).encode())
    env_key = env.hexdigest()
    layout = _Layout(pplines, read)
    keys: dict[int, tuple[str, str, int]] = {}  # chunk start -> (key, file, base)
    hits: dict[int, tuple] = {}

    def will_build(ch: Chunk, scope_digest: str) -> bool:
        if not ch.is_function:
            return True
        k = layout.function_key(ch, env_key, scope_digest)
        if k is None:
            return True
        keys[ch.start] = k
        got = reuse.lookup(*k, store=store)
        if got is None:
            return True
        hits[ch.start] = got
        return False

    def stored_stub(ch: Chunk):
        return reuse.stub(keys[ch.start][0], ch.line) if ch.start in hits else None

    try:
        parsed = parse_chunks(chunks, will_build, stored_stub)
    except _PARSER_FAILURES as exc:
        raise NotChunkable(f"{type(exc).__name__}: {exc}") from exc
    ext: list[c_ast.Node] = []
    fd_keys: dict[int, tuple[str, str, int]] = {}
    fd_hits: dict[int, tuple] = {}
    declared: dict[int, tuple[int, tuple[tuple[str, bool], ...]]] = {}
    include = bytearray(len(pplines) + 2)
    for pc in parsed:
        ch = pc.chunk
        ext.extend(pc.ext)
        single = len(pc.ext) == 1 and isinstance(pc.ext[0], c_ast.FuncDef)
        if ch.start in hits and single:
            fd_hits[id(pc.ext[0])] = hits[ch.start]
            continue
        if not pc.placed:
            raise AssertionError("a chunk to build was parsed at another line")  # parse_chunks guarantees it
        if ch.start in keys and single:
            fd_keys[id(pc.ext[0])] = keys[ch.start]
            declared[id(pc.ext[0])] = (ch.line, pc.declared)
        for ln in range(ch.line, ch.end_line + 1):
            include[ln] = 1
    sm = SourceMap(pplines, read, include=lambda ln: bool(include[ln]) if ln < len(include) else False,
                   groups=layout.groups)
    r = reuse.FunctionReuse(fd_keys, fd_hits, store, declared)
    builder = ProgramBuilder(c_ast.FileAST(ext), Spans(sm), DataModel(data_model), path, entry, reuse=r, attrs=attrs)
    program = builder.build()
    r.flush()
    program.load_stats = {"chunks": len(chunks), "functions_built": r.built_count, "functions_reused": r.reused}
    return program


class _Layout:
    """Where each physical line's tokens come from, for keying a function on its layout."""

    def __init__(self, pplines: list[PPLine], read: Callable[[str], str | None]):
        self.pplines = pplines
        self.read = read
        self.group_of: dict[int, int] = {}  # physical line -> index in groups
        self.groups = alignment_groups(pplines)
        for gi, (group, _) in enumerate(self.groups):
            for pl in group:
                self.group_of[pl.phys] = gi
        self._texts: dict[str, tuple[str, list[str]] | None] = {}

    def _file(self, file: str) -> tuple[str, list[str]] | None:
        if file not in self._texts:
            text = self.read(file)
            self._texts[file] = (text, text.split("\n")) if text is not None else None
        return self._texts[file]

    def function_key(self, ch: Chunk, env_key: str, scope_digest: str) -> tuple[str, str, int] | None:
        """(key, file, first original line), or None when the function cannot be reused:
        it shares a line with another definition or a macro expansion with a neighbour,
        or comes from more than one file."""
        if not ch.alone:
            return None
        gis = sorted({self.group_of[p] for p in range(ch.line, ch.end_line + 1) if p in self.group_of})
        if not gis:
            return None
        groups = [self.groups[g] for g in gis]
        if groups[0][0][0].phys < ch.line or groups[-1][0][-1].phys > ch.end_line:
            return None
        file = groups[0][0][0].file
        if any(pl.file != file for g, _ in groups for pl in g):
            return None
        base = min(g[0].line for g, _ in groups)
        end = max(max(last, g[-1].line) for g, last in groups)
        got = self._file(file)
        if got is None:
            return None
        text, lines = got
        toks, olines = original_tokens(text)
        lo, hi = bisect.bisect_left(olines, base), bisect.bisect_right(olines, end)
        layout = (
            [(pl.phys - ch.line, pl.line - base) for g, _ in groups for pl in g],
            [(g[0].line - base, last - base) for g, last in groups],
            lines[base - 1:end],
            [(t.text, t.line - base, t.col, t.end_line - base, t.end_col) for t in toks[lo:hi]],
        )
        h = sha1(repr((env_key, scope_digest, ch.col, ch.text, file, layout)).encode())
        return h.hexdigest(), file, base
