"""Csmith programs turned into cbam inputs whose expected values come from gcc.

A Csmith program computes the final values of its globals and prints a CRC of them. cbam cannot
be asked about a printed checksum, so the program is rewritten mechanically:

* ``#include "csmith.h"`` becomes ``<stdint.h>`` plus the safe-math functions the program calls,
  as plain C (csmith's safe_math.h preprocessed once with csmith's own macro settings), so the
  stored file is self-contained and cbam analyses the wrappers like any other code;
* ``main`` calls ``func_1()`` as Csmith's did, then states each observed value: every scalar
  global directly, every array (walked by Csmith's own loops) folded into an FNV-1a hash, and
  ``func_1``'s result. gcc runs a probe build first to learn the values (``-m64`` for LP64,
  ``-m32`` for ILP32: ``long`` constants change type between the two, and so may the values);
  a value that differs between the data models is stated under ``#if __SIZEOF_LONG__ == 8``.

The resulting file is an ordinary program: gcc runs it to exit status 0, and its mutant (one
stated value off by one) aborts in ``reach_error``. cbam must say TRUE on the first and FALSE
on the second; UNKNOWN is undecided, anything else is a wrong verdict.
"""

from __future__ import annotations

import json
import os
import re
import resource
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CSMITH_INCLUDE = Path("/usr/include/csmith")
CBAM = ROOT / ".venv" / "bin" / "cbam"

# Options shared by every set: no argc/argv (main takes no input), short comments.
COMMON = ["--no-argc", "--quiet", "--concise"]
# From the narrowest to the widest. cbam's value analysis and BMC must unroll every loop of the
# program, so block depth and function count keep the programs within a few seconds; each set
# adds one family of constructs so that a disagreement points at it.
OPTION_SETS: dict[str, list[str]] = {
    # Scalars only: integer types, conversions, safe-math wrappers, loops, jumps, comma, compound
    # assignment, embedded assignment, ++/--.
    "scalar": ["--no-pointers", "--no-arrays", "--no-structs", "--no-unions", "--no-bitfields",
               "--no-volatiles", "--no-packed-struct", "--no-builtins",
               "--max-funcs", "2", "--max-block-depth", "2", "--max-expr-complexity", "6"],
    # More functions and nesting: calls with arguments and returns through several frames.
    "scalar-deep": ["--no-pointers", "--no-arrays", "--no-structs", "--no-unions", "--no-bitfields",
                    "--no-volatiles", "--no-packed-struct", "--no-builtins",
                    "--max-funcs", "4", "--max-block-depth", "3", "--max-expr-complexity", "8"],
    # Scalars with Csmith's larger expressions (added during the run, when the smaller sets had
    # shown no disagreement): more conversions and wrappers per statement, no more loops.
    "scalar-complex": ["--no-pointers", "--no-arrays", "--no-structs", "--no-unions", "--no-bitfields",
                       "--no-volatiles", "--no-packed-struct", "--no-builtins",
                       "--max-funcs", "3", "--max-block-depth", "2", "--max-expr-complexity", "12"],
    # Global and local arrays (initialisers, indexing in loops).
    "arrays": ["--no-pointers", "--no-structs", "--no-unions", "--no-bitfields", "--no-volatiles",
               "--no-packed-struct", "--no-builtins", "--max-array-dim", "2", "--max-array-len-per-dim", "4",
               "--max-funcs", "2", "--max-block-depth", "2", "--max-expr-complexity", "6"],
    # Structs (no bit-fields, no packing): member access, struct assignment and initialisers.
    "structs": ["--no-pointers", "--no-arrays", "--no-unions", "--no-bitfields", "--no-volatiles",
                "--no-packed-struct", "--no-builtins", "--max-struct-fields", "4",
                "--max-funcs", "2", "--max-block-depth", "2", "--max-expr-complexity", "6"],
    # Pointers to scalars (address-of, dereference, pointer assignment), no arrays or structs.
    "pointers": ["--no-arrays", "--no-structs", "--no-unions", "--no-bitfields", "--no-volatiles",
                 "--no-packed-struct", "--no-builtins", "--max-pointer-depth", "2",
                 "--max-funcs", "2", "--max-block-depth", "2", "--max-expr-complexity", "6"],
    # Bit-fields in structs and unions.
    "bitfields": ["--no-pointers", "--no-arrays", "--no-volatiles", "--no-packed-struct", "--no-builtins",
                  "--max-struct-fields", "4", "--max-union-fields", "3",
                  "--max-funcs", "2", "--max-block-depth", "2", "--max-expr-complexity", "6"],
    # Everything at once except volatiles and packing, a little larger: the constructs together
    # (pointers into arrays and struct members, unions of structs).
    "mixed": ["--no-volatiles", "--no-packed-struct", "--no-builtins", "--max-array-dim", "2",
              "--max-array-len-per-dim", "4", "--max-struct-fields", "4", "--max-union-fields", "3",
              "--max-funcs", "3", "--max-block-depth", "3", "--max-expr-complexity", "8"],
    # The same without bit-fields (which cbam does not support yet: "mixed" is mostly undecided
    # because of them), so that pointers, arrays, structs and unions together are decided.
    "mixed-nobf": ["--no-volatiles", "--no-packed-struct", "--no-builtins", "--no-bitfields", "--max-array-dim", "2",
                   "--max-array-len-per-dim", "4", "--max-struct-fields", "4", "--max-union-fields", "3",
                   "--max-funcs", "3", "--max-block-depth", "3", "--max-expr-complexity", "8"],
    # Csmith's own defaults (volatiles included), only without argc: what a Csmith user gets.
    # Measured, not in the campaign's rotation: most programs are too large to decide in 20 s.
    "default": ["--no-builtins"],
}

