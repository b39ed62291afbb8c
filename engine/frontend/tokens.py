"""A small C tokenizer used to map preprocessed positions back to the user's files.

It tokenizes both the original files (skipping comments and directives) and the
preprocessor output (reading its line markers), so tokens can be aligned.
"""

from __future__ import annotations

import re
from typing import NamedTuple

_PUNCT = sorted(
    """... <<= >>= -> ++ -- << >> <= >= == != && || *= /= %= += -= &= ^= |= ## <: :> <% %>
    [ ] ( ) { } . & * + - ~ ! / % < > ^ | ? : ; = , #""".split(),
    key=len,
    reverse=True,
)
_TOKEN_RE = re.compile(
    r"""
    (?P<ws>[ \t\f\v\r]+|\\\n)
  | (?P<nl>\n)
  | (?P<lcomment>//[^\n]*)
  | (?P<bcomment>/\*.*?\*/)
  | (?P<ucomment>/\*)
  | (?P<string>(?:L|u8|u|U)?"(?:[^"\\\n]|\\.)*")
  | (?P<char>(?:L|u|U)?'(?:[^'\\\n]|\\.)*')
  | (?P<number>\.?[0-9](?:[eEpP][+-]|[0-9A-Za-z_.])*)
  | (?P<ident>[A-Za-z_$][A-Za-z0-9_$]*)
  | (?P<punct>"""
    + "|".join(re.escape(p) for p in _PUNCT)
    + r""")
  | (?P<other>.)
    """,
    re.VERBOSE | re.DOTALL,
)


class Token(NamedTuple):
    """(A named tuple: a file's tokens are made again on every edit, and a frozen dataclass's
    constructor costs three times as much.)"""

    text: str
    line: int
    col: int  # 1-based
    end_line: int
    end_col: int  # exclusive


_SKIPPED = frozenset(("ws", "lcomment", "bcomment", "ucomment"))
_MULTILINE = frozenset(("ws", "bcomment", "ucomment", "string", "char"))  # may span a "\\\n"


def tokenize_source(text: str) -> list[Token]:
    """Tokens of an original C file, without comments and preprocessor directives."""
    return _scan(text, 0, 1, False)[0]


def _scan(text: str, pos: int, line: int, one_line: bool) -> tuple[list[Token], int, int]:
    """Tokens from offset ``pos`` (the start of line ``line``, where no comment or directive is
    open), to the end, or with ``one_line`` to just after the first newline that is not inside
    a comment or a continued line; and the offset and line there.

    A column is the offset from the last newline, so only the kinds of match that can hold
    a newline are searched for one."""
    tokens: list[Token] = []
    append = tokens.append
    line_start = pos  # the offset of the current line's first character
    at_line_start = True
    in_directive = False
    for m in _TOKEN_RE.finditer(text, pos):
        kind = m.lastgroup
        start = m.start()
        if kind == "nl":
            if one_line:
                return tokens, start + 1, line + 1
            line += 1
            line_start = start + 1
            at_line_start = True
            in_directive = False
            continue
        tok = text[start:] if kind == "ucomment" else m.group()  # an unterminated comment swallows the rest
        newlines = tok.count("\n") if kind in _MULTILINE else 0
        if kind not in _SKIPPED:
            if at_line_start and tok == "#":
                in_directive = True
            elif not in_directive:
                col = start - line_start + 1
                if newlines:
                    append(Token(tok, line, col, line + newlines, len(tok) - tok.rfind("\n")))
                else:
                    append(Token(tok, line, col, line, col + len(tok)))
            at_line_start = False
        if newlines:
            line += newlines
            line_start = start + tok.rfind("\n") + 1
        if kind == "ucomment":
            break
    return tokens, len(text), line


def tokenize_file(text: str) -> list[Token]:
    """tokenize_source(text), line by line where it can: after every newline that ends a line
    (not one inside a comment or a continued line) the tokenizer starts afresh, so a line that
    neither opens a comment nor ends in a backslash has the tokens it has anywhere, and they are
    memoized on its text (an edit leaves most lines as they were)."""
    tokens: list[Token] = []
    extend = tokens.extend
    pos, line, n = 0, 1, len(text)
    while pos < n:
        eol = text.find("\n", pos)
        raw = text[pos:] if eol < 0 else text[pos:eol]
        if "/*" in raw or raw.endswith("\\"):
            got, pos, line = _scan(text, pos, line, True)
            extend(got)
            continue
        extend([Token(t, line, c, line, e) for t, c, e in line_tokens(raw)])
        line += 1
        pos = n if eol < 0 else eol + 1
    return tokens


