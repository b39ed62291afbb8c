"""Function summaries in readable C-like (ACSL-flavoured) syntax, from BAM's block abstractions.

A summary line reads "entry context  ==>  exit", e.g. ``n == 3  ==>  \\result == 6`` for the
value domain or ``true  ==>  0 <= \\result <= 255`` for intervals.
"""

from __future__ import annotations

from typing import Any

RESULT = "::__retval"
FORMULA = "\0formula"  # the key under which a predicate state's C formula travels in the facts


def _facts(data: Any) -> dict[str, Any]:
    """The variable facts of a serialised composite state (value: int, interval: [lo, hi];
    a predicate state contributes its formula as a whole)."""
    out: dict[str, Any] = {}
    for part in data if isinstance(data, list) else []:
        if isinstance(part, dict) and "predicates" in part:
            if part.get("text", "true") != "true":
                out[FORMULA] = part["text"]
        elif isinstance(part, dict):
            out.update(part)
    return out


def _fact(name: str, v: Any) -> str:
    if isinstance(v, list | tuple) and len(v) == 2:
        lo, hi = v
        return f"{name} == {lo}" if lo == hi else f"{lo} <= {name} <= {hi}"
    return f"{name} == {v}"


def _formula(facts: dict[str, Any]) -> list[str]:
    f = facts.get(FORMULA)
    if f is None:
        return []
    return [f"({f})" if "||" in f else f]


def describe_entry(entry: Any, fn: str, params: list[str]) -> str:
    facts = _facts(entry)
    parts = [_fact(p, facts[f"{fn}::{p}"]) for p in params if f"{fn}::{p}" in facts]
    parts += [_fact(k, v) for k, v in sorted(facts.items()) if "::" not in k and k != FORMULA]
    parts += _formula(facts)
    return " && ".join(parts) if parts else "true"


def describe_exit(exit_state: Any, fn: str) -> str:
    facts = _facts(exit_state)
    parts = []
    if fn + RESULT in facts:
        parts.append(_fact("\\result", facts[fn + RESULT]))
    parts += [_fact(k, v) for k, v in sorted(facts.items()) if "::" not in k and k != FORMULA]
    parts += _formula(facts)
    return " && ".join(parts) if parts else "true"


def _bounds(v: Any) -> tuple[int, int]:
    return (v[0], v[1]) if isinstance(v, list | tuple) else (v, v)


def _subsumed(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """Every state exit a describes is described by b as well."""
    for k, bv in b.items():
        if k not in a:
            return False
        if k == FORMULA:
            if a[k] != bv:
                return False
            continue
        alo, ahi = _bounds(a[k])
        blo, bhi = _bounds(bv)
        if alo < blo or ahi > bhi:
            return False
    return True


def _weakest(exits: list[Any], fn: str) -> list[Any]:
    # Only what a summary shows counts: the result and the globals.
    facts = [{k: v for k, v in _facts(x).items() if "::" not in k or k == fn + RESULT or k == FORMULA}
             for x in exits]
    keep = []
    for i, fi in enumerate(facts):
        if any(j != i and _subsumed(fi, fj) and not (_subsumed(fj, fi) and j > i) for j, fj in enumerate(facts)):
            continue
        keep.append(exits[i])
    return keep


def summary_lines(fn: str, params: list[str], blocks: list[dict[str, Any]]) -> list[str]:
    """One line per entry context; several exits are alternatives (those implied by another are left out)."""
    lines = []
    for b in blocks:
        exits = list(dict.fromkeys(describe_exit(x, fn) for x in _weakest(b["exits"], fn))) or ["false (never returns)"]
        if "true" in exits:
            exits = ["true"]  # one unconstrained exit subsumes the others
        elif len(exits) > 1 and all("||" not in e for e in exits) and \
                all(FORMULA in _facts(x) for x in b["exits"]):
            # Predicate summaries list many exits; show what all of them agree on (a consequence
            # of their disjunction, so still a true summary).
            parts = [e.split(" && ") for e in exits]
            common = [c for c in parts[0] if all(c in p for p in parts[1:])]
            if common:
                exits = [" && ".join(common)]
        post = exits[0] if len(exits) == 1 else " || ".join(f"({e})" for e in exits)
        lines.append(f"{describe_entry(b['entry'], fn, params)}  ==>  {post}")
    return lines
