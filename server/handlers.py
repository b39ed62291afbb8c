"""The language server's handlers (pygls 2, lsprotocol), started by ``cbam lsp`` (lsp.py).

Verifies C documents on open and save (optionally on change, debounced), publishes each
violation as an Error diagnostic whose relatedInformation walks the error path, shows
function summaries from the persistent cache on hover, and puts a status code lens over
every function. Analyses run in worker processes (see worker.py); the event loop only
waits for them, so the server always answers.

Every diagnostic carries a code (codes.py) that says what it is. A client that declares the
experimental capability ``cbamStatus`` is also told, per document, whether cbam is verifying
it, whether the published results are for its current text, or whether it was never
verified (notification ``cbam/status``), so that an old result is never shown as current.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import logging
import os
import re
import shlex
import sys
import time
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any
from urllib.parse import unquote, urlparse

from lsprotocol import types as lsp
from pygls.lsp.server import LanguageServer

from cbam import __version__

from .codes import Code
from .protocol import CbamProtocol
from .settings import SECTION, Settings, defaults, validate
from .summaries import SummaryReader, format_hover
from .worker import CompileFlags, Job, JobOutcome, Rejected, Verified, Worker

TYPE_CHECKING = False
if TYPE_CHECKING:
    from cbam.engine.api import FileReport, FunctionReport, Range, VerificationResult, Violation

MAX_FILE_BYTES = 2_000_000
C_EXTENSIONS = (".c", ".h", ".i")
STATUS_NOTIFICATION = "cbam/status"
STATUS_CAPABILITY = "cbamStatus"


class DocStatus(StrEnum):
    """What ``cbam/status`` says about a document (vscode-extension/src/codes.ts: DocState)."""

    IDLE = "idle"  # nothing verified yet (trigger "manual", or not a C file)
    VERIFYING = "verifying"  # an analysis runs or is about to
    DONE = "done"  # the published diagnostics are for the document's current text
    OUTDATED = "outdated"  # the text changed since; nothing runs until a save or a command


def uri_to_path(uri: str) -> str:
    p = urlparse(uri)
    return unquote(p.path) if p.scheme == "file" else uri


def path_to_uri(path: str) -> str:
    from pathlib import Path

    return Path(path).absolute().as_uri()


@dataclass
class DocState:
    uri: str
    version: int | None = None  # the client's current version of the text
    generation: int = 0  # the latest trigger; an analysis started by an older one publishes nothing
    busy: bool = False  # a trigger is pending or its analysis runs
    job_id: int | None = None  # the job in the worker, while it runs
    task: asyncio.Task | None = None
    debounce: asyncio.TimerHandle | None = None
    published_version: int | None = None  # the version the published diagnostics are for
    result: VerificationResult | None = None
    functions: list[FunctionReport] = field(default_factory=list)  # with the engine's status each
    cache_dir: str | None = None  # the cache that produced ``result`` (None: the cache was off)
    reported: DocStatus | None = None  # the last status sent to the client


class CbamServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__("cbam", __version__, protocol_cls=CbamProtocol)
        self.settings: Settings = defaults()
        self.root: str | None = None
        self.problems: list[str] = []  # the last validation's, each reported once
        self.docs: dict[str, DocState] = {}
        self.job_ids = itertools.count(1)
        self.workers: dict[str, Worker] = {}
        self.spare: Worker | None = None  # started ahead of need: a new document's first job waits for no import
        self.related_support = True
        self.progress_support = False
        self.status_support = False
        self.compile_commands: dict[str, list[str]] = {}
        self.token_jobs: dict[str, tuple[str, int]] = {}
        self.summaries = SummaryReader()

    def flags_for(self, path: str) -> CompileFlags:
        args = self.compile_commands.get(os.path.realpath(path))
        return parse_compile_flags(args) if args else CompileFlags()

    def worker_for(self, uri: str) -> Worker:
        w = self.workers.get(uri)
        if w is None:
            w, self.spare = self.spare or Worker(), None
            self.workers[uri] = w
        return w

    def replenish_spare(self) -> None:
        if self.spare is None:
            self.spare = Worker().start()

    def shutdown_workers(self) -> None:
        for w in [*self.workers.values(), *([self.spare] if self.spare else [])]:
            w.shutdown()
        self.workers.clear()
        self.spare = None


server = CbamServer()


def parse_compile_flags(args: list[str]) -> CompileFlags:
    """Only -I, -D, -U, -include and -std are taken; nothing is ever executed."""
    out: dict[str, list[str]] = {"-I": [], "-D": [], "-U": [], "-include": []}
    std = None
    i = 0
    while i < len(args):
        a = args[i]
        nxt = args[i + 1] if i + 1 < len(args) else None
        for flag in ("-I", "-D", "-U"):
            if a == flag and nxt is not None:
                out[flag].append(nxt)
                i += 1
                break
            if a.startswith(flag) and len(a) > len(flag):
                out[flag].append(a[len(flag):])
                break
        else:
            if a == "-include" and nxt is not None:
                out["-include"].append(nxt)
                i += 1
            elif a.startswith("-std="):
                std = a[len("-std="):]
        i += 1
    return CompileFlags(include_paths=tuple(out["-I"]), defines=tuple(out["-D"]), undefines=tuple(out["-U"]),
                        force_includes=tuple(out["-include"]), std=std)


def load_compile_commands(root: str) -> dict[str, list[str]]:
    path = os.path.join(root, "compile_commands.json")
    try:
        with open(path, encoding="utf-8") as fh:
            entries = json.load(fh)
    except (OSError, ValueError):
        return {}
    table: dict[str, list[str]] = {}
    if not isinstance(entries, list):
        return table
    for e in entries:
        if not isinstance(e, dict) or "file" not in e:
            continue
        directory = e.get("directory", root)
        args = e.get("arguments")
        if args is None and isinstance(e.get("command"), str):
            try:
                args = shlex.split(e["command"])
            except ValueError:
                continue
        if not isinstance(args, list):
            continue
        args = [str(a) for a in args]
        # Relative include directories are relative to the entry's directory.
        fixed = []
        for i, a in enumerate(args):
            if a.startswith("-I") and len(a) > 2 and not os.path.isabs(a[2:]):
                a = "-I" + os.path.join(directory, a[2:])
            elif i > 0 and args[i - 1] == "-I" and not os.path.isabs(a):
                a = os.path.join(directory, a)
            fixed.append(a)
        table[os.path.realpath(os.path.join(directory, e["file"]))] = fixed
    return table


# ---- settings --------------------------------------------------------------------------------
def apply_settings(ls: CbamServer, raw: Any) -> bool:
    """Validate a client's ``cbam`` section and take it; True if the settings changed. Every
    value not taken is reported (window/logMessage), once for as long as it stays."""
    settings, problems = validate(raw, ls.root)
    for p in problems:
        if p not in ls.problems:
            ls.window_log_message(lsp.LogMessageParams(lsp.MessageType.Warning, f"cbam: setting ignored: {p}"))
    ls.problems = problems
    changed = settings != ls.settings
    ls.settings = settings
    return changed


def _section(raw: Any) -> Any:
    """The ``cbam`` section of what a client sent: ``{"cbam": {...}}`` or the section itself."""
    return raw[SECTION] if isinstance(raw, dict) and SECTION in raw else raw


# ---- lifecycle ------------------------------------------------------------------------------
@server.feature(lsp.INITIALIZE)
def initialize(ls: CbamServer, params: lsp.InitializeParams) -> None:
    caps = params.capabilities
    td = caps.text_document
    ls.related_support = bool(td and td.publish_diagnostics and td.publish_diagnostics.related_information)
    ls.progress_support = bool(caps.window and caps.window.work_done_progress)
    ls.status_support = isinstance(caps.experimental, dict) and bool(caps.experimental.get(STATUS_CAPABILITY))
    if params.workspace_folders:
        ls.root = uri_to_path(params.workspace_folders[0].uri)
    elif params.root_uri:
        ls.root = uri_to_path(params.root_uri)
    if ls.root:
        ls.compile_commands = load_compile_commands(ls.root)
    if params.initialization_options is not None:
        # Reported when initialized: before that, the client may not show messages yet.
        ls.settings, ls.problems = validate(_section(params.initialization_options), ls.root)


@server.feature(lsp.INITIALIZED)
async def initialized(ls: CbamServer, params: lsp.InitializedParams) -> None:
    ls.window_log_message(lsp.LogMessageParams(lsp.MessageType.Info, (
        f"cbam {__version__} (Python {sys.version.split()[0]}, {os.path.dirname(os.path.dirname(__file__))})")))
    for p in ls.problems:
        ls.window_log_message(lsp.LogMessageParams(lsp.MessageType.Warning, f"cbam: setting ignored: {p}"))
    await refresh_configuration(ls)


async def refresh_configuration(ls: CbamServer) -> bool:
    caps = ls.client_capabilities
    if not (caps.workspace and caps.workspace.configuration):
        return False
    try:
        items = await ls.workspace_configuration_async(
            lsp.ConfigurationParams(items=[lsp.ConfigurationItem(section=SECTION)]))
    except Exception as exc:  # the client may not implement it properly
        ls.window_log_message(lsp.LogMessageParams(lsp.MessageType.Warning, f"cbam: configuration: {exc}"))
        return False
    # A client without a cbam section answers null: the settings given at initialization stay.
    if items and items[0] is not None:
        return apply_settings(ls, items[0])
    return False


@server.feature(lsp.WORKSPACE_DID_CHANGE_CONFIGURATION)
async def did_change_configuration(ls: CbamServer, params: lsp.DidChangeConfigurationParams) -> None:
    pushed = params.settings
    if isinstance(pushed, dict) and SECTION in pushed:
        changed = apply_settings(ls, pushed[SECTION])
    else:
        changed = await refresh_configuration(ls)
    if not changed or ls.settings.trigger == "manual":
        return
    for uri, doc in list(ls.docs.items()):
        if doc.result is not None or doc.busy:
            schedule(ls, uri)


@server.feature(lsp.SHUTDOWN)
def shutdown(ls: CbamServer, params: None) -> None:
    ls.shutdown_workers()


# ---- documents ----------------------------------------------------------------------------
def is_c_document(uri: str, language_id: str | None = None) -> bool:
    return uri_to_path(uri).endswith(C_EXTENSIONS) or language_id == "c"


@server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: CbamServer, params: lsp.DidOpenTextDocumentParams) -> None:
    doc = params.text_document
    state = ls.docs.setdefault(doc.uri, DocState(doc.uri))
    state.version = doc.version
    if not is_c_document(doc.uri, doc.language_id):
        publish(ls, state, [message_diagnostic("cbam verifies C files (.c, .h, .i); this document is not one.",
                                               lsp.DiagnosticSeverity.Information, Code.NOT_VERIFIED)], None)
        return
    if ls.settings.trigger != "manual":
        schedule(ls, doc.uri)
    else:
        notify_status(ls, state)


@server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: CbamServer, params: lsp.DidChangeTextDocumentParams) -> None:
    state = ls.docs.setdefault(params.text_document.uri, DocState(params.text_document.uri))
    state.version = params.text_document.version
    if ls.settings.trigger == "change":
        schedule(ls, state.uri, delay=ls.settings.debounce_ms / 1000)
    else:
        notify_status(ls, state)


@server.feature(lsp.TEXT_DOCUMENT_DID_SAVE)
def did_save(ls: CbamServer, params: lsp.DidSaveTextDocumentParams) -> None:
    if ls.settings.trigger in ("save", "change"):
        schedule(ls, params.text_document.uri)


@server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: CbamServer, params: lsp.DidCloseTextDocumentParams) -> None:
    state = ls.docs.pop(params.text_document.uri, None)
    if state is not None:
        cancel_job(ls, state)
    w = ls.workers.pop(params.text_document.uri, None)
    if w is not None:
        w.shutdown()
    ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=params.text_document.uri, diagnostics=[]))


def cancel_job(ls: CbamServer, state: DocState) -> None:
    if state.debounce is not None:
        state.debounce.cancel()
        state.debounce = None
    if state.job_id is not None:
        w = ls.workers.get(state.uri)
        if w is not None:
            w.cancel(state.job_id)
    if state.task is not None and not state.task.done():
        state.task.cancel()
    state.task = None
    state.busy = False


def schedule(ls: CbamServer, uri: str, delay: float = 0.0, entry: str | None = None, use_cache: bool = True) -> None:
    """A new trigger: cancel what runs for this document, then verify (after ``delay``)."""
    state = ls.docs.setdefault(uri, DocState(uri))
    cancel_job(ls, state)
    state.generation = generation = next(ls.job_ids)
    state.busy = True
    loop = asyncio.get_event_loop()

    def start() -> None:
        state.debounce = None
        state.task = loop.create_task(verify_document(ls, uri, generation, entry=entry, use_cache=use_cache))

    if delay > 0:
        state.debounce = loop.call_later(delay, start)
    else:
        start()
    notify_status(ls, state)


def doc_status(state: DocState) -> DocStatus:
    if state.busy:
        return DocStatus.VERIFYING
    if state.published_version is None and state.result is None:
        return DocStatus.IDLE
    if state.version is not None and state.published_version is not None and state.version > state.published_version:
        return DocStatus.OUTDATED
    return DocStatus.DONE


def notify_status(ls: CbamServer, state: DocState) -> None:
    """Tell the client what the document's results are worth, when that changes; the code
    lenses say it too."""
    status = doc_status(state)
    if status == state.reported:
        return
    state.reported = status
    if ls.status_support:
        ls.protocol.notify(STATUS_NOTIFICATION, {"uri": state.uri, "state": status.value, "version": state.version})
    refresh_code_lenses(ls)


def refresh_code_lenses(ls: CbamServer) -> None:
    caps = ls.client_capabilities
    if caps.workspace and caps.workspace.code_lens and caps.workspace.code_lens.refresh_support:
        ls.workspace_code_lens_refresh(None)


async def verify_document(ls: CbamServer, uri: str, generation: int, entry: str | None = None,
                          use_cache: bool = True) -> None:
    state = ls.docs.setdefault(uri, DocState(uri))
    try:
        await _verify_document(ls, state, generation, entry, use_cache)
    finally:
        if state.generation == generation:
            state.busy = False
            notify_status(ls, state)
            ls.replenish_spare()


async def _verify_document(ls: CbamServer, state: DocState, job_id: int, entry: str | None, use_cache: bool) -> None:
    uri = state.uri
    path = uri_to_path(uri)
    try:
        document = ls.workspace.get_text_document(uri)
        text = document.source
        version = document.version if document.version is not None else state.version
    except Exception:
        try:
            with open(path, encoding="utf-8", errors="replace") as fh:
                text = fh.read()
        except OSError as exc:
            publish(ls, state, [message_diagnostic(f"cbam cannot read this file: {exc.strerror}",
                                                   lsp.DiagnosticSeverity.Error, Code.NOT_VERIFIED)], state.version)
            return
        version = state.version
    if len(text.encode("utf-8", "replace")) > MAX_FILE_BYTES:
        publish(ls, state, [message_diagnostic(
            f"cbam skips this file: it is larger than {MAX_FILE_BYTES // 1_000_000} MB.",
            lsp.DiagnosticSeverity.Information, Code.NOT_VERIFIED)], version)
        return
    if "\0" in text[:65536]:
        publish(ls, state, [message_diagnostic("cbam skips this file: it looks binary, not C.",
                                               lsp.DiagnosticSeverity.Warning, Code.NOT_VERIFIED)], version)
        return
    settings = ls.settings
    state.job_id = job_id
    worker = ls.worker_for(uri)
    token = f"cbam-{job_id}"
    progress = {"begun": False, "states": 0}
    loop = asyncio.get_running_loop()
    started = time.monotonic()

    async def maybe_begin_progress() -> None:
        await asyncio.sleep(0.5)
        if not ls.progress_support or state.job_id != job_id:
            return
        try:
            await ls.work_done_progress.create_async(token)
        except Exception:
            return
        ls.token_jobs[token] = (uri, job_id)
        ls.work_done_progress.begin(token, lsp.WorkDoneProgressBegin(
            title="cbam: verifying", message=os.path.basename(path), cancellable=True))
        progress["begun"] = True

    progress_task = loop.create_task(maybe_begin_progress())

    def on_progress(states: int) -> None:
        progress["states"] = states
        if progress["begun"]:
            elapsed = time.monotonic() - started
            loop.call_soon_threadsafe(ls.work_done_progress.report, token, lsp.WorkDoneProgressReport(
                message=f"{os.path.basename(path)}: {elapsed:.0f} s"))

    try:
        job = Job(uri, path, text, version, settings, entry=entry, use_cache=use_cache, id=job_id,
                  flags=ls.flags_for(path))
        limit = float(settings.timeout) * 4 + 30  # several entry points may run
        outcome = await loop.run_in_executor(None, worker.run, job, on_progress, limit)
    except asyncio.CancelledError:
        worker.cancel(job_id)
        raise
    finally:
        progress_task.cancel()
        if progress["begun"]:
            ls.work_done_progress.end(token, lsp.WorkDoneProgressEnd(message="done"))
        ls.token_jobs.pop(token, None)
    if state.generation != job_id:
        return  # a newer trigger owns this document now
    state.job_id = None
    if ls.docs.get(uri) is not state:
        return  # closed meanwhile
    if state.version is not None and version is not None and state.version > version:
        return  # the document changed meanwhile: never show stale results as current
    publish_outcome(ls, state, outcome, version, text, settings)


# ---- diagnostics ------------------------------------------------------------------------
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


def publish(ls: CbamServer, state: DocState, diags: list[lsp.Diagnostic], version: int | None) -> None:
    state.published_version = version if version is not None else state.version
    ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=state.uri, diagnostics=diags,
                                                                      version=version))


_WORD = re.compile(r"\w+")


def token_range(text: str, line: int, col: int) -> lsp.Range:
    """The word (or else the one character) at a 0-based position: what gcc's column points at."""
    lines = text.splitlines()
    word = _WORD.match(lines[line], col) if 0 <= line < len(lines) else None
    return lsp.Range(lsp.Position(line, col), lsp.Position(line, word.end() if word else col + 1))


