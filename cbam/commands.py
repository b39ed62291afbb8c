"""The commands: ``cbam verify``, ``cbam summary``, ``cbam cache``, ``cbam cfa``. Each reads its
arguments, asks the engine (``cbam.engine.api`` and nothing below it) and renders the answer."""

from __future__ import annotations

import argparse
import gc
import json
import os
import resource
import sys
import threading
import time
from functools import partial

from cbam.arguments import (
    add_cache_options,
    add_frontend_options,
    add_project_options,
    collect,
    open_cache,
    pp_options,
)
from cbam.engine import api
from cbam.render import print_text, write_harnesses

EXIT_TRUE, EXIT_FALSE, EXIT_USAGE, EXIT_UNKNOWN = 0, 1, 2, 3


# ---- the parsers --------------------------------------------------------------------------------
def add_commands(sub, only: str | None = None) -> None:
    """cfa, verify, summary and cache (or the one named)."""
    if only in (None, "cfa"):
        p = sub.add_parser("cfa", help="print control-flow automata")
        p.add_argument("file")
        p.add_argument("linked", nargs="*", metavar="FILE", help="with --link: the program's other files")
        p.add_argument("--function", help="only this function")
        p.add_argument("--dot", action="store_true", help="Graphviz output")
        add_frontend_options(p)
        add_project_options(p)
        p.set_defaults(func=cmd_cfa)
    if only in (None, "verify"):
        _add_verify(sub)
    if only in (None, "summary"):
        _add_summary(sub)
    if only in (None, "cache"):
        _add_cache(sub)


def _add_verify(sub) -> None:
    configs = api.configurations()
    p = sub.add_parser("verify", help="verify C files or SV-COMP tasks",
                       description="Prove that no error call or failing assertion is reachable, or show a "
                                   "confirmed counterexample. Exit status: 0 TRUE, 1 FALSE, 3 UNKNOWN, 2 bad input, "
                                   "4 an internal error.")
    p.add_argument("paths", nargs="+", metavar="PATH", help="a .c or .i file, a task .yml, or a folder of them")
    add_frontend_options(p)
    add_project_options(p)
    p.add_argument("--timeout", type=_seconds, default=60.0, metavar="SECONDS", help="per file (default 60)")
    p.add_argument("--memory-limit", type=int, default=8192, metavar="MB", help="address-space limit (default 8192)")
    p.add_argument("--config", default=api.default_configuration(), choices=list(configs),
                   help=f"analysis configuration (default: {api.default_configuration()})")
    p.add_argument("--predicate-theory", default="bv", choices=api.THEORIES,
                   help="path formulas of the predicate analysis: bv (exact, default) or lia (integers; "
                        "a proof is re-checked with bit-vectors)")
    p.add_argument("--format", choices=["text", "json"], default="text")
    p.add_argument("--entry", default=None, metavar="FUNCTION",
                   help="entry function (default: main; without main, every function no other function calls, "
                        "each with arbitrary arguments)")
    p.add_argument("--all-violations", action="store_true",
                   help="keep searching after the first confirmed violation")
    p.add_argument("--property", choices=api.PROPERTIES, default=None,
                   help="what to check: unreach-call (no assertion fails; the default) or memsafety (no invalid "
                        "dereference or free: valid-deref, valid-free); a task .yml with only valid-memsafety "
                        "is checked for memsafety")
    p.add_argument("--alloc-may-fail", action="store_true",
                   help="malloc, calloc and realloc may return NULL (by default allocation succeeds)")
    p.add_argument("--entry-null", action="store_true",
                   help="an entry function's pointer parameters may be NULL (by default each points to a fresh object)")
    p.add_argument("--no-path-exploration", action="store_true",
                   help="only CEGAR: do not follow every path exactly when CEGAR leaves the program undecided")
    p.add_argument("--no-horn", action="store_true",
                   help="do not first try to prove a small program with whole-program invariants from Horn "
                        "clauses (z3's Spacer, checked with machine integers)")
    p.add_argument("--harness", metavar="FILE.c", help="write a test harness for the (first) counterexample")
    p.add_argument("--harness-dir", metavar="DIR", help="write a harness per counterexample into DIR")
    p.add_argument("--no-replay", action="store_true",
                   help="report a counterexample on the path check alone, without compiling it with its test "
                        "harness (gcc) and running it to see the violation happen")
    p.add_argument("--replay-timeout", type=_seconds, default=10.0, metavar="SECONDS",
                   help="at most this long for a counterexample's compile and run, within --timeout (default 10)")
    p.add_argument("--no-progress", action="store_true", help="never show the progress line")
    # Every answer that used the cache is computed again without it and compared (tests, fuzzing).
    p.add_argument("--self-check", action="store_true", help=argparse.SUPPRESS)
    add_cache_options(p)
    p.set_defaults(func=cmd_verify)


