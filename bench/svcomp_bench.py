"""Run cbam on the shared SV-COMP tasks with a per-task time limit.

Writes a table (task, expected verdict, result, time, peak memory), a summary per folder,
and the SV-COMP score (+2 correct TRUE, +1 correct FALSE, -32 wrong TRUE, -16 wrong FALSE).

    python bench/svcomp_bench.py --timeout 60 [--jobs 2] [--filter recursive] [--out bench/results]
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import subprocess
import sys
import time
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_SVCOMP = ROOT.parent / "shared" / "svcomp"


def score(expected: str, result: str) -> int:
    if result == "TRUE":
        return 2 if expected == "true" else -32
    if result == "FALSE":
        return 1 if expected == "false" else -16
    return 0


def run_task(svcomp: Path, yml: str, timeout: float, config: str, cache: bool = False) -> dict:
    """One task in its own process. ``cache``: with a fresh summary cache of its own and the
    self-check on (an answer that used the cache is recomputed without it and compared), then
    once more from that cache, checked the same way: a difference is an ERROR row."""
    cmd = [sys.executable, "-m", "cbam", "verify", str(svcomp / yml), "--format", "json", "--timeout", str(timeout),
           "--config", config, "--no-progress"]
    if not cache:
        return _run(cmd + ["--no-cache"], yml, timeout)
    import tempfile

    with tempfile.TemporaryDirectory() as d:
        first = _run(cmd + ["--cache-dir", d, "--self-check"], yml, timeout * 2)
        again = _run(cmd + ["--cache-dir", d, "--self-check"], yml, timeout * 2)
    if again["result"] == "ERROR" or first["result"] == "ERROR":
        bad = again if again["result"] == "ERROR" else first
        return {**first, "result": "ERROR", "reason": bad["reason"]}
    first["again"] = again["result"]
    return first


def _run(cmd: list[str], yml: str, timeout: float) -> dict:
    t0 = time.monotonic()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)
    try:
        out, err = proc.communicate(timeout=timeout + 30)
        killed = False
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
        killed = True
    elapsed = time.monotonic() - t0
    peak_mb = 0.0
    engine = ""
    crashes = 0
    verdict, reason = "ERROR", err.decode(errors="replace").strip().splitlines()[-1:] or [""]
    reason = reason[0] if isinstance(reason, list) else reason
    if killed:
        verdict, reason = "TIMEOUT", "killed"
    elif proc.returncode < 0:
        reason = f"signal {-proc.returncode}" + _crash_site(err)
    else:
        try:
            data = json.loads(out)
            verdict = data.get("verdict", "ERROR")
            reason = data.get("reason", "")
            peak_mb = float(data.get("statistics", {}).get("peak_memory_mb", 0.0))
            engine = data.get("statistics", {}).get("decided_by", "")
            # The analysis runs in a child (cbam/isolation.py), which is run again after a crash.
            crashes = data.get("statistics", {}).get("crashed_attempts", 0)
        except json.JSONDecodeError:
            pass
    return {"task": yml, "result": verdict, "reason": reason, "time": round(elapsed, 2), "peak_mb": round(peak_mb, 1),
            "engine": engine, **({"child_crash": f"{crashes} x{_crash_site(err)}"} if crashes else {})}


def _crash_site(err: bytes) -> str:
    """Where a native crash happened: faulthandler's last line says little; the innermost frame
    of the crashing thread says where."""
    lines = [ln.strip() for ln in err.decode(errors="replace").splitlines()]
    current = next((i for i, ln in enumerate(lines) if ln.startswith("Current thread")), len(lines))
    frame = next((ln for ln in lines[current:] if ln.startswith("File ")), "")
    return f" at {frame}" if frame else ""


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--svcomp", default=str(DEFAULT_SVCOMP))
    ap.add_argument("--timeout", type=float, default=60)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--filter", default="")
    ap.add_argument("--config", default="value")
    ap.add_argument("--out", default=str(ROOT / "bench" / "results"))
    ap.add_argument("--cache", action="store_true",
                    help="each task with a fresh cache, twice, with the self-check on (see run_task)")
    args = ap.parse_args()
    svcomp = Path(args.svcomp)
    rows = []
    with open(svcomp / "INDEX.tsv") as fh:
        for r in csv.DictReader(fh, delimiter="\t"):
            if args.filter in r["task_yml_path"]:
                rows.append(r)
    # Peak memory per task needs one child at a time per worker; wait4 in run_task collects it.
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        results = list(pool.map(lambda r: run_task(svcomp, r["task_yml_path"], args.timeout, args.config, args.cache),
                                rows))
    os.makedirs(args.out, exist_ok=True)
    lines = ["| task | expected | result | engine | time (s) | peak MB | note |", "|---|---|---|---|---:|---:|---|"]
    engines: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    per_folder: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    total = defaultdict(int)
    for r, res in zip(rows, results):
        exp = r["expected_verdict"]
        res["expected"] = exp
        if exp == "none":
            res["score"] = 0
            kind = "n/a"
        else:
            res["score"] = score(exp, res["result"])
            if res["result"] in ("TRUE", "FALSE"):
                kind = "correct" if res["result"].lower() == exp else "WRONG"
            else:
                kind = "unknown"
        folder = r["task_yml_path"].split("/")[1]
        for d in (per_folder[folder], total):
            d["tasks"] += 1
            d[kind] += 1
            d["score"] += res["score"]
            if kind == "correct":
                d["correct_" + exp] += 1
        if kind in ("correct", "WRONG"):
            engines[res.get("engine") or "?"][kind] += 1
        note = res["reason"][:70].replace("|", "/") if kind != "correct" else ""
        if res.get("child_crash"):
            total["child crashes"] += 1
            note = f"analysis child crashed {res['child_crash']}; {note}"[:160].replace("|", "/")
        lines.append(f"| {r['task_yml_path'][2:]} | {exp} | {res['result']} | {res.get('engine', '')} | {res['time']} | "
                     f"{res['peak_mb']} | {note} |")
    summary = ["| folder | tasks | correct (true/false) | wrong | unknown | n/a | score |", "|---|---:|---:|---:|---:|---:|---:|"]
    for folder in sorted(per_folder) + ["TOTAL"]:
        d = total if folder == "TOTAL" else per_folder[folder]
        summary.append(f"| {folder} | {d['tasks']} | {d['correct']} ({d['correct_true']}/{d['correct_false']}) | "
                       f"{d['WRONG']} | {d['unknown']} | {d['n/a']} | {d['score']} |")
    by_engine = ["| deciding engine | correct | wrong |", "|---|---:|---:|"]
    by_engine += [f"| {e} | {d['correct']} | {d['WRONG']} |" for e, d in sorted(engines.items())]
    summary.append(f"\nTasks whose analysis child crashed and was run again (cbam/isolation.py): "
                   f"{total['child crashes']}")
    stamp = time.strftime("%Y%m%d-%H%M%S")
    report = "\n".join(summary) + "\n\n" + "\n".join(by_engine) + "\n\n" + "\n".join(lines) + "\n"
    tag = f"{args.config}{'-cache' if args.cache else ''}"
    Path(args.out, f"svcomp-{tag}-{stamp}.md").write_text(report)
    Path(args.out, f"svcomp-{tag}-{stamp}.json").write_text(json.dumps(results, indent=1))
    print(report)
    return 1 if total["WRONG"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
