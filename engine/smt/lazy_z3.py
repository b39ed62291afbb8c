"""z3, imported on its first use rather than with the engine.

Importing z3 costs about 60 ms (its ctypes bindings are built at import). A run that needs
no solver (a cached or explicit-value answer, an edit whose result the cache certifies)
should not pay that in every new process: `cbam verify` in a terminal, a pre-commit hook,
a CI job. ``install()`` puts a stand-in module under the name ``z3``, so every module keeps
its plain ``import z3``; the stand-in loads the real package the first time any of its
attributes is read, and from then on holds the real package's names itself (later reads
are ordinary attribute lookups).
"""

from __future__ import annotations

import importlib
import sys
import threading
import types
from collections.abc import Iterator
from contextlib import contextmanager

_LOCK = threading.Lock()


class _LazyZ3(types.ModuleType):
    def __getattr__(self, name: str):
        load()
        try:
            return self.__dict__[name]
        except KeyError:
            raise AttributeError(f"module 'z3' has no attribute {name!r}") from None


def install() -> None:
    """Make ``import z3`` lazy for this process, unless z3 is already imported."""
    with _LOCK:
        if "z3" not in sys.modules:
            sys.modules["z3"] = _LazyZ3("z3")


def loaded() -> bool:
    """Whether the real z3 has been imported in this process."""
    return "z3.z3" in sys.modules


def load() -> None:
    """Import the real z3 now (the first analysis thread to need it; others wait)."""
    with _LOCK:
        stand_in = sys.modules.get("z3")
        if not isinstance(stand_in, _LazyZ3):
            return
        del sys.modules["z3"]
        try:
            real = importlib.import_module("z3")
        except BaseException:
            sys.modules["z3"] = stand_in
            raise
        stand_in.__dict__.update({k: v for k, v in real.__dict__.items() if k not in ("__name__", "__spec__")})
        # Modules imported from now on get the real package; those that imported the stand-in
        # read the same objects through it.


@contextmanager
def fresh_context() -> Iterator[None]:
    """One run's solver calls in a z3 context of their own. z3's heuristics follow its terms'
    internal ids, so in a shared context an interpolant, and with it a verdict, depended on
    which runs came before in the process (a server worker, a CLI run over several files): a
    result must be a function of its input alone. Runs are sequential within a process.

    The context is made when the run first uses z3 (z3 makes its main context on demand), so
    a run that needs no solver neither imports z3 nor pays for a context."""
    z3 = sys.modules["z3"]
    old = z3.z3._main_ctx if loaded() else None
    if loaded():
        z3.z3._main_ctx = _PREPARED.pop() if _PREPARED else None
    try:
        yield
    finally:
        if loaded():
            sys.modules["z3"].z3._main_ctx = old


_PREPARED: list = []  # at most one context, made for the next run


def prepare_context() -> None:
    """Make the next run's context now: a process that waits for its next run (the language
    server's worker, between jobs) spares that run the few milliseconds z3 takes to make one.
    A context made ahead is the same as one made on first use: nothing has happened in it."""
    if loaded() and not _PREPARED:
        _PREPARED.append(sys.modules["z3"].Context())
