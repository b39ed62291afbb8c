"""The server object and what it knows per document."""

from __future__ import annotations

import asyncio
import itertools
import os
import re
from dataclasses import dataclass, field
from enum import StrEnum

from cbam.engine.api import CompileFlags, Unit, parse_compile_flags
from pygls.lsp.server import LanguageServer

from cbam import __version__

from .protocol import CbamProtocol
from .settings import Settings, defaults
from .summaries import SummaryReader
from .worker import Worker

TYPE_CHECKING = False
if TYPE_CHECKING:
    from cbam.engine.api import FunctionReport, VerificationResult

MAX_FILE_BYTES = 2_000_000
SPARE_DELAY = 1.0  # seconds without a running analysis before the spare worker starts
C_EXTENSIONS = (".c", ".h", ".i")
STATUS_NOTIFICATION = "cbam/status"
STATUS_CAPABILITY = "cbamStatus"


class DocStatus(StrEnum):
    """What ``cbam/status`` says about a document (vscode-extension/src/codes.ts: DocState)."""

    IDLE = "idle"  # nothing verified yet (trigger "manual", or not a C file)
    VERIFYING = "verifying"  # an analysis runs or is about to
    DONE = "done"  # the published diagnostics are for the document's current text
    OUTDATED = "outdated"  # the text changed since; nothing runs until a save or a command


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
    # The violations published while the search went on (version, diagnostics): the final
    # answer is not published again when it shows nothing more.
    partial: tuple[int | None, list] | None = None


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
        self.spare_timer: asyncio.TimerHandle | None = None
        self.related_support = True
        self.progress_support = False
        self.status_support = False
        self.compile_commands: dict[str, list[str]] = {}
        self.token_jobs: dict[str, tuple[str, int]] = {}
        self.summaries = SummaryReader()

    def flags_for(self, path: str) -> CompileFlags:
        args = self.compile_commands.get(os.path.realpath(path))
        return parse_compile_flags(args) if args else CompileFlags()

    def units_for(self, path: str) -> tuple[Unit, ...]:
        """The other translation units of ``path``'s program: with linkProject, where
        compile_commands.json compiles ``path``, every other C file it compiles that defines no
        main of its own (a test program's or a tool's), each with its flags, and with the
        editor's text where the file is open (unsaved edits count, as in the file itself)."""
        real = os.path.realpath(path)
        if not self.settings.link_project or real not in self.compile_commands:
            return ()
        open_texts = self._open_texts()
        units = []
        for other, args in sorted(self.compile_commands.items()):
            if other == real or not other.endswith(".c"):
                continue
            text = open_texts.get(other)
            if _defines_main(other, text):
                continue
            pp = parse_compile_flags(args).options(self.settings.data_model, self.settings.include_paths,
                                                   self.settings.defines)
            units.append(Unit(other, pp, text))
        return tuple(units)

    def _open_texts(self) -> dict[str, str]:
        out: dict[str, str] = {}
        for uri in self.docs:
            try:
                doc = self.workspace.get_text_document(uri)
                out[os.path.realpath(doc.path)] = doc.source
            except Exception:  # not open in the workspace (any more)
                continue
        return out

    def worker_for(self, uri: str) -> Worker:
        w = self.workers.get(uri)
        if w is None:
            w, self.spare = self.spare or Worker(), None
            self.workers[uri] = w
        return w

    def replenish_spare(self) -> None:
        """Start the spare worker once no analysis has run for ``SPARE_DELAY`` seconds: its
        start (a Python that imports the engine, half a second of a core) would otherwise run
        beside the job of the user's next save, which follows the last one closely (on 2
        cores it made an edit's first diagnostics 40 % slower)."""
        if self.spare is not None:
            return
        if self.spare_timer is not None:
            self.spare_timer.cancel()
        self.spare_timer = asyncio.get_event_loop().call_later(SPARE_DELAY, self._start_spare_if_idle)

    def _start_spare_if_idle(self) -> None:
        self.spare_timer = None
        if self.spare is not None:
            return
        if any(d.busy for d in self.docs.values()):
            self.replenish_spare()  # the last job to end tries again
            return
        self.spare = Worker().start()

    def shutdown_workers(self) -> None:
        if self.spare_timer is not None:
            self.spare_timer.cancel()
            self.spare_timer = None
        for w in [*self.workers.values(), *([self.spare] if self.spare else [])]:
            w.shutdown()
        self.workers.clear()
        self.spare = None


server = CbamServer()


# A definition of main at the start of a line: a program's own entry, whose file is not linked
# into another file's program (a project's test programs each have one).
_MAIN = re.compile(r"^[ \t]*(?:int|void)[ \t\n]+main[ \t]*\(", re.M)


_MAIN_ON_DISK: dict[str, tuple[int, int, bool]] = {}  # path -> (mtime_ns, size, defines main)


def _defines_main(path: str, text: str | None) -> bool:
    """Whether the file (or the editor's ``text`` for it) defines main. A file on disk is read
    again only when it changed: every job asks this of every file of the project, on the
    server's event loop."""
    if text is not None:
        return _MAIN.search(text) is not None
    try:
        st = os.stat(path)
        seen = _MAIN_ON_DISK.get(path)
        if seen is not None and seen[:2] == (st.st_mtime_ns, st.st_size):
            return seen[2]
        with open(path, encoding="utf-8", errors="replace") as fh:
            found = _MAIN.search(fh.read()) is not None
    except OSError:
        return True  # unreadable: not part of the program
    _MAIN_ON_DISK[path] = (st.st_mtime_ns, st.st_size, found)
    return found