def _seconds(text: str) -> float:
    """A time limit: a positive, finite number of seconds."""
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(f"not a positive number of seconds: {text!r}")
    return value


def _add_summary(sub) -> None:
    sm = sub.add_parser("summary", help="print the function summaries cbam infers")
    sm.add_argument("file")
    sm.add_argument("--function", help="only this function")
    sm.add_argument("--config", default=api.default_configuration(), choices=list(api.configurations()),
                    help=f"analysis configuration (default: {api.default_configuration()})")
    sm.add_argument("--timeout", type=_seconds, default=60.0, metavar="SECONDS")
    sm.add_argument("--entry", default=None, metavar="FUNCTION",
                    help="entry function (default: main, else every function no other function calls)")
    add_frontend_options(sm)
    add_cache_options(sm)
    sm.set_defaults(func=cmd_summary)


def _add_cache(sub) -> None:
    c = sub.add_parser("cache", help="inspect or clear the persistent summary cache")
    csub = c.add_subparsers(dest="cache_command", required=True)
    cs = csub.add_parser("stats", help="what the cache holds")
    cs.add_argument("--format", choices=["text", "json"], default="text")
    add_cache_options(cs, allow_disable=False)
    cs.set_defaults(func=cmd_cache_stats)
    cc = csub.add_parser("clear", help="forget everything, or what was learned for one file")
    cc.add_argument("file", nargs="?")
    add_cache_options(cc, allow_disable=False)
    cc.set_defaults(func=cmd_cache_clear)


# ---- cbam cfa ----------------------------------------------------------------------------------
def cmd_cfa(args: argparse.Namespace) -> int:
    if args.linked and not args.link:
        print("cbam: several files make one program only with --link", file=sys.stderr)
        return EXIT_USAGE
    data_model = args.data_model or "LP64"
    try:
        if args.link:  # the program the files make, as verify --link reads it
            units = [api.Unit(f, pp_options(args, data_model, f)) for f in [args.file, *args.linked]]
            program = api.load(args.file, preprocess=units[0].options, preprocessed=api.link(units))
        else:
            program = api.load(args.file, preprocess=pp_options(args, data_model, args.file))
    except api.FrontendError as exc:
        for d in exc.diagnostics:
            print(d, file=sys.stderr)
        return EXIT_USAGE
    status = 0
    for d in program.diagnostics:
        print(str(d).replace(": warning: ", ": error: ", 1), file=sys.stderr)
        status = EXIT_USAGE
    if args.function and args.function not in program.functions:
        print(f"cbam: no function named '{args.function}' in {args.file}", file=sys.stderr)
        return EXIT_USAGE
    sys.stdout.write(api.cfa_text(program, args.function, dot=args.dot))
    return status


# ---- cbam summary ------------------------------------------------------------------------------
def cmd_summary(args: argparse.Namespace) -> int:
    """Verify (reusing the cache), then print each function's block abstractions as summaries."""
    import tempfile

    tmp = None
    store = open_cache(args)
    if store is None:  # summaries are read back from a store: use a throw-away one
        tmp = tempfile.TemporaryDirectory()
        store = api.open_cache(tmp.name)
    args._cache = store
    try:
        return _print_summaries(args, store)
    finally:  # explicitly: the command line exits without Python's finalization (cli.run)
        if args._cache is not None:
            args._cache.close()
        if tmp is not None:
            tmp.cleanup()


