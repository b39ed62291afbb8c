"""cbam on real C libraries: the harnesses under tests/realcode/<lib>/harnesses, each linked with
the library files its header names, each with an expected verdict established without cbam
(see bench/realcode/README.md).

    python bench/realcode/run.py [HARNESS ...] [--timeout 60] [--jobs 1] [--report bench/reports/realcode.md]
    python bench/realcode/run.py --native      # only check natively (gcc) that each FALSE harness fails

A harness starts with these comment lines (``input`` only for FALSE ones):

    // expect: TRUE | FALSE
    // property: unreach-call | memsafety
    // link: <library .c files, relative to the harness>
    // flags: <extra -I/-D/-U flags, relative to the harness, for cbam and gcc alike>
    // why: <why the verdict is right>
    // input: <hex bytes for tests/realcode/tools/stubs.c: an input on which the bug shows natively>

Exit status 1 if a verdict is wrong (TRUE where FALSE is expected or the other way round) or a
FALSE verdict's counterexample did not replay; 0 otherwise (UNKNOWN is not a failure).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shlex
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
REALCODE = ROOT / "tests" / "realcode"
STUBS = REALCODE / "tools" / "stubs.c"
DEFAULT_REPORT = ROOT / "bench" / "reports" / "realcode.md"

HEADER_KEYS = ("expect", "property", "link", "flags", "why")
VERDICTS = ("TRUE", "FALSE")
PROPERTIES = ("unreach-call", "memsafety")
# What a native run prints when the bug it is compiled to show happens.
ASSERT_MARKS = ("reach_error", "Assertion")
ASAN_MARKS = ("ERROR: AddressSanitizer", "ERROR: LeakSanitizer")
ASAN_DID_NOT_START = ("ReserveShadowMemoryRange failed", "AddressSanitizer failed to allocate")


@dataclass(frozen=True)
class Harness:
    path: Path
    expect: str
    prop: str  # the property: unreach-call or memsafety
    link: tuple[str, ...]
    flags: tuple[str, ...]
    why: str
    input: str | None

    @property
    def name(self) -> str:
        """lib/harness, e.g. rxi-vec/vec_push_pop."""
        return f"{self.path.parent.parent.name}/{self.path.stem}"

    @property
    def dir(self) -> Path:
        return self.path.parent


def parse_header(path: Path) -> Harness:
    """The harness's header; ValueError saying what is wrong if it is malformed."""
    lines = path.read_text().splitlines()
    fields: dict[str, str] = {}
    for i, key in enumerate(HEADER_KEYS):
        m = re.fullmatch(rf"// {key}:(?: (.*))?", lines[i] if i < len(lines) else "")
        if m is None:
            raise ValueError(f"{path}: line {i + 1} is not '// {key}: ...'")
        fields[key] = (m.group(1) or "").strip()
    m = re.fullmatch(r"// input: ([0-9a-f]*)", lines[5]) if len(lines) > 5 else None
    given = m.group(1) if m else None
    if fields["expect"] not in VERDICTS:
        raise ValueError(f"{path}: expect must be TRUE or FALSE, not {fields['expect']!r}")
    if fields["property"] not in PROPERTIES:
        raise ValueError(f"{path}: property must be one of {PROPERTIES}, not {fields['property']!r}")
    if not fields["why"]:
        raise ValueError(f"{path}: the why: line is empty")
    if fields["expect"] == "FALSE" and (given is None or len(given) % 2):
        raise ValueError(f"{path}: a FALSE harness needs '// input: HEX' (line 6) with whole bytes")
    link = tuple(shlex.split(fields["link"]))
    for f in link:
        if not (path.parent / f).is_file():
            raise ValueError(f"{path}: linked file {f} does not exist")
    return Harness(path=path, expect=fields["expect"], prop=fields["property"], link=link,
                   flags=tuple(shlex.split(fields["flags"])), why=fields["why"], input=given)


def discover(root: Path = REALCODE) -> list[Harness]:
    return [parse_header(p) for p in sorted(root.glob("*/harnesses/*.c"))]


# --- cbam ------------------------------------------------------------------------------------


