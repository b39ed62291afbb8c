"""The editor's time to the first diagnostic on SV-COMP tasks, for one or more checkouts side
by side (issue 20: "the editor's time to the first diagnostic on the shared tasks does not get
worse").

For each checkout a language server (its own ``.venv``, ``python -m cbam lsp``) with an empty
cache; one server per data model, as the editor's ``dataModel`` setting is per workspace. Each
task's source is opened in every server at the same moment (the servers share the machine's
load equally), and the script waits for each one's first ``publishDiagnostics`` for it and for
the end of its run (status ``done``), then closes it. The first diagnostics are what a user
sees first: the first confirmed violation, or the final answer.

    python bench/editor_bench.py --root /work/old --root /work/new [--timeout 30] [--filter loops/]
        [--out bench/reports/editor.md]
"""

from __future__ import annotations

import argparse
import asyncio
import csv
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

from lsprotocol import types as lsp
from pygls.lsp.client import LanguageClient

ROOT = Path(__file__).resolve().parents[1]
SVCOMP = ROOT.parent / "shared" / "svcomp"


def log(msg: str) -> None:
    print(f"[editor_bench] {msg}", file=sys.stderr, flush=True)


class Server:
    """One language server of one checkout, and what it published, per URI."""

    def __init__(self, root: Path, cache: Path, data_model: str, timeout: float):
        self.root = root
        self.client = LanguageClient("cbam-editor-bench", "1")
        self.first: dict[str, float] = {}
        self.done: dict[str, float] = {}
        self.violations: dict[str, int] = {}
        self.changed = asyncio.Event()
        client = self.client

        @client.feature(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def on_diags(params: lsp.PublishDiagnosticsParams) -> None:
            self.first.setdefault(params.uri, time.monotonic())
            self.violations[params.uri] = sum(1 for d in params.diagnostics if d.code == "violation")
            self.changed.set()

        @client.feature("cbam/status")
        def on_status(params) -> None:
            if params.state == "done":
                self.done.setdefault(params.uri, time.monotonic())
                self.changed.set()

        @client.feature(lsp.WORKSPACE_CONFIGURATION)
        def on_config(params: lsp.ConfigurationParams):
            return [{"cacheDir": str(cache), "timeout": timeout, "dataModel": data_model}] * len(params.items)

        @client.feature(lsp.WINDOW_WORK_DONE_PROGRESS_CREATE)
        def on_progress_create(params) -> None:
            return None

    async def start(self, workspace: Path) -> None:
        await self.client.start_io(str(self.root / ".venv" / "bin" / "python"), "-m", "cbam", "lsp")
        caps = lsp.ClientCapabilities(
            workspace=lsp.WorkspaceClientCapabilities(configuration=True),
            text_document=lsp.TextDocumentClientCapabilities(
                publish_diagnostics=lsp.PublishDiagnosticsClientCapabilities(related_information=True)),
            experimental={"cbamStatus": True})
        await self.client.initialize_async(lsp.InitializeParams(capabilities=caps, root_uri=workspace.as_uri()))
        self.client.initialized(lsp.InitializedParams())

    async def wait(self, table: dict[str, float], uri: str, limit: float) -> float | None:
        deadline = time.monotonic() + limit
        while uri not in table:
            self.changed.clear()
            try:
                await asyncio.wait_for(self.changed.wait(), max(0.01, deadline - time.monotonic()))
            except TimeoutError:
                return None
        return table[uri]

    async def stop(self) -> None:
        try:
            await asyncio.wait_for(self.client.shutdown_async(None), 30)
            self.client.exit(None)
            await asyncio.wait_for(self.client.stop(), 30)
        except (TimeoutError, Exception):  # a server that does not stop cleanly has done its work
            pass


def tasks(svcomp: Path, only: str | None) -> list[tuple[str, Path, str, str]]:
    """(task, source, data model, expected verdict) per unreach-call task of the index."""
    out = []
    with open(svcomp / "INDEX.tsv") as f:
        for row in csv.DictReader(f, delimiter="\t"):
            task = row["task_yml_path"]
            if only and only not in task:
                continue
            out.append((task.removeprefix("c/").removesuffix(".yml"), svcomp / row["source_file"],
                        row["data_model"] or "LP64", row["expected_verdict"]))
    return out


async def run(roots: list[Path], svcomp: Path, timeout: float, only: str | None) -> list[dict]:
    rows = []
    by_model: dict[str, list] = defaultdict(list)
    for t in tasks(svcomp, only):
        by_model[t[2]].append(t)
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        for model, items in sorted(by_model.items()):
            servers = [Server(r, tmp / f"cache{i}-{model}", model, timeout) for i, r in enumerate(roots)]
            for s in servers:
                await s.start(tmp)
            await asyncio.sleep(2.0)  # the spare workers import the engine
            for n, (task, source, _, expected) in enumerate(items):
                # A file per task and server, named like the task (the report says where).
                text = source.read_text(errors="replace")
                uris = []
                for i in range(len(servers)):
                    path = tmp / f"s{i}" / task.replace("/", "__") / source.name
                    path.parent.mkdir(parents=True, exist_ok=True)
                    path.write_text(text)
                    uris.append(path.as_uri())
                t0 = time.monotonic()
                for s, uri in zip(servers, uris):
                    s.client.text_document_did_open(lsp.DidOpenTextDocumentParams(
                        lsp.TextDocumentItem(uri, "c", 1, text)))
                firsts = await asyncio.gather(*(s.wait(s.first, u, timeout + 60) for s, u in zip(servers, uris)))
                dones = await asyncio.gather(*(s.wait(s.done, u, timeout + 60) for s, u in zip(servers, uris)))
                row = {"task": task, "expected": expected, "model": model}
                for i, (s, u, f, e) in enumerate(zip(servers, uris, firsts, dones)):
                    row[f"first{i}"] = None if f is None else f - t0
                    row[f"done{i}"] = None if e is None else e - t0
                    row[f"violations{i}"] = s.violations.get(u, 0)
                    s.client.text_document_did_close(lsp.DidCloseTextDocumentParams(lsp.TextDocumentIdentifier(u)))
                rows.append(row)
                log(f"{model} {n + 1}/{len(items)} {task}: " + ", ".join(
                    "-" if row[f"first{i}"] is None else f"{row[f'first{i}']:.2f}" for i in range(len(roots))))
            for s in servers:
                await s.stop()
    return rows


def _fmt(x: float | None) -> str:
    return "no answer" if x is None else f"{x:.2f}"


def report(rows: list[dict], roots: list[Path], labels: list[str], timeout: float) -> str:
    n = len(roots)
    out = [f"{len(rows)} tasks, editor time limit {timeout:g} s, one language server per checkout and data model, "
           "each task opened in all of them at once.", "",
           "| checkout | first diagnostics, median | mean | end of the run, median | tasks with a violation shown |",
           "|---|---:|---:|---:|---:|"]
    for i in range(n):
        firsts = [r[f"first{i}"] if r[f"first{i}"] is not None else timeout + 60 for r in rows]
        dones = [r[f"done{i}"] if r[f"done{i}"] is not None else timeout + 60 for r in rows]
        shown = sum(1 for r in rows if r[f"violations{i}"])
        out.append(f"| {labels[i]} | {statistics.median(firsts):.2f} s | {statistics.mean(firsts):.2f} s | "
                   f"{statistics.median(dones):.2f} s | {shown} |")
    if n == 2:
        ratios = [r["first1"] / r["first0"] for r in rows if r["first0"] and r["first1"]]
        if ratios:
            out += ["", f"Per task, first diagnostics of {labels[1]} / {labels[0]}: median ratio "
                    f"{statistics.median(ratios):.3f} ({len(ratios)} tasks)."]
    out += ["", "<details><summary>Every task</summary>", "",
            "| task | expected | " + " | ".join(f"{lab}: first / end (s), violations" for lab in labels) + " |",
            "|---|---|" + "---|" * n]
    for r in rows:
        cells = [f"{_fmt(r[f'first{i}'])} / {_fmt(r[f'done{i}'])}, {r[f'violations{i}']}" for i in range(n)]
        out.append(f"| {r['task']} | {r['expected']} | " + " | ".join(cells) + " |")
    out += ["", "</details>", ""]
    return "\n".join(out)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--root", type=Path, action="append",
                    help="a cbam checkout with its .venv (repeat to compare; default: this one)")
    ap.add_argument("--label", action="append", help="a name per --root for the report")
    ap.add_argument("--svcomp", type=Path, default=SVCOMP)
    ap.add_argument("--timeout", type=float, default=30.0, help="the editor's time limit per file (its default)")
    ap.add_argument("--filter", help="only tasks whose path contains this")
    ap.add_argument("--out", help="write the Markdown report here")
    args = ap.parse_args()
    roots = [r.resolve() for r in (args.root or [ROOT])]
    labels = args.label or [r.name for r in roots]
    if len(labels) != len(roots):
        ap.error("one --label per --root")
    rows = asyncio.run(run(roots, args.svcomp, args.timeout, args.filter))
    text = report(rows, roots, labels, args.timeout)
    print(text)
    if args.out:
        Path(args.out).write_text(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