def _print_summaries(args: argparse.Namespace, store) -> int:
    # Block summaries are CEGAR's: the Horn-clause engine, which keeps none, stays out.
    opts = api.VerifyOptions(config=args.config, timeout=args.timeout, cache=store, harness=False, horn=False)
    pp = pp_options(args, args.data_model or "LP64")
    entries = [args.entry] if args.entry else None

    def work(child_store, limit: float):
        return api.verify_entries(args.file, preprocess=pp, entries=entries,
                                  options=opts._replace(cache=child_store, timeout=limit))

    from cbam import isolation

    try:
        if not isolation.available():
            report = work(store, args.timeout)
        else:  # in a child, as cbam verify's analysis (_analyse_in_child)
            out, crashes = _isolated(work, args, store, args.timeout)
            store = _store(args)
            report = out.value if out.ok else _no_answer(out, crashes, opts, args.file)
    except api.FrontendError as exc:
        for d in exc.diagnostics:
            print(d, file=sys.stderr)
        return EXIT_USAGE
    if args.function and report.functions and all(f.name != args.function for f in report.functions):
        print(f"cbam: no function named '{args.function}' in {args.file}", file=sys.stderr)
        return EXIT_USAGE
    for f in report.functions:
        if args.function and f.name != args.function:
            continue
        print(f"{f.name}({', '.join(f.params)}):")
        if f.unsupported:
            print(f"  not analysed: unsupported construct ({f.unsupported})")
            continue
        rows = api.summaries(store, f.key, f.name)
        proved = report.result.invariants.get(f.name)
        if not rows and proved:  # a strategy that keeps no block summaries (--config cparec)
            print(f"  true  ==>  {proved}  (one summary for every call, {report.result.statistics.decided_by})")
            continue
        if not rows:
            print("  no summary: not analysed" + ("" if f.reachable else " (not reachable from the entry point)"))
            continue
        for line in api.summary_lines(f.name, f.params, rows):
            print(f"  {line}")
    result = report.result
    print(f"Verification result: {result.verdict}" + (f" ({result.reason})" if result.reason else ""))
    return 0


# ---- cbam cache --------------------------------------------------------------------------------
def cmd_cache_stats(args: argparse.Namespace) -> int:
    store = open_cache(args)
    st = store.stats()
    store.close()
    if args.format == "json":
        json.dump(st, sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        print(f"cache: {st['path']} ({st['bytes'] / 1024:.0f} KiB, schema {st['schema']}, cbam {st['cbam_version']})")
        print(f"  block abstractions: {st['blocks']} for {st['functions']} function versions")
        print(f"  learned precisions: {st['precisions']} files")
        print(f"  verification results: {st['results']} ({st['sources']} answer unchanged sources without parsing)")
        print(f"  counterexample certificates: {st['certificates']} (a violation re-validated after edits it "
              "does not depend on)")
    return 0


def cmd_cache_clear(args: argparse.Namespace) -> int:
    store = open_cache(args)
    target = os.path.abspath(args.file) if args.file else None
    n = store.clear(target)
    n += store.clear(args.file) if args.file and args.file != target else 0
    store.close()
    print(f"cleared {'everything' if not args.file else args.file} ({n} entries)")
    return 0


# ---- cbam verify -------------------------------------------------------------------------------
class _Progress:
    """A one-line progress display on stderr for runs longer than a second (terminals only)."""

    def __init__(self, enabled: bool, label: str):
        self.enabled = enabled and sys.stderr.isatty()
        self.label = label
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.t0 = time.monotonic()
        self.shown = False

    def __enter__(self):
        if self.enabled:
            self._thread = threading.Thread(target=self._run, daemon=True)
            self._thread.start()
        return self

    def _run(self) -> None:
        spinner = "|/-\\"
        i = 0
        if self._stop.wait(1.0):
            return
        while not self._stop.is_set():
            sys.stderr.write(f"\r{spinner[i % 4]} verifying {self.label} ({time.monotonic() - self.t0:.0f}s)")
            sys.stderr.flush()
            self.shown = True
            i += 1
            self._stop.wait(0.25)

    def __exit__(self, *exc):
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        if self.shown:
            sys.stderr.write("\r\033[K")
            sys.stderr.flush()


def peak_memory_mb() -> float:
    """This process's peak resident memory, for benchmarks and users alike. Linux's ru_maxrss
    keeps the highest resident size across exec, so it also counts the process this one was
    forked from: a run started by a 700 MB test process reported 700 MB. VmHWM is this
    program's own (its address space is new at exec)."""
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return round(int(line.split()[1]) / 1024, 1)
    except (OSError, ValueError, IndexError):
        pass
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)  # KiB on Linux


