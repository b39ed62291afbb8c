"""A file verified from each of its entry points, reported together: the editor's view (and the
command line's for a file without ``main``). Each function gets a status from the result, so
that no client re-derives what the engine knows."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from .cfa.load import load_program
from .core.result import Statistics, UnknownReason, VerificationResult
from .frontend.errors import Diagnostic, Range
from .frontend.libc import is_member_file
from .frontend.preprocess import PreprocessOptions
from .options import VerifyOptions
from .verify import run_deep, verify_program


class Status:
    """What is known of a function after a run."""

    VERIFIED = "verified"  # no violation is reachable through it
    VIOLATION = "violation"  # a reported violation is in it
    UNKNOWN = "unknown"  # the run could not say (or stopped before looking everywhere)
    NOT_ANALYSED = "not analysed"  # no entry point reaches it
    UNSUPPORTED = "unsupported"  # it uses a construct cbam cannot analyse


@dataclass
class FunctionReport:
    name: str
    range: Range | None
    name_range: Range | None
    params: list[str]
    fingerprint: str
    key: str | None  # what its summaries are filed under in the cache (None: the cache was off)
    reachable: bool
    unsupported: str | None
    calls: list[tuple[str, Range]] = field(default_factory=list)  # callee and the call's place
    status: str = Status.NOT_ANALYSED


@dataclass
class FileReport:
    """What the editor shows of a file: the merged result of its entry points, the entries, a
    report per function, and the front end's warnings."""

    result: VerificationResult
    entries: list[str]
    functions: list[FunctionReport]
    diagnostics: list[Diagnostic]


def entry_points(program, in_file: str | None = None) -> list[str]:
    """main when there is one; otherwise every function no other function calls (a library's
    API), each with arbitrary arguments. ``in_file``: only those defined in that file."""
    if "main" in program.functions:
        return ["main"]
    called = set().union(*(f.calls for f in program.functions.values())) if program.functions else set()
    # Not cbam's own headers' functions (<ctype.h>'s): the program's API is the program's.
    roots = [name for name, f in program.functions.items() if name not in called and not name.startswith("__cbam_")
             and _own(f) and (in_file is None or _defined_in(f, in_file))]
    return roots or list(program.functions)[:1] or ["main"]


def _own(f) -> bool:
    """Not a function of the C library that cbam links in as C (frontend/libc.py)."""
    return f.name_range is None or not is_member_file(f.name_range.file)


def _defined_in(f, path: str) -> bool:
    return f.name_range is not None and os.path.realpath(f.name_range.file) == os.path.realpath(path)


def verify_file_entries(path: str, text: str | None, pp: PreprocessOptions | None, entries: list[str] | None,
                        options: VerifyOptions, preprocessed: str | None = None,
                        on_partial: Callable[[FileReport], None] | None = None,
                        entry_file: str | None = None) -> FileReport:
    """``on_partial``: told, each time a violation is confirmed while the search goes on, what
    the file's report is so far (``result.partial``: functions not yet on a violation are
    UNKNOWN)."""
    program = load_program(path, text=text, options=pp, entry="main", preprocessed=preprocessed, store=options.cache)
    if options.replay is not None:  # gcc compiles what the front end read: this text, these flags
        options = options._replace(replay=options.replay._replace(source=path, text=text, preprocess=pp))
    chosen = list(entries) if entries else entry_points(program, entry_file)
    results: list[VerificationResult] = []
    tables: list[list[FunctionReport]] = []
    # The time limit is the file's: each entry gets a fair share of what is left (an entry that
    # finishes early leaves its rest to the others).
    deadline = None if options.timeout is None else time.monotonic() + options.timeout
    for k, entry in enumerate(chosen):
        if k and options.cache is not None:
            options.cache.write_pending()  # (write-behind) for this entry's lookups
        prog = program if entry == "main" else load_program(path, text=text, options=pp, entry=entry,
                                                             preprocessed=preprocessed, store=options.cache)
        opts = options
        if deadline is not None:
            share = max(0.05, (deadline - time.monotonic()) / (len(chosen) - k))
            opts = opts._replace(timeout=share)
        if on_partial is not None:
            def partial(r: VerificationResult, prog=prog, entry=entry) -> None:
                _entry_messages(r, entry)
                done = len(results)
                report = _report(program, [*results, r], chosen[:done + 1],
                                 [*tables, _functions(prog, r, options.cache is not None)], options)
                report.result.partial = True
                on_partial(report)
            opts = opts._replace(on_partial=partial)
        result = run_deep(lambda p=prog, o=opts: verify_program(p, o))
        _entry_messages(result, entry)
        results.append(result)
        tables.append(_functions(prog, result, options.cache is not None))
    return _report(program, results, chosen, tables, options)