def publish_outcome(ls: CbamServer, state: DocState, outcome: JobOutcome, version: int | None, text: str,
                    settings: Settings) -> None:
    if outcome.status == "cancelled":
        return
    diags: list[lsp.Diagnostic] = []
    if outcome.status in ("crashed", "timeout"):
        msg = ("cbam's analysis worker failed and was restarted: " + outcome.error.strip().splitlines()[-1]
               if outcome.status == "crashed" else f"cbam: {outcome.error}")
        diags.append(message_diagnostic(msg, lsp.DiagnosticSeverity.Warning, Code.ANALYSIS_FAILED))
        ls.window_show_message(lsp.ShowMessageParams(lsp.MessageType.Warning, msg))
    elif isinstance(outcome.answer, Rejected):
        code = Code.PREPROCESSOR_ERROR if outcome.answer.phase == "preprocess" else Code.SYNTAX_ERROR
        state.result = None
        state.functions = []
        for fe in outcome.answer.diagnostics:
            if os.path.realpath(fe.file) != os.path.realpath(uri_to_path(state.uri)):
                message = f"{fe.file}:{fe.line}:{fe.col}: {fe.message}"
                rng = to_range(None)
            else:
                message = fe.message
                rng = token_range(text, max(0, fe.line - 1), max(0, fe.col - 1))
            diags.append(message_diagnostic(message, lsp.DiagnosticSeverity.Error, code, rng))
    elif isinstance(outcome.answer, Verified):
        diags.extend(result_diagnostics(ls, state, outcome.answer.report, settings))
        state.cache_dir = outcome.answer.cache_dir
    # The lenses are refreshed when the document's status becomes "done" (verify_document), once.
    publish(ls, state, diags, version)


