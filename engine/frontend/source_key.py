"""A content address for what the front end reads: the preprocessed text, the original
files the source ranges come from, and the options. Cheap to compute (no parsing), so
an unchanged file can be recognised before the parser runs."""

from __future__ import annotations

import os
import re

from ..sha import sha256
from .preprocess import PreprocessOptions

_MARKER = re.compile(r'^# \d+ "([^"]+)"', re.M)


def _options_text(opts: PreprocessOptions) -> str:
    # Lists and tuples of the same options are the same options.
    return repr(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in opts._asdict().items()))


def source_key(path: str, text: str | None, pp: str, opts: PreprocessOptions, entry: str) -> str | None:
    """None when an original file cannot be read (then nothing may be reused)."""
    h = sha256()
    for part in (path, pp, _options_text(opts), entry):
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


# What can make the preprocessor read a file, or give another text for the same bytes: a
# directive (also spelled %: or ??=), a _Pragma operator (GCC dependency reads a file's time),
# and the macros of the time of day or of a file's time.
_READS_MORE = (b"#", b"%:", b"??=", b"_Pragma", b"__DATE__", b"__TIME__", b"__TIMESTAMP__")
# The environment the preprocessor consults: which programs it runs, where it searches.
_PREPROCESSOR_ENV = ("GCC_EXEC_PREFIX", "COMPILER_PATH", "CPATH", "C_INCLUDE_PATH", "SOURCE_DATE_EPOCH")


def self_contained(data: bytes) -> bool:
    """Whether the preprocessor's text of ``data`` follows from its bytes and the command line alone."""
    return not any(mark in data for mark in _READS_MORE)


# Directives whose effect is a function of the text before them and the command line alone (they
# read no file, and no time): those a force-included file may hold and stay self-contained.
_PURE_DIRECTIVE = re.compile(rb"^[ \t]*#[ \t]*(?:define|undef|if|ifdef|ifndef|elif|else|endif)\b", re.M)
_ANY_DIRECTIVE = re.compile(rb"^[ \t]*#", re.M)


def _only_pure_directives(data: bytes) -> bool:
    """Whether ``data``'s directives are all definitions and conditionals, with no other way to
    read more (cbam's prelude defines va_arg's macros under #if: a file that holds them is still
    a function of its bytes and the command line)."""
    if any(mark in data for mark in _READS_MORE if mark != b"#") or b"__has_include" in data:
        return False
    return len(_ANY_DIRECTIVE.findall(data)) == len(_PURE_DIRECTIVE.findall(data)) and b"#" not in \
        _ANY_DIRECTIVE.sub(b"", _PURE_DIRECTIVE.sub(b"", data)).replace(b"##", b"")


def unpreprocessed_key(path: str, raw: bytes, command: list[str], opts: PreprocessOptions, entry: str) -> str | None:
    """The source's address without running the preprocessor, where its text is a function of
    what is hashed here: the source's bytes, the command line, the files that command line
    names (self-contained too), the preprocessor's program and environment. None where the
    source or a file it is given could read more (then the preprocessed text decides)."""
    if not self_contained(raw):
        return None
    h = sha256()
    for part in ("unpreprocessed", path, _options_text(opts), entry, *command):
        h.update(part.encode("utf-8", "replace"))
        h.update(b"\0")
    for name in _PREPROCESSOR_ENV:
        h.update(f"{name}={os.environ.get(name)}".encode("utf-8", "replace") + b"\0")
    try:
        st = os.stat(command[0])  # the program itself: an upgrade changes its predefined macros
        h.update(f"{st.st_ino}/{st.st_size}/{st.st_mtime_ns}".encode() + b"\0")
        for i, arg in enumerate(command[:-1]):
            if arg == "-include":
                with open(command[i + 1], "rb") as fh:
                    named = fh.read()
                if not _only_pure_directives(named):
                    return None
                h.update(sha256(named).digest())
        predefined = _implicit_predefinitions(command)
        if predefined is not None:
            with open(predefined, "rb") as fh:
                named = fh.read()
            if not _only_pure_directives(named):
                return None
            h.update(sha256(named).digest())
    except OSError:
        return None
    h.update(sha256(raw).digest())
    return h.hexdigest()


# Where glibc keeps the file gcc includes before every source, unless told not to
# (-nostdinc, -ffreestanding): its include path less gcc's own folder, which never holds it.
_PREDEF_DIRS = ("/usr/local/include", "/usr/include/x86_64-linux-gnu", "/usr/include")


def _implicit_predefinitions(command: list[str]) -> str | None:
    if "-nostdinc" in command or "-ffreestanding" in command:
        return None
    for d in _PREDEF_DIRS:
        cand = os.path.join(d, "stdc-predef.h")
        if os.path.isfile(cand):
            return cand
    return None
