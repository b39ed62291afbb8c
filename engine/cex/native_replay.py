"""Every FALSE is run before it is shown: the program, compiled by gcc with its test harness
(harness.py), must show the violation the path check confirmed.

The path check reads C through cbam's own front end, so a mistake there (a mis-sized array, a
wrong conversion) would confirm itself. gcc reads the program independently: where the run
disagrees, one of the two is wrong, and the FALSE is withdrawn (UNKNOWN, replay-disagrees) with
the evidence kept for a bug report.

* unreach-call: the error functions (reach_error, __VERIFIER_error, a builtin __VERIFIER_assert,
  glibc's __assert_fail family) are replaced, in the program's object too, by ones that print a
  marker with their caller's address and end with a status of their own; the caller's place,
  from addr2line, must be the violation's.
* memsafety: built with AddressSanitizer (with LeakSanitizer) and UndefinedBehaviorSanitizer's
  null-pointer checks; the first fatal report must be of the violation's kind
  (valid-deref, valid-free, valid-memtrack), at its place when the report names one (a leak
  report names the allocation, not where the object was lost: there the kind alone counts).

Not run (the FALSE stands on the path check, marked not-replayed with the reason): no gcc, a
program gcc does not compile, a toolchain that cannot build the data model or the sanitizers,
a link that fails, a run longer than its time limit, a leak at abort() (LeakSanitizer checks at
exit only).

Cached answers: verify.py replays every FALSE it returns, fresh or from the results cache (whose
entries hold what the path check said: a run depends on the compiler here as much as on the
program). One exception, decided in cache/unchanged.py: a source whose text and files are
byte for byte those of an answer whose violations all replayed is answered with those runs
(verify.py files them for it), before anything is parsed; a source answered otherwise is run
again.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import shutil
import signal
import subprocess
import tempfile
import time
from dataclasses import dataclass, replace

from ..cfa.cfa import Program
from ..core.result import Replay, ReplayStatus, UnknownReason, VerificationResult, Violation
from ..frontend.errors import Range
from ..frontend.preprocess import PreprocessOptions
from ..options import NativeReplay

# The status the replaced error functions end the run with (not abort's: a program may abort).
REACHED_STATUS = 86
# Less than this left of the run's limit: too little for a compile, the replay is not tried.
MIN_SECONDS = 0.2
_TAIL = 4000  # characters of a run's output kept in a report

_MEMORY_KINDS = {"valid-deref", "valid-free", "valid-memtrack"}
_ERROR_FUNCTIONS = ("reach_error", "__VERIFIER_error")
_ASSERT_FUNCTIONS = ("__assert_fail", "__assert_perror_fail")  # glibc's, which assert() calls
# What each sanitizer report means, in SV-COMP's terms.
_FREE_REPORTS = ("attempting double-free", "attempting free on address which was not malloc()-ed", "bad-free",
                 "alloc-dealloc-mismatch")
_ASAN_ERROR = re.compile(r"ERROR: AddressSanitizer: ([^\n]*)")
_LSAN_ERROR = re.compile(r"ERROR: LeakSanitizer: detected memory leaks")
_UBSAN_NULL = re.compile(r"^(\S+?):(\d+):(\d+): runtime error: ([^\n]*null pointer[^\n]*)$", re.M)
_FRAME = re.compile(r"^\s*#\d+ 0x[0-9a-f]+ in \S+ (\S+?):(\d+)(?::\d+)?$", re.M)

_SANITIZE = ["-fsanitize=address,undefined", "-fno-sanitize-recover=null", "-fno-omit-frame-pointer"]
_ASAN_OPTIONS = "detect_leaks=1:halt_on_error=1:abort_on_error=0:detect_stack_use_after_return=1:symbolize=1"
_UBSAN_OPTIONS = "print_stacktrace=1:halt_on_error=0"


def default_keep_dir() -> str:
    """Where disagreements are kept: $CBAM_REPLAY_DIR, else the user's cache directory."""
    given = os.environ.get("CBAM_REPLAY_DIR")
    if given:
        return given
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "cbam", "replay-disagreements")


def all_replayed(result: VerificationResult) -> bool:
    """Whether every violation's run showed it (what an unchanged source may be answered with)."""
    return bool(result.violations) and all(v.replay is not None and v.replay.status == ReplayStatus.REPLAYED
                                           for v in result.violations)


def pending(result: VerificationResult) -> VerificationResult:
    """The result as the path check left it, each violation marked as waiting for its run (what
    the editor shows meanwhile)."""
    return replace(result, partial=True,
                   violations=[replace(v, replay=Replay(ReplayStatus.PENDING)) for v in result.violations])


