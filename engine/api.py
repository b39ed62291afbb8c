"""The engine's one door. The command line, the language server's workers and its hover use
what is here and nothing below it: text goes in, a typed result comes out.

    program = api.load("prog.c")                      # FrontendError on bad input
    result = api.verify(program, api.VerifyOptions())  # a VerificationResult, never an exception
    report = api.verify_entries("lib.c", options=...)  # every entry point, merged, with a status
                                                       # and the summaries' key for each function

Heavy modules (the parser, z3, the analyses) are imported by the functions that need them: a
process that answers an unchanged source from the cache imports this module and the few light
ones below, and nothing else.
"""

from __future__ import annotations

import os as _os

from .answer import Answer
from .core.kinds import DecidedBy, UnknownReason
from .cpa import registry
from .frontend.compile_db import CompileFlags, Unit, flags_for, load_compile_commands, parse_compile_flags
from .frontend.errors import Diagnostic, FrontendError, Range
from .frontend.preprocess import Preprocessing, PreprocessOptions
from .options import DATA_MODELS, PROPERTIES, THEORIES, NativeReplay, VerifyOptions
from .smt import lazy_z3

TYPE_CHECKING = False  # typing itself is not imported: see cache/store.py
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from .cache.store import CacheStore
    from .cfa.cfa import Program
    from .core.result import VerificationResult, Violation  # noqa: F401  (the typed result, for callers)
    from .report_file import FileReport, FunctionReport  # noqa: F401
    from .tasks import Task

__all__ = ["Answer", "DecidedBy", "UnknownReason", "Diagnostic", "FrontendError", "Range", "PreprocessOptions", "Preprocessing", "VerifyOptions", "NativeReplay",
           "DATA_MODELS", "PROPERTIES", "THEORIES", "configurations", "default_configuration", "load", "preprocess", "verify",
           "verify_entries", "unknown_report", "source_files", "entry_points", "answer_unchanged",
           "unpreprocessed_key", "answer_unpreprocessed", "open_cache", "summaries", "cfa_text", "limit_memory",
           "load_task", "self_check", "warm_up", "prepare_next_run", "CompileFlags", "flags_for", "load_compile_commands",
           "parse_compile_flags", "Unit", "link"]


# ---- what there is to choose ------------------------------------------------------------------
def configurations() -> dict[str, str]:
    """Configuration name -> description, from the analysis registry."""
    return {name: c.description for name, c in registry.CONFIGURATIONS.items()}


def default_configuration() -> str:
    return registry.DEFAULT


# ---- text -> program --------------------------------------------------------------------------
def preprocess(path: str, text: str | None = None, options: PreprocessOptions | None = None) -> str:
    from .frontend.preprocess import preprocess as run_cpp

    return run_cpp(path, text, options or PreprocessOptions())


def link(units: list[Unit]) -> str:
    """Several translation units as one program's preprocessed text (frontend/link.py), to be
    given to :func:`load` or :func:`verify_entries` as ``preprocessed`` with the first unit's
    path: external names resolve across the units, ``static`` ones stay in theirs, and two
    definitions of one symbol, or types that disagree, are a FrontendError that says where."""
    from .frontend.link import linked_text

    return linked_text(units)


def source_files(preprocessed: str) -> list[str]:
    """The files the output of :func:`preprocess` was read from (the source and its headers)."""
    from .frontend.tokens import source_files as files

    return files(preprocessed)


def load(path: str, *, text: str | None = None, preprocess: PreprocessOptions | None = None, entry: str = "main",
         preprocessed: str | None = None, cache: CacheStore | None = None, unpreprocessed: str | None = None
         ) -> Program:
    """The program's CFAs (built incrementally: unchanged functions are reused from earlier loads
    in this process, and with ``cache`` from earlier processes). FrontendError carries
    gcc-style diagnostics for bad input. ``unpreprocessed``: ``unpreprocessed_key`` of the run
    that made ``preprocessed``."""
    from .cfa.load import load_program

    return load_program(path, text=text, options=preprocess, entry=entry, preprocessed=preprocessed, store=cache,
                        unpreprocessed=unpreprocessed)


