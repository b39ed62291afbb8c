"""Map pycparser coordinates in preprocessed text to ranges in the user's own files.

gcc -E collapses whitespace and expands macros, so its columns are not the user's.
Each preprocessed line is aligned token-by-token with the original lines it came from;
pycparser gives only start positions, so end positions are computed here from the AST
and bracket matching over the preprocessed token stream.
"""

from __future__ import annotations

import bisect
import os
from collections.abc import Callable

from pycparser import c_ast

from .errors import Range
from .tokens import PPLine, Token, tokenize_file

_OPEN = {"(": ")", "[": "]", "{": "}"}


class SourceMap:
    def __init__(self, lines: list[PPLine], read_file: Callable[[str], str | None] | None = None,
                 include: Callable[[int], bool] | None = None,
                 groups: list[tuple[list[PPLine], int]] | None = None):
        """``include`` (physical line -> bool) limits the map to the lines that will be
        built; the others keep their place in the grouping, so every included line is
        aligned exactly as in a map of the whole file. ``groups``: alignment_groups(lines),
        when the caller has made them already."""
        self._read = read_file or read_text
        self.tokens: list[Token] = []
        self.origin: list[tuple[str, int, int, int, int]] = []  # file, line, col, end_line, end_col
        self._by_coord: dict[tuple[int, int], int] = {}  # (physical line, column) -> token
        self.phys: dict[int, tuple[str, int]] = {}  # physical line -> (file, line)
        self._orig_cache: dict[str, tuple[list[Token], list[int]] | None] = {}
        self._build(lines, include, groups if groups is not None else alignment_groups(lines))
        self.match = self._match_brackets()

    # ---- construction -------------------------------------------------
    def _original_tokens(self, file: str) -> tuple[list[Token], list[int]] | None:
        if file not in self._orig_cache:
            text = self._read(file)
            self._orig_cache[file] = None if text is None else original_tokens(text)
        return self._orig_cache[file]

    def _build(self, lines: list[PPLine], include: Callable[[int], bool] | None,
               groups: list[tuple[list[PPLine], int]]) -> None:
        for i, pl in enumerate(lines):
            self.phys[i + 1] = (pl.file, pl.line)
        for group, last in groups:
            if include is not None and not any(include(pl.phys) for pl in group):
                continue
            first = group[0]
            merged = PPLine(first.file, first.line, tokens=[t for pl in group for t in pl.tokens])
            mapped = self._align(merged, last)
            for tok, org in zip(merged.tokens, mapped):
                idx = len(self.tokens)
                self.tokens.append(tok)
                self.origin.append(org)
                self._by_coord[(tok.line, tok.col)] = idx

    def _align(self, pl: PPLine, last_line: int) -> list[tuple[str, int, int, int, int]]:
        fallback = [(pl.file, pl.line, t.col, pl.line, t.end_col) for t in pl.tokens]
        orig = self._original_tokens(pl.file)
        if orig is None:
            return fallback
        otoks, olines = orig
        lo = bisect.bisect_left(olines, pl.line)
        hi = bisect.bisect_right(olines, max(last_line, pl.line))
        window = otoks[lo:hi]
        if not window:
            return fallback
        a = [t.text for t in pl.tokens]
        b = [t.text for t in window]
        if a == b:  # the line as written (the common case): no matching needed
            return [(pl.file, o.line, o.col, o.end_line, o.end_col) for o in window]
        out: list[tuple[str, int, int, int, int] | None] = [None] * len(a)
        import difflib  # only where the preprocessor changed a line (1.5 ms of a new process)

        sm = difflib.SequenceMatcher(None, a, b, autojunk=False)
        for tag, i1, i2, j1, j2 in sm.get_opcodes():
            if tag == "equal":
                for k in range(i2 - i1):
                    o = window[j1 + k]
                    out[i1 + k] = (pl.file, o.line, o.col, o.end_line, o.end_col)
            elif tag == "replace":
                # Macro expansion: every expanded token stands for the whole invocation.
                first, lastt = window[j1], window[j2 - 1]
                for k in range(i1, i2):
                    out[k] = (pl.file, first.line, first.col, lastt.end_line, lastt.end_col)
            elif tag == "delete" and j1 < len(window) and (a[i1].startswith("__cbam_") or a[i1:i2] == ["."]):
                # What the GNU syntax pass put before a token the user wrote (``__cbam_range(``
                # before a range's low end, ``.`` before a field's name) begins where that token
                # does, so the construct's range starts at the user's text.
                o = window[j1]
                for k in range(i1, i2):
                    out[k] = (pl.file, o.line, o.col, o.end_line, o.end_col)
        prev = None
        for k in range(len(out)):
            if out[k] is None:
                out[k] = prev if prev is not None else fallback[k]
            prev = out[k]
        return out  # type: ignore[return-value]

    def _match_brackets(self) -> dict[int, int]:
        match: dict[int, int] = {}
        stack: list[int] = []
        for i, t in enumerate(self.tokens):
            if t.text in _OPEN:
                stack.append(i)
            elif t.text in (")", "]", "}"):
                while stack and _OPEN[self.tokens[stack[-1]].text] != t.text:
                    stack.pop()
                if stack:
                    j = stack.pop()
                    match[i] = j
                    match[j] = i
        return match

    # ---- queries --------------------------------------------------------
    def index_of(self, coord) -> int | None:
        if coord is None or not coord.line:
            return None
        return self._by_coord.get((coord.line, coord.column or 1))

    def text(self, i: int) -> str:
        return self.tokens[i].text if 0 <= i < len(self.tokens) else ""

    def range_of(self, start: int, end: int) -> Range:
        f, line, col, _, _ = self.origin[start]
        ef, _, _, eline, ecol = self.origin[end]
        if ef != f or (eline, ecol) < (line, col):
            _, _, _, eline, ecol = self.origin[start]
        return Range(f, line, col, eline, ecol)

    def range_at_coord(self, coord) -> Range | None:
        i = self.index_of(coord)
        if i is None:
            if coord is None or coord.line not in self.phys:
                return None
            file, line = self.phys[coord.line]
            return Range(file, line, 1, line, 2)
        return self.range_of(i, i)

    def next_index(self, start: int, text: str) -> int:
        """Index of the next token ``text`` at bracket depth 0 from ``start``."""
        i = start
        while i < len(self.tokens):
            t = self.tokens[i].text
            if t == text:
                return i
            if t in _OPEN and i in self.match:
                i = self.match[i]
            i += 1
        return len(self.tokens) - 1


