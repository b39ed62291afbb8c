"""Soak: mutated SV-COMP files through the command line and the language server. Limits are
promises: no crash, no run past its time limit (by more than ``--slack`` seconds plus start-up),
no memory past the limit, and a server that never needs a restart.

    python bench/soak.py --cli 10000 --lsp 1000 --timeout 5 --jobs 2 --out bench/reports/soak.md

Each mutant is one seeded edit of a shared task's source: a line or a token deleted, duplicated
or swapped with another, or a snippet the engine may not model (a pointer write, an array, a
float, a VLA) inserted into a function body. Every finding is printed with its seed, so it can be
replayed with ``--seed``; the mutant's text is kept under the output's folder.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import re
import subprocess
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SVCOMP = ROOT.parent / "shared" / "svcomp" / "c"
EXIT_NAMES = {0: "TRUE", 1: "FALSE", 2: "bad input", 3: "UNKNOWN", 4: "internal error"}
SNIPPETS = [
    "{ int __soak_x = 1; int *__soak_p = &__soak_x; *__soak_p = 2; }",
    "{ int __soak_a[4]; __soak_a[1] = 3; if (__soak_a[1] != 3) return 0; }",
    "{ float __soak_f = 1.5f; __soak_f = __soak_f * 2; }",
    "{ int __soak_n = 3; int __soak_v[__soak_n]; __soak_v[0] = 1; }",
    "{ struct { int a; int b; } __soak_s; __soak_s.a = 1; }",
    "{ char *__soak_c = \"abc\"; if (__soak_c[0] != 'a') return 0; }",
]
TOKEN = re.compile(r"[A-Za-z_]\w*|\d+|==|!=|<=|>=|&&|\|\||[-+*/%<>=!&|^~?:;,(){}\[\]]")


def sources() -> list[Path]:
    return sorted(p for p in SVCOMP.rglob("*") if p.suffix in (".c", ".i") and p.is_file())


def mutate(text: str, rng: random.Random) -> tuple[str, str]:
    lines = text.split("\n")
    kind = rng.choice(["delete line", "duplicate line", "swap lines", "delete token", "duplicate token",
                       "swap tokens", "insert snippet", "insert snippet"])
    if kind.endswith("line") or kind == "swap lines":
        i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
        if kind == "delete line":
            del lines[i]
        elif kind == "duplicate line":
            lines.insert(i, lines[i])
        else:
            lines[i], lines[j] = lines[j], lines[i]
        return "\n".join(lines), f"{kind} {i + 1}" + (f" and {j + 1}" if kind == "swap lines" else "")
    if kind == "insert snippet":
        bodies = [k for k, ln in enumerate(lines) if ln.rstrip().endswith(";") and ln.startswith((" ", "\t"))]
        if bodies:
            k = rng.choice(bodies)
            lines.insert(k + 1, rng.choice(SNIPPETS))
            return "\n".join(lines), f"{kind} after line {k + 1}"
    toks = list(TOKEN.finditer(text))
    if len(toks) < 2:
        return text + "\n", "unchanged"
    a, b = rng.choice(toks), rng.choice(toks)
    if kind == "delete token":
        return text[:a.start()] + text[a.end():], f"delete token {a.group()!r} at {a.start()}"
    if kind == "duplicate token":
        return text[:a.end()] + " " + a.group() + text[a.end():], f"duplicate token {a.group()!r} at {a.start()}"
    if a.start() > b.start():
        a, b = b, a
    if a.end() > b.start():
        return text, "unchanged"
    return (text[:a.start()] + b.group() + text[a.end():b.start()] + a.group() + text[b.end():],
            f"swap tokens {a.group()!r} and {b.group()!r}")


def mutant(seed: int, files: list[Path]) -> tuple[Path, str, str]:
    rng = random.Random(seed)
    src = rng.choice(files)
    text, how = mutate(src.read_text(errors="replace"), rng)
    return src, text, how


# ---- the command line -------------------------------------------------------------------------
def run_cli(seed: int, files: list[Path], timeout: float, memory_mb: int, work: Path) -> dict:
    src, text, how = mutant(seed, files)
    path = work / f"m{seed}{src.suffix}"
    path.write_text(text)
    cmd = [sys.executable, "-m", "cbam", "verify", "--timeout", str(timeout), "--memory-limit", str(memory_mb),
           "--no-cache", "--no-progress", "--format", "json", "--data-model", "ILP32", str(path)]
    t0 = time.monotonic()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        out, err = proc.communicate(timeout=timeout + 120)
        hung = False
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
        hung = True
    elapsed = time.monotonic() - t0
    row = {"seed": seed, "source": str(src.relative_to(SVCOMP)), "mutation": how, "exit": proc.returncode,
           "seconds": round(elapsed, 2), "hung": hung, "stderr": (err[:3000] if proc.returncode < 0 else err[-600:])
           if proc.returncode not in (0, 1, 3) else ""}  # a crash: faulthandler's stacks come first
    if proc.returncode != 2 and not hung:
        try:
            data = json.loads(out) if out.strip().startswith("{") else {}
            row["reason"] = data.get("reason_kind", "")
            # The analysis runs in a child (cbam/isolation.py): a crash of it is retried or answered
            # UNKNOWN, not a crash of cbam's; it is counted apart, with its stack dump.
            row["child crashes"] = data.get("statistics", {}).get("crashed_attempts", 0)
            if row["child crashes"]:
                row["stderr"] = err[:3000]
        except (ValueError, KeyError, AttributeError):
            row["reason"] = "unparsable output"
    path.unlink(missing_ok=True)
    return row


# ---- the language server ----------------------------------------------------------------------
async def run_lsp(seeds: list[int], files: list[Path], timeout: float, work: Path) -> list[dict]:
    from lsprotocol import types as lsp
    from pygls.lsp.client import LanguageClient

    client = LanguageClient("cbam-soak", "1")
    published: dict[str, asyncio.Future] = {}

    @client.feature(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def on_diags(params: lsp.PublishDiagnosticsParams) -> None:
        fut = published.get(params.uri)
        if fut is not None and not fut.done():
            fut.set_result(params.diagnostics)

    @client.feature(lsp.WORKSPACE_CONFIGURATION)
    def on_config(params: lsp.ConfigurationParams):
        return [{"cache": False, "timeout": timeout, "dataModel": "ILP32"}]

    @client.feature(lsp.WINDOW_SHOW_MESSAGE)
    def on_message(params: lsp.ShowMessageParams) -> None:
        pass

    @client.feature(lsp.WINDOW_LOG_MESSAGE)
    def on_log(params: lsp.LogMessageParams) -> None:
        pass

    await client.start_io(sys.executable, "-m", "cbam", "lsp")
    caps = lsp.ClientCapabilities(workspace=lsp.WorkspaceClientCapabilities(configuration=True))
    await client.initialize_async(lsp.InitializeParams(capabilities=caps, root_uri=work.as_uri()))
    client.initialized(lsp.InitializedParams())
    server = client._server  # type: ignore[attr-defined]
    rows = []
    for seed in seeds:
        src, text, how = mutant(seed, files)
        path = work / f"l{seed}{src.suffix}"
        path.write_text(text)
        uri = path.as_uri()
        published[uri] = asyncio.get_running_loop().create_future()
        t0 = time.monotonic()
        client.text_document_did_open(lsp.DidOpenTextDocumentParams(
            lsp.TextDocumentItem(uri=uri, language_id="c", version=1, text=text)))
        row = {"seed": seed, "source": str(src.relative_to(SVCOMP)), "mutation": how}
        try:
            diags = await asyncio.wait_for(published[uri], timeout * 4 + 60)
            row["seconds"] = round(time.monotonic() - t0, 2)
            codes = Counter(str(d.code) for d in diags)
            row["codes"] = dict(codes)
            row["worker failed"] = codes.get("analysis-failed", 0) > 0
        except TimeoutError:
            row["seconds"] = round(time.monotonic() - t0, 2)
            row["no answer"] = True
        row["server alive"] = server.returncode is None
        client.text_document_did_close(lsp.DidCloseTextDocumentParams(lsp.TextDocumentIdentifier(uri)))
        path.unlink(missing_ok=True)
        rows.append(row)
        if not row["server alive"]:
            break
    try:
        await asyncio.wait_for(client.shutdown_async(None), 10)
        client.exit(None)
        await asyncio.wait_for(client.stop(), 10)
    except Exception:
        pass
    return rows


# ---- report -----------------------------------------------------------------------------------
def report(cli: list[dict], lsp_rows: list[dict], timeout: float, slack: float, startup: float) -> tuple[str, int]:
    limit = timeout + slack + startup
    crashes = [r for r in cli if r["exit"] not in (0, 1, 2, 3) or r["hung"]]
    overruns = [r for r in cli if r["seconds"] > limit]
    lsp_bad = [r for r in lsp_rows if r.get("no answer") or r.get("worker failed") or not r["server alive"]]
    lsp_over = [r for r in lsp_rows if r["seconds"] > limit + 1]
    lines = [f"# Soak: {len(cli)} mutants through the CLI, {len(lsp_rows)} through the language server",
             "", f"Time limit {timeout:g} s; an overrun is a run longer than {limit:g} s "
             f"(limit + {slack:g} s slack + {startup:g} s start-up).", ""]
    if cli:
        outcomes = Counter(EXIT_NAMES.get(r["exit"], f"exit {r['exit']}") for r in cli)
        secs = sorted(r["seconds"] for r in cli)
        lines += ["| CLI | count |", "|---|---:|"]
        lines += [f"| {k} | {v} |" for k, v in outcomes.most_common()]
        contained = [r for r in cli if r.get("child crashes")]
        lines += [f"| crashes (exit 4, a signal, or hung) | {len(crashes)} |",
                  f"| analysis child crashed, contained (answered again, or UNKNOWN crashed) | {len(contained)} |",
                  f"| overruns | {len(overruns)} |",
                  f"| slowest | {secs[-1]:.1f} s |", f"| median | {secs[len(secs) // 2]:.2f} s |", ""]
    if lsp_rows:
        secs = sorted(r["seconds"] for r in lsp_rows)
        lines += ["| language server | count |", "|---|---:|",
                  f"| documents answered | {sum(1 for r in lsp_rows if not r.get('no answer'))} |",
                  f"| worker failures (crash or overrun, worker replaced) | "
                  f"{sum(1 for r in lsp_rows if r.get('worker failed'))} |",
                  f"| no answer | {sum(1 for r in lsp_rows if r.get('no answer'))} |",
                  f"| server restarts needed | {0 if all(r['server alive'] for r in lsp_rows) else 1} |",
                  f"| overruns | {len(lsp_over)} |",
                  f"| slowest | {secs[-1]:.1f} s |", ""]
    findings = crashes + overruns + lsp_bad + lsp_over + [r for r in cli if r.get("child crashes")]
    if findings:
        lines += ["## Findings (replay with --seed)", ""]
        seen = set()
        for r in findings:
            if id(r) in seen:
                continue
            seen.add(id(r))
            lines.append(f"- seed {r['seed']}: {r['source']}, {r['mutation']}: "
                         + json.dumps({k: v for k, v in r.items() if k not in ('seed', 'source', 'mutation')}))
    return "\n".join(lines) + "\n", len(findings)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cli", type=int, default=200, help="mutants through the command line")
    ap.add_argument("--lsp", type=int, default=50, help="mutants through one language server")
    ap.add_argument("--timeout", type=float, default=5.0)
    ap.add_argument("--slack", type=float, default=2.0)
    ap.add_argument("--startup", type=float, default=2.0, help="allowed for start-up and imports")
    ap.add_argument("--memory-limit", type=int, default=2048)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--first-seed", type=int, default=1)
    ap.add_argument("--seed", type=int, nargs="*", help="replay these seeds only (CLI)")
    ap.add_argument("--out", type=Path)
    args = ap.parse_args()
    files = sources()
    with tempfile.TemporaryDirectory(prefix="cbam-soak-") as tmp:
        work = Path(tmp)
        seeds = args.seed or list(range(args.first_seed, args.first_seed + args.cli))
        cli: list[dict] = []
        with ThreadPoolExecutor(args.jobs) as pool:
            for n, row in enumerate(pool.map(lambda s: run_cli(s, files, args.timeout, args.memory_limit, work),
                                             seeds), 1):
                cli.append(row)
                if row["exit"] not in (0, 1, 2, 3) or row["hung"] or row.get("child crashes") or row["seconds"] > args.timeout + args.slack \
                        + args.startup:
                    print(f"[soak] finding: {json.dumps(row)}", file=sys.stderr, flush=True)
                if n % 100 == 0:
                    print(f"[soak] {n}/{len(seeds)} CLI mutants", file=sys.stderr, flush=True)
        lsp_seeds = [] if args.seed else list(range(10**6 + args.first_seed, 10**6 + args.first_seed + args.lsp))
        lsp_rows = asyncio.run(run_lsp(lsp_seeds, files, args.timeout, work)) if lsp_seeds else []
    text, findings = report(cli, lsp_rows, args.timeout, args.slack, args.startup)
    print(text)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(text)
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
