"""Function summaries in readable C-like (ACSL-flavoured) syntax, from BAM's block abstractions.

A summary line reads "entry context  ==>  exit", e.g. ``n == 3  ==>  \\result == 6`` for the
value domain or ``true  ==>  0 <= \\result <= 255`` for intervals.

Each domain says what its states show (``CPA.summary_facts``: per variable an int, a range or an
expression; or a formula). A block abstraction is rendered from those facts when it is recorded
(:func:`render_block`) and the text travels with it in the cache, so its readers, the hover and
`cbam summary`, need no domain: they read rows (:func:`block_row`, :func:`calls_relation`).
"""

from __future__ import annotations

import itertools
import re
from typing import Any

RESULT = "::__retval"
FORMULA = "\0formula"  # the key under which a state's formula travels in its facts


def _fact(name: str, v: Any) -> str:
    """One variable's fact: a value, a range (a bound may be None: open) or an expression."""
    if isinstance(v, list | tuple) and len(v) == 2:
        lo, hi = v
        if lo is None:
            return f"{name} <= {hi}"
        if hi is None:
            return f"{name} >= {lo}"
        return f"{name} == {lo}" if lo == hi else f"{lo} <= {name} <= {hi}"
    return f"{name} == {v}"


def _formula(facts: dict[str, Any]) -> list[str]:
    f = facts.get(FORMULA)
    if f is None:
        return []
    return [f"({f})" if "||" in f else f]


def describe_entry(facts: dict[str, Any], fn: str, params: list[str]) -> str:
    parts = [_fact(p, facts[f"{fn}::{p}"]) for p in params if f"{fn}::{p}" in facts]
    parts += [_fact(k, v) for k, v in sorted(facts.items()) if "::" not in k and k != FORMULA]
    parts += _formula(facts)
    return " && ".join(parts) if parts else "true"


def describe_exit(facts: dict[str, Any], fn: str) -> str:
    parts = []
    if fn + RESULT in facts:
        parts.append(_fact("\\result", facts[fn + RESULT]))
    parts += [_fact(k, v) for k, v in sorted(facts.items()) if "::" not in k and k != FORMULA]
    parts += _formula(facts)
    return " && ".join(parts) if parts else "true"


def _bounds(v: Any) -> tuple[Any, Any]:
    return (v[0], v[1]) if isinstance(v, list | tuple) else (v, v)


