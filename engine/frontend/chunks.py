"""Top-level definitions of a preprocessed file, and parsing them one at a time.

An edit usually changes one function; the incremental front end parses only the
definitions whose text changed. C's grammar depends on which names are typedefs (the
"lexer hack"), so each definition is parsed in the file scope its predecessors left: a
chunk's parse is reusable when its text and that scope are the same, and the scope is
carried from chunk to chunk as the changes each chunk made to it.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from dataclasses import dataclass

from pycparser import c_ast, c_parser

from ..sha import sha1
from .cparser import GnuParser

PARSE_FILENAME = "<cbam-pp>"

# Structure only: string and character literals (which may hold brackets), brackets,
# semicolons and directive lines (only #pragma survives into the parser's text).
_SCAN = re.compile(r'"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'|[{}();]|^[ \t]*#[^\n]*', re.MULTILINE)


class NotChunkable(Exception):
    """The file's top level is not a sequence of chunks this module understands; the
    caller parses the file whole instead."""


@dataclass(frozen=True, slots=True)
class Chunk:
    """One top-level definition or declaration of the preprocessed text, where it lies."""

    text: str
    start: int  # offset in the parser's text
    line: int  # physical line of the first character (1-based)
    col: int  # its column (1-based)
    end_line: int  # physical line of the last character
    body: int  # offset in text of a function definition's body, -1 for anything else
    alone: bool  # no other chunk shares its first or last physical line

    @property
    def is_function(self) -> bool:
        return self.body >= 0

    @property
    def declarator(self) -> str:
        return self.text[:self.body] if self.body >= 0 else self.text


def split_chunks(text: str) -> list[Chunk]:
    """The external declarations of ``text``, in order: a declaration ends at a ``;`` at
    depth 0, a function definition at the ``}`` closing a body opened right after a ``)``,
    a ``#pragma`` line is its own chunk."""
    spans: list[tuple[int, int, int]] = []  # start, end (exclusive), body offset or -1
    depth = 0
    start = -1
    body = -1
    for m in _SCAN.finditer(text):
        tok = m.group()
        pos = m.start()
        c = tok[0]
        if c in "\"'":
            if start < 0:
                start = pos
            continue
        if c not in "{}();":  # a directive line
            if depth == 0 and start < 0:
                if text[spans[-1][1] if spans else 0:pos].strip():
                    raise NotChunkable("a directive inside a declaration")
                s = pos + len(tok) - len(tok.lstrip())
                spans.append((s, m.end(), -1))
            continue
        if start < 0:
            start = _first_nonspace(text, spans[-1][1] if spans else 0, pos)
        if c in "({":
            if c == "{" and depth == 0 and body < 0 and _last_char_before(text, pos) == ")":
                body = pos
            depth += 1
        elif c in ")}":
            depth -= 1
            if depth < 0:
                raise NotChunkable("unbalanced brackets")
            if c == "}" and depth == 0 and body >= 0:
                spans.append((start, pos + 1, body))
                start, body = -1, -1
        elif depth == 0:  # ;
            spans.append((start, pos + 1, -1))
            start, body = -1, -1
    tail_from = spans[-1][1] if spans else 0
    if depth != 0 or start >= 0 or text[tail_from:].strip():
        raise NotChunkable("the file ends inside a declaration")
    out: list[Chunk] = []
    line = 1
    line_at = 0  # offset where counting lines stopped
    ends: list[int] = []
    for s, e, b in spans:
        line += text.count("\n", line_at, s)
        line_at = s
        col = s - (text.rfind("\n", 0, s) + 1) + 1
        end_line = line + text.count("\n", s, e - 1)
        out.append(Chunk(text[s:e], s, line, col, end_line, b - s if b >= 0 else -1, True))
        ends.append(e)
    # A chunk that shares a physical line with another is parsed like any other, but its
    # source mapping is not its own: the caller does not reuse a built function for it.
    for i, ch in enumerate(out):
        shared = (i > 0 and out[i - 1].end_line == ch.line) or (i + 1 < len(out) and out[i + 1].line == ch.end_line)
        if shared:
            out[i] = Chunk(ch.text, ch.start, ch.line, ch.col, ch.end_line, ch.body, False)
    return out


def _last_char_before(text: str, pos: int) -> str:
    i = pos - 1
    while i >= 0 and text[i].isspace():
        i -= 1
    return text[i] if i >= 0 else ""


def _first_nonspace(text: str, lo: int, hi: int) -> int:
    seg = text[lo:hi + 1]
    return lo + len(seg) - len(seg.lstrip())


class _LoggedScope(dict):
    """pycparser's file scope (name -> is a typedef), logging what a chunk sets in it."""

    def __init__(self) -> None:
        super().__init__()
        self.log: list[tuple[str, bool]] = []

    def __setitem__(self, key: str, value: bool) -> None:
        self.log.append((key, value))
        super().__setitem__(key, value)


