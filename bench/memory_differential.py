"""Differential campaign for the memory model: cached runs against fresh runs of edited programs.

    python bench/memory_differential.py --sequences 120 --jobs 2 --seed 1 \
        --out bench/reports/memory-differential.md

Each sequence takes one program of tests/programs/memory (plus any --corpus folder), copies it to
a temporary p.c and verifies it, then applies 1..5 random textual edits, one after another, each
to one function body (an integer literal, a comparison operator, + against -, the right-hand side
of a write through a pointer or into an array, a deleted or duplicated statement line; a share of
the edits goes to helper functions with a pointer parameter, their callers left unchanged). An
edit is kept only if ``gcc -fsyntax-only -w`` accepts the file. After every version the CLI runs
four times: with a cache (one directory per sequence and mode, kept across the edits, with
--self-check) and without one, in the first-violation mode and with --all-violations.

The cached and the fresh run of a version and mode are compared: the verdict, and for FALSE the
violation line (the first one; the sorted list with --all-violations). A difference that a time
limit explains (either side UNKNOWN for time or memory, or a search or phase cut short by time) is
a "timeout", not a mismatch. A verdict ERROR, exit status 4 or a traceback on either side is a
mismatch (a crash or a failed self-check).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
PROGRAMS = ROOT / "tests" / "programs" / "memory"
TIMING = ("timeout", "cancelled", "memory")
MODES = ("first", "all")
EDIT_KINDS = ("int_literal", "flip_cmp", "swap_plus_minus", "write_const", "delete_stmt", "dup_stmt")
COMPARISONS = ("<", "<=", ">", ">=", "==", "!=")
PLUS_MINUS = {"+": "-", "-": "+", "+=": "-=", "-=": "+=", "++": "--", "--": "++"}
TYPE_WORDS = {"int", "char", "short", "long", "unsigned", "signed", "float", "double", "void", "struct",
              "union", "enum", "const", "static", "volatile", "register", "size_t", "_Bool", "bool",
              "extern", "typedef", "int8_t", "int16_t", "int32_t", "int64_t", "uint8_t", "uint16_t",
              "uint32_t", "uint64_t", "ptrdiff_t", "intptr_t", "uintptr_t"}
KEYWORDS = {"return", "goto", "case", "default", "sizeof", "else", "do", "if", "while", "for", "switch",
            "break", "continue"}
SNAPSHOT: Path | None = None  # a frozen copy of cbam's code, first on the import path (see --no-snapshot)
DEADLINE: float | None = None  # no sequence starts after this time.monotonic() (see --budget-minutes)
PROPERTY = "unreach-call"  # what every run checks (see --property)
PROCESS_LIMIT = 120.0
# A file with several entry functions reports the reason_kind, search_stopped and statistics of its
# first entry only (report_file.merge); another entry's time limit shows only in the joined reason,
# "entry: reason; entry: reason", with the reasons of pipeline/search.py.
_ENTRY_TIMING = re.compile(r"(?:^|; )(?:[A-Za-z_]\w*: )?(?:timeout|cancelled|memory limit reached)(?=;|$)")  # seconds of wall-clock time per CLI run (the analysis itself has --timeout)

_TOKEN = re.compile(r"""
    (?P<ws>\s+)
  | (?P<comment>//[^\n]*|/\*.*?\*/)
  | (?P<directive>(?<![^\n])[ \t]*\#(?:\\\n|[^\n])*)
  | (?P<string>"(?:\\.|[^"\\\n])*")
  | (?P<char>'(?:\\.|[^'\\\n])*')
  | (?P<number>\.?\d(?:[eEpP][+-]|[\w.])*)
  | (?P<ident>[A-Za-z_]\w*)
  | (?P<punct>\.\.\.|<<=|>>=|->|\+\+|--|<<|>>|<=|>=|==|!=|&&|\|\||[-+*/%&|^]=|\S)
