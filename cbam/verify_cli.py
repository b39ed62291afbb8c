"""``cbam verify``: verify C files, folders of them, or SV-COMP task definitions."""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import threading
import time
from collections.abc import Callable

from cbam.cli import pp_options
from cbam.engine.analysis import registry  # light modules: parsing arguments stays fast
from cbam.engine.options import THEORIES

EXIT_TRUE, EXIT_FALSE, EXIT_USAGE, EXIT_UNKNOWN = 0, 1, 2, 3


def add_verify_commands(sub, add_frontend_options: Callable[[argparse.ArgumentParser], None],
                        only: str | None = None) -> None:
    """verify, summary and cache (or the one named)."""
    if only in (None, "verify"):
        _add_verify(sub, add_frontend_options)
    if only in (None, "summary"):
        _add_summary(sub, add_frontend_options)
    if only in (None, "cache"):
        _add_cache(sub)


def _add_verify(sub, add_frontend_options: Callable[[argparse.ArgumentParser], None]) -> None:
    p = sub.add_parser("verify", help="verify C files or SV-COMP tasks",
                       description="Prove that no error call or failing assertion is reachable, or show a "
                                   "confirmed counterexample. Exit status: 0 TRUE, 1 FALSE, 3 UNKNOWN, 2 bad input.")
    p.add_argument("paths", nargs="+", metavar="PATH", help="a .c or .i file, a task .yml, or a folder of them")
    add_frontend_options(p)
    p.add_argument("--timeout", type=float, default=60.0, metavar="SECONDS", help="per file (default 60)")
    p.add_argument("--memory-limit", type=int, default=8192, metavar="MB", help="address-space limit (default 8192)")
    p.add_argument("--config", default=registry.DEFAULT, choices=registry.names(),
                   help=f"analysis configuration (default: {registry.DEFAULT})")
    p.add_argument("--predicate-theory", default="bv", choices=THEORIES,
                   help="path formulas of the predicate analysis: bv (exact, default) or lia (integers; "
                        "a proof is re-checked with bit-vectors)")
    p.add_argument("--format", choices=["text", "json"], default="text")
    p.add_argument("--entry", default="main", metavar="FUNCTION", help="entry function (default main)")
    p.add_argument("--all-violations", action="store_true",
                   help="keep searching after the first confirmed violation")
    p.add_argument("--harness", metavar="FILE.c", help="write a test harness for the (first) counterexample")
    p.add_argument("--harness-dir", metavar="DIR", help="write a harness per counterexample into DIR")
    p.add_argument("--no-progress", action="store_true", help="never show the progress line")
    # Every answer that used the cache is computed again without it and compared (tests, fuzzing).
    p.add_argument("--self-check", action="store_true", help=argparse.SUPPRESS)
    add_cache_options(p)
    p.set_defaults(func=cmd_verify)


def _add_summary(sub, add_frontend_options: Callable[[argparse.ArgumentParser], None]) -> None:
    sm = sub.add_parser("summary", help="print the function summaries cbam infers")
    sm.add_argument("file")
    sm.add_argument("--function", help="only this function")
    sm.add_argument("--config", default=registry.DEFAULT, choices=registry.names(),
                    help=f"analysis configuration (default: {registry.DEFAULT})")
    sm.add_argument("--timeout", type=float, default=60.0, metavar="SECONDS")
    sm.add_argument("--entry", default="main", metavar="FUNCTION")
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


def add_cache_options(p: argparse.ArgumentParser, allow_disable: bool = True) -> None:
    p.add_argument("--cache-dir", metavar="DIR", help="where the summary cache lives (default: $XDG_CACHE_HOME/cbam)")
    if allow_disable:
        p.add_argument("--no-cache", action="store_true", help="neither read nor write the summary cache")


