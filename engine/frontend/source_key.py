"""A content address for what the front end reads: the preprocessed text, the original
files the source ranges come from, and the options. Cheap to compute (no parsing), so
an unchanged file can be recognised before the parser runs."""

from __future__ import annotations

import re

from ..sha import sha256
from .preprocess import PreprocessOptions

_MARKER = re.compile(r'^# \d+ "([^"]+)"', re.M)


def source_key(path: str, text: str | None, pp: str, opts: PreprocessOptions, entry: str) -> str | None:
    """None when an original file cannot be read (then nothing may be reused)."""
    h = sha256()
    # Lists and tuples of the same options are the same options.
    options = repr(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in opts._asdict().items()))
    for part in (path, pp, options, entry):
        h.update(part.encode("utf-8", "replace"))
        h.update(b"\0")
    # Ranges come from the original files, whose layout the preprocessed text does not fully
    # show (comments, continuation lines). Their contents count, not their timestamps: saving
    # a file without changing it must not cost a re-parse.
    for f in sorted({m for m in _MARKER.findall(pp) if not m.startswith("<")}):
        if text is not None and f == path:
            data = text.encode("utf-8", "replace")
        else:
            try:
                with open(f, "rb") as fh:
                    data = fh.read()
            except OSError:
                return None
        h.update(f.encode("utf-8", "replace") + b"\0" + sha256(data).digest())
    return h.hexdigest()
