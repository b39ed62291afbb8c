"""Function summaries for hovers, read from the persistent cache."""

from __future__ import annotations

import time
from typing import Any

RESULT_SUFFIX = "::__retval"


class SummaryReader:
    """A long-lived read handle on the cache (opening one validates the database once)."""

    def __init__(self) -> None:
        self._stores: dict[str | None, Any] = {}

    def blocks(self, cache_dir: str | None, fn_key: str | None) -> list[dict[str, Any]] | None:
        if fn_key is None:
            return None
        from cbam.engine.cache.store import CacheStore

        store = self._stores.get(cache_dir)
        if store is None:
            try:
                store = CacheStore(cache_dir)
            except OSError:
                return None
            self._stores[cache_dir] = store
        return store.blocks_for_function("", fn_key)


def _values(state: list[Any]) -> dict[str, int]:
    for part in state:
        if isinstance(part, dict):
            return {str(k): int(v) for k, v in part.items()}
    return {}


def _short(name: str) -> str:
    base = name.split("::", 1)[1] if "::" in name else name
    return base.split(".", 1)[0]


def describe_context(entry: dict[str, int], fn: str, params: list[str]) -> str:
    parts = []
    for p in params:
        v = entry.get(f"{fn}::{p}")
        parts.append(f"{p} = {v}" if v is not None else f"{p} = any")
    for k, v in sorted(entry.items()):
        if "::" not in k:
            parts.append(f"{k} = {v}")
    return ", ".join(parts) if parts else "any input"


def describe_exits(exits: list[dict[str, int]], fn: str) -> str:
    if not exits:
        return "never returns"
    outs = []
    for ex in exits:
        ret = ex.get(fn + RESULT_SUFFIX)
        effects = [f"{k} = {v}" for k, v in sorted(ex.items()) if "::" not in k]
        desc = f"returns {ret}" if ret is not None else "returns some value"
        if effects:
            desc += " with " + ", ".join(effects)
        outs.append(desc)
    uniq = list(dict.fromkeys(outs))
    return uniq[0] if len(uniq) == 1 else " or ".join(uniq[:4]) + (" or …" if len(uniq) > 4 else "")


def format_hover(f: dict[str, Any], result: dict[str, Any] | None, blocks: list[dict[str, Any]] | None) -> str:
    name = f["name"]
    lines = [f"**{name}** — cbam summary"]
    if f.get("unsupported"):
        lines.append(f"\nNot analysed: unsupported construct ({f['unsupported']}).")
        return "\n".join(lines)
    if not blocks:
        lines.append(f"\nNo summary yet: cbam has not analysed `{name}`"
                     + (" (it is not reachable from the entry point)." if f.get("reachable") is False else "."))
        return "\n".join(lines)
    source = "cached" if result is not None and result.get("source") == "cache" else "fresh"
    lines.append("")
    lines.append("| entry context | ⇒ exit |")
    lines.append("|---|---|")
    total_states = 0
    total_ms = 0.0
    newest = 0.0
    for b in blocks[:12]:
        entry = _values(b["entry"])
        exits = [_values(x) for x in b["exits"]]
        lines.append(f"| `{describe_context(entry, name, f.get('params', []))}` | `{describe_exits(exits, name)}` |")
        total_states += b.get("states", 0)
        total_ms += 1000 * b.get("seconds", 0.0)
        newest = max(newest, b.get("created", 0.0))
    if len(blocks) > 12:
        lines.append(f"| … {len(blocks) - 12} more contexts | |")
    age = time.time() - newest if newest else 0
    when = f"{age:.0f} s ago" if age < 120 else f"{age / 60:.0f} min ago" if age < 7200 else f"{age / 3600:.0f} h ago"
    lines.append("")
    lines.append(f"*{source}*: {len(blocks)} block summaries in the cache, computed {when}; "
                 f"they cost {total_states} abstract states, {total_ms:.0f} ms.")
    return "\n".join(lines)
