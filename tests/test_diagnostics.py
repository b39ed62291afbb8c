"""server/diagnostics.py: a verification outcome as LSP diagnostics, as pure functions of the
engine's typed report (no server, no client)."""

from __future__ import annotations

import shutil
from dataclasses import replace
from pathlib import Path

import pytest
from cbam.engine import api
from cbam.engine.core.result import UnknownReason
from cbam.server.diagnostics import (
    frontend_diagnostics,
    function_at,
    lens_title,
    path_to_uri,
    result_diagnostics,
    to_range,
    token_range,
)
from lsprotocol import types as lsp

from .conftest import ROOT


@pytest.fixture(scope="module")
def buggy(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, api.FileReport]:
    path = tmp_path_factory.mktemp("diag") / "buggy.c"
    shutil.copy(ROOT / "examples" / "buggy.c", path)
    report = api.verify_entries(str(path), options=api.VerifyOptions(config="value", harness=False))
    return path_to_uri(str(path)), report


def test_a_violation_is_an_error_at_its_check_with_the_path_as_related_information(buggy) -> None:
    uri, report = buggy
    [d] = result_diagnostics(report, uri, related_support=True, timeout=30)
    assert d.code == "violation" and d.severity == lsp.DiagnosticSeverity.Error and d.source == "cbam"
    assert d.range.start == lsp.Position(14, 4)  # assert(lo <= mid), line 15 column 5 from 1
    assert d.message.startswith("assertion `lo <= mid` may fail") and "[cached]" not in d.message
    steps = [s for s in report.result.violations[0].steps if s.kind != "error"]
    assert [r.message for r in d.related_information] == [s.message for s in steps]
    assert all(r.location.uri == uri for r in d.related_information)
    assert d.related_information[0].location.range.start.line == 10  # lo = __VERIFIER_nondet_uint()
    assert d.data["kind"] == "assert" and d.data["cached"] is False
    assert [i["source"] for i in d.data["inputs"]] == ["__VERIFIER_nondet_uint"] * 2


def test_without_related_information_the_path_is_in_the_message(buggy) -> None:
    uri, report = buggy
    [d] = result_diagnostics(report, uri, related_support=False, timeout=30)
    assert d.related_information is None
    assert "\nerror path:\n  line 11: lo = " in d.message


def test_a_cached_result_says_so(buggy) -> None:
    uri, report = buggy
    cached = replace(report, result=replace(report.result, source="cache"))
    [d] = result_diagnostics(cached, uri, True, 30)
    assert d.message.endswith(" [cached]") and d.data["cached"] is True


def test_unknown_says_why_and_a_timeout_is_information(buggy) -> None:
    uri, report = buggy
    unknown = replace(report, result=replace(report.result, verdict="UNKNOWN", violations=[], reason="refinement "
                                             "made no progress", reason_kind=UnknownReason.NO_PROGRESS))
    [d] = result_diagnostics(unknown, uri, True, 30)
    assert (d.code, d.severity) == ("unknown", lsp.DiagnosticSeverity.Warning)
    assert d.message == "cbam could not decide: refinement made no progress" and d.data["reason"] == "no-progress"
    timeout = replace(unknown, result=replace(unknown.result, reason="timeout", reason_kind=UnknownReason.TIMEOUT))
    [d] = result_diagnostics(timeout, uri, True, 12.5)
    assert d.severity == lsp.DiagnosticSeverity.Information
    assert d.message == "cbam could not decide: timeout after 12.5 s: nothing proven, nothing refuted"


def test_true_has_no_diagnostic(tmp_path: Path) -> None:
    path = tmp_path / "safe.c"
    shutil.copy(ROOT / "examples" / "safe.c", path)
    report = api.verify_entries(str(path), options=api.VerifyOptions(config="value"))
    assert report.result.verdict == "TRUE"
    assert result_diagnostics(report, path_to_uri(str(path)), True, 30) == []


