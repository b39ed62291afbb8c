"""GNU ``__attribute__((...))`` and ``#pragma pack``, read out of the parser's text.

pycparser cannot parse GNU attributes, and erasing them (as a preprocessor shim once did)
silently drops the ones that change what a program means: ``packed`` and ``aligned`` change
sizeof and member offsets, ``mode`` an integer's width, ``cleanup`` adds calls. This pass
blanks every attribute with spaces (newlines kept), so every other token keeps its line and
column, and records each one that matters against positions the builder looks up:

- on a struct, union or enum type: at the position pycparser gives the type's node (its tag,
  or its ``{`` when it has none), from between the keyword and the ``{`` or right after the
  closing ``}``;
- on a declarator (a member, a variable, a function, a typedef): by the stretch of the
  declaration it applies to. GNU applies an attribute written among the declaration
  specifiers to every declarator of the declaration, and one written after a declarator to
  that declarator alone;
- ``#pragma pack`` as the packing in force from the pragma's line on.

Attributes that only inform the compiler (``noreturn``, ``format``, ``nonnull``, ...) are
dropped; ones cbam does not model and that change meaning are recorded as unsupported, so
the construct they are on answers UNKNOWN; unknown spellings count as unsupported, and the
harmless list is checked against what glibc's and gcc's headers use (tests/test_struct_layout.py).
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field

# Attributes that change layout, which cbam models (struct_layout.py).
LAYOUT = frozenset(("packed", "aligned"))

# Attributes with no effect on the values a program computes, for cbam's purposes: hints to
# the optimiser or the linker, diagnostics, calling conventions of one-file programs.
# ``may_alias`` only exempts a type from strict aliasing, which cbam never assumes; ``weak``
# matters only across translation units, and ``section``/``visibility`` only to the linker.
HARMLESS = frozenset((
    "noreturn", "nothrow", "leaf", "unused", "used", "format", "format_arg", "const", "pure",
    "warn_unused_result", "nonnull", "visibility", "deprecated", "unavailable", "always_inline",
    "gnu_inline", "noinline", "noipa", "noclone", "cold", "hot", "malloc", "returns_nonnull",
    "sentinel", "section", "weak", "may_alias", "artificial", "alloc_size", "alloc_align",
    "access", "returns_twice", "externally_visible", "abi_tag", "nonstring", "fallthrough",
    "warning", "error", "no_sanitize", "no_sanitize_address", "no_sanitize_thread",
    "no_sanitize_undefined", "no_sanitize_memory", "no_instrument_function", "no_stack_protector",
    "no_profile_instrument_function", "optimize", "target", "flatten", "designated_init",
    "assume_aligned", "fd_arg", "fd_arg_read", "fd_arg_write", "null_terminated_string_arg",
    "tls_model", "cdecl", "regparm", "stdcall", "fastcall", "ms_abi", "sysv_abi", "simd",
    "analyzer_noreturn", "warn_if_not_aligned", "counted_by", "nodiscard", "maybe_unused",
    "no_reorder", "noplt", "stack_protect", "retain", "uninitialized", "zero_call_used_regs",
    "minsize", "nodebug", "annotate", "require_constant_initialization", "internal_linkage",
    "preserve_most", "indirect_return", "import_module", "weak_import", "pcs", "expected_throw",
))

# Attributes cbam does not model that change what a program does: why each makes its
# construct unsupported.
UNSUPPORTED = {
    "mode": "the mode attribute (it changes an integer type's width)",
    "vector_size": "vector types (the vector_size attribute)",
    "cleanup": "the cleanup attribute (it calls a function when a variable leaves its scope)",
    "constructor": "the constructor attribute (the function runs before main)",
    "destructor": "the destructor attribute (the function runs after main)",
    "transparent_union": "the transparent_union attribute",
    "alias": "the alias attribute",
    "weakref": "the weakref attribute",
    "ifunc": "the ifunc attribute",
    "scalar_storage_order": "the scalar_storage_order attribute (it changes byte order)",
    "copy": "the copy attribute",
    "naked": "naked functions",
    "interrupt": "interrupt handlers",
    "bitwise": "the bitwise attribute",
}


def canonical(name: str) -> str:
    """``__packed__`` and ``packed`` are one attribute."""
    if len(name) > 4 and name.startswith("__") and name.endswith("__"):
        return name[2:-2]
    return name


def unsupported_reason(attr: Attribute) -> str | None:
    """Why an attribute makes its construct unsupported, or None when cbam reads or drops it."""
    if attr.name in LAYOUT or attr.name in HARMLESS:
        return None
    return UNSUPPORTED.get(attr.name, f"the {attr.spelling} attribute")


@dataclass(frozen=True, slots=True)
class Attribute:
    name: str  # canonical: packed, aligned, mode, ...
    args: str | None  # the text between the argument parentheses, None without any
    line: int  # physical line and column of its name in the parser's text
    col: int
    context: str  # "file", "struct" (inside a struct or union body) or "body" (a function's)
    spelling: str = ""  # as written, for messages

    @property
    def pos(self) -> tuple[int, int]:
        return self.line, self.col


@dataclass(slots=True)
class AttributeTable:
    """What the pass found, looked up by physical (line, column)."""

    types: dict[tuple[int, int], list[Attribute]] = field(default_factory=dict)
    bodies: dict[tuple[int, int], tuple[tuple[int, int], tuple[int, int]]] = field(default_factory=dict)
    decls: list[tuple[tuple[int, int], tuple[int, int], Attribute]] = field(default_factory=list)  # [from, to)
    unsupported: list[Attribute] = field(default_factory=list)  # every unsupported one, in order
    pack_events: list[tuple[tuple[int, int], int | None]] = field(default_factory=list)

    def for_type(self, coord) -> list[Attribute]:
        if coord is None:
            return []
        return self.types.get((coord.line, coord.column or 1), [])

    def body_of(self, coord) -> tuple[tuple[int, int], tuple[int, int]] | None:
        """The positions of a struct, union or enum body's braces, by its node's coordinate."""
        if coord is None:
            return None
        return self.bodies.get((coord.line, coord.column or 1))

    def for_decl(self, coord) -> list[Attribute]:
        if coord is None or not self.decls:
            return []
        p = (coord.line, coord.column or 1)
        return [a for lo, hi, a in self.decls if lo <= p < hi]

    def unsupported_between(self, lo: tuple[int, int], hi: tuple[int, int]) -> Attribute | None:
        for a in self.unsupported:
            if lo <= a.pos <= hi:
                return a
        return None

    def pack_at(self, coord) -> int | None:
        """The ``#pragma pack`` in force at a position (None: gcc's default layout)."""
        if coord is None or not self.pack_events:
            return None
        i = bisect.bisect_right([p for p, _ in self.pack_events], (coord.line, coord.column or 1))
        return self.pack_events[i - 1][1] if i else None

    def key(self) -> tuple:
        """What the layout and the support of a program's functions may depend on, beyond the
        parser's text (where the attributes are blanked): a reused build must agree on it."""
        return (tuple((a.name, a.args) for a in self.decls_and_types()),
                tuple(v for _, v in self.pack_events))

    def decls_and_types(self) -> list[Attribute]:
        out = [a for _, _, a in self.decls]
        for attrs in self.types.values():
            out.extend(attrs)
        out.extend(self.unsupported)
        return sorted(out, key=lambda a: a.pos)