PRELUDE_LIMITS = """\
#define INT8_MIN (-128)
#define INT8_MAX 127
#define UINT8_MAX 255
#define INT16_MIN (-32768)
#define INT16_MAX 32767
#define UINT16_MAX 65535
#define INT32_MIN (-2147483647 - 1)
#define INT32_MAX 2147483647
#define UINT32_MAX 4294967295U
#define INT64_MIN (-9223372036854775807LL - 1)
#define INT64_MAX 9223372036854775807LL
#define UINT64_MAX 18446744073709551615ULL
#define INT_MAX 2147483647
#define INT_MIN (-2147483647 - 1)
#define CHAR_BIT 8
"""

HEADER = """\
/* Generated by bench/csmith_harness.py from a Csmith program (csmith is BSD-licensed, (c) The
   University of Utah; see LICENSE.csmith beside this file). {origin}
   gcc's values of the program's globals are stated at the end of main: cbam must answer TRUE. */
#include <stdint.h>
extern void abort(void);
void reach_error(void) {{ abort(); }}
"""

FNV_OFFSET, FNV_PRIME = "14695981039346656037ULL", "1099511628211ULL"


@cache
def safe_math_functions() -> dict[str, str]:
    """Csmith's safe_math.h as plain C, one definition per wrapper name. The limits are written
    with explicit long long suffixes (glibc's INT64_MIN is ``L``, which is 32-bit under -m32)."""
    with tempfile.TemporaryDirectory() as d:
        limits = Path(d, "limits.h")
        limits.write_text(PRELUDE_LIMITS)
        out = subprocess.run(
            ["gcc", "-E", "-P", "-nostdinc", "-DSTATIC=static", "-DUNDEFINED(v)=(v)", "-DLOG_INDEX=",
             "-DLOG_EXEC=", "-DFUNC_NAME(x)=safe_##x", "-include", str(limits), str(CSMITH_INCLUDE / "safe_math.h")],
            capture_output=True, text=True, check=True).stdout
    funcs: dict[str, str] = {}
    for chunk in re.split(r"\n(?=static )", "\n" + out):
        m = re.match(r"static [\w ]+?\n(safe_\w+)\(", chunk.strip() + "\n")
        if m:
            body = "\n".join(line for line in chunk.strip().splitlines() if line.strip())
            funcs[m.group(1)] = body
    return funcs


