"""Predicate abstraction under BAM with tree interpolation (seeds 003, 000, 001): the registry's
``predicate``."""

from __future__ import annotations

from typing import Any

from ..registry import Analysis, PrecisionCodec, Setup, addressed_variables
from .atoms import atom_vars, base_var
from .cpa import PredicateCPA, PredicatePrecision


class PredicatePrecisions(PrecisionCodec):
    def schedule(self) -> list[tuple[Any, float]]:
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
    exit are what its summaries are made of, ``\\result == n + m``). A candidate speaks of one
    state: an entry copy (``n@old``) becomes its variable where the function never assigns
    that (a parameter it only reads), and an atom with any other is left out."""
    from .atoms import OLD, make_atom
    from .invariants import LoopInvariants

    loops = LoopInvariants(program)
    out: dict[tuple[str, int], list] = {}
    for f in program.all_functions():
        for n in f.nodes:
            if n.loop_head and (eqs := loops.at(f.name, n.canon)):
                out.setdefault((f.name, n.canon), []).extend(eqs)
    kept: dict[str, frozenset[str]] = {}
    for loc, atoms in (prec.at_node.items() if prec is not None else ()):
        if loc[0] not in kept:
            fn = program.functions.get(loc[0])
            kept[loc[0]] = _unassigned(program, fn) if fn is not None else frozenset()
        facts = []
        for a in sorted(atoms):
            coeffs: dict[str, int] = {}
            for v, c in a[1]:
                if v.endswith(OLD) and v[: -len(OLD)] not in kept[loc[0]]:
                    break
                v = v[: -len(OLD)] if v.endswith(OLD) else v
                coeffs[v] = coeffs.get(v, 0) + c
            else:
                if (fact := make_atom(a[0], coeffs, a[2])) is not None:
                    facts.append(fact)
        if facts:
            have = out.setdefault(loc, [])
            have.extend(a for a in facts if a not in have)
    return out


def _unassigned(program, fn) -> frozenset[str]:
    """The parameters ``fn`` never assigns and whose address it never takes: at any point of
    the function each equals its entry copy."""
    from ...cfa.ir import DeclEdge, Var

    written: set[str] = set()
    for e in fn.edges():  # assignments, calls and external calls with a result: their lhs
        target = e.var if isinstance(e, DeclEdge) else getattr(e, "lhs", None)
        while target is not None and not isinstance(target, Var):
            target = getattr(target, "base", None)
        if target is not None:
            written.add(target.name)
    return frozenset(p for p in fn.params if p not in written and not program.vars[p].addressed)


ANALYSIS = Analysis("predicate", _cpa, _Refiner, PredicatePrecisions(), addressed_variables,
                    invariants=_invariants)
