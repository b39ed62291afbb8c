"""Differential campaign: Csmith programs, gcc's values stated as assertions, cbam's verdicts.

    python bench/csmith_campaign.py --programs 2000 --timeout 20 \\
        --results bench/reports/csmith-campaign.jsonl --report bench/reports/csmith.md

Programs are spread round-robin over the option sets of bench/csmith_harness.py (seed n goes
to set n mod len(sets)), so an interrupted campaign still covers every set; a seed already in
--results is skipped whatever its set, so the set list may change between runs. Each program is
checked in one data model (LP64 for even seeds, ILP32 for odd ones; both when gcc's values
differ between -m64 and -m32): the stated program must be TRUE, its mutant (one value off by
one) FALSE at the mutated line. One JSON line per program is appended to --results as soon as
it is done; a re-run skips the seeds already there, so the campaign resumes where it stopped.
Every disagreement keeps its two programs under --keep (build/csmith-campaign/) for
bench/csmith_reduce.py; every agreement keeps its program under --pool, from which
bench/csmith_suite.py picks the stored suite.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import csmith_harness as h  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def classify(kind: str, result: dict, mutated_lines: set[int]) -> tuple[str, str]:
    """(outcome, cause) of one cbam run: agree, disagree, undecided or error."""
    v = result["verdict"]
    if v == "UNKNOWN":
        return "undecided", result["reason"][:120]
    if v not in ("TRUE", "FALSE"):
        return "error", f"{v}: {result['reason'][:200]}"
    if kind == "ok":
        return ("agree", "") if v == "TRUE" else ("disagree", f"wrong FALSE at line {result['line']}")
    if v == "TRUE":
        return "disagree", "wrong TRUE: the off-by-one value was not noticed"
    if result["line"] not in mutated_lines:
        return "disagree", f"FALSE at line {result['line']}, not at the mutated check {sorted(mutated_lines)}"
    return "agree", ""


def one_program(seed: int, set_name: str, timeout: float, keep: Path, bits: tuple[int, ...],
                cbam: h.InProcessCbam, pool: Path | None = None) -> dict:
    row: dict = {"seed": seed, "set": set_name, "runs": []}
    t0 = time.monotonic()
    with tempfile.TemporaryDirectory() as d:
        work = Path(d)
        try:
            case, k = h.build_case(seed, set_name, work, bits, confirm_run_models_only=True)
        except h.Unsupported as e:
            row.update(status="not run", cause=str(e)[:200], seconds=round(time.monotonic() - t0, 1))
            return row
        ok_src, bad_src = h.check_source(case), h.check_source(case, k)
        (work / "ok.c").write_text(ok_src)
        (work / "mutant.c").write_text(bad_src)
        differs = any(v["LP64"] != v["ILP32"] for v in case.values)
        models = h.models_for(seed, case, bits)
        row.update(status="run", observations=len(case.observations), lines=ok_src.count("\n"),
                   models_differ=differs, mutated=k)
        lines = h.check_lines(bad_src, k)
        for model in models:
            for kind, name in (("ok", "ok.c"), ("mutant", "mutant.c")):
                res = cbam.run(work / name, model, timeout)
                outcome, cause = classify(kind, res, lines)
                row["runs"].append({"model": model, "kind": kind, "verdict": res["verdict"], "outcome": outcome,
                                    "cause": cause, "seconds": res["seconds"], "cpu": res["cpu"], "reason": res["reason"][:160]})
        if pool is not None and all(r["outcome"] == "agree" for r in row["runs"]):
            # Candidates for the stored suite (bench/csmith_suite.py picks from them).
            pool.mkdir(parents=True, exist_ok=True)
            (pool / f"{set_name}-{seed}.c").write_text(ok_src)
            bad_lines = bad_src.splitlines()
            (pool / f"{set_name}-{seed}.json").write_text(json.dumps({
                "set": set_name, "seed": seed, "models": models, "mutated_check": k,
                "mutant": [[n, bad_lines[n - 1]] for n in sorted(lines)],
                "cpu": max(r["cpu"] for r in row["runs"])}))
        if any(r["outcome"] in ("disagree", "error") for r in row["runs"]):
            dest = keep / f"{set_name}-{seed}"
            dest.mkdir(parents=True, exist_ok=True)
            (dest / "ok.c").write_text(ok_src)
            (dest / "mutant.c").write_text(bad_src)
            (dest / "row.json").write_text(json.dumps(row, indent=1))
    row["seconds"] = round(time.monotonic() - t0, 1)
    return row


def program_outcome(row: dict) -> str:
    if row["status"] != "run":
        return "not run"
    outcomes = {r["outcome"] for r in row["runs"]}
    for o in ("disagree", "error", "undecided"):
        if o in outcomes:
            return o
    return "agree"


def report(rows: list[dict]) -> str:
    per_set: dict[str, Counter] = defaultdict(Counter)
    runs: dict[str, Counter] = defaultdict(Counter)
    seconds: Counter = Counter()
    for row in rows:
        per_set[row["set"]][program_outcome(row)] += 1
        seconds[row["set"]] += row.get("seconds", 0)
        for r in row.get("runs", []):
            runs[row["set"]][f"{r['kind']} {r['outcome']}"] += 1
    out = ["| option set | programs | not run (gcc) | run | agree | disagree | undecided | cbam error "
           "| runs: stated TRUE / undecided | mutant FALSE / undecided | seconds |",
           "|---|---:|---:|---:|---:|---:|---:|---:|---|---|---:|"]
    total: Counter = Counter()
    for name in [s for s in h.OPTION_SETS if s in per_set]:
        c, r = per_set[name], runs[name]
        total.update(c)
        run = sum(v for k, v in c.items() if k != "not run")
        out.append(f"| {name} | {sum(c.values())} | {c['not run']} | {run} | {c['agree']} | {c['disagree']} "
                   f"| {c['undecided']} | {c['error']} | {r['ok agree']} / {r['ok undecided']} "
                   f"| {r['mutant agree']} / {r['mutant undecided']} | {seconds[name]:.0f} |")
    run = sum(v for k, v in total.items() if k != "not run")
    out.append(f"| **all** | {sum(total.values())} | {total['not run']} | {run} | {total['agree']} "
               f"| {total['disagree']} | {total['undecided']} | {total['error']} | | | {sum(seconds.values()):.0f} |")
    causes: Counter = Counter()
    for row in rows:
        for r in row.get("runs", []):
            if r["outcome"] in ("disagree", "error"):
                causes[f"{row['set']}-{row['seed']} {r['model']} {r['kind']}: {r['cause']}"] += 1
    if causes:
        out.append("")
        out.append("Disagreements and errors (program, data model, which file: cause):")
        out.append("")
        out.extend(f"* {c}" for c in sorted(causes))
    undecided: Counter = Counter()
    for row in rows:
        for r in row.get("runs", []):
            if r["outcome"] == "undecided":
                why = re.sub(r"/\S+\.c:\d+:\d+", "FILE", r.get("reason") or "?")
                undecided[f"{row['set']}: {re.split(r'[;(]', why)[0].strip()[:80]}"] += 1
    if undecided:
        out.append("")
        out.append("Undecided runs by option set and cbam's reason:")
        out.append("")
        out.extend(f"* {k}: {v}" for k, v in sorted(undecided.items()))
    skipped = Counter(re.sub(r"\d+", "N", row["cause"])[:70] for row in rows if row["status"] != "run")
    if skipped:
        out.append("")
        out.append("Not run (gcc side): " + "; ".join(f"{k} ({v})" for k, v in skipped.most_common()))
    return "\n".join(out) + "\n"


def write_report(path: Path, table: str) -> None:
    start, end = "<!-- campaign-table -->", "<!-- /campaign-table -->"
    text = path.read_text() if path.exists() else f"# Csmith differential campaign\n\n{start}\n{end}\n"
    if start not in text:
        text += f"\n{start}\n{end}\n"
    before, rest = text.split(start, 1)
    after = rest.split(end, 1)[1]
    path.write_text(f"{before}{start}\n{table}{end}{after}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--programs", type=int, default=2000, help="how many seeds in all (resumed runs count)")
    ap.add_argument("--first-seed", type=int, default=100000)
    ap.add_argument("--sets", default=",".join(s for s in h.OPTION_SETS if s != "default"),
                    help="comma-separated option sets")
    ap.add_argument("--timeout", type=float, default=20.0, help="cbam's limit per run")
    ap.add_argument("--results", type=Path, default=ROOT / "bench" / "reports" / "csmith-campaign.jsonl")
    ap.add_argument("--keep", type=Path, default=ROOT / "build" / "csmith-campaign")
    ap.add_argument("--pool", type=Path, default=ROOT / "build" / "csmith-campaign" / "pool",
                    help="where every agreeing program is kept for bench/csmith_suite.py")
    ap.add_argument("--report", type=Path, help="markdown file whose campaign table is rewritten")
    ap.add_argument("--cbam-root", type=Path,
                    help="run cbam from this source tree (e.g. `git archive HEAD | tar -x -C DIR`)")
    ap.add_argument("--report-only", action="store_true", help="rewrite the table from --results and stop")
    args = ap.parse_args()
    sets = args.sets.split(",")
    done: dict[tuple[str, int], dict] = {}
    if args.results.exists():
        for line in args.results.read_text().splitlines():
            if line.strip():
                row = json.loads(line)
                done[(row["set"], row["seed"])] = row
    if not args.report_only:
        bits = (64, 32) if h.m32_available() else (64,)
        cbam = h.InProcessCbam(args.cbam_root)
        args.results.parent.mkdir(parents=True, exist_ok=True)
        with args.results.open("a") as out:
            for seed in range(args.first_seed, args.first_seed + args.programs):
                set_name = sets[seed % len(sets)]
                # A seed is one program: once run, under whichever set list was current, it is done.
                if any(seed == s for _, s in done):
                    continue
                row = one_program(seed, set_name, args.timeout, args.keep, bits, cbam, args.pool)
                done[(set_name, seed)] = row
                out.write(json.dumps(row) + "\n")
                out.flush()
                print(f"{set_name}-{seed}: {program_outcome(row)} {row.get('cause', '')}"
                      f" {[(r['model'], r['kind'], r['verdict']) for r in row['runs']]} {row['seconds']} s", flush=True)
                if args.report and len(done) % 25 == 0:
                    write_report(args.report, report(list(done.values())))
        cbam.close()
    table = report(list(done.values()))
    print(table)
    if args.report:
        write_report(args.report, table)


if __name__ == "__main__":
    main()
