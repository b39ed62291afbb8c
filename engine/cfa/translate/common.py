"""What every part of the builder shares: the functions with a meaning for verification,
scopes, and C literals."""

from __future__ import annotations

import re

from ..ctype import (
    CType,
    DataModel,
    IntType,
    StructType,
)
from ..ir import Var

START_FUNCTION = "__cbam_start"
# A variadic function's hidden last parameter: the address of its extra arguments (see
# frontend/include/__cbam_prelude.h).
VA_AREA = "__cbam_va_area"

ERROR_FUNCTIONS = {"reach_error", "__VERIFIER_error"}
ASSERT_FAIL_FUNCTIONS = {"__assert_fail", "__assert_perror_fail", "__assert", "__assert_rtn"}
ABORT_FUNCTIONS = {"abort", "exit", "_Exit", "_exit", "__builtin_abort", "__builtin_trap",
                   "__builtin_unreachable", "pthread_exit", "quick_exit"}
# Functions from cbam's stand-in headers: they never write the program's own globals.
LIBC_PURE = {
    "printf", "fprintf", "sprintf", "snprintf", "scanf", "sscanf", "puts", "fputs", "putchar",
    "getchar", "fflush", "fopen", "fclose", "fgets", "fgetc", "fputc", "perror", "malloc", "calloc",
    "realloc", "free", "abs", "labs", "llabs", "atoi", "atol", "strtol", "strtoul", "rand", "srand",
    "getenv", "memset", "memcpy", "memmove", "memcmp", "strlen", "strcmp", "strncmp", "strcpy",
    "strncpy", "strcat", "strchr", "strrchr", "strstr", "strdup",
    # <ctype.h>'s, called as functions (its macros are cbam's own code): they read no memory
    "isalnum", "isalpha", "isblank", "iscntrl", "isdigit", "isgraph", "islower", "isprint", "ispunct",
    "isspace", "isupper", "isxdigit", "tolower", "toupper", "isascii", "toascii",
}
NONDET_PREFIX = "__VERIFIER_nondet_"
# The name of the placeholder (a FloatType, which nothing models) for a type cbam cannot read.
UNSUPPORTED_TYPE = "unsupported:"


def unsupported_reason(t: CType) -> str | None:
    """Why a placeholder type could not be read (None for any other type)."""
    name = getattr(t, "name", "")
    return name[len(UNSUPPORTED_TYPE):] if isinstance(name, str) and name.startswith(UNSUPPORTED_TYPE) else None


class Scope:
    def __init__(self, parent: Scope | None, function: str | None = None):
        self.parent = parent
        # The function whose body the scope is in (None at file scope): what a type that names an
        # expression (typeof) builds that expression for.
        self.function: str | None = function if function is not None else parent.function if parent is not None else None
        self.vars: dict[str, str] = {}
        self.typedefs: dict[str, CType] = {}
        self.enums: dict[str, int] = {}
        self.tags: dict[str, StructType] = {}
        # Its variables that may live in memory, whose lifetimes end where control leaves it.
        self.objects: list[Var] = []

    def lookup(self, attr: str, name: str):
        s: Scope | None = self
        while s is not None:
            table = getattr(s, attr)
            if name in table:
                return table[name]
            s = s.parent
        return None


_ESCAPES = {"n": 10, "t": 9, "r": 13, "0": 0, "a": 7, "b": 8, "f": 12, "v": 11, "\\": 92, "'": 39, '"': 34, "?": 63,
            "e": 27}


def _unescape(body: str) -> list[int]:
    out: list[int] = []
    i = 0
    while i < len(body):
        ch = body[i]
        if ch != "\\":
            out.extend(ch.encode("utf-8"))
            i += 1
            continue
        i += 1
        c = body[i] if i < len(body) else "\\"
        if c == "x":
            j = i + 1
            while j < len(body) and body[j] in "0123456789abcdefABCDEF":
                j += 1
            out.append(int(body[i + 1:j] or "0", 16) & 0xFF)
            i = j
        elif c in "01234567":
            j = i
            while j < len(body) and j < i + 3 and body[j] in "01234567":
                j += 1
            out.append(int(body[i:j], 8) & 0xFF)
            i = j
        else:
            out.append(_ESCAPES.get(c, ord(c)))
            i += 1
    return out


def parse_char(text: str, dm: DataModel) -> int:
    body = text[text.index("'") + 1:-1]
    vals = _unescape(body)
    if not vals:
        return 0
    if len(vals) == 1:
        return dm.char.wrap(vals[0])  # plain char is signed: '\xff' == -1
    v = 0
    for b in vals:
        v = (v << 8) | b
    return dm.int.wrap(v)


def parse_string(text: str) -> list[int]:
    out: list[int] = []
    for part in re.findall(r'"((?:[^"\\]|\\.)*)"', text):
        out.extend(_unescape(part))
    out.append(0)
    return out


# ---- GNU syntax the token pass rewrote (frontend/gnu_syntax.py) -----------------------------
ELVIS = "__cbam_elvis"
RANGE = "__cbam_range"


def is_elvis(node) -> bool:
    """Whether a TernaryOp is GNU's ``a ?: b`` (rewritten to ``a ? __cbam_elvis : b``)."""
    t = node.iftrue
    return type(t).__name__ == "ID" and t.name == ELVIS


