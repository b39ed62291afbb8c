"""Language-server latency, measured through a real LSP client (pygls) on the generated
100-function program (bench/incremental_bench.py), in its failing and its passing variant.

For each variant and round, from one language server with an empty cache:

* cold open: didOpen -> first diagnostics, and -> the end of the run (status "done");
* unchanged re-save: didSave -> diagnostics;
* one-function edit + save (a leaf's constant): didChange+didSave -> first diagnostics, and
  -> the end of the run; for the failing variant, -> the first published violation;
* hover and code lens latency while another document is being analysed.

Ratios are to the cold open of the same round (first diagnostics to first diagnostics, end to
end); the tables give medians over rounds. Targets (issue 18): edit -> first diagnostics at
most 10 % of a cold open, re-save at most 1 %, the first violation within 1 s of an edit,
hover and code lens p95 at most 50 ms.

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


class Events:
    """Every publication and status change, with its time, for the waits below."""

    def __init__(self) -> None:
        self.items: list[tuple[float, str, str, object]] = []  # (time, uri, kind, payload)
        self.changed = asyncio.Event()

    def add(self, uri: str, kind: str, payload: object) -> None:
        self.items.append((time.monotonic(), uri, kind, payload))
        self.changed.set()

    async def wait(self, pred, since: int, timeout: float = 900) -> float:
        """The time of the first event after index ``since`` that satisfies ``pred``."""
        deadline = time.monotonic() + timeout
        while True:
            for t, uri, kind, payload in self.items[since:]:
                if pred(uri, kind, payload):
                    return t
            self.changed.clear()
            await asyncio.wait_for(self.changed.wait(), max(0.01, deadline - time.monotonic()))


async def one_round(tmp: Path, failing: bool) -> dict[str, float | list[float]]:
    client = LanguageClient("cbam-bench", "1")
    events = Events()

    @client.feature(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def on_diags(params: lsp.PublishDiagnosticsParams) -> None:
        violations = [d for d in params.diagnostics if d.code == "violation"]
        events.add(params.uri, "diagnostics", len(violations))

    @client.feature("cbam/status")
    def on_status(params) -> None:
        events.add(params.uri, "status", params.state)

    @client.feature(lsp.WORKSPACE_CONFIGURATION)
    def on_config(params: lsp.ConfigurationParams):
        return [{"cacheDir": str(tmp / "cache"), "timeout": 600}]

    @client.feature(lsp.WINDOW_WORK_DONE_PROGRESS_CREATE)
    def on_progress_create(params) -> None:
        return None

    await client.start_io(sys.executable, "-m", "cbam", "lsp")
    caps = lsp.ClientCapabilities(
        workspace=lsp.WorkspaceClientCapabilities(configuration=True),
        text_document=lsp.TextDocumentClientCapabilities(
            publish_diagnostics=lsp.PublishDiagnosticsClientCapabilities(related_information=True)),
        experimental={"cbamStatus": True})
    await client.initialize_async(lsp.InitializeParams(capabilities=caps, root_uri=tmp.as_uri()))
    client.initialized(lsp.InitializedParams())
    await asyncio.sleep(1.0)  # the spare worker imports the engine

    path = tmp / "gen.c"
    uri = path.as_uri()

    async def timed(action, violation: bool = False) -> tuple[float, float, float | None]:
        """(-> first diagnostics, -> status done, -> first diagnostics with a violation)."""
        since = len(events.items)
        t0 = time.monotonic()
        action()
        first = await events.wait(lambda u, k, p: u == uri and k == "diagnostics", since)
        done = await events.wait(lambda u, k, p: u == uri and k == "status" and p == "done", since)
        found = None
        if violation:
            found = await events.wait(lambda u, k, p: u == uri and k == "diagnostics" and p > 0, since)
        return first - t0, done - t0, (found - t0 if found is not None else None)

    base = generate(failing=failing)
    path.write_text(base)
    log(f"{'failing' if failing else 'passing'}: cold open")
    cold, cold_done, _ = await timed(lambda: client.text_document_did_open(lsp.DidOpenTextDocumentParams(
        lsp.TextDocumentItem(uri, "c", 1, base))))
    resave, _, _ = await timed(lambda: client.text_document_did_save(lsp.DidSaveTextDocumentParams(
        lsp.TextDocumentIdentifier(uri))))
    edited = generate(leaf_const=4, failing=failing)
    path.write_text(edited)

    def change_and_save() -> None:
        client.text_document_did_change(lsp.DidChangeTextDocumentParams(
            lsp.VersionedTextDocumentIdentifier(version=2, uri=uri), [lsp.TextDocumentContentChangeWholeDocument(text=edited)]))
        client.text_document_did_save(lsp.DidSaveTextDocumentParams(lsp.TextDocumentIdentifier(uri)))

    edit, edit_done, edit_violation = await timed(change_and_save, violation=failing)
    log(f"cold {cold:.2f}/{cold_done:.2f} s, re-save {resave:.3f} s, edit {edit:.3f}/{edit_done:.3f} s")
    # Hovers and code lenses while another document is being analysed.
    slow = tmp / "slow.c"
    slow.write_text(SLOW)
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(lsp.TextDocumentItem(slow.as_uri(), "c", 1, SLOW)))
    await asyncio.sleep(1.0)
    hovers, lenses = [], []
    line = next(i for i, t in enumerate(edited.splitlines()) if t.startswith("int f5_0("))
    for _ in range(40):
        t0 = time.monotonic()
        await client.text_document_hover_async(lsp.HoverParams(lsp.TextDocumentIdentifier(uri), lsp.Position(line, 5)))
        hovers.append(1000 * (time.monotonic() - t0))
        t0 = time.monotonic()
        await client.text_document_code_lens_async(lsp.CodeLensParams(lsp.TextDocumentIdentifier(uri)))
        lenses.append(1000 * (time.monotonic() - t0))
        await asyncio.sleep(0.02)
    await asyncio.wait_for(client.shutdown_async(None), 30)
    client.exit(None)
    try:
        await asyncio.wait_for(client.stop(), 30)
    except TimeoutError:
        pass
    return {"cold": cold, "cold_done": cold_done, "resave": resave, "edit": edit, "edit_done": edit_done,
            "edit_violation": edit_violation if edit_violation is not None else float("nan"),
            "hovers": hovers, "lenses": lenses}


def p95(xs: list[float]) -> float:
    xs = sorted(xs)
    return xs[int(0.95 * (len(xs) - 1))]


def report(name: str, results: list[dict], failing: bool) -> list[str]:
    def med(key: str) -> float:
        return statistics.median(r[key] for r in results)

    def ratio(key: str, ref: str) -> float:
        return statistics.median(r[key] / r[ref] for r in results)

    lines = [f"### {name} ({len(results)} rounds)", "",
             "| measurement | median | ratio to cold open (median of rounds) | target |", "|---|---:|---:|---|",
             f"| cold open -> first diagnostics | {med('cold'):.2f} s | 1.000 | |",
             f"| cold open -> end of the run | {med('cold_done'):.2f} s | 1.000 | |",
             f"| unchanged re-save -> diagnostics | {med('resave'):.3f} s | {ratio('resave', 'cold'):.3f} | <= 0.01 |",
             f"| one-function edit + save -> first diagnostics | {med('edit'):.3f} s | {ratio('edit', 'cold'):.3f} "
             "| <= 0.10 |",
             f"| one-function edit + save -> end of the run | {med('edit_done'):.3f} s | "
             f"{ratio('edit_done', 'cold_done'):.3f} | |"]
    if failing:
        lines.append(f"| one-function edit + save -> first violation published | {med('edit_violation'):.3f} s | | "
                     "<= 1 s |")
    hovers = [h for r in results for h in r["hovers"]]
    lenses = [h for r in results for h in r["lenses"]]
    lines.append(f"| hover during a running analysis, p95 | {p95(hovers):.1f} ms | (median {statistics.median(hovers):.1f}"
                 f" ms, {len(hovers)} requests) | <= 50 ms |")
    lines.append(f"| code lens during a running analysis, p95 | {p95(lenses):.1f} ms | (median "
                 f"{statistics.median(lenses):.1f} ms, {len(lenses)} requests) | <= 50 ms |")
    return lines + [""]


async def main_async(rounds: int) -> None:
    out = []
    for failing in (True, False):
        results = []
        for _ in range(rounds):
            with tempfile.TemporaryDirectory() as d:
                results.append(await one_round(Path(d), failing))
        out += report("failing variant (one violation)" if failing else "passing variant (TRUE)", results, failing)
    print("\n".join(out))


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    asyncio.run(main_async(args.rounds))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
