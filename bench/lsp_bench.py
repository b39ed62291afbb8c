"""Language-server latency: didSave -> publishDiagnostics, and hover while analysing.

Reports, as ratios to a cold open of the generated 100-function program (median of
several rounds): an unchanged re-save, and an edit to one function. Also the p95
latency of hovers sent while an analysis is running (target: under 100 ms).

    python bench/lsp_bench.py [--rounds 3]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

from lsprotocol import types as lsp
from pygls.lsp.client import LanguageClient

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
from incremental_bench import generate  # noqa: E402


def log(msg: str) -> None:
    print(f"[lsp_bench] {msg}", file=sys.stderr, flush=True)


SLOW = "int main(void) { unsigned i = 0; while (i < 4000000000U) i++; return (int)i; }\n"


async def one_round(tmp: Path) -> dict[str, float | list[float]]:
    client = LanguageClient("cbam-bench", "1")
    published: dict[str, asyncio.Event] = {}

    @client.feature(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def on_diags(params: lsp.PublishDiagnosticsParams) -> None:
        ev = published.get(params.uri)
        if ev is not None:
            ev.set()

    @client.feature(lsp.WORKSPACE_CONFIGURATION)
    def on_config(params: lsp.ConfigurationParams):
        return [{"cacheDir": str(tmp / "cache"), "timeout": 600}]

    await client.start_io(sys.executable, "-m", "cbam", "lsp")
    caps = lsp.ClientCapabilities(
        workspace=lsp.WorkspaceClientCapabilities(configuration=True),
        text_document=lsp.TextDocumentClientCapabilities(
            publish_diagnostics=lsp.PublishDiagnosticsClientCapabilities(related_information=True)))
    await client.initialize_async(lsp.InitializeParams(capabilities=caps, root_uri=tmp.as_uri()))
    client.initialized(lsp.InitializedParams())
    await asyncio.sleep(0.5)

    path = tmp / "gen.c"
    uri = path.as_uri()

    async def timed(action) -> float:
        published[uri] = asyncio.Event()
        t0 = time.monotonic()
        action()
        await asyncio.wait_for(published[uri].wait(), 900)
        return time.monotonic() - t0

    base = generate()
    path.write_text(base)
    log("cold open")
    cold = await timed(lambda: client.text_document_did_open(lsp.DidOpenTextDocumentParams(
        lsp.TextDocumentItem(uri, "c", 1, base))))
    log(f"cold {cold:.2f}s; re-save")
    resave = await timed(lambda: client.text_document_did_save(lsp.DidSaveTextDocumentParams(
        lsp.TextDocumentIdentifier(uri))))
    edited = generate(leaf_const=4)
    path.write_text(edited)

    def change_and_save() -> None:
        client.text_document_did_change(lsp.DidChangeTextDocumentParams(
            lsp.VersionedTextDocumentIdentifier(version=2, uri=uri), [lsp.TextDocumentContentChangeWholeDocument(text=edited)]))
        client.text_document_did_save(lsp.DidSaveTextDocumentParams(lsp.TextDocumentIdentifier(uri)))

    log("edit")
    edit = await timed(change_and_save)
    log("hovers")
    # Hovers while another document is being analysed.
    slow = tmp / "slow.c"
    slow.write_text(SLOW)
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(lsp.TextDocumentItem(slow.as_uri(), "c", 1, SLOW)))
    await asyncio.sleep(1.0)
    hovers = []
    line = next(i for i, t in enumerate(edited.splitlines()) if t.startswith("int f5_0("))
    for _ in range(60):
        t0 = time.monotonic()
        await client.text_document_hover_async(lsp.HoverParams(lsp.TextDocumentIdentifier(uri), lsp.Position(line, 5)))
        hovers.append(1000 * (time.monotonic() - t0))
        await asyncio.sleep(0.02)
    log("shutdown")
    await asyncio.wait_for(client.shutdown_async(None), 30)
    client.exit(None)
    try:
        await asyncio.wait_for(client.stop(), 30)
    except TimeoutError:
        pass
    return {"cold": cold, "resave": resave, "edit": edit, "hovers": hovers}


async def main_async(rounds: int) -> None:
    results = []
    for _ in range(rounds):
        with tempfile.TemporaryDirectory() as d:
            results.append(await one_round(Path(d)))
    cold = statistics.median(r["cold"] for r in results)
    resave = statistics.median(r["resave"] for r in results)
    edit = statistics.median(r["edit"] for r in results)
    hovers = sorted(h for r in results for h in r["hovers"])
    p95 = hovers[int(0.95 * (len(hovers) - 1))]
    print("| measurement | median | ratio to cold open |")
    print("|---|---:|---:|")
    print(f"| cold open -> diagnostics | {cold:.2f} s | 1.000 |")
    print(f"| unchanged re-save -> diagnostics | {resave:.3f} s | {resave / cold:.3f} |")
    print(f"| one-function edit + save -> diagnostics | {edit:.3f} s | {edit / cold:.3f} |")
    print(f"| hover during a running analysis, p95 | {p95:.1f} ms | (median {statistics.median(hovers):.1f} ms, "
          f"{len(hovers)} hovers) |")


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    asyncio.run(main_async(args.rounds))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