def alignment_groups(lines: list[PPLine]) -> list[tuple[list[PPLine], int]]:
    """Consecutive physical lines that claim the same original line (gcc spreads one macro
    expansion over several), each aligned as one unit against the original lines up to the
    next group's: (group, last original line of its window)."""
    groups: list[list[PPLine]] = []
    for pl in lines:
        if not pl.has_tokens:
            continue
        if groups and groups[-1][-1].file == pl.file and groups[-1][-1].line == pl.line:
            groups[-1].append(pl)
        else:
            groups.append([pl])
    out: list[tuple[list[PPLine], int]] = []
    for gi, group in enumerate(groups):
        first = group[0]
        last = first.line
        if gi + 1 < len(groups) and groups[gi + 1][0].file == first.file and groups[gi + 1][0].line > first.line:
            last = groups[gi + 1][0].line - 1
        out.append((group, last))
    return out


_ORIGINAL_TOKENS: dict[str, tuple[list[Token], list[int]]] = {}


def original_tokens(text: str) -> tuple[list[Token], list[int]]:
    """Tokens of an original file and their lines (for bisecting), memoized on the text:
    headers, and files between edits, are read again and again."""
    hit = _ORIGINAL_TOKENS.get(text)
    if hit is None:
        toks = tokenize_file(text)
        hit = (toks, [t.line for t in toks])
        if len(_ORIGINAL_TOKENS) >= 32:
            _ORIGINAL_TOKENS.pop(next(iter(_ORIGINAL_TOKENS)))
        _ORIGINAL_TOKENS[text] = hit
    return hit


def read_text(path: str) -> str | None:
    try:
        if os.path.getsize(path) > 20_000_000:
            return None
        with open(path, encoding="utf-8", errors="replace") as fh:
            return fh.read()
    except OSError:
        return None