def test_frontend_errors_point_at_the_token_or_name_their_file(tmp_path: Path) -> None:
    doc = tmp_path / "a.c"
    text = "int main(void) {\n  int x = 1\n  return x;\n}\n"
    here = api.Diagnostic("error", "expected ';' before 'return'", str(doc), 3, 3)
    header = api.Diagnostic("error", "unknown type name 'foo'", str(tmp_path / "a.h"), 2, 1)
    d_here, d_header = frontend_diagnostics([here, header], "parse", path_to_uri(str(doc)), text)
    assert d_here.code == "syntax-error" and d_here.message == "expected ';' before 'return'"
    assert d_here.range == lsp.Range(lsp.Position(2, 2), lsp.Position(2, 8))  # the word `return`
    assert d_header.message == f"{tmp_path / 'a.h'}:2:1: unknown type name 'foo'"
    assert d_header.range.start == lsp.Position(0, 0)
    [cpp] = frontend_diagnostics([here], "preprocess", path_to_uri(str(doc)), text)
    assert cpp.code == "preprocessor-error"


def test_token_range_and_to_range() -> None:
    assert token_range("a = b;\n", 0, 4) == lsp.Range(lsp.Position(0, 4), lsp.Position(0, 5))
    assert token_range("  ;\n", 0, 2) == lsp.Range(lsp.Position(0, 2), lsp.Position(0, 3))  # not a word
    assert token_range("", 5, 0) == lsp.Range(lsp.Position(5, 0), lsp.Position(5, 1))  # past the end
    assert to_range(api.Range("f.c", 3, 2, 3, 9)) == lsp.Range(lsp.Position(2, 1), lsp.Position(2, 8))
    assert to_range(None) == lsp.Range(lsp.Position(0, 0), lsp.Position(0, 1))


def test_function_at_a_definition_or_a_call(buggy) -> None:
    uri, report = buggy
    fs = report.functions
    assert function_at(fs, lsp.Position(5, 15), uri).name == "average"  # in `average` of its definition
    assert function_at(fs, lsp.Position(13, 25), uri).name == "average"  # in the call's name
    assert function_at(fs, lsp.Position(13, 32), uri) is None  # in the call's arguments
    assert function_at(fs, lsp.Position(1, 0), uri) is None
    assert function_at(fs, lsp.Position(5, 15), path_to_uri("/elsewhere/other.c")) is None  # not that file's
    # One violation asked for, one found: the search stopped there, so average is not known safe.
    assert {f.name: f.status for f in fs} == {"average": "unknown", "main": "violation"}


LIB = """int stack_pop_checked(int *items, int size) {
    int top = items[size - 1];
    __VERIFIER_assert(top >= 0);
    return top;
}
"""
MAIN = """extern void __VERIFIER_assert(int);
extern int __VERIFIER_nondet_int(void);
int stack_pop_checked(int *items, int size);
int main(void) {
    int items[2];
    items[0] = 1;
    items[1] = __VERIFIER_nondet_int();
    return stack_pop_checked(items, 2);
}
"""


def test_a_check_in_another_file_of_the_program_is_shown_where_the_path_leaves_this_one(tmp_path) -> None:
    (tmp_path / "lib.c").write_text("extern void __VERIFIER_assert(int);\n" + LIB)
    (tmp_path / "main.c").write_text(MAIN)
    main, lib = str(tmp_path / "main.c"), str(tmp_path / "lib.c")
    pp = api.PreprocessOptions()
    text = api.link([api.Unit(main, pp), api.Unit(lib, pp)])
    report = api.verify_entries(main, preprocess=pp, preprocessed=text,
                                options=api.VerifyOptions(harness=False, replay=None))
    assert report.result.verdict == "FALSE"
    [d] = [d for d in result_diagnostics(report, path_to_uri(main), related_support=True, timeout=30)
           if d.code == "violation"]
    assert d.range.start.line == 7  # the call in main.c, line 8
    assert d.message.startswith("lib.c:4: ")
    assert {loc.location.uri for loc in d.related_information} == {path_to_uri(main), path_to_uri(lib)}
    # In lib.c's own diagnostics the check is at its place, with the same path.
    [d] = [d for d in result_diagnostics(report, path_to_uri(lib), related_support=True, timeout=30)
           if d.code == "violation"]
    assert d.range.start.line == 3 and not d.message.startswith("lib.c")


