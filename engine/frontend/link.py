"""Several translation units as one program's text, linked as the linker links them.

Each unit is preprocessed on its own, with its own flags (from compile_commands.json or the
command line), and the texts are joined, each after a ``#pragma cbam unit "PATH"`` line, which
pycparser keeps as a node: the builder knows which unit each declaration is from, and
cfa/linkage.py checks the symbols as a linker would.

What two units share through a header is one definition: a top-level declaration of a header
(frontend/chunks.py cuts them) that an earlier unit brought from the same place with the same
text is blanked out in the later one. A ``static`` name that two units use is two symbols: it
is renamed in its own unit (``rename_internal``, asked for by cfa/linkage.py once the parse
shows the clash). Both edit the text, not the tree, so the incremental front end's memo of
parsed and built functions keys them by what they now say. Lines are only blanked, never
removed, so positions stay exact: a step in another unit is reported at its own file and line."""

from __future__ import annotations

import os
import re
from functools import partial

from .chunks import NotChunkable, split_chunks
from .compile_db import Unit
from .errors import Diagnostic, FrontendError
from .preprocess import Preprocessing, PreprocessOptions
from .tokens import split_preprocessed

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

UNIT_PRAGMA = "cbam unit"
_UNIT_LINE = re.compile(r'^cbam unit "((?:[^"\\]|\\.)*)"$')


def unit_pragma(path: str) -> str:
    return f'#pragma {UNIT_PRAGMA} "{_escape(path)}"'


def unit_of_pragma(text: str) -> str | None:
    """The unit a ``#pragma`` node's text opens (None: another pragma)."""
    m = _UNIT_LINE.match(text.strip())
    return m.group(1).replace('\\"', '"').replace("\\\\", "\\") if m else None


def _escape(path: str) -> str:
    return path.replace("\\", "\\\\").replace('"', '\\"')


def linked_text(units: Sequence[Unit]) -> str:
    """The units' preprocessed texts as one, each after its unit pragma. FrontendError with
    every unit's errors where any fails to preprocess."""
    if not units:
        raise FrontendError(Diagnostic("error", "no translation units to link", "<cbam>"))
    seen_paths: set[str] = set()
    for u in units:
        if u.path in seen_paths:
            raise FrontendError(Diagnostic("error", "this file is given twice to be linked", u.path))
        seen_paths.add(u.path)
    runs = [Preprocessing(u.path, u.text, u.options or PreprocessOptions()) for u in units]
    texts: list[str] = []
    errors: list[Diagnostic] = []
    for run in runs:
        try:
            texts.append(run.result())
        except FrontendError as exc:
            errors.extend(exc.diagnostics)
    if errors:
        raise FrontendError(errors)
    seen: set[tuple[str, int, str]] = set()
    parts: list[str] = []
    for unit, pp in zip(units, texts):
        parts += [unit_pragma(unit.path), _shared_once(unit.path, pp, seen)]
    return "\n".join(parts) + "\n"


def _shared_once(path: str, pp: str, seen: set[tuple[str, int, str]]) -> str:
    """``pp`` with the header declarations an earlier unit brought (in ``seen``) blanked."""
    pplines, parser_text = split_preprocessed(pp)
    try:
        chunks = split_chunks(parser_text)
    except NotChunkable:
        return pp  # kept whole: the linkage check reports a type the units define twice
    lines = pp.split("\n")
    for ch in chunks:
        origin = pplines[ch.line - 1]
        if origin.file == path or not ch.alone:
            continue
        # One header, however a unit's -I or #include spells its path (examples/../lib.h).
        key = (os.path.realpath(origin.file), origin.line, ch.text)
        if key not in seen:
            seen.add(key)
            continue
        span = range(ch.line - 1, ch.end_line)
        if any(lines[i].lstrip().startswith("#") for i in span):
            continue  # a line marker within: left as it is
        for i in span:
            lines[i] = ""
    return "\n".join(lines)


_TOKEN = re.compile(r'"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'|(?:\.|->)\s*[A-Za-z_]\w*|[A-Za-z_]\w*')


def rename_internal(pp: str, names: dict[str, dict[str, str]]) -> str:
    """The linked text ``pp`` with, in each unit of ``names``, its names renamed: every
    identifier token outside literals and line markers, but a member after ``.`` or ``->``."""
    out: list[str] = []
    renames: dict[str, str] = {}
    for line in pp.split("\n"):
        stripped = line.lstrip()
        if stripped.startswith("#"):
            m = _UNIT_LINE.match(stripped[len("#pragma "):]) if stripped.startswith("#pragma ") else None
            if m is not None:
                renames = names.get(unit_of_pragma(stripped[len("#pragma "):]) or "", {})
            out.append(line)
            continue
        if renames:
            line = _TOKEN.sub(partial(_renamed, renames), line)
        out.append(line)
    return "\n".join(out)


def _renamed(names: dict[str, str], token: re.Match) -> str:
    return names.get(token.group(0), token.group(0))
