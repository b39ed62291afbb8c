"""``cbam lsp``: the language server's entry point (the handlers are in handlers.py).

Start-up is on the editor's critical path: nothing shows until the first analysis has run.
The server's own imports (pygls, lsprotocol: about 0.7 s) and a worker's (pycparser, z3,
the engine: about 0.5 s) are independent, so a first worker process is started before the
server imports anything heavy; by the time a document arrives, both are ready.
"""

from __future__ import annotations


def main(argv: list[str] | None = None) -> int:
    import argparse

    ap = argparse.ArgumentParser(prog="cbam lsp", description="cbam's language server")
    ap.add_argument("--tcp", metavar="HOST:PORT", help="listen on TCP instead of stdio")
    ap.add_argument("--stdio", action="store_true", help="use stdio (the default)")
    args = ap.parse_args(argv)

    from .worker import Worker

    spare = Worker().start()
    from .handlers import serve

    serve(args.tcp, spare)
    return 0


if __name__ == "__main__":  # python -m cbam.server.lsp: what the VS Code extension runs (no CLI to parse)
    raise SystemExit(main())
