"""``cbam lsp``: the language server (pygls 2, lsprotocol).

Verifies C documents on open and save (optionally on change, debounced), publishes each
violation as an Error diagnostic whose relatedInformation walks the error path, shows
function summaries from the persistent cache on hover, and puts a status code lens over
every function. Analyses run in worker processes (see worker.py); the event loop only
waits for them, so the server always answers.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import shlex
import time
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import unquote, urlparse

from lsprotocol import types as lsp
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol

from cbam import __version__

from .summaries import SummaryReader, format_hover
from .worker import Job, JobOutcome, Worker

MAX_FILE_BYTES = 2_000_000
C_EXTENSIONS = (".c", ".h", ".i")
DEFAULTS: dict[str, Any] = {
    "trigger": "save",  # "save" | "change" | "manual"
    "debounceMs": 500,
    "timeout": 30,
    "config": "value+predicate",
    "dataModel": "LP64",
    "entryPoints": [],
    "cacheDir": None,
    "cache": True,
    "includePaths": [],
    "defines": [],
    "maxViolations": 20,
    "extraSearchSeconds": 5,
    "memoryLimitMb": 4096,
}


def uri_to_path(uri: str) -> str:
    p = urlparse(uri)
    return unquote(p.path) if p.scheme == "file" else uri


def path_to_uri(path: str) -> str:
    from pathlib import Path

    return Path(path).absolute().as_uri()


@dataclass
class DocState:
    uri: str
    version: int | None = None
    job_id: int | None = None
    task: asyncio.Task | None = None
    debounce: asyncio.TimerHandle | None = None
    result: dict[str, Any] | None = None
    functions: list[dict[str, Any]] = field(default_factory=list)
    status: str = "not analysed"


class CbamProtocol(LanguageServerProtocol):
    """Makes $/cancelRequest reach workspace/executeCommand handlers.

    pygls runs a command's coroutine as a separate task behind the request's future and,
    on cancellation, only cancels that outer future; the analysis would go on. Here the
    inner task is cancelled with it, which kills the command's worker job.
    """

    def _run_generator(self, future=None, gen=None, result_future=None):  # type: ignore[override]
        before = set(self._request_futures)
        super()._run_generator(future, gen=gen, result_future=result_future)
        for key in [k for k in self._request_futures if k not in before]:
            inner = self._request_futures[key]
            if result_future is not None:
                result_future.add_done_callback(lambda f, inner=inner: inner.cancel() if f.cancelled() else None)


class CbamServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__("cbam", __version__, protocol_cls=CbamProtocol)
        self.settings: dict[str, Any] = dict(DEFAULTS)
        self.docs: dict[str, DocState] = {}
        self.job_ids = itertools.count(1)
        self.workers: dict[str, Worker] = {}
        self.related_support = True
        self.progress_support = False
        self.compile_commands: dict[str, list[str]] = {}
        self.token_jobs: dict[str, tuple[str, int]] = {}
        self.summaries = SummaryReader()

    # ---- settings --------------------------------------------------------------------
    def merged_settings(self, path: str) -> dict[str, Any]:
        s = dict(self.settings)
        flags = self.compile_commands.get(os.path.realpath(path))
        if flags:
            cc = parse_compile_flags(flags)
            s["includePaths"] = list(s.get("includePaths") or []) + cc["includePaths"]
            s["defines"] = list(s.get("defines") or []) + cc["defines"]
            s["undefines"] = cc["undefines"]
            s["forceIncludes"] = cc["forceIncludes"]
            if cc["std"]:
                s["std"] = cc["std"]
        return s

    def worker_for(self, uri: str) -> Worker:
        w = self.workers.get(uri)
        if w is None:
            w = Worker(int(self.settings.get("memoryLimitMb", 4096)))
            self.workers[uri] = w
        return w


server = CbamServer()


def parse_compile_flags(args: list[str]) -> dict[str, Any]:
    """Only -I, -D, -U, -include and -std are taken; nothing is ever executed."""
    out: dict[str, Any] = {"includePaths": [], "defines": [], "undefines": [], "forceIncludes": [], "std": None}
    i = 0
    while i < len(args):
        a = args[i]
        nxt = args[i + 1] if i + 1 < len(args) else None
        for flag, key in (("-I", "includePaths"), ("-D", "defines"), ("-U", "undefines")):
            if a == flag and nxt is not None:
                out[key].append(nxt)
                i += 1
                break
            if a.startswith(flag) and len(a) > len(flag):
                out[key].append(a[len(flag):])
                break
        else:
            if a == "-include" and nxt is not None:
                out["forceIncludes"].append(nxt)
                i += 1
            elif a.startswith("-std="):
                out["std"] = a[len("-std="):]
        i += 1
    return out


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


# ---- lifecycle ------------------------------------------------------------------------------
@server.feature(lsp.INITIALIZE)
def initialize(ls: CbamServer, params: lsp.InitializeParams) -> None:
    caps = params.capabilities
    td = caps.text_document
    ls.related_support = bool(td and td.publish_diagnostics and td.publish_diagnostics.related_information)
    ls.progress_support = bool(caps.window and caps.window.work_done_progress)
    root = None
    if params.workspace_folders:
        root = uri_to_path(params.workspace_folders[0].uri)
    elif params.root_uri:
        root = uri_to_path(params.root_uri)
    if root:
        ls.compile_commands = load_compile_commands(root)
    opts = params.initialization_options
    if isinstance(opts, dict):
        ls.settings.update({k: v for k, v in (opts.get("cbam", opts) or {}).items() if k in DEFAULTS})


@server.feature(lsp.INITIALIZED)
async def initialized(ls: CbamServer, params: lsp.InitializedParams) -> None:
    await refresh_configuration(ls)


async def refresh_configuration(ls: CbamServer) -> None:
    caps = ls.client_capabilities
    if not (caps.workspace and caps.workspace.configuration):
        return
    try:
        items = await ls.workspace_configuration_async(
            lsp.ConfigurationParams(items=[lsp.ConfigurationItem(section="cbam")]))
    except Exception as exc:  # the client may not implement it properly
        ls.window_log_message(lsp.LogMessageParams(lsp.MessageType.Warning, f"cbam: configuration: {exc}"))
        return
    if items and isinstance(items[0], dict):
        apply_settings(ls, items[0])


def apply_settings(ls: CbamServer, new: dict[str, Any]) -> None:
    for k, v in new.items():
        if k in DEFAULTS and v is not None:
            ls.settings[k] = v


@server.feature(lsp.WORKSPACE_DID_CHANGE_CONFIGURATION)
async def did_change_configuration(ls: CbamServer, params: lsp.DidChangeConfigurationParams) -> None:
    settings = params.settings
    if isinstance(settings, dict) and isinstance(settings.get("cbam"), dict):
        apply_settings(ls, settings["cbam"])
    else:
        await refresh_configuration(ls)
    for uri, doc in list(ls.docs.items()):
        if doc.result is not None or doc.task is not None:
            schedule(ls, uri, delay=0)


@server.feature(lsp.SHUTDOWN)
def shutdown(ls: CbamServer, params: None) -> None:
    for w in ls.workers.values():
        w.shutdown()


# ---- documents ----------------------------------------------------------------------------
def is_c_document(uri: str, language_id: str | None = None) -> bool:
    return uri_to_path(uri).endswith(C_EXTENSIONS) or language_id == "c"


@server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: CbamServer, params: lsp.DidOpenTextDocumentParams) -> None:
    doc = params.text_document
    state = ls.docs.setdefault(doc.uri, DocState(doc.uri))
    state.version = doc.version
    if not is_c_document(doc.uri, doc.language_id):
        publish_message(ls, state, "cbam verifies C files (.c, .h, .i); this document is not one.",
                        lsp.DiagnosticSeverity.Information)
        return
    if ls.settings.get("trigger") != "manual":
        schedule(ls, doc.uri, delay=0)


@server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: CbamServer, params: lsp.DidChangeTextDocumentParams) -> None:
    state = ls.docs.setdefault(params.text_document.uri, DocState(params.text_document.uri))
    state.version = params.text_document.version
    if ls.settings.get("trigger") == "change":
        schedule(ls, state.uri, delay=float(ls.settings.get("debounceMs", 500)) / 1000)


@server.feature(lsp.TEXT_DOCUMENT_DID_SAVE)
def did_save(ls: CbamServer, params: lsp.DidSaveTextDocumentParams) -> None:
    if ls.settings.get("trigger") in ("save", "change"):
        schedule(ls, params.text_document.uri, delay=0)


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


def schedule(ls: CbamServer, uri: str, delay: float = 0.0, entry: str | None = None, use_cache: bool = True) -> None:
    """A new trigger: cancel what runs for this document, then verify (after ``delay``)."""
    state = ls.docs.setdefault(uri, DocState(uri))
    cancel_job(ls, state)
    loop = asyncio.get_event_loop()

    def start() -> None:
        state.debounce = None
        state.task = loop.create_task(verify_document(ls, uri, entry=entry, use_cache=use_cache))

    if delay > 0:
        state.debounce = loop.call_later(delay, start)
    else:
        start()


async def verify_document(ls: CbamServer, uri: str, entry: str | None = None, use_cache: bool = True) -> None:
    state = ls.docs.setdefault(uri, DocState(uri))
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
            publish_message(ls, state, f"cbam cannot read this file: {exc.strerror}", lsp.DiagnosticSeverity.Error)
            return
        version = state.version
    if len(text.encode("utf-8", "replace")) > MAX_FILE_BYTES:
        publish_message(ls, state, f"cbam skips this file: it is larger than {MAX_FILE_BYTES // 1_000_000} MB.",
                        lsp.DiagnosticSeverity.Information, version)
        return
    if "\0" in text[:65536]:
        publish_message(ls, state, "cbam skips this file: it looks binary, not C.", lsp.DiagnosticSeverity.Warning,
                        version)
        return
    settings = ls.merged_settings(path)
    job_id = next(ls.job_ids)
    state.job_id = job_id
    state.status = "verifying"
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
        job = Job(uri, path, text, version, settings, entry=entry, use_cache=use_cache, id=job_id)
        limit = float(settings.get("timeout", 30)) * 4 + 30  # several entry points may run
        outcome = await loop.run_in_executor(None, worker.run, job, on_progress, limit)
    except asyncio.CancelledError:
        worker.cancel(job_id)
        raise
    finally:
        progress_task.cancel()
        if progress["begun"]:
            ls.work_done_progress.end(token, lsp.WorkDoneProgressEnd(message="done"))
        ls.token_jobs.pop(token, None)
    if state.job_id != job_id:
        return  # a newer trigger owns this document now
    state.job_id = None
    current = ls.docs.get(uri)
    if current is None:
        return
    if current.version is not None and version is not None and current.version > version:
        return  # the document changed meanwhile: never show stale results as current
    publish_outcome(ls, state, outcome, version)


# ---- diagnostics ------------------------------------------------------------------------
def to_range(r: dict[str, Any] | None) -> lsp.Range:
    if not r:
        return lsp.Range(lsp.Position(0, 0), lsp.Position(0, 1))
    return lsp.Range(lsp.Position(max(0, r["start"]["line"] - 1), max(0, r["start"]["column"] - 1)),
                     lsp.Position(max(0, r["end"]["line"] - 1), max(0, r["end"]["column"] - 1)))


def publish_message(ls: CbamServer, state: DocState, message: str, severity: lsp.DiagnosticSeverity,
                    version: int | None = None) -> None:
    diag = lsp.Diagnostic(range=to_range(None), message=message, severity=severity, source="cbam")
    ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=state.uri, diagnostics=[diag],
                                                                      version=version))


def publish_outcome(ls: CbamServer, state: DocState, outcome: JobOutcome, version: int | None) -> None:
    if outcome.status == "cancelled":
        return
    diags: list[lsp.Diagnostic] = []
    if outcome.status in ("crashed", "timeout"):
        state.status = "unknown"
        msg = ("cbam's analysis worker failed and was restarted: " + outcome.error.strip().splitlines()[-1]
               if outcome.status == "crashed" else f"cbam: {outcome.error}")
        diags.append(lsp.Diagnostic(range=to_range(None), message=msg, severity=lsp.DiagnosticSeverity.Warning,
                                    source="cbam"))
        ls.window_show_message(lsp.ShowMessageParams(lsp.MessageType.Warning, msg))
    elif "frontend_errors" in outcome.payload:
        state.status = "error"
        for fe in outcome.payload["frontend_errors"]:
            if os.path.realpath(fe["file"]) != os.path.realpath(uri_to_path(state.uri)):
                message = f"{fe['file']}:{fe['line']}:{fe['col']}: {fe['message']}"
                rng = to_range(None)
            else:
                message = fe["message"]
                line, col = max(0, fe["line"] - 1), max(0, fe["col"] - 1)
                rng = lsp.Range(lsp.Position(line, col), lsp.Position(line, col + 1))
            diags.append(lsp.Diagnostic(range=rng, message=message, severity=lsp.DiagnosticSeverity.Error,
                                        source="cbam"))
    else:
        payload = outcome.payload
        result = payload["result"]
        state.result = result
        state.functions = payload.get("functions", [])
        state.status = {"TRUE": "verified", "FALSE": "violation"}.get(result["verdict"], "unknown")
        cached = result.get("source") == "cache"
        tag = " [cached]" if cached else ""
        for w in payload.get("warnings", []):
            if w.get("range"):
                diags.append(lsp.Diagnostic(range=to_range(w["range"]), message=w["message"],
                                            severity=lsp.DiagnosticSeverity.Warning, source="cbam"))
        for v in result.get("violations", []):
            diags.append(violation_diagnostic(ls, state, v, tag))
        if result["verdict"] == "UNKNOWN":
            where = result.get("unsupported") or result.get("reason_range")
            reason = result["reason"]
            severity = lsp.DiagnosticSeverity.Warning
            if reason == "timeout":
                severity = lsp.DiagnosticSeverity.Information
                reason = f"timeout after {ls.settings.get('timeout')} s: nothing proven, nothing refuted"
            diags.append(lsp.Diagnostic(range=to_range(where), message=f"cbam could not decide: {reason}{tag}",
                                        severity=severity, source="cbam", code="unknown",
                                        data={"cached": cached}))
    ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=state.uri, diagnostics=diags,
                                                                      version=version))
    caps = ls.client_capabilities
    if caps.workspace and caps.workspace.code_lens and caps.workspace.code_lens.refresh_support:
        ls.workspace_code_lens_refresh(None)


def violation_diagnostic(ls: CbamServer, state: DocState, v: dict[str, Any], tag: str) -> lsp.Diagnostic:
    related: list[lsp.DiagnosticRelatedInformation] = []
    lines: list[str] = []
    for step in v.get("path", []):
        if step["kind"] == "error":
            continue
        rng = step.get("range")
        uri = path_to_uri(rng["file"]) if rng else state.uri
        related.append(lsp.DiagnosticRelatedInformation(lsp.Location(uri, to_range(rng)), step["message"]))
        where = f"line {rng['start']['line']}" if rng else "input"
        if rng and os.path.realpath(rng["file"]) != os.path.realpath(uri_to_path(state.uri)):
            where = f"{os.path.basename(rng['file'])}:{rng['start']['line']}"
        lines.append(f"  {where}: {step['message']}")
    message = v["message"] + tag
    if not ls.related_support and lines:
        message += "\nerror path:\n" + "\n".join(lines)
    return lsp.Diagnostic(range=to_range(v.get("range")), message=message, severity=lsp.DiagnosticSeverity.Error,
                          source="cbam", code=v.get("kind"),
                          related_information=related if ls.related_support else None,
                          data={"inputs": v.get("inputs", []), "cached": bool(tag)})


# ---- hover and code lens -------------------------------------------------------------------
def _contains(r: dict[str, Any] | None, pos: lsp.Position) -> bool:
    if not r:
        return False
    start = (r["start"]["line"] - 1, r["start"]["column"] - 1)
    end = (r["end"]["line"] - 1, r["end"]["column"] - 1)
    return start <= (pos.line, pos.character) < end


def function_at(state: DocState, pos: lsp.Position) -> dict[str, Any] | None:
    for f in state.functions:
        if _contains(f.get("name_range"), pos):
            return f
    for f in state.functions:
        for c in f["calls"]:
            r = c["range"]
            if _contains(r, pos):
                # Only the callee's name, not its arguments.
                end_col = r["start"]["column"] + len(c["callee"])
                if r["start"]["line"] - 1 == pos.line and pos.character < end_col - 1:
                    target = next((g for g in state.functions if g["name"] == c["callee"]), None)
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
    text = format_hover(f, state.result, ls.summaries.blocks(ls.settings.get("cacheDir"), f.get("key")))
    return lsp.Hover(contents=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=text))


def function_status(state: DocState, f: dict[str, Any]) -> str:
    result = state.result
    if result is None:
        return "verifying…" if state.status == "verifying" else "not analysed"
    if f.get("unsupported"):
        return "unsupported"
    if not f.get("reachable"):
        return "not analysed"
    names = {v.get("function") for v in result.get("violations", [])}
    names |= {s.get("function") for v in result.get("violations", []) for s in v.get("path", [])
              if s.get("kind") == "error"}
    if f["name"] in names:
        return "violation"
    if result["verdict"] == "TRUE":
        return "verified"
    if result["verdict"] == "FALSE":
        # With several violations allowed, the search only stops early when it says so.
        stopped = any(w.startswith("search stopped early") for w in result.get("warnings", []))
        return "unknown" if stopped else "verified"
    return "unknown"


@server.feature(lsp.TEXT_DOCUMENT_CODE_LENS)
def code_lens(ls: CbamServer, params: lsp.CodeLensParams) -> list[lsp.CodeLens]:
    state = ls.docs.get(params.text_document.uri)
    if state is None:
        return []
    lenses = []
    cached = state.result is not None and state.result.get("source") == "cache"
    icons = {"verified": "✓ verified", "violation": "✗ violation", "unknown": "? unknown",
             "not analysed": "not analysed", "unsupported": "? unsupported construct", "verifying…": "verifying…"}
    for f in state.functions:
        if not f.get("name_range"):
            continue
        st = function_status(state, f)
        title = icons.get(st, st) + (" (cached)" if cached and st in ("verified", "violation", "unknown") else "")
        lenses.append(lsp.CodeLens(range=to_range(f["name_range"]), command=lsp.Command(
            title=f"cbam: {title} — Verify", command="cbam.verifyFunction",
            arguments=[params.text_document.uri, f["name"]])))
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
    from cbam.engine.cache.store import CacheStore

    def clear() -> int:
        store = CacheStore(ls.settings.get("cacheDir") or None)
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
        raise
    result = state.result if state else None
    return {"verdict": result["verdict"] if result else None, "status": state.status if state else None}


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
        publish_message(ls, state, "cbam: verification cancelled", lsp.DiagnosticSeverity.Information,
                        state.version)


def main(argv: list[str] | None = None) -> int:
    import argparse

    ap = argparse.ArgumentParser(prog="cbam lsp", description="cbam's language server")
    ap.add_argument("--tcp", metavar="HOST:PORT", help="listen on TCP instead of stdio")
    ap.add_argument("--stdio", action="store_true", help="use stdio (the default)")
    args = ap.parse_args(argv)
    if args.tcp:
        host, _, port = args.tcp.rpartition(":")
        server.start_tcp(host or "127.0.0.1", int(port))
    else:
        server.start_io()
    return 0
