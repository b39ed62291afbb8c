"""The server's analysis worker: a job killed for a newer one ends as cancelled, and the newer
job's process survives however the two jobs' ends interleave."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import pytest
from cbam.server.settings import validate
from cbam.server.worker import Job, Rejected, Verified, Worker

from tests.programs import SLOW

SAFE = "int main(void) { int x = 1; if (x != 1) { extern void reach_error(void); reach_error(); } return 0; }\n"


def _job(path: Path, text: str, jid: int) -> Job:
    return Job(uri=path.as_uri(), path=str(path), text=text, version=jid, use_cache=False, id=jid,
               settings=validate({"timeout": 120, "config": "value"})[0])


class _SlowToNotice(Worker):
    """Holds a killed job's end until the next job has started: the interleaving that once
    made the next job's process look crashed."""

    def __init__(self) -> None:
        super().__init__()
        self.hold: dict[int, threading.Event] = {}

    def _gone(self, job, *rest):
        if job.id in self.hold:
            self.hold[job.id].wait(30)
        return super()._gone(job, *rest)


def test_cancelled_job_does_not_take_the_next_jobs_process(tmp_path: Path) -> None:
    path = tmp_path / "w.c"
    worker = _SlowToNotice()
    try:
        for round_ in range(2):
            slow_id, safe_id = 10 * round_ + 1, 10 * round_ + 2
            worker.hold[slow_id] = started = threading.Event()
            outcomes: dict[str, object] = {}

            def slow(sid: int = slow_id, outcomes: dict = outcomes) -> None:
                outcomes["slow"] = worker.run(_job(path, SLOW, sid), lambda _: None, 120)

            def watch(sid: int = safe_id, ev: threading.Event = started) -> None:
                deadline = time.monotonic() + 30
                while worker.current != sid and time.monotonic() < deadline:
                    time.sleep(0.005)
                ev.set()

            t = threading.Thread(target=slow)
            t.start()
            deadline = time.monotonic() + 30
            while worker.current != slow_id and time.monotonic() < deadline:
                time.sleep(0.01)
            time.sleep(0.3)  # the slow job is analysing
            worker.cancel(slow_id)
            threading.Thread(target=watch).start()
            safe = worker.run(_job(path, SAFE, safe_id), lambda _: None, 120)
            t.join(30)
            assert outcomes["slow"].status == "cancelled"
            assert safe.status == "done", safe.error
            assert isinstance(safe.answer, Verified)
            assert safe.answer.report.result.verdict == "TRUE"
            assert [(f.name, f.status) for f in safe.answer.report.functions] == [("main", "verified")]
    finally:
        worker.shutdown()


def test_a_worker_that_cannot_import_the_engine_says_why(tmp_path: Path, monkeypatch) -> None:
    """A broken installation answers each job with the import error (it once died silently, and
    the editor said only "the analysis worker stopped unexpectedly (exit code None)")."""
    import multiprocessing
    import sys

    from cbam.server.worker import worker_main

    monkeypatch.setitem(sys.modules, "cbam.engine.verify", None)  # importing it raises ImportError
    parent, child = multiprocessing.Pipe()
    t = threading.Thread(target=worker_main, args=(child,))
    t.start()
    try:
        parent.send(_job(tmp_path / "w.c", SAFE, 7))
        assert parent.poll(30)
        kind, jid, error = parent.recv()
        assert (kind, jid) == ("error", 7)
        assert "cbam.engine.verify" in error and "Error" in error.strip().splitlines()[-1]
    finally:
        parent.send(None)
        t.join(30)


def test_a_syntax_error_is_rejected_with_its_phase(tmp_path: Path) -> None:
    worker = Worker()
    try:
        bad = worker.run(_job(tmp_path / "b.c", "int main(void) { int x = 1 return x; }\n", 1), lambda _: None, 60)
        assert isinstance(bad.answer, Rejected) and bad.answer.phase == "parse"
        [d] = bad.answer.diagnostics
        assert d.line == 1 and "expected" in d.message
        cpp = worker.run(_job(tmp_path / "c.c", '#include "missing.h"\nint main(void) { return 0; }\n', 2),
                         lambda _: None, 60)
        assert isinstance(cpp.answer, Rejected) and cpp.answer.phase == "preprocess"
        assert "missing.h" in cpp.answer.diagnostics[0].message
    finally:
        worker.shutdown()