def replay_result(program: Program, result: VerificationResult, settings: NativeReplay,
                  deadline: float | None) -> VerificationResult:
    """``result`` with each violation's native run: marked replayed or not-replayed, or withdrawn
    when the run disagrees (then UNKNOWN, replay-disagrees, if none is left). A new result:
    the one passed may be what the cache is filing."""
    if not result.violations:
        return result
    kept: list[Violation] = []
    withdrawn: list[tuple[Violation, Replay]] = []
    for v in result.violations:
        try:
            outcome = replay_violation(program, v, settings, deadline)
        except Exception as exc:  # a bug in cbam's replay must not cost the path check's answer
            if os.environ.get("CBAM_DEBUG"):
                raise
            outcome = _not(f"internal error in cbam's replay: {type(exc).__name__}: {exc}; please report it")
        if outcome.status == ReplayStatus.DISAGREES:
            withdrawn.append((v, outcome))
        else:
            kept.append(replace(v, replay=outcome))
    out = replace(result, violations=kept, warnings=list(result.warnings))
    if not withdrawn:
        return out
    v, outcome = withdrawn[0]
    what = v.message.split(" (for example", 1)[0]
    reason = (f"the path check confirmed '{what}', but the program compiled by gcc with its test harness did not "
              f"show it ({outcome.reason}); the program, the harness and both outcomes are kept in {outcome.kept} "
              "(please send it to cbam's developers)")
    out.replay = outcome
    if kept:
        # The violations that did replay stand; the search is not known to have found all there are.
        out.warnings.append(f"cbam: a violation was withdrawn: {reason}")
        out.search_stopped = UnknownReason.REPLAY_DISAGREES
        return out
    out.verdict, out.reason, out.reason_kind = "UNKNOWN", reason, UnknownReason.REPLAY_DISAGREES
    out.reason_range, out.reason_ref = v.range, v.ref
    out.search_stopped = UnknownReason.NONE
    return out


@dataclass
class _Build:
    """One replay's files and commands."""

    workdir: str
    gcc: str
    source: str  # the program file gcc compiles
    program_text: str
    harness: str
    mode: list[str]  # the data model's and the sanitizers' flags
    commands: list[list[str]]
    memory: bool


def replay_violation(program: Program, v: Violation, settings: NativeReplay, deadline: float | None) -> Replay:
    """The native run of one violation's counterexample."""
    limit = settings.time_limit
    if deadline is not None and deadline - time.monotonic() < limit:
        limit = deadline - time.monotonic()
        if limit < MIN_SECONDS:
            return _not(f"too little was left of the run's time limit ({max(0.0, limit):.2f} s)")
    gcc = shutil.which("gcc")
    if gcc is None:
        return _not("no gcc on PATH to compile the program with its test harness")
    source = settings.source or program.main_file
    try:
        if settings.text is not None:
            text = settings.text
        else:
            with open(source, encoding="utf-8", errors="surrogateescape") as fh:
                text = fh.read()
    except OSError as exc:
        return _not(f"the program's source cannot be read ({exc.strerror})")
    harness = v.harness if v.harness is not None else harness_for(program, v)
    memory = v.kind in _MEMORY_KINDS
    if memory and any(i.source.endswith("__cbam_alloc_fails") and i.value for i in v.inputs):
        # The harness's malloc takes the path's decisions in the order of the calls, and the
        # sanitizers' runtime calls it too, before main: a failure would land on the wrong call.
        return _not("the path has an allocation that fails, which a run under AddressSanitizer cannot replay")
    with tempfile.TemporaryDirectory(prefix="cbam-replay-") as workdir:
        build = _Build(workdir, gcc, os.path.join(workdir, os.path.basename(source)), text, harness,
                       _mode(program), [], memory)
        with open(build.source, "w", encoding="utf-8", errors="surrogateescape") as fh:
            fh.write(text)
        try:
            return _replay(program, v, settings, build, time.monotonic() + limit, source)
        except subprocess.TimeoutExpired:
            return _not(f"the replay ran longer than its time limit of {limit:.3g} s")
        except OSError as exc:
            return _not(f"the replay could not be started ({exc.strerror or exc})")


def harness_for(program: Program, v: Violation) -> str:
    """The violation's test harness (a run that keeps no harnesses still replays with one)."""
    from .harness import write_harness

    return write_harness(program, v, program.main_file)