@dataclass
class Result:
    harness: Harness
    verdict: str  # TRUE, FALSE, UNKNOWN, or ERROR (no JSON) / TIMEOUT (cbam did not stop)
    reason: str
    replayed: bool | None  # for a FALSE verdict: did its counterexample replay under gcc
    replay_note: str
    time: float
    exit_status: int | None

    @property
    def outcome(self) -> str:
        if self.verdict == self.harness.expect:
            return "correct"
        if self.verdict in VERDICTS:
            return "wrong"
        return "unknown"

    @property
    def failed(self) -> bool:
        """What makes the benchmark fail: a wrong verdict, or a FALSE that did not replay."""
        return self.outcome == "wrong" or (self.verdict == "FALSE" and not self.replayed)


def cbam_command(h: Harness, timeout: float) -> list[str]:
    cmd = [sys.executable, "-m", "cbam", "verify"]
    if h.link:
        cmd.append("--link")
    cmd += [h.path.name, *h.link, *h.flags, "--format", "json", "--timeout", f"{timeout:g}",
            "--no-progress", "--no-cache"]
    if h.prop == "memsafety":
        cmd += ["--property", "memsafety"]
    return cmd


def json_name(h: Harness) -> str:
    return f"{h.name.replace('/', '__')}.json"


def run_cbam(h: Harness, timeout: float, json_dir: Path | None = None) -> Result:
    """cbam on the harness, from its folder; with ``json_dir``, its JSON answer is kept there."""
    t0 = time.monotonic()
    try:
        proc = subprocess.run(cbam_command(h, timeout), cwd=h.dir, capture_output=True, text=True,
                              timeout=timeout + 120)
    except subprocess.TimeoutExpired:
        return Result(h, "TIMEOUT", f"cbam did not stop within {timeout + 120:g} s", None, "",
                      time.monotonic() - t0, None)
    wall = time.monotonic() - t0
    if json_dir is not None:
        json_dir.mkdir(parents=True, exist_ok=True)
        (json_dir / json_name(h)).write_text(proc.stdout)
    return result_of(h, proc.stdout, proc.stderr, proc.returncode, wall)


def result_of(h: Harness, stdout: str, stderr: str, status: int | None, wall: float) -> Result:
    """The result cbam's JSON answer ``stdout`` gives."""
    try:
        data = json.loads(stdout)
    except ValueError:
        last = (stderr.strip().splitlines() or [f"exit status {status}, no output"])[-1]
        return Result(h, "ERROR", last[:300], None, "", wall, status)
    verdict = str(data.get("verdict", "ERROR"))
    replayed: bool | None = None
    note = ""
    if verdict == "FALSE":
        replays = [v.get("replay") or {} for v in data.get("violations", [])]
        replayed = any(r.get("status") == "replayed" for r in replays)
        note = "; ".join(f"{r.get('status')}: {r.get('observed') or r.get('reason') or ''}".strip()
                         for r in replays)
    stats = data.get("statistics") or {}
    elapsed = float(stats.get("time", wall))
    reason = str(data.get("reason") or "")
    if verdict not in VERDICTS:
        reason = describe_unknown(data)
    return Result(h, verdict, reason, replayed, note, elapsed, status)


def _where(r: object) -> str:
    if isinstance(r, dict) and "file" in r:
        start = r.get("start") or {}
        return f"{r['file']}:{start.get('line', '?')}:{start.get('column', '?')}"
    return str(r)


def describe_unknown(data: dict) -> str:
    """cbam's reason for an UNKNOWN, with what it got through before it stopped."""
    reason = str(data.get("reason") or "(no reason given)")
    parts = [reason]
    kind = str(data.get("reason_kind") or "")
    if kind and kind not in reason and not (kind == "unsupported" and data.get("unsupported")):
        parts.append(f"[{kind}]")
    if data.get("unsupported"):
        parts.append(f"(unsupported at {_where(data['unsupported'])})")
    if data.get("search_stopped"):
        parts.append(f"search stopped: {data['search_stopped']}")
    stats = data.get("statistics") or {}
    counts = [f"{stats[k]} {label}" for k, label in (("states", "states"), ("refinements", "refinements"),
                                                      ("explored_paths", "paths")) if stats.get(k)]
    if counts:
        parts.append("(" + ", ".join(counts) + ")")
    warnings = data.get("warnings") or []
    if warnings:
        first = warnings[0].get("message", warnings[0]) if isinstance(warnings[0], dict) else warnings[0]
        parts.append(f"{len(warnings)} warning(s), first: {first}")
    return " ".join(parts)


