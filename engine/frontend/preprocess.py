"""Run the system C preprocessor over the system's headers, with cbam's own few first and GNU-extension shims."""

from __future__ import annotations

import os
import re
import select
import subprocess
import time
from collections import namedtuple

from .errors import Diagnostic, FrontendError

TYPE_CHECKING = False  # typing itself is not imported: see cache/store.py
if TYPE_CHECKING:
    from collections.abc import Sequence

# A plain path: pathlib, with urllib.parse and ipaddress, is 3 ms of a new process.
INCLUDE_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "include")

# GNU spellings pycparser cannot parse, neutralised before parsing (see shared/svcomp/NOTES.md §4).
# Attributes are not among them: they are read (frontend/attributes.py).
GNU_SHIMS: tuple[str, ...] = (
    "__extension__=",
    "__inline=inline",
    "__inline__=inline",
    "__restrict=",
    "__restrict__=",
    "restrict=",
    "__asm__(...)=",
    "__asm(...)=",
    "asm(...)=",
    "__const=const",
    "__const__=const",
    "__signed__=signed",
    "__signed=signed",
    "__volatile__=volatile",
    "__volatile=volatile",
    "__int128=__cbam_int128",
    "_Noreturn=",
    "__noreturn__=",
    "__thread=",
    "_Thread_local=",
    "__PRETTY_FUNCTION__=__func__",
    "__FUNCTION__=__func__",
    "__builtin_expect(e,c)=(e)",
    "__nonnull(x)=",
    "__wur=",
    "__THROW=",
    "__leaf__=",
    "__nothrow__=",
)

DATA_MODELS = {
    "ILP32": {"__SIZEOF_INT__": 4, "__SIZEOF_LONG__": 4, "__SIZEOF_LONG_LONG__": 8,
              "__SIZEOF_POINTER__": 4, "__SIZEOF_SHORT__": 2, "__ILP32__": 1, "_ILP32": 1},
    "LP64": {"__SIZEOF_INT__": 4, "__SIZEOF_LONG__": 8, "__SIZEOF_LONG_LONG__": 8,
             "__SIZEOF_POINTER__": 8, "__SIZEOF_SHORT__": 2, "__LP64__": 1, "_LP64": 1},
}

MAX_SOURCE_BYTES = 4_000_000


class PreprocessOptions(namedtuple("PreprocessOptions",
                                   "include_paths defines undefines force_includes std data_model",
                                   defaults=((), (), (), (), None, "ILP32"))):
    """How the preprocessor runs. A named tuple, not a dataclass, for the reason given in
    errors.py (this module is on the path that answers an unchanged source from the cache)."""

    __slots__ = ()
    include_paths: Sequence[str]
    defines: Sequence[str]  # "NAME" or "NAME=VALUE"
    undefines: Sequence[str]
    force_includes: Sequence[str]
    std: str | None
    data_model: str


def _which(name: str) -> str | None:
    # shutil.which, without importing shutil (and the compression modules it pulls in) on the
    # start-up path that answers an unchanged source from the cache.
    for d in os.environ.get("PATH", os.defpath).split(os.pathsep):
        cand = os.path.join(d or os.curdir, name)
        if os.path.isfile(cand) and os.access(cand, os.X_OK):
            return cand
    return None


def find_cpp() -> list[str]:
    for cand in ("gcc", "cc", "cpp", "clang"):
        path = _which(cand)
        if path:
            return [path, "-E"] if cand != "cpp" else [path]
    raise FrontendError(Diagnostic("error", "no C preprocessor found: install gcc (or set PATH)", "<cbam>"))


_GCC_DIAG = re.compile(r"^(?P<file>[^:\n]+):(?P<line>\d+):(?P<col>\d+): (?:fatal )?(?P<sev>error|warning): (?P<msg>.*)$")


_MARKER_LINE = re.compile(r'^(# \d+ ")((?:[^"\\]|\\.)*)"', re.M)


# ``asm volatile (...)``, ``__asm__ __volatile__ goto (...)``: the shims above erase ``asm(...)``,
# which the qualifiers keep from matching. The builder finds inline assembly in the source text
# and makes its function unsupported (builder.has_inline_asm).
_ASM_QUALIFIERS = re.compile(rb"\b(?:__asm__|__asm|asm)((?:\s+(?:volatile|__volatile__|__volatile|inline|__inline__|goto)\b)+)")


def _blank_asm_qualifiers(raw: bytes) -> bytes:
    """``raw`` with inline assembly's qualifiers replaced by as many spaces (positions kept)."""
    if b"asm" not in raw:
        return raw
    return _ASM_QUALIFIERS.sub(lambda m: m.group(0)[: m.start(1) - m.start(0)]
                               + re.sub(rb"[^\n]", b" ", m.group(1)), raw)


