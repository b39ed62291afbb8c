"""Incremental re-verification with the persistent summary cache.

Runs, each measured as a ratio to the cold run of the same kind (median of several
repetitions): cold; warm re-run with no change; a new process with the persistent cache
(against a cold new process: both pay for starting Python); a leaf edit that leaves its
summary unchanged; a leaf edit that changes it; an edit of main. Also reports how many
blocks each run re-explored.

Inputs: a generated program (about 100 functions, call depth 6, recursion, several
assertions, one failing) and the largest shared SV-COMP tasks that cbam decides within the
time limit. Edits of SV-COMP tasks insert a dead local declaration at the start of a body:
of `main`, and of a reachable leaf function (one that calls nothing) where there is one.

    python bench/incremental_bench.py [--reps 3] [--tasks 5] [--svcomp DIR] [--out FILE]
"""

from __future__ import annotations

import argparse
import compileall
import csv
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from cbam.engine.cache.store import CacheStore  # noqa: E402
from cbam.engine.cfa.load import load_program  # noqa: E402
from cbam.engine.frontend.errors import FrontendError  # noqa: E402
from cbam.engine.frontend.preprocess import PreprocessOptions  # noqa: E402
from cbam.engine.verify import VerifyOptions, run_deep, verify_program  # noqa: E402

LAYERS = [4, 8, 16, 24, 24, 23]  # 99 functions + main; call depth 6


def generate(leaf_bound: int = 10, leaf_const: int = 3, main_delta: int = 0, failing: bool = True,
             check_const: int = 1000) -> str:
    names = [[f"f{li}_{i}" for i in range(n)] for li, n in enumerate(LAYERS)]
    out = ["extern int __VERIFIER_nondet_int(void);",
           "extern void __assert_fail(const char *, const char *, unsigned int, const char *);",
           'void reach_error(void) { __assert_fail("0", "gen.c", 3, "reach_error"); }',
           "int rdown(int n) { if (n <= 0) return 0; return rdown(n - 1) + 1; }"]
    for layer in reversed(range(len(LAYERS))):
        for i, nm in enumerate(names[layer]):
            if layer == len(LAYERS) - 1:
                # Leaves loop a little, so that exploring them costs something.
                k = leaf_const if (layer, i) == (len(LAYERS) - 1, 0) else 3
                b = leaf_bound if (layer, i) == (len(LAYERS) - 1, 0) else 10
                out.append(f"int {nm}(int x) {{ int acc = 0; for (int i = 0; i < 200; i++) {{ acc += (x + i) % {k}; }}"
                           f" if (x > {b}) return {b}; return acc % 5 + x; }}")
            else:
                nxt = names[layer + 1]
                a, b = nxt[(2 * i) % len(nxt)], nxt[(2 * i + 1) % len(nxt)]
                extra = " + rdown(3)" if i % 7 == 0 else ""
                out.append(f"int {nm}(int x) {{ int y = {a}(x + 1); int z = {b}(y % 4); return y - z{extra}; }}")
    body = ["int main(void) {", "  int n = __VERIFIER_nondet_int();", "  if (n < 0) n = 0;", "  if (n > 2) n = 2;"]
    for i, nm in enumerate(names[0]):
        body.append(f"  int r{i} = {nm}({i + main_delta});")
    body += [f"  if (r0 > {check_const}) reach_error();",
             "  if (r1 < -1000) reach_error();",
             "  if (r2 == r2 + 1) reach_error();",
             "  if (rdown(n) == 2) reach_error();  /* fails: n = 2 */" if failing else
             "  if (rdown(2) != 2) reach_error();",
             "  return 0;", "}"]
    return "\n".join(out + body) + "\n"


def run_inproc(src: str, path: Path, store, data_model: str = "LP64", timeout: float = 600) -> tuple[float, dict]:
    path.write_text(src)
    t0 = time.monotonic()
    program = load_program(str(path), options=PreprocessOptions(data_model=data_model))
    loaded = time.monotonic()
    r = run_deep(lambda: verify_program(program, VerifyOptions(cache=store, timeout=timeout)))
    built = program.load_stats.get("functions_built", len(program.functions)) if program.load_stats else \
        len(program.functions)
    return time.monotonic() - t0, {"verdict": r.verdict, "source": r.source, "reexplored": r.statistics.blocks_analysed,
                                   "summary_hits": r.statistics.summary_hits, "reason": r.reason,
                                   "load_s": loaded - t0, "built": built}


