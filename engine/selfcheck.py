"""Self-check: every answer that used the cache is computed again from scratch and compared.

Switched on by ``CBAM_SELF_CHECK=1`` (``cbam verify --self-check`` sets it, so the editor's
worker processes inherit it). The property tests and the fuzzing campaigns run with it; a
difference is an internal error that carries both results.

What must agree. Reuse of block summaries, whole results and counterexample certificates is
memoization: with it a run must report exactly what a run without it reports. Reuse of a
learned precision is a hint: it may make a run faster or slower, and (because CEGAR depends
on the path it meets first) it may decide what a fresh run gives up on, or show another of
the program's real violations first; it may never contradict a fresh run, nor give up where
a fresh run decides. Runs that a time limit cut short, or in which a phase ran out of its
share of the time, are not compared: what they found depends on the machine's speed.
"""

from __future__ import annotations

import json
import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

ENV = "CBAM_SELF_CHECK"
_TIMING = ("timeout", "cancelled", "memory")


class SelfCheckFailed(Exception):
    """An answer that used the cache differs from the answer computed without it."""


def enabled() -> bool:
    return os.environ.get(ENV, "") not in ("", "0")


def violation_identity(v: dict[str, Any]) -> str:
    """Which check fails (its kind and place), whatever inputs the report gives as an example."""
    return json.dumps([v["kind"], v["function"], v["range"]], sort_keys=True)


def _strip(v: dict[str, Any]) -> dict[str, Any]:
    """A violation's check and its path, step by step: where each step is, what kind it is and
    which branch it takes. Not the example values: z3 picks a model of the same path formula,
    and which one depends on what its context saw before, not on the program."""
    steps = [[s["kind"], s["function"], s["range"], s["text"], s["message"] if s["kind"] == "branch" else None]
             for s in v["path"]]
    return {"check": violation_identity(v), "path": steps, "inputs": [(i["source"], i["type"]) for i in v["inputs"]]}


def _order(v: dict[str, Any]) -> str:
    return json.dumps(v, sort_keys=True)


def compare(cached: dict[str, Any], scratch: dict[str, Any], several: bool) -> str | None:
    """Why two reports (the JSON of VerificationResult.to_json) disagree, or None. ``several``:
    the runs searched for every violation, not only the first."""
    if cached.get("reason_kind") in _TIMING or scratch.get("reason_kind") in _TIMING:
        return None
    if {cached.get("search_stopped"), scratch.get("search_stopped")} & set(_TIMING):
        return None
    if any(r.get("cut_by_time") for r in (cached, scratch)):
        return None
    # A reused precision leads the search another way; so does a portfolio that went another
    # way (its first probe is cut at a fixed time: on a loaded machine another engine decides).
    # Then each run's error paths are their own, and only what they decide must agree.
    # Merged-path BMC's path is the one its solver's model picks, and z3's models depend on the
    # terms the process made before (a run after another differs from a run alone).
    engines = {r.get("statistics", {}).get("decided_by", "") for r in (cached, scratch)}
    hinted = bool(cached.get("statistics", {}).get("precision_reused")) or len(engines) > 1 or any(
        "merged-bmc" in e for e in engines)
    a, b = cached["verdict"], scratch["verdict"]
    if {a, b} == {"TRUE", "FALSE"}:
        return f"the cached run answered {a}, a run without the cache answers {b}"
    if a == "UNKNOWN" and b != "UNKNOWN":
        return f"the cached run gave up ({cached['reason']}), a run without the cache answers {b}"
    if a != "UNKNOWN" and b == "UNKNOWN" and not hinted:
        return f"the cached run answered {a}, a run without the cache gives up ({scratch['reason']})"
    if a == b == "UNKNOWN" and cached.get("reason_kind") != scratch.get("reason_kind") and not hinted:
        return f"the runs give up for different reasons: {cached['reason']!r} against {scratch['reason']!r}"
    if a == b == "FALSE":
        mine = [_strip(v) for v in cached["violations"]]
        theirs = [_strip(v) for v in scratch["violations"]]
        if several:
            # Every violation, in the order each search met them: a summary reused from the cache
            # may hand its exits over in another order than a fresh analysis of the block.
            mine, theirs = sorted(mine, key=_order), sorted(theirs, key=_order)
        if not hinted and mine != theirs:
            return "the runs report different violations or error paths"
        # A search that stopped on a path it could not settle found what it met before it.
        exhaustive = not cached.get("search_stopped") and not scratch.get("search_stopped")
        if hinted and several and exhaustive and sorted(v["check"] for v in mine) != sorted(
                v["check"] for v in theirs):
            return "the runs report different sets of failing checks"
    return None


def failure(problem: str, cached: dict[str, Any], scratch: dict[str, Any]) -> SelfCheckFailed:
    def brief(r: dict[str, Any]) -> str:
        return json.dumps({k: r.get(k) for k in ("verdict", "reason", "reason_kind", "source", "violations")},
                          indent=1, sort_keys=True)[:6000]
    return SelfCheckFailed(f"cbam self-check: {problem}\n--- with the cache:\n{brief(cached)}\n"
                           f"--- without the cache:\n{brief(scratch)}")