""", re.VERBOSE | re.DOTALL)


@dataclass
class Token:
    kind: str
    text: str
    start: int
    end: int
    line: int  # 0-based


@dataclass
class Function:
    name: str
    params: str
    body_open: int  # index of "{" in the token list
    body_close: int  # index of the matching "}"
    pointer_param: bool
    helper: bool = False  # referenced outside its own definition


@dataclass
class Edit:
    function: str
    kind: str
    line: int  # 1-based, in the version before the edit
    before: str
    after: str
    pointer_helper: bool

    def describe(self) -> str:
        tag = " [pointer helper]" if self.pointer_helper else ""
        if self.kind == "delete_stmt":
            return f"{self.function}(){tag}: delete_stmt line {self.line}: `{self.before.strip()}`"
        if self.kind == "dup_stmt":
            return f"{self.function}(){tag}: dup_stmt line {self.line}: `{self.before.strip()}`"
        return f"{self.function}(){tag}: {self.kind} line {self.line}: `{self.before.strip()}` -> `{self.after.strip()}`"


@dataclass
class RunResult:
    verdict: str
    lines: list[int]
    exit_code: int
    timing: bool  # UNKNOWN for time/memory, or a search or phase cut short by time
    crash: str  # "" or why the run counts as a crash
    reason: str = ""
    reason_kind: str = ""
    precision_reused: bool = False
    summary_hits: int = 0
    source: str = ""
    stderr_tail: str = ""
    search_stopped: str = ""
    wall: float = 0.0  # seconds


@dataclass
class Mismatch:
    sequence: int
    program: str
    step: int
    mode: str
    problem: str
    source: str
    edits: list[str]
    cached: RunResult
    fresh: RunResult
    case_file: str = ""


@dataclass
class SequenceOutcome:
    index: int
    program: str
    edits: list[str] = field(default_factory=list)
    compared: int = 0
    timeouts: int = 0
    hinted: list[str] = field(default_factory=list)  # another real violation first (see compare)
    timed_runs: int = 0
    verdicts: Counter[str] = field(default_factory=Counter)
    mismatches: list[Mismatch] = field(default_factory=list)
    rejected_edits: int = 0
    walls: list[float] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    seconds: float = 0.0


# ---- parsing --------------------------------------------------------------------------------------
def tokenize(text: str) -> list[Token]:
    tokens: list[Token] = []
    pos, line = 0, 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None:  # cannot happen: \S matches any non-space character
            raise ValueError(f"untokenizable text at {pos}")
        kind = m.lastgroup or ""
        if kind not in ("ws", "comment", "directive"):
            tokens.append(Token(kind, m.group(), m.start(), m.end(), line))
        line += m.group().count("\n")
        pos = m.end()
    return tokens


def functions(tokens: list[Token]) -> list[Function]:
    """Function definitions at file scope: a "{" at depth 0 right after a ")"."""
    found: list[Function] = []
    depth = 0
    i = 0
    while i < len(tokens):
        t = tokens[i]
        if t.text == "{" and depth == 0 and i > 0 and tokens[i - 1].text == ")":
            j, par = i - 1, 0
            while j >= 0:
                par += {")": 1, "(": -1}.get(tokens[j].text, 0)
                if par == 0:
                    break
                j -= 1
            close, d = i, 0
            while close < len(tokens):
                d += {"{": 1, "}": -1}.get(tokens[close].text, 0)
                if d == 0:
                    break
                close += 1
            if j > 0 and tokens[j - 1].kind == "ident" and close < len(tokens):
                params = " ".join(tok.text for tok in tokens[j + 1:i - 1])
                pointer = "*" in params or "[" in params
                found.append(Function(tokens[j - 1].text, params, i, close, pointer))
            i = close + 1
            continue
        depth += {"{": 1, "}": -1}.get(t.text, 0)
        i += 1
    bodies = [(g.body_open, g.body_close) for g in found]
    for f in found:
        f.helper = any(_references(tokens, f, k, bodies) for k, tok in enumerate(tokens)
                       if tok.kind == "ident" and tok.text == f.name)
    return found


def _references(tokens: list[Token], f: Function, k: int, bodies: list[tuple[int, int]]) -> bool:
    """Token k (f's name) uses f outside f's own definition: a call in another body, or f's
    address anywhere (a function-pointer table, say); not a prototype."""
    if f.body_open < k < f.body_close:
        return False  # recursion
    in_body = any(a < k < b for a, b in bodies)
    called = k + 1 < len(tokens) and tokens[k + 1].text == "("
    return in_body or not called


def typedef_names(tokens: list[Token]) -> set[str]:
    names: set[str] = set()
    for i, t in enumerate(tokens):
        if t.text != "typedef":
            continue
        depth, j = 0, i + 1
        while j < len(tokens) and not (tokens[j].text == ";" and depth == 0):
            depth += {"{": 1, "}": -1, "(": 1, ")": -1}.get(tokens[j].text, 0)
            j += 1
        if j - 1 > i and tokens[j - 1].kind == "ident":
            names.add(tokens[j - 1].text)
    return names


# ---- edits ------------------------------------------------------------------------------------------
def _replace(text: str, start: int, end: int, new: str) -> str:
    return text[:start] + new + text[end:]


def _line_of(text: str, line: int) -> str:
    return text.split("\n")[line]


def _statement_lines(text: str, tokens: list[Token], f: Function, types: set[str]) -> list[int]:
    """0-based lines inside f's body that hold exactly one complete non-declaration statement."""
    by_line: dict[int, list[Token]] = {}
    for t in tokens[f.body_open + 1:f.body_close]:
        by_line.setdefault(t.line, []).append(t)
    first_line, last_line = tokens[f.body_open].line, tokens[f.body_close].line
    result = []
    for ln, toks in by_line.items():
        if ln in (first_line, last_line):
            continue
        # the line must hold only these tokens (no token spilling over from another line)
        if any(t.text in ("{", "}") for t in toks) or toks[-1].text != ";" or toks[0].text in ("for", "case"):
            continue
        if sum({"(": 1, ")": -1}.get(t.text, 0) for t in toks) != 0:
            continue
        if sum(t.text == ";" for t in toks) != 1:
            continue
        head = toks[0]
        if head.text in TYPE_WORDS or head.text in types:
            continue
        if (head.kind == "ident" and head.text not in KEYWORDS and len(toks) > 1 and toks[1].kind == "ident"):
            continue  # "T x ..." is a declaration
        if not all(t.line == ln for t in toks):
            continue
        # a statement that continues on the next line would end without ";" on this one
        prev = [t for t in tokens[f.body_open + 1:f.body_close] if t.line < ln]
        if prev and prev[-1].text not in (";", "{", "}", ")") and prev[-1].text != "else":
            continue
        if prev and prev[-1].text == ")" and head.text == "else":
            continue
        result.append(ln)
    return sorted(result)


def propose_edit(text: str, rng: random.Random, pointer_share: float) -> tuple[str, Edit] | None:
    """One random edit of one function body, or None if the draw found no site."""
    tokens = tokenize(text)
    funcs = functions(tokens)
    if not funcs:
        return None
    helpers = [f for f in funcs if f.helper and f.pointer_param]
    pointer_helper = bool(helpers) and rng.random() < pointer_share
    f = rng.choice(helpers if pointer_helper else funcs)
    kind = rng.choice(EDIT_KINDS)
    body = list(range(f.body_open + 1, f.body_close))
    lines = text.split("\n")

    def token_edit(k: int, new: str) -> tuple[str, Edit]:
        t = tokens[k]
        out = _replace(text, t.start, t.end, new)
        return out, Edit(f.name, kind, t.line + 1, lines[t.line], _line_of(out, t.line), f.pointer_param and f.helper)

    if kind == "int_literal":
        sites = [k for k in body if tokens[k].kind == "number" and re.fullmatch(r"\d+[uUlL]*", tokens[k].text)]
        if not sites:
            return None
        k = rng.choice(sites)
        digits = re.match(r"\d+", tokens[k].text)
        assert digits is not None
        old = int(digits.group())
        new = rng.choice([old + 1, old - 1, 0, rng.randint(-4, 16)])
        if new == old:
            return None
        suffix = tokens[k].text[digits.end():]
        return token_edit(k, f"({new}{suffix})" if new < 0 else f"{new}{suffix}")
    if kind == "flip_cmp":
        sites = [k for k in body if tokens[k].kind == "punct" and tokens[k].text in COMPARISONS]
        if not sites:
            return None
        k = rng.choice(sites)
        return token_edit(k, rng.choice([c for c in COMPARISONS if c != tokens[k].text]))
    if kind == "swap_plus_minus":
        sites = [k for k in body if tokens[k].kind == "punct" and tokens[k].text in PLUS_MINUS]
        if not sites:
            return None
        k = rng.choice(sites)
        return token_edit(k, PLUS_MINUS[tokens[k].text])
    if kind == "write_const":
        # "lhs = rhs;" where lhs goes through memory: a->f, a[i], *p, (*p)->f
        sites = []
        for k in body:
            if tokens[k].text != "=":
                continue
            j = k - 1
            while j > f.body_open and tokens[j].text not in (";", "{", "}") and tokens[j].line == tokens[k].line:
                j -= 1
            lhs = tokens[j + 1:k]
            if not lhs or lhs[0].text in TYPE_WORDS or lhs[0].text in KEYWORDS:
                continue
            if lhs[0].text == "(" and not any(t.text == "*" for t in lhs[:2]):
                continue  # "if (...) x = ..." and casts
            if not ({"->", "["} & {t.text for t in lhs} or lhs[0].text == "*"):
                continue
            if len(lhs) > 1 and lhs[0].kind == "ident" and lhs[1].kind == "ident":
                continue
            end = k + 1
            depth = 0
            while end < f.body_close and not (tokens[end].text in (";", ",", ")") and depth == 0):
                depth += {"(": 1, ")": -1, "[": 1, "]": -1}.get(tokens[end].text, 0)
                end += 1
            if end < f.body_close and tokens[end].text == ";" and end > k + 1:
                sites.append((k, end))
        if not sites:
            return None
        k, end = rng.choice(sites)
        value = rng.choice([0, 1, -1, 2, 3, 7, 42, 100])
        new_rhs = f"({value})" if value < 0 else str(value)
        out = text[:tokens[k + 1].start] + new_rhs + text[tokens[end - 1].end:]
        ln = tokens[k].line
        return out, Edit(f.name, kind, ln + 1, lines[ln], _line_of(out, ln), f.pointer_param and f.helper)
    # delete_stmt / dup_stmt
    candidates = _statement_lines(text, tokens, f, typedef_names(tokens))
    if not candidates:
        return None
    ln = rng.choice(candidates)
    if kind == "delete_stmt":
        out_lines = lines[:ln] + lines[ln + 1:]
    else:
        out_lines = lines[:ln + 1] + [lines[ln]] + lines[ln + 1:]
    return "\n".join(out_lines), Edit(f.name, kind, ln + 1, lines[ln], lines[ln], f.pointer_param and f.helper)


def compiles(path: Path) -> bool:
    proc = subprocess.run(["gcc", "-fsyntax-only", "-w", path.name], cwd=path.parent, capture_output=True,
                          text=True, timeout=60)
    return proc.returncode == 0


# ---- running cbam -------------------------------------------------------------------------------------
def run_cbam(path: Path, cache: Path | None, mode: str, timeout: float) -> RunResult:
    """One CLI run; a run killed by a signal from outside (not by this script) is run again, twice at
    most: other work on the machine may end processes, and such a run has no answer to compare."""
    for _ in range(3):
        r = _run_cbam(path, cache, mode, timeout)
        if r.verdict != "KILLED":
            return r
    return r


def _run_cbam(path: Path, cache: Path | None, mode: str, timeout: float) -> RunResult:
    cmd = [sys.executable, "-m", "cbam", "verify", str(path), "--format", "json", "--timeout", str(timeout),
           "--no-progress"]
    cmd += ["--cache-dir", str(cache), "--self-check"] if cache is not None else ["--no-cache"]
    if mode == "all":
        cmd.append("--all-violations")
    cmd += ["--property", PROPERTY]
    env = {k: v for k, v in os.environ.items() if k != "CBAM_SELF_CHECK"}
    if SNAPSHOT is not None:
        env["PYTHONPATH"] = str(SNAPSHOT)
    t0 = time.monotonic()
    try:
        # python -m puts the working directory first on the import path: the snapshot's, if any
        proc = subprocess.run(cmd, cwd=SNAPSHOT or ROOT, capture_output=True, text=True, timeout=PROCESS_LIMIT,
                              env=env)
    except subprocess.TimeoutExpired:
        return RunResult("OVERRUN", [], -1, True, "", reason=f"process exceeded {PROCESS_LIMIT:.0f} s",
                         wall=time.monotonic() - t0)
    wall = time.monotonic() - t0
    err = proc.stderr
    tail = err if len(err) <= 4000 else err[:2500] + "\n[...]\n" + err[-1500:]
    if proc.returncode < 0 and not proc.stdout.strip():
        return RunResult("KILLED", [], proc.returncode, True, "", reason=f"killed by signal {-proc.returncode}",
                         stderr_tail=tail, wall=wall)
    crash = ""
    if proc.returncode == 4:
        crash = "exit status 4"
    if "Traceback (most recent call last)" in proc.stderr or "Traceback (most recent call last)" in proc.stdout:
        crash = (crash + "; " if crash else "") + "traceback"
    try:
        data: dict[str, Any] = json.loads(proc.stdout)
    except json.JSONDecodeError:
        return RunResult("NO-JSON", [], proc.returncode, False, crash or "no JSON output", stderr_tail=tail,
                         wall=wall)
    verdict = str(data.get("verdict", "?"))
    if verdict == "ERROR":
        crash = (crash + "; " if crash else "") + "verdict ERROR"
    stats = data.get("statistics") or {}
    stopped = str(data.get("search_stopped") or "")
    lines = []
    for v in data.get("violations") or []:
        rng = v.get("range") or {}
        lines.append(int((rng.get("start") or {}).get("line", -1)))
    if mode == "all":
        lines = sorted(lines)
    else:
        lines = lines[:1]
    timing = (data.get("reason_kind") in TIMING or data.get("search_stopped") in TIMING
              or bool(stats.get("phases_cut_by_time")) or bool(_ENTRY_TIMING.search(str(data.get("reason", "")))))
    return RunResult(verdict, lines, proc.returncode, timing, crash, reason=str(data.get("reason", ""))[:300],
                     reason_kind=str(data.get("reason_kind", "")),
                     precision_reused=bool(stats.get("precision_reused")),
                     summary_hits=int(stats.get("summary_hits") or 0), source=str(data.get("source", "")),
                     stderr_tail=tail, search_stopped=stopped, wall=wall)


def compare(cached: RunResult, fresh: RunResult, mode: str = "first") -> tuple[str, str]:
    """("ok" | "timeout" | "hinted" | "overrun" | "killed" | "mismatch", why). "hinted": in the
    first-violation mode, a cached run that started from a reused precision showed another of
    the program's violations first. A learned precision is a hint, not a memo (engine/selfcheck.py,
    whose rule the cached run's --self-check applied already): CEGAR reports the first violation
    its path meets, and each FALSE is confirmed by the exact path check."""
    if cached.crash or fresh.crash:
        side = "cached" if cached.crash else "fresh"
        return "mismatch", f"crash on the {side} side: {cached.crash or fresh.crash}"
    if "OVERRUN" in (cached.verdict, fresh.verdict):
        return "overrun", "a process exceeded the wall-clock limit"
    if "KILLED" in (cached.verdict, fresh.verdict):
        return "killed", f"a process was killed from outside ({cached.reason or fresh.reason}, three times)"
    same_verdict = cached.verdict == fresh.verdict
    same_lines = cached.lines == fresh.lines or cached.verdict != "FALSE"
    if same_verdict and same_lines:
        return "ok", ""
    if cached.timing or fresh.timing:
        return "timeout", f"{cached.verdict} vs {fresh.verdict} (a side was cut short by time)"
    if not same_verdict:
        return "mismatch", f"verdict: cached {cached.verdict}, fresh {fresh.verdict}"
    if mode == "first" and cached.precision_reused:
        return "hinted", f"first violation: cached line {cached.lines}, fresh line {fresh.lines} (precision reused)"
    return "mismatch", f"violation lines: cached {cached.lines}, fresh {fresh.lines}"


# ---- one sequence -------------------------------------------------------------------------------------
def one_sequence(index: int, program: Path, seed: int, timeout: float,
                 pointer_share: float) -> SequenceOutcome | None:
    if DEADLINE is not None and time.monotonic() > DEADLINE:
        return None
    rng = random.Random(f"{seed}:{index}")
    out = SequenceOutcome(index, program.name)
    t0 = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="cbam-memdiff-") as d:
        root = Path(d)
        work = root / "p.c"
        shutil.copyfile(program, work)
        caches = {mode: root / f"cache-{mode}" for mode in MODES}
        text = work.read_text()
        n_edits = rng.randint(1, 5)
        history: list[str] = []
        for step in range(n_edits + 1):
            if step > 0:
                for _ in range(200):
                    proposal = propose_edit(text, rng, pointer_share)
                    if proposal is None:
                        continue
                    new_text, edit = proposal
                    if new_text == text:
                        continue
                    work.write_text(new_text)
                    if compiles(work):
                        text = new_text
                        history.append(edit.describe())
                        break
                    out.rejected_edits += 1
                else:
                    work.write_text(text)
                    out.notes.append(f"no compiling edit found at step {step}")
                    break
            for mode in MODES:
                cached = run_cbam(work, caches[mode], mode, timeout)
                fresh = run_cbam(work, None, mode, timeout)
                out.compared += 1
                out.walls += [cached.wall, fresh.wall]
                out.timed_runs += cached.timing + fresh.timing
                out.verdicts[f"{mode}: {cached.verdict}/{fresh.verdict}"] += 1
                status, why = compare(cached, fresh, mode)
                if status == "timeout":
                    out.timeouts += 1
                elif status == "hinted":
                    out.hinted.append(f"{program.name} step {step}: {why}")
                elif status in ("overrun", "killed"):
                    out.notes.append(f"step {step} {mode}: {why}")
                elif status == "mismatch":
                    out.mismatches.append(Mismatch(index, program.name, step, mode, why, text, list(history),
                                                   cached, fresh))
    out.edits = history
    out.seconds = time.monotonic() - t0
    return out