@dataclass
class Observation:
    """One stated value: ``setup`` runs first (a hash loop, or a call kept alone), then ``expr``
    is compared (no comparison when it is empty)."""
    name: str
    expr: str
    setup: str = ""


@dataclass
class Case:
    origin: str
    body: str  # the program without csmith.h and without main
    decls: str  # main's local declarations (loop counters, hash variables)
    observations: list[Observation]
    # per observation: {"LP64": (signed, size, value), "ILP32": ...}
    values: list[dict[str, tuple[bool, int, int]]] = field(default_factory=list)


class Unsupported(Exception):
    """The Csmith program has a shape the transformation does not handle (or gcc rejects it)."""


def generate_raw(seed: int, options: list[str], out: Path) -> str:
    # csmith writes platform.info into its working directory: keep it in the scratch folder.
    subprocess.run(["csmith", "--seed", str(seed), *options, *COMMON, "-o", str(out)], check=True,
                   capture_output=True, timeout=60, cwd=str(out.parent))
    return out.read_text()


def _block_end(lines: list[str], start: int) -> int:
    """Index of the line closing the statement that begins at ``start`` (a for with a block)."""
    depth, opened = 0, False
    for i in range(start, len(lines)):
        depth += lines[i].count("{") - lines[i].count("}")
        opened = opened or "{" in lines[i]
        if opened and depth == 0:
            return i
    raise Unsupported("unbalanced loop in main")


CRC = re.compile(r"^\s*transparent_crc\((.*), \"([^\"]*)\", print_hash_value\);\s*$")


def transform(raw: str, origin: str) -> Case:
    if '#include "csmith.h"' not in raw:
        raise Unsupported("no csmith.h include")
    m = re.search(r"^int main \(void\)\n\{\n(.*?)^\}", raw, re.S | re.M)
    if not m:
        raise Unsupported("no main(void)")
    body = raw[:m.start()].replace('#include "csmith.h"', "")
    body = re.sub(r"^// Options:.*\n", "", body, flags=re.M)
    lines = m.group(1).splitlines()
    decls: list[str] = []
    obs: list[Observation] = []
    func1 = re.search(r"^static (?:const )?([\w ]+?)\s+func_1\(void\);", body, re.M)
    if not func1:
        raise Unsupported("no func_1 prototype")
    i = 0
    while i < len(lines):
        line = lines[i]
        s = line.strip()
        if s.startswith("int i") or s.startswith("int print_hash_value") or not s:
            if s.startswith("int i"):
                decls.append(s)
        elif s in ("platform_main_begin();", "crc32_gentab();", "return 0;") or s.startswith("platform_main_end("):
            pass
        elif s == "func_1();":
            # An aggregate result cannot be compared with a number: the call is kept alone.
            aggregate = func1.group(1).split()[0] in ("struct", "union")
            obs.append(Observation("func_1()", "", "    func_1();") if aggregate
                       else Observation("func_1()", "func_1()"))
        elif CRC.match(line):
            cm = CRC.match(line)
            obs.append(Observation(cm.group(2), cm.group(1)))
        elif s.startswith("for ("):
            end = _block_end(lines, i)
            var = f"h_{len(obs)}"
            name = ""
            loop: list[str] = []
            for inner in lines[i:end + 1]:
                cm = CRC.match(inner)
                if cm:
                    name = cm.group(2)
                    indent = inner[:len(inner) - len(inner.lstrip())]
                    loop.append(f"{indent}{var} = ({var} ^ (uint64_t)({cm.group(1)})) * {FNV_PRIME};")
                elif "if (print_hash_value)" in inner:
                    continue
                elif inner.strip():
                    loop.append(inner)
            if not name:
                raise Unsupported("a loop in main without transparent_crc")
            decls.append(f"uint64_t {var} = {FNV_OFFSET};")
            obs.append(Observation(name.replace("[i]", "[*]").replace("[j]", "[*]").replace("[k]", "[*]")
                                   .replace("[l]", "[*]"), var, "\n".join(loop)))
            i = end
        else:
            raise Unsupported(f"main statement not understood: {s[:60]}")
        i += 1
    if not obs or obs[0].name != "func_1()":
        raise Unsupported("main does not call func_1 first")
    used = sorted(set(re.findall(r"\bsafe_\w+", body)))
    funcs = safe_math_functions()
    missing = [u for u in used if u not in funcs]
    if missing:
        raise Unsupported(f"unknown safe-math wrappers {missing[:3]}")
    prelude = "\n".join(funcs[u] for u in used)
    return Case(origin, prelude + "\n" + body.strip() + "\n", "\n".join(f"    {d}" for d in decls), obs)