EMPTY = AttributeTable()

_TOKEN = re.compile(r"""
    (?P<nl>\n)
  | (?P<ws>[ \t\r\f\v]+)
  | (?P<pp>^[ \t]*\#[^\n]*)
  | (?P<lit>"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')
  | (?P<id>[A-Za-z_$][\w$]*)
  | (?P<num>\.?[0-9](?:[eEpP][+-]|[\w.])*)
  | (?P<p>->|\+\+|--|.)
""", re.VERBOSE | re.MULTILINE)

_PACK = re.compile(r"^[ \t]*#[ \t]*pragma[ \t]+pack\b[ \t]*(?:\((?P<args>[^)]*)\))?")
_MAYBE = re.compile(r"__attribute|#[ \t]*pragma[ \t]+pack\b")
_TAGGED = frozenset(("struct", "union", "enum"))
# Words that can stand in declaration specifiers, so an attribute followed only by these (and
# punctuation) in a declaration's first declarator is not among the specifiers.
_KEYWORDS = frozenset((
    "auto", "break", "case", "char", "const", "continue", "default", "do", "double", "else", "enum",
    "extern", "float", "for", "goto", "if", "inline", "int", "long", "register", "restrict", "return",
    "short", "signed", "sizeof", "static", "struct", "switch", "typedef", "union", "unsigned", "void",
    "volatile", "while", "_Bool", "_Complex", "_Alignas", "_Atomic", "_Noreturn", "_Thread_local",
    "__cbam_int128",
))


