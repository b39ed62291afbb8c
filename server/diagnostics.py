"""What a verification outcome looks like as LSP diagnostics, as pure functions of the engine's
typed report (no server state: tests/test_diagnostics.py calls them directly)."""

from __future__ import annotations

import os
import re
from pathlib import Path
from urllib.parse import unquote, urlparse

from lsprotocol import types as lsp

from .codes import Code

TYPE_CHECKING = False
if TYPE_CHECKING:
    from cbam.engine.api import Diagnostic, FileReport, FunctionReport, Range, Violation


def uri_to_path(uri: str) -> str:
    p = urlparse(uri)
    return unquote(p.path) if p.scheme == "file" else uri


def path_to_uri(path: str) -> str:
    return Path(path).absolute().as_uri()


def to_range(r: Range | None) -> lsp.Range:
    """The engine's range (from 1, end column exclusive) as an LSP range (from 0)."""
    if r is None:
        return lsp.Range(lsp.Position(0, 0), lsp.Position(0, 1))
    return lsp.Range(lsp.Position(max(0, r.line - 1), max(0, r.col - 1)),
                     lsp.Position(max(0, r.end_line - 1), max(0, r.end_col - 1)))


def message_diagnostic(message: str, severity: lsp.DiagnosticSeverity, code: Code,
                       rng: lsp.Range | None = None) -> lsp.Diagnostic:
    return lsp.Diagnostic(range=rng or to_range(None), message=message, severity=severity, source="cbam",
                          code=code.value)


_WORD = re.compile(r"\w+")


def token_range(text: str, line: int, col: int) -> lsp.Range:
    """The word (or else the one character) at a 0-based position: what gcc's column points at."""
    lines = text.splitlines()
    word = _WORD.match(lines[line], col) if 0 <= line < len(lines) else None
    return lsp.Range(lsp.Position(line, col), lsp.Position(line, word.end() if word else col + 1))


def frontend_diagnostics(errors: list[Diagnostic], phase: str, doc_uri: str, text: str) -> list[lsp.Diagnostic]:
    """A file the front end rejected: each error where it points (an error in another file, an
    included header, at the top with its place in the message)."""
    code = Code.PREPROCESSOR_ERROR if phase == "preprocess" else Code.SYNTAX_ERROR
    out = []
    for fe in errors:
        if os.path.realpath(fe.file) != os.path.realpath(uri_to_path(doc_uri)):
            out.append(message_diagnostic(f"{fe.file}:{fe.line}:{fe.col}: {fe.message}",
                                          lsp.DiagnosticSeverity.Error, code))
        else:
            out.append(message_diagnostic(fe.message, lsp.DiagnosticSeverity.Error, code,
                                          token_range(text, max(0, fe.line - 1), max(0, fe.col - 1))))
    return out


def result_diagnostics(report: FileReport, doc_uri: str, related_support: bool,
                       timeout: float) -> list[lsp.Diagnostic]:
    """A verified file: front-end warnings, each violation with its path, and an UNKNOWN's
    reason (a timeout is information, not a warning)."""
    result = report.result
    cached = result.source == "cache"
    tag = " [cached]" if cached else ""
    diags = [message_diagnostic(w.message, lsp.DiagnosticSeverity.Warning, Code.UNSUPPORTED, to_range(w.range))
             for w in report.diagnostics if w.range is not None and in_document(w.range, doc_uri)]
    for v in result.violations:
        d = violation_diagnostic(v, doc_uri, related_support, tag)
        if d is not None:
            diags.append(d)
    if result.verdict == "UNKNOWN":
        reason = result.reason
        severity = lsp.DiagnosticSeverity.Warning
        if result.reason_kind == "timeout":
            severity = lsp.DiagnosticSeverity.Information
            reason = f"timeout after {timeout:g} s: nothing proven, nothing refuted"
        data = {"cached": cached, "reason": str(result.reason_kind)}
        if result.replay is not None:  # a violation withdrawn: its run did not show it
            data["replay"] = result.replay.to_json()
        diags.append(lsp.Diagnostic(range=to_range(result.unsupported_range or result.reason_range),
                                    message=f"cbam could not decide: {reason}{tag}", severity=severity,
                                    source="cbam", code=Code.UNKNOWN.value, data=data))
    return diags


