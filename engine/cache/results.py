"""Whole verification results in the cache, with paths stored relative to functions.

A result is keyed (keys.result_key) by the fingerprints of every function the analysis can
reach, the start function (globals and their initial values), and the options that decide it.
Error-path steps are stored as (function, canonical node, edge index); on a hit they are
mapped to the current CFA, so the ranges reported are where the code is now.
"""

from __future__ import annotations

from typing import Any

from ..cfa.cfa import Program
from ..core.result import (
    InputReport,
    PathStepReport,
    Statistics,
    UnknownReason,
    VerificationResult,
    Violation,
)
from ..frontend.errors import Range


def dump_result(result: VerificationResult) -> dict[str, Any]:
    return {
        "verdict": result.verdict, "reason": result.reason, "reason_kind": str(result.reason_kind),
        "search_stopped": str(result.search_stopped), "config": result.config, "reason_ref": result.reason_ref,
        "warnings": result.warnings, "statistics": result.statistics.to_json(), "invariants": result.invariants,
        "violations": [{
            "message": v.message, "kind": v.kind, "function": v.function, "ref": v.ref, "notes": v.notes,
            "harness": v.harness,
            "inputs": [{"source": i.source, "value": i.value, "type": i.type} for i in v.inputs],
            "steps": [{"kind": s.kind, "message": s.message, "function": s.function, "text": s.text,
                       "values": s.values, "ref": s.ref} for s in v.steps],
        } for v in result.violations],
    }


def _edge(program: Program, ref: list | None):
    if not ref:
        return None
    try:
        fn = program.function_of_name(ref[0])
        return fn.canonical_nodes()[ref[1]].out[ref[2]]
    except (KeyError, IndexError, TypeError):
        return None


def _violation_range(program: Program, ref: list | None) -> Range | None:
    if not ref:
        return None
    try:
        if ref[0] == "node":
            node = program.function_of_name(ref[1]).canonical_nodes()[ref[2]]
            return node.error.range if node.error is not None else None
        e = _edge(program, ref[1:])
        return e.range if e is not None else None
    except (KeyError, IndexError, TypeError):
        return None


def load_result(data: dict[str, Any], program: Program) -> VerificationResult | None:
    """The cached result mapped onto the current program, or None if it does not fit."""
    violations = []
    for v in data["violations"]:
        steps = []
        for s in v["steps"]:
            rng = None
            if s["ref"] is not None:
                if s["ref"][0] == "node":
                    rng = _violation_range(program, s["ref"])
                else:
                    e = _edge(program, s["ref"])
                    if e is None:
                        return None
                    rng = e.range
            steps.append(PathStepReport(s["kind"], s["message"], rng, s["function"], s["text"], s["values"],
                                        s["ref"]))
        rng = _violation_range(program, v["ref"])
        if v["ref"] is not None and rng is None:
            return None
        inputs = [InputReport(i["source"], i["value"], i["type"]) for i in v["inputs"]]
        violations.append(Violation(v["message"], v["kind"], rng, v["function"], steps, inputs, v["notes"],
                                    v["harness"], v["ref"]))
    stats = Statistics.from_json(data["statistics"])
    result = VerificationResult(data["verdict"], data["reason"], violations, stats, program.main_file,
                                data["config"], program.data_model.name, warnings=data["warnings"], source="cache",
                                reason_kind=UnknownReason(data.get("reason_kind", "")),
                                search_stopped=UnknownReason(data.get("search_stopped", "")),
                                invariants=dict(data.get("invariants", {})))
    if data.get("reason_ref"):
        result.reason_ref = data["reason_ref"]
        result.reason_range = _violation_range(program, data["reason_ref"])
        if result.reason_range is None:
            return None
    return result
