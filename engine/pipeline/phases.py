"""The precisions a run tries, in order, from the configuration's analyses."""

from __future__ import annotations

from typing import Any, NamedTuple

from ..cpa.registry import Analysis


class Phase(NamedTuple):
    precision: dict[str, Any]  # per analysis name
    share: float  # of the time left, for every phase but the last
    reused: bool = False  # started from what an earlier run learned (a hint, see schedule)


def schedule(found: list[Analysis], hints: dict[str, Any], program) -> list[Phase]:
    """Each analysis's own schedule, side by side: the longest sets the phases, the others keep
    their last precision (for value+predicate: full values, then empty values, predicates empty
    throughout). A phase that ends without a verdict hands over to the next one.

    A precision learned by an earlier run of the file is a hint, tried first: a TRUE or a
    confirmed violation it leads to stands (both are sound whatever the precision); if it
    settles nothing, the run goes on exactly as without it, so it never adds an UNKNOWN.
    """
    steps = {a.name: a.precision.schedule(program) for a in found if a.precision is not None}
    n = max((len(s) for s in steps.values()), default=1)
    lead = max(steps.values(), key=len) if steps else [({}, 1.0)]
    phases = []
    for i in range(n):
        prec = {name: s[min(i, len(s) - 1)][0] for name, s in steps.items()}
        phases.append(Phase(prec, lead[min(i, len(lead) - 1)][1]))
    if not hints:
        return phases
    return [Phase({**phases[-1].precision, **hints}, 0.5, reused=True), *phases]


def reusable(found: list[Analysis], program, stored: dict[str, Any] | None) -> dict[str, Any]:
    """What of the precisions an earlier run stored still applies to this program."""
    if not isinstance(stored, dict):
        return {}
    out: dict[str, Any] = {}
    for a in found:
        if a.precision is None or a.name not in stored:
            continue
        try:
            kept = a.precision.reuse(program, a.precision.from_json(stored[a.name]))
        except (KeyError, TypeError, ValueError, AttributeError):
            continue  # stored by an incompatible version: ignore the hint
        if kept is not None:
            out[a.name] = kept
    return out


def restore(found: list[Analysis], stored: Any) -> dict[str, Any] | None:
    """A precision as to_json wrote it, exactly (None if it does not decode for these analyses)."""
    if not isinstance(stored, dict):
        return None
    try:
        out = {a.name: a.precision.from_json(stored[a.name]) for a in found if a.precision is not None}
    except (KeyError, TypeError, ValueError, AttributeError):
        return None
    return out if set(out) == set(stored) else None


def to_json(found: list[Analysis], precision: dict[str, Any]) -> dict[str, Any]:
    return {a.name: a.precision.to_json(precision[a.name]) for a in found
            if a.precision is not None and a.name in precision}
