"""The command line's analysis in a forked child process.

z3 runs in the analysing process and, rarely, crashes when a check is interrupted at its time
limit (Z3Prover/z3#595): the soak benchmark met it about once in 10,000 runs. A solver that
ignores its interruption would also hold a run past its limit. In a child, either ends the
child, not the command: a crash is retried with the time left, then answered UNKNOWN; a run
past its limit is killed and answered UNKNOWN (timeout). The language server's workers are
processes for the same reason (server/worker.py).

The child is forked, not started afresh: it inherits the imports and the preprocessed text,
and costs a few milliseconds. It sends what it computed through a pipe, pickled; the parent
reads it while it waits.
"""

from __future__ import annotations

import os
import pickle
import select
import signal
import sys
import time

from cbam import codecache

# typing and dataclasses cost milliseconds to import, which a new process that answers from
# the cache (and never gets here) does not pay; this module is imported only to analyse.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

# How long past its time limit a child may take to answer before it is killed: the limit is
# checked between steps, so an answer comes a little after it (rendering, the cache's writes).
GRACE_S = 1.0
# A crashed child is retried only with at least this much of its time left.
RETRY_MIN_S = 1.0


def available() -> bool:
    """Where fork exists, unless CBAM_IN_PROCESS=1 asks for the analysis in this process (for a
    profiler or a debugger, which follow one process)."""
    return hasattr(os, "fork") and os.environ.get("CBAM_IN_PROCESS", "") in ("", "0")


class Outcome:
    """How a child ended: its value, or the exception it raised, or how it died."""

    def __init__(self, value: Any = None, raised: BaseException | None = None, error: str = "", signal: int = 0,
                 over_limit: bool = False, peak_memory_mb: float = 0.0):
        self.value = value
        self.raised = raised
        self.error = error  # an exception that could not be sent as itself: its traceback
        self.signal = signal  # the signal the child died of (not one sent at its limit)
        self.over_limit = over_limit  # killed past its time limit (plus GRACE_S)
        self.peak_memory_mb = peak_memory_mb  # the child's peak resident memory

    @property
    def ok(self) -> bool:
        return not (self.raised or self.error or self.signal or self.over_limit)


def run(fn: Callable[[], Any], time_limit: float, peak_memory: Callable[[], float]) -> Outcome:
    """``fn()`` in a forked child, killed at ``time_limit`` + GRACE_S seconds. The caller closes
    what a child must not share (a database connection) before, and ``fn`` opens its own."""
    read_end, write_end = os.pipe()
    # Held open by this process alone: the child sees it close if this process dies (killed by
    # a CI job's timeout, say), and ends too rather than run on unwatched.
    alive_r, alive_w = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns
        os.close(read_end)
        os.close(alive_w)
        _end_with_parent(alive_r)
        _child(fn, write_end, peak_memory)
    os.close(write_end)
    os.close(alive_r)
    reaped = False
    try:
        chunks, over = _read(pid, read_end, time.monotonic() + time_limit + GRACE_S)
        _, status = os.waitpid(pid, 0)
        reaped = True
    finally:
        os.close(read_end)
        os.close(alive_w)
        if not reaped:  # an interrupted wait (Ctrl-C) leaves no child running
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
    return _outcome(chunks, over, status)


def _end_with_parent(alive: int) -> None:
    import threading

    def watch() -> None:
        os.read(alive, 1)  # returns (empty) only when the parent's end is closed: it has ended
        os._exit(70)

    threading.Thread(target=watch, name="cbam-parent-watch", daemon=True).start()


def _child(fn: Callable[[], Any], out: int, peak_memory: Callable[[], float]) -> None:
    code = 0
    try:
        # Streams of its own: another thread of the parent's (the progress line) may have held
        # a stream's lock at the fork, and it stays held here.
        sys.stdout = open(1, "w", closefd=False)  # noqa: SIM115
        sys.stderr = open(2, "w", closefd=False)  # noqa: SIM115
        try:
            message: tuple = ("value", fn())
        except BaseException as exc:  # noqa: BLE001 - sent to the parent, which raises it
            message = ("raised", exc)
        message += (peak_memory(),)
        try:
            data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
        except Exception:  # noqa: BLE001 - an exception that does not pickle: its text
            import traceback

            raised = message[1]
            text = "".join(traceback.format_exception(raised)) if isinstance(raised, BaseException) else repr(raised)
            data = pickle.dumps(("error", text, message[2]))
        view = memoryview(data)
        while view:
            view = view[os.write(out, view):]
    except BaseException:  # noqa: BLE001 - the parent sees no message and says so
        code = 70
    finally:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
            codecache.save()  # the analysis imported what the parent had not
        finally:
            os._exit(code)  # never back into the caller (the parent's code, a test runner)


def _read(pid: int, read_end: int, deadline: float) -> tuple[list[bytes], bool]:
    """What the child wrote until it closed the pipe (it ended), or until the deadline (then
    it is killed: True)."""
    chunks: list[bytes] = []
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            os.kill(pid, signal.SIGKILL)
            return chunks, True
        ready, _, _ = select.select([read_end], [], [], min(left, 3600.0))  # select takes no infinity
        if ready:
            chunk = os.read(read_end, 1 << 20)
            if not chunk:
                return chunks, False
            chunks.append(chunk)


def _outcome(chunks: list[bytes], over: bool, status: int) -> Outcome:
    if over:
        return Outcome(over_limit=True)
    if chunks:
        try:
            kind, payload, peak = pickle.loads(b"".join(chunks))
        except Exception:  # noqa: BLE001 - a message cut short: the child died writing it
            kind, payload, peak = "", None, 0.0
        if kind == "value":
            return Outcome(value=payload, peak_memory_mb=peak)
        if kind == "raised":
            return Outcome(raised=payload, peak_memory_mb=peak)
        if kind == "error":
            return Outcome(error=payload, peak_memory_mb=peak)
    if os.WIFSIGNALED(status):
        return Outcome(signal=os.WTERMSIG(status))
    return Outcome(error=f"the analysis process ended with exit status {os.waitstatus_to_exitcode(status)} "
                         "and no answer")


def signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"
