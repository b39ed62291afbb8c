"""gcc as the oracle of what C means: a program's ``CHECK(e)`` values, computed by gcc, become
cbam's assertions.

A snippet calls ``CHECK(e)`` once per check, on a path that runs each exactly once. gcc compiles it
with each check printing its value; cbam then verifies the snippet with each check turned into
``if ((e) != value) reach_error();``, which must be TRUE, and a mutant with one value off by one,
which must be FALSE with a harness that fails when gcc runs it. The front end cannot confirm its
own mistakes this way: the values are gcc's."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from .conftest import M32, assert_replay_reaches_error, verify_src

_CHECK = re.compile(r"\bCHECK\(")
PRELUDE = "extern void reach_error(void);\n"


def _numbered(code: str) -> tuple[str, int]:
    n = 0

    def sub(_: re.Match) -> str:
        nonlocal n
        n += 1
        return f"CHECK_{n}("

    return _CHECK.sub(sub, code), n


def gcc_values(code: str, tmp_path: Path, data_model: str = "LP64") -> list[int]:
    """The value of each ``CHECK(e)`` when gcc runs the program, in order of the checks."""
    if shutil.which("gcc") is None:
        pytest.skip("gcc is not installed")
    if data_model == "ILP32" and not M32:
        pytest.skip("gcc -m32 (gcc-multilib) is not installed")
    body, n = _numbered(code)
    defs = "".join(f'#define CHECK_{i}(e) __oracle({i}, (long long)(e))\n' for i in range(1, n + 1))
    src = tmp_path / "oracle.c"
    src.write_text("#include <stdio.h>\n#include <stdlib.h>\n"
                   "static void __oracle(int i, long long v) { printf(\"%d %lld\\n\", i, v); }\n"
                   "void reach_error(void) { abort(); }\n" + defs + body)
    exe = tmp_path / "oracle"
    flags = ["-m32"] if data_model == "ILP32" else []
    cc = subprocess.run(["gcc", "-w", "-O0", *flags, str(src), "-o", str(exe)], capture_output=True, text=True)
    assert cc.returncode == 0, f"gcc cannot compile the snippet:\n{cc.stderr}"
    run = subprocess.run([str(exe)], capture_output=True, text=True, timeout=30)
    assert run.returncode == 0, f"the snippet fails under gcc: {run.stderr}"
    seen = dict(tuple(map(int, line.split())) for line in run.stdout.split("\n") if line)  # type: ignore[misc]
    assert sorted(seen) == list(range(1, n + 1)), f"each CHECK must run exactly once: {run.stdout}"
    return [seen[i] for i in range(1, n + 1)]


def asserted(code: str, values: list[int], off: int | None = None) -> str:
    """The snippet for cbam: each check asserts gcc's value (check ``off``, counted from 0, asserts
    one more)."""
    body, n = _numbered(code)
    defs = "".join(f"#define CHECK_{i + 1}(e) do {{ if ((long long)(e) != {v + (1 if i == off else 0)}LL) "
                   f"reach_error(); }} while (0)\n" for i, v in enumerate(values))
    return PRELUDE + defs + body


def check_against_gcc(code: str, tmp_path: Path, data_model: str = "LP64", timeout: float = 60.0,
                      mutant: int | None = -1, **kw) -> list[int]:
    """cbam proves gcc's values of the checks and refutes one off by one (``mutant``: which check,
    -1 the last, None none), replaying the counterexample with gcc. Returns gcc's values."""
    values = gcc_values(code, tmp_path, data_model)
    good = verify_src(asserted(code, values), tmp_path, data_model, timeout, name="good.c", **kw)
    assert good.verdict == "TRUE", f"gcc's values {values}: {good.verdict} {good.reason}\n" + \
        "\n".join(f"{s.text}: {s.message} {s.values}" for v in good.violations for s in v.steps[-3:])
    if mutant is not None and values:
        which = mutant % len(values)
        bad_src = asserted(code, values, which)
        bad = verify_src(bad_src, tmp_path, data_model, timeout, name="bad.c", **kw)
        assert bad.verdict == "FALSE", f"check {which + 1} off by one: {bad.verdict} {bad.reason}"
        assert_replay_reaches_error(tmp_path / "bad.c", bad, data_model, tmp_path)
    return values