def replay_tag(v: Violation) -> str:
    """What a violation's message says of its native run (replay_native.py)."""
    if v.replay is None:
        return ""
    status = str(v.replay.status)
    if status == "pending":
        return " [replaying]"
    if status == "replayed":
        return " [replayed]"
    return f" [not replayed: {v.replay.reason}]"


def in_document(r: Range | None, doc_uri: str) -> bool:
    """Whether ``r`` lies in the document (not in a header, nor in another file of the program)."""
    return r is not None and os.path.realpath(r.file) == os.path.realpath(uri_to_path(doc_uri))


def violation_diagnostic(v: Violation, doc_uri: str, related_support: bool, tag: str) -> lsp.Diagnostic | None:
    """The violation at its check; its path as related information (or, for a client without
    it, in the message). A check in another file (a header, or another file of the program) is
    shown where the path last leaves this document for it, and says where it is; a path that
    never enters this document belongs to another (None)."""
    related: list[lsp.DiagnosticRelatedInformation] = []
    lines: list[str] = []
    for step in v.steps:
        if step.kind == "error":
            continue
        rng = step.range
        uri = path_to_uri(rng.file) if rng else doc_uri
        related.append(lsp.DiagnosticRelatedInformation(lsp.Location(uri, to_range(rng)), step.message))
        where = f"line {rng.line}" if rng else "input"
        if rng and os.path.realpath(rng.file) != os.path.realpath(uri_to_path(doc_uri)):
            where = f"{os.path.basename(rng.file)}:{rng.line}"
        lines.append(f"  {where}: {step.message}")
    message = v.message + replay_tag(v) + tag
    at = v.range
    if v.range is not None and not in_document(v.range, doc_uri):
        here = [s.range for s in v.steps if in_document(s.range, doc_uri)]
        if not here:
            return None
        at = here[-1]
        message = f"{os.path.basename(v.range.file)}:{v.range.line}: {message} (reached from here)"
    if not related_support and lines:
        message += "\nerror path:\n" + "\n".join(lines)
    data = {"kind": v.kind, "inputs": [i.to_json() for i in v.inputs], "cached": bool(tag)}
    if v.replay is not None:
        data["replay"] = v.replay.to_json()
    return lsp.Diagnostic(range=to_range(at), message=message, severity=lsp.DiagnosticSeverity.Error,
                          source="cbam", code=Code.VIOLATION.value,
                          related_information=related if related_support else None, data=data)


def _contains(r: Range | None, pos: lsp.Position) -> bool:
    if r is None:
        return False
    return (r.line - 1, r.col - 1) <= (pos.line, pos.character) < (r.end_line - 1, r.end_col - 1)


def function_at(functions: list[FunctionReport], pos: lsp.Position, doc_uri: str) -> FunctionReport | None:
    """The function whose name (in its definition, or in a call) is at ``pos`` in the document;
    the function called may be defined in another file of the program."""
    for f in functions:
        if in_document(f.name_range, doc_uri) and _contains(f.name_range, pos):
            return f
    for f in functions:
        if not in_document(f.name_range, doc_uri):
            continue
        for callee, r in f.calls:
            # Only the callee's name, not its arguments.
            if _contains(r, pos) and r.line - 1 == pos.line and pos.character < r.col - 1 + len(callee):
                target = next((g for g in functions if g.name == callee), None)
                if target is not None:
                    return target
    return None


LENS_TITLES = {"verified": "✓ verified", "violation": "✗ violation", "unknown": "? unknown",
               "not analysed": "not analysed", "unsupported": "? unsupported construct"}


def lens_title(status: str, verifying: bool, outdated: bool, cached: bool) -> str:
    """A function's code lens: its status, unless an analysis of newer text runs."""
    if verifying:
        return "verifying…"  # the previous result is not this text's
    title = LENS_TITLES.get(status, status)
    if status in ("verified", "violation", "unknown"):
        title += " (cached)" if cached else ""
        title += " (before your last edits; save to verify)" if outdated else ""
    return title