def preprocess(path: str, text: str | None = None, options: PreprocessOptions | None = None) -> str:
    """Preprocessed text with line markers kept, so positions map back to ``path``.

    ``text`` overrides the file's contents (an unsaved editor buffer).
    """
    return Preprocessing(path, text, options).result()


class Preprocessing:
    """A preprocessor run, started on construction; ``result()`` waits for its text.

    Where the platform has anonymous memory files (Linux), the preprocessor reads its input
    from one and writes its output into others, so it runs to completion while this process
    does other work: the command line opens the cache meanwhile. (Through pipes it would
    stall on a full one, or need a thread, each of whose wake-ups waits for the interpreter
    lock.) Elsewhere it runs when the result is asked for. Bad input raises FrontendError
    on construction."""

    TIMEOUT = 60.0

    def __init__(self, path: str, text: str | None = None, options: PreprocessOptions | None = None):
        self.path = path
        self.raw = raw = _read_source(path, text)
        self.cmd, self.cwd = _command(path, options or PreprocessOptions())
        # Read from stdin with a line marker, so buffers and files take the same route and
        # every marker names the user's path exactly as given.
        self.input = f'# 1 "{_escape(path)}"\n'.encode() + _blank_asm_qualifiers(raw)
        self.deadline = time.monotonic() + self.TIMEOUT
        self._proc: subprocess.Popen | None = None
        self._out: tuple[int, int] | None = None
        if hasattr(os, "memfd_create"):
            fin, fout, ferr = (os.memfd_create(f"cbam-cpp-{name}") for name in ("in", "out", "err"))
            try:
                view = memoryview(self.input)
                while view:
                    view = view[os.write(fin, view):]
                os.lseek(fin, 0, os.SEEK_SET)
                self._proc = subprocess.Popen(self.cmd, stdin=fin, stdout=fout, stderr=ferr, cwd=self.cwd)
            except BaseException:
                for fd in (fout, ferr):
                    os.close(fd)
                raise
            finally:
                os.close(fin)
            self._out = (fout, ferr)

    def stop(self) -> None:
        """The text is not wanted after all (the source was answered without it)."""
        if self._proc is not None and self._out is not None:
            self._proc.kill()
            self._proc.wait()
            for fd in self._out:
                os.close(fd)
            self._out = None

    def _timed_out(self) -> FrontendError:
        return FrontendError(Diagnostic("error", "the preprocessor timed out", self.path))

    def result(self) -> str:
        if self._proc is None or self._out is None:
            try:
                proc = subprocess.run(self.cmd, input=self.input, capture_output=True, timeout=self.TIMEOUT,
                                      cwd=self.cwd)
            except subprocess.TimeoutExpired:
                raise self._timed_out() from None
            returncode, stdout, stderr = proc.returncode, proc.stdout, proc.stderr
        else:
            fout, ferr = self._out
            self._out = None
            try:
                try:
                    returncode = _wait(self._proc, max(0.0, self.deadline - time.monotonic()))
                except subprocess.TimeoutExpired:
                    self._proc.kill()
                    self._proc.wait()
                    raise self._timed_out() from None
                stdout, stderr = _read_fd(fout), _read_fd(ferr)
            finally:
                os.close(fout)
                os.close(ferr)
        if returncode != 0:
            raise FrontendError(parse_gcc_errors(stderr.decode("utf-8", "replace"), self.path))
        return _absolute_markers(stdout.decode("utf-8", "replace"), self.path, self.cwd)


def _wait(proc: subprocess.Popen, timeout: float) -> int:
    """``proc.wait(timeout)``, woken the moment the process ends: Popen.wait polls with
    growing sleeps, which add about 4 ms to a 12 ms preprocessor run (every edit pays it)."""
    try:
        fd = os.pidfd_open(proc.pid)
    except (AttributeError, OSError):  # not Linux, or a kernel before 5.3
        return proc.wait(timeout=timeout)
    try:
        if not select.select([fd], [], [], timeout)[0]:
            raise subprocess.TimeoutExpired(proc.args, timeout)
    finally:
        os.close(fd)
    return proc.wait()


def _read_fd(fd: int) -> bytes:
    size = os.fstat(fd).st_size
    chunks: list[bytes] = []
    offset = 0
    while offset < size:
        chunk = os.pread(fd, size - offset, offset)
        if not chunk:
            break
        chunks.append(chunk)
        offset += len(chunk)
    return b"".join(chunks)


def _read_source(path: str, text: str | None) -> bytes:
    if text is None:
        try:
            size = os.path.getsize(path)
        except OSError as exc:
            raise FrontendError(Diagnostic("error", f"cannot read file: {exc.strerror}", path)) from None
        if size > MAX_SOURCE_BYTES:
            raise FrontendError(Diagnostic("error", f"file is too large to verify ({size} bytes)", path))
        with open(path, "rb") as fh:
            raw = fh.read()
    else:
        raw = text.encode("utf-8")
        if len(raw) > MAX_SOURCE_BYTES:
            raise FrontendError(Diagnostic("error", f"file is too large to verify ({len(raw)} bytes)", path))
    if b"\0" in raw[:65536]:
        raise FrontendError(Diagnostic("error", "this is a binary file, not C source", path))
    return raw


