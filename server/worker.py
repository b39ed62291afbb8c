"""Analysis worker processes for the language server.

The server never analyses on its event loop. Each job runs in a worker process; a newer
trigger for the same document kills the worker (which really stops the work), a crash or
hang is noticed, and a fresh worker takes its place. A worker imports the engine as soon as
it starts, so one started ahead of need (see lsp.py) answers its first job without that cost.
"""

from __future__ import annotations

import multiprocessing
import threading
import time
import traceback
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any

from .settings import Settings


@dataclass(frozen=True)
class CompileFlags:
    """What compile_commands.json says for one file (only these flags are ever taken)."""

    include_paths: tuple[str, ...] = ()
    defines: tuple[str, ...] = ()
    undefines: tuple[str, ...] = ()
    force_includes: tuple[str, ...] = ()
    std: str | None = None


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


@dataclass
class JobOutcome:
    status: str  # "done" | "cancelled" | "crashed" | "timeout"
    payload: dict[str, Any] = field(default_factory=dict)
    error: str = ""


def worker_main(conn: Connection) -> None:
    # The engine's imports (pycparser, z3, the analyses) cost about half a second: paid here,
    # before the first job arrives, not after.
    try:
        import cbam.engine.cache.store  # noqa: F401
        import cbam.engine.cfa.load  # noqa: F401
        import cbam.engine.verify  # noqa: F401
        import z3  # noqa: F401
    except Exception:
        # An installation that cannot run the engine: each job is answered with why, rather
        # than by a worker that dies and says nothing.
        broken: str | None = traceback.format_exc(limit=8)
    else:
        broken = None
    stores: dict = {}
    while True:
        try:
            job: Job = conn.recv()
        except (EOFError, OSError):
            return
        if job is None:
            return
        if broken is not None:
            conn.send(("error", job.id, broken))
            continue
        _run_job(conn, job, stores)


def _run_job(conn: Connection, job: Job, stores: dict) -> None:
    from cbam.engine.cache.store import CacheStore
    from cbam.engine.cfa.load import load_program
    from cbam.engine.frontend.errors import FrontendError
    from cbam.engine.frontend.preprocess import PreprocessOptions, preprocess
    from cbam.engine.limits import limit_memory
    from cbam.engine.verify import VerifyOptions, run_deep, verify_program

    s = job.settings
    limit_memory(s.memory_limit_mb)  # a soft limit: a later job may raise it again
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
    try:
        flags = job.flags
        pp = PreprocessOptions(include_paths=[*s.include_paths, *flags.include_paths],
                               defines=[*s.defines, *flags.defines], undefines=list(flags.undefines),
                               force_includes=list(flags.force_includes), std=flags.std, data_model=s.data_model)
        # Preprocessed apart from parsing, so that a failure says which of the two it was.
        preprocessed = preprocess(job.path, job.text, pp)
        phase = "parse"
        program = load_program(job.path, text=job.text, options=pp, entry="main", preprocessed=preprocessed)
        phase = "analysis"
        entries = [job.entry] if job.entry else list(s.entry_points) or auto_entries(program)
        store = None
        if job.use_cache and s.cache:
            if s.cache_dir not in stores:
                stores[s.cache_dir] = CacheStore(s.cache_dir)
            store = stores[s.cache_dir]
        results = []
        functions = None
        for entry in entries:
            prog = program if entry == "main" else load_program(job.path, text=job.text, options=pp, entry=entry,
                                                                 preprocessed=preprocessed)
            opts = VerifyOptions(config=s.config, predicate_theory=s.predicate_theory, timeout=float(s.timeout),
                                 max_violations=s.max_violations, cache=store, harness=False, cancel=progress,
                                 extra_search_after_violation=float(s.extra_search_seconds))
            result = run_deep(lambda p=prog, o=opts: verify_program(p, o))
            data = result.to_json()
            if entry != "main":
                for v in data["violations"]:
                    v["message"] += f" (entry {entry}, with arbitrary arguments)"
            results.append(data)
            table = _function_table(prog, store, result)
            if functions is None:
                functions = table
            else:  # a function is reachable if some entry reaches it
                for f, g in zip(functions, table):
                    f["reachable"] = f["reachable"] or g["reachable"]
        payload = {"result": merge_results(results, entries), "functions": functions or [],
                   "entries": entries, "cacheDir": str(store.dir) if store is not None else None,
                   "warnings": [{"message": d.message, "range": d.range.to_json() if d.range else None}
                                for d in program.diagnostics]}
        conn.send(("done", job.id, payload))
    except FrontendError as exc:
        conn.send(("done", job.id, {"frontend_errors": [
            {"message": d.message, "file": d.file, "line": d.line, "col": d.col} for d in exc.diagnostics],
            "phase": phase}))
    except MemoryError:
        conn.send(("done", job.id, {"result": {"verdict": "UNKNOWN", "reason": "memory limit reached",
                                               "reason_kind": "memory", "violations": []}}))
    except Exception:  # a bug in the engine: report it, keep the worker
        conn.send(("error", job.id, traceback.format_exc(limit=8)))


