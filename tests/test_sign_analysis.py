"""A new analysis is one package: the sign domain in tests/sign_analysis is registered with one
call and then runs under BAM with recursion, is cached and reused after an edit, shows in the
summaries, and is offered by the command line, with no change to BAM, the cache, the CLI or the
server (tests/test_architecture.py checks that nothing there names an analysis)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from cbam.engine import api
from cbam.engine.cpa import registry

from tests.conftest import assert_replay_reaches_error, check_error_path
from tests.sign_analysis import SIGN

RECURSIVE = """#include <assert.h>
extern int __VERIFIER_nondet_int(void);
int f(int n) { if (n <= 1) return 1; int r = f(n - 1); return r; }
int main(void) { int x = __VERIFIER_nondet_int(); int y = f(x); assert(y > 0); return 0; }
"""


@pytest.fixture
def sign() -> Iterator[str]:
    registry.register(SIGN)
    try:
        yield SIGN.name
    finally:
        registry.unregister(SIGN.name)


def _write(tmp_path: Path, text: str) -> str:
    p = tmp_path / "prog.c"
    p.write_text(text)
    return str(p)


def test_registering_offers_it_and_unregistering_removes_it(sign: str) -> None:
    assert sign in api.configurations()
    registry.unregister(sign)
    assert sign not in api.configurations()
    registry.register(SIGN)
    with pytest.raises(ValueError):
        registry.register(SIGN._replace(name="value"))


def test_recursion_under_bam_is_proved_with_a_summary(sign: str, tmp_path: Path) -> None:
    store = api.open_cache(str(tmp_path / "cache"))
    report = api.verify_entries(_write(tmp_path, RECURSIVE), options=api.VerifyOptions(config=sign, cache=store, horn=False))
    assert report.result.verdict == "TRUE", report.result.reason
    assert report.result.config == sign
    assert report.result.statistics.covered_recursive_calls > 0  # the recursion went through BAM's fixpoint
    f = next(fn for fn in report.functions if fn.name == "f")
    assert f.status == "verified" and f.key is not None
    assert api.summary_lines("f", f.params, api.summaries(store, f.key, "f")) == ["true  ==>  \\result >= 1"]


def test_cached_blocks_are_reused_after_an_edit_elsewhere(sign: str, tmp_path: Path) -> None:
    store = api.open_cache(str(tmp_path / "cache"))
    opts = api.VerifyOptions(config=sign, cache=store, horn=False)
    path = _write(tmp_path, RECURSIVE)
    first = api.verify_entries(path, options=opts).result
    assert first.statistics.summary_hits == 0 and first.statistics.summary_misses > 0
    Path(path).write_text(RECURSIVE.replace("return 0; }", "return 1; }"))
    second = api.verify_entries(path, options=opts).result
    assert second.verdict == "TRUE"
    assert second.statistics.summary_hits >= 1  # f's block came from the cache
    assert second.statistics.blocks_analysed < first.statistics.blocks_analysed
    # The other configurations keep their own entries: the same function under "value" misses.
    value = api.verify_entries(path, options=api.VerifyOptions(config="value", cache=store)).result
    assert value.statistics.summary_hits == 0


def test_a_feasible_error_path_is_false_with_inputs(sign: str, tmp_path: Path) -> None:
    text = RECURSIVE.replace("assert(y > 0)", "assert(y < 0)")
    path = _write(tmp_path, text)
    result = api.verify_entries(path, options=api.VerifyOptions(config=sign, harness=True)).result
    check_error_path(result)
    [v] = result.violations
    assert v.kind == "assert" and v.function == "main"
    assert [(i.source, i.value) for i in v.inputs] == [("__VERIFIER_nondet_int", 1)]
    assert_replay_reaches_error(Path(path), result, result.data_model, tmp_path)


def test_a_spurious_path_with_no_refiner_is_unknown_never_false(sign: str, tmp_path: Path) -> None:
    text = "#include <assert.h>\nint main(void) { int a = 3; int b = a - 5; assert(b != 0); return 0; }\n"
    result = api.verify_entries(_write(tmp_path, text),
                                options=api.VerifyOptions(config=sign, path_exploration=False, horn=False)).result
    assert result.verdict == "UNKNOWN"
    assert result.reason_kind == "no-refiner"
    assert "value" in result.reason  # it names a configuration that can refine


def test_the_command_line_offers_it(sign: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from cbam.cli import main

    path = _write(tmp_path, RECURSIVE)
    code = main(["verify", "--config", sign, "--format", "json", "--cache-dir", str(tmp_path / "cache"), path])
    out = json.loads(capsys.readouterr().out)
    assert code == 0, out
    [entry] = out if isinstance(out, list) else [out]
    assert entry["verdict"] == "TRUE" and entry["config"] == sign


def test_its_summaries_appear_in_hover_through_the_api(sign: str, tmp_path: Path) -> None:
    from cbam.server.summaries import SummaryReader, format_hover

    cache = tmp_path / "cache"
    report = api.verify_entries(_write(tmp_path, RECURSIVE),
                                options=api.VerifyOptions(config=sign, cache=api.open_cache(str(cache)), horn=False))
    f = next(fn for fn in report.functions if fn.name == "f")
    text = format_hover(f, report.result, SummaryReader().blocks(str(cache), f.key))
    assert "| `true` | `\\result >= 1` |" in text, text