def _command(path: str, opts: PreprocessOptions) -> tuple[list[str], str]:
    """The preprocessor's command line (reading stdin) and working directory: the source's folder."""
    model = DATA_MODELS.get(opts.data_model)
    if model is None:
        raise FrontendError(Diagnostic("error", f"unknown data model {opts.data_model!r} (use ILP32 or LP64)", path))
    cmd = find_cpp() + ["-x", "c", "-undef", "-w"]
    if opts.std:
        cmd.append(f"-std={opts.std}")
    cmd += ["-D__CBAM__=1", "-D__STDC_VERSION__=201112L", "-D__CHAR_BIT__=8"]
    cmd += [f"-D{k}={v}" for k, v in model.items()]
    cmd += [f"-D{d}" for d in GNU_SHIMS]
    for d in opts.defines:
        cmd.append(f"-D{d}")
    for u in opts.undefines:
        cmd.append(f"-U{u}")
    base_dir = os.path.dirname(os.path.abspath(path))
    return cmd + ["-I", base_dir] + search_path(opts) + ["-"], base_dir


# What -undef takes away and the system's headers ask for: which machine and which system
# (glibc's bits/wordsize.h reads __x86_64__ for the word size, and so on).
TARGET_MACROS = {
    "ILP32": ("__i386__=1", "__i386=1", "i386=1"),
    "LP64": ("__x86_64__=1", "__x86_64=1", "__amd64__=1", "__amd64=1"),
}
SYSTEM_MACROS = ("__linux__=1", "__linux=1", "__unix__=1", "__unix=1", "__gnu_linux__=1", "__ELF__=1")


def search_path(opts: PreprocessOptions) -> list[str]:
    """Where headers come from, for the preprocessor and for gcc's syntax check alike: the
    user's -I folders (a relative one from where cbam runs, as a compiler reads it), cbam's
    own headers, then the system's (gcc's search path for the data model: -m32 or -m64).
    cbam's own are the few whose meaning it gives itself (assert, the variable arguments, the
    limits and fixed-width types without gcc's predefined macros); every other header is the
    system's, read as gcc reads it."""
    flags = ["-m32" if opts.data_model == "ILP32" else "-m64"]
    flags += [f"-D{m}" for m in TARGET_MACROS.get(opts.data_model, ()) + SYSTEM_MACROS]
    for inc in opts.include_paths:
        flags += ["-I", os.path.abspath(inc)]
    # The machine's description apart from the prelude: both only define, so a source without
    # directives still has a key before preprocessing (source_key.unpreprocessed_key).
    flags += ["-isystem", INCLUDE_DIR, "-include", os.path.join(INCLUDE_DIR, "__cbam_target.h"),
              "-include", os.path.join(INCLUDE_DIR, "__cbam_prelude.h")]
    for inc in opts.force_includes:
        flags += ["-include", os.path.abspath(inc)]
    return flags


def _absolute_markers(pp: str, path: str, base_dir: str) -> str:
    """Headers found relative to the preprocessor's working directory (the source's folder)
    are named relative to it; name them absolutely, so that ranges in them and the files
    read for them do not depend on where cbam runs. The source keeps the name it was given."""
    own = _escape(path)
    prefix = _escape(base_dir) + "/"

    def fix(m: re.Match) -> str:
        name = m.group(2)
        if name == own or name.startswith(("<", "/")):
            return m.group(0)
        return f'{m.group(1)}{prefix}{name}"'

    return _MARKER_LINE.sub(fix, pp)


def _escape(path: str) -> str:
    return path.replace("\\", "\\\\").replace('"', '\\"')


def parse_gcc_errors(stderr: str, path: str) -> list[Diagnostic]:
    diags: list[Diagnostic] = []
    for line in stderr.splitlines():
        m = _GCC_DIAG.match(line)
        if m and m.group("sev") == "error":
            msg = m.group("msg")
            hm = re.match(r"(.+): No such file or directory", msg)
            if hm:
                msg = (f"header {hm.group(1)} not found in the source's folder, the -I folders or the system's "
                       "include path (a relative -I is read from the current directory)")
            file = m.group("file")
            if file == "<stdin>":
                file = path
            diags.append(Diagnostic("error", msg, file, int(m.group("line")), int(m.group("col"))))
    if not diags:
        first = stderr.strip().splitlines()[0] if stderr.strip() else "preprocessing failed"
        diags.append(Diagnostic("error", first, path))
    return diags