def test_an_unchanged_job_is_answered_again_until_an_included_file_changes(tmp_path: Path) -> None:
    """A save without an edit: the same text, settings and included files get the same answer
    without running the preprocessor; touching a header the file includes runs it again."""
    header = tmp_path / "limit.h"
    header.write_text("#define LIMIT 3\n")
    src = tmp_path / "m.c"
    text = ('#include "limit.h"\nextern void reach_error(void);\n'
            "int main(void) { int x = LIMIT; if (x > 3) reach_error(); return 0; }\n")
    src.write_text(text)
    settings = validate({"timeout": 60, "config": "value", "cacheDir": str(tmp_path / "cache")})[0]

    def job(jid: int, use_cache: bool = True) -> Job:
        return Job(uri=src.as_uri(), path=str(src), text=text, version=jid, use_cache=use_cache, id=jid,
                   settings=settings)

    worker = Worker()
    try:
        first = worker.run(job(1), lambda _: None, 60)
        assert isinstance(first.answer, Verified) and first.answer.report.result.verdict == "TRUE"
        run = worker._run
        worker._run = lambda *a: pytest.fail("an unchanged job was sent to the worker process")  # type: ignore[method-assign]
        again = worker.run(job(2), lambda _: None, 60)
        worker._run = run  # type: ignore[method-assign]
        assert again.answer.report.result.source == "cache"  # and says so: nothing was computed
        assert {**again.answer.report.result.to_json(), "source": "fresh"} == first.answer.report.result.to_json()
        header.write_text("#define LIMIT 4\n")
        changed = worker.run(job(3), lambda _: None, 60)
        assert changed.answer.report.result.verdict == "FALSE"  # the header's new value is seen
        fresh = worker.run(job(4, use_cache=False), lambda _: None, 60)  # "re-verify": never the memo
        assert fresh.answer.report.result.verdict == "FALSE" and fresh.answer.report.result.source == "fresh"
    finally:
        worker.shutdown()


def test_an_answer_is_not_repeated_when_a_header_may_have_changed_while_it_was_read(tmp_path: Path) -> None:
    """A header written after the preprocessor started may have been read before the write: its
    stat then does not describe what the answer was computed from, so the answer is not kept."""
    header = tmp_path / "limit.h"
    header.write_text("#define LIMIT 3\n")
    later = time.time() + 30
    os.utime(header, (later, later))  # as if written while the job ran
    src = tmp_path / "m.c"
    text = '#include "limit.h"\nint main(void) { int x = LIMIT; return x; }\n'
    src.write_text(text)
    settings = validate({"timeout": 60, "config": "value", "cacheDir": str(tmp_path / "cache")})[0]
    worker = Worker()
    try:
        first = worker.run(Job(src.as_uri(), str(src), text, 1, settings, id=1), lambda _: None, 60)
        assert isinstance(first.answer, Verified) and not first.answer.repeatable
        assert worker.answers.get(Job(src.as_uri(), str(src), text, 2, settings, id=2)) is None
    finally:
        worker.shutdown()


def test_a_program_of_two_files_answers_for_the_other_files_unsaved_text(tmp_path: Path) -> None:
    """A job with the program's other files (linkProject) is verified with them, and its answer
    is not repeated once an open one's text changes, though nothing changed on disk."""
    from cbam.engine.api import PreprocessOptions, Unit

    lib, main = tmp_path / "lib.c", tmp_path / "main.c"
    lib_text = "int limit(void) { return 3; }\n"
    lib.write_text(lib_text)
    past = time.time() - 100
    os.utime(lib, (past, past))  # settled: an answer that read it may be repeated
    text = "extern void reach_error(void);\nint limit(void);\nint main(void) { if (limit() > 3) reach_error(); return 0; }\n"
    main.write_text(text)
    settings = validate({"timeout": 60, "config": "value", "cacheDir": str(tmp_path / "cache")})[0]

    def job(jid: int, lib_source: str | None) -> Job:
        return Job(uri=main.as_uri(), path=str(main), text=text, version=jid, id=jid, settings=settings,
                   units=(Unit(str(lib), PreprocessOptions(data_model="LP64"), lib_source),))

    worker = Worker()
    try:
        first = worker.run(job(1, None), lambda _: None, 60)
        assert isinstance(first.answer, Verified) and first.answer.report.result.verdict == "TRUE"
        assert first.answer.repeatable and worker.answers.get(job(2, None)) is not None
        edited = worker.run(job(3, lib_text.replace("3", "4")), lambda _: None, 60)  # lib.c open, unsaved
        assert isinstance(edited.answer, Verified) and edited.answer.report.result.verdict == "FALSE"
    finally:
        worker.shutdown()


