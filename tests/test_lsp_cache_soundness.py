"""Issue 22 as a user met it, through a real LSP client: open the 100-function program with one
failing assertion, rewrite one line of a leaf into an equivalent form, save. The error used to
disappear and the file was shown as verified (the editor searches for up to 20 violations, and
its pruned block summaries answered the edited program)."""

from __future__ import annotations

import asyncio
import shutil

import pytest_lsp
from lsprotocol import types as lsp
from pytest_lsp import LanguageClient

from .conftest import REPRO
from .test_lsp import config, open_doc, start, wait_diags


@pytest_lsp.fixture(config=config())
async def client(lsp_client: LanguageClient):
    yield lsp_client
    await lsp_client.shutdown_session()


async def _settled(client: LanguageClient, uri: str, version: int, since: int, timeout: float = 120):
    """The last publication for that document version, once the server says the document's
    results are current again (cbam/status "done" after the ``since``-th status)."""
    deadline = asyncio.get_running_loop().time() + timeout
    while asyncio.get_running_loop().time() < deadline:
        done = [s for u, s in client.statuses[since:] if u == uri and s == "done"]
        pubs = [p for p in client.published if p.uri == uri and p.version == version]
        if done and pubs:
            return pubs[-1]
        await asyncio.sleep(0.1)
    raise TimeoutError(f"no settled diagnostics for version {version} of {uri}")


def _errors(pub) -> list:
    return [d for d in pub.diagnostics if d.severity == lsp.DiagnosticSeverity.Error]


async def test_equivalent_edit_of_a_leaf_keeps_the_error(client: LanguageClient, tmp_path):
    await start(client, tmp_path, settings={"timeout": 60}, status=True)
    path = tmp_path / "prog.c"
    shutil.copy(REPRO / "wrong_true_v1.c", path)
    uri = open_doc(client, path, path.read_text())
    first = await wait_diags(client, uri, timeout=120)
    assert len(_errors(first)) == 1, [d.message for d in first.diagnostics]
    line = _errors(first)[0].range.start.line
    edited = (REPRO / "wrong_true_v2.c").read_text()
    path.write_text(edited)
    client.text_document_did_change(lsp.DidChangeTextDocumentParams(
        lsp.VersionedTextDocumentIdentifier(uri=uri, version=2),
        [lsp.TextDocumentContentChangeWholeDocument(text=edited)]))
    since = len(client.statuses)
    client.text_document_did_save(lsp.DidSaveTextDocumentParams(lsp.TextDocumentIdentifier(uri)))
    after = await _settled(client, uri, 2, since)
    assert len(_errors(after)) == 1, "the failing assertion is no longer shown after an equivalent edit"
    assert _errors(after)[0].range.start.line == line
