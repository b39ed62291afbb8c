"""Translate c-testsuite's single-exec tests into cbam inputs (tests/data/c-testsuite/).

    python tests/data/c-testsuite/translate.py /path/to/c-testsuite [--cbam-root DIR]

A c-testsuite test passes when its main returns 0 (and prints its .expected text). Only the
tests whose .expected is empty are taken: their whole verdict is the exit status, which cbam
can state. The translation is mechanical: ``main`` becomes ``cts_main``, a new main calls it
and calls ``reach_error()`` when it returns nonzero; ``abort()`` becomes ``reach_error()`` and
``exit(n)`` an exit that reaches the error when n != 0.

Selection, also mechanical:
* no floating point (cbam does not model it);
* gcc -m64 with AddressSanitizer and UndefinedBehaviorSanitizer runs the translation to 0, with
  no "control reaches end of non-void function" in cts_main (its value would be indeterminate);
* cbam reads it (a parse or unsupported-construct rejection leaves the test out, named in the
  manifest with the reason).
The data models are those under which gcc (-m64, -m32) runs it to 0.

Mutants: integer literals outside strings, comments and directives, one at a time, +1; the
first two whose gcc -m64 sanitized run ends in reach_error (SIGABRT, no sanitizer report) are
kept as lines to substitute (manifest.json). cbam must not answer TRUE on them.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
sys.path.insert(0, str(ROOT / "bench"))

import csmith_harness as h  # noqa: E402

PRELUDE = """\
/* Translated by tests/data/c-testsuite/translate.py from c-testsuite {commit}, {path}
   ({origin}). main returning nonzero, abort() and exit(nonzero) reach the error. */