# --- native runs (gcc), independent of cbam --------------------------------------------------


@dataclass
class NativeRun:
    compiled: bool
    returncode: int
    output: str

    @property
    def asserted(self) -> bool:
        return self.compiled and self.returncode != 0 and any(m in self.output for m in ASSERT_MARKS)

    @property
    def sanitizer_report(self) -> bool:
        # AddressSanitizer that could not start (its shadow memory, under an address-space
        # limit) reports nothing about the program.
        return (self.compiled and self.returncode != 0 and any(m in self.output for m in ASAN_MARKS)
                and not any(m in self.output for m in ASAN_DID_NOT_START))


def _unlimited() -> None:
    """No address-space limit for the run (a test process's, which children inherit): the
    sanitizer reserves terabytes of address space for its shadow memory."""
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    resource.setrlimit(resource.RLIMIT_AS, (hard, hard))


def run_native(h: Harness, input_hex: str, timeout: float = 120) -> NativeRun:
    """Compile the harness with its library files and tools/stubs.c by gcc (with AddressSanitizer
    for memsafety) and run it on ``input_hex``."""
    sanitize = ["-fsanitize=address", "-fno-sanitize-recover=all"] if h.prop == "memsafety" else []
    with tempfile.TemporaryDirectory() as d:
        exe = Path(d, "h")
        cc = subprocess.run(["gcc", "-std=gnu11", "-g", "-w", *sanitize, *h.flags, h.path.name, *h.link,
                             str(STUBS), "-o", str(exe)], cwd=h.dir, capture_output=True, text=True)
        if cc.returncode != 0:
            return NativeRun(False, cc.returncode, cc.stderr)
        env = dict(os.environ, ASAN_OPTIONS="detect_leaks=1")
        env.pop("NONDET_HEX", None)
        run = subprocess.run([str(exe), input_hex] if input_hex else [str(exe)], cwd=h.dir,
                             capture_output=True, text=True, timeout=timeout, env=env, preexec_fn=_unlimited)
        return NativeRun(True, run.returncode, run.stdout + run.stderr)


def shows_bug(h: Harness, run: NativeRun) -> bool:
    return run.sanitizer_report if h.prop == "memsafety" else run.asserted


# --- the report ------------------------------------------------------------------------------


def _cell(text: str, limit: int = 160) -> str:
    text = " ".join(text.split()).replace("|", "\\|")
    return text if len(text) <= limit else text[: limit - 3] + "..."


def git_head() -> str:
    r = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True)
    return r.stdout.strip() or "unknown"


def report(results: Sequence[Result], timeout: float, jobs: int) -> str:
    n = len(results)
    correct = [r for r in results if r.outcome == "correct"]
    wrong = [r for r in results if r.outcome == "wrong"]
    unknown = [r for r in results if r.outcome == "unknown"]
    falses = [r for r in results if r.verdict == "FALSE"]
    replayed = [r for r in falses if r.replayed]
    decided = len(correct) + len(wrong)
    stamp = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    lines = [
        "# cbam on real C libraries (tests/realcode)",
        "",
        f"{stamp}, cbam at {git_head()}, `--timeout {timeout:g}`, {jobs} job{'s' if jobs != 1 else ''}. "
        "Generated by `bench/realcode/run.py`; each expected verdict was established natively with gcc "
        "(see the harness's `why:` and `input:` lines).",
        "",
        "| harnesses | decided | correct (TRUE/FALSE) | wrong | unknown | FALSE verdicts replayed | total time (s) |",
        "|---:|---:|---:|---:|---:|---:|---:|",
        f"| {n} | {decided} ({100 * decided / max(1, n):.0f}%) | {len(correct)} "
        f"({sum(r.harness.expect == 'TRUE' for r in correct)}/{sum(r.harness.expect == 'FALSE' for r in correct)}) | "
        f"{len(wrong)} | {len(unknown)} | {len(replayed)} of {len(falses)} | "
        f"{sum(r.time for r in results):.0f} |",
        "",
        "| harness | property | expected | cbam | outcome | replayed | time (s) | note |",
        "|---|---|---|---|---|---|---:|---|",
    ]
    for r in results:
        rep = "" if r.verdict != "FALSE" else ("yes" if r.replayed else "**no**")
        outcome = f"**{r.outcome}**" if r.outcome == "wrong" else r.outcome
        note = r.reason if r.verdict != "FALSE" else (r.replay_note if not r.replayed else "")
        lines.append(f"| {r.harness.name} | {r.harness.prop} | {r.harness.expect} | {r.verdict} | {outcome} | "
                     f"{rep} | {r.time:.1f} | {_cell(note)} |")
    problems = [r for r in results if r.failed]
    if problems:
        lines += ["", "## Wrong verdicts and unreplayed counterexamples", ""]
        for r in problems:
            what = "wrong verdict" if r.outcome == "wrong" else "FALSE not replayed"
            lines.append(f"- {r.harness.name}: {what}: expected {r.harness.expect}, cbam {r.verdict}; "
                         f"{_cell(r.replay_note or r.reason, 400)} (why expected: {_cell(r.harness.why, 400)})")
    if unknown:
        lines += ["", "## Undecided", ""]
        for r in unknown:
            lines.append(f"- {r.harness.name} ({r.verdict}, {r.time:.0f} s): {_cell(r.reason, 400) or '(no reason given)'}")
    return "\n".join(lines) + "\n"


# --- command line ----------------------------------------------------------------------------


def select(harnesses: list[Harness], wanted: Sequence[str]) -> list[Harness]:
    if not wanted:
        return harnesses
    chosen = [h for h in harnesses if any(w in h.name or Path(w).resolve() == h.path for w in wanted)]
    if not chosen:
        raise SystemExit(f"no harness matches {' '.join(wanted)}")
    return chosen


def check_native(harnesses: list[Harness]) -> int:
    bad = 0
    for h in harnesses:
        if h.expect != "FALSE":
            continue
        run = run_native(h, h.input or "")
        ok = shows_bug(h, run)
        bad += not ok
        print(f"{'ok  ' if ok else 'FAIL'} {h.name}: input {h.input or '(empty)'}, exit {run.returncode}", flush=True)
    return 1 if bad else 0


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("harnesses", nargs="*", help="only these (a path, or part of lib/name)")
    ap.add_argument("--timeout", type=float, default=60, help="cbam's --timeout per harness (default 60)")
    ap.add_argument("--jobs", type=int, default=1, help="harnesses run at the same time (default 1)")
    ap.add_argument("--report", type=Path, default=DEFAULT_REPORT, help=f"Markdown report (default {DEFAULT_REPORT.relative_to(ROOT)})")
    ap.add_argument("--json-dir", type=Path, help="keep cbam's JSON answer for each harness in this folder")
    ap.add_argument("--from-json", type=Path, metavar="DIR",
                    help="do not run cbam: write the report from the answers a --json-dir run kept in DIR")
    ap.add_argument("--native", action="store_true", help="only check that each FALSE harness fails natively")
    args = ap.parse_args(argv)
    harnesses = select(discover(), args.harnesses)
    if args.native:
        return check_native(harnesses)

    def one(h: Harness) -> Result:
        if args.from_json is not None:
            saved = args.from_json / json_name(h)
            text = saved.read_text() if saved.is_file() else ""
            return result_of(h, text, "no saved answer", None, 0.0)
        r = run_cbam(h, args.timeout, args.json_dir)
        rep = "" if r.verdict != "FALSE" else (" replayed" if r.replayed else " NOT replayed")
        print(f"{r.harness.name}: {r.verdict}{rep} ({r.outcome}, {r.time:.1f} s)", file=sys.stderr, flush=True)
        return r

    with ThreadPoolExecutor(max(1, args.jobs)) as pool:
        results = list(pool.map(one, harnesses))
    text = report(results, args.timeout, args.jobs)
    args.report.parent.mkdir(parents=True, exist_ok=True)
    args.report.write_text(text)
    print(text)
    return 1 if any(r.failed for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