def _main(case: Case, stmts: list[str]) -> str:
    parts = ["int main(void)", "{"]
    if case.decls:
        parts.append(case.decls)
    parts.extend(stmts)
    parts.append("    return 0;")
    parts.append("}")
    return "\n".join(parts) + "\n"


def probe_source(case: Case) -> str:
    """The program with main printing each observation as 'signed size value' (gcc only: it
    uses __typeof__, which cbam's inputs avoid)."""
    stmts = []
    for k, o in enumerate(case.observations):
        if o.setup:
            stmts.append(o.setup)
        if not o.expr:
            continue
        # typeof rejects bit-fields; a member is read through +0, whose promoted type keeps
        # its value (the size then only widens the range the mutant's value is chosen in).
        e = f"({o.expr}) + 0" if "." in o.expr else o.expr
        stmts.append(
            f"    {{ __typeof__({e}) v_{k} = {o.expr}; if ((__typeof__(v_{k}))-1 < 0) "
            f"printf(\"S %d %lld\\n\", (int)sizeof v_{k}, (long long)v_{k}); else "
            f"printf(\"U %d %llu\\n\", (int)sizeof v_{k}, (unsigned long long)v_{k}); }}")
    return HEADER.format(origin=case.origin) + "int printf(const char *, ...);\n" + case.body + "\n" + _main(case, stmts)


def literal(signed: bool, value: int) -> str:
    if signed:
        if value == -(1 << 63):
            return "(-9223372036854775807LL - 1)"
        return f"{value}LL" if value >= 0 else f"({value}LL)"
    return f"{value}ULL"


def check_line(k: int, o: Observation, vals: dict[str, tuple[bool, int, int]], bump: int = 0) -> str:
    def one(v: tuple[bool, int, int]) -> str:
        return f"    if ({o.expr} != {literal(v[0], v[2] + bump)}) reach_error(); /* check {k}: {o.name} */"
    if vals["LP64"] == vals["ILP32"]:
        return one(vals["LP64"])
    return "\n".join(["#if __SIZEOF_LONG__ == 8", one(vals["LP64"]), "#else", one(vals["ILP32"]), "#endif"])


def bump_for(vals: dict[str, tuple[bool, int, int]]) -> int:
    """+1, or -1 where +1 would leave the type's range (the mutant must stay a value the
    observed expression can take, so that only the program's semantics decides it)."""
    signed, size, value = vals["LP64"]
    top = (1 << (8 * size - 1)) - 1 if signed else (1 << (8 * size)) - 1
    return -1 if value + 1 > top else 1


