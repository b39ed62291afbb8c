"""Function summaries for hovers, read from the persistent cache."""

from __future__ import annotations

import time
from typing import Any

from cbam.engine.api import DecidedBy

TYPE_CHECKING = False
if TYPE_CHECKING:
    from cbam.engine.api import FunctionReport, VerificationResult


class SummaryReader:
    """A long-lived read handle on the cache (opening one validates the database once)."""

    def __init__(self) -> None:
        self._stores: dict[str | None, Any] = {}

    def blocks(self, cache_dir: str | None, fn_key: str | None) -> list[dict[str, Any]] | None:
        if fn_key is None:
            return None
        from cbam.engine import api

        store = self._stores.get(cache_dir)
        if store is None:
            try:
                store = api.open_cache(cache_dir)
            except OSError:
                return None
            self._stores[cache_dir] = store
        return api.summaries(store, fn_key)


# How a result without block summaries was proved, by the engine that decided it.
_PROVED_BY = {
    DecidedBy.INVARIANTS: "Proved with whole-program invariants (Horn clauses)",
    DecidedBy.TEMPLATES: "Proved with template invariants (facts over the arrays a loop writes, kept Houdini-style)",
    DecidedBy.CPAREC: "Proved by CPArec: a summary checked for inductiveness",
    DecidedBy.K_INDUCTION: "Proved by k-induction with machine integers",
}


def format_hover(f: FunctionReport, result: VerificationResult | None, blocks: list[dict[str, Any]] | None,
                 cache_off: bool = False) -> str:
    from cbam.engine import api

    name = f.name
    lines = [f"**{name}** — cbam summary"]
    if f.unsupported:
        lines.append(f"\nNot analysed: unsupported construct ({f.unsupported}).")
        return "\n".join(lines)
    if cache_off:
        lines.append("\nNo summary: summaries are read from the cache, which is off (setting `cbam.cache`).")
        return "\n".join(lines)
    proved = result.invariants.get(name) if result is not None else None
    if not blocks and proved is not None:
        assert result is not None
        by = result.statistics.decided_by
        how = _PROVED_BY.get(by, _PROVED_BY[DecidedBy.INVARIANTS])
        if by == DecidedBy.CPAREC:
            how += f" (recursion unwound {result.statistics.unwinding_depth} deep)"
        elif by == DecidedBy.K_INDUCTION:
            how += f" (k = {result.statistics.induction_k}; the facts below are the invariants it used)"
        lines.append(f"\n{how}, not block summaries. On every call that returns:\n\n`{proved}`")
        return "\n".join(lines)
    if not blocks:
        lines.append(f"\nNo summary yet: cbam has not analysed `{name}`"
                     + (" (it is not reachable from the entry point)." if not f.reachable else "."))
        return "\n".join(lines)
    source = "cached" if result is not None and result.source == "cache" else "fresh"
    lines.append("")
    lines.append("| entry context | ⇒ exit |")
    lines.append("|---|---|")
    total_states = 0
    total_ms = 0.0
    newest = 0.0
    params = f.params
    for b in blocks[:12]:
        entry, post = api.summary_row(name, params, b)
        lines.append(f"| `{entry}` | `{post if len(post) <= 160 else post[:157] + '...'}` |")
        total_states += b.get("states", 0)
        total_ms += 1000 * b.get("seconds", 0.0)
        newest = max(newest, b.get("created", 0.0))
    if len(blocks) > 12:
        lines.append(f"| … {len(blocks) - 12} more contexts | |")
    rel = api.calls_relation(name, params, blocks)
    if rel is not None:
        lines.append(f"\nOn all {len(blocks)} analysed calls: `{rel}`")
    age = time.time() - newest if newest else 0
    when = f"{age:.0f} s ago" if age < 120 else f"{age / 60:.0f} min ago" if age < 7200 else f"{age / 3600:.0f} h ago"
    lines.append("")
    lines.append(f"*{source}*: {len(blocks)} block summaries in the cache, computed {when}; "
                 f"they cost {total_states} abstract states, {total_ms:.0f} ms.")
    return "\n".join(lines)