def entry_points(program: Program) -> list[str]:
    """main when there is one; otherwise every function no other function calls (a library's
    API), each with arbitrary arguments."""
    from .report_file import entry_points as entries

    return entries(program)


def load_task(path: str) -> Task:
    """An SV-COMP task definition (.yml): its input file, data model and properties."""
    from .tasks import load_task as load

    return load(path)


# ---- program -> result ------------------------------------------------------------------------
def verify(program: Program, options: VerifyOptions | None = None) -> VerificationResult:
    """Verify from the program's entry (on a thread with a deep stack: deep recursion in the
    program is deep recursion here)."""
    from .verify import run_deep, verify_program

    return run_deep(lambda: verify_program(program, options))


def verify_entries(path: str, *, text: str | None = None, preprocess: PreprocessOptions | None = None,
                   entries: list[str] | None = None, options: VerifyOptions | None = None,
                   preprocessed: str | None = None, on_partial: Callable[[FileReport], None] | None = None,
                   entry_file: str | None = None) -> FileReport:
    """Verify a file from each of its entry points (``entries``, else :func:`entry_points`) and
    report them together, with a status per function. FrontendError on bad input.
    ``preprocessed``: the output of :func:`preprocess` for this text, if the caller ran it.
    ``on_partial``: called with the report so far (``result.partial`` set) each time a violation
    is confirmed while the search for further ones goes on. ``entry_file``: without ``entries``,
    only the entry points defined in this file (a program linked from several, api.link)."""
    from .report_file import verify_file_entries

    return verify_file_entries(path, text, preprocess, entries, options or VerifyOptions(), preprocessed,
                               on_partial, entry_file)


def unknown_report(reason: str, kind: str, options: VerifyOptions | None = None, file: str = "") -> FileReport:
    """The report of a run that ended before it had a result (the memory limit, say)."""
    from .core.result import VerificationResult
    from .report_file import FileReport, FunctionReport  # noqa: F401

    result = VerificationResult("UNKNOWN", reason, config=(options or VerifyOptions()).config,
                                reason_kind=UnknownReason(kind), file=file)
    return FileReport(result, [], [], [])




# ---- the cache --------------------------------------------------------------------------------
def open_cache(directory: str | None = None, write_behind: bool = False) -> CacheStore:
    """The persistent cache (the user's cache directory by default). OSError if it cannot be
    created; a damaged or foreign database is rebuilt (``rebuilt_reason`` says why).

    ``write_behind``: what a run writes waits for ``write_pending()`` on the store, to be
    called once the run's answer is out (a file's later entries see what earlier ones wrote)."""
    from .cache.store import CacheStore

    store = CacheStore(directory)
    store.write_behind = write_behind
    return store


def answer_unchanged(store: CacheStore, path: str, pp_text: str, preprocess: PreprocessOptions, entry: str,
                     options: VerifyOptions, unpreprocessed: str | None = None
                     ) -> Answer | None:
    """The answer of a source the cache has answered with these options before, found before
    anything is parsed; None if it has not. A found answer is filed
    under ``unpreprocessed`` (the source's ``unpreprocessed_key``) too, for the next process."""
    from .cache import unchanged
    from .cache.keys import source_run_key
    from .frontend.source_key import source_key

    key = source_run_key(source_key(path, None, pp_text, preprocess, entry), options)
    if key is None:
        return None
    found = unchanged.lookup(store, key, options.replay is not None)
    alias = source_run_key(unpreprocessed, options)
    if found is not None and alias is not None:
        unchanged.alias(store, key, alias, _os.path.abspath(path))
    return found