def result_diagnostics(ls: CbamServer, state: DocState, report: FileReport, settings: Settings) -> list[lsp.Diagnostic]:
    """The diagnostics of a verified file: front-end warnings, violations with their paths, and
    an UNKNOWN's reason. Keeps the report in ``state`` for hover and the lenses."""
    result = report.result
    state.result = result
    state.functions = report.functions
    cached = result.source == "cache"
    tag = " [cached]" if cached else ""
    diags = [message_diagnostic(w.message, lsp.DiagnosticSeverity.Warning, Code.UNSUPPORTED, to_range(w.range))
             for w in report.diagnostics if w.range is not None]
    diags.extend(violation_diagnostic(ls, state, v, tag) for v in result.violations)
    if result.verdict == "UNKNOWN":
        reason = result.reason
        severity = lsp.DiagnosticSeverity.Warning
        if result.reason_kind == "timeout":
            severity = lsp.DiagnosticSeverity.Information
            reason = f"timeout after {settings.timeout:g} s: nothing proven, nothing refuted"
        diags.append(lsp.Diagnostic(range=to_range(result.unsupported_range or result.reason_range),
                                    message=f"cbam could not decide: {reason}{tag}", severity=severity,
                                    source="cbam", code=Code.UNKNOWN.value,
                                    data={"cached": cached, "reason": str(result.reason_kind)}))
    return diags


