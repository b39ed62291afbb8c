"""Invariants for k-induction's step case, found Houdini-style (see the package)."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import z3

from ...cfa.cfa import Program
from ...cfa.ctype import IntType
from ...cpa.predicate.atoms import Atom, atom_to_c, atom_to_z3
from ...smt.solving import subterms
from ..equalities import Equality
from ..equalities import atom as equality_atom
from ..horn import clauses as horn
from ..horn.clauses import ERROR, RelKey
from .system import STEP_MS, State, TransitionSystem, VarKey, check_error

MAX_CANDIDATE_CONSTANTS = 12  # per sort: the constants whose bounds become candidate invariants
MAX_OFFERED = 48  # per cut point: the facts other analyses offer (registry's ``invariants``) kept as candidates


@dataclass(frozen=True)
class Offered:
    """A linear fact another analysis offered at a location (registry's ``invariants``), over
    the state's variables: ``vars`` maps each program variable to its state variable and type."""

    fact: Atom
    vars: tuple[tuple[str, VarKey, IntType], ...]

    def formula(self, vals: dict[VarKey, z3.ExprRef]) -> z3.BoolRef:
        by = {name: (key, t) for name, key, t in self.vars}
        theory = "lia" if isinstance(vals[self.vars[0][1]].sort(), z3.ArithSortRef) else "bv"
        return atom_to_z3(self.fact, lambda n: vals[by[n][0]], lambda n: by[n][1], theory)


# A bound (op, variable, other variable or None, constant), a polynomial equality guessed
# from sampled states (algebraic.py), or a fact another analysis offered; "" keys the globals'
# facts, which hold at every cut point; a relation keys facts over its function's locals where
# the program stands there.
Bound = tuple[str, VarKey, VarKey | None, int]
Candidate = Bound | Equality | Offered
InvKey = RelKey | str
GLOBAL = ""


def offered(program: Program, ts: TransitionSystem, facts: dict[RelKey, list[Atom]]) -> dict[InvKey, list[Candidate]]:
    """Other analyses' facts as candidates per cut point, at most ``MAX_OFFERED`` each: those
    at the cut point itself, then the other facts of its function, those at loop heads first.
    A loop invariant must hold at the joins inside the loop too, which are cut points of their
    own, for Houdini to find it inductive; and a predicate refinement needed anywhere in a loop
    is a candidate invariant of the loop. Only facts over the function's own locals: a
    caller's facts are assumed while its callee runs (``holds``), which may write globals."""
    heads = {(f.name, n.canon) for f in program.all_functions() for n in f.nodes if n.loop_head}
    own: dict[RelKey, list[Candidate]] = {}
    shared: dict[str, dict[Candidate, None]] = {}  # per function, in order
    for loc in sorted(facts, key=lambda k: (k not in heads, k)):
        made: list[Candidate] = [c for a in facts[loc] if (c := _offered(program, ts, loc[0], a)) is not None]
        own[loc] = made
        shared.setdefault(loc[0], {}).update(dict.fromkeys(made))
    out: dict[InvKey, list[Candidate]] = {}
    for k in ts.pc_of:
        picked = dict.fromkeys(own.get(k, [])[:MAX_OFFERED])
        for other in shared.get(k[0], ()):
            if len(picked) >= MAX_OFFERED:
                break
            picked.setdefault(other)
        if picked:
            out[k] = list(picked)
    return out


def _offered(program: Program, ts: TransitionSystem, function: str, a: Atom) -> Offered | None:
    vars_: list[tuple[str, VarKey, IntType]] = []
    for name, _ in a[1]:
        key = (function, name)
        info = program.vars.get(name)
        sort = ts.sorts.get(key)
        if info is None or not isinstance(info.type, IntType) or sort is None:
            return None
        if isinstance(sort, z3.BitVecSortRef) and sort.size() != info.type.bits:
            return None
        vars_.append((name, key, info.type))
    return Offered(a, tuple(vars_)) if vars_ else None


def holds(ts: TransitionSystem, s: State, invariants: dict[InvKey, list[Candidate]]) -> list[z3.BoolRef]:
    """The invariants in state ``s``: the globals' facts, each cut point's facts where the state
    stands there, and a caller's facts at a call while the callee runs (the caller's locals do
    not change meanwhile, as the program has no recursion)."""
    out = [atom(c, s) for c in invariants.get(GLOBAL, [])]
    for k, cands in invariants.items():
        if k != GLOBAL and cands:
            out.append(z3.Implies(ts.at(s, k), z3.And(*[atom(c, s) for c in cands])))  # type: ignore[arg-type]
    for call, site in ts.site_of.items():
        cands = invariants.get(site, [])
        if cands:
            out.append(z3.Implies(s.ret[ts.callee_of[call]] == call, z3.And(*[atom(c, s) for c in cands])))
    return out


def atom(c: Candidate, s: State, vals: dict[VarKey, z3.ExprRef] | None = None) -> z3.BoolRef:
    vals = s.vals if vals is None else vals
    if isinstance(c, Offered):
        return c.formula(vals)
    if isinstance(c, Equality):
        return equality_atom(c, vals)
    op, a, b, n = c
    x = vals[a]
    if isinstance(x.sort(), z3.ArithSortRef):
        y = vals[b] if b is not None else z3.IntVal(n)
        return x == y if op == "==" else x >= y if op == "s>=" else x <= y
    y = vals[b] if b is not None else z3.BitVecVal(n, x.size())
    if op == "==":
        return x == y
    if op == "s>=":
        return x >= y
    if op == "s<=":
        return x <= y
    return z3.ULE(x, y)


def candidates(ts: TransitionSystem) -> dict[InvKey, list[Candidate]]:
    """Bounds of each variable by the program's constants: the globals' everywhere, each
    function's locals per cut point."""
    constants: dict[int, set[int]] = {}  # per bit-vector width (0: integers)
    for c in ts.clauses:
        for f in c.constraints:
            for t in _numerals(f):
                constants.setdefault(t.size() if z3.is_bv_value(t) else 0, set()).add(t.as_long())

    def bounds(v: VarKey) -> list[Candidate]:
        sort = ts.sorts[v]
        if isinstance(sort, z3.ArithSortRef):
            # Over the integers (the machine integers of horn's "lia" clauses): the program's
            # constants, and int's range: a wide variable that counts up to an int stays within
            # int's range (``long long c`` below ``int k``), which no constant of the program says.
            ns = sorted(constants.get(0, set()) | {0, 1})[:MAX_CANDIDATE_CONSTANTS]
            out_int: list[Candidate] = [(op, v, None, n) for n in ns for op in ("==", "s>=", "s<=")]
            return out_int + [("s<=", v, None, (1 << 31) - 1), ("s>=", v, None, -(1 << 31))]
        if not isinstance(sort, z3.BitVecSortRef):
            return []
        ns = sorted(constants.get(sort.size(), set()) | {0, 1})[:MAX_CANDIDATE_CONSTANTS]
        return [(op, v, None, n) for n in ns for op in ("==", "s>=", "s<=", "u<=")]

    out: dict[InvKey, list[Candidate]] = {GLOBAL: [c for v in ts.locals.get(GLOBAL, []) for c in bounds(v)]}
    for k in ts.pc_of:
        out[k] = [c for v in ts.locals.get(k[0], []) for c in bounds(v)]
    return out


def _numerals(f: z3.ExprRef) -> list[z3.BitVecNumRef]:
    return [t for t in subterms(f) if z3.is_bv_value(t) or z3.is_int_value(t) and abs(t.as_long()) < (1 << 20)]


def houdini(ts: TransitionSystem, deadline: float, cancelled: Callable[[], bool],
            guessed: dict[RelKey, list[Equality]] | None = None,
            step_ms: int = STEP_MS, offers: dict[InvKey, list[Candidate]] | None = None,
            ) -> dict[InvKey, list[Candidate]] | None:
    """The largest subset of the candidates that the start establishes and every clause
    preserves (None: out of time), in the clauses' theory. The candidates: the bounds at every
    cut point, or with ``guessed`` equalities per cut point, those and the bounds at the same
    cut points only; ``offers``: other analyses' facts (``offered``), candidates besides these.
    Rounds check every clause against the current set and drop what a model refutes, until
    nothing changes."""
    inv = candidates(ts)
    if guessed is not None:
        inv = {k: v + list(guessed[k]) if k in guessed else [] for k, v in inv.items()}
    for k, cands in (offers or {}).items():
        if k in inv:
            inv[k] = inv[k] + cands
    s = ts.state(0)
    changed = True
    while changed:
        changed = False
        for t in ts.templates:
            c = t.clause
            if c.head == ERROR:
                continue
            if cancelled() or time.monotonic() > deadline:
                return None
            guard, writes = ts.instance(t, s if c.body else None)
            if c.body:
                pre = [atom(x, s) for x in inv[GLOBAL]]
                pre += [atom(x, s) for k, _ in c.body for x in inv[k]]
                post = {**s.vals, **writes}
            else:
                pre = []
                post = {v: writes.get(v, z3.FreshConst(sort, "init")) for v, sort in ts.sorts.items()}
            # One solver per clause, each weakening tried under an assumption (see check_error).
            solver = z3.SolverFor("QF_BV") if isinstance(s.pc.sort(), z3.BitVecSortRef) and all(
                isinstance(x, z3.BitVecSortRef) for x in ts.sorts.values()) else z3.Solver()
            solver.add(*guard, *pre)
            for key in (GLOBAL, c.head):
                todo = inv[key]
                while todo:
                    r = check_error(solver, z3.Not(z3.And(*[atom(x, s, post) for x in todo])),
                                     min(step_ms, int((deadline - time.monotonic()) * 1000)))
                    if r == z3.unsat:
                        break
                    if r != z3.sat:
                        # Out of time on nonlinear arithmetic, typically: the highest-degree
                        # equalities go (dropping candidates is always sound), else give up.
                        top = max((x.degree for x in todo if isinstance(x, Equality)), default=0)
                        if top < 2 or time.monotonic() > deadline:
                            return None
                        todo = [x for x in todo if not isinstance(x, Equality) or x.degree < top]
                        changed = True
                        continue
                    m = solver.model()
                    todo = [x for x in todo if z3.is_true(m.eval(atom(x, s, post), model_completion=True))]
                    changed = True
                inv[key] = todo
    return inv


def exit_facts(program: Program, invariants: dict[InvKey, list[Candidate]]) -> dict[str, str]:
    """Per function, the invariants at its exit (its locals and the globals) in C, for hover."""
    out: dict[str, str] = {}
    glob = invariants.get(GLOBAL, [])
    for f in program.functions.values():
        facts = [*invariants.get(horn.key(f.exit), []), *glob]
        out[f.name] = " && ".join(dict.fromkeys(_c_atom(c, f.result_var) for c in facts)) or "true"
    return out


def _c_atom(c: Candidate, result_var: str | None) -> str:
    def name(v: VarKey) -> str:
        return "\\result" if v[1] == result_var else v[1].split("::")[-1]

    if isinstance(c, Equality):
        return c.text(name)
    if isinstance(c, Offered):
        return atom_to_c(c.fact, lambda v: "\\result" if v == result_var else v.split("::")[-1])
    op, a, b, n = c
    rhs = name(b) if b is not None else str(n)
    if op == "u<=":
        return f"(unsigned){name(a)} <= {rhs}u"
    return f"{name(a)} {op.lstrip('s')} {rhs}"
