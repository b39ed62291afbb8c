"""Invariants for k-induction's step case, found Houdini-style (see the package)."""

from __future__ import annotations

import time
from collections.abc import Callable

import z3

from ...cfa.cfa import Program
from .. import horn
from ..horn import ERROR, RelKey
from ..solving import subterms
from .algebraic import Equality
from .algebraic import atom as equality_atom
from .system import STEP_MS, State, TransitionSystem, VarKey, check_error

MAX_CANDIDATE_CONSTANTS = 12  # per sort: the constants whose bounds become candidate invariants

# A bound (op, variable, other variable or None, constant), or a polynomial equality guessed
# from sampled states (algebraic.py); "" keys the globals' facts, which hold at every cut point;
# a relation keys facts over its function's locals where the program stands there.
Bound = tuple[str, VarKey, VarKey | None, int]
Candidate = Bound | Equality
InvKey = RelKey | str
GLOBAL = ""


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
            step_ms: int = STEP_MS) -> dict[InvKey, list[Candidate]] | None:
    """The largest subset of the candidates that the start establishes and every clause
    preserves (None: out of time), in the clauses' theory. The candidates: the bounds at every
    cut point, or with ``guessed`` equalities per cut point, those and the bounds at the same
    cut points only. Rounds check every clause against the current set and drop what a model
    refutes, until nothing changes."""
    inv = candidates(ts)
    if guessed is not None:
        inv = {k: v + list(guessed[k]) if k in guessed else [] for k, v in inv.items()}
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
    op, a, b, n = c
    rhs = name(b) if b is not None else str(n)
    if op == "u<=":
        return f"(unsigned){name(a)} <= {rhs}u"
    return f"{name(a)} {op.lstrip('s')} {rhs}"