def auto_entries(program) -> list[str]:
    """main when there is one; otherwise every function no other function calls."""
    if "main" in program.functions:
        return ["main"]
    called = set().union(*(f.calls for f in program.functions.values())) if program.functions else set()
    roots = [name for name in program.functions if name not in called]
    return roots or list(program.functions)[:1] or ["main"]


def merge_results(results: list[dict[str, Any]], entries: list[str]) -> dict[str, Any]:
    if len(results) == 1:
        return results[0]
    verdicts = [r["verdict"] for r in results]
    verdict = "FALSE" if "FALSE" in verdicts else "UNKNOWN" if "UNKNOWN" in verdicts else "TRUE"
    merged = dict(results[0])
    merged["verdict"] = verdict
    merged["reason"] = "; ".join(f"{e}: {r['reason']}" for e, r in zip(entries, results) if r.get("reason"))
    merged["violations"] = [v for r in results for v in r["violations"]]
    merged["warnings"] = [w for r in results for w in r.get("warnings", [])]
    merged["source"] = "cache" if all(r.get("source") == "cache" for r in results) else "fresh"
    merged["search_cut_short"] = any(r.get("search_cut_short") for r in results)
    merged["reason_kind"] = next((r["reason_kind"] for r in results if r.get("reason_kind")), "")
    for key in ("unsupported", "reason_range"):
        merged[key] = next((r[key] for r in results if r.get(key)), None)
    return merged


def _function_table(program, store, result) -> list[dict[str, Any]]:
    """What the editor needs without re-parsing: where each function is, what it calls,
    and the key of its block summaries in the cache."""
    keys = result.function_keys if store is not None else {}  # the run's own keys, never re-derived
    reach = program.callgraph.reachable(program.start.name)
    out = []
    for f in program.functions.values():
        calls = []
        for e in f.edges():
            callee = getattr(e, "callee", None)
            if callee and e.range is not None:
                calls.append({"callee": callee, "range": e.range.to_json()})
        out.append({"name": f.name, "range": f.range.to_json() if f.range else None,
                    "name_range": f.name_range.to_json() if f.name_range else None,
                    "fingerprint": f.fingerprint, "key": keys.get(f.name), "reachable": f.name in reach,
                    "params": [program.vars[p].name.split("::", 1)[1] for p in f.params],
                    "unsupported": f.unsupported[0] if f.unsupported else None,
                    "calls": calls})
    return out


class Worker:
    """One analysis process; ``run`` blocks (call it from a thread, not the event loop)."""

    def __init__(self) -> None:
        self.proc: multiprocessing.Process | None = None
        self.conn: Connection | None = None
        self.lock = threading.Lock()
        self.current: int | None = None
        # Jobs killed on purpose: their end is a cancellation, not a crash. A set, not the
        # last id, because the next job may start before the killed one notices its end.
        self._killed: set[int] = set()

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
        self.proc = ctx.Process(target=worker_main, args=(child,), daemon=True, name="cbam-worker")
        self.proc.start()
        child.close()
        self.conn = parent

    def run(self, job: Job, on_progress, time_limit: float) -> JobOutcome:
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