_MARKER_RE = re.compile(r'#\s*(?:line\s+)?(\d+)\s+"((?:[^"\\]|\\.)*)"')


_LINE_TOKENS: dict[str, list[tuple[str, int, int]]] = {}
_LINE_TOKENS_MAX = 200_000


def line_tokens(raw: str) -> list[tuple[str, int, int]]:
    # Most lines survive an edit unchanged, so their tokens are memoized on their text.
    toks = _LINE_TOKENS.get(raw)
    if toks is None:
        toks = _scan_line(raw)
        if len(_LINE_TOKENS) >= _LINE_TOKENS_MAX:
            _LINE_TOKENS.clear()
        _LINE_TOKENS[raw] = toks
    return toks


def _scan_line(raw: str) -> list[tuple[str, int, int]]:
    """``(text, col, end_col)`` of the tokens of one line (no newline in it): what
    tokenize_source gives for it, without its per-token records (a new process tokenizes
    every line of the file it keys)."""
    out: list[tuple[str, int, int]] = []
    append = out.append
    at_line_start = True
    for m in _TOKEN_RE.finditer(raw):
        kind = m.lastgroup
        if kind in _SKIPPED:
            if kind == "ucomment":
                break  # an unterminated comment swallows the rest
            continue
        tok = m.group()
        if at_line_start and tok == "#":
            return out  # a directive, whose tokens are not the program's
        at_line_start = False
        start = m.start() + 1
        append((tok, start, start + len(tok)))
    return out


class PPLine:
    """One physical line of preprocessor output and where it came from.

    Its tokens (positions in the preprocessed text: line = physical line) are made on
    first use: the incremental front end maps only the lines it builds.
    """

    __slots__ = ("file", "line", "phys", "raw", "_tokens")

    def __init__(self, file: str, line: int, phys: int = 0, raw: str = "", tokens: list[Token] | None = None):
        self.file = file
        self.line = line
        self.phys = phys
        self.raw = raw  # "" for marker and directive lines, which carry no tokens
        self._tokens = tokens

    @property
    def has_tokens(self) -> bool:
        if self._tokens is not None:
            return bool(self._tokens)
        return bool(self.raw.strip())

    @property
    def tokens(self) -> list[Token]:
        if self._tokens is None:
            phys = self.phys
            self._tokens = [Token(t, phys, c, phys, e) for t, c, e in line_tokens(self.raw)]
        return self._tokens


def split_preprocessed(text: str) -> tuple[list[PPLine], str]:
    """Physical lines of ``gcc -E`` output, each tagged with its origin by the line markers,
    and the text with the markers blanked out.

    gcc spreads one macro expansion over several physical lines that all carry the same
    marker, so pycparser's (file, line, column) would be ambiguous; it parses the blanked
    text instead, where a physical line number is unique, and this table maps it back.
    """
    result: list[PPLine] = []
    parser_lines: list[str] = []
    cur_file, cur_line = "<stdin>", 1
    for phys, raw in enumerate(text.split("\n"), start=1):
        stripped = raw.lstrip()
        if stripped.startswith("#"):
            m = _MARKER_RE.match(stripped)
            if m:
                cur_line = int(m.group(1))
                cur_file = _marker_file(m)
                parser_lines.append("")
                result.append(PPLine(cur_file, cur_line, phys))
                continue
            keep = re.match(r"#\s*pragma\b", stripped) is not None
            parser_lines.append(raw if keep else "")
            result.append(PPLine(cur_file, cur_line, phys))
            cur_line += 1
            continue
        parser_lines.append(raw)
        result.append(PPLine(cur_file, cur_line, phys, raw))
        cur_line += 1
    return result, "\n".join(parser_lines)


def _marker_file(m: re.Match) -> str:
    return m.group(2).encode("latin-1", "backslashreplace").decode("unicode_escape")


def source_files(text: str) -> list[str]:
    """The files ``gcc -E`` output says it came from (its line markers), each once, in order;
    not gcc's pseudo-files such as ``<built-in>``."""
    seen: dict[str, None] = {}
    for line in text.split("\n"):
        stripped = line.lstrip()
        if stripped.startswith("#"):
            m = _MARKER_RE.match(stripped)
            if m:
                name = _marker_file(m)
                if not name.startswith("<"):
                    seen[name] = None
    return list(seen)
