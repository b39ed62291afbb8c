"""Analysis worker processes for the language server.

The server never analyses on its event loop. Each job runs in a worker process; a newer
trigger for the same document kills the worker (which really stops the work), a crash or
hang is noticed, and a fresh worker takes its place. A worker imports the engine as soon as
it starts, so one started ahead of need (see lsp.py) answers its first job without that cost.
"""

from __future__ import annotations

import gc
import multiprocessing
import os
import threading
import time
import traceback
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from multiprocessing.connection import Connection
from typing import Any

from cbam.engine.api import CompileFlags, Unit

from .settings import Settings


@dataclass
class Job:
    uri: str
    path: str
    text: str
    version: int | None
    settings: Settings
    entry: str | None = None  # None: the configured entry points, else main, else every uncalled function
    use_cache: bool = True
    id: int = 0
    flags: CompileFlags = field(default_factory=CompileFlags)
    units: tuple[Unit, ...] = ()  # the program's other translation units (linkProject)


@dataclass
class Verified:
    """A job's answer: the engine's report of the file, and the cache that produced it (hover
    reads its summaries there, whatever the settings say by then)."""

    report: Any  # engine.report_file.FileReport (typed; the engine is not imported here)
    cache_dir: str | None
    # The same job gets exactly this answer again while the headers the preprocessor read are
    # as they were then (``headers``: their modification time and size; the source's text is
    # the job's): a complete result, which the engine's cache keys.
    repeatable: bool = False
    headers: dict[str, tuple[int, int]] = field(default_factory=dict)


@dataclass
class Rejected:
    """The file did not get to the analysis: the front end's diagnostics, and the phase."""

    diagnostics: list[Any]  # engine.frontend.errors.Diagnostic
    phase: str  # "preprocess" | "parse"


@dataclass
class JobOutcome:
    status: str  # "done" | "cancelled" | "crashed" | "timeout"
    answer: Verified | Rejected | None = None
    error: str = ""


def worker_main(conn: Connection, writing: Any = None) -> None:
    """``writing``: a shared flag, set while what a job wrote to the cache waits to be written
    after an answer was sent (Worker.wait_written)."""
    # The engine's imports (pycparser, z3, the analyses) cost about half a second: paid here,
    # before the first job arrives, not after.
    try:
        from cbam.engine import api

        api.warm_up()
    except Exception:
        # An installation that cannot run the engine: each job is answered with why, rather
        # than by a worker that dies and says nothing.
        broken: str | None = traceback.format_exc(limit=8)
    else:
        broken = None
    stores: dict = {}
    settled = _settle_memory()
    while True:
        if not conn.poll(_IDLE_SECONDS):
            if broken is None:
                api.release_leftovers(stop=lambda: conn.poll(0))
            settled = _settle_memory()
        try:
            job: Job = conn.recv()
        except (EOFError, OSError):
            return
        if job is None:
            return
        if broken is not None:
            conn.send(("error", job.id, broken))
            continue
        _run_job(conn, job, stores, writing)
        # A search cut by its limit, freed now that its answer is sent: in steps, so that a job
        # saved meanwhile does not wait for it; what it leaves goes on after that job
        # (engine/release.py).
        if not api.release_leftovers(stop=lambda: conn.poll(0)):
            continue
        if gc.get_freeze_count() - settled > _UNSETTLED_MAX:
            gc.unfreeze()  # jobs back to back for long: the collector sees everything again
        else:
            gc.freeze()
        for store in stores.values():
            # The next edit looks up the blocks this job wrote: decode them now, unless a job waits.
            if not store.predecode(stop=lambda: conn.poll(0)):
                break
        if broken is None and not conn.poll(0):
            api.prepare_next_run()


# Python's full collections scan every object that survived the earlier ones: the engine, and
# the caches an edit reuses. On bench's 100-function program each costs 30-50 ms, a quarter of an
# edit's re-verification. So after each job everything alive is frozen (moved out of the
# collector's sight, which costs nothing), and the full collection that frees the garbage among
# it waits until the worker is idle. (A job leaves little cyclic garbage: on that program, a
# dozen objects of 57,000 frozen.) Never while a job waits: that would be 12 ms on its latency.
_IDLE_SECONDS = 1.0
_UNSETTLED_MAX = 1_000_000  # objects frozen since the last idle collection


def _settle_memory() -> int:
    """Collect the earlier jobs' garbage while nothing waits (frozen objects are still freed by
    reference counting, cycles among them only here), then freeze what survives; how many."""
    gc.unfreeze()
    gc.collect()
    gc.freeze()
    return gc.get_freeze_count()


_MTIME_MARGIN_NS = 50_000_000


