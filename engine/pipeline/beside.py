"""An engine run in a forked child beside the one this process runs, on another core.

The portfolio's first two engines on a small program with a loop or recursion are CEGAR's
probe and Spacer (pipeline/portfolio.py). Run one after the other, a program that only Spacer
proves waits for the whole probe first (``../shared/repro/twice_true.c``: 0.5 s of a probe
that cannot settle it, then 0.4 s of Spacer and the machine-integer check); a program the probe
settles would wait for Spacer if the order were turned round. Beside each other, each is
answered by whichever of the two settles it, as soon as it does.

A thread cannot do it: z3's Python API builds every formula in one global context, and the
engines build theirs in Python, which holds one lock. A forked child has both to itself, and
shares the program with the parent without copying it (copy-on-write). What it sends back is
small and plain (a HornOutcome: a status, the summaries as C text). A child that has not
answered by its time, has nothing to say, or is no longer wanted is killed, and no child
outlives the analysis thread that started it (``PR_SET_PDEATHSIG``; a killed run kills it).

Where ``os.fork`` is missing or this process may use only one core, nothing runs beside:
``start`` answers None and the caller runs the engine in its turn, as before.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import select
import signal
import struct
import time
from collections.abc import Callable
from typing import Generic, TypeVar

T = TypeVar("T")

# Past its own time, how long a child may take to send what it has before it is killed (its
# solver calls stop at their time; building its answer takes milliseconds).
GRACE_SECONDS = 0.5
_HEADER = struct.Struct("<Q")


def cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def available() -> bool:
    return hasattr(os, "fork") and cores() >= 2 and not os.environ.get("CBAM_NO_BESIDE")


def either(cancel: object, stop: Callable[[], bool] | None) -> object:
    """A run's cancellation (VerifyOptions.cancel: a callable or None), or ``stop``: an engine
    beside it has settled the program."""
    if stop is None or not callable(cancel):
        return stop or cancel
    return lambda: cancel() or stop()


class Beside(Generic[T]):
    """``fn()`` in a forked child; its answer once it has one (``ready``/``answer``)."""

    def __init__(self, pid: int, fd: int, deadline: float):
        self.pid = pid
        self._fd = fd
        self.deadline = deadline  # by which the child answers or is killed
        self._data = b""
        self._done = False
        self._answer: T | None = None

    @classmethod
    def start(cls, fn: Callable[[], T], seconds: float) -> Beside[T] | None:
        if not available():
            return None
        read, write = os.pipe()
        parent = os.getpid()
        try:
            pid = os.fork()
        except OSError:  # no memory or no process left for it: the engine runs in its turn
            os.close(read)
            os.close(write)
            return None
        if pid == 0:  # pragma: no cover (the child; coverage does not follow a fork)
            os.close(read)
            _child(fn, write, parent)
        os.close(write)
        return cls(pid, read, time.monotonic() + seconds + GRACE_SECONDS)

    def ready(self) -> bool:
        """Whether the child has answered (or ended without an answer); never waits."""
        self._read(0.0)
        return self._done

    def answer(self, cancelled: Callable[[], bool] = lambda: False) -> T | None:
        """The child's answer, waiting for it until its deadline or until ``cancelled()`` (None:
        it had none in time, or it failed); the child is gone afterwards."""
        while not self._done:
            left = self.deadline - time.monotonic()
            if left <= 0 or cancelled():
                break
            self._read(min(left, 0.05))
        self.stop()
        return self._answer

    def stop(self) -> None:
        """Kill the child if it still runs, and reap it."""
        if self.pid:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, signal.SIGKILL)
            with contextlib.suppress(ChildProcessError):
                os.waitpid(self.pid, 0)
            self.pid = 0
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1
        self._done = True

    def __del__(self) -> None:
        self.stop()

    def _read(self, wait: float) -> None:
        if self._done or self._fd < 0:
            return
        readable, _, _ = select.select([self._fd], [], [], wait)
        if not readable:
            return
        chunk = os.read(self._fd, 1 << 16)
        if chunk:
            self._data += chunk
            if len(self._data) < _HEADER.size or len(self._data) < _HEADER.size + _HEADER.unpack_from(self._data)[0]:
                return
            try:
                self._answer = pickle.loads(self._data[_HEADER.size:])
            except Exception:  # a child that died mid-write: no answer
                self._answer = None
        self._done = True  # an answer, or the end of the pipe


def _child(fn: Callable[[], T], fd: int, parent: int) -> None:  # pragma: no cover (runs in the child)
    """Run ``fn``, send its answer, and end without running anything of the parent's (no
    atexit handler, no buffered output flushed twice, no database closed)."""
    status = 1
    try:
        import gc

        # A short life: the collector would only copy the parent's pages by touching them.
        gc.disable()
        _die_with_parent()
        if os.getppid() != parent:  # it ended before the line above
            return
        data = pickle.dumps(fn(), protocol=pickle.HIGHEST_PROTOCOL)
        data = _HEADER.pack(len(data)) + data
        while data:
            data = data[os.write(fd, data):]
        status = 0
    except BaseException:
        pass
    finally:
        os._exit(status)


def _die_with_parent() -> None:
    """SIGKILL when the thread that forked this child ends (Linux)."""
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass
