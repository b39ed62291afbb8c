"""Counterexample certificates: a FALSE that survives edits its path does not depend on.

Blocks that reach a target are never stored as summaries (they are not complete), so
after any edit a violation used to be re-derived from the start block down, including
every recursion iteration that led to it. A certificate records, for a violation found
by the first abstract run of a phase (no refinement before it):

* each block on the call chain to the target (the *levels*): its store key (function
  fingerprint, reduced entry, precision) and, in the order they were used, the callee
  summaries it consumed before the target, each with an order-sensitive digest of its
  exits (the order decides which target a depth-first search meets first); a summary
  of an unfinished recursion is recorded by the fingerprints of all the code it reaches,
  since the same code yields the same summary in the same iteration;
* every other function the error path passes through, by the fingerprints of all the
  code it reaches (the path's steps inside them are rebuilt from that code);
* the reported result, with its path stored relative to functions.

A run that finds the certificate valid would explore exactly as the run that wrote it,
up to the same target, so it reports the same violation, path and inputs as a
from-scratch run; the path is mapped to where its code is now. Validation analyses only
the consumed callees (cache hits unless their code changed), so a leaf edit that keeps
its summary re-explores that leaf and nothing else. Anything that does not match falls
back to the full analysis.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..cfa.cfa import Program
from ..cfa.ir import CFANode
from ..core.cpa_algorithm import BudgetExceeded
from ..core.result import VerificationResult, Violation
from .results import dump_result, load_result
from .store import CacheStore

if TYPE_CHECKING:
    from ..core.bam import BAM
    from .blockcache import PersistentBlocks


def _path_functions(result: VerificationResult) -> set[str]:
    return _path_functions_of(result.violations)


def _path_functions_of(violations: list[Violation]) -> set[str]:
    out: set[str] = set()
    for v in violations:
        for ref in [v.ref, *(s.ref for s in v.steps)]:
            if ref:
                out.add(ref[1] if ref[0] == "node" else ref[0])
    return out


def record(store: CacheStore, persistent: PersistentBlocks, file: str, run: str,
           result: VerificationResult) -> None:
    """File the certificate of a FALSE found by the first abstract run (else drop the old one)."""
    levels = persistent.target_levels
    if result.verdict != "FALSE" or len(result.violations) != 1 or not levels:
        store.put_certificate(file, run, None)
        return
    level_fns = {lvl["function"] for lvl in levels}
    paths = {fn: persistent.deep_key(fn) for fn in sorted(_path_functions(result) - level_fns)}
    if any(k is None for k in paths.values()):
        store.put_certificate(file, run, None)
        return
    store.put_certificate(file, run, {"levels": levels, "paths": paths, "result": dump_result(result)})


def record_chain(store: CacheStore, persistent: PersistentBlocks, file: str, run: str, result: VerificationResult,
                 chain: list[list[dict]], precision: dict, hinted: bool) -> None:
    """Multi-violation mode: the certificates of the first violations, in the order the search
    found them (each with the earlier ones excluded), while each was found by the first phase
    before any refinement; the violations after them have none."""
    steps = []
    for levels, v in zip(chain, result.violations):
        level_fns = {lvl["function"] for lvl in levels}
        paths = {fn: persistent.deep_key(fn) for fn in sorted(_path_functions_of([v]) - level_fns)}
        if not levels or any(k is None for k in paths.values()):
            break
        steps.append({"levels": levels, "paths": paths})
    payload = {"chain": steps, "result": dump_result(result), "precision": precision, "hinted": hinted}
    store.put_certificate(file, run, payload if steps else None)


def revalidate_chain(cert: dict[str, Any], persistent: PersistentBlocks, bam: BAM, program: Program,
                     prec: dict) -> tuple[list[Violation], dict[int, CFANode], list[list[dict]]]:
    """The violations of a chain certificate (record_chain) whose certificates still hold under
    ``prec`` (the precision they were found under), in order up to the first that does not;
    their error locations; and their certificates' levels (to be recorded again)."""
    violations: list[Violation] = []
    excluded: dict[int, CFANode] = {}
    levels: list[list[dict]] = []
    try:
        loaded = load_result(cert["result"], program)
        if loaded is None:
            return [], {}, []
        for step, v in zip(cert["chain"], loaded.violations):
            bam.excluded_targets = dict(excluded)  # what the search that found it had excluded
            node = _error_node(program, v.ref)
            if node is None or not _holds(step, persistent, bam, prec, excluded):
                break
            violations.append(v)
            excluded[id(node)] = node
            levels.append(step["levels"])
    except BudgetExceeded:
        pass
    except (KeyError, IndexError, TypeError, ValueError, AttributeError):
        pass  # written by an incompatible layout: what held so far stands
    bam.excluded_targets = {}
    return violations, excluded, levels


def _error_node(program: Program, ref: list | None) -> CFANode | None:
    if not ref or ref[0] != "node":
        return None
    try:
        node = program.function_of_name(ref[1]).canonical_nodes()[ref[2]]
    except (KeyError, IndexError, TypeError):
        return None
    return node if node.error is not None else None


def revalidate(store: CacheStore, persistent: PersistentBlocks, bam: BAM, program: Program, file: str, run: str,
               prec: dict) -> VerificationResult | None:
    """The certified violation on the current program, or None (then analyse as usual).

    Consumed callees are analysed through ``bam`` (its budget bounds the work); what it
    learns stays in its cache for the analysis that follows a failed validation.
    """
    cert = store.get_certificate(file, run)
    if not isinstance(cert, dict):
        return None
    try:
        return _revalidate(cert, persistent, bam, program, prec)
    except BudgetExceeded:
        return None
    except (KeyError, IndexError, TypeError, ValueError, AttributeError):
        return None  # written by an incompatible layout


def _revalidate(cert: dict[str, Any], persistent: PersistentBlocks, bam: BAM, program: Program,
                prec: dict) -> VerificationResult | None:
    if not cert["levels"] or cert["result"]["verdict"] != "FALSE":
        return None
    return load_result(cert["result"], program) if _holds(cert, persistent, bam, prec, None) else None


def _holds(cert: dict[str, Any], persistent: PersistentBlocks, bam: BAM, prec: dict,
           excluded: dict[int, CFANode] | None) -> bool:
    """Whether a search would reach the certified target exactly as the one that recorded it:
    the code its path passes through, the blocks it was found through (their keys, with the
    error locations excluded then) and what each consumed before it are all unchanged."""
    if not cert["levels"]:
        return False
    for fn, key in cert["paths"].items():
        if persistent.deep_key(fn) != key:
            return False
    cpa = bam.cpa
    for lvl in cert["levels"]:
        block = bam.blocks.get(lvl["function"])
        if block is None:
            return False
        entry = persistent.state_from_json(lvl["entry"])
        if persistent.key(block, entry, cpa.precision_key(prec, block), excluded) != lvl["key"]:
            return False
    for lvl in cert["levels"]:
        for c in lvl["consumed"]:
            if c.get("dependent"):
                if persistent.deep_key(c["callee"]) != c["deep"]:
                    return False
                continue
            callee = bam.blocks.get(c["callee"])
            if callee is None:
                return False
            if persistent.unchanged(callee, c, prec, excluded):
                continue
            res, exits = bam.call(callee, persistent.state_from_json(c["entry"]), prec)
            if res.targets or res.dependent or persistent.ordered_digest(callee, [x for _, x in exits]) != c["ordered"]:
                return False
    return True