def unpreprocessed_key(run: Preprocessing, preprocess: PreprocessOptions, entry: str) -> str | None:
    """The address of a preprocessor run's source that is known before the run ends, where its
    bytes and command line decide its text (a file without directives); else None."""
    from .frontend.source_key import unpreprocessed_key as key

    return key(run.path, run.raw, run.cmd, preprocess, entry)


def answer_unpreprocessed(store: CacheStore, key: str, options: VerifyOptions) -> Answer | None:
    """answer_unchanged by the address ``unpreprocessed_key`` gave: no preprocessor run needed."""
    from .cache import unchanged
    from .cache.keys import source_run_key

    run_key = source_run_key(key, options)
    return None if run_key is None else unchanged.lookup(store, run_key, options.replay is not None)


def summaries(store: CacheStore, function_key: str | None, name: str = "") -> list[dict[str, Any]]:
    """The block abstractions the cache holds for a function (by the key a result gave it), each
    with its rendered entry and exit; newest first."""
    if function_key is None and not name:
        return []
    return store.blocks_for_function(name, function_key)


def summary_lines(name: str, params: list[str], rows: list[dict[str, Any]]) -> list[str]:
    from .core.summaries import summary_lines as lines

    return lines(name, params, rows)


def summary_row(name: str, params: list[str], row: dict[str, Any]) -> tuple[str, str]:
    from .core.summaries import block_row

    return block_row(name, params, row)


def calls_relation(name: str, params: list[str], rows: list[dict[str, Any]]) -> str | None:
    from .core.summaries import calls_relation as relation

    return relation(name, params, rows)


# ---- other views of a program -----------------------------------------------------------------
def cfa_text(program: Program, function: str | None = None, dot: bool = False) -> str:
    """The control-flow automata as text (with each function's fingerprint) or Graphviz."""
    from .cfa.dot import function_text, program_dot

    if dot:
        return program_dot(program, function)
    funcs = [program.functions[function]] if function else list(program.functions.values())
    return "".join(f"{function_text(f)}  fingerprint {f.fingerprint}\n" for f in funcs)


# ---- process-level ----------------------------------------------------------------------------
def warm_up() -> None:
    """Import what an analysis needs (the parser, z3, the engine: about half a second), so that
    a process started ahead of need answers its first job without that cost."""
    import importlib

    # The modules a run loads only when it needs them (the path check, the engines beside CEGAR)
    # as well: a worker imports them before its first job.
    for module in (f"{__package__}.{m}" for m in ("verify", "report_file", "cache.store", "cfa.load", "cex.encoding",
                                                   "cex.report", "cex.harness", "algorithms.paths",
                                                   "algorithms.horn.clauses", "algorithms.kinduction", "algorithms.cparec",
                                                   "algorithms.bmc.recursion")):
        importlib.import_module(module)
    lazy_z3.load()
    registry.analyses(registry.configuration(registry.DEFAULT))
    lazy_z3.prepare_context()


def release_leftovers(stop: Callable[[], bool] | None = None) -> bool:
    """Free what a run cut by its time limit left (engine/release.py): once its answer is out.
    With ``stop``, in steps of about a millisecond, asking it between steps: False when it said
    to stop (the rest is freed by the next call; the next run's start leaves it alone)."""
    from .release import now

    return now(stop)


def prepare_next_run() -> None:
    """What a process that waits for its next run can do ahead of it (the language server's
    worker, between jobs): make the z3 context that run will use."""
    lazy_z3.prepare_context()


def limit_memory(megabytes: int) -> None:
    from .limits import limit_memory as limit

    limit(megabytes)


def self_check(cached: dict[str, Any], scratch: dict[str, Any], several: bool) -> None:
    """Raise SelfCheckFailed if two reports of the same run (one that used the cache, one that
    did not) disagree (see selfcheck.py)."""
    from . import selfcheck

    problem = selfcheck.compare(cached, scratch, several)
    if problem is not None:
        raise selfcheck.failure(problem, cached, scratch)
