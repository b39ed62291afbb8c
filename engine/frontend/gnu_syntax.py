"""GNU C syntax pycparser cannot parse, rewritten in the preprocessed text into forms it can.

- ``a ?: b`` becomes ``a ? __cbam_elvis : b``: the parser then finds the operands with C's
  own precedence, and the builder reads the marker as "the condition's value, evaluated once"
  (cfa/translate/expressions.py, ``ternary``);
- ``case lo ... hi:`` becomes ``case __cbam_range(lo, hi):`` (cfa/translate/statements.py);
- the range designator ``[lo ... hi] =`` becomes ``[__cbam_range(lo, hi)] =`` (read by the
  initialiser code, cfa/translate/declarations.py);
- a wide character constant of several characters (``L'ab'``, which pycparser does not lex)
  becomes its last one (``L'b'``), whose value gcc gives it;
- the obsolete field designator ``x: v`` in an initialiser becomes ``.x = v`` (gcc rejects
  ``.x: v``, and so does cbam).

A rewrite only inserts tokens or replaces one token by another, within a physical line, and
the same edit is made to the line the source map aligns (tokens.PPLine) and to the parser's
text: every token the user wrote keeps its position, and the inserted ones map to their
neighbour (srcmap.SourceMap aligns the rewritten line against the original as it aligns a
macro expansion).
"""

from __future__ import annotations

import re

from .tokens import PPLine, line_tokens

ELVIS = "__cbam_elvis"  # the middle operand of a rewritten ``a ?: b``
RANGE = "__cbam_range"  # ``__cbam_range(lo, hi)``: a case range or a range designator

# Cheap tests for text that may hold one of the constructs; a program without any is not
# tokenized here. (An ellipsis followed by ``)`` is a prototype's, as in every <stdio.h>.)
_MAYBE = re.compile(r"\?\s*:|\.\.\.(?!\s*\))|[{,]\s*[A-Za-z_$][\w$]*\s*:|\b[LuU]'(?:[^'\\\n]|\\.){2,}'")
# One character of a character constant: an escape sequence or a character.
_CHAR_ELEMENT = re.compile(r"\\(?:x[0-9a-fA-F]+|[0-7]{1,3}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|.)|.", re.DOTALL)

# Tokens before a ``(`` that make ``( ... ) {`` a statement or a function body, not a compound
# literal's type and initialiser.
_NOT_LITERAL_BEFORE = frozenset(("if", "while", "for", "switch"))
_KEYWORDS_BEFORE_LITERAL = frozenset(("return", "sizeof", "case", "_Alignof", "__alignof__", "else", "do"))


def rewrite_gnu_syntax(pplines: list[PPLine], parser_text: str) -> tuple[list[PPLine], str]:
    """The lines and the parser's text with the GNU constructs above rewritten (the same
    objects when there are none)."""
    if _MAYBE.search(parser_text) is None:
        return pplines, parser_text
    lines = parser_text.split("\n")
    edits = _edits(lines)
    if not edits:
        return pplines, parser_text
    out_lines = list(pplines)
    for li, line_edits in edits.items():
        text = lines[li]
        # Right to left, so an edit's offsets are not moved by the ones after it.
        for start, end, new in sorted(line_edits, key=lambda e: (e[0], e[1]), reverse=True):
            text = text[:start] + new + text[end:]
        lines[li] = text
        old = pplines[li]
        if old.raw:
            out_lines[li] = PPLine(old.file, old.line, old.phys, text)
    return out_lines, "\n".join(lines)


class _Tok:
    __slots__ = ("text", "line", "start", "end")

    def __init__(self, text: str, line: int, start: int, end: int):
        self.text = text
        self.line = line  # index in the text's lines
        self.start = start  # offset in that line
        self.end = end