# ---- report -----------------------------------------------------------------------------------------
def _brief(r: RunResult) -> str:
    bits = [f"verdict {r.verdict}", f"exit {r.exit_code}"]
    if r.verdict == "FALSE":
        bits.append(f"lines {r.lines}")
    if r.reason_kind:
        bits.append(f"reason_kind {r.reason_kind}")
    if r.reason and r.verdict != "FALSE":
        bits.append(f"reason {r.reason!r}")
    if r.search_stopped:
        bits.append(f"search_stopped {r.search_stopped}")
    bits.append(f"source {r.source or '-'}, summary_hits {r.summary_hits}, precision_reused {r.precision_reused}")
    if r.crash:
        bits.append(f"crash: {r.crash}")
    return "; ".join(bits)


def _median(xs: list[float]) -> float:
    ys = sorted(xs)
    return ys[len(ys) // 2] if ys else 0.0


def write_report(path: Path, outcomes: list[SequenceOutcome], args: argparse.Namespace, programs: list[Path],
                 elapsed: float, tree_before: str, tree_after: str) -> None:
    cases = path.parent / "memory-differential-cases"
    mismatches = [m for o in outcomes for m in o.mismatches]
    if mismatches:
        cases.mkdir(parents=True, exist_ok=True)
    for n, m in enumerate(mismatches, 1):
        name = f"case{n:03d}-seq{m.sequence}-step{m.step}-{m.mode}-{Path(m.program).stem}.c"
        (cases / name).write_text(m.source)
        m.case_file = f"memory-differential-cases/{name}"
    compared = sum(o.compared for o in outcomes)
    walls = [w for o in outcomes for w in o.walls]
    timeouts = sum(o.timeouts for o in outcomes)
    verdicts: Counter[str] = Counter()
    for o in outcomes:
        verdicts.update(o.verdicts)
    edit_kinds: Counter[str] = Counter()
    for o in outcomes:
        for e in o.edits:
            edit_kinds[e.split(": ")[1].split(" ")[0] + (" (pointer helper)" if "[pointer helper]" in e else "")] += 1
    lines = [
        "# Memory-model differential campaign: cached vs fresh",
        "",
        f"`python bench/memory_differential.py --sequences {args.sequences} --jobs {args.jobs} --seed {args.seed}"
        f" --property {args.property}`"
        f" (timeout {args.timeout:g} s per run; {elapsed / 60:.1f} min wall clock).",
        *([f"**Reduced:** {len(outcomes)} of the {args.sequences} sequences ran: no sequence started after"
           f" {args.budget_minutes:g} min (--budget-minutes), to keep the campaign near an hour on a shared"
           " 2-core machine. Sequence i is the same whatever the budget, so a longer run extends this one."]
          if len(outcomes) < args.sequences and args.budget_minutes is not None else []),
        "",
        f"Programs: {len(programs)} ({', '.join(sorted({str(p.parent.relative_to(ROOT)) if p.is_relative_to(ROOT) else str(p.parent) for p in programs}))}).",  # noqa: E501
        "Each sequence verifies the original program, then 1..5 edits (each accepted by `gcc -fsyntax-only -w`);",
        "every version runs cached (`--cache-dir` per sequence and mode, `--self-check`) and fresh (`--no-cache`),",
        "in the first-violation mode and with `--all-violations`.",
        "",
        "## Totals",
        "",
        "| | |",
        "|---|---|",
        f"| sequences | {len(outcomes)} |",
        f"| edits applied | {sum(len(o.edits) for o in outcomes)} (rejected by gcc: {sum(o.rejected_edits for o in outcomes)}) |",  # noqa: E501
        f"| compared runs (cached/fresh pairs, both modes, original + edited versions) | {compared} |",
        f"| mismatches | {len(mismatches)} |",
        f"| timeouts (a difference explained by a time limit) | {timeouts} |",
        f"| another real violation first, from a reused precision (first-violation mode) |"
        f" {sum(len(o.hinted) for o in outcomes)}: {'; '.join(h for o in outcomes for h in o.hinted) or '-'} |",
        f"| single runs cut short by time (any entry) | {sum(o.timed_runs for o in outcomes)} |",
        f"| CLI runs | {len(walls)}: median {_median(walls):.1f} s, slowest {max(walls, default=0):.1f} s,"
        f" {sum(w > 2 * args.timeout for w in walls)} over twice the --timeout |",
        "",
        ("Code: a snapshot of cbam/, engine/ and server/ taken at the start (the working tree, uncommitted"
         f" memory model included: `{tree_before}`) ran every version, cached and fresh. The live tree was"
         f" `{tree_after}` at the end" + (" (unchanged)." if tree_before == tree_after else
                                         " (changed by other work during the campaign; the snapshot was not)."))
        if not args.no_snapshot else
        (f"Code: the live tree (`{tree_before}` at the start, `{tree_after}` at the end"
         + (", unchanged)." if tree_before == tree_after else ", **changed during the run**).")),
        "",
        "## Verdict distribution (mode: cached/fresh)",
        "",
        "| pair | count |",
        "|---|---|",
        *[f"| {k} | {v} |" for k, v in sorted(verdicts.items())],
        "",
        "## Edits",
        "",
        "| kind | count |",
        "|---|---|",
        *[f"| {k} | {v} |" for k, v in sorted(edit_kinds.items())],
        "",
    ]
    notes = [f"- sequence {o.index} ({o.program}): {n}" for o in outcomes for n in o.notes]
    if notes:
        lines += ["## Notes", "", *notes, ""]
    lines += ["## Mismatches", ""]
    if not mismatches:
        lines.append("None.")
    for n, m in enumerate(mismatches, 1):
        lines += [
            f"### {n}. {m.program}, sequence {m.sequence}, step {m.step}, mode {m.mode}",
            "",
            f"- problem: {m.problem}",
            f"- cached: {_brief(m.cached)}",
            f"- fresh: {_brief(m.fresh)}",
            f"- saved as `{m.case_file}`",
            "- edits so far:" if m.edits else "- edits so far: none (the original program)",
            *[f"  {i}. {e}" for i, e in enumerate(m.edits, 1)],
            "",
        ]
        for label, r in (("cached", m.cached), ("fresh", m.fresh)):
            if r.crash and r.stderr_tail:
                lines += [f"{label} stderr:", "", "```", r.stderr_tail.strip(), "```", ""]
        lines += ["<details><summary>program</summary>", "", "```c", m.source.rstrip(), "```", "", "</details>", ""]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n")


def make_snapshot(into: Path) -> Path:
    """cbam's code as it is now (cbam/, engine/ as cbam/engine, server/ as cbam/server), so that
    edits others make to the tree during the campaign cannot land between a cached and a fresh run,
    nor between a sequence's cached runs (the cache's keys carry cbam's version, not its code)."""
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    shutil.copytree(ROOT / "cbam", into / "cbam", ignore=ignore)
    shutil.copytree(ROOT / "engine", into / "cbam" / "engine", ignore=ignore)
    shutil.copytree(ROOT / "server", into / "cbam" / "server", ignore=ignore)
    probe = subprocess.run([sys.executable, "-c", "import cbam.engine.api as a; print(a.__file__)"], cwd=into,
                           env={**os.environ, "PYTHONPATH": str(into)}, capture_output=True, text=True)
    if not probe.stdout.strip().startswith(str(into)):
        raise SystemExit(f"the snapshot is not what python imports: {probe.stdout} {probe.stderr}")
    return into


def code_hash() -> str:
    """HEAD and a hash of the live tree's cbam/, engine/ and server/ files (tracked or not)."""
    import hashlib

    h = hashlib.sha256()
    for top in ("cbam", "engine", "server"):
        for f in sorted((ROOT / top).rglob("*")):
            if f.is_file() and "__pycache__" not in f.parts and f.suffix != ".pyc":
                h.update(str(f.relative_to(ROOT)).encode() + b"\0" + f.read_bytes() + b"\0")
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True)
    return f"{head.stdout.strip()}+{h.hexdigest()[:12]}"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sequences", type=int, default=120)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2, help="sequences run in parallel")
    ap.add_argument("--corpus", action="append", default=[], metavar="DIR", help="another folder of .c files")
    ap.add_argument("--timeout", type=float, default=10.0, help="cbam's --timeout per run")
    ap.add_argument("--pointer-share", type=float, default=0.4,
                    help="share of edits aimed at helper functions with a pointer parameter")
    ap.add_argument("--only", type=int, action="append", default=[], metavar="I",
                    help="run only sequence I (repeatable): replays it exactly, given the same --seed")
    ap.add_argument("--budget-minutes", type=float, default=None,
                    help="start no new sequence after this many minutes (the report says how many ran)")
    ap.add_argument("--no-snapshot", action="store_true",
                    help="run the live tree instead of a copy of cbam's code taken at the start")
    ap.add_argument("--property", choices=("unreach-call", "memsafety"), default="unreach-call",
                    help="what every run checks (memsafety: the leak, free and dereference checks, whose"
                         " verdicts the cache must keep as a fresh run gives them)")
    ap.add_argument("--out", default=str(ROOT / "bench" / "reports" / "memory-differential.md"))
    args = ap.parse_args()

    programs = sorted(PROGRAMS.glob("*.c"))
    for d in args.corpus:
        programs += sorted(Path(d).resolve().glob("*.c"))
    if not programs:
        print("no programs", file=sys.stderr)
        return 2
    order = programs[:]
    random.Random(args.seed).shuffle(order)
    global SNAPSHOT, DEADLINE, PROPERTY
    PROPERTY = args.property
    snap_dir = tempfile.TemporaryDirectory(prefix="cbam-memdiff-code-")
    tree_before = code_hash()
    if not args.no_snapshot:
        SNAPSHOT = make_snapshot(Path(snap_dir.name))
    t0 = time.monotonic()
    if args.budget_minutes is not None:
        DEADLINE = t0 + 60 * args.budget_minutes
    outcomes: list[SequenceOutcome] = []
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = {pool.submit(one_sequence, i, order[i % len(order)], args.seed, args.timeout, args.pointer_share): i
                   for i in (args.only or range(args.sequences))}
        for fut in as_completed(futures):
            result = fut.result()
            if result is None:
                continue
            o = result
            outcomes.append(o)
            flag = f" MISMATCH x{len(o.mismatches)}" if o.mismatches else ""
            print(f"[{len(outcomes)}/{args.sequences}] seq {o.index} {o.program}: {len(o.edits)} edits, "
                  f"{o.compared} compared, {o.timeouts} timeouts, {o.seconds:.0f} s{flag}", flush=True)
            for m in o.mismatches:
                print(f"    step {m.step} {m.mode}: {m.problem}", flush=True)
    snap_dir.cleanup()
    outcomes.sort(key=lambda o: o.index)
    write_report(Path(args.out), outcomes, args, programs, time.monotonic() - t0, tree_before, code_hash())
    n = sum(len(o.mismatches) for o in outcomes)
    print(f"{len(outcomes)} sequences, {sum(o.compared for o in outcomes)} compared, {n} mismatches, "
          f"{sum(o.timeouts for o in outcomes)} timeouts; report: {args.out}")
    return 1 if n else 0


if __name__ == "__main__":
    sys.exit(main())