class Spans:
    """Token-index spans [start, end] of AST nodes; end positions computed structurally."""

    def __init__(self, sm: SourceMap):
        self.sm = sm
        self._memo: dict[int, tuple[int, int] | None] = {}

    def range(self, node: c_ast.Node | None) -> Range | None:
        if node is None:
            return None
        span = self.span(node)
        if span is None:
            return self.sm.range_at_coord(getattr(node, "coord", None))
        return self.sm.range_of(*span)

    def span(self, node: c_ast.Node) -> tuple[int, int] | None:
        key = id(node)
        if key not in self._memo:
            self._memo[key] = None  # guards cycles
            try:
                self._memo[key] = self._compute(node)
            except (IndexError, KeyError, TypeError):
                self._memo[key] = None
        return self._memo[key]

    def _paren(self, node: c_ast.Node | None) -> tuple[int, int] | None:
        """Span of a sub-expression including parentheses that wrap it."""
        if node is None:
            return None
        sp = self.span(node)
        if sp is None:
            return None
        s, e = sp
        m = self.sm.match
        toks = self.sm.tokens
        while s > 0 and e + 1 < len(toks) and toks[s - 1].text == "(" and m.get(s - 1) == e + 1:
            s, e = s - 1, e + 1
        return s, e

    def _compute(self, node: c_ast.Node) -> tuple[int, int] | None:
        sm = self.sm
        start = sm.index_of(getattr(node, "coord", None))
        if isinstance(node, c_ast.Decl) and start is not None:
            # From the declared name (several declarators share one type) to its initializer.
            init = self._paren(node.init) if node.init is not None else None
            end = init[1] if init is not None else start
            t, bracket = node.type, start + 1
            while isinstance(t, c_ast.ArrayDecl) and sm.text(bracket) == "[":  # every length: a[n][m]
                close = sm.match.get(bracket)
                if close is None:
                    break
                end, t, bracket = max(end, close), t.type, close + 1
            return start, end
        if isinstance(node, c_ast.UnaryOp) and node.op not in ("p++", "p--", "sizeof", "_Alignof", "__alignof__") \
                and start is not None and sm.text(start) != node.op and sm.text(start - 1) == node.op:
            start -= 1  # pycparser places a prefix operator at its operand
        spans = [self._paren(c) for _, c in node.children()
                 if not isinstance(c, c_ast.TypeDecl | c_ast.IdentifierType | c_ast.PtrDecl | c_ast.FuncDecl)]
        kids = [k for k in spans if k is not None]
        if start is None:
            if not kids:
                return None
            start = min(k[0] for k in kids)
        else:
            start = min([start] + [k[0] for k in kids])
        end = max([start] + [k[1] for k in kids])
        T = sm.text
        if isinstance(node, c_ast.Constant):
            while T(end + 1).startswith('"') and T(end).endswith('"'):
                end += 1
        elif isinstance(node, c_ast.UnaryOp):
            if node.op in ("p++", "p--"):
                end += 1
            elif node.op in ("sizeof", "_Alignof", "__alignof__") and T(start + 1) == "(":
                end = max(end, sm.match.get(start + 1, end))
        elif isinstance(node, c_ast.FuncCall):
            name = self._paren(node.name)
            paren = (name[1] if name else start) + 1
            if T(paren) == "(":
                end = sm.match.get(paren, end)
        elif isinstance(node, c_ast.ArrayRef):
            base = self._paren(node.name)
            br = (base[1] if base else start) + 1
            if T(br) == "[":
                end = sm.match.get(br, end)
        elif isinstance(node, (c_ast.Compound, c_ast.InitList)):
            if T(start) != "{" and T(start - 1) == "{" and isinstance(node, c_ast.InitList):
                start -= 1
            if T(start) == "{":
                end = sm.match.get(start, end)
        elif isinstance(node, c_ast.CompoundLiteral):
            if T(end) != "}":
                nxt = sm.next_index(end, "{")
                end = sm.match.get(nxt, end)
        elif isinstance(node, (c_ast.Return, c_ast.Break, c_ast.Continue, c_ast.Goto, c_ast.EmptyStatement)):
            end = sm.next_index(start, ";")
        elif isinstance(node, c_ast.DoWhile):
            cond = self._paren(node.cond)
            if cond is not None:
                end = sm.next_index(cond[1] + 1, ";")
        elif isinstance(node, c_ast.Cast):
            pass
        elif isinstance(node, (c_ast.Case, c_ast.Default)) and not node.stmts:
            end = sm.next_index(start, ":")
        return start, end