def cmd_verify(args: argparse.Namespace) -> int:
    api.limit_memory(args.memory_limit)
    if args.self_check:
        os.environ["CBAM_SELF_CHECK"] = "1"
    # Linked, the files keep the order given: the first is the one the program is reported under.
    files = [f for p in args.paths for f in collect([p])] if args.link else collect(args.paths)
    args._files = files
    if not files:
        print("cbam: no .c, .i or .yml files to verify", file=sys.stderr)
        return EXIT_USAGE
    if args.link and any(f.endswith(".yml") for f in files):
        print("cbam: --link links C files; a task (.yml) is a program of its own", file=sys.stderr)
        return EXIT_USAGE
    args._prefetch = None if files[0].endswith(".yml") or args.link else _Prefetch(files[0], args)
    args._cache = open_cache(args)
    try:
        return _verify_all([files] if args.link else files, args)
    finally:
        if args._cache is not None:
            args._cache.close()


def _verify_all(programs: list, args: argparse.Namespace) -> int:
    """Each program in turn: a file (a path), or files linked into one (a list of paths)."""
    results: list[dict] = []
    worst = EXIT_TRUE
    for program in programs:
        path = program[0] if isinstance(program, list) else program
        try:
            entry = _verify_one(path, args, program[1:] if isinstance(program, list) else None)
        except api.FrontendError as exc:
            for d in exc.diagnostics:
                print(d, file=sys.stderr)
            entry = {"file": path, "verdict": "ERROR", "reason": str(exc.diagnostics[0]),
                     "exit": EXIT_USAGE}
        results.append(entry)
        code = entry.get("exit", EXIT_UNKNOWN)
        worst = _combine(worst, code)
    if args.format == "json":
        payload = results[0] if len(results) == 1 else {"results": results}
        for r in results:
            r.pop("exit", None)
        sys.stdout.write(json.dumps(payload, indent=2) + "\n")  # one write, however stdout is buffered
    return worst


class _Prefetch:
    """The first .c file's preprocessing, started before the cache is opened: the preprocessor,
    a process of its own (about 10 ms), then runs while this one opens the cache. An unchanged
    source is answered by the two together."""

    def __init__(self, source: str, args: argparse.Namespace):
        self.source = source
        self.pp = pp_options(args, args.data_model or "LP64", source)  # as _verify_one decides for a .c file
        self.run: api.Preprocessing | None = None
        self.error: api.FrontendError | None = None
        self.taken = False
        try:
            self.run = api.Preprocessing(source, None, self.pp)
        except api.FrontendError as exc:  # raised where the text is taken, as if preprocessed there
            self.error = exc

    def unpreprocessed(self, source: str, pp, entry: str) -> str | None:
        """The source's address before its preprocessing ends, where there is one (api.unpreprocessed_key)."""
        if self.taken or self.run is None or source != self.source or pp != self.pp:
            return None
        return api.unpreprocessed_key(self.run, pp, entry)

    def stop(self) -> None:
        self.taken = True
        if self.run is not None:
            self.run.stop()

    def take(self, source: str, pp) -> str | None:
        """The preprocessed text, if it is that of source with options pp (else None); once."""
        if self.taken or source != self.source or pp != self.pp:
            return None
        self.taken = True
        if self.error is not None:
            raise self.error
        assert self.run is not None
        return self.run.result()


def _combine(a: int, b: int) -> int:
    order = {EXIT_TRUE: 0, EXIT_UNKNOWN: 1, EXIT_FALSE: 2, EXIT_USAGE: 3}
    return a if order[a] >= order[b] else b