def range_bounds(node):
    """``(lo, hi)`` of a rewritten ``lo ... hi`` (a FuncCall of __cbam_range), else None."""
    if type(node).__name__ != "FuncCall" or type(node.name).__name__ != "ID" or node.name.name != RANGE:
        return None
    args = node.args.exprs if node.args is not None else []
    return (args[0], args[1]) if len(args) == 2 else None


# ---- character and string literals of every width -------------------------------------------
# A literal's prefix: its element type (as C names it on x86 Linux, in both data models:
# wchar_t is int, char16_t unsigned short, char32_t unsigned int), its width in bits, and
# how a character beyond one element is encoded.
LITERAL_KINDS: dict[str, tuple[str, int, str]] = {
    "": ("char", 8, "utf-8"),
    "u8": ("char", 8, "utf-8"),
    "L": ("int", 32, "utf-32"),
    "u": ("unsigned short", 16, "utf-16"),
    "U": ("unsigned int", 32, "utf-32"),
}


def literal_elem_type(dm: DataModel, name: str) -> IntType:
    """The CType a LITERAL_KINDS element type name stands for."""
    return {"char": dm.char, "int": dm.int, "unsigned short": dm.ushort, "unsigned int": dm.uint}[name]


def _encode(cp: int, encoding: str) -> list[int]:
    if encoding == "utf-32":
        return [cp]
    if encoding == "utf-16":
        if cp < 0x10000:
            return [cp]
        cp -= 0x10000
        return [0xD800 | (cp >> 10), 0xDC00 | (cp & 0x3FF)]
    return list(chr(cp).encode("utf-8", "surrogatepass"))


def literal_elements(body: str, prefix: str) -> list[int]:
    """The elements the text between one pair of quotes stands for (no terminator), each as its
    element type's bit pattern (0 <= v < 2**bits): a character as the prefix's encoding gives it,
    ``\\u``/``\\U`` names too, and a numeric escape one element, its value cut to the width."""
    _, bits, encoding = LITERAL_KINDS[prefix]
    mask = (1 << bits) - 1
    out: list[int] = []
    i, n = 0, len(body)
    while i < n:
        ch = body[i]
        if ch != "\\":
            out.extend(_encode(ord(ch), encoding))
            i += 1
            continue
        i += 1
        c = body[i] if i < n else "\\"
        if c == "x":
            j = i + 1
            while j < n and body[j] in "0123456789abcdefABCDEF":
                j += 1
            out.append(int(body[i + 1:j] or "0", 16) & mask)
            i = j
        elif c in "01234567":
            j = i
            while j < n and j < i + 3 and body[j] in "01234567":
                j += 1
            out.append(int(body[i:j], 8) & mask)
            i = j
        elif c in "uU":
            digits = 4 if c == "u" else 8
            out.extend(_encode(int(body[i + 1:i + 1 + digits] or "0", 16), encoding))
            i += 1 + digits
        else:
            out.append(_ESCAPES.get(c, ord(c)))
            i += 1
    return out


def literal_prefix(value: str) -> str:
    """``L``, ``u``, ``U``, ``u8`` or "" of a character or string literal's text."""
    q = min(k for k in (value.find('"'), value.find("'")) if k >= 0)
    return value[:q]


def parse_string_literal(value: str) -> tuple[list[int], str]:
    """A string literal as pycparser gives it (``"ab"``, ``L"ab"``, ``u8"a" "b"``: adjacent
    literals already joined, the prefix only at the front) -> its array's elements, terminator
    included, each as the element type's bit pattern (0 <= v < 2**bits), and the element type's
    C name: "char" ("" and u8), "int" (L: wchar_t), "unsigned short" (u: char16_t) or
    "unsigned int" (U: char32_t). ``literal_elem_type`` turns the name into a CType."""
    prefix = literal_prefix(value)
    out: list[int] = []
    for part in re.findall(r'"((?:[^"\\]|\\.)*)"', value[len(prefix):]):
        out.extend(literal_elements(part, prefix))
    out.append(0)
    return out, LITERAL_KINDS[prefix][0]


def parse_char_literal(value: str) -> tuple[int, str]:
    """A prefixed character constant (``L'a'``, ``u'a'``, ``U'a'``) -> its value and its type's
    C name (as parse_string_literal names them). gcc takes the last element of a constant that
    holds several, and ``L'\\xffffffff'`` is -1 (wchar_t is signed)."""
    prefix = literal_prefix(value)
    name, bits, _ = LITERAL_KINDS[prefix]
    elems = literal_elements(value[len(prefix) + 1:-1], prefix)
    v = elems[-1] if elems else 0
    if name == "int" and v >= 1 << (bits - 1):
        v -= 1 << bits
    return v, name


def narrow_spelling(elements: list[int], width: int) -> str:
    """A narrow string literal whose bytes (its own terminator included) are ``elements``
    stored ``width`` bytes each, little-endian: how a wide literal's object reaches the
    analyses, which read a literal's bytes with parse_string. ``elements`` ends in the 0
    element, whose last byte is the narrow literal's terminator."""
    data = b"".join(e.to_bytes(width, "little") for e in elements)[:-1]
    return '"' + "".join(chr(b) if 32 <= b < 127 and chr(b) not in '"\\?' else f"\\{b:03o}" for b in data) + '"'