def _not(reason: str) -> Replay:
    return Replay(ReplayStatus.NOT_REPLAYED, reason)


def _mode(program: Program) -> list[str]:
    return ["-m32"] if program.data_model.name == "ILP32" else []


def _compile_flags(settings: NativeReplay, source: str) -> list[str]:
    """The program's own compile flags: those the front end read it with, its directory for
    its includes (the copy compiled lives elsewhere)."""
    pp = settings.preprocess
    return _flags_of(pp if isinstance(pp, PreprocessOptions) else None, source)


def _flags_of(pp: PreprocessOptions | None, source: str) -> list[str]:
    flags = ["-I", os.path.dirname(os.path.abspath(source))]  # as the front end's preprocessor has it
    if pp is not None:
        flags += [f"-std={pp.std}"] if pp.std else []
        flags += [f"-D{d}" for d in pp.defines] + [f"-U{u}" for u in pp.undefines]
        # From where cbam runs, as the front end read them: gcc runs in the replay's own folder.
        flags += [a for inc in pp.include_paths for a in ("-I", os.path.abspath(inc))]
        flags += [a for inc in pp.force_includes for a in ("-include", os.path.abspath(inc))]
    return flags


def _left(end: float) -> float:
    left = end - time.monotonic()
    if left <= 0:
        raise subprocess.TimeoutExpired("gcc", 0)
    return left


def _run_tool(build: _Build, cmd: list[str], end: float) -> subprocess.CompletedProcess:
    build.commands.append(cmd)
    return subprocess.run(cmd, capture_output=True, text=True, errors="replace", timeout=_left(end),
                          cwd=build.workdir, stdin=subprocess.DEVNULL)


def _first_error(stderr: str) -> str:
    """gcc's or the linker's first complaint (not collect2's summary of it)."""
    lines = stderr.splitlines()
    said = [ln for ln in lines if ("error" in ln or "undefined reference" in ln) and "collect2" not in ln]
    return (said or lines or ["(no message)"])[0].strip()[:300]


def _replay(program: Program, v: Violation, settings: NativeReplay, b: _Build, end: float, original: str) -> Replay:
    cc = [b.gcc, "-w", "-g", "-O0", *b.mode, *(_SANITIZE if b.memory else [])]
    prog_o = os.path.join(b.workdir, "program.o")
    r = _run_tool(b, [*cc, *_compile_flags(settings, original), "-c", b.source, "-o", prog_o], end)
    if r.returncode != 0:
        why = _toolchain_problem(b, cc, end)
        return _not(why or f"gcc does not compile the program: {_first_error(r.stderr)}")
    hpath = os.path.join(b.workdir, "cbam_harness.c")
    with open(hpath, "w", encoding="utf-8") as fh:
        fh.write(b.harness)
    harness_o = os.path.join(b.workdir, "cbam_harness.o")
    r = _run_tool(b, [*cc, "-c", hpath, "-o", harness_o], end)
    if r.returncode != 0:
        why = _toolchain_problem(b, cc, end)
        if why:
            return _not(why)
        # The program compiles and the toolchain works: the harness cbam wrote from its reading
        # of the program is not C that fits it.
        return _disagree(program, v, settings, b, f"its test harness does not compile: {_first_error(r.stderr)}",
                         r, None)
    objects = [prog_o, harness_o]
    for i, unit in enumerate(settings.units):
        unit_o = os.path.join(b.workdir, f"unit{i}.o")
        unit_c = os.path.abspath(unit.path)
        if unit.text is not None:  # the editor's unsaved text, compiled under the file's own name
            os.makedirs(os.path.join(b.workdir, f"unit{i}"))
            unit_c = os.path.join(b.workdir, f"unit{i}", os.path.basename(unit.path))
            with open(unit_c, "w", encoding="utf-8", errors="surrogateescape") as fh:
                fh.write(unit.text)
        r = _run_tool(b, [*cc, *_flags_of(unit.options, unit.path), "-c", unit_c, "-o", unit_o], end)
        if r.returncode != 0:
            return _not(f"gcc does not compile {unit.path}: {_first_error(r.stderr)}")
        objects.append(unit_o)
    nonce = secrets.token_hex(6)
    if not b.memory:
        objcopy = shutil.which("objcopy")
        if objcopy is None:
            return _not("no objcopy on PATH (binutils) to take over the program's error functions")
        weaken = [f"--weaken-symbol={f}" for f in (*_ERROR_FUNCTIONS, *_ASSERT_FUNCTIONS, "__VERIFIER_assert")]
        for obj in objects:
            r = _run_tool(b, [objcopy, *weaken, obj], end)
            if r.returncode != 0:
                return _not(f"objcopy failed: {_first_error(r.stderr)}")
        marks = os.path.join(b.workdir, "cbam_marks.c")
        with open(marks, "w", encoding="utf-8") as fh:
            fh.write(_marks(nonce, builtin_assert="__VERIFIER_assert" not in program.functions))
        marks_o = os.path.join(b.workdir, "cbam_marks.o")
        r = _run_tool(b, [*cc, "-c", marks, "-o", marks_o], end)
        if r.returncode != 0:
            return _not(_toolchain_problem(b, cc, end) or f"gcc does not compile cbam's markers: {_first_error(r.stderr)}")
        objects.append(marks_o)
    exe = os.path.join(b.workdir, "replay")
    # Not position-independent: addr2line reads the marker's caller address as it is in the file.
    r = _run_tool(b, [*cc, "-no-pie", *objects, "-o", exe], end)
    if r.returncode != 0:
        return _not(_toolchain_problem(b, cc, end) or f"the program does not link: {_first_error(r.stderr)}")
    run = _execute(b, exe, end)
    if b.memory:
        verdict, observed = _judge_memory(v, run, b)
    else:
        verdict, observed = _judge_reach(v, run, b, exe, nonce, end)
    if verdict == ReplayStatus.REPLAYED:
        return Replay(ReplayStatus.REPLAYED, "", observed)
    if verdict == ReplayStatus.NOT_REPLAYED:
        return _not(observed)
    return _disagree(program, v, settings, b, observed, None, run)