class _ChunkParser(GnuParser):
    def parse_chunk(self, chunk: Chunk, scope: _LoggedScope) -> list[c_ast.Node]:
        # The same steps as CParser.parse, but keeping the file scope between chunks; a
        # line marker and padding put every coordinate where a whole-file parse puts it.
        self._scope_stack = [scope]
        self._typedef_checked_token = None
        src = f'# {chunk.line} "{PARSE_FILENAME}"\n' + " " * (chunk.col - 1) + chunk.text
        self.clex.input(src, PARSE_FILENAME)
        self._tokens = c_parser._TokenStream(self.clex.token)
        ast = self._parse_translation_unit_or_empty()
        tok = self._peek()
        if tok is not None:
            self._parse_error(f"before: {tok.value}", self._tok_coord(tok))
        return list(ast.ext)


    def parse_declarator(self, chunk: Chunk, scope: _LoggedScope) -> c_ast.FuncDef | None:
        """A function definition with an empty body, from its declarator alone; None if the
        declarator does not parse as one function declaration (K&R parameters, say), with
        the scope left as it was."""
        before = dict(scope)
        decl_text = chunk.declarator.rstrip() + ";"
        try:
            ext = self.parse_chunk(Chunk(decl_text, chunk.start, chunk.line, chunk.col, chunk.line, -1, chunk.alone),
                                   scope)
        except Exception:  # noqa: BLE001 - whatever pycparser raises: parse the whole chunk
            ext = []
        if len(ext) != 1 or not isinstance(ext[0], c_ast.Decl) or not isinstance(ext[0].type, c_ast.FuncDecl):
            dict.clear(scope)
            dict.update(scope, before)
            scope.log = []
            return None
        return c_ast.FuncDef(ext[0], None, c_ast.Compound([]), ext[0].coord)


@dataclass
class ParsedChunk:
    """A chunk's top-level AST nodes, with the line their coordinates were made for."""

    chunk: Chunk
    ext: list[c_ast.Node]
    line: int  # the physical line the coordinates in ext were made for
    declared: tuple[tuple[str, bool], ...] = ()  # what the chunk declared at file scope (name, is a typedef)

    @property
    def placed(self) -> bool:
        """Whether ext's coordinates are where the chunk is now."""
        return self.line == self.chunk.line


_AST_MEMO: OrderedDict[tuple[str, int, str], tuple[list[c_ast.Node], tuple[tuple[str, bool], ...], int]] = OrderedDict()
_AST_MEMO_SIZE = 20_000


def parse_chunks(chunks: list[Chunk], need_placed, stored_stub=None) -> list[ParsedChunk]:
    """Parse every chunk in order, reusing the parse of a chunk with the same text, column
    and file scope. ``need_placed(chunk, scope_digest)``, asked of every chunk, says whether
    it will be built (so its coordinates must be exact); a reused parse made at another line
    is then made again. ``stored_stub(chunk)``, asked of a function that will not be built,
    gives its declarator's parse (placed at the chunk) and what that declared, if a store kept
    them. Raises c_parser.ParseError (and whatever pycparser raises on bad input)."""
    parser: _ChunkParser | None = None
    scope = _LoggedScope()
    digest = ""
    out: list[ParsedChunk] = []
    for ch in chunks:
        key = (digest, ch.col, ch.text)
        placed = need_placed(ch, digest)
        hit = _AST_MEMO.get(key)
        if hit is not None and placed and hit[2] != ch.line:
            hit = None
        if hit is None:
            stored = None if placed or not ch.is_function or stored_stub is None else stored_stub(ch)
            if stored is not None:
                stub, delta = stored
                for name, is_type in delta:
                    dict.__setitem__(scope, name, is_type)
            else:
                if parser is None:
                    parser = _ChunkParser()
                scope.log = []
                stub = None if placed or not ch.is_function else parser.parse_declarator(ch, scope)
                delta = tuple(scope.log)
            if stub is not None:
                # A function whose build is reused needs only its declarator: its body is
                # not parsed (nor memoized: a later load may have to build it).
                ext, line = [stub], ch.line
                out.append(ParsedChunk(ch, ext, line, delta))
                if delta:
                    digest = sha1(f"{digest}|{delta!r}".encode()).hexdigest()
                continue
            if parser is None:
                parser = _ChunkParser()
            scope.log = []
            ext = parser.parse_chunk(ch, scope)
            delta = tuple(scope.log)
            _AST_MEMO[key] = (ext, delta, ch.line)
            if len(_AST_MEMO) > _AST_MEMO_SIZE:
                _AST_MEMO.popitem(last=False)
            line = ch.line
        else:
            _AST_MEMO.move_to_end(key)
            ext, delta, line = hit
            for name, is_type in delta:
                dict.__setitem__(scope, name, is_type)
        out.append(ParsedChunk(ch, ext, line, delta))
        if delta:
            digest = sha1(f"{digest}|{delta!r}".encode()).hexdigest()
    return out
