"""The language server's feature handlers (pygls 2, lsprotocol), started by ``cbam lsp`` (lsp.py):
a thin layer over the engine's API. The server object and document state are in state.py,
when and how a document is verified in scheduling.py, what a result looks like as
diagnostics in diagnostics.py.

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
import logging
import os
import sys
from typing import Any

from cbam.engine.api import load_compile_commands
from lsprotocol import types as lsp

from cbam import __version__

from .codes import Code
from .diagnostics import function_at, in_document, lens_title, message_diagnostic, to_range, uri_to_path
from .scheduling import cancel_job, doc_status, notify_status, publish, schedule
from .settings import SECTION, validate
from .state import C_EXTENSIONS, STATUS_CAPABILITY, CbamServer, DocState, DocStatus, server
from .summaries import format_hover
from .worker import Worker


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
        # The open files whose programs link this one (linkProject) see the saved text too.
        saved = os.path.realpath(uri_to_path(params.text_document.uri))
        for uri in list(ls.docs):
            if uri != params.text_document.uri and any(u.path == saved for u in ls.units_for(uri_to_path(uri))):
                schedule(ls, uri)


@server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: CbamServer, params: lsp.DidCloseTextDocumentParams) -> None:
    state = ls.docs.pop(params.text_document.uri, None)
    if state is not None:
        cancel_job(ls, state)
    w = ls.workers.pop(params.text_document.uri, None)
    if w is not None:
        w.shutdown()
    ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=params.text_document.uri, diagnostics=[]))


# ---- hover and code lens -------------------------------------------------------------------
@server.feature(lsp.TEXT_DOCUMENT_HOVER)
def hover(ls: CbamServer, params: lsp.HoverParams) -> lsp.Hover | None:
    state = ls.docs.get(params.text_document.uri)
    if state is None:
        return None
    f = function_at(state.functions, params.position, state.uri)
    if f is None:
        return None
    # The summaries are read from the cache the result came from, whatever the settings say now,
    # once the worker has written them (it writes after sending the answer).
    worker = ls.workers.get(state.uri)
    if worker is not None:
        worker.wait_written()
    blocks = ls.summaries.blocks(state.cache_dir, f.key) if state.cache_dir is not None else None
    text = format_hover(f, state.result, blocks, cache_off=state.result is not None and state.cache_dir is None)
    return lsp.Hover(contents=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=text))


@server.feature(lsp.TEXT_DOCUMENT_CODE_LENS)
def code_lens(ls: CbamServer, params: lsp.CodeLensParams) -> list[lsp.CodeLens]:
    state = ls.docs.get(params.text_document.uri)
    if state is None:
        return []
    lenses = []
    status = doc_status(state)
    cached = state.result is not None and state.result.source == "cache"
    for f in state.functions:
        if not in_document(f.name_range, state.uri):  # a header's, or another file's of the program
            continue
        title = lens_title(f.status, status == DocStatus.VERIFYING, status == DocStatus.OUTDATED, cached)
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
    # A job's answers arrive on an executor thread and are published from the event loop; with
    # the default 5 ms switch interval the loop waited that long for the interpreter lock after
    # every hand-over (measured: 5 ms between a violation's arrival and its publication). The
    # server's threads only hand data over, so switching more often costs nothing measurable.
    sys.setswitchinterval(0.0005)
    try:
        if tcp:
            host, _, port = tcp.rpartition(":")
            server.start_tcp(host or "127.0.0.1", int(port))
        else:
            server.start_io()
    finally:
        server.shutdown_workers()