_probed: dict[tuple[str, ...], str] = {}


def _toolchain_problem(b: _Build, cc: list[str], end: float) -> str:
    """Why gcc cannot build any program in this mode here (no 32-bit libraries, no sanitizer
    runtime), or "" if it can: a failure that is neither the program's nor the harness's."""
    key = tuple(cc)
    if key not in _probed:
        probe = os.path.join(b.workdir, "cbam_probe.c")
        with open(probe, "w") as fh:
            fh.write("#include <stdio.h>\n#include <stdlib.h>\nint main(void) { puts(\"\"); return 0; }\n")
        r = subprocess.run([*cc, probe, "-o", os.path.join(b.workdir, "cbam_probe")], capture_output=True, text=True,
                           errors="replace", timeout=_left(end), cwd=b.workdir)
        what = " ".join(f for f in cc[1:] if f.startswith(("-m", "-fsanitize")))
        _probed[key] = "" if r.returncode == 0 else \
            f"gcc cannot build programs with {what or 'its defaults'} here: {_first_error(r.stderr)}"
    return _probed[key]


def _marks(nonce: str, builtin_assert: bool) -> str:
    """The error functions, in place of the harness's and the program's own (weakened): each
    says it was reached and from where (the return addresses of the calls open, for addr2line),
    and ends the run with REACHED_STATUS (not abort(), which the program may call itself)."""
    lines = [
        "#include <execinfo.h>",
        "#include <stdio.h>",
        "#include <unistd.h>",
        # Not inlined (-O0): frames[0] is in here, frames[1] in the error function, frames[2] its caller.
        "static void cbam_reached(const char *what) {",
        "  void *frames[64];",
        "  int n = backtrace(frames, 64);",
        f'  fprintf(stderr, "\\ncbam-replay-{nonce}: %s reached from", what);',
        '  for (int i = 2; i < n; i++) fprintf(stderr, " %p", frames[i]);',
        '  fputc(\'\\n\', stderr);',
        "  fflush(stderr);",
        f"  _exit({REACHED_STATUS});",
        "}",
        'void reach_error(void) { cbam_reached("reach_error()"); }',
        'void __VERIFIER_error(void) { cbam_reached("__VERIFIER_error()"); }',
        # glibc's assert(): these override the library's (an executable's definition comes first).
        'void __assert_fail(const char *e, const char *f, unsigned int l, const char *fn) { cbam_reached("assert()"); }',
        "void __assert_perror_fail(int e, const char *f, unsigned int l, const char *fn) {",
        '  cbam_reached("assert_perror()"); }',
    ]
    if builtin_assert:
        lines.append('void __VERIFIER_assert(int c) { if (!c) cbam_reached("__VERIFIER_assert()"); }')
    return "\n".join(lines) + "\n"


@dataclass
class _Run:
    command: list[str]
    status: int  # the exit status; minus the signal's number if one ended it
    stdout: str
    stderr: str