def _edits(lines: list[str]) -> dict[int, list[tuple[int, int, str]]]:
    toks: list[_Tok] = []
    for li, raw in enumerate(lines):
        if not raw or raw.lstrip().startswith("#"):
            continue
        for text, col, end_col in line_tokens(raw):
            toks.append(_Tok(text, li, col - 1, end_col - 1))
    edits: dict[int, list[tuple[int, int, str]]] = {}

    def insert_after(t: _Tok, s: str) -> None:
        edits.setdefault(t.line, []).append((t.end, t.end, s))

    def insert_before(t: _Tok, s: str) -> None:
        edits.setdefault(t.line, []).append((t.start, t.start, s))

    def replace(t: _Tok, s: str) -> None:
        edits.setdefault(t.line, []).append((t.start, t.end, s))

    # The open brackets: (index of the token, whether a ``{`` opens an initialiser).
    stack: list[tuple[int, bool]] = []
    match: dict[int, int] = {}
    for i, t in enumerate(toks):
        x = t.text
        if x in ("(", "["):
            stack.append((i, False))
        elif x == "{":
            stack.append((i, _opens_initialiser(toks, i, stack, match)))
        elif x in (")", "]", "}"):
            if stack:
                j, _ = stack.pop()
                match[i], match[j] = j, i
        elif x == "?" and i + 1 < len(toks) and toks[i + 1].text == ":":
            insert_after(t, f" {ELVIS} ")
        elif x[0] in "LuU" and x.endswith("'") and len(x) > 4:
            last = _last_character(x)
            if last is not None:
                replace(t, last)
        elif x == "...":
            _range(toks, i, stack, insert_after, insert_before, replace)
        elif x == ":" and stack and stack[-1][1] and i >= 2:
            # A field designator: the ``:`` after a name that begins an element of an initialiser.
            # (``.x: v`` is not one: gcc rejects it, and so does the parser.)
            name = toks[i - 1]
            if _is_ident(name.text) and toks[i - 2].text in ("{", ","):
                insert_before(name, ".")
                replace(t, "=")
    return edits


def _last_character(tok: str) -> str | None:
    """``L'ab'`` -> ``L'b'``; None for a constant of one character, or not a wide one."""
    q = tok.find("'")
    if tok[:q] not in ("L", "u", "U"):
        return None
    parts = _CHAR_ELEMENT.findall(tok[q + 1:-1])
    return f"{tok[:q]}'{parts[-1]}'" if len(parts) > 1 else None


def _is_ident(s: str) -> bool:
    return bool(s) and (s[0].isalpha() or s[0] in "_$")


def _opens_initialiser(toks: list[_Tok], i: int, stack: list[tuple[int, bool]], match: dict[int, int]) -> bool:
    """Whether the ``{`` at ``i`` opens an initialiser's braces: after ``=``, directly inside
    another initialiser's braces, or after a compound literal's ``(type)``."""
    if stack and stack[-1][1] and toks[stack[-1][0]].text == "{":
        return True
    if i == 0:
        return False
    prev = toks[i - 1].text
    if prev == "=":
        return True
    if prev != ")" or (i - 1) not in match:
        return False
    j = match[i - 1]  # the ``(`` of ``( ... ) {``
    if j == 0:
        return False
    before = toks[j - 1].text
    if before in _NOT_LITERAL_BEFORE:
        return False
    if before in _KEYWORDS_BEFORE_LITERAL:
        return True
    # ``f(int x) {``, ``(*f)(int) {``, ``int (f)(void) {``: a function's body.
    return not (_is_ident(before) or before in (")", "]"))


def _range(toks: list[_Tok], i: int, stack: list[tuple[int, bool]], insert_after, insert_before, replace) -> None:
    """``[lo ... hi]`` inside an initialiser, or ``case lo ... hi:``: rewrite the ellipsis at ``i``."""
    if not stack:
        return
    top, _ = stack[-1]
    opener = toks[top].text
    if opener == "[":
        close = _closing(toks, top)
        if close is None:
            return
        insert_after(toks[top], f"{RANGE}(")
        replace(toks[i], ",")
        insert_before(toks[close], ")")
        return
    if opener != "{":
        return  # a parameter list's ellipsis
    # Back to the ``case`` at this depth; forward to the ``:`` that ends its label.
    k, depth = i - 1, 0
    while k >= 0:
        x = toks[k].text
        if x in (")", "]", "}"):
            depth += 1
        elif x in ("(", "[", "{"):
            if depth == 0:
                return
            depth -= 1
        elif depth == 0 and x in (";", ":"):
            return
        elif depth == 0 and x == "case":
            break
        k -= 1
    if k < 0:
        return
    n, depth, questions = i + 1, 0, 0
    while n < len(toks):
        x = toks[n].text
        if x in ("(", "[", "{"):
            depth += 1
        elif x in (")", "]", "}"):
            if depth == 0:
                return
            depth -= 1
        elif depth == 0 and x == "?":
            questions += 1
        elif depth == 0 and x == ":":
            if questions == 0:
                break
            questions -= 1
        elif depth == 0 and x == ";":
            return
        n += 1
    if n >= len(toks):
        return
    insert_after(toks[k], f" {RANGE}(")
    replace(toks[i], ",")
    insert_before(toks[n], ")")


def _closing(toks: list[_Tok], open_index: int) -> int | None:
    depth = 0
    for n in range(open_index, len(toks)):
        x = toks[n].text
        if x in ("(", "[", "{"):
            depth += 1
        elif x in (")", "]", "}"):
            depth -= 1
            if depth == 0:
                return n
    return None