class _Answers:
    """The last answer per document, with what it was computed from: the text, the settings,
    the compile flags, the program's other files (and the editor's text of the open ones), and
    the size and modification time of every header the preprocessor read. A job with all of them unchanged (a save without an edit) gets that answer again
    without a round trip to the worker process: it is exactly what a new run would compute."""

    def __init__(self) -> None:
        self._by_uri: dict[str, tuple[tuple, Verified]] = {}

    @staticmethod
    def _key(job: Job) -> tuple:
        # The program's other files count with their text: an open one's unsaved edits are not on disk.
        return (job.path, job.text, repr(job.settings), job.flags, job.entry, job.units)

    def get(self, job: Job) -> Verified | None:
        """The last answer, marked as coming from the cache (nothing was computed for it)."""
        got = self._by_uri.get(job.uri)
        if got is None or not job.use_cache or got[0] != self._key(job) or _stats(got[1].headers) != got[1].headers:
            return None
        report = got[1].report
        return replace(got[1], report=replace(report, result=replace(report.result, source="cache")))

    def put(self, job: Job, answer: Verified) -> None:
        if answer.repeatable:
            self._by_uri[job.uri] = (self._key(job), answer)


def _stat(path: str) -> tuple[int, int]:
    try:
        st = os.stat(path)
    except OSError:
        return (-1, -1)
    return (st.st_mtime_ns, st.st_size)


def _stats(files: Iterable[str]) -> dict[str, tuple[int, int]]:
    return {f: _stat(f) for f in files}


def _answer(conn: Connection, message: tuple, store: Any, writing: Any) -> None:
    """Send an answer, then write what the run wrote so far (write-behind: the cache's encoding
    and commit are not on the answer's time; a hover waits for them, Worker.wait_written)."""
    if writing is not None:
        writing.value = 1
    try:
        conn.send(message)
    except (BrokenPipeError, OSError):
        pass
    finally:
        if store is not None:
            store.write_pending()
        if writing is not None:
            writing.value = 0


def _run_job(conn: Connection, job: Job, stores: dict, writing: Any = None) -> None:
    from cbam.engine import api

    s = job.settings
    api.limit_memory(s.memory_limit_mb)  # a soft limit: a later job may raise it again
    last = [0.0]

    def progress() -> bool:
        now = time.monotonic()
        if now - last[0] > 0.25:
            last[0] = now
            try:
                conn.send(("progress", job.id, 0))
            except (BrokenPipeError, OSError):
                pass
        return False  # progress ticks ride on the cancellation poll; cancelling kills the process

    phase = "preprocess"
    store = None
    try:
        flags = job.flags
        pp = flags.options(s.data_model, s.include_paths, s.defines)
        # Preprocessed apart from parsing, so that a failure says which of the two it was.
        started = time.time_ns()
        if job.units:  # one program of the project's files: the others count as its headers do
            preprocessed = api.link([api.Unit(job.path, pp, job.text), *job.units])
        else:
            preprocessed = api.preprocess(job.path, job.text, pp)
        headers = _stats(f for f in api.source_files(preprocessed) if f != job.path)
        # A header written after the preprocessor started may have been read before or after the
        # write; its stat then says nothing about what was read (file times lag the clock by up
        # to a tick, hence the margin).
        settled_headers = all(st[0] < started - _MTIME_MARGIN_NS for st in headers.values())
        phase = "parse"
        if job.use_cache and s.cache:
            if s.cache_dir not in stores:
                stores[s.cache_dir] = api.open_cache(s.cache_dir, write_behind=True)
            store = stores[s.cache_dir]
        opts = s.verify_options(cache=store, cancel=progress)
        if job.units and opts.replay is not None:
            opts = opts._replace(replay=opts.replay._replace(units=job.units))
        entries = [job.entry] if job.entry else list(s.entry_points) or None
        cache_dir = str(store.dir) if store is not None else None

        def partial(report: Any) -> None:
            _answer(conn, ("partial", job.id, Verified(report, cache_dir)), store, writing)

        report = api.verify_entries(job.path, text=job.text, preprocess=pp, entries=entries, options=opts,
                                    preprocessed=preprocessed, on_partial=partial,
                                    entry_file=job.path if job.units else None)
        r = report.result
        repeatable = settled_headers and not r.partial and r.cache_key is not None
        _answer(conn, ("done", job.id, Verified(report, cache_dir, repeatable, headers)), store, writing)
    except api.FrontendError as exc:
        _answer(conn, ("done", job.id, Rejected(list(exc.diagnostics), phase)), store, writing)
    except MemoryError:
        api.release_leftovers()
        gc.unfreeze()  # collect now, not when idle: the next job must not start short of memory
        gc.collect()
        report = api.unknown_report("memory limit reached", "memory")
        _answer(conn, ("done", job.id, Verified(report, str(store.dir) if store is not None else None)), store,
                writing)
    except Exception:  # a bug in the engine: report it, keep the worker
        _answer(conn, ("error", job.id, traceback.format_exc(limit=8)), store, writing)