def run_process(path: Path, cache_dir: Path, data_model: str = "LP64") -> tuple[float, dict]:
    t0 = time.monotonic()
    p = subprocess.run([sys.executable, "-m", "cbam", "verify", str(path), "--format", "json", "--cache-dir",
                        str(cache_dir), "--data-model", data_model], capture_output=True, text=True, cwd=ROOT)
    elapsed = time.monotonic() - t0
    data = json.loads(p.stdout)
    return elapsed, {"verdict": data["verdict"], "source": data["source"],
                     "reexplored": data["statistics"]["blocks_analysed"], "summary_hits": data["statistics"]["summary_hits"]}


def scenario_runs(base: str, scenarios: list[tuple[str, str]], path: Path, d: Path, data_model: str,
                  rows: dict[str, list[tuple[float, dict]]], timeout: float) -> None:
    """One repetition of every run on one program, into rows."""
    store = CacheStore(d / "cache")
    rows.setdefault("cold", []).append(run_inproc(base, path, store, data_model, timeout))
    rows.setdefault("warm re-run, no change", []).append(run_inproc(base, path, store, data_model, timeout))
    store.close()
    rows.setdefault("cold, new process", []).append(run_process(path, d / "cold-proc", data_model))
    rows.setdefault("new process, persistent cache", []).append(run_process(path, d / "cache", data_model))
    for name, src in scenarios:
        store = CacheStore(d / "cache")
        run_inproc(base, path, store, data_model, timeout)  # back to the base version (a cache hit)
        rows.setdefault(name, []).append(run_inproc(src, path, store, data_model, timeout))
        store.close()
        # The same edit verified by a new process, against the cache the cold new process
        # left (and the earlier edits: a cache accumulates): `cbam verify` in a terminal.
        path.write_text(src)
        rows.setdefault(f"new process: {name}", []).append(run_process(path, d / "cold-proc", data_model))
        path.write_text(base)


def summarise(rows: dict[str, list[tuple[float, dict]]]) -> list[dict]:
    cold = statistics.median(t for t, _ in rows["cold"])
    cold_proc = statistics.median(t for t, _ in rows["cold, new process"])
    out = []
    for name, samples in rows.items():
        med = statistics.median(t for t, _ in samples)
        ref = cold_proc if "process" in name else cold
        info = dict(samples[-1][1])
        if "load_s" in info:
            info["load_s"] = round(statistics.median(i["load_s"] for _, i in samples), 3)
        out.append({"run": name, "median_s": round(med, 3), "ratio": round(med / ref, 4), **info})
    return out


def measure_generated(reps: int, failing: bool) -> list[dict]:
    base = generate(failing=failing)
    scenarios = [
        ("leaf edit, summary unchanged", generate(leaf_bound=50, failing=failing)),
        ("leaf edit, summary changed", generate(leaf_const=4, failing=failing)),
        ("edit of main: one check's constant", generate(check_const=1001, failing=failing)),
        ("edit of main: every call's argument", generate(main_delta=1, failing=failing)),
        ("comment added at the top (all code moves)", "/* a new comment\n   of three lines */\n\n" + base),
    ]
    rows: dict[str, list[tuple[float, dict]]] = {}
    for _ in range(reps):
        with tempfile.TemporaryDirectory() as d:
            scenario_runs(base, scenarios, Path(d) / "gen.c", Path(d), "LP64", rows, 600)
    return summarise(rows)


def _insert_at_body(src: str, program, name: str) -> str | None:
    fn = program.functions.get(name)
    if fn is None or fn.range is None:
        return None
    lines = src.split("\n")
    offset = sum(len(line) + 1 for line in lines[:fn.range.line - 1]) + fn.range.col - 1
    brace = src.find("{", offset)
    if brace < 0:
        return None
    return src[:brace + 1] + " int cbam_bench_edit = 0; (void)cbam_bench_edit;" + src[brace + 1:]


