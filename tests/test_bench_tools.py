"""The benchmark scripts' own logic: the generated program and the comparison table."""

from __future__ import annotations

import sys

from .conftest import ROOT

sys.path.insert(0, str(ROOT / "bench"))

import svcomp_compare  # noqa: E402


def _row(task: str, expected: str, result: str, score: int) -> dict:
    return {"task": task, "expected": expected, "result": result, "score": score}


def test_compare_counts_correct_wrong_and_gains():
    base = {r["task"]: r for r in [_row("c/rec/a.yml", "true", "UNKNOWN", 0), _row("c/rec/b.yml", "false", "FALSE", 1),
                                   _row("c/loops/c.yml", "true", "TRUE", 2)]}
    other = {r["task"]: r for r in [_row("c/rec/a.yml", "true", "TRUE", 2), _row("c/rec/b.yml", "false", "TRUE", -32),
                                    _row("c/loops/c.yml", "true", "TRUE", 2)]}
    out = svcomp_compare.compare([("value", base), ("other", other)])
    assert "| rec | 1 (0/1) 1 | 1 (1/0) -30 |" in out
    assert "| TOTAL | 2 (1/1) 3 | 2 (2/0) -28 |" in out
    assert "| wrong verdicts | 0 | 1 |" in out
    assert "other decides, value does not: a" in out


def test_generated_program_has_the_promised_shape():
    import incremental_bench

    src = incremental_bench.generate()
    assert src.count("int f") == sum(incremental_bench.LAYERS)
    assert "rdown(n - 1)" in src and src.count("reach_error();") == 4
    assert incremental_bench.generate(failing=False) != src
    assert incremental_bench.generate(check_const=1001).count("1001") == 1


def test_soak_mutants_are_reproducible_and_findings_are_classified():
    import random

    import soak

    text = "int main(void) {\n  int x = 1;\n  x = x + 2;\n  return x;\n}\n"
    a = soak.mutate(text, random.Random(7))
    assert a == soak.mutate(text, random.Random(7))  # a seed replays its mutant
    kinds = {soak.mutate(text, random.Random(s))[1].split(" ")[0] for s in range(200)}
    assert {"delete", "duplicate", "swap", "insert"} <= kinds
    ok = {"seed": 1, "source": "a.c", "mutation": "m", "exit": 3, "seconds": 5.5, "hung": False}
    crash = dict(ok, seed=2, exit=4)
    slow = dict(ok, seed=3, seconds=12.0)
    lsp_ok = {"seed": 9, "source": "a.c", "mutation": "m", "seconds": 1.0, "server alive": True}
    lsp_dead = dict(lsp_ok, seed=10, **{"server alive": False})
    text, findings = soak.report([ok, crash, slow], [lsp_ok, lsp_dead], timeout=5, slack=2, startup=2)
    assert findings == 3
    assert "| crashes (exit 4, a signal, or hung) | 1 |" in text and "| overruns | 1 |" in text
    assert "| server restarts needed | 1 |" in text
    assert "- seed 2:" in text and "- seed 3:" in text and "- seed 10:" in text and "- seed 1:" not in text


def test_the_benchmark_task_sets_are_consistent() -> None:
    """Each set's INDEX agrees with its ymls, every input exists and compiles
    (bench/check_task_index.py): a benchmark over broken tasks would measure nothing."""
    import subprocess

    import pytest

    if subprocess.run(["gcc", "--version"], capture_output=True).returncode != 0:
        pytest.skip("gcc is not installed")
    for name in ("memory", "memsafety", "loops"):
        out = subprocess.run([sys.executable, str(ROOT / "bench" / "check_task_index.py"), str(ROOT / "bench" / name)],
                             capture_output=True, text=True)
        assert out.returncode == 0, f"bench/{name}:\n{out.stdout}\n{out.stderr}"


def test_memory_campaign_tells_a_hint_from_a_mismatch():
    import memory_differential as md

    def run(lines: list[int], reused: bool = False, verdict: str = "FALSE") -> md.RunResult:
        return md.RunResult(verdict=verdict, lines=lines, exit_code=1, timing=False, crash="", precision_reused=reused)

    # Another real violation first is a reused precision's hint in the first-violation mode ...
    assert md.compare(run([18], reused=True), run([16]), "first")[0] == "hinted"
    # ... never without a reused precision, nor with --all-violations, nor for a verdict.
    assert md.compare(run([18]), run([16]), "first")[0] == "mismatch"
    assert md.compare(run([16, 18], reused=True), run([16]), "all")[0] == "mismatch"
    assert md.compare(run([], reused=True, verdict="TRUE"), run([16]), "first")[0] == "mismatch"
    assert md.compare(run([16], reused=True), run([16]), "first")[0] == "ok"
