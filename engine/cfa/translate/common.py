"""What every part of the builder shares: the functions with a meaning for verification,
scopes, and C literals."""

from __future__ import annotations

import re

from ..ctype import (
    CType,
    DataModel,
    StructType,
)
from ..ir import Var

START_FUNCTION = "__cbam_start"

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
}
NONDET_PREFIX = "__VERIFIER_nondet_"
# The name of the placeholder (a FloatType, which nothing models) for a type cbam cannot read.
UNSUPPORTED_TYPE = "unsupported:"


def unsupported_reason(t: CType) -> str | None:
    """Why a placeholder type could not be read (None for any other type)."""
    name = getattr(t, "name", "")
    return name[len(UNSUPPORTED_TYPE):] if isinstance(name, str) and name.startswith(UNSUPPORTED_TYPE) else None


class _Scope:
    def __init__(self, parent: _Scope | None, function: str | None = None):
        self.parent = parent
        # The function whose body the scope is in (None at file scope): what a type that names an
        # expression (typeof) builds that expression for.
        self.function = function if function is not None else parent.function if parent is not None else None
        self.vars: dict[str, str] = {}
        self.typedefs: dict[str, CType] = {}
        self.enums: dict[str, int] = {}
        self.tags: dict[str, StructType] = {}
        # Its variables that may live in memory, whose lifetimes end where control leaves it.
        self.objects: list[Var] = []

    def lookup(self, attr: str, name: str):
        s: _Scope | None = self
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
