"""Invariants from templates, found Houdini-style over the program's Horn clauses.

Spacer generalizes from the clauses alone. Over an array's distinguished cell (horn/cells.py) a
loop nest needs a fact such as ``d < i*1500 + j ==> v == C`` ("every cell written so far holds
C"), which Spacer finds for one loop and seldom for a nest. The shape of such facts can be read
off the program: the region a loop has written is bounded by its write's index at the loop's
counters (inner counters at their first value, or every counter: the whole array), and what it
wrote there is the written expression (other arrays' cells at the same index read as their
``v`` where their ``d`` is the same), or a comparison the program makes on the cell.

So every relation of a function gets candidates from these templates, beside bounds of each
variable by the program's constants and the order of its variables. Houdini drops each
candidate that some clause does not preserve, until what is left is inductive; if it also
excludes every error clause, the conjunctions are an inductive invariant over the integers:
a candidate for horn's machine-integer check, exactly like Spacer's answer.
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Callable

import z3

from ...cfa.cfa import FunctionCFA, Program
from ...cfa.ctype import IntType
from ...cfa.ir import AssignEdge, AssumeEdge, Binary, CallEdge, Cast, Const, DeclEdge, Expr, Index, Unary, Var
from ...smt.solving import check_within
from .cells import Cell

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .clauses import Clause, Encoder, HornOutcome, Interpretation, RelKey

MAX_CONSTANTS = 16  # per function: the constants that bound its variables in candidates
MAX_COUNTERS = 4  # variables of one index whose first values vary the region's bound
MAX_PER_RELATION = 4000
CHECK_MS = 2000  # one clause's check at most
ONE_MS = 500  # one candidate's, where the clause's check for all of them was undecided

_COMPARE = {"<": lambda a, b: a < b, "<=": lambda a, b: a <= b, ">": lambda a, b: a > b,
            ">=": lambda a, b: a >= b, "==": lambda a, b: a == b, "!=": lambda a, b: a != b}
_NEGATE = {"<": ">=", "<=": ">", ">": "<=", ">=": "<", "==": "!=", "!=": "=="}
NO_PROOF = "the template invariants do not exclude the error"
TIMED_OUT = "the template invariants ran out of time"


def solve(program: Program, enc: Encoder, clauses: list[Clause], error: RelKey, deadline: float,
          cancelled: Callable[[], bool] = lambda: False,
          extra: Callable[[RelKey, dict[str, z3.ArithRef]], list[z3.BoolRef]] | None = None
          ) -> dict[RelKey, Interpretation] | str:
    """An inductive invariant over the integers that excludes every clause into ``error`` (the
    relation horn.py names for a reachable error), from the templates (over ``enc``'s integer
    clauses), or why there is none. ``extra``: further candidates of a relation, over its
    frame's placeholders by name (horn/samples.py's guesses)."""
    functions = {f.name: f for f in program.all_functions()}
    holes: dict[str, list[z3.ArithRef]] = {}
    per_function: dict[str, list[z3.BoolRef]] = {}
    rels: set[RelKey] = set()
    for c in clauses:
        for k in [c.head, *(k for k, _ in c.body)]:
            if k != error:
                rels.add(k)
    for name in sorted({k[0] for k in rels}):
        frame = enc.frame(functions[name])
        holes[name] = [z3.Int(f"__a{i}") for i in range(len(frame))]
        per_function[name] = _candidates(program, enc, functions[name], dict(zip(frame, holes[name])))
    cands: dict[RelKey, list[z3.BoolRef]] = {k: list(per_function[k[0]]) for k in rels}
    if extra is not None:
        for k in rels:
            names = dict(zip(enc.frame(functions[k[0]]), holes[k[0]]))
            cands[k] += [x for x in extra(k, names) if not any(x.eq(y) for y in cands[k])]

    def inst(k: RelKey, args: list[z3.ExprRef]) -> list[z3.BoolRef]:
        return _instances(cands[k], holes[k[0]], args)

    # A clause is checked again only when what its body assumes got weaker.
    readers: dict[RelKey, list[int]] = {}
    for i, c in enumerate(clauses):
        for k, _ in c.body:
            readers.setdefault(k, []).append(i)
    todo = [i for i, c in enumerate(clauses) if c.head != error]
    queued = set(todo)
    while todo:
        i = todo.pop(0)
        queued.discard(i)
        c = clauses[i]
        if not cands[c.head]:
            continue
        if cancelled() or time.monotonic() > deadline:
            return TIMED_OUT
        before = len(cands[c.head])
        _prune(c, cands, inst, deadline, cancelled)
        if time.monotonic() > deadline:
            return TIMED_OUT
        if len(cands[c.head]) < before:
            for j in readers.get(c.head, []):
                if j not in queued and clauses[j].head != error:
                    queued.add(j)
                    todo.append(j)
    for c in clauses:
        if c.head != error:
            continue
        solver = z3.Solver()
        for k, args in c.body:
            solver.add(*inst(k, args))
        solver.add(*c.constraints)
        ms = int(min(CHECK_MS, max(1.0, 1000 * (deadline - time.monotonic()))))
        if check_within(solver, ms) != z3.unsat:
            return NO_PROOF
    kept = _needed(clauses, cands, holes, error, deadline)
    return {k: (z3.And(fs) if fs else z3.BoolVal(True), holes[k[0]]) for k, fs in kept.items()}


def _needed(clauses: list[Clause], cands: dict[RelKey, list[z3.BoolRef]], holes: dict[str, list[z3.ArithRef]],
            error: RelKey, deadline: float) -> dict[RelKey, list[z3.BoolRef]]:
    """Of an inductive invariant that excludes the errors, a part that still does: what the
    error clauses' unsat cores need, and what the clauses into it need to preserve that, by
    cores again. The machine-integer check then reads far fewer facts (it bit-blasts each
    clause: a nest over a three-dimensional array timed out with every surviving fact)."""
    need: dict[RelKey, set[int]] = {k: set() for k in cands}
    work: list[tuple[RelKey, int]] = []
    into: dict[RelKey, list[Clause]] = {}
    for c in clauses:
        into.setdefault(c.head, []).append(c)

    def core(c: Clause, goal: z3.BoolRef | None) -> bool:
        solver = z3.Solver()
        marks: dict[str, tuple[RelKey, int]] = {}
        lits = []
        for j, (k, args) in enumerate(c.body):
            for i, f in enumerate(_instances(cands[k], holes[k[0]], args)):
                p = z3.Bool(f"__keep{j}_{i}")
                marks[str(p)] = (k, i)
                lits.append(p)
                solver.add(z3.Implies(p, f))
        solver.add(*c.constraints)
        if goal is not None:
            solver.add(z3.Not(goal))
        ms = int(min(CHECK_MS, max(1.0, 1000 * (deadline - time.monotonic()))))
        solver.set("timeout", ms)
        if solver.check(*lits) != z3.unsat:
            return False
        for p in solver.unsat_core():
            k, i = marks[str(p)]
            if i not in need[k]:
                need[k].add(i)
                work.append((k, i))
        return True

    for c in into.get(error, []):
        if not core(c, None):
            return cands
    while work:
        if time.monotonic() > deadline:
            return cands
        k, i = work.pop()
        for c in into.get(k, []):
            goal = _instances([cands[k][i]], holes[k[0]], c.head_args)[0]
            if not core(c, goal):
                return cands
    return {k: [cands[k][i] for i in sorted(need[k])] for k in cands}


def _instances(fs: list[z3.BoolRef], holes: list[z3.ArithRef], args: list[z3.ExprRef]) -> list[z3.BoolRef]:
    """Each of ``fs`` with the placeholders replaced by ``args``, in one substitution (z3's
    Python API checks every pair's sorts per call: most of the time, one call per formula)."""
    if not fs:
        return []
    n = len(holes)
    src, dst = (z3.Ast * n)(), (z3.Ast * n)()
    for i, (h, a) in enumerate(zip(holes, args)):
        src[i], dst[i] = h.as_ast(), a.as_ast()
    ctx = fs[0].ctx
    ref = ctx.ref()
    return [z3.BoolRef(z3.Z3_substitute(ref, f.as_ast(), n, src, dst), ctx) for f in fs]


def _prune(c: Clause, cands: dict[RelKey, list[z3.BoolRef]], inst, deadline: float,
           cancelled: Callable[[], bool] = lambda: False) -> None:
    """Drop the head's candidates that the clause does not preserve, by models: each model of
    the body with some head candidate false rules out every candidate false in it."""
    solver = z3.Solver()
    for k, args in c.body:
        solver.add(*inst(k, args))
    solver.add(*c.constraints)
    while cands[c.head]:
        heads = inst(c.head, c.head_args)
        ms = int(min(CHECK_MS, max(1.0, 1000 * (deadline - time.monotonic()))))
        solver.push()
        solver.add(z3.Not(z3.And(heads)))
        r = check_within(solver, ms)
        if r == z3.unsat:
            return
        if r != z3.sat:
            solver.pop()
            _one_by_one(solver, cands, c, heads, deadline, cancelled)
            return
        m = solver.model()
        solver.pop()
        keep = [f for f, h in zip(cands[c.head], heads) if not z3.is_false(m.eval(h, model_completion=True))]
        cands[c.head] = keep if len(keep) < len(cands[c.head]) else []


def _one_by_one(solver: z3.Solver, cands: dict[RelKey, list[z3.BoolRef]], c: Clause, heads: list[z3.BoolRef],
                deadline: float, cancelled: Callable[[], bool]) -> None:
    """Where the head's candidates together were undecided, each on its own, for a moment:
    what the clause preserves is kept (one hard candidate, a table of 31 values, say, no longer
    costs all the others), anything undecided is not."""
    keep = []
    for f, h in zip(cands[c.head], heads):
        if cancelled() or time.monotonic() > deadline:
            break
        ms = int(min(ONE_MS, max(1.0, 1000 * (deadline - time.monotonic()))))
        solver.push()
        solver.add(z3.Not(h))
        if check_within(solver, ms) == z3.unsat:
            keep.append(f)
        solver.pop()
    cands[c.head] = keep


# ---- the templates ----------------------------------------------------------------------------
def _candidates(program: Program, enc: Encoder, f: FunctionCFA, names: dict[str, z3.ArithRef]) -> list[z3.BoolRef]:
    th = enc.th
    out: list[z3.BoolRef] = []
    seen: set[str] = set()

    def add(x: z3.BoolRef) -> None:
        x = z3.simplify(x)
        s = x.sexpr()
        if s not in seen and not z3.is_true(x) and len(out) < MAX_PER_RELATION:
            seen.add(s)
            out.append(x)

    cells = [c for c in enc.cells.arrays.values() if c.v in names]
    cell_vars = {x for c in cells for x in (*c.d, c.v, *[s for s in c.sizes if isinstance(s, str)])}
    plain = [v for v in names if v not in cell_vars and isinstance(th.type_of(v), IntType)]
    # Each variable is bounded by the constants it meets (compared with, assigned, or a fixed
    # variable it is compared with): a loop counter by its bound. Every constant of the function
    # for every variable was ten times as many candidates, and most of Houdini's time.
    met, pairs = associations(enc, f)
    for v in plain:
        for n in sorted(met.get(v, set()) | {0})[:MAX_CONSTANTS]:
            add(names[v] >= n)
            add(names[v] <= n)
            add(names[v] < n)  # a loop's guard, at a cut point inside the loop
            add(names[v] > n)
    ordered = set(plain)
    for a, b in sorted(pairs):
        if a in ordered and b in ordered:
            add(names[a] <= names[b])
            add(names[a] >= names[b])
            add(names[a] == names[b])
    for v in plain:
        if v.endswith("@old") and v[:-4] in names:
            add(names[v] == names[v[:-4]])
    for cell in cells:
        length = _vla_size(enc, f, cell)
        if length is not None and isinstance(cell.sizes[0], str):
            add(names[cell.sizes[0]] == length)
        for x in _cell_candidates(enc, f, cell, names):
            add(x)
    return out


def associations(enc: Encoder, f: FunctionCFA) -> tuple[dict[str, set[int]], set[tuple[str, str]]]:
    """Per variable, the constants it is compared with or assigned (a fixed variable reads as its
    constant); and the pairs of variables compared with each other or assigned one to the other."""
    consts: dict[str, set[int]] = {}
    pairs: set[tuple[str, str]] = set()

    def value(x: Expr) -> int | None:
        x = _uncast(x)
        if isinstance(x, Const) and isinstance(x.value, int):
            return x.value
        if isinstance(x, Var) and x.name in enc.fixed:
            return enc.fixed[x.name]
        return None

    def meet(a: Expr, b: Expr) -> None:
        a, b = _uncast(a), _uncast(b)
        va, vb = value(a), value(b)
        if isinstance(a, Var) and va is None:
            if vb is not None:
                consts.setdefault(a.name, set()).add(vb)
            elif isinstance(b, Var):
                pairs.add((min(a.name, b.name), max(a.name, b.name)))
        if isinstance(b, Var) and vb is None and va is not None:
            consts.setdefault(b.name, set()).add(va)

    for e in f.edges():
        if isinstance(e, AssignEdge) and isinstance(e.lhs, Var) and e.rhs is not None:
            meet(e.lhs, e.rhs)
        if isinstance(e, DeclEdge) and e.var is not None and e.init is not None:
            meet(e.var, e.init)
        for x in _exprs(e):
            for sub in x.walk():
                if isinstance(sub, Binary) and sub.op in _COMPARE:
                    meet(sub.left, sub.right)
    return consts, pairs


def _exprs(e) -> list[Expr]:
    from .cells import edge_exprs

    return [x for x in edge_exprs(e) if x is not None]


def _cell_candidates(enc: Encoder, f: FunctionCFA, cell: Cell, names: dict[str, z3.ArithRef]) -> list[z3.BoolRef]:
    """Facts over the cell in the regions the function's accesses to it bound."""
    if len(cell.d) != 1:
        return []  # per-dimension cells: regions are lexicographic, not templates here
    d = names[cell.d[0]]
    fixed = _vla_size(enc, f, cell)
    size = z3.IntVal(fixed) if fixed is not None else _size(cell, names)
    firsts = _first_values(f)
    regions: list[z3.BoolRef] = [z3.And(d >= 0, d < size)] if size is not None else []
    facts: list[z3.BoolRef] = []
    for e in f.edges():
        for idx, fact in _sites(enc, e, cell, names):
            flat = _flat(enc, cell, idx, names)
            if flat is None:
                continue
            for bound in _variants(flat, idx, firsts, names):
                regions.append(z3.And(d >= 0, d < bound))
                regions.append(z3.And(d >= 0, d <= bound))  # after the access, before the step
                if size is not None:
                    regions.append(z3.And(d > bound, d < size))
            facts.extend(fact)
    return [z3.Implies(r, x) for r in regions for x in facts]


def _size(cell: Cell, names: dict[str, z3.ArithRef]) -> z3.ArithRef | None:
    """The array's number of elements as a term (a variable-length array's is its length's
    pseudo-variable), or None."""
    constant = [s for s in cell.sizes if isinstance(s, int)]
    if len(constant) == len(cell.sizes):
        total = 1
        for s in constant:
            total *= s
        return z3.IntVal(total)
    if len(cell.sizes) == 1 and cell.sizes[0] in names:
        return names[cell.sizes[0]]
    return None


def _vla_size(enc: Encoder, f: FunctionCFA, cell: Cell) -> int | None:
    """A variable-length array's number of elements where its declaration's lengths are
    fixed (cfa/constants.py): ``int A[n][m]`` with ``int n = 1000, m = 1500``."""
    total = 1
    for e in f.edges():
        if isinstance(e, DeclEdge) and e.var is not None and e.var.name == cell.array and e.lengths:
            for n in e.lengths:
                t = _term(enc, n, {}, {})
                if t is None or not z3.is_int_value(z3.simplify(t)):
                    return None
                total *= z3.simplify(t).as_long()
            return total
    return None


def _first_values(f: FunctionCFA) -> dict[str, set[int]]:
    """Per variable, the constants the function assigns it (a loop counter's first value)."""
    out: dict[str, set[int]] = {}
    for e in f.edges():
        if isinstance(e, AssignEdge) and isinstance(e.lhs, Var) and isinstance(e.rhs, Const) \
                and isinstance(e.rhs.value, int):
            out.setdefault(e.lhs.name, set()).add(e.rhs.value)
        elif isinstance(e, DeclEdge) and e.var is not None and isinstance(e.init, Const) \
                and isinstance(e.init.value, int):
            out.setdefault(e.var.name, set()).add(e.init.value)
    return out


def _variants(flat: z3.ArithRef, idx: list[Expr], firsts: dict[str, set[int]],
              names: dict[str, z3.ArithRef]) -> list[z3.ArithRef]:
    """The index with each subset of its counters at a first value: the bound of what a loop
    nest has written when it stands at one of its loops' heads."""
    counters = sorted({v for i in idx for v in i.variables() if v in names and v in firsts})[:MAX_COUNTERS]
    out = [flat]
    for r in range(1, len(counters) + 1):
        for subset in itertools.combinations(counters, r):
            for values in itertools.product(*[sorted(firsts[c])[:2] for c in subset]):
                out.append(z3.substitute(flat, *[(names[c], z3.IntVal(n)) for c, n in zip(subset, values)]))
    return out


def _flat(enc: Encoder, cell: Cell, idx: list[Expr], names: dict[str, z3.ArithRef]) -> z3.ArithRef | None:
    xs = [_term(enc, i, names, {}) for i in idx]
    if any(x is None for x in xs):
        return None
    if len(xs) == 1:
        return xs[0]
    flat, stride = xs[-1], 1
    for x, size in zip(reversed(xs[:-1]), reversed(cell.sizes[1:])):
        if not isinstance(size, int):
            return None
        stride *= size
        flat = flat + x * stride
    return flat


def _sites(enc: Encoder, e, cell: Cell, names: dict[str, z3.ArithRef]) -> list[tuple[list[Expr], list[z3.BoolRef]]]:
    """The accesses to ``cell``'s array on edge ``e``: each full index, with the facts the
    access suggests (what a write stores; the comparisons a condition or an assertion makes)."""
    out: list[tuple[list[Expr], list[z3.BoolRef]]] = []
    cells = enc.cells
    v = names[cell.v]
    d = names[cell.d[0]]
    if isinstance(e, AssignEdge) and isinstance(e.lhs, Index):
        got = cells.chain(e.lhs)
        if got is not None and got[0] is cell:
            idx = got[1]
            flat = _flat(enc, cell, idx, names)
            coords = _coordinates(flat, d) if flat is not None else None
            guards: dict[str, z3.BoolRef] = {}
            rhs = _term(enc, e.rhs, names, guards, at=idx, d=d, coords=coords) if e.rhs is not None else None
            facts = []
            if rhs is not None:
                # What the write stores, at the cell's own index: the counters the index is made
                # of read as the cell's coordinates (``a[i][j] = i + j``: v == d / 60 + d % 60).
                at_d = z3.substitute(rhs, *coords) if coords else rhs
                facts.append(z3.Implies(z3.And(*guards.values()), v == at_d))
            out.append((idx, facts))
    conds: list[Expr] = []
    if isinstance(e, AssumeEdge) and e.cond is not None:
        conds.append(e.cond)
    if isinstance(e, CallEdge):
        conds.extend(e.args)
    for c in conds:
        for sub in c.walk():
            if not isinstance(sub, Binary) or sub.op not in _COMPARE:
                continue
            for mine, other, op in ((sub.left, sub.right, sub.op), (sub.right, sub.left, _flip(sub.op))):
                inner = _uncast(mine)
                got = cells.chain(inner) if isinstance(inner, Index) else None
                if got is None or got[0] is not cell:
                    continue
                guards = {}
                t = _term(enc, other, names, guards, at=got[1], d=d)
                if t is None:
                    continue
                g = z3.And(*guards.values())
                facts = [z3.Implies(g, _COMPARE[o](v, t)) for o in (op, _NEGATE[op])]
                out.append((got[1], facts))
    return out


def _flip(op: str) -> str:
    return {"<": ">", ">": "<", "<=": ">=", ">=": "<="}.get(op, op)


def _uncast(x: Expr) -> Expr:
    while isinstance(x, Cast):
        x = x.arg
    return x


def _coordinates(flat: z3.ArithRef, d: z3.ArithRef) -> list[tuple[z3.ArithRef, z3.ArithRef]] | None:
    """The counters an index is made of, each as a term over ``d``, the cell's own index: for
    ``1500*i + j``, ``i`` is ``d / 1500`` and ``j`` is ``d % 1500`` (row-major, each counter within
    its row, as inside the loops that write it). None if the index is not such a sum of counters
    with distinct coefficients, each a multiple of the next."""
    s = z3.simplify(flat)
    parts = s.children() if z3.is_add(s) else [s]
    terms: list[tuple[int, z3.ArithRef]] = []
    offset = 0
    for p in parts:
        if z3.is_int_value(p):
            offset += p.as_long()
        elif z3.is_const(p):
            terms.append((1, p))
        elif z3.is_mul(p) and p.num_args() == 2 and z3.is_int_value(p.arg(0)) and z3.is_const(p.arg(1)):
            terms.append((p.arg(0).as_long(), p.arg(1)))
        else:
            return None
    terms.sort(key=lambda t: -t[0])
    coefs = [c for c, _ in terms]
    if not terms or coefs[-1] != 1 or any(c <= 0 for c in coefs) or len({x.get_id() for _, x in terms}) != len(terms) \
            or any(a % b for a, b in zip(coefs, coefs[1:])) or len(set(coefs)) != len(coefs):
        return None
    rest = d - offset
    out: list[tuple[z3.ArithRef, z3.ArithRef]] = []
    for k, (c, x) in enumerate(terms):
        out.append((x, rest / c if k == 0 else (rest % coefs[k - 1]) / c))
    return out


def _term(enc: Encoder, x: Expr | None, names: dict[str, z3.ArithRef], guards: dict[str, z3.BoolRef],
          at: list[Expr] | None = None, d: z3.ArithRef | None = None,
          coords: list[tuple[z3.ArithRef, z3.ArithRef]] | None = None) -> z3.ArithRef | None:
    """``x`` over the frame's placeholders as an integer (C's wrap-around where it is defined),
    reading another array's cell at the index ``at`` as its ``v`` where its ``d`` is ``d``
    (recorded in ``guards``); None where that is not a term of this kind."""
    if x is None or not isinstance(x.type, IntType):
        return None
    t = x.type
    if isinstance(x, Const) and isinstance(x.value, int):
        return z3.IntVal(x.value)
    if isinstance(x, Var):
        if x.name in enc.fixed:
            return z3.IntVal(enc.fixed[x.name])
        return names.get(x.name)
    if isinstance(x, Cast):
        inner = _term(enc, x.arg, names, guards, at, d, coords)
        if inner is None or not isinstance(x.arg.type, IntType):
            return None
        src = x.arg.type
        return inner if t.is_bool is False and t.min <= src.min and src.max <= t.max else _wrap(inner, t)
    if isinstance(x, Index) and at is not None and d is not None:
        got = enc.cells.chain(x)
        if got is None or len(got[0].d) != 1 or got[0].v not in names:
            return None
        other = got[0]
        here, there = _flat(enc, other, got[1], names), _flat(enc, other, at, names)
        if here is None or there is None:
            return None
        for sign in (1, -1):  # the same index, or its mirror image (``B[m-1-i][n-1-j]``)
            b = z3.simplify(here - sign * there)
            if z3.is_int_value(b):
                guards[other.array] = names[other.d[0]] == sign * d + b
                return names[other.v]
        if coords:  # another index, at the cell's coordinates (a transpose: ``A[j][i]``)
            guards[other.array] = names[other.d[0]] == z3.substitute(here, *coords)
            return names[other.v]
        return None
    if isinstance(x, Unary) and x.op == "-":
        a = _term(enc, x.arg, names, guards, at, d, coords)
        return None if a is None else _wrap(-a, t) if not t.signed else -a
    if isinstance(x, Binary) and x.op in ("+", "-", "*"):
        a = _term(enc, x.left, names, guards, at, d, coords)
        b = _term(enc, x.right, names, guards, at, d, coords)
        if a is None or b is None:
            return None
        if x.op == "*" and not (z3.is_int_value(z3.simplify(a)) or z3.is_int_value(z3.simplify(b))):
            return None
        r = a + b if x.op == "+" else a - b if x.op == "-" else a * b
        return r if t.signed else _wrap(r, t)
    return None


def _wrap(r: z3.ArithRef, t: IntType) -> z3.ArithRef:
    n = 1 << t.bits
    m = r % n
    return z3.If(z3.And(r >= t.min, r <= t.max), r, z3.If(m > t.max, m - n, m) if t.signed else m)


HOUDINI_SHARE = 0.6  # of the template engine's time, for Houdini; the rest for the machine-integer check


def prove(program: Program, timeout_s: float, cancelled: Callable[[], bool] = lambda: False) -> HornOutcome:
    """A proof with machine integers from template invariants (this module's ``solve``) in place of
    Spacer's: facts over arrays' cells that a loop nest writes or compares, bounds and order,
    kept Houdini-style; then the same check with machine integers as Spacer's candidates get."""
    from .cells import Cells
    from .clauses import ERROR, HornOutcome, applies, checked_candidate, clauses_of

    t0 = time.monotonic()
    why = applies(program) or ("" if Cells.of(program).arrays else "no array whose cells the templates describe")
    if why:
        return HornOutcome("unknown", why)
    deadline = t0 + timeout_s
    got = clauses_of(program, "lia", frozenset(), deadline)
    if isinstance(got, HornOutcome):
        return got
    lia, clauses = got
    candidate = solve(program, lia, clauses, ERROR, t0 + HOUDINI_SHARE * timeout_s, cancelled)
    if isinstance(candidate, str):
        return HornOutcome("unknown", candidate, time.monotonic() - t0, timed_out=candidate == TIMED_OUT)
    # Their facts are linear over wide index terms: the integers decide each clause.
    proved = checked_candidate(program, lia, frozenset(), candidate, deadline, cancelled, integers_first=math.inf)
    proved.seconds = time.monotonic() - t0
    return proved