def violation_diagnostic(ls: CbamServer, state: DocState, v: Violation, tag: str) -> lsp.Diagnostic:
    related: list[lsp.DiagnosticRelatedInformation] = []
    lines: list[str] = []
    for step in v.steps:
        if step.kind == "error":
            continue
        rng = step.range
        uri = path_to_uri(rng.file) if rng else state.uri
        related.append(lsp.DiagnosticRelatedInformation(lsp.Location(uri, to_range(rng)), step.message))
        where = f"line {rng.line}" if rng else "input"
        if rng and os.path.realpath(rng.file) != os.path.realpath(uri_to_path(state.uri)):
            where = f"{os.path.basename(rng.file)}:{rng.line}"
        lines.append(f"  {where}: {step.message}")
    message = v.message + tag
    if not ls.related_support and lines:
        message += "\nerror path:\n" + "\n".join(lines)
    return lsp.Diagnostic(range=to_range(v.range), message=message, severity=lsp.DiagnosticSeverity.Error,
                          source="cbam", code=Code.VIOLATION.value,
                          related_information=related if ls.related_support else None,
                          data={"kind": v.kind, "inputs": [i.to_json() for i in v.inputs], "cached": bool(tag)})


# ---- hover and code lens -------------------------------------------------------------------
def _contains(r: Range | None, pos: lsp.Position) -> bool:
    if r is None:
        return False
    return (r.line - 1, r.col - 1) <= (pos.line, pos.character) < (r.end_line - 1, r.end_col - 1)