def _subsumed(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """Every state exit a describes is described by b as well."""
    for k, bv in b.items():
        if k not in a:
            return False
        if k == FORMULA or isinstance(a[k], str) or isinstance(bv, str):
            if a[k] != bv:
                return False
            continue
        alo, ahi = _bounds(a[k])
        blo, bhi = _bounds(bv)
        if (blo is not None and (alo is None or alo < blo)) or (bhi is not None and (ahi is None or ahi > bhi)):
            return False
    return True


def _weakest(exits: list[dict[str, Any]], fn: str) -> list[dict[str, Any]]:
    # Only what a summary shows counts: the result and the globals.
    facts = [{k: v for k, v in x.items() if "::" not in k or k == fn + RESULT or k == FORMULA} for x in exits]
    keep = []
    for i, fi in enumerate(facts):
        if any(j != i and _subsumed(fi, fj) and not (_subsumed(fj, fi) and j > i) for j, fj in enumerate(facts)):
            continue
        keep.append(facts[i])
    return keep


def render_block(fn: str, params: list[str], entry: dict[str, Any], exits: list[dict[str, Any]]) -> dict[str, Any]:
    """A block abstraction as the cache keeps it for readers: its entry context and exit as text
    (several exits are alternatives; those implied by another are left out), and the concrete
    arguments and results, from which :func:`calls_relation` fits a relation."""
    posts = list(dict.fromkeys(describe_exit(x, fn) for x in _weakest(exits, fn))) or ["false (never returns)"]
    if "true" in posts:
        posts = ["true"]  # one unconstrained exit subsumes the others
    elif len(posts) > 1 and all("||" not in e for e in posts) and all(FORMULA in x for x in exits):
        # Predicate summaries list many exits; show what all of them agree on (a consequence
        # of their disjunction, so still a true summary).
        parts = [e.split(" && ") for e in posts]
        common = [c for c in parts[0] if all(c in p for p in parts[1:])]
        if common:
            posts = [" && ".join(common)]
    post = posts[0] if len(posts) == 1 else " || ".join(f"({e})" for e in posts)
    results = sorted({x[fn + RESULT] for x in exits if isinstance(x.get(fn + RESULT), int)})
    concrete = all(isinstance(x.get(fn + RESULT), int) for x in exits)
    return {"entry": describe_entry(entry, fn, params), "exit": post,
            "args": [entry.get(f"{fn}::{q}") if isinstance(entry.get(f"{fn}::{q}"), int) else None for q in params],
            "results": results if concrete else None}


def block_row(fn: str, params: list[str], b: dict[str, Any]) -> tuple[str, str]:
    """(entry context, exit) of a stored block abstraction."""
    r = b.get("rendered") or {}
    return r.get("entry", "true"), r.get("exit", "true")


def calls_relation(fn: str, params: list[str], blocks: list[dict[str, Any]]) -> str | None:
    """A relation between \\result and the parameters that every analysed call satisfies.

    Each block abstraction is proven for its entry context, so what all of them imply holds for
    every call the program makes (not for arbitrary arguments). Predicate summaries state such
    relations directly; for concrete (value) summaries the relation is
    ``\\result == sum(c * param) + k`` with c in {-1, 0, 1}, fitted to at least three distinct
    calls, preferring no constant and then fewer terms.
    """
    if len(blocks) < 2:
        return None
    posts = [block_row(fn, params, b)[1] for b in blocks]
    if all("||" not in p for p in posts):
        common = set.intersection(*(set(p.split(" && ")) for p in posts))
        rel = sorted(c for c in common if "\\result" in c and any(re.search(rf"\b{re.escape(q)}\b", c)
                                                                   for q in params))
        if rel:
            return " && ".join(rel)
    points = []
    for b in blocks:
        r = b.get("rendered") or {}
        args, results = r.get("args"), r.get("results")
        if args is None or results is None or len(results) != 1 or any(a is None for a in args) \
                or len(args) != len(params):
            return None
        points.append((args, results[0]))
    if len({tuple(a) for a, _ in points}) < 3:
        return None
    varying = [i for i in range(len(params)) if len({a[i] for a, _ in points}) > 1]
    best = None
    for coefs in itertools.product((-1, 0, 1), repeat=len(varying)):
        if not any(coefs):
            continue
        ks = {r - sum(c * a[i] for c, i in zip(coefs, varying)) for a, r in points}
        if len(ks) == 1:
            k = ks.pop()
            rank = (k != 0, sum(1 for c in coefs if c), sum(1 for c in coefs if c < 0))
            if best is None or rank < best[0]:
                best = (rank, coefs, k)
    if best is None:
        return None
    _, coefs, k = best
    terms = [(c, params[i]) for c, i in zip(coefs, varying) if c]
    text = " ".join(("- " if c < 0 else "+ " if j else "") + name for j, (c, name) in enumerate(terms)).strip()
    if text.startswith("- "):
        text = "-" + text[2:]
    if k:
        text += f" {'+' if k > 0 else '-'} {abs(k)}"
    return f"\\result == {text}"


def summary_lines(fn: str, params: list[str], blocks: list[dict[str, Any]]) -> list[str]:
    """One line per entry context, then what every analysed call satisfies (if anything)."""
    lines = [f"{entry}  ==>  {post}" for entry, post in (block_row(fn, params, b) for b in blocks)]
    rel = calls_relation(fn, params, blocks)
    if rel is not None:
        lines.append(f"on all {len(blocks)} analysed calls: {rel}")
    return lines