def open_cache(args: argparse.Namespace):
    if getattr(args, "no_cache", False):
        return None
    from cbam.engine.cache.store import CacheStore

    try:
        store = CacheStore(args.cache_dir)
    except OSError as exc:
        print(f"cbam: warning: cache unavailable ({exc}); running without it", file=sys.stderr)
        return None
    if store.rebuilt_reason:
        print(f"cbam: note: the summary cache was rebuilt: {store.rebuilt_reason}", file=sys.stderr)
    return store


def cmd_summary(args: argparse.Namespace) -> int:
    """Verify (reusing the cache), then print each function's block abstractions as summaries."""
    import tempfile

    from cbam.engine.cache.store import CacheStore

    tmp = None
    store = open_cache(args)
    if store is None:  # summaries are read back from a store: use a throw-away one
        tmp = tempfile.TemporaryDirectory()
        store = CacheStore(tmp.name)
    try:
        return _print_summaries(args, store)
    finally:  # explicitly: the command line exits without Python's finalization (cli.run)
        store.close()
        if tmp is not None:
            tmp.cleanup()


def _print_summaries(args: argparse.Namespace, store) -> int:
    from cbam.engine.analysis.summaries import summary_lines
    from cbam.engine.frontend.errors import FrontendError
    from cbam.engine.frontend.load import load_program
    from cbam.engine.verify import VerifyOptions, run_deep, verify_program

    pp = pp_options(args, args.data_model or "LP64")
    try:
        program = load_program(args.file, options=pp, entry=args.entry)
    except FrontendError as exc:
        for d in exc.diagnostics:
            print(d, file=sys.stderr)
        return EXIT_USAGE
    if args.function and args.function not in program.functions:
        print(f"cbam: no function named '{args.function}' in {args.file}", file=sys.stderr)
        return EXIT_USAGE
    opts = VerifyOptions(config=args.config, timeout=args.timeout, cache=store, harness=False)
    result = run_deep(lambda: verify_program(program, opts))
    keys = result.function_keys
    for name, f in program.functions.items():
        if args.function and name != args.function:
            continue
        params = [p.split("::", 1)[1] for p in f.params]
        print(f"{name}({', '.join(params)}):")
        if f.unsupported:
            print(f"  not analysed: unsupported construct ({f.unsupported[0]})")
            continue
        blocks = store.blocks_for_function(name, keys.get(name))
        if not blocks:
            print("  no summary: not analysed" + ("" if name in program.callgraph.reachable(program.start.name)
                                                  else " (not reachable from the entry point)"))
            continue
        for line in summary_lines(name, params, blocks):
            print(f"  {line}")
    print(f"Verification result: {result.verdict}" + (f" ({result.reason})" if result.reason else ""))
    return 0


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


def _collect(paths: list[str]) -> list[str]:
    out: list[str] = []
    for p in paths:
        if os.path.isdir(p):
            for root, _dirs, files in os.walk(p):
                for f in sorted(files):
                    if f.endswith((".c", ".i", ".yml")):
                        out.append(os.path.join(root, f))
        else:
            out.append(p)
    # A .yml next to its .c would verify the same program twice: prefer the task.
    tasks = {os.path.splitext(p)[0] for p in out if p.endswith(".yml")}
    return sorted(p for p in out if p.endswith(".yml") or os.path.splitext(p)[0] not in tasks)


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


def cmd_verify(args: argparse.Namespace) -> int:
    from cbam.engine.limits import limit_memory

    limit_memory(args.memory_limit)
    if args.self_check:
        os.environ["CBAM_SELF_CHECK"] = "1"
    files = _collect(args.paths)
    args._files = files
    if not files:
        print("cbam: no .c, .i or .yml files to verify", file=sys.stderr)
        return EXIT_USAGE
    args._prefetch = None if files[0].endswith(".yml") else _Prefetch(files[0], args)
    args._cache = open_cache(args)
    try:
        return _verify_all(files, args)
    finally:
        if args._cache is not None:
            args._cache.close()