def check_source(case: Case, mutate: int | None = None) -> str:
    """The cbam input; with ``mutate=k`` the k-th stated value is off by one."""
    stmts = []
    for k, (o, vals) in enumerate(zip(case.observations, case.values)):
        if o.setup:
            stmts.append(o.setup)
        if not o.expr:
            continue
        stmts.append(check_line(k, o, vals, bump_for(vals) if k == mutate else 0))
    return HEADER.format(origin=case.origin) + case.body + "\n" + _main(case, stmts)


def check_lines(source: str, k: int) -> set[int]:
    """The line numbers of the k-th stated value (two under a data-model #if)."""
    tag = f"/* check {k}: "
    return {n for n, line in enumerate(source.splitlines(), 1) if tag in line}


def gcc_build_and_run(source: str, bits: int, workdir: Path, timeout: float = 5.0) -> subprocess.CompletedProcess:
    src = workdir / f"p{bits}.c"
    exe = workdir / f"p{bits}"
    src.write_text(source)
    cc = subprocess.run(["gcc", f"-m{bits}", "-O0", "-w", "-o", str(exe), str(src)],
                        capture_output=True, text=True, timeout=120)
    if cc.returncode != 0:
        errors = [line.split("error: ", 1)[1] for line in cc.stderr.splitlines() if "error: " in line]
        raise Unsupported(f"gcc -m{bits} rejects it: {(errors or ['?'])[0]}")
    try:
        return subprocess.run([str(exe)], capture_output=True, text=True, timeout=timeout, cwd=str(workdir))
    except subprocess.TimeoutExpired as e:
        raise Unsupported(f"gcc -m{bits} build runs longer than {timeout} s") from e


def measure(case: Case, workdir: Path, bits_list: tuple[int, ...] = (64, 32)) -> None:
    """Fill case.values from gcc runs of the probe (ILP32 copies LP64 when -m32 is absent)."""
    per_model: dict[str, list[tuple[bool, int, int]]] = {}
    src = probe_source(case)
    for bits in bits_list:
        run = gcc_build_and_run(src, bits, workdir)
        if run.returncode != 0:
            raise Unsupported(f"probe exits {run.returncode} under -m{bits}")
        rows = []
        for line in run.stdout.splitlines():
            kind, size, value = line.split()
            rows.append((kind == "S", int(size), int(value)))
        stated = [o for o in case.observations if o.expr]
        if len(rows) != len(stated):
            raise Unsupported("probe printed a different number of values")
        it = iter(rows)
        # A call kept alone has no value; (False, 0, 0) keeps the lists aligned with the observations.
        per_model["LP64" if bits == 64 else "ILP32"] = [next(it) if o.expr else (False, 0, 0)
                                                       for o in case.observations]
    if "ILP32" not in per_model:
        per_model["ILP32"] = per_model["LP64"]
    case.values = [{"LP64": a, "ILP32": b} for a, b in zip(per_model["LP64"], per_model["ILP32"])]


def mutant_index(seed: int, case: Case) -> int:
    """Deterministic choice of the stated value to put off by one: a global's when there is one
    (func_1's result is often a constant the program returns directly)."""
    stated = [k for k, o in enumerate(case.observations) if o.expr]
    globals_ = [k for k in stated if k > 0] or stated
    if not globals_:
        raise Unsupported("nothing to state")
    return globals_[seed % len(globals_)]


def gcc_confirms(case: Case, mutate: int, workdir: Path, bits_list: tuple[int, ...] = (64, 32)) -> None:
    """The stated program must run to 0 under gcc and its mutant must not (per data model)."""
    for bits in bits_list:
        ok = gcc_build_and_run(check_source(case), bits, workdir)
        if ok.returncode != 0:
            raise Unsupported(f"check program fails under gcc -m{bits} (exit {ok.returncode})")
        bad = gcc_build_and_run(check_source(case, mutate), bits, workdir)
        if bad.returncode == 0:
            raise Unsupported(f"mutant runs to 0 under gcc -m{bits}")


