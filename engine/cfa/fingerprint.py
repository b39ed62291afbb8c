"""Stable, position-free fingerprints of function CFAs.

A fingerprint hashes the CFA's structure in a canonical node order (breadth-first from
the entry, successors in edge order) and each edge's operation with its C types. Source
ranges, edge texts and node numbers are left out, so whitespace, comments and moving a
function leave it unchanged; any change of an operator, constant, type or control flow
changes it. These fingerprints key the persistent summary cache.
"""

from __future__ import annotations

from ..sha import sha256
from .cfa import FunctionCFA, Program, canonical_order

FINGERPRINT_VERSION = "cfa-1"


def canonical_text(cfa: FunctionCFA, program: Program) -> str:
    idx = {id(n): i for i, n in enumerate(canonical_order(cfa))}
    params = ", ".join(f"{p}:{program.vars[p].type.key()}" for p in cfa.params)
    lines = [FINGERPRINT_VERSION, f"fn {cfa.name}({params}) -> {cfa.return_type.key()}", f"exit {idx[id(cfa.exit)]}"]
    if cfa.unsupported is not None:
        lines.append(f"unsupported {cfa.unsupported[0]}")
    for n in canonical_order(cfa):
        if n.error is not None:
            lines.append(f"{idx[id(n)]} error {n.error.kind}")
        for e in n.out:
            lines.append(f"{idx[id(n)]}->{idx[id(e.succ)]} {e.canon()}")
    return "\n".join(lines)


def presentation_text(cfa: FunctionCFA) -> str:
    """What a report shows of the function besides its ranges: each edge's source text and each
    check's message, in canonical order. Left out of the fingerprint (summaries do not depend on
    it), but a whole cached result quotes it: `total = (-0)` and `total = 0` are one CFA with two
    different error paths to print."""
    lines = []
    for n in cfa.canonical_nodes():
        if n.error is not None:
            lines.append(f"error {n.error.message}\x00{n.error.check_text}")
        lines.extend(e.text or "" for e in n.out)
    return "\x01".join(lines)


def fingerprint(text: str) -> str:
    return sha256(text.encode("utf-8")).hexdigest()[:32]


def assign_fingerprints(program: Program) -> None:
    for cfa in program.all_functions():
        if cfa.fingerprint:
            continue  # a reused build (cfa.reuse): same CFA, same parameter types
        cfa.fingerprint = fingerprint(canonical_text(cfa, program))
        for i, n in enumerate(canonical_order(cfa)):
            n.canon = i
