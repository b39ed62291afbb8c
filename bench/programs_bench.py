"""cbam on programs that state their own verdict (``// expect: TRUE`` or ``// expect: FALSE line=N``
in their first line), e.g. tests/programs/memory: correct, wrong, unknown, the median time, and
for each FALSE whether its harness, compiled with the program by gcc, reaches the failing
assertion.

    python bench/programs_bench.py [DIR] [--timeout 60] [--jobs 2] [--out bench/reports/memory-programs.md]
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def expectation(path: Path) -> tuple[str, int | None]:
    m = re.match(r"// expect: (TRUE|FALSE)(?: line=(\d+))?", path.read_text().splitlines()[0])
    if m is None:
        raise SystemExit(f"{path}: no '// expect:' line")
    return m.group(1), int(m.group(2)) if m.group(2) else None


def replays(source: Path, harness: Path) -> bool:
    with tempfile.TemporaryDirectory() as d:
        exe = Path(d, "a.out")
        cc = subprocess.run(["gcc", "-w", str(source), str(harness), "-o", str(exe)], capture_output=True)
        if cc.returncode != 0:
            return False
        run = subprocess.run([str(exe)], capture_output=True, text=True, timeout=60)
        return run.returncode != 0 and ("Assertion" in run.stderr or "reach_error" in run.stderr)


def one(path: Path, timeout: float) -> dict:
    expected, line = expectation(path)
    with tempfile.TemporaryDirectory() as d:
        harness = Path(d, "harness.c")
        t0 = time.monotonic()
        proc = subprocess.run([sys.executable, "-m", "cbam", "verify", str(path), "--format", "json", "--no-cache",
                               "--no-progress", "--timeout", str(timeout), "--harness", str(harness)],
                              capture_output=True, text=True, cwd=ROOT, timeout=timeout + 60)
        elapsed = time.monotonic() - t0
        try:
            data = json.loads(proc.stdout)
        except ValueError:
            return {"file": path.name, "expected": expected, "verdict": "ERROR", "time": elapsed,
                    "note": proc.stderr.strip().splitlines()[-1:] or ""}
        verdict = data["verdict"]
        note = data.get("reason", "") if verdict == "UNKNOWN" else ""
        if verdict == "FALSE":
            got = data["violations"][0]["range"]["start"]["line"]
            ok = replays(path, harness) if harness.exists() else False
            note = f"line {got}{'' if got == line else f' (expected {line})'}, harness {'replays' if ok else 'FAILS'}"
            if got != line or not ok:
                verdict = "FALSE?"
    return {"file": path.name, "expected": expected, "verdict": verdict, "time": elapsed, "note": note}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("dir", nargs="?", default=str(ROOT / "tests" / "programs" / "memory"))
    ap.add_argument("--timeout", type=float, default=60)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--out", default=str(ROOT / "bench" / "reports" / "memory-programs.md"))
    args = ap.parse_args()
    files = sorted(Path(args.dir).glob("*.c"))
    with ThreadPoolExecutor(args.jobs) as pool:
        rows = list(pool.map(lambda p: one(p, args.timeout), files))
    correct = [r for r in rows if r["verdict"] == r["expected"]]
    wrong = [r for r in rows if r["verdict"] in ("TRUE", "FALSE") and r["verdict"] != r["expected"]]
    unknown = [r for r in rows if r not in correct and r not in wrong]
    med = statistics.median(r["time"] for r in rows) if rows else 0.0
    lines = [f"# Programs with their own verdicts: {args.dir} (--timeout {args.timeout:g}, {args.jobs} jobs)", "",
             "| programs | correct (TRUE/FALSE) | wrong | unknown | decided | median time (s) |",
             "|---:|---:|---:|---:|---:|---:|",
             f"| {len(rows)} | {len(correct)} ({sum(r['expected'] == 'TRUE' for r in correct)}/"
             f"{sum(r['expected'] == 'FALSE' for r in correct)}) | {len(wrong)} | {len(unknown)} | "
             f"{100 * len(correct) / max(1, len(rows)):.0f}% | {med:.2f} |", "",
             "| program | expected | result | time (s) | note |", "|---|---|---|---:|---|"]
    lines += [f"| {r['file']} | {r['expected']} | {r['verdict']} | {r['time']:.2f} | {str(r['note'])[:120]} |"
              for r in rows]
    Path(args.out).write_text("\n".join(lines) + "\n")
    print("\n".join(lines[:6]))


if __name__ == "__main__":
    main()