def _entry_messages(result: VerificationResult, entry: str) -> None:
    if entry != "main":
        suffix = f" (entry {entry}, with arbitrary arguments)"
        for v in result.violations:
            if not v.message.endswith(suffix):
                v.message += suffix


def _report(program, results: list[VerificationResult], entries: list[str], tables: list[list[FunctionReport]],
            options: VerifyOptions) -> FileReport:
    merged = merge(results, entries)
    functions = [replace(f) for f in tables[0]]
    for table in tables[1:]:  # a function is reachable if some entry reaches it
        for f, g in zip(functions, table):
            f.reachable = f.reachable or g.reachable
    for f in functions:
        f.status = status(f, merged, options.max_violations)
    return FileReport(merged, entries, functions, list(program.diagnostics))


def merge(results: list[VerificationResult], entries: list[str]) -> VerificationResult:
    """One result for several entry points: FALSE if any is, else UNKNOWN if any is, else TRUE."""
    if len(results) == 1:
        return results[0]
    verdicts = [r.verdict for r in results]
    verdict = "FALSE" if "FALSE" in verdicts else "UNKNOWN" if "UNKNOWN" in verdicts else "TRUE"
    first = results[0]
    unknown = next((r for r in results if r.verdict == "UNKNOWN"), None)
    return replace(
        first, verdict=verdict,
        reason="; ".join(f"{e}: {r.reason}" for e, r in zip(entries, results) if r.reason),
        reason_kind=unknown.reason_kind if unknown is not None and verdict == "UNKNOWN" else UnknownReason.NONE,
        violations=[v for r in results for v in r.violations],
        warnings=[w for r in results for w in r.warnings],
        source="cache" if all(r.source == "cache" for r in results) else "fresh",
        search_stopped=_stopped(verdict, results),
        statistics=Statistics.combined([r.statistics for r in results]),
        unsupported_range=next((r.unsupported_range for r in results if r.unsupported_range), None),
        reason_range=next((r.reason_range for r in results if r.reason_range), None),
        function_keys={k: v for r in results for k, v in r.function_keys.items()},
        replay=next((r.replay for r in results if r.replay is not None), None),
        # A summary proved from one entry holds for that entry's calls only: shown only if
        # every entry's run was proved that way.
        invariants=results[0].invariants if len(results) == 1 else {})


def _stopped(verdict: str, results: list[VerificationResult]) -> UnknownReason:
    """Why the file's search did not look everywhere: an entry's search stopped early, or, beside
    an entry's violation, another entry could not be decided at all (its functions are not
    verified by the violation elsewhere)."""
    for r in results:
        if r.search_stopped:
            return r.search_stopped
    if verdict == "FALSE":
        for r in results:
            if r.verdict == "UNKNOWN":
                return r.reason_kind or UnknownReason.INTERNAL
    return UnknownReason.NONE


def search_complete(result: VerificationResult, max_violations: int) -> bool:
    """Whether a FALSE run looked everywhere: then a function on no error path is verified."""
    return not result.partial and result.search_stopped == UnknownReason.NONE and \
        len(result.violations) < max_violations


def status(f: FunctionReport, result: VerificationResult, max_violations: int) -> str:
    if f.unsupported:
        return Status.UNSUPPORTED
    if not f.reachable:
        return Status.NOT_ANALYSED
    names = {v.function for v in result.violations}
    names |= {s.function for v in result.violations for s in v.steps if s.kind == "error"}
    if f.name in names:
        return Status.VIOLATION
    if result.verdict == "TRUE":
        return Status.VERIFIED
    if result.verdict == "FALSE":
        return Status.VERIFIED if search_complete(result, max_violations) else Status.UNKNOWN
    return Status.UNKNOWN


def _functions(program, result: VerificationResult, cached: bool) -> list[FunctionReport]:
    reach = program.callgraph.reachable(program.start.name)
    out = []
    for f in program.functions.values():
        calls = [(e.callee, e.range) for e in f.edges() if getattr(e, "callee", None) and e.range is not None]
        out.append(FunctionReport(
            f.name, f.range, f.name_range, [program.vars[p].name.split("::", 1)[1] for p in f.params], f.fingerprint,
            result.function_keys.get(f.name) if cached else None, f.name in reach,
            f.unsupported[0] if f.unsupported else None, calls))
    return out
