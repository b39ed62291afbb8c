"""Diagnostics produced by the front end, located in the user's original files."""

from __future__ import annotations

from collections import namedtuple

# Named tuples rather than dataclasses: both are immutable values, ordered and hashed by their
# fields in order, and this module is on the path that answers an unchanged source from the
# cache, where importing dataclasses (and the inspect module it loads) costs ~10 ms of a
# start-up measured in tens of them.


class Range(namedtuple("Range", "file line col end_line end_col")):
    """A source range in an original (not preprocessed) file; lines and columns start at 1.

    The end column is exclusive, like an LSP range.
    """

    __slots__ = ()
    file: str
    line: int
    col: int
    end_line: int
    end_col: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"

    def to_json(self) -> dict[str, object]:
        return {
            "file": self.file,
            "start": {"line": self.line, "column": self.col},
            "end": {"line": self.end_line, "column": self.end_col},
        }

    @staticmethod
    def from_json(data: dict) -> Range:
        return Range(
            data["file"], data["start"]["line"], data["start"]["column"],
            data["end"]["line"], data["end"]["column"],
        )

    def shifted(self, delta: int) -> Range:
        return Range(self.file, self.line + delta, self.col, self.end_line + delta, self.end_col)


class Diagnostic(namedtuple("Diagnostic", "severity message file line col range",
                            defaults=("<input>", 1, 1, None))):
    """A gcc-style message: ``file:line:col: severity: text``."""

    __slots__ = ()
    severity: str  # "error" | "warning" | "note"
    message: str
    file: str  # the fields' defaults are the named tuple's: an assignment here would hide the field
    line: int
    col: int
    range: Range | None

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}: {self.severity}: {self.message}"

    @staticmethod
    def at(rng: Range, severity: str, message: str) -> Diagnostic:
        return Diagnostic(severity, message, rng.file, rng.line, rng.col, rng)


class FrontendError(Exception):
    """The front end's only exception type: anything it cannot build ends here."""

    def __init__(self, diagnostics: Diagnostic | list[Diagnostic]):
        diags = diagnostics if isinstance(diagnostics, list) else [diagnostics]
        self.diagnostics: list[Diagnostic] = diags
        super().__init__("\n".join(str(d) for d in diags))

    def __reduce__(self):  # pickled as itself (the command line's analysis child sends it)
        return FrontendError, (self.diagnostics,)


class Unsupported(Exception):
    """A construct cbam does not model; carries where it is and what it is."""

    def __init__(self, what: str, where: Range | None):
        self.what = what
        self.where = where
        super().__init__(f"{where}: unsupported: {what}" if where else f"unsupported: {what}")