def _verify_one(path: str, args: argparse.Namespace, linked: list[str] | None = None) -> dict:
    """``path``'s answer; with ``linked``, that of the program ``path`` and the files ``linked``
    make together."""
    data_model = args.data_model
    source = path
    expected = None
    args._property = args.property or "unreach-call"
    if path.endswith(".yml"):
        task = api.load_task(path)
        memsafety = args.property == "memsafety" or (args.property is None and not task.has_unreach_call
                                                      and task.has_memsafety)
        if memsafety and task.has_memsafety:
            args._property = "memsafety"
        elif not task.has_unreach_call or args.property == "memsafety":
            wanted = "valid-memsafety" if args.property == "memsafety" else "unreach-call"
            msg = f"{path}: not applicable: the task has no {wanted} property ({', '.join(task.properties)})"
            if args.format == "text":
                print(msg)
                print("Verification result: UNKNOWN, incomplete analysis. (property not applicable)")
            return {"file": path, "verdict": "NOT_APPLICABLE", "reason": msg, "exit": EXIT_UNKNOWN}
        source = task.input_file
        data_model = data_model or task.data_model
        expected = task.expected_memsafety if args._property == "memsafety" else task.expected
    data_model = data_model or "LP64"
    pp = pp_options(args, data_model, source)
    units = None
    if linked is not None:
        units = [api.Unit(f, pp_options(args, data_model, f)) for f in [source, *linked]]
    with _Progress(not args.no_progress and args.format == "text", source):
        answer, waited, child_peak_mb, crashes = _verify_source(source, pp, args, units)
    harness_paths = write_harnesses(list(answer.harnesses), args, source)
    facts: dict = {"time": waited}
    if crashes is not None:
        facts["crashed_attempts"] = crashes
    if args.format == "text":
        if len(args._files) > 1 and linked is None:
            print(f"== {path}")
        print_text(answer.with_run(**facts), source, harness_paths)
    facts["peak_memory_mb"] = max(peak_memory_mb(), child_peak_mb)
    if path != source:
        facts["task"] = path
        if expected is not None:
            facts["expected_verdict"] = "TRUE" if expected else "FALSE"
    if harness_paths:
        facts["harnesses"] = harness_paths
    if units is not None:
        facts["linked"] = [u.path for u in units]
    facts["exit"] = {"TRUE": EXIT_TRUE, "FALSE": EXIT_FALSE}.get(answer.verdict, EXIT_UNKNOWN)
    return answer.with_run(**facts)


def _verify_source(source: str, pp, args: argparse.Namespace, units: list | None = None
                   ) -> tuple[api.Answer, float, float, int | None]:
    """The source's answer, the seconds it took, the peak memory of the process that analysed (0 if
    this one did) and the crashed attempts of an analysis in a child (None: none was started). An
    unchanged source is answered from the cache before anything is parsed (and before the
    parser, the CFA builder, z3 and the result classes are even imported); anything else is
    analysed in a child process (isolation.py)."""
    store = _store(args)
    opts = api.VerifyOptions(config=args.config, timeout=args.timeout, predicate_theory=args.predicate_theory,
                             max_violations=1000 if args.all_violations else 1, cache=store,
                             property=getattr(args, "_property", "unreach-call"),
                             alloc_may_fail=getattr(args, "alloc_may_fail", False),
                             entry_null=getattr(args, "entry_null", False),
                             path_exploration=not getattr(args, "no_path_exploration", False),
                             horn=not getattr(args, "no_horn", False),
                             replay=None if getattr(args, "no_replay", False) else
                             api.NativeReplay(source=source, preprocess=pp, time_limit=args.replay_timeout,
                                              units=tuple(units[1:]) if units else ()))
    t0 = time.monotonic()
    # Without --entry, main's answer (a file with main is verified from it alone).
    entry = args.entry or "main"
    self_check = os.environ.get("CBAM_SELF_CHECK", "") not in ("", "0")
    # A file without directives is answered before its preprocessing ends (about 8 ms).
    alias = (args._prefetch.unpreprocessed(source, pp, entry)
             if args._prefetch is not None and store is not None else None)
    if alias is not None:
        hit = api.answer_unpreprocessed(store, alias, opts)
        if hit is not None:
            waited = round(time.monotonic() - t0, 3)
            if self_check:
                _self_check(hit, source, pp, args._prefetch.take(source, pp), args, opts)
            else:
                args._prefetch.stop()
            return hit, waited, 0.0, None
    pp_text = args._prefetch.take(source, pp) if args._prefetch is not None and units is None else None
    if units is not None:
        pp_text = api.link(units)
    elif pp_text is None:
        pp_text = api.preprocess(source, None, pp)
    if store is not None:
        hit = api.answer_unchanged(store, source, pp_text, pp, entry, opts, alias)
        if hit is not None:
            waited = round(time.monotonic() - t0, 3)
            if self_check:
                _self_check(hit, source, pp, pp_text, args, opts)
            return hit, waited, 0.0, None
    from cbam import isolation

    if not isolation.available():
        answer = _analyse(source, pp, pp_text, args.entry, opts, alias)
        return answer, answer.to_json()["statistics"]["time"], 0.0, None
    return _analyse_in_child(source, pp, pp_text, args, opts, alias)


def _store(args: argparse.Namespace):
    """The cache, opened again if an analysis child had it closed (a file before this one)."""
    if args._cache is None and getattr(args, "_cache_dir", None) is not None:
        args._cache = api.open_cache(args._cache_dir)
    return args._cache