def _execute(b: _Build, exe: str, end: float) -> _Run:
    env = {**os.environ, "ASAN_OPTIONS": _ASAN_OPTIONS, "UBSAN_OPTIONS": _UBSAN_OPTIONS}
    out_path, err_path = os.path.join(b.workdir, "stdout"), os.path.join(b.workdir, "stderr")
    with open(out_path, "wb") as out, open(err_path, "wb") as err:
        proc = subprocess.Popen([exe], stdin=subprocess.DEVNULL, stdout=out, stderr=err, cwd=b.workdir, env=env,
                                start_new_session=True, preexec_fn=_child_setup(b.memory))
        try:
            status = proc.wait(timeout=_left(end))
        except subprocess.TimeoutExpired:
            _kill_group(proc)
            raise
    return _Run([exe], status, _tail(out_path), _tail(err_path))


def _child_setup(sanitized: bool):
    """What the run's process does before it starts the program: it dies with the thread that
    started it (an analysis worker the editor kills for a newer edit must not leave a program
    looping behind it); and, under AddressSanitizer, which reserves terabytes of address space
    for its shadow memory, it drops the soft limit the analysis set for itself (limits.py)."""
    import ctypes
    import resource

    prctl = getattr(ctypes.CDLL(None, use_errno=True), "prctl", None)  # Linux's
    pr_set_pdeathsig = 1

    def setup() -> None:
        if prctl is not None:
            prctl(pr_set_pdeathsig, signal.SIGKILL)
        if sanitized:
            _soft, hard = resource.getrlimit(resource.RLIMIT_AS)
            resource.setrlimit(resource.RLIMIT_AS, (hard, hard))
    return setup