def m32_available() -> bool:
    with tempfile.TemporaryDirectory() as d:
        src = Path(d, "t.c")
        src.write_text("int main(void){return 0;}\n")
        return subprocess.run(["gcc", "-m32", str(src), "-o", str(Path(d, "t"))], capture_output=True).returncode == 0


def build_case(seed: int, set_name: str, workdir: Path, bits_list: tuple[int, ...] = (64, 32),
               confirm_run_models_only: bool = False) -> tuple[Case, int]:
    """The program of ``seed``, measured by gcc, and the index of its mutated check. The stored
    suite confirms the program and its mutant under every gcc; the campaign, whose time is its
    size, only under the data models it runs cbam in."""
    if shutil.which("csmith") is None:
        raise RuntimeError("csmith is not installed")
    options = OPTION_SETS[set_name]
    raw = generate_raw(seed, options, workdir / "raw.c")
    origin = f"csmith {csmith_version()} --seed {seed} {' '.join(options + COMMON)} (option set {set_name!r})"
    case = transform(raw, origin)
    measure(case, workdir, bits_list)
    k = mutant_index(seed, case)
    models = models_for(seed, case, bits_list)
    gcc_confirms(case, k, workdir, tuple(64 if m == "LP64" else 32 for m in models) if confirm_run_models_only
                 else bits_list)
    return case, k


def models_for(seed: int, case: Case, bits_list: tuple[int, ...] = (64, 32)) -> list[str]:
    """The data models a program is checked in: one (LP64 for even seeds, ILP32 for odd ones),
    or both when gcc's values differ between -m64 and -m32."""
    if 32 not in bits_list:
        return ["LP64"]
    if any(v["LP64"] != v["ILP32"] for v in case.values):
        return ["LP64", "ILP32"]
    return ["LP64" if seed % 2 == 0 else "ILP32"]


@cache
def csmith_version() -> str:
    with tempfile.TemporaryDirectory() as d:
        out = subprocess.run(["csmith", "--version"], capture_output=True, text=True, cwd=d).stdout
    m = re.search(r"csmith ([\d.]+)", out)
    git = re.search(r"Git version: (\w+)", out)
    return (m.group(1) if m else "?") + (f" ({git.group(1)})" if git else "")


def _children_cpu() -> float:
    # CPU time rather than wall time decides what is "fast": the machine is shared.
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run_cbam(path: Path, data_model: str, timeout: float, extra: tuple[str, ...] = (),
             root: Path | None = None) -> dict:
    """cbam's verdict in a process of its own (a crash or a runaway is contained), as
    {"verdict", "reason", "seconds", "line"} (line: the first violation's); a missing JSON answer is reported as ERROR."""
    env = dict(os.environ, PYTHONHASHSEED="0")
    # root: a snapshot of the sources (git archive of a commit), so that a campaign of hours is
    # not measuring the working tree other engineers are editing; the venv's packages serve both.
    launcher = [str(CBAM)]
    if root is not None:
        env["PYTHONPATH"] = str(root)
        launcher = [str(CBAM.parent / "python"), "-m", "cbam"]
    cmd = [*launcher, "verify", "--format", "json", "--no-progress", "--no-cache", "--timeout", str(timeout),
           "--data-model", data_model, *extra, str(path)]
    t0 = time.monotonic()
    cpu0 = _children_cpu()
    try:
        # python -m puts the working directory first on sys.path: it must be the snapshot.
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout * 2 + 30, env=env,
                           cwd=str(root) if root is not None else None)
    except subprocess.TimeoutExpired:
        return {"verdict": "UNKNOWN", "reason": "killed: cbam overran its own time limit", "seconds": timeout * 2 + 30}
    seconds = round(time.monotonic() - t0, 2)
    cpu = round(_children_cpu() - cpu0, 2)
    try:
        data = json.loads(p.stdout)
    except json.JSONDecodeError:
        return {"verdict": "ERROR", "reason": f"exit {p.returncode}: {(p.stderr or p.stdout).strip()[-300:]}",
                "seconds": seconds}
    if isinstance(data, list):
        data = data[0]
    if "results" in data and isinstance(data["results"], list):
        data = data["results"][0]
    line = None
    for v in data.get("violations") or []:
        line = ((v.get("range") or {}).get("start") or {}).get("line")
        break
    return {"verdict": data.get("verdict", "ERROR"), "reason": str(data.get("reason", ""))[:300], "seconds": seconds,
            "cpu": cpu, "line": line, "kind": data.get("reason_kind", "")}


