"""The language server end to end through a real LSP client (pytest-lsp)."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import signal
import sys
import tempfile
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types as lsp
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from tests.conftest import ROOT
from tests.programs import SLOW

BUGGY = """extern unsigned int __VERIFIER_nondet_uint(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error(void) { __assert_fail("0", "b.c", 3, "reach_error"); }
unsigned int average(unsigned int a, unsigned int b) {
  return (a + b) / 2;
}
int main(void) {
  unsigned int lo = __VERIFIER_nondet_uint();
  unsigned int hi = __VERIFIER_nondet_uint();
  if (lo <= hi) {
    unsigned int mid = average(lo, hi);
    if (!(lo <= mid)) reach_error();
  }
  return 0;
}
"""
SAFE = """int twice(int x) { return 2 * x; }
int main(void) {
  int r = twice(21);
  if (r != 42) { extern void reach_error(void); reach_error(); }
  return 0;
}
"""
LONG = """extern void reach_error(void);
int main(void) {
  long x = 2147483647L;
  x = x + 1;
  if (x > 0) reach_error();
  return 0;
}
"""

# Two violations: the first (line 15) on the branch a depth-first search takes first, the second
# (line 13) behind a loop that takes value analysis seconds to run through.
TWO_VIOLATIONS = """extern int __VERIFIER_nondet_int(void);
void reach_error(void);

int slow_sum(void) {
  int s = 0;
  for (int i = 0; i < 10000; i++) s += i % 3;
  return s;
}

int main(void) {
  int x = __VERIFIER_nondet_int();
  if (x > 0) {
    if (slow_sum() == 9999) reach_error();
  } else {
    reach_error();
  }
  return 0;
}
"""


def make_client_factory():
    from pytest_lsp.client import (
        DEFAULT_CLIENT_FEATURES,
        LanguageClient,
        default_converter,
        register_lsp_features,
    )

    def on_diags(ls, params: lsp.PublishDiagnosticsParams):
        ls.diagnostics[params.uri] = params.diagnostics
        ls.published.append(params)  # every publication, with its version, in order

    def on_status(ls, params):
        ls.statuses.append((params.uri, params.state))

    def factory():
        client = LanguageClient(converter_factory=default_converter)
        client.published = []  # type: ignore[attr-defined]
        client.statuses = []  # type: ignore[attr-defined]
        features = dict(DEFAULT_CLIENT_FEATURES)
        features[lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = on_diags
        features["cbam/status"] = on_status
        features[lsp.WORKSPACE_CODE_LENS_REFRESH] = lambda ls, params: None
        register_lsp_features(client, features)
        return client

    return factory


def config(**kw) -> ClientServerConfig:
    return ClientServerConfig(server_command=[sys.executable, "-m", "cbam", "lsp"],
                              client_factory=make_client_factory(), **kw)


async def start(client: LanguageClient, tmp_path: Path, spec: str = "visual-studio-code", settings=None,
                status: bool = False):
    caps = client_capabilities(spec)
    if status:
        caps.experimental = {"cbamStatus": True}
    client.set_configuration({"cache": True, "cacheDir": str(tmp_path / "cache"), "timeout": 30,
                              **(settings or {})}, section="cbam")
    await client.initialize_session(lsp.InitializeParams(
        capabilities=caps, root_uri=tmp_path.as_uri(),
        workspace_folders=[lsp.WorkspaceFolder(uri=tmp_path.as_uri(), name="ws")]))
    await asyncio.sleep(0.2)


def open_doc(client: LanguageClient, path: Path, text: str, version: int = 1) -> str:
    path.write_text(text)
    uri = path.as_uri()
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(
        lsp.TextDocumentItem(uri=uri, language_id="c", version=version, text=text)))
    return uri


async def wait_diags(client: LanguageClient, uri: str, timeout: float = 60, after: int = 0):
    """The first publication for ``uri`` after the first ``after`` ones."""
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        pubs = [p for p in client.published if p.uri == uri]
        if len(pubs) > after:
            return pubs[after]
        if asyncio.get_running_loop().time() > deadline:
            raise TimeoutError(f"no diagnostics for {uri}")
        await asyncio.sleep(0.05)


async def settled(client: LanguageClient, uri: str, timeout: float = 60) -> list:
    """The document's publications once none of its violations waits for its native run (a
    violation is shown first as the path check confirmed it, then again once run)."""
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        pubs = [p for p in client.published if p.uri == uri]
        if pubs and not any(isinstance(d.data, dict) and d.data.get("replay", {}).get("status") == "pending"
                            for d in pubs[-1].diagnostics):
            return pubs
        if asyncio.get_running_loop().time() > deadline:
            raise TimeoutError(f"the violations of {uri} were not replayed")
        await asyncio.sleep(0.05)


@pytest_lsp.fixture(config=config())
async def client(lsp_client: LanguageClient):
    yield lsp_client
    await lsp_client.shutdown_session()


async def test_violation_with_related_information(client: LanguageClient, tmp_path):
    await start(client, tmp_path)
    uri = open_doc(client, tmp_path / "b.c", BUGGY)
    pub = await wait_diags(client, uri)
    assert pub.version == 1
    assert len(pub.diagnostics) == 1
    d = pub.diagnostics[0]
    assert d.severity == lsp.DiagnosticSeverity.Error and d.source == "cbam"
    assert d.message.startswith("assertion") or "reach_error" in d.message
    assert "__VERIFIER_nondet_uint() =" in d.message  # names the inputs
    assert d.range.start.line == 11
    msgs = [r.message for r in d.related_information]
    assert any(m.startswith("lo = ") and m.endswith("(nondet)") for m in msgs)
    assert "branch `lo <= hi` taken" in msgs
    assert any(m.startswith("call average(a = ") for m in msgs)
    assert any(m.startswith("average returns ") for m in msgs)
    assert all(r.location.uri == uri for r in d.related_information)
    lines = [r.location.range.start.line for r in d.related_information]
    assert lines[0] == 7 and 4 in lines  # crosses into average's body


@pytest_lsp.fixture(config=config())
async def client_plain(lsp_client: LanguageClient):
    yield lsp_client
    await lsp_client.shutdown_session()


async def test_path_folded_into_message_without_related_support(client_plain: LanguageClient, tmp_path):
    caps = client_capabilities("visual-studio-code")
    caps.text_document.publish_diagnostics.related_information = False
    client_plain.set_configuration({"cacheDir": str(tmp_path / "cache")}, section="cbam")
    await client_plain.initialize_session(lsp.InitializeParams(capabilities=caps, root_uri=tmp_path.as_uri()))
    uri = open_doc(client_plain, tmp_path / "b.c", BUGGY)
    pub = await wait_diags(client_plain, uri)
    d = pub.diagnostics[0]
    assert not d.related_information
    assert "\nerror path:\n" in d.message and "branch `lo <= hi` taken" in d.message
    assert "line 10:" in d.message


async def test_hover_and_code_lens(client: LanguageClient, tmp_path):
    await start(client, tmp_path)
    uri = open_doc(client, tmp_path / "s.c", SAFE)
    hover = await client.text_document_hover_async(lsp.HoverParams(lsp.TextDocumentIdentifier(uri),
                                                                   lsp.Position(0, 5)))
    assert hover is None or "No summary yet" in hover.contents.value or "twice" in hover.contents.value
    pub = await wait_diags(client, uri)
    assert not pub.diagnostics
    at_def = await client.text_document_hover_async(lsp.HoverParams(lsp.TextDocumentIdentifier(uri),
                                                                    lsp.Position(0, 5)))
    text = at_def.contents.value
    assert "**twice**" in text and "`x == 21`" in text and "`\\result == 42`" in text
    assert "fresh" in text or "cached" in text
    at_call = await client.text_document_hover_async(lsp.HoverParams(lsp.TextDocumentIdentifier(uri),
                                                                     lsp.Position(2, 11)))
    assert at_call is not None and "\\result == 42" in at_call.contents.value
    lenses = await client.text_document_code_lens_async(lsp.CodeLensParams(lsp.TextDocumentIdentifier(uri)))
    titles = sorted(lens.command.title for lens in lenses)
    assert titles == ["cbam: ✓ verified — Verify", "cbam: ✓ verified — Verify"]
    assert lenses[0].command.command == "cbam.verifyFunction"
    # Re-saving an unchanged file is answered from the cache, and says so.
    client.text_document_did_save(lsp.DidSaveTextDocumentParams(lsp.TextDocumentIdentifier(uri)))
    await wait_diags(client, uri, after=1)
    lenses = await client.text_document_code_lens_async(lsp.CodeLensParams(lsp.TextDocumentIdentifier(uri)))
    assert all("(cached)" in lens.command.title for lens in lenses)


RECURSIVE_TWICE = """extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int twice(int n) { if (n <= 0) return 0; return twice(n - 1) + 2; }
int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 1000) return 0;
  if (twice(n) != 2 * n) reach_error();
  return 0;
}
"""


async def test_hover_of_a_program_the_horn_clause_engine_proved(client: LanguageClient, tmp_path):
    """No block summaries then: the hover shows the summary that proved it, and says how.
    Spacer and the summaries guessed from runs (CPArec's) both prove RECURSIVE_TWICE, and which
    comes first depends on the machine (tests/test_horn.py): the hover names one of the two."""
    await start(client, tmp_path)
    uri = open_doc(client, tmp_path / "t.c", RECURSIVE_TWICE)
    pub = await wait_diags(client, uri)
    assert not pub.diagnostics
    hover = await client.text_document_hover_async(lsp.HoverParams(lsp.TextDocumentIdentifier(uri),
                                                                   lsp.Position(2, 5)))
    text = hover.contents.value
    assert "**twice**" in text and "\\result" in text, text
    assert ("whole-program invariants" in text) != ("CPArec" in text), text
    assert "No summary yet" not in text


async def test_hover_of_a_program_cparec_proved(client: LanguageClient, tmp_path):
    """The configuration "cparec" (CPArec, Chen et al. 2014) alone: its checked summary shows on hover, and says how."""
    from .test_cparec import MC91

    await start(client, tmp_path, settings={"config": "cparec", "timeout": 60})
    uri = open_doc(client, tmp_path / "mc91.c", MC91)
    pub = await wait_diags(client, uri, timeout=90)
    assert not pub.diagnostics
    hover = await client.text_document_hover_async(lsp.HoverParams(lsp.TextDocumentIdentifier(uri),
                                                                   lsp.Position(3, 5)))
    text = hover.contents.value
    assert "**mc91**" in text and "CPArec" in text and "unwound" in text and "\\result" in text, text


async def test_hover_of_a_program_k_induction_proved(client: LanguageClient, tmp_path):
    """A sum whose invariant (2x == y*y + y) only the polynomial invariants of k-induction find:
    k-induction proves it, and the hover says so. (No other engine proves it within the
    minute, so no race decides which engine the hover names; SV-COMP's test_locks_9, which
    this test used before, CEGAR proves as well where k-induction's first turn runs out.)"""
    from .test_kinduction_algebraic import SUM_TRUE as source

    await start(client, tmp_path, settings={"timeout": 60})
    uri = open_doc(client, tmp_path / "sum.c", source)
    pub = await wait_diags(client, uri, timeout=90)
    assert not pub.diagnostics
    line = next(i for i, text in enumerate(source.splitlines()) if text.startswith("int main"))
    hover = await client.text_document_hover_async(lsp.HoverParams(lsp.TextDocumentIdentifier(uri),
                                                                   lsp.Position(line, 5)))
    text = hover.contents.value
    assert "**main**" in text and "k-induction" in text and "k = 1" in text, text
    assert "No summary yet" not in text


async def test_new_save_cancels_running_analysis(client: LanguageClient, tmp_path):
    await start(client, tmp_path, settings={"timeout": 120})
    path = tmp_path / "slow.c"
    uri = open_doc(client, path, SLOW)
    await asyncio.sleep(1.0)  # the slow analysis is running
    path.write_text(SAFE)
    client.text_document_did_change(lsp.DidChangeTextDocumentParams(
        lsp.VersionedTextDocumentIdentifier(uri=uri, version=2),
        [lsp.TextDocumentContentChangeWholeDocument(text=SAFE)]))
    client.text_document_did_save(lsp.DidSaveTextDocumentParams(lsp.TextDocumentIdentifier(uri)))
    t0 = asyncio.get_running_loop().time()
    pub = await wait_diags(client, uri, timeout=60)
    # The slow job was killed, not waited for: the new result comes at once, for version 2
    # (within seconds on a quiet machine; a wait for the slow job's 120 s, not a slow machine,
    # breaks this bound).
    assert asyncio.get_running_loop().time() - t0 < 60
    assert pub.version == 2 and not pub.diagnostics
    assert all(p.version == 2 for p in client.published if p.uri == uri)


async def test_results_for_old_versions_are_never_published(client: LanguageClient, tmp_path):
    await start(client, tmp_path)
    path = tmp_path / "v.c"
    uri = open_doc(client, path, BUGGY)
    client.text_document_did_change(lsp.DidChangeTextDocumentParams(
        lsp.VersionedTextDocumentIdentifier(uri=uri, version=2),
        [lsp.TextDocumentContentChangeWholeDocument(text=SAFE)]))
    await asyncio.sleep(3)
    assert [p for p in client.published if p.uri == uri and p.version == 1] == []
    client.text_document_did_save(lsp.DidSaveTextDocumentParams(lsp.TextDocumentIdentifier(uri)))
    pub = await wait_diags(client, uri)
    assert pub.version == 2 and not pub.diagnostics


async def test_configuration_change_reverifies(client: LanguageClient, tmp_path):
    await start(client, tmp_path, settings={"dataModel": "LP64"})
    uri = open_doc(client, tmp_path / "l.c", LONG)
    pub = await wait_diags(client, uri)
    assert len(pub.diagnostics) == 1 and pub.diagnostics[0].severity == lsp.DiagnosticSeverity.Error
    shown = len(await settled(client, uri))
    client.set_configuration({"cacheDir": str(tmp_path / "cache"), "dataModel": "ILP32"}, section="cbam")
    client.workspace_did_change_configuration(lsp.DidChangeConfigurationParams(settings=None))
    pub = await wait_diags(client, uri, after=shown)
    # ILP32: long is 32-bit, x + 1 overflows; cbam may not call it a violation it cannot back.
    assert all(d.severity != lsp.DiagnosticSeverity.Error for d in pub.diagnostics)


async def test_frontend_errors_and_non_c_files(client: LanguageClient, tmp_path):
    await start(client, tmp_path)
    uri = open_doc(client, tmp_path / "bad.c", "int main(void) {\n  int x = ;\n}\n")
    pub = await wait_diags(client, uri)
    assert pub.diagnostics[0].severity == lsp.DiagnosticSeverity.Error
    assert pub.diagnostics[0].range.start.line == 1
    assert pub.diagnostics[0].code == "syntax-error"
    uri = open_doc(client, tmp_path / "inc.c", "#include <nowhere.h>\nint main(void) { return 0; }\n")
    pub = await wait_diags(client, uri)
    [d] = pub.diagnostics
    assert d.code == "preprocessor-error" and "nowhere.h not found" in d.message
    txt = tmp_path / "notes.txt"
    txt.write_text("hello")
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(
        lsp.TextDocumentItem(uri=txt.as_uri(), language_id="plaintext", version=1, text="hello")))
    pub = await wait_diags(client, txt.as_uri())
    assert "not one" in pub.diagnostics[0].message
    assert pub.diagnostics[0].code == "not-verified"


async def test_a_syntax_error_says_assert_and_is_one_diagnostic(client: LanguageClient, tmp_path):
    await start(client, tmp_path)
    src = "#include <assert.h>\nint main(void) {\n  int x = 1\n  assert(x == 1);\n  return 0;\n}\n"
    uri = open_doc(client, tmp_path / "s.c", src)
    [d] = (await wait_diags(client, uri)).diagnostics
    assert d.code == "syntax-error" and d.severity == lsp.DiagnosticSeverity.Error
    assert "assert" in d.message and "__cbam" not in d.message
    # The range covers the word gcc points at.
    assert (d.range.start.line, d.range.start.character, d.range.end.character) == (3, 2, 8)


async def test_status_says_whether_results_are_current(client: LanguageClient, tmp_path):
    await start(client, tmp_path, status=True)
    path = tmp_path / "b.c"
    uri = open_doc(client, path, BUGGY)
    pub = await wait_diags(client, uri)
    assert [d.code for d in pub.diagnostics] == ["violation"]
    shown = len(await settled(client, uri))
    await asyncio.sleep(0.2)
    assert client.statuses == [(uri, "verifying"), (uri, "done")]
    # An edit without a save: the results are for the old text, and the lenses say so.
    client.text_document_did_change(lsp.DidChangeTextDocumentParams(
        lsp.VersionedTextDocumentIdentifier(uri=uri, version=2),
        [lsp.TextDocumentContentChangeWholeDocument(text=SAFE)]))
    await asyncio.sleep(0.3)
    assert client.statuses[-1] == (uri, "outdated")
    lenses = await client.text_document_code_lens_async(lsp.CodeLensParams(lsp.TextDocumentIdentifier(uri)))
    claims = [lens.command.title for lens in lenses if "✓" in lens.command.title or "✗" in lens.command.title]
    assert len(claims) == 2 and all("before your last edits" in t for t in claims), claims
    path.write_text(SAFE)
    client.text_document_did_save(lsp.DidSaveTextDocumentParams(lsp.TextDocumentIdentifier(uri)))
    pub = await wait_diags(client, uri, after=shown)
    assert pub.version == 2 and not pub.diagnostics
    await asyncio.sleep(0.2)
    assert client.statuses[-2:] == [(uri, "verifying"), (uri, "done")]


async def test_invalid_settings_are_reported_and_saving_still_verifies(client: LanguageClient, tmp_path):
    """The VS Code extension once sent trigger "open/save", which the server kept, and then
    verified nothing on save: the editor showed the old result as current."""
    await start(client, tmp_path, settings={"trigger": "open/save", "timeout": "soon"})
    path = tmp_path / "b.c"
    uri = open_doc(client, path, SAFE)
    assert not (await wait_diags(client, uri)).diagnostics
    messages = [m.message for m in client.log_messages]
    assert any("cbam.trigger" in m and "open/save" in m for m in messages), messages
    assert any("cbam.timeout" in m for m in messages), messages
    # A settings change (still with the bad value), then the bug saved: it is verified and shown.
    client.set_configuration({"cacheDir": str(tmp_path / "cache"), "trigger": "open/save", "timeout": 31},
                             section="cbam")
    client.workspace_did_change_configuration(lsp.DidChangeConfigurationParams(settings=None))
    await wait_diags(client, uri, after=1)
    path.write_text(BUGGY)
    client.text_document_did_change(lsp.DidChangeTextDocumentParams(
        lsp.VersionedTextDocumentIdentifier(uri=uri, version=2),
        [lsp.TextDocumentContentChangeWholeDocument(text=BUGGY)]))
    client.text_document_did_save(lsp.DidSaveTextDocumentParams(lsp.TextDocumentIdentifier(uri)))
    pub = await wait_diags(client, uri, after=2)
    assert pub.version == 2 and [d.code for d in pub.diagnostics] == ["violation"]


async def test_hover_reads_the_cache_the_worker_wrote(client: LanguageClient, tmp_path, monkeypatch):
    """An empty cacheDir is the user's cache for hover as for the workers (it once opened a
    cache in the server's working directory, and found nothing there)."""
    await start(client, tmp_path, settings={"cacheDir": ""})
    uri = open_doc(client, tmp_path / "s.c", SAFE)
    assert not (await wait_diags(client, uri)).diagnostics
    hover = await client.text_document_hover_async(lsp.HoverParams(lsp.TextDocumentIdentifier(uri),
                                                                   lsp.Position(0, 5)))
    assert "`\\result == 42`" in hover.contents.value, hover.contents.value
    assert not list(tmp_path.glob("summaries.sqlite*")) and not list(Path.cwd().glob("summaries.sqlite*"))


def _children(pid: int) -> list[int]:
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                out.append(int(entry))
    return out


async def test_recovers_after_a_worker_crash(client: LanguageClient, tmp_path):
    if not Path("/proc").exists():
        pytest.skip("needs /proc to find the worker")
    await start(client, tmp_path, settings={"timeout": 120})
    path = tmp_path / "c.c"
    uri = open_doc(client, path, SLOW)
    await asyncio.sleep(2.0)
    server_pid = client._server.pid  # type: ignore[attr-defined]
    # A worker is a multiprocessing "spawn" child of the server (its command line names no cbam).
    workers = [p for p in _children(server_pid) if b"spawn_main" in Path(f"/proc/{p}/cmdline").read_bytes()]
    assert workers, "no worker process"
    for w in workers:
        os.kill(w, signal.SIGKILL)
    pub = await wait_diags(client, uri)
    assert any("worker" in d.message for d in pub.diagnostics)
    path.write_text(SAFE)
    client.text_document_did_change(lsp.DidChangeTextDocumentParams(
        lsp.VersionedTextDocumentIdentifier(uri=uri, version=2),
        [lsp.TextDocumentContentChangeWholeDocument(text=SAFE)]))
    client.text_document_did_save(lsp.DidSaveTextDocumentParams(lsp.TextDocumentIdentifier(uri)))
    pub = await wait_diags(client, uri, after=1)
    assert pub.version == 2 and not pub.diagnostics


async def test_commands(client: LanguageClient, tmp_path):
    await start(client, tmp_path)
    uri = open_doc(client, tmp_path / "b.c", BUGGY)
    await wait_diags(client, uri)
    res = await client.workspace_execute_command_async(lsp.ExecuteCommandParams("cbam.verifyFunction",
                                                                                [uri, "average"]))
    assert res["verdict"] == "TRUE"
    res = await client.workspace_execute_command_async(lsp.ExecuteCommandParams("cbam.reverifyFromScratch", [uri]))
    assert res["verdict"] == "FALSE"
    res = await client.workspace_execute_command_async(lsp.ExecuteCommandParams("cbam.clearCache", []))
    assert res["cleared"] > 0  # the runs above filled the configured cache
    res = await client.workspace_execute_command_async(lsp.ExecuteCommandParams("cbam.clearCache", []))
    assert res["cleared"] == 0
    res = await client.workspace_execute_command_async(lsp.ExecuteCommandParams("cbam.verifyFile", [uri]))
    assert res["verdict"] == "FALSE"


async def test_entry_points_without_main(client: LanguageClient, tmp_path):
    await start(client, tmp_path)
    src = ("extern void reach_error(void);\nint helper(int x) { return x + 1; }\n"
           "void check(int a) {\n  if (helper(a) == 8) reach_error();\n}\n")
    uri = open_doc(client, tmp_path / "lib.c", src)
    pub = await wait_diags(client, uri)
    assert len(pub.diagnostics) == 1
    d = pub.diagnostics[0]
    assert "entry check, with arbitrary arguments" in d.message
    assert any(r.message == "a = 7 (input)" for r in d.related_information)


async def test_progress_is_reported_and_cancellable(client: LanguageClient, tmp_path):
    await start(client, tmp_path, settings={"timeout": 120})
    uri = open_doc(client, tmp_path / "slow.c", SLOW)
    token = None
    for _ in range(100):
        await asyncio.sleep(0.1)
        begun = [t for t, reports in client.progress_reports.items()
                 if any(isinstance(r, lsp.WorkDoneProgressBegin) for r in reports)]
        if begun:
            token = begun[0]
            break
    assert token is not None, "no work-done progress for a slow analysis"
    begin = client.progress_reports[token][0]
    assert begin.cancellable and begin.title.startswith("cbam")
    client.window_work_done_progress_cancel(lsp.WorkDoneProgressCancelParams(token=token))
    pub = await wait_diags(client, uri, timeout=20)
    assert "cancelled" in pub.diagnostics[0].message
    for _ in range(50):
        if any(isinstance(r, lsp.WorkDoneProgressEnd) for r in client.progress_reports[token]):
            break
        await asyncio.sleep(0.1)
    assert any(isinstance(r, lsp.WorkDoneProgressEnd) for r in client.progress_reports[token])


async def test_cancel_request_stops_the_analysis(client: LanguageClient, tmp_path):
    await start(client, tmp_path, settings={"timeout": 120, "trigger": "manual"})
    path = tmp_path / "slow.c"
    uri = open_doc(client, path, SLOW)
    fut = client.protocol.send_request(lsp.WORKSPACE_EXECUTE_COMMAND,
                                       lsp.ExecuteCommandParams("cbam.verifyFile", [uri]), msg_id="verify-1")
    await asyncio.sleep(1.5)
    client.protocol.notify("$/cancelRequest", lsp.CancelParams(id="verify-1"))
    from pygls.exceptions import JsonRpcRequestCancelled

    with pytest.raises(JsonRpcRequestCancelled):
        await asyncio.wait_for(asyncio.wrap_future(fut), 20)
    # The worker is free again at once: the slow job was killed, not left running.
    path.write_text(SAFE)
    client.text_document_did_change(lsp.DidChangeTextDocumentParams(
        lsp.VersionedTextDocumentIdentifier(uri=uri, version=2),
        [lsp.TextDocumentContentChangeWholeDocument(text=SAFE)]))
    t0 = asyncio.get_running_loop().time()
    res = await asyncio.wait_for(client.workspace_execute_command_async(
        lsp.ExecuteCommandParams("cbam.verifyFile", [uri])), 60)
    assert res["verdict"] == "TRUE"
    # (seconds on a quiet machine; a slow job left running for its 120 s, not a slow machine,
    # breaks this bound)
    assert asyncio.get_running_loop().time() - t0 < 60


async def test_verify_on_change_with_debounce(client: LanguageClient, tmp_path):
    await start(client, tmp_path, settings={"trigger": "change", "debounceMs": 300})
    uri = open_doc(client, tmp_path / "t.c", SAFE)
    first = await wait_diags(client, uri)
    assert not first.diagnostics
    # Three quick edits, no save: one verification, of the last version only.
    for version in (2, 3, 4):
        client.text_document_did_change(lsp.DidChangeTextDocumentParams(
            lsp.VersionedTextDocumentIdentifier(uri=uri, version=version),
            [lsp.TextDocumentContentChangeWholeDocument(text=BUGGY)]))
        await asyncio.sleep(0.05)
    pub = await wait_diags(client, uri, after=1)
    assert pub.version == 4 and len(pub.diagnostics) == 1
    pubs = await settled(client, uri)
    await asyncio.sleep(1.0)
    # The violation as confirmed, then as replayed: both of version 4.
    assert [p.version for p in client.published if p.uri == uri] == [1, 4, 4]
    assert pubs[-1].diagnostics[0].data["replay"]["status"] == "replayed"


async def test_compile_commands_supply_includes_and_defines(client: LanguageClient, tmp_path):
    inc = tmp_path / "inc"
    inc.mkdir()
    (inc / "limits_app.h").write_text("#define APP_LIMIT 7\n")
    src = ('#include "limits_app.h"\nextern void reach_error(void);\n'
           "int main(void) {\n  if (APP_LIMIT + EXTRA == 10) reach_error();\n  return 0;\n}\n")
    path = tmp_path / "app.c"
    path.write_text(src)
    # Only -I, -D, -U, -include and -std are taken; the command itself is never run.
    entry = {"directory": str(tmp_path), "file": "app.c",
             "command": f"touch {tmp_path}/pwned && cc -Iinc -DEXTRA=3 -c app.c"}
    (tmp_path / "compile_commands.json").write_text(json.dumps([entry]))
    await start(client, tmp_path)
    uri = open_doc(client, path, src)
    pub = await wait_diags(client, uri)
    assert len(pub.diagnostics) == 1 and pub.diagnostics[0].severity == lsp.DiagnosticSeverity.Error
    assert pub.diagnostics[0].data["cached"] is False
    assert not (tmp_path / "pwned").exists()


async def test_a_file_of_a_project_is_verified_with_the_files_it_calls_into(client: LanguageClient, tmp_path):
    # compile_commands.json compiles the library and its test program: the test program is
    # verified with the library linked in, its error path steps into the library's file, hover
    # works on a call of a function the other file defines, and saving the library verifies the
    # open test program again.
    linked = ROOT / "tests" / "programs" / "linked"
    for name in ("stack.h", "stack.c"):
        (tmp_path / name).write_text((linked / name).read_text())
    main_text = (linked / "stack_main.c").read_text()
    (tmp_path / "compile_commands.json").write_text(json.dumps([
        {"directory": str(tmp_path), "file": f, "arguments": ["cc", "-c", f]} for f in ("stack.c", "stack_main.c")]))
    await start(client, tmp_path)
    uri = open_doc(client, tmp_path / "stack_main.c", main_text)
    pubs = await settled(client, uri, timeout=120)
    [d] = [d for d in pubs[-1].diagnostics if d.code == "violation"]
    assert d.range.start.line == 23  # assert(v == last)
    assert (tmp_path / "stack.c").as_uri() in {r.location.uri for r in d.related_information}
    assert d.data["replay"]["status"] == "replayed", d.data
    call = main_text.splitlines().index("    stack_init(&s);")
    hover = await client.text_document_hover_async(lsp.HoverParams(lsp.TextDocumentIdentifier(uri),
                                                                   lsp.Position(call, 6)))
    assert hover is not None and "stack_init" in hover.contents.value
    # A full stack now keeps the newest value on top: the test program's assertions hold. Saved
    # (not open here), the library's change reaches the open test program.
    lib = tmp_path / "stack.c"
    lib.write_text(lib.read_text().replace("    if (room(s) == 0)\n        return 0;",
                                           "    if (room(s) == 0) {\n        s->items[s->size - 1] = v;\n"
                                           "        return 0;\n    }"))
    before = len([p for p in client.published if p.uri == uri])
    client.text_document_did_save(lsp.DidSaveTextDocumentParams(lsp.TextDocumentIdentifier(lib.as_uri())))
    await wait_diags(client, uri, timeout=120, after=before)
    deadline = asyncio.get_running_loop().time() + 120
    while [d for d in [p for p in client.published if p.uri == uri][-1].diagnostics if d.code == "violation"]:
        assert asyncio.get_running_loop().time() < deadline, "the test program kept the old library's violation"
        await asyncio.sleep(0.1)


async def test_huge_and_binary_files_get_a_clear_message(client: LanguageClient, tmp_path):
    await start(client, tmp_path)
    big = "int x;\n" * 400_000
    uri = open_doc(client, tmp_path / "big.c", big)
    pub = await wait_diags(client, uri)
    assert "larger than" in pub.diagnostics[0].message
    blob = "int\0main"
    uri = open_doc(client, tmp_path / "blob.c", blob)
    pub = await wait_diags(client, uri)
    assert "binary" in pub.diagnostics[0].message


def test_tcp_transport(tmp_path):
    import json as _json
    import socket
    import subprocess as sp
    import time as _time

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = sp.Popen([sys.executable, "-m", "cbam", "lsp", "--tcp", f"127.0.0.1:{port}"])
    try:
        deadline = _time.monotonic() + 30
        while True:
            try:
                conn = socket.create_connection(("127.0.0.1", port), timeout=5)
                break
            except OSError:
                assert _time.monotonic() < deadline, "the server did not listen"
                _time.sleep(0.2)
        body = _json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                            "params": {"processId": None, "rootUri": None, "capabilities": {}}}).encode()
        conn.sendall(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        data = b""
        while b"serverInfo" not in data or not data.rstrip().endswith(b"}"):
            chunk = conn.recv(65536)
            assert chunk, "connection closed"
            data += chunk
        reply = _json.loads(data.split(b"\r\n\r\n", 1)[1])
        assert reply["id"] == 1 and reply["result"]["serverInfo"]["name"] == "cbam"
        assert reply["result"]["capabilities"]["hoverProvider"]
        conn.close()
    finally:
        proc.kill()
        proc.wait()


def test_the_extension_knows_every_document_status():
    import re

    from cbam.server.state import DocStatus

    ts = (Path(__file__).resolve().parents[1] / "vscode-extension" / "src" / "codes.ts").read_text()
    m = re.search(r"export type DocState = ([^;]+);", ts)
    assert m is not None
    assert set(re.findall(r'"([a-z-]+)"', m.group(1))) == {s.value for s in DocStatus}


async def test_violations_are_streamed_as_they_are_confirmed(client: LanguageClient, tmp_path):
    """The first violation is published the moment it is confirmed, while the search goes on
    (status still "verifying", progress says so); the second follows; the final publication
    has both, for the same version."""
    await start(client, tmp_path, settings={"timeout": 120, "extraSearchSeconds": 120}, status=True)
    uri = open_doc(client, tmp_path / "two.c", TWO_VIOLATIONS)
    first = await wait_diags(client, uri, timeout=60)
    assert [d.range.start.line for d in first.diagnostics] == [14]
    assert first.version == 1
    statuses = [s for u, s in client.statuses if u == uri]
    assert statuses[-1] == "verifying", "the first violation must arrive before the search ends"
    second = await wait_diags(client, uri, timeout=90, after=1)
    assert sorted(d.range.start.line for d in second.diagnostics) == [12, 14]
    for _ in range(300):
        if [s for u, s in client.statuses if u == uri][-1] == "done":
            break
        await asyncio.sleep(0.1)
    final = [p for p in client.published if p.uri == uri][-1]
    assert sorted(d.range.start.line for d in final.diagnostics) == [12, 14] and final.version == 1
    reports = [r for rs in client.progress_reports.values() for r in rs if isinstance(r, lsp.WorkDoneProgressReport)]
    assert any("1 violation found, searching for more" in (r.message or "") for r in reports)


async def test_a_new_edit_stops_the_stream(client: LanguageClient, tmp_path):
    """After the first violation is shown, an edit cancels the search: nothing computed on the
    old text is published afterwards."""
    await start(client, tmp_path, settings={"timeout": 120, "extraSearchSeconds": 120, "trigger": "save"}, status=True)
    path = tmp_path / "two.c"
    uri = open_doc(client, path, TWO_VIOLATIONS)
    await wait_diags(client, uri, timeout=60)
    fixed = TWO_VIOLATIONS.replace("    reach_error();\n  }", "    x = 0;\n  }")
    client.text_document_did_change(lsp.DidChangeTextDocumentParams(
        lsp.VersionedTextDocumentIdentifier(version=2, uri=uri), [lsp.TextDocumentContentChangeWholeDocument(text=fixed)]))
    path.write_text(fixed)
    client.text_document_did_save(lsp.DidSaveTextDocumentParams(lsp.TextDocumentIdentifier(uri)))
    for _ in range(600):
        pubs = [p for p in client.published if p.uri == uri]
        if pubs[-1].version == 2 and [s for u, s in client.statuses if u == uri][-1:] != ["verifying"]:
            break
        await asyncio.sleep(0.1)
    pubs = [p for p in client.published if p.uri == uri]
    after_edit = pubs[[p.version for p in pubs].index(2):]
    assert all(p.version == 2 for p in after_edit), "a result for the old text was published after the edit"
    assert [d.range.start.line for d in after_edit[-1].diagnostics] == [12]


async def test_memory_errors_and_pointer_entries_in_the_editor(client: LanguageClient, tmp_path):
    """A library function taking pointers (an entry: its parameter points to a fresh object) with
    an assertion over memory, then the memory-safety setting: a double free is shown at the
    faulty free, as its own kind."""
    await start(client, tmp_path)
    src = ("#include <assert.h>\n#include <stdlib.h>\n"
           "struct acc { int total; int count; };\n"
           "void add(struct acc *a, int v) {\n"
           "  if (v < 0 || v > 9 || a->count < 0 || a->count > 3) return;\n"
           "  a->count++;\n"
           "  assert(a->count < 4);\n"
           "}\n"
           "void twice(int n) {\n"
           "  int *p = malloc(sizeof *p);\n"
           "  free(p);\n"
           "  if (n == 3) free(p);\n"
           "}\n")
    uri = open_doc(client, tmp_path / "acc.c", src)
    pub = await wait_diags(client, uri)
    assert [d.range.start.line for d in pub.diagnostics] == [6]
    assert "entry add, with arbitrary arguments" in pub.diagnostics[0].message
    client.set_configuration({"cacheDir": str(tmp_path / "cache"), "property": "memsafety"}, section="cbam")
    client.workspace_did_change_configuration(lsp.DidChangeConfigurationParams(settings=None))
    deadline = asyncio.get_running_loop().time() + 60
    while True:
        pubs = [p for p in client.published if p.uri == uri]
        lines = [d.range.start.line for d in pubs[-1].diagnostics]
        if lines == [11]:
            break
        assert asyncio.get_running_loop().time() < deadline, f"no memory-safety diagnostic: {lines}"
        await asyncio.sleep(0.05)
    d = pubs[-1].diagnostics[0]
    assert d.data["kind"] == "valid-free" and "free(p)" in d.message


# Read before it is written: the path check finds x == 123456789 feasible, the harness has no say
# over the stack, and gcc's run does not reach the error (engine/cex/native_replay.py).
NOT_REPLAYING = """extern void reach_error(void);
int main(void) {
  int x;
  if (x == 123456789) reach_error();
  return 0;
}
"""
_KEPT = Path(tempfile.mkdtemp(prefix="cbam-lsp-replays-"))


@pytest_lsp.fixture(config=config(server_env={**os.environ, "CBAM_REPLAY_DIR": str(_KEPT)}))
async def client_replay(lsp_client: LanguageClient):
    yield lsp_client
    await lsp_client.shutdown_session()


async def _final(client: LanguageClient, uri: str, timeout: float = 90) -> list:
    """The document's publications once its status is done."""
    deadline = asyncio.get_running_loop().time() + timeout
    while [s for u, s in client.statuses if u == uri][-1:] != ["done"]:
        assert asyncio.get_running_loop().time() < deadline, "the verification did not end"
        await asyncio.sleep(0.05)
    return [p for p in client.published if p.uri == uri]


@pytest.mark.skipif(shutil.which("gcc") is None, reason="gcc is not installed")
async def test_a_violation_is_marked_replayed_once_its_run_shows_it(client: LanguageClient, tmp_path):
    await start(client, tmp_path, status=True)
    uri = open_doc(client, tmp_path / "b.c", BUGGY)
    pubs = await _final(client, uri)
    shown = [d for p in pubs for d in p.diagnostics]
    assert any(d.data.get("replay", {}).get("status") == "pending" and d.message.endswith("[replaying]") for d in shown)
    (final,) = pubs[-1].diagnostics
    assert final.code == "violation" and final.range.start.line == 11
    assert final.data["replay"]["status"] == "replayed" and final.message.endswith("[replayed]")


@pytest.mark.skipif(shutil.which("gcc") is None, reason="gcc is not installed")
async def test_a_violation_its_run_does_not_show_is_withdrawn(client_replay: LanguageClient, tmp_path):
    """Shown as soon as the path check confirms it, then replaced by the UNKNOWN that names the
    kept evidence once gcc's run of it does not reach the error."""
    await start(client_replay, tmp_path, status=True)
    uri = open_doc(client_replay, tmp_path / "u.c", NOT_REPLAYING)
    pubs = await _final(client_replay, uri)
    assert all(p.version == 1 for p in pubs)
    early = [d for p in pubs[:-1] for d in p.diagnostics if d.code == "violation"]
    assert early and all(d.range.start.line == 3 for d in early)
    assert any(d.data.get("replay", {}).get("status") == "pending" for d in early)
    (final,) = pubs[-1].diagnostics
    assert final.code == "unknown" and final.range.start.line == 3
    assert final.data["reason"] == "replay-disagrees" and final.data["replay"]["status"] == "disagrees"
    kept = Path(final.data["replay"]["kept"])
    assert kept.parent == _KEPT and str(kept) in final.message
    assert (kept / "u.c").read_text() == NOT_REPLAYING and (kept / "outcome.json").is_file()