class _Tok:
    __slots__ = ("kind", "text", "start", "end", "attrs")

    def __init__(self, kind: str, text: str, start: int, end: int):
        self.kind = kind
        self.text = text
        self.start = start
        self.end = end
        self.attrs: list[Attribute] = []  # the attributes written right before this token


def read_attributes(text: str) -> tuple[str, AttributeTable]:
    """The parser's text with every attribute and ``#pragma pack`` blanked, and what they said."""
    if _MAYBE.search(text) is None:
        return text, EMPTY
    fast = _blank_harmless(text)
    if fast is not None:
        return fast, EMPTY
    line_starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def pos_of(offset: int) -> tuple[int, int]:
        i = bisect.bisect_right(line_starts, offset) - 1
        return i + 1, offset - line_starts[i] + 1

    raw = [(m.lastgroup or "", m.group(), m.start(), m.end()) for m in _TOKEN.finditer(text)]  # (every token is a group)
    out = list(text)
    table = AttributeTable()
    pack_stack: list[tuple[str | None, int | None]] = []
    pack: int | None = None
    toks: list[_Tok] = []
    pending: list[tuple[str, str | None, int, str]] = []  # name, args, offset, spelling
    i, n = 0, len(raw)
    while i < n:
        kind, tok, start, end = raw[i]
        if kind in ("nl", "ws"):
            i += 1
            continue
        if kind == "pp":
            m = _PACK.match(tok)
            if m is not None:
                pack, pack_stack = _pragma_pack(m.group("args"), pack, pack_stack)
                table.pack_events.append((pos_of(start), pack))
                _blank(out, start, end)
            i += 1
            continue
        if kind == "id" and tok in ("__attribute__", "__attribute"):
            j, items = _attribute_items(raw, i + 1, text)
            if j is not None:
                for name, args, off in items:
                    pending.append((canonical(name), args, off, name))
                _blank(out, start, raw[j - 1][3])
                i = j
                continue
        t = _Tok(kind, tok, start, end)
        if pending:
            t.attrs = [Attribute(nm, args, *pos_of(off), "", sp) for nm, args, off, sp in pending]
            pending = []
        toks.append(t)
        i += 1
    if pending:  # after the last token: nothing to apply to, but not to be ignored either
        sentinel = _Tok("p", "", len(text), len(text))
        sentinel.attrs = [Attribute(nm, args, *pos_of(off), "", sp) for nm, args, off, sp in pending]
        toks.append(sentinel)
    _classify(toks, table, pos_of)
    return "".join(out), table


_ATTRIBUTE_START = re.compile(r"\b__attribute(?:__)?\s*\(")
_QUOTED_ATTRIBUTE = re.compile(r"[\"'][^\"'\n]*__attribute")


def _blank_harmless(text: str) -> str | None:
    """The text with its attributes blanked when every one is harmless and no ``#pragma pack``
    is there (system headers: thousands of nothrow and nonnull), without tokenizing the whole
    file; None when the full pass must classify them."""
    if _QUOTED_ATTRIBUTE.search(text) is not None or re.search(r"#[ \t]*pragma[ \t]+pack\b", text):
        return None
    parts: list[str] = []
    done = 0
    for m in _ATTRIBUTE_START.finditer(text):
        if m.start() < done:
            return None
        end = _closing_paren(text, m.end() - 1)
        if end is None:
            return None
        raw = [(k.lastgroup, k.group(), k.start(), k.end()) for k in _TOKEN.finditer(text, m.end() - 1, end)]
        j, items = _attribute_items(raw, 0, text)
        if j is None or any(canonical(name) not in HARMLESS for name, _, _ in items):
            return None
        parts.append(text[done:m.start()])
        parts.append(re.sub(r"[^\n]", " ", text[m.start():end]))
        done = end
    parts.append(text[done:])
    return "".join(parts)