def svcomp_tasks(svcomp: Path) -> list[tuple[Path, str, str]]:
    """(source, data model, expected) of every unreach-call task, largest source first."""
    out = []
    with open(svcomp / "INDEX.tsv") as fh:
        for r in csv.DictReader(fh, delimiter="\t"):
            if r["expected_verdict"] in ("true", "false"):
                src = svcomp / r["source_file"]
                out.append((src, r["data_model"], r["expected_verdict"]))
    return sorted(out, key=lambda t: -t[0].stat().st_size)


def measure_svcomp(svcomp: Path, n: int, reps: int, timeout: float) -> list[tuple[str, list[dict]]]:
    out: list[tuple[str, list[dict]]] = []
    for src_path, data_model, _expected in svcomp_tasks(svcomp):
        if len(out) >= n:
            break
        base = src_path.read_text()
        with tempfile.TemporaryDirectory() as d:
            path = Path(d) / src_path.name
            try:
                _, first = run_inproc(base, path, None, data_model, timeout)
            except FrontendError:
                continue
            if first["verdict"] == "UNKNOWN":
                print(f"skipped {src_path.name}: UNKNOWN ({first['reason'][:60]})", file=sys.stderr)
                continue
            program = load_program(str(path), options=PreprocessOptions(data_model=data_model))
        reach = program.callgraph.reachable("main")
        leaves = sorted(f for f in reach if f != "main" and f in program.functions and not program.functions[f].calls
                        and f != "reach_error")
        scenarios = []
        if leaves and (edited := _insert_at_body(base, program, leaves[0])):
            scenarios.append((f"leaf edit ({leaves[0]})", edited))
        if edited := _insert_at_body(base, program, "main"):
            scenarios.append(("edit of main", edited))
        rows: dict[str, list[tuple[float, dict]]] = {}
        for _ in range(reps):
            with tempfile.TemporaryDirectory() as d:
                scenario_runs(base, scenarios, Path(d) / src_path.name, Path(d), data_model, rows, timeout)
        out.append((str(src_path.relative_to(svcomp)), summarise(rows)))
    return out


def table(rows: list[dict]) -> list[str]:
    lines = ["| run | median time (s) | ratio to cold | of which front end (s) | functions built | "
             "blocks re-explored | summaries reused | verdict | source |",
             "|---|---:|---:|---:|---:|---:|---:|---|---|"]
    for r in rows:
        load = r.get("load_s", "-")
        built = r.get("built", "-")
        lines.append(f"| {r['run']} | {r['median_s']} | {r['ratio']:.3f} | {load} | {built} | {r['reexplored']} | "
                     f"{r['summary_hits']} | {r['verdict']} | {r['source']} |")
    return lines


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--tasks", type=int, default=5, help="how many of the largest SV-COMP tasks (0: none)")
    ap.add_argument("--svcomp", default=str(ROOT.parent / "shared" / "svcomp"))
    ap.add_argument("--timeout", type=float, default=60, help="per SV-COMP run")
    ap.add_argument("--out", help="also write the report (markdown) here")
    args = ap.parse_args()
    # New processes should load bytecode, as they do after `pip install` (which compiles it) or
    # in a checkout whose first run wrote it; machines that set PYTHONDONTWRITEBYTECODE would
    # otherwise compile every module in every process, cold and cached alike.
    for pkg in ("cbam", "engine", "server"):
        compileall.compile_dir(str(ROOT / pkg), quiet=1)
    lines = ["## Generated program (100 functions, call depth 6, recursion, one failing assertion)", ""]
    lines += table(measure_generated(args.reps, failing=True))
    lines += ["", "## The same program with every assertion holding", ""]
    lines += table(measure_generated(args.reps, failing=False))
    if args.tasks and Path(args.svcomp).is_dir():
        for name, rows in measure_svcomp(Path(args.svcomp), args.tasks, args.reps, args.timeout):
            lines += ["", f"## SV-COMP {name}", ""] + table(rows)
    report = "\n".join(lines) + "\n"
    print(report)
    if args.out:
        Path(args.out).write_text(report)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