def test_the_spare_worker_starts_only_once_no_analysis_runs(monkeypatch) -> None:
    """A spare worker's start (a Python importing the engine) must not run beside the job of the
    user's next save: it starts ``SPARE_DELAY`` after the last job ended, not while one runs."""
    import asyncio

    from cbam.server import state as state_mod

    started: list[float] = []

    class _Fake:
        def start(self):
            started.append(time.monotonic())
            return self

    delay = 0.3
    monkeypatch.setattr(state_mod, "Worker", _Fake)
    monkeypatch.setattr(state_mod, "SPARE_DELAY", delay)

    async def scenario() -> None:
        ls = state_mod.CbamServer()
        doc = ls.docs.setdefault("file:///a.c", state_mod.DocState("file:///a.c"))
        doc.busy = True
        ls.replenish_spare()  # a job ended while another document's still runs
        await asyncio.sleep(2 * delay)  # (the wait ends while it runs, and begins again)
        assert started == [] and ls.spare is None
        doc.busy = False
        t_end = time.monotonic()
        ls.replenish_spare()  # that one ends too
        first = ls.spare_timer
        ls.replenish_spare()  # (a second end restarts the wait, and starts one spare only)
        assert first is not None and first.cancelled() and ls.spare_timer is not first
        assert started == []
        for _ in range(600):  # (at most 30 s: a loaded machine may run the timer late, never early)
            if started:
                break
            await asyncio.sleep(0.05)
        await asyncio.sleep(2 * delay)  # (time for a second start, were there one)
        assert len(started) == 1 and started[0] - t_end >= delay and ls.spare is not None
        ls.shutdown_workers = lambda: None  # the fake has nothing to stop

    asyncio.run(scenario())


class _Proc:
    def __init__(self, alive: bool) -> None:
        self.alive = alive

    def is_alive(self) -> bool:
        return self.alive


def test_a_hover_waits_for_what_the_answer_came_with_to_be_written() -> None:
    """The worker sends its answer, then writes the run's summaries to the cache (write-behind);
    a hover in between would read "not analysed yet". It waits for the write instead."""
    import multiprocessing

    w = Worker()
    w.writing, w.proc = multiprocessing.RawValue("b", 1), _Proc(alive=True)
    threading.Timer(0.2, lambda: setattr(w.writing, "value", 0)).start()
    w.wait_written(30)
    assert w.writing.value == 0
    w.writing.value = 1
    w.proc = _Proc(alive=False)  # a process that died writing: nothing to wait for
    w.wait_written(30)
    assert w.writing.value == 1


def test_the_summaries_of_a_job_are_in_the_cache_once_written(tmp_path: Path) -> None:
    from cbam.engine import api

    path = tmp_path / "w.c"
    src = "int f(int x) { return x + 1; }\nint main(void) { return f(1) - 2; }\n"
    path.write_text(src)
    settings = validate({"timeout": 120, "config": "value", "cacheDir": str(tmp_path / "cache")})[0]
    w = Worker()
    try:
        job = Job(uri=path.as_uri(), path=str(path), text=src, version=1, use_cache=True, id=1, settings=settings)
        out = w.run(job, lambda _: None, 120)
        assert out.status == "done" and isinstance(out.answer, Verified)
        w.wait_written(30)
        store = api.open_cache(out.answer.cache_dir)
        fn_key = out.answer.report.result.function_keys["f"]
        assert api.summaries(store, fn_key)
    finally:
        w.kill()