def _closing_paren(text: str, i: int) -> int | None:
    """The offset just past the ``)`` matching the ``(`` at ``i`` (string literals skipped)."""
    depth = 0
    n = len(text)
    while i < n:
        c = text[i]
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return i + 1
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            i = j
        i += 1
    return None


def _blank(out: list[str], start: int, end: int) -> None:
    for k in range(start, end):
        if out[k] != "\n":
            out[k] = " "


def _pragma_pack(args: str | None, pack: int | None, stack: list[tuple[str | None, int | None]]
                 ) -> tuple[int | None, list[tuple[str | None, int | None]]]:
    """gcc's ``#pragma pack``: ``()`` resets, ``(N)`` sets, ``(push[, id][, N])`` saves the
    current packing first, ``(pop[, id])`` restores the last saved (or the one saved as id)."""
    parts = [p.strip() for p in (args or "").split(",") if p.strip()]
    stack = list(stack)
    if not parts:
        return None, stack
    head = parts[0]
    nums = [int(p, 0) for p in parts if re.fullmatch(r"\d+|0[xX][0-9a-fA-F]+", p)]
    ids = [p for p in parts[1:] if not re.fullmatch(r"\d+|0[xX][0-9a-fA-F]+", p)]
    if head == "push":
        stack.append((ids[0] if ids else None, pack))
        return (nums[-1] or None) if nums else pack, stack
    if head == "pop":
        if ids:
            for k in range(len(stack) - 1, -1, -1):
                if stack[k][0] == ids[0]:
                    value = stack[k][1]
                    return value, stack[:k]
            return pack, stack
        return (stack.pop()[1] if stack else None), stack
    if nums:
        return nums[0] or None, stack
    return pack, stack


def _attribute_items(raw: list, i: int, text: str) -> tuple[int | None, list[tuple[str, str | None, int]]]:
    """After ``__attribute__``: ``((item, item, ...))``; the index just past it and each item's
    name, argument text and offset. None when the text there is not an attribute."""
    toks = []
    depth = 0
    j = i
    while j < len(raw):
        kind, tok, start, end = raw[j]
        j += 1
        if kind in ("nl", "ws"):
            continue
        toks.append((kind, tok, start, end))
        if tok == "(":
            depth += 1
        elif tok == ")":
            depth -= 1
            if depth == 0:
                break
        elif depth == 0:
            return None, []
    if depth != 0 or len(toks) < 4 or toks[1][1] != "(" or toks[-2][1] != ")":
        return None, []
    inner = toks[2:-2]
    items: list[tuple[str, str | None, int]] = []
    k = 0
    while k < len(inner):
        kind, tok, start, _ = inner[k]
        if tok == ",":
            k += 1
            continue
        name, off = tok, start
        k += 1
        args = None
        if k < len(inner) and inner[k][1] == "(":
            d = 0
            a_start = inner[k][3]
            while k < len(inner):
                if inner[k][1] == "(":
                    d += 1
                elif inner[k][1] == ")":
                    d -= 1
                    if d == 0:
                        break
                k += 1
            a_end = inner[k][2] if k < len(inner) else a_start
            args = " ".join(text[a_start:a_end].split())
            k += 1
        items.append((name, args, off))
        while k < len(inner) and inner[k][1] != ",":
            k += 1
    return j, items