def function_at(state: DocState, pos: lsp.Position) -> FunctionReport | None:
    for f in state.functions:
        if _contains(f.name_range, pos):
            return f
    for f in state.functions:
        for callee, r in f.calls:
            # Only the callee's name, not its arguments.
            if _contains(r, pos) and r.line - 1 == pos.line and pos.character < r.col - 1 + len(callee):
                target = next((g for g in state.functions if g.name == callee), None)
                if target is not None:
                    return target
    return None


@server.feature(lsp.TEXT_DOCUMENT_HOVER)
def hover(ls: CbamServer, params: lsp.HoverParams) -> lsp.Hover | None:
    state = ls.docs.get(params.text_document.uri)
    if state is None:
        return None
    f = function_at(state, params.position)
    if f is None:
        return None
    # The summaries are read from the cache the result came from, whatever the settings say now.
    blocks = ls.summaries.blocks(state.cache_dir, f.key) if state.cache_dir is not None else None
    text = format_hover(f, state.result, blocks, cache_off=state.result is not None and state.cache_dir is None)
    return lsp.Hover(contents=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=text))


LENS_TITLES = {"verified": "✓ verified", "violation": "✗ violation", "unknown": "? unknown",
               "not analysed": "not analysed", "unsupported": "? unsupported construct"}


