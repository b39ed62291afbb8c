"""pycparser, reading GNU C's ``typeof``.

pycparser parses ``typeof`` and ``typeof_unqual`` only in its C23 dialect, which also makes
``bool``, ``true``, ``false`` and ``nullptr`` keywords that older programs use as names. This
parser keeps the legacy dialect and makes keywords of GNU's spellings alone (gcc accepts
``typeof`` outside strict ISO modes, and the double-underscore ones in every mode), so a
``typeof`` parses wherever a type specifier may stand: declarations, casts, ``sizeof``, struct
members, parameters. The front end gives it its type (cfa/translate/types.py).
"""

from __future__ import annotations

from pycparser import c_lexer, c_parser

GNU_TYPEOF_KEYWORDS = {
    "typeof": "TYPEOF",
    "__typeof": "TYPEOF",
    "__typeof__": "TYPEOF",
    "__typeof_unqual": "TYPEOF_UNQUAL",
    "__typeof_unqual__": "TYPEOF_UNQUAL",
    # GNU's __alignof__ parses as _Alignof but keeps its spelling as the operator: it gives
    # the preferred alignment, which on i386 is 8 for long long where _Alignof gives 4.
    "__alignof__": "_ALIGNOF",
}


class GnuLexer(c_lexer.CLexer):
    def __init__(self, error_func, *, dialect: str = "legacy") -> None:
        super().__init__(error_func, dialect=dialect)
        self._keyword_map.update(GNU_TYPEOF_KEYWORDS)


class GnuParser(c_parser.CParser):
    def __init__(self) -> None:
        super().__init__(lexer=GnuLexer)