def _worker_init(root: str | None) -> None:
    if root is not None:
        import sys
        sys.path.insert(0, root)


def _verify_in_worker(path: str, data_model: str, timeout: float) -> dict:
    from cbam.engine.cfa.load import load_program
    from cbam.engine.frontend.errors import FrontendError
    from cbam.engine.frontend.preprocess import PreprocessOptions
    from cbam.engine.verify import VerifyOptions, run_deep, verify_program
    t0, cpu0 = time.monotonic(), time.process_time()
    try:
        program = load_program(path, options=PreprocessOptions(data_model=data_model))
        r = run_deep(lambda: verify_program(program, VerifyOptions(timeout=timeout)))
    except FrontendError as e:
        return {"verdict": "ERROR", "reason": str(e)[:300], "seconds": round(time.monotonic() - t0, 2),
                "cpu": round(time.process_time() - cpu0, 2), "line": None, "kind": "bad input"}
    line = r.violations[0].range.line if r.violations and r.violations[0].range else None
    return {"verdict": r.verdict, "reason": str(r.reason)[:300], "seconds": round(time.monotonic() - t0, 2),
            "cpu": round(time.process_time() - cpu0, 2), "line": line,
            "kind": str(getattr(r, "reason_kind", "") or "")}


class InProcessCbam:
    """cbam in one long-lived worker process: a campaign of thousands of runs would otherwise
    spend most of its CPU starting Python and importing z3. The worker is replaced after a crash
    or a run that overstays its limit, and after every 200 runs (memory)."""

    def __init__(self, root: Path | None = None) -> None:
        self.root = str(root) if root is not None else None
        self.pool = None

    def _pool(self):
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor
        if self.pool is None:
            self.pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"),
                                            initializer=_worker_init, initargs=(self.root,), max_tasks_per_child=200)
        return self.pool

    def _kill(self) -> None:
        if self.pool is not None:
            for p in list(getattr(self.pool, "_processes", {}).values()):
                p.kill()
            self.pool.shutdown(wait=False, cancel_futures=True)
            self.pool = None

    def close(self) -> None:
        if self.pool is not None:
            self.pool.shutdown(wait=True)
            self.pool = None

    def run(self, path: Path, data_model: str, timeout: float) -> dict:
        from concurrent.futures import TimeoutError as FutureTimeout
        from concurrent.futures.process import BrokenProcessPool
        fut = self._pool().submit(_verify_in_worker, str(path), data_model, timeout)
        try:
            return fut.result(timeout=timeout * 2 + 30)
        except FutureTimeout:
            self._kill()
            return {"verdict": "UNKNOWN", "reason": "killed: cbam overran its own time limit",
                    "seconds": timeout * 2 + 30, "cpu": 0.0, "line": None, "kind": "timeout"}
        except BrokenProcessPool as e:
            self._kill()
            return {"verdict": "ERROR", "reason": f"the worker died: {e}"[:300], "seconds": 0.0, "cpu": 0.0,
                    "line": None, "kind": "crash"}
        except Exception as e:  # an internal error of cbam is a finding, not the campaign's end
            return {"verdict": "ERROR", "reason": f"{type(e).__name__}: {e}"[:300], "seconds": 0.0, "cpu": 0.0,
                    "line": None, "kind": "internal error"}