def _kill_group(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except OSError:
        pass
    proc.wait()


def _tail(path: str) -> str:
    with open(path, "rb") as fh:
        fh.seek(0, os.SEEK_END)
        size = fh.tell()
        fh.seek(max(0, size - 64 * _TAIL))
        return fh.read().decode("utf-8", "replace")


def _at(v: Violation) -> str:
    r = v.range
    return f"{os.path.basename(r.file)}:{r.line}" if r is not None else "(unknown place)"


def _same_place(v: Violation, file: str, line: int) -> bool:
    """Whether a place a report names is the violation's."""
    return v.range is None or _in(v.range, file, line)


def _in(r: Range, file: str, line: int) -> bool:
    """Whether a file's line is in a range (the compiled copy has the original's base name; a
    header keeps its own)."""
    return os.path.basename(file) == os.path.basename(r.file) and r.line <= line <= max(r.line, r.end_line)


def _judge_reach(v: Violation, run: _Run, b: _Build, exe: str, nonce: str, end: float) -> tuple[ReplayStatus, str]:
    found = re.search(rf"cbam-replay-{nonce}: (\S+) reached from((?: (?:0x[0-9a-f]+|\(nil\)))*)", run.stderr)
    if found is None or run.status != REACHED_STATUS:
        return ReplayStatus.DISAGREES, f"the run {_ending(run)} without reaching an error function"
    what = found.group(1)
    addresses = [int(a, 16) for a in found.group(2).split() if a.startswith("0x")]
    addr2line = shutil.which("addr2line")
    if addr2line is None or not addresses:
        return ReplayStatus.REPLAYED, f"reached {what} (its place unchecked: no addr2line)"
    # A return address is just past its call: one byte back is in the call's line.
    r = _run_tool(b, [addr2line, "-e", exe, *(hex(a - 1) for a in addresses)], end)
    stack = [(m.group(1), int(m.group(2))) for m in re.finditer(r"^(\S+?):(\d+)", r.stdout, re.M)
             if not m.group(1).startswith("??")]
    if not stack:
        return ReplayStatus.REPLAYED, f"reached {what} (addr2line did not place its call)"
    file, line = stack[0]
    where = f"{os.path.basename(file)}:{line}"
    # The path check names the check where the user reads it (a __VERIFIER_assert's call) and
    # the error call itself as its last step: the run's innermost call must be one of them, and
    # the check among the calls open.
    checks = [v.range, *(s.range for s in v.steps if s.kind == "error")]
    innermost = any(r is not None and _in(r, file, line) for r in checks)
    open_calls = v.range is None or any(_in(v.range, f, n) for f, n in stack)
    if not (innermost and open_calls):
        return ReplayStatus.DISAGREES, f"the run reached {what} at {where}, not at {_at(v)}"
    via = "" if v.range is None or _in(v.range, file, line) else f" (from the check at {_at(v)})"
    return ReplayStatus.REPLAYED, f"reached {what} at {where}{via}"


def _judge_memory(v: Violation, run: _Run, b: _Build) -> tuple[ReplayStatus, str]:
    reports = []
    asan = _ASAN_ERROR.search(run.stderr)
    if asan is not None:
        what = asan.group(1).split(" on ", 1)[0].split(" on address", 1)[0].strip()
        kind = "valid-free" if any(what.startswith(f) for f in _FREE_REPORTS) else "valid-deref"
        # The first frame in the program: not the sanitizer's interceptors, not the C library.
        frame = next((f for f in _FRAME.finditer(run.stderr, asan.end()) if not _library(f.group(1))), None)
        place = (frame.group(1), int(frame.group(2))) if frame is not None else None
        reports.append((asan.start(), kind, f"AddressSanitizer: {what}", place))
    lsan = _LSAN_ERROR.search(run.stderr)
    if lsan is not None:
        reports.append((lsan.start(), "valid-memtrack", "LeakSanitizer: detected memory leaks", None))
    ubsan = _UBSAN_NULL.search(run.stderr)
    if ubsan is not None:
        reports.append((ubsan.start(), "valid-deref", f"runtime error: {ubsan.group(4)}",
                        (ubsan.group(1), int(ubsan.group(2)))))
    if not reports:
        if v.kind == "valid-memtrack" and run.status == -signal.SIGABRT:
            return ReplayStatus.NOT_REPLAYED, ("the run ended in abort(), where LeakSanitizer does not look for "
                                               "leaks (it checks when the program exits)")
        return ReplayStatus.DISAGREES, f"the run {_ending(run)} without a sanitizer report"
    _, kind, text, place = min(reports, key=lambda rep: rep[0])
    where = f" at {os.path.basename(place[0])}:{place[1]}" if place is not None else ""
    if kind != v.kind:
        return ReplayStatus.DISAGREES, f"the run reported {text}{where} ({kind}), not {v.kind}"
    if place is not None and not _same_place(v, *place):
        return ReplayStatus.DISAGREES, f"the run reported {text}{where}, not at {_at(v)}"
    return ReplayStatus.REPLAYED, f"reported {text}{where}"


def _library(path: str) -> bool:
    return path.startswith(("../", "/usr/")) or "sanitizer" in path or "/sysdeps/" in path


def _ending(run: _Run) -> str:
    if run.status < 0:
        try:
            name = signal.Signals(-run.status).name
        except ValueError:
            name = f"signal {-run.status}"
        return f"was ended by {name}"
    return f"exited with status {run.status}"


def _disagree(program: Program, v: Violation, settings: NativeReplay, b: _Build, what: str,
              compile_run: subprocess.CompletedProcess | None, run: _Run | None) -> Replay:
    """Keep the program, the harness and both outcomes where a user can send them from."""
    from ..sha import sha256

    digest = sha256("\0".join([b.program_text, b.harness, v.kind, str(v.range)]).encode()).hexdigest()[:16]
    root = settings.keep_dir or default_keep_dir()
    kept = os.path.join(root, digest)
    try:
        os.makedirs(kept, exist_ok=True)
        name = os.path.basename(b.source)
        with open(os.path.join(kept, name), "w", encoding="utf-8", errors="surrogateescape") as fh:
            fh.write(b.program_text)
        with open(os.path.join(kept, "cbam_harness.c"), "w", encoding="utf-8") as fh:
            fh.write(b.harness)
        from cbam import __version__

        bundle = {
            "cbam": __version__,
            "program": name, "source": settings.source or program.main_file, "harness": "cbam_harness.c",
            "data_model": program.data_model.name,
            "path_check": v.to_json(),
            "run": {"disagreement": what, "commands": [" ".join(c) for c in b.commands],
                    **({"compile_status": compile_run.returncode, "compile_stderr": compile_run.stderr[-_TAIL:]}
                       if compile_run is not None else {}),
                    **({"exit_status": run.status, "stdout_tail": run.stdout[-_TAIL:],
                        "stderr_tail": run.stderr[-_TAIL:]} if run is not None else {})},
        }
        with open(os.path.join(kept, "outcome.json"), "w", encoding="utf-8") as fh:
            json.dump(bundle, fh, indent=2)
            fh.write("\n")
    except OSError as exc:
        what += f" (the evidence could not be kept in {kept}: {exc.strerror})"
    return Replay(ReplayStatus.DISAGREES, what, what, kept)