def _verify_all(files: list[str], args: argparse.Namespace) -> int:
    from cbam.engine.frontend.errors import FrontendError

    results: list[dict] = []
    worst = EXIT_TRUE
    for path in files:
        try:
            entry = _verify_one(path, args)
        except FrontendError as exc:
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
        from cbam.engine.frontend.errors import FrontendError
        from cbam.engine.frontend.preprocess import Preprocessing

        self.source = source
        self.pp = pp_options(args, args.data_model or "LP64")  # as _verify_one decides for a .c file
        self.run: Preprocessing | None = None
        self.error: FrontendError | None = None
        self.taken = False
        try:
            self.run = Preprocessing(source, None, self.pp)
        except FrontendError as exc:  # raised where the text is taken, as if preprocessed there
            self.error = exc

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


def _verify_one(path: str, args: argparse.Namespace) -> dict:
    data_model = args.data_model
    source = path
    expected = None
    if path.endswith(".yml"):
        from cbam.engine.tasks import load_task

        task = load_task(path)
        if not task.has_unreach_call:
            msg = f"{path}: not applicable: the task has no unreach-call property ({', '.join(task.properties)})"
            if args.format == "text":
                print(msg)
                print("Verification result: UNKNOWN, incomplete analysis. (property not applicable)")
            return {"file": path, "verdict": "NOT_APPLICABLE", "reason": msg, "exit": EXIT_UNKNOWN}
        source = task.input_file
        data_model = data_model or task.data_model
        expected = task.expected
    data_model = data_model or "LP64"
    pp = pp_options(args, data_model)
    with _Progress(not args.no_progress and args.format == "text", source):
        data, harnesses = _verify_source(source, pp, args)
    harness_paths = _write_harnesses(harnesses, args, source)
    if args.format == "text":
        if len(args._files) > 1:
            print(f"== {path}")
        _print_text(data, source, harness_paths)
    # ru_maxrss is in KiB on Linux: the process's peak, for benchmarks and users alike.
    data["statistics"]["peak_memory_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
    if path != source:
        data["task"] = path
        if expected is not None:
            data["expected_verdict"] = "TRUE" if expected else "FALSE"
    if harness_paths:
        data["harnesses"] = harness_paths
    data["exit"] = {"TRUE": EXIT_TRUE, "FALSE": EXIT_FALSE}.get(data["verdict"], EXIT_UNKNOWN)
    return data


def _verify_source(source: str, pp, args: argparse.Namespace) -> tuple[dict, list[str | None]]:
    """The result's report (its JSON form) and each violation's test harness. An unchanged source
    is answered from the cache before anything is parsed (and before the parser, the CFA builder,
    z3 and the result classes are even imported)."""
    from cbam.engine.cache import unchanged
    from cbam.engine.cache.keys import source_run_key
    from cbam.engine.frontend.source_key import source_key
    from cbam.engine.options import VerifyOptions

    store = args._cache
    opts = VerifyOptions(config=args.config, timeout=args.timeout, predicate_theory=args.predicate_theory,
                         max_violations=1000 if args.all_violations else 1, cache=store)
    pp_text = args._prefetch.take(source, pp) if args._prefetch is not None else None
    if pp_text is None:
        from cbam.engine.frontend.preprocess import preprocess

        pp_text = preprocess(source, None, pp)
    if store is not None:
        t0 = time.monotonic()
        key = source_run_key(source_key(source, None, pp_text, pp, args.entry), opts)
        hit = unchanged.lookup(store, key) if key is not None else None
        if hit is not None:
            hit[0]["statistics"]["time"] = round(time.monotonic() - t0, 3)
            if os.environ.get("CBAM_SELF_CHECK", "") not in ("", "0"):
                _self_check(hit[0], source, pp, pp_text, args, opts)
            return hit

    from cbam.engine.frontend.load import load_program
    from cbam.engine.verify import run_deep, verify_program

    program = load_program(source, options=pp, entry=args.entry, preprocessed=pp_text)
    # verify_program files the result under the same run key (program.source_key).
    result = run_deep(lambda: verify_program(program, opts))
    return result.to_json(), [v.harness for v in result.violations]


def _self_check(report: dict, source: str, pp, pp_text: str, args: argparse.Namespace, opts) -> None:
    """The unchanged-source answer against a run without the cache (see engine/selfcheck.py)."""
    from cbam.engine import selfcheck
    from cbam.engine.frontend.load import load_program
    from cbam.engine.verify import run_deep, verify_program

    program = load_program(source, options=pp, entry=args.entry, preprocessed=pp_text)
    scratch = run_deep(lambda: verify_program(program, opts._replace(cache=None))).to_json()
    problem = selfcheck.compare(report, scratch, opts.max_violations > 1)
    if problem is not None:
        raise selfcheck.failure(problem, report, scratch)


def _write_harnesses(harnesses: list[str | None], args: argparse.Namespace, source: str) -> list[str]:
    written: list[str] = []
    for i, harness in enumerate(harnesses):
        if harness is None:
            continue
        target = None
        if args.harness and i == 0:
            target = args.harness
        elif args.harness_dir:
            os.makedirs(args.harness_dir, exist_ok=True)
            stem = os.path.splitext(os.path.basename(source))[0]
            target = os.path.join(args.harness_dir, f"{stem}.harness{'' if i == 0 else f'-{i + 1}'}.c")
        if target:
            with open(target, "w", encoding="utf-8") as fh:
                fh.write(harness)
            written.append(target)
    return written


def _at(r: dict) -> str:
    """A JSON range as a compiler names a place: file:line:column."""
    return f"{r['file']}:{r['start']['line']}:{r['start']['column']}"


def _print_text(report: dict, source: str, harnesses: list[str]) -> None:
    for w in report["warnings"]:
        print(w)
    for v in report["violations"]:
        where = _at(v["range"]) if v["range"] else source
        print(f"{where}: error: {v['message'].split(' (for example', 1)[0]}")
        print("  error path:")
        for s in v["path"]:
            r = s["range"]
            loc = f"{os.path.basename(r['file'])}:{r['start']['line']}" if r else "(input)"
            text = " ".join(s["text"].split()) if s["kind"] not in ("error", "branch") else ""
            if len(text) > 44:
                text = text[:41] + "..."
            print(f"    {loc:<18} {text:<44}  {s['message']}")
        if v["inputs"]:
            print("  inputs:")
            for inp in v["inputs"]:
                print(f"    {inp['source']}() = {inp['value']}" if not inp["source"].startswith("input ")
                      else f"    {inp['source'][6:]} = {inp['value']}")
        for n in v["notes"]:
            print(f"  note: {n}")
    for h in harnesses:
        print(f"  test harness written to {h} (build: gcc {source} {h})")
    verdict = report["verdict"]
    if verdict == "UNKNOWN" and report["unsupported"] is not None:
        print(f"{_at(report['unsupported'])}: note: {report['reason']}")
    if verdict == "UNKNOWN" and report["reason_range"] is not None:
        print(f"{_at(report['reason_range'])}: note: cbam could neither prove nor refute this check")
    st = report["statistics"]
    print(f"Statistics: {st['time']:.3f}s, {st['states']} states, {st['refinements']} refinements, "
          f"BAM cache {st['cache_hits']} hits / {st['cache_misses']} misses")
    if report["source"] == "cache" and st["blocks_analysed"]:
        print(f"Result from the summary cache: the counterexample was re-validated ({st['blocks_analysed']} changed "
              f"blocks re-explored, {st['summary_hits']} summaries reused).")
    elif report["source"] == "cache":
        print("Result from the summary cache (the program's functions are unchanged since it was computed).")
    elif st["summary_hits"]:
        print(f"Computed fresh; {st['summary_hits']} block summaries reused from the cache, "
              f"{st['summary_misses']} re-explored.")
    else:
        print("Computed fresh.")
    if verdict == "TRUE":
        print("Verification result: TRUE. No property violation found by chosen configuration.")
    elif verdict == "FALSE":
        print("Verification result: FALSE. Property violation (unreach-call) found by chosen configuration.")
    else:
        print(f"Verification result: UNKNOWN, incomplete analysis. ({report['reason']})")