@server.feature(lsp.TEXT_DOCUMENT_CODE_LENS)
def code_lens(ls: CbamServer, params: lsp.CodeLensParams) -> list[lsp.CodeLens]:
    state = ls.docs.get(params.text_document.uri)
    if state is None:
        return []
    lenses = []
    status = doc_status(state)
    cached = state.result is not None and state.result.source == "cache"
    for f in state.functions:
        if f.name_range is None:
            continue
        if status == DocStatus.VERIFYING:
            title = "verifying…"  # the previous result is not this text's
        else:
            st = f.status
            title = LENS_TITLES.get(st, st)
            if st in ("verified", "violation", "unknown"):
                title += " (cached)" if cached else ""
                title += " (before your last edits; save to verify)" if status == DocStatus.OUTDATED else ""
        lenses.append(lsp.CodeLens(range=to_range(f.name_range), command=lsp.Command(
            title=f"cbam: {title} — Verify", command="cbam.verifyFunction",
            arguments=[params.text_document.uri, f.name])))
    return lenses


# ---- commands and cancellation --------------------------------------------------------------
@server.command("cbam.verifyFile")
async def cmd_verify_file(ls: CbamServer, *args: Any) -> dict[str, Any]:
    uri = _arg_uri(args)
    schedule(ls, uri)
    return await _wait_for(ls, uri)