def _classify(toks: list[_Tok], table: AttributeTable, pos_of) -> None:
    """Attach each attribute to the type or declarators it applies to."""
    n = len(toks)
    match: dict[int, int] = {}
    stack: list[int] = []
    for k, t in enumerate(toks):
        if t.text in "({[" and t.text:
            stack.append(k)
        elif t.text in ")}]" and t.text and stack:
            o = stack.pop()
            match[o] = k
            match[k] = o
    # Which braces open a struct/union/enum body, and each tagged type's node position.
    type_body: dict[int, int] = {}  # "{" index -> index of the token pycparser places the node at
    type_attr_at: dict[int, int] = {}  # index of a token whose attributes go to a type -> node index
    for k, t in enumerate(toks):
        if t.text not in _TAGGED or k + 1 >= n:
            continue
        node = k + 1
        type_attr_at[k + 1] = node
        brace = k + 1
        if toks[k + 1].kind == "id":
            brace = k + 2
            if brace < n:
                type_attr_at[brace] = node
        if brace < n and toks[brace].text == "{" and brace in match:
            type_body[brace] = node
            close = match[brace]
            if close + 1 < n:
                type_attr_at[close + 1] = node
            body = (pos_of(toks[brace].start), pos_of(toks[close].start))
            table.bodies[pos_of(toks[node].start)] = table.bodies[pos_of(t.start)] = body
    # The context of every token: inside a function body, a type's body, or at file scope.
    context = ["file"] * n
    ctx_stack: list[str] = []
    for k, t in enumerate(toks):
        context[k] = ctx_stack[-1] if ctx_stack else "file"
        if t.text == "{":
            if k in type_body:
                ctx_stack.append("struct")
            elif ctx_stack and ctx_stack[-1] == "body":
                ctx_stack.append("body")
            else:
                prev = toks[k - 1].text if k else ""
                ctx_stack.append("init" if prev in ("=", ",", "{") or (ctx_stack and ctx_stack[-1] == "init")
                                 else ("body" if prev == ")" else "init"))
        elif t.text == "}" and ctx_stack:
            ctx_stack.pop()
    for k, t in enumerate(toks):
        if not t.attrs:
            continue
        ctx = context[k]
        if ctx == "init":
            ctx = "file"
        attrs = [Attribute(a.name, a.args, a.line, a.col, ctx, a.spelling) for a in t.attrs]
        for a in attrs:
            if unsupported_reason(a) is not None:
                table.unsupported.append(a)
        kept = [a for a in attrs if a.name in LAYOUT or unsupported_reason(a) is not None]
        if not kept:
            continue
        if k in type_attr_at:
            node = type_attr_at[k]
            # pycparser places a struct or union at its tag (or "{"), an enum at its keyword.
            attrs_of = table.types.setdefault(pos_of(toks[node].start), [])
            attrs_of.extend(kept)
            table.types[pos_of(toks[node - 1].start)] = attrs_of
            continue
        lo, hi, specifier = _segment(toks, match, k)
        lo_pos = pos_of(toks[lo].start) if lo < n else (1 << 30, 0)
        hi_pos = pos_of(toks[hi].start) if hi < n else (1 << 30, 0)
        if specifier:
            # Among the specifiers: every declarator of the declaration, up to its end.
            end = _declaration_end(toks, match, k)
            hi_pos = pos_of(toks[end].start) if end < n else (1 << 30, 0)
        for a in kept:
            table.decls.append((lo_pos, hi_pos, a))


def _segment(toks: list[_Tok], match: dict[int, int], k: int) -> tuple[int, int, bool]:
    """The declarator stretch around token k (bounded by ``,`` ``;`` or brackets at its own
    depth): its first token, the token ending it, and whether an identifier other than a
    keyword follows k in it (k is then among the declaration specifiers)."""
    lo = k - 1
    while lo >= 0:
        t = toks[lo].text
        if t in (")", "]") and lo in match:
            lo = match[lo] - 1
            continue
        if t == "}" and lo in match:
            break
        if t in (",", ";", "(", "[", "{", "}"):
            break
        lo -= 1
    hi = k
    specifier = False
    first = lo < 0 or toks[lo].text != ","
    while hi < len(toks):
        t = toks[hi].text
        if t in ("(", "[") and hi in match and hi != k:
            hi = match[hi] + 1
            continue
        if t in (",", ";", ")", "]", "{", "}", "=", ":"):
            break
        if toks[hi].kind == "id" and t not in _KEYWORDS:
            specifier = first
        hi += 1
    return lo + 1, hi, specifier


def _declaration_end(toks: list[_Tok], match: dict[int, int], k: int) -> int:
    j = k
    while j < len(toks):
        t = toks[j].text
        if t in ("(", "[", "{") and j in match:
            if t == "{":
                return j
            j = match[j] + 1
            continue
        if t in (";", ")", "}"):
            return j
        j += 1
    return j