def _analyse(source: str, pp, pp_text: str, entry: str | None, opts, alias: str | None = None) -> api.Answer:
    t0 = time.monotonic()
    program = api.load(source, preprocess=pp, entry=entry or "main", preprocessed=pp_text, cache=opts.cache,
                       unpreprocessed=alias)
    loaded()
    if opts.timeout is not None:  # the limit is the file's, loading included (isolation.run counts it so)
        opts = opts._replace(timeout=max(0.0, opts.timeout - (time.monotonic() - t0)))
    if entry is None and "main" not in program.functions:
        # The editor's rule: every function no other function calls, with arbitrary arguments.
        report = api.verify_entries(source, preprocess=pp, options=opts, preprocessed=pp_text)
        return api.Answer.of(report.result, report.entries)
    # The result is filed under the same source keys (program.source_key, unpreprocessed_key)
    # for the next run.
    return api.Answer.of(api.verify(program, opts))


def _analyse_in_child(source: str, pp, pp_text: str, args: argparse.Namespace, opts, alias: str | None
                      ) -> tuple[api.Answer, float, float, int]:
    """_analyse in a forked child (see _isolated); UNKNOWN (crashed, or timeout) when it gives
    no answer. The time is the analysis's own where it answered, else the time waited for it."""
    start = time.monotonic()
    out, crashes = _isolated(lambda store, limit: _analyse(source, pp, pp_text, args.entry,
                                                           opts._replace(cache=store, timeout=limit), alias),
                             args, opts.cache, opts.timeout)
    if out.ok:
        answer = out.value
        return answer, answer.to_json()["statistics"]["time"], out.peak_memory_mb, len(crashes)
    report = _no_answer(out, crashes, opts, source)
    return api.Answer.of(report.result, report.entries), round(time.monotonic() - start, 3), out.peak_memory_mb, len(crashes)


def _isolated(work, args: argparse.Namespace, store, timeout: float):
    """``work(store, time_limit)`` in a forked child (cbam/isolation.py), with a cache of its
    own (a connection must not cross a fork: this process's is closed, and _store opens it
    again). A crash is run again once with the time left; the outcome and the crashes' signals."""
    from cbam import isolation

    cache_dir = None
    if store is not None:
        cache_dir = args._cache_dir = store.dir
        store.close()
        args._cache = None
    start = time.monotonic()
    limit = timeout
    crashes: list[str] = []
    while True:
        out = isolation.run(partial(_with_store, work, cache_dir, limit), limit, peak_memory_mb)
        if out.raised is not None:
            raise out.raised
        if out.error:
            raise RuntimeError(f"the analysis process failed:\n{out.error}")
        if not out.signal:
            return out, crashes
        crashes.append(isolation.signal_name(out.signal))
        left = timeout - (time.monotonic() - start)
        again = len(crashes) == 1 and left >= isolation.RETRY_MIN_S
        print(f"cbam: the analysis process crashed ({crashes[-1]}) after {time.monotonic() - start:.1f} s"
              + (f"; analysing again with the {left:.1f} s left" if again else ""), file=sys.stderr)
        if not again:
            return out, crashes
        limit = left


def _with_store(work, cache_dir: str | None, limit: float):
    store = api.open_cache(cache_dir) if cache_dir is not None else None
    try:
        return work(store, limit)
    finally:
        if store is not None:
            store.close()


def _no_answer(out, crashes: list[str], opts, source: str):
    """The report of a child that gave no answer: killed past its limit, or crashed."""
    if out.over_limit:
        return api.unknown_report(f"time limit of {opts.timeout:g} s reached (the analysis overran it and was stopped)",
                                  "timeout", opts, file=source)
    return api.unknown_report(f"the analysis process crashed ({', then '.join(crashes)}); see the messages above",
                              "crashed", opts, file=source)


def loaded() -> None:
    """The collector back on for the analysis, which makes garbage (cli.run turns it off for
    the start-up), with what exists now (the loaded program among it) out of its passes."""
    if not gc.isenabled():
        gc.freeze()
        gc.enable()


def _self_check(answer: api.Answer, source: str, pp, pp_text: str, args: argparse.Namespace, opts) -> None:
    """The unchanged-source answer against a run without the cache (see engine/selfcheck.py)."""
    program = api.load(source, preprocess=pp, entry=args.entry or "main", preprocessed=pp_text)
    scratch = api.verify(program, opts._replace(cache=None)).to_json()
    api.self_check(answer.to_json(), scratch, opts.max_violations > 1)