extern void abort(void);
void reach_error(void) {{ abort(); }}
extern void exit(int);
static void cts_exit(int status) {{ if (status != 0) reach_error(); exit(0); }}
"""
MAIN = "\nint main(void)\n{{\n    if ({call} != 0) reach_error();\n    return 0;\n}}\n"
ARGV = "static char *cts_argv[] = {\"cts\", 0};\n"
SANITIZE = ["-fsanitize=address,undefined", "-fno-sanitize-recover=all"]
FLOAT = re.compile(r"\b(float|double|long\s+double)\b|\d\.\d|\d[eE][+-]?\d|0[xX][0-9a-fA-F]*[pP]")
# Strings, character constants, comments and directives are copied; the literals between them mutated.
SKIP = re.compile(r'"(?:\\.|[^"\\])*"|\'(?:\\.|[^\'\\])*\'|/\*.*?\*/|//[^\n]*|^[ \t]*#[^\n]*', re.S | re.M)
INT = re.compile(r"\b(0[xX][0-9a-fA-F]+|[1-9][0-9]*|0)([uUlL]*)\b")


def translate(src: str, commit: str, path: str, origin: str) -> str | None:
    if re.search(r"\bvoid\s+main\b", src):
        return None  # nothing to check: no exit status
    body = re.sub(r"\bmain\b", "cts_main", src)
    body = re.sub(r"\babort\s*\(\s*\)", "reach_error()", body)
    body = re.sub(r"\bexit\s*\(", "cts_exit(", body)
    takes_args = re.search(r"\bcts_main\s*\(\s*int\s+\w+\s*,", body) is not None
    call = "cts_main(1, cts_argv)" if takes_args else "cts_main()"
    return (PRELUDE.format(commit=commit[:12], path=path, origin=origin) + body.rstrip() + "\n"
            + (ARGV if takes_args else "") + MAIN.format(call=call))


def literal_spans(text: str) -> list[tuple[int, int, str]]:
    """(start, end, replacement) for each integer literal in code, in the order of the text."""
    out: list[tuple[int, int, str]] = []
    # The prelude and the new main are the harness, not the test: their literals stay.
    first = text.index("*/") + 2
    last = text.rindex("\nint main(void)")
    code, pos = [], 0
    for m in SKIP.finditer(text):
        code.append((pos, m.start()))
        pos = m.end()
    code.append((pos, len(text)))
    for a, b in code:
        for lit in INT.finditer(text, a, b):
            if first <= lit.start() < last:
                value = int(lit.group(1), 0)
                out.append((lit.start(), lit.end(), f"{value + 1}{lit.group(2)}"))
    return out


def gcc_run(text: str, bits: int, work: Path, sanitize: bool) -> tuple[int, str]:
    src, exe = work / "t.c", work / "t"
    src.write_text(text)
    flags = SANITIZE if sanitize else []
    cc = subprocess.run(["gcc", f"-m{bits}", "-std=gnu11", "-w", "-Wreturn-type", *flags, "-o", str(exe), str(src)],
                        capture_output=True, text=True, timeout=120)
    if cc.returncode != 0:
        return 999, cc.stderr
    try:
        # Some tests write files (tinycc's stdio test writes fred.txt): in the scratch folder.
        run = subprocess.run([str(exe)], capture_output=True, text=True, timeout=10, cwd=str(work))
    except subprocess.TimeoutExpired:
        return 998, "timeout"
    return run.returncode, cc.stderr + run.stderr


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("checkout", type=Path, help="a c-testsuite checkout (git archive of its commit)")
    ap.add_argument("--commit", required=True)
    ap.add_argument("--cbam-root", type=Path)
    args = ap.parse_args()
    tests = args.checkout / "tests" / "single-exec"
    (HERE / "programs").mkdir(exist_ok=True)
    manifest: dict[str, dict] = {}
    left_out: dict[str, str] = {}
    m32 = h.m32_available()
    for c in sorted(tests.glob("*.c")):
        name = c.name
        expected = Path(str(c) + ".expected")
        if expected.exists() and expected.read_text().strip():
            left_out[name] = "prints output (.expected is not empty)"
            continue
        src = c.read_text(errors="replace")
        if FLOAT.search(re.sub(SKIP, " ", src)):
            left_out[name] = "floating point"
            continue
        otags = Path(str(c) + ".otags")
        origin = " ".join(otags.read_text().split()) if otags.exists() else "c-testsuite"
        text = translate(src, args.commit, f"tests/single-exec/{name}", origin)
        if text is None:
            left_out[name] = "void main: no exit status"
            continue
        with tempfile.TemporaryDirectory() as d:
            work = Path(d)
            rc, err = gcc_run(text, 64, work, sanitize=True)
            if rc != 0 or "control reaches end" in err:
                left_out[name] = f"gcc -m64 (sanitized) does not run it to 0: {rc} {err.strip()[:80]}"
                continue
            models = ["LP64"]
            if m32 and gcc_run(text, 32, work, sanitize=False)[0] == 0:
                models.append("ILP32")
            (work / "p.c").write_text(text)
            res = h.run_cbam(work / "p.c", "LP64", 20, root=args.cbam_root)
            if res["verdict"] == "ERROR" or res["kind"] == "unsupported":
                left_out[name] = "cbam cannot read it: " + res["reason"][:120].replace(str(work / "p.c"), name)
                continue
            mutants: list[list[list]] = []
            spans = literal_spans(text)
            for start, end, new in spans[:14]:
                mutated = text[:start] + new + text[end:]
                rc, err = gcc_run(mutated, 64, work, sanitize=True)
                # SIGABRT from reach_error's abort, and no sanitizer report: the mutant is a
                # well-defined program that fails.
                if rc in (-6, 134) and "runtime error" not in err and "Sanitizer" not in err:
                    old_lines, new_lines = text.splitlines(), mutated.splitlines()
                    changed = [[n + 1, new_lines[n]] for n in range(len(old_lines)) if old_lines[n] != new_lines[n]]
                    mutants.append(changed)
                    if len(mutants) == 2:
                        break
        out = name
        (HERE / "programs" / out).write_text(text)
        manifest[out] = {"models": models, "mutants": mutants, "cbam_at_import": res["verdict"]}
        print(f"{name}: {models} cbam {res['verdict']} ({res['seconds']} s), {len(mutants)} mutants", flush=True)
    (HERE / "manifest.json").write_text(json.dumps(
        {"source": "https://github.com/c-testsuite/c-testsuite", "commit": args.commit, "programs": manifest,
         "left_out": left_out}, indent=1, sort_keys=True) + "\n")
    print(f"kept {len(manifest)}, left out {len(left_out)}")


if __name__ == "__main__":
    main()