@server.command("cbam.verifyFunction")
async def cmd_verify_function(ls: CbamServer, *args: Any) -> dict[str, Any]:
    uri = _arg_uri(args)
    name = args[1] if len(args) > 1 else "main"
    schedule(ls, uri, entry=name)
    return await _wait_for(ls, uri)


@server.command("cbam.reverifyFromScratch")
async def cmd_reverify(ls: CbamServer, *args: Any) -> dict[str, Any]:
    uri = _arg_uri(args)
    schedule(ls, uri, use_cache=False)
    return await _wait_for(ls, uri)


@server.command("cbam.clearCache")
async def cmd_clear_cache(ls: CbamServer, *args: Any) -> dict[str, Any]:
    from cbam.engine import api

    cache_dir = ls.settings.cache_dir

    def clear() -> int:
        store = api.open_cache(cache_dir)
        try:
            target = uri_to_path(args[0]) if args else None
            return store.clear(os.path.abspath(target) if target else None)
        finally:
            store.close()

    n = await asyncio.get_running_loop().run_in_executor(None, clear)
    return {"cleared": n}


def _arg_uri(args: tuple | list) -> str:
    if not args:
        raise ValueError("expected a document URI")
    a = args[0]
    return a["uri"] if isinstance(a, dict) else str(a)


async def _wait_for(ls: CbamServer, uri: str) -> dict[str, Any]:
    state = ls.docs.get(uri)
    task = state.task if state else None
    try:
        if task is not None:
            await asyncio.shield(task)
    except asyncio.CancelledError:
        # $/cancelRequest for the command: stop the analysis too.
        if state is not None:
            cancel_job(ls, state)
            notify_status(ls, state)
        raise
    result = state.result if state else None
    return {"verdict": result.verdict if result else None, "status": doc_status(state) if state else None}


@server.feature(lsp.WINDOW_WORK_DONE_PROGRESS_CANCEL)
def progress_cancel(ls: CbamServer, params: lsp.WorkDoneProgressCancelParams) -> None:
    target = ls.token_jobs.get(str(params.token))
    if target is None:
        return
    uri, job_id = target
    state = ls.docs.get(uri)
    if state is not None and state.job_id == job_id:
        cancel_job(ls, state)
        state.job_id = None
        publish(ls, state, [message_diagnostic("cbam: verification cancelled", lsp.DiagnosticSeverity.Information,
                                               Code.CANCELLED)], state.version)
        notify_status(ls, state)


def serve(tcp: str | None, spare: Worker | None) -> None:
    # The server's stderr is the client's error log (VS Code shows each line as an error). The
    # JSON-RPC layer warns about ordinary races there: a $/cancelRequest for a request that has
    # already been answered, a notification the server does not handle. Its errors still show.
    logging.getLogger("pygls.protocol.json_rpc").setLevel(logging.ERROR)
    server.spare = spare
    try:
        if tcp:
            host, _, port = tcp.rpartition(":")
            server.start_tcp(host or "127.0.0.1", int(port))
        else:
            server.start_io()
    finally:
        server.shutdown_workers()