def test_lens_titles() -> None:
    assert lens_title("verified", verifying=False, outdated=False, cached=False) == "✓ verified"
    assert lens_title("violation", False, False, True) == "✗ violation (cached)"
    assert lens_title("verified", False, True, False) == "✓ verified (before your last edits; save to verify)"
    assert lens_title("verified", True, False, False) == "verifying…"
    assert lens_title("not analysed", False, True, True) == "not analysed"


def test_a_violation_in_one_entry_does_not_verify_what_an_undecided_entry_reaches(tmp_path: Path) -> None:
    # `a` fails; `b` cannot be analysed (floating point), so nothing it reaches is verified.
    path = tmp_path / "two.c"
    path.write_text("#include <assert.h>\n"
                    "static int helper(int x) { return x + 1; }\n"
                    "void a(int x) { assert(x != 5); }\n"
                    "void b(int x) { double d = x; int y = helper(x); assert(d < 1e300 && y != 0); }\n")
    report = api.verify_entries(str(path), options=api.VerifyOptions(config="value", harness=False))
    assert report.result.verdict == "FALSE"
    assert report.result.search_stopped == UnknownReason.UNSUPPORTED
    status = {f.name: f.status for f in report.functions}
    assert status == {"a": "violation", "b": "unsupported", "helper": "unknown"}


def test_a_files_statistics_are_the_work_of_all_its_entries() -> None:
    from cbam.engine.core.result import Statistics, VerificationResult
    from cbam.engine.report_file import merge

    one = VerificationResult("TRUE", statistics=Statistics(time=0.5, states=10, summary_misses=3))
    two = VerificationResult("TRUE", statistics=Statistics(time=0.25, states=7, precision_reused=True))
    merged = merge([one, two], ["f", "g"]).statistics
    assert (merged.time, merged.states, merged.summary_misses, merged.precision_reused) == (0.75, 17, 3, True)


def test_a_violation_says_what_its_native_run_showed(buggy) -> None:
    """Shown first as the path check left it ([replaying]), then as its run ended."""
    from cbam.engine.core.result import Replay, ReplayStatus

    uri, report = buggy
    (v,) = report.result.violations
    for replay, tag in ((Replay(ReplayStatus.PENDING), " [replaying]"),
                        (Replay(ReplayStatus.REPLAYED, observed="reached assert() at buggy.c:15"), " [replayed]"),
                        (Replay(ReplayStatus.NOT_REPLAYED, "no gcc on PATH"), " [not replayed: no gcc on PATH]")):
        shown = replace(report, result=replace(report.result, violations=[replace(v, replay=replay)]))
        [d] = result_diagnostics(shown, uri, True, 30)
        assert d.message.endswith(tag) and d.data["replay"]["status"] == str(replay.status)
    [d] = result_diagnostics(report, uri, True, 30)  # the replay off: nothing said
    assert "replay" not in d.message and "replay" not in d.data


def test_a_withdrawn_violation_is_an_unknown_naming_the_kept_evidence(buggy) -> None:
    from cbam.engine.core.result import Replay, ReplayStatus

    uri, report = buggy
    (v,) = report.result.violations
    outcome = Replay(ReplayStatus.DISAGREES, "the run exited with status 0", kept="/tmp/kept/1")
    withdrawn = replace(report.result, verdict="UNKNOWN", violations=[], reason_kind=UnknownReason.REPLAY_DISAGREES,
                        reason="did not replay; kept in /tmp/kept/1", reason_range=v.range, replay=outcome)
    [d] = result_diagnostics(replace(report, result=withdrawn), uri, True, 30)
    assert d.code == "unknown" and d.range.start == lsp.Position(14, 4) and "/tmp/kept/1" in d.message
    assert d.data["reason"] == "replay-disagrees" and d.data["replay"]["kept"] == "/tmp/kept/1"
