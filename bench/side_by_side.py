"""Two cbam versions on the same tasks, side by side: each task runs under the baseline and
then under this checkout, back to back, so both see the same machine load. Reports the
median time of each, their ratio, and every task whose verdict differs.

    python bench/side_by_side.py --base-python /path/to/baseline/.venv/bin/python \\
        [--svcomp ../shared/svcomp] [--timeout 10] [--jobs 2] [--out bench/reports/side-by-side.md]

The baseline is another checkout with its own environment (e.g. ``git worktree add``).
"""

from __future__ import annotations

import argparse
import csv
import statistics
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run(python: str, cwd: Path, task: Path, timeout: float, config: str) -> tuple[str, float]:
    cmd = [python, "-m", "cbam", "verify", str(task), "--format", "json", "--timeout", str(timeout),
           "--config", config, "--no-progress", "--no-cache"]
    t0 = time.monotonic()
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout + 60, cwd=cwd).stdout
    except subprocess.TimeoutExpired:
        return "TIMEOUT", time.monotonic() - t0
    elapsed = time.monotonic() - t0
    import json

    try:
        verdict = json.loads(out)["verdict"]
    except (ValueError, KeyError, TypeError):
        verdict = "ERROR"
    return verdict, elapsed


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--base-python", required=True)
    ap.add_argument("--base-dir", default=None, help="the baseline checkout (default: two levels above its python)")
    ap.add_argument("--svcomp", default=str(ROOT.parent / "shared" / "svcomp"))
    ap.add_argument("--timeout", type=float, default=10)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--config", default="value+predicate")
    ap.add_argument("--out", default=str(ROOT / "bench" / "reports" / "side-by-side.md"))
    args = ap.parse_args()
    base_dir = Path(args.base_dir) if args.base_dir else Path(args.base_python).resolve().parents[2]
    svcomp = Path(args.svcomp)
    with open(svcomp / "INDEX.tsv") as fh:
        rows = list(csv.DictReader(fh, delimiter="\t"))

    def both(row: dict) -> dict:
        task = svcomp / row["task_yml_path"]
        bv, bt = run(args.base_python, base_dir, task, args.timeout, args.config)
        nv, nt = run(sys.executable, ROOT, task, args.timeout, args.config)
        return {"task": row["task_yml_path"], "expected": row["expected_verdict"], "base": bv, "base_time": bt,
                "new": nv, "new_time": nt}

    with ThreadPoolExecutor(args.jobs) as pool:
        results = list(pool.map(both, rows))
    bmed = statistics.median(r["base_time"] for r in results)
    nmed = statistics.median(r["new_time"] for r in results)

    def correct(key: str) -> int:
        return sum(1 for r in results if r[key].lower() == r["expected"])

    def wrong(key: str) -> int:
        return sum(1 for r in results if r[key] in ("TRUE", "FALSE") and r[key].lower() != r["expected"])

    lines = [f"# Side by side: baseline vs this checkout ({len(results)} tasks, {args.config}, "
             f"--timeout {args.timeout:g}, {args.jobs} jobs)", "",
             "| | baseline | this checkout |", "|---|---:|---:|",
             f"| median time (s) | {bmed:.3f} | {nmed:.3f} |",
             f"| correct | {correct('base')} | {correct('new')} |",
             f"| wrong | {wrong('base')} | {wrong('new')} |", "",
             f"Median ratio (this / baseline): **{nmed / bmed:.3f}**.", ""]
    diff = [r for r in results if r["base"] != r["new"]]
    if diff:
        lines += ["Tasks whose verdict differs:", "", "| task | expected | baseline | this checkout |",
                  "|---|---|---|---|"]
        lines += [f"| {r['task']} | {r['expected']} | {r['base']} | {r['new']} |" for r in diff]
    Path(args.out).write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
