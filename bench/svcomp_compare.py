"""Compare SV-COMP benchmark runs (the .json files svcomp_bench.py writes), per folder.

Each cell is "correct (true/false) score"; the last rows count wrong verdicts and show
the tasks each configuration decides that the first one (the baseline) does not.

    python bench/svcomp_compare.py value=results/svcomp-value-X.json predicate=results/...json
"""

from __future__ import annotations

import json
import sys
from collections import defaultdict


def load(path: str) -> dict[str, dict]:
    with open(path) as fh:
        return {r["task"]: r for r in json.load(fh)}


def folder(task: str) -> str:
    return task.split("/")[1]


def cell(rows: list[dict]) -> str:
    ok = [r for r in rows if r["result"].lower() == r["expected"]]
    t = sum(1 for r in ok if r["expected"] == "true")
    return f"{len(ok)} ({t}/{len(ok) - t}) {sum(r['score'] for r in rows)}"


def compare(runs: list[tuple[str, dict[str, dict]]]) -> str:
    names = [n for n, _ in runs]
    folders = sorted({folder(t) for _, rs in runs for t in rs})
    lines = ["| folder | " + " | ".join(names) + " |", "|---|" + "---:|" * len(names)]
    for f in folders + ["TOTAL"]:
        cells = []
        for _, rs in runs:
            rows = [r for t, r in rs.items() if f == "TOTAL" or folder(t) == f]
            cells.append(cell(rows))
        lines.append(f"| {f} | " + " | ".join(cells) + " |")
    wrong = []
    for _, rs in runs:
        bad = [r for r in rs.values() if r["result"] in ("TRUE", "FALSE") and r["expected"] in ("true", "false")
               and r["result"].lower() != r["expected"]]
        wrong.append(str(len(bad)))
    lines.append("| wrong verdicts | " + " | ".join(wrong) + " |")
    base = runs[0][1]
    gained: dict[str, list[str]] = defaultdict(list)
    for name, rs in runs[1:]:
        for t, r in sorted(rs.items()):
            b = base.get(t)
            if r["result"].lower() == r["expected"] and (b is None or b["result"].lower() != b["expected"]):
                gained[name].append(t.split("/", 2)[-1].removesuffix(".yml"))
    out = "\n".join(lines) + "\n"
    for name in names[1:]:
        out += f"\n{name} decides, {names[0]} does not: {', '.join(gained[name]) or 'none'}\n"
    return out


def main(argv: list[str]) -> int:
    runs = []
    for arg in argv:
        name, _, path = arg.partition("=")
        runs.append((name, load(path)))
    if not runs:
        print(__doc__)
        return 2
    print(compare(runs))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
