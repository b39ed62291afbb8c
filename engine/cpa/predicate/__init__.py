"""Predicate abstraction under BAM with tree interpolation (Théoduloz 2010; Beyer & Friedberger 2020; Friedberger 2015): the registry's
``predicate``."""

from __future__ import annotations

from typing import Any

from ..registry import Analysis, PrecisionCodec, Setup, memory_context
from .atoms import atom_vars, base_var
from .cpa import PredicateCPA, PredicatePrecision


class PredicatePrecisions(PrecisionCodec):
    def schedule(self, program) -> list[tuple[Any, float]]:
        return [(PredicatePrecision(), 1.0)]

    def to_json(self, prec: PredicatePrecision) -> Any:
        return prec.to_json()

    def from_json(self, data: Any) -> PredicatePrecision:
        return PredicatePrecision.from_json(data)

    def reuse(self, program, prec: PredicatePrecision) -> PredicatePrecision | None:
        """The predicates over variables that still exist, at functions that still exist."""
        known = program.vars
        fns = set(program.functions) | {program.start.name}
        at = {k: frozenset(a for a in v if all(base_var(x) in known for x in atom_vars(a)))
              for k, v in prec.at_node.items() if k[0] in fns}
        kept = PredicatePrecision({k: v for k, v in at.items() if v}, frozenset(k for k in prec.checks if k[0] in fns))
        return kept if kept.at_node or kept.checks else None


def _cpa(setup: Setup) -> PredicateCPA:
    # Beside an analysis that already prunes the infeasible branches it can see (the value
    # analysis), the path formula is checked only where a refinement asked for it (lazy checks).
    return PredicateCPA(setup.program, setup.blocks, setup.theory, lazy_checks=setup.companion_prunes_branches)


class _Refiner:
    """The predicate refiner, made at the first refinement that reaches it: most runs never
    do (the value analysis refines first, or nothing needs refining), and its module (tree
    interpolation, loop invariants over fractions) costs a new process 4 ms to import."""

    def __init__(self, cpa: PredicateCPA):
        self.cpa = cpa
        self._made: Any = None

    def refine(self, *args: Any) -> Any:
        if self._made is None:
            from .refiner import PredicateRefiner

            self._made = PredicateRefiner(self.cpa)
        return self._made.refine(*args)


def _invariants(program, prec: PredicatePrecision | None, deadline: float) -> dict[tuple[str, int], list]:
    """What the predicate analysis offers as candidate invariants: the affine equalities at
    each loop head that its refiner offers as loop predicates (invariants.py, Karr's analysis),
    and the predicates refinement placed at each location (with BAM, those at a function's
    exit are what its summaries are made of). A candidate speaks of one state, so atoms over
    entry copies (``x@old``) are left out; a parameter the function never assigns has none
    (cpa.frame_copies), and a summary such as ``\\result == n`` speaks of ``n`` itself."""
    from .atoms import OLD
    from .invariants import LoopInvariants

    loops = LoopInvariants(program)
    out: dict[tuple[str, int], list] = {}
    for f in program.all_functions():
        for n in f.nodes:
            if n.loop_head and (eqs := loops.at(f.name, n.canon)):
                out.setdefault((f.name, n.canon), []).extend(eqs)
    for loc, atoms in (prec.at_node.items() if prec is not None else ()):
        facts = [a for a in sorted(atoms) if not any(v.endswith(OLD) for v in atom_vars(a))]
        if facts:
            have = out.setdefault(loc, [])
            have.extend(a for a in facts if a not in have)
    return out


ANALYSIS = Analysis("predicate", _cpa, _Refiner, PredicatePrecisions(), memory_context,
                    invariants=_invariants)