class Worker:
    """One analysis process; ``run`` blocks (call it from a thread, not the event loop)."""

    def __init__(self) -> None:
        self.proc: multiprocessing.process.BaseProcess | None = None
        self.conn: Connection | None = None
        self.lock = threading.Lock()
        self.current: int | None = None
        # Jobs killed on purpose: their end is a cancellation, not a crash. A set, not the
        # last id, because the next job may start before the killed one notices its end.
        self._killed: set[int] = set()
        self.answers = _Answers()
        self.writing: Any = None  # the process's write-behind flag (worker_main)

    def start(self) -> Worker:
        """Start the process now (it imports the engine while nothing waits for it)."""
        with self.lock:
            self._ensure()
        return self

    def _ensure(self) -> None:
        if self.proc is not None and self.proc.is_alive():
            return
        ctx = multiprocessing.get_context("spawn")
        parent, child = ctx.Pipe()
        self.writing = ctx.RawValue("b", 0)
        self.proc = ctx.Process(target=worker_main, args=(child, self.writing), daemon=True, name="cbam-worker")
        self.proc.start()
        child.close()
        self.conn = parent

    def run(self, job: Job, on_progress, time_limit: float, on_partial=None) -> JobOutcome:
        """``on_progress(states)``: a tick while the job runs; ``on_partial(Verified)``: a violation
        confirmed while the search for further ones goes on (called on this thread)."""
        repeated = self.answers.get(job)
        if repeated is not None:  # a save without an edit: not even a round trip to the process
            return JobOutcome("done", repeated)
        outcome = self._run(job, on_progress, time_limit, on_partial)
        if isinstance(outcome.answer, Verified):
            self.answers.put(job, outcome.answer)
        return outcome

    def wait_written(self, timeout: float = 0.25) -> None:
        """Until what the process's last answer came with is in the cache (the summaries a hover
        reads): a few milliseconds after the answer (at most 100 rows wait), and never longer
        than ``timeout``, since the caller is the server's event loop (a cache another process
        keeps locked must not freeze the editor)."""
        writing, proc = self.writing, self.proc
        deadline = time.monotonic() + timeout
        while writing is not None and writing.value and time.monotonic() < deadline:
            if proc is None or not proc.is_alive():
                return
            time.sleep(0.001)

    def _run(self, job: Job, on_progress, time_limit: float, on_partial) -> JobOutcome:
        with self.lock:
            self._ensure()
            assert self.conn is not None and self.proc is not None
            self.current = job.id
            self.conn.send(job)
            conn, proc = self.conn, self.proc  # this job's process, whatever later jobs start
        deadline = time.monotonic() + time_limit
        try:
            while True:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    self.kill()
                    return JobOutcome("timeout", error=f"the analysis did not finish within {time_limit:.0f} s")
                if conn.poll(min(0.1, remaining)):
                    try:
                        kind, jid, data = conn.recv()
                    except (EOFError, OSError):
                        return self._gone(job, proc)
                    if jid != job.id:
                        continue
                    if kind == "progress":
                        on_progress(data)
                        continue
                    if kind == "partial":
                        if on_partial is not None:
                            on_partial(data)
                        continue
                    if kind == "error":
                        return JobOutcome("crashed", error=data)
                    return JobOutcome("done", data)
                if not proc.is_alive():
                    return self._gone(job, proc)
        finally:
            with self.lock:
                if self.current == job.id:
                    self.current = None
                self._killed.discard(job.id)

    def _gone(self, job: Job, proc: multiprocessing.process.BaseProcess) -> JobOutcome:
        proc.join(1)  # its pipe closes just before it exits: wait for the exit status
        with self.lock:
            if job.id in self._killed:
                return JobOutcome("cancelled")
            code = proc.exitcode
            if self.proc is proc:  # never forget a newer job's process
                self.proc = None
        return JobOutcome("crashed", error=f"the analysis worker stopped unexpectedly (exit code {code})")

    def cancel(self, job_id: int) -> None:
        with self.lock:
            if self.current == job_id:
                self._killed.add(job_id)
                self._kill_locked()

    def kill(self) -> None:
        with self.lock:
            if self.current is not None:
                self._killed.add(self.current)
            self._kill_locked()

    def _kill_locked(self) -> None:
        if self.proc is not None and self.proc.is_alive():
            self.proc.kill()
            self.proc.join(5)
        self.proc = None

    def shutdown(self) -> None:
        with self.lock:
            if self.conn is not None and self.proc is not None and self.proc.is_alive():
                try:
                    self.conn.send(None)
                except (BrokenPipeError, OSError):
                    pass
                self.proc.join(2)
            self._kill_locked()

    def pid(self) -> int | None:
        return self.proc.pid if self.proc is not None else None
