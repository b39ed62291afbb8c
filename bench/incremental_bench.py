"""Incremental re-verification with the persistent summary cache.

Runs, each measured as a ratio to the cold run (median of several repetitions):
cold; warm re-run with no change; a new process with the persistent cache; a leaf edit
that leaves its summary unchanged; a leaf edit that changes it; an edit of main.
Also reports how many blocks each run re-explored.

    python bench/incremental_bench.py [--reps 3] [--tasks N]
"""

from __future__ import annotations

import argparse
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
from cbam.engine.frontend.load import load_program  # noqa: E402
from cbam.engine.frontend.preprocess import PreprocessOptions  # noqa: E402
from cbam.engine.verify import VerifyOptions, run_deep, verify_program  # noqa: E402

LAYERS = [4, 8, 16, 24, 24, 23]  # 99 functions + main; call depth 6


def generate(leaf_bound: int = 10, leaf_const: int = 3, main_delta: int = 0) -> str:
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
    body += ["  if (r0 > 1000) reach_error();",
             "  if (r1 < -1000) reach_error();",
             "  if (r2 == r2 + 1) reach_error();",
             "  if (rdown(n) == 2) reach_error();  /* fails: n = 2 */",
             "  return 0;", "}"]
    return "\n".join(out + body) + "\n"


def run_inproc(src: str, path: Path, store) -> tuple[float, dict]:
    path.write_text(src)
    t0 = time.monotonic()
    program = load_program(str(path), options=PreprocessOptions(data_model="LP64"))
    r = run_deep(lambda: verify_program(program, VerifyOptions(cache=store, timeout=600)))
    return time.monotonic() - t0, {"verdict": r.verdict, "source": r.source, "reexplored": r.statistics.blocks_analysed,
                                   "summary_hits": r.statistics.summary_hits}


def run_process(path: Path, cache_dir: Path) -> tuple[float, dict]:
    t0 = time.monotonic()
    p = subprocess.run([sys.executable, "-m", "cbam", "verify", str(path), "--format", "json", "--cache-dir",
                        str(cache_dir), "--data-model", "LP64"], capture_output=True, text=True, cwd=ROOT)
    elapsed = time.monotonic() - t0
    data = json.loads(p.stdout)
    return elapsed, {"verdict": data["verdict"], "source": data["source"],
                     "reexplored": data["statistics"]["blocks_analysed"], "summary_hits": data["statistics"]["summary_hits"]}


def measure(reps: int) -> list[dict]:
    base = generate()
    scenarios = [
        ("leaf edit, summary unchanged", generate(leaf_bound=50)),
        ("leaf edit, summary changed", generate(leaf_const=4)),
        ("edit of main", generate(main_delta=1)),
    ]
    rows: dict[str, list[tuple[float, dict]]] = {}
    for _ in range(reps):
        with tempfile.TemporaryDirectory() as d:
            d = Path(d)
            path = d / "gen.c"
            store = CacheStore(d / "cache")
            rows.setdefault("cold", []).append(run_inproc(base, path, store))
            rows.setdefault("warm re-run, no change", []).append(run_inproc(base, path, store))
            store.close()
            rows.setdefault("new process, persistent cache", []).append(run_process(path, d / "cache"))
            for name, src in scenarios:
                store = CacheStore(d / "cache")
                run_inproc(base, path, store)  # back to the base version (a cache hit)
                rows.setdefault(name, []).append(run_inproc(src, path, store))
                store.close()
            cold_proc = d / "cold-proc"
            rows.setdefault("cold, new process (reference)", []).append(run_process(path, cold_proc))
    cold = statistics.median(t for t, _ in rows["cold"])
    out = []
    for name, samples in rows.items():
        med = statistics.median(t for t, _ in samples)
        info = samples[-1][1]
        out.append({"run": name, "median_s": round(med, 3), "ratio": round(med / cold, 4), **info})
    return out


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=3)
    args = ap.parse_args()
    rows = measure(args.reps)
    print("| run | median time (s) | ratio to cold | blocks re-explored | summaries reused | verdict | source |")
    print("|---|---:|---:|---:|---:|---|---|")
    for r in rows:
        print(f"| {r['run']} | {r['median_s']} | {r['ratio']:.3f} | {r['reexplored']} | {r['summary_hits']} | "
              f"{r['verdict']} | {r['source']} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
