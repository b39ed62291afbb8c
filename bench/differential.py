"""Differential campaign: incremental runs (one persistent cache per edit sequence) against
from-scratch runs of the same file, compared by engine/selfcheck.py's rules.

    python bench/differential.py --sequences 1000 --out bench/reports/differential.md

Each sequence: a random program (tests/edit_programs.py), optionally a sibling program that
shares its functions verified into the cache first, then up to five random edits; after each
edit the incremental and the from-scratch run are compared. Sequences are spread over the four
configurations and the two modes (first violation; the editor's 20 violations with an extra
search, with the cache writing behind as the language server's worker does). Every mismatch is printed with its seed, so it can be replayed with --seed.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

CONFIGS = ("value", "interval", "predicate", "value+predicate")
MODES = ("first", "editor")


def one_sequence(seed: int, timeout: float) -> dict:
    from cbam.engine import selfcheck
    from cbam.engine.cache.store import CacheStore

    from tests.edit_programs import apply_edit, random_edit, random_program, sibling
    from tests.test_incremental_equivalence import _normalised, run

    rng = random.Random(seed)
    config, mode = CONFIGS[seed % 4], MODES[(seed // 4) % 2]
    prog = random_program(rng)
    edits = [random_edit(rng) for _ in range(rng.randint(1, 5))]
    same_name, shared = rng.random() < 0.7 or mode == "editor", rng.random() < 0.3
    out = {"seed": seed, "config": config, "mode": mode, "steps": 0, "mismatches": [], "verdicts": Counter(),
           "stronger": 0, "inconclusive": 0}
    with tempfile.TemporaryDirectory() as d:
        root = Path(d)
        store = CacheStore(root / "cache")
        store.write_behind = mode == "editor"  # as the language server's worker writes (after each answer)
        try:
            if shared:
                run(sibling(prog).render(), root / "other" / "q.c", store, config, mode, prog.entry, timeout)
                store.write_pending()
            p = prog
            for i, step in enumerate([None, *edits]):
                if step is not None:
                    p = apply_edit(p, step)
                src = p.render()
                work = root / ("p.c" if same_name else f"p{i}.c")
                scratch = root / "scratch" / "p.c"
                inc = _normalised(run(src, work, store, config, mode, p.entry, timeout), work)
                store.write_pending()
                fresh = _normalised(run(src, scratch, None, config, mode, p.entry, timeout), scratch)
                out["steps"] += 1
                out["verdicts"][f"{inc['verdict']}/{fresh['verdict']}"] += 1
                timing = {inc.get("reason_kind"), fresh.get("reason_kind")} & {"timeout", "cancelled", "memory"}
                cut = any(r.get("search_stopped") in ("timeout", "cancelled", "memory")
                          or r["statistics"].get("phases_cut_by_time") for r in (inc, fresh))
                if timing or cut:
                    out["inconclusive"] += 1
                elif inc["verdict"] != "UNKNOWN" and fresh["verdict"] == "UNKNOWN":
                    out["stronger"] += 1
                problem = selfcheck.compare(inc, fresh, mode != "first")
                if problem is None and inc["statistics"].get("cache_inconsistency"):
                    # The answer is right (computed again without the cache), but an entry was not
                    # what its key promised, or was kept for a build it does not fit.
                    problem = "a cache entry did not reproduce: " + "; ".join(inc["warnings"])
                if problem is not None:
                    out["mismatches"].append({"step": i, "edit": step, "problem": problem, "source": src,
                                              "detail": str(selfcheck.failure(problem, inc, fresh))})
        finally:
            store.close()
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sequences", type=int, default=200)
    ap.add_argument("--first-seed", type=int, default=0)
    ap.add_argument("--seed", type=int, action="append", help="replay these seeds only")
    ap.add_argument("--timeout", type=float, default=30.0)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--out", help="write a Markdown report here")
    args = ap.parse_args()
    seeds = args.seed or list(range(args.first_seed, args.first_seed + args.sequences))
    t0 = time.monotonic()
    results = []
    with ProcessPoolExecutor(args.jobs) as pool:
        futures = [pool.submit(one_sequence, s, args.timeout) for s in seeds]
        for f in as_completed(futures):
            r = f.result()
            results.append(r)
            if len(results) % 50 == 0:
                print(f"[differential] {len(results)}/{len(seeds)} sequences, "
                      f"{sum(len(x['mismatches']) for x in results)} mismatches, {time.monotonic() - t0:.0f} s",
                      file=sys.stderr, flush=True)
            for m in r["mismatches"]:
                print(f"MISMATCH seed {r['seed']} ({r['config']}, {r['mode']}) step {m['step']} {m['edit']}: "
                      f"{m['problem']}\n{m['source']}\n{m['detail']}\n", flush=True)
    rows = []
    for config in CONFIGS:
        for mode in MODES:
            rs = [r for r in results if r["config"] == config and r["mode"] == mode]
            if not rs:
                continue
            verdicts: Counter = Counter()
            for r in rs:
                verdicts.update(r["verdicts"])
            rows.append((config, mode, len(rs), sum(r["steps"] for r in rs), sum(len(r["mismatches"]) for r in rs),
                         sum(r["stronger"] for r in rs), sum(r["inconclusive"] for r in rs),
                         ", ".join(f"{k} {v}" for k, v in sorted(verdicts.items()))))
    lines = ["| configuration | mode | sequences | compared runs | mismatches | incremental decided, scratch "
             "UNKNOWN | cut by a time limit | verdicts (incremental/scratch) |", "|---|---|---:|---:|---:|---:|---:|---|"]
    lines += [f"| {c} | {m} | {n} | {s} | {x} | {st} | {inc} | {v} |" for c, m, n, s, x, st, inc, v in rows]
    total = sum(len(r["mismatches"]) for r in results)
    summary = (f"{len(results)} sequences, {sum(r['steps'] for r in results)} compared runs, {total} mismatches, "
               f"{time.monotonic() - t0:.0f} s with {args.jobs} processes")
    print("\n".join(lines))
    print(summary)
    if args.out:
        Path(args.out).write_text("# Differential campaign: incremental against from-scratch\n\n"
                                  f"`python bench/differential.py --sequences {len(seeds)}` ({summary}).\n\n"
                                  + "\n".join(lines) + "\n\n" + json.dumps(
                                      [{k: m[k] for k in ("step", "edit", "problem")} | {"seed": r["seed"]}
                                       for r in results for m in r["mismatches"]], indent=1) + "\n")
    return 1 if total else 0


if __name__ == "__main__":
    sys.exit(main())
