"""When a document is verified, and what is published: one job per document at a time (a new
trigger cancels the old one), results only for the text they were computed on, and the
document's status (cbam/status) whenever it changes."""

from __future__ import annotations

import asyncio
import os
import time

from lsprotocol import types as lsp

from .codes import Code
from .diagnostics import frontend_diagnostics, message_diagnostic, result_diagnostics, uri_to_path
from .settings import Settings
from .state import MAX_FILE_BYTES, STATUS_NOTIFICATION, CbamServer, DocState, DocStatus
from .worker import Job, JobOutcome, Rejected, Verified


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
    state.partial = None
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
    progress = {"begun": False, "states": 0, "found": 0}
    loop = asyncio.get_running_loop()
    started = time.monotonic()

    async def maybe_begin_progress() -> None:
        await asyncio.sleep(0.5)
        if not ls.progress_support or state.job_id != job_id:
            return
        try:
            # Shielded: a job that ends while the client answers cancels this task, and a
            # cancelled request future makes pygls fail on the late answer ("Unable to handle
            # message"), which the client logs as an error.
            await asyncio.shield(ls.work_done_progress.create_async(token))
        except Exception:
            return
        ls.token_jobs[token] = (uri, job_id)
        ls.work_done_progress.begin(token, lsp.WorkDoneProgressBegin(
            title="cbam: verifying", message=os.path.basename(path), cancellable=True))
        progress["begun"] = True

    progress_task = loop.create_task(maybe_begin_progress())

    def progress_message() -> str:
        n = progress["found"]
        found = f"; {n} violation{'s' if n != 1 else ''} found, searching for more" if n else ""
        return f"{os.path.basename(path)}: {time.monotonic() - started:.0f} s{found}"

    def on_progress(states: int) -> None:
        progress["states"] = states
        if progress["begun"]:
            loop.call_soon_threadsafe(ls.work_done_progress.report, token,
                                      lsp.WorkDoneProgressReport(message=progress_message()))

    def show_partial(answer: Verified) -> None:
        if not current(ls, state, job_id, version):
            return
        publish_verified(ls, state, answer, version, settings, partial=True)
        refresh_code_lenses(ls)
        progress["found"] = len(answer.report.result.violations)
        if progress["begun"]:
            ls.work_done_progress.report(token, lsp.WorkDoneProgressReport(message=progress_message()))

    def on_partial(answer: Verified) -> None:
        # The first violation is shown the moment it is confirmed; the search goes on.
        loop.call_soon_threadsafe(show_partial, answer)

    try:
        job = Job(uri, path, text, version, settings, entry=entry, use_cache=use_cache, id=job_id,
                  flags=ls.flags_for(path), units=ls.units_for(path))
        limit = float(settings.timeout) * 4 + 30  # several entry points may run
        outcome = await loop.run_in_executor(None, worker.run, job, on_progress, limit, on_partial)
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
    if not current(ls, state, job_id, version):
        return
    publish_outcome(ls, state, outcome, version, text, settings)


def current(ls: CbamServer, state: DocState, job_id: int, version: int | None) -> bool:
    """Whether what job ``job_id`` computed on ``version`` may still be shown: no newer trigger,
    the document still open, and its text unchanged (stale results never look current)."""
    if state.generation != job_id or ls.docs.get(state.uri) is not state:
        return False
    return not (state.version is not None and version is not None and state.version > version)


def publish(ls: CbamServer, state: DocState, diags: list[lsp.Diagnostic], version: int | None) -> None:
    state.published_version = version if version is not None else state.version
    ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=state.uri, diagnostics=diags,
                                                                      version=version))


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
        state.result = None
        state.functions = []
        diags = frontend_diagnostics(outcome.answer.diagnostics, outcome.answer.phase, state.uri, text)
    elif isinstance(outcome.answer, Verified):
        publish_verified(ls, state, outcome.answer, version, settings)
        return
    # The lenses are refreshed when the document's status becomes "done" (verify_document), once.
    publish(ls, state, diags, version)


def publish_verified(ls: CbamServer, state: DocState, answer: Verified, version: int | None,
                     settings: Settings, partial: bool = False) -> None:
    report = answer.report
    state.result = report.result
    state.functions = report.functions
    state.cache_dir = answer.cache_dir
    diags = result_diagnostics(report, state.uri, ls.related_support, settings.timeout)
    shown, state.partial = state.partial, (version, diags) if partial else None
    if shown == (version, diags):
        # The search found nothing more, or a violation streamed by the search is shown again
        # as its replay begins: the client already has exactly this.
        return
    publish(ls, state, diags, version)
