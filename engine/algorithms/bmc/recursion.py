"""Bounded model checking through recursion: long counterexamples in
recursive programs, with machine integers.

k-induction's BMC (algorithms/kinduction) keeps one frame per function, which is exact only
without recursion. Here the program's Horn clauses (algorithms/horn/clauses.py, bit-vectors) are
**instantiated per call**:

- The start function is one instance. Each call in an instance gets an instance of its
  callee, one recursion depth down for a recursive callee, and none below depth ``k``: such a
  call is assumed not to happen (an under-approximation, as in CPArec's bounded unwinding).
- Within an instance the paths merge, as in static single assignment. The cut points are
  taken in topological order; each clause gets a selector that, when chosen, needs its
  body's cut point reached and its constraints to hold. A cut point with one clause into it
  takes that clause's values as terms; at a join, fresh values equal those of each chosen
  clause. A callee's instance starts from the call's argument values; the return reads the
  instance's exit values.
- The error is reachable within ``k`` if some instance's error clause can be chosen.
- ``k`` doubles while the unwinding stays within ``MAX_BITS`` (the bits its instances' clauses
  define, which the solver's memory follows: about 2 KB each), so a chain 1000 calls deep
  (``id_o1000``) costs eleven checks, not a thousand.
- The cut points need a topological order: a function with a loop is left to the other
  engines.

Measured on id_o1000 at depth 1024: guarded equalities at every cut point took 2.1 GB (1.1 GB
with terms); if-then-else terms at the joins as well halved Fibonacci05's time but nested 1000
deep on id_o1000, whose last check then did not end within 20 s (12 to 15 s with fresh values).

A model's derivation is read back as a CFA path (the chosen clauses, their edges, the calls
in between) and confirmed by the bit-precise path check (cex/encoding.py), which gives its
inputs and harness like any violation's. The clauses leave memory and floats arbitrary, so an
unconfirmed path is only a candidate. The engine never proves anything: an error unreachable
within ``k`` says nothing about deeper calls.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

import z3

from ...cex.encoding import check_path
from ...cex.feasibility import Confirmed
from ...cfa import traits
from ...cfa.cfa import Program
from ...core.path import ErrorPath, Step
from ...smt.solving import check_within
from ...smt.terms import uninterpreted_consts
from ..horn import clauses as horn
from ..horn.clauses import ERROR, Clause, RelKey
from ..scope import unwinds_recursion

# The bits one check's instances define (the widths of their clauses' head values): the solver
# took about 2 KB per bit (id_o1000 at depth 1024: 529,031 bits, 1.1 GB;
# Addition03-1 at depth 10, 2047 instances of 64-bit values, 3.6 GB before this cap).
MAX_BITS = 600_000
RESERVE = 2.0  # seconds
STEP_MS = 20_000  # one solver check's share at most (the deadline cuts it further)


@dataclass
class BmcOutcome:
    status: str  # "unsafe" (confirmed: ``confirmed`` holds the path and its inputs) or "unknown"
    reason: str = ""
    depth: int = 0  # the deepest recursion the checks covered
    seconds: float = 0.0
    timed_out: bool = False
    confirmed: Confirmed | None = None


@dataclass
class _Function:
    """A function's clauses by the cut point they leave, in topological order of the cut
    points (``order``, the entry first). ``calls``: each call's clause into the callee and its
    return clause, which horn.Encoder yields one after the other."""

    name: str
    entry: RelKey
    exit: RelKey
    steps: dict[RelKey, list[Clause]] = field(default_factory=dict)
    calls: dict[RelKey, list[tuple[Clause, Clause]]] = field(default_factory=dict)
    errors: dict[RelKey, list[Clause]] = field(default_factory=dict)
    order: list[RelKey] = field(default_factory=list)
    bits: int = 0  # the widths of its clauses' head values: what an instance costs the solver


@dataclass
class _Instance:
    fn: _Function
    depth: int
    parent: _Instance | None
    via: Clause | None  # the clause into this instance's entry, in the parent
    reach: dict[RelKey, z3.BoolRef] = field(default_factory=dict)
    vals: dict[RelKey, list[z3.ExprRef]] = field(default_factory=dict)
    # per cut point, the clauses into it, in priority order: selector, clause, the callee's
    # instance for a return, the values it gives the cut point
    into: dict[RelKey, list[tuple[z3.BoolRef, Clause, _Instance | None, list[z3.ExprRef]]]] = \
        field(default_factory=dict)
    errors: list[tuple[z3.BoolRef, Clause]] = field(default_factory=list)


def applies(program: Program) -> str:
    """Why this engine does not try the program ("" if it does)."""
    return unwinds_recursion(program)


def solve(program: Program, timeout_s: float, cancelled: Callable[[], bool] = lambda: False) -> BmcOutcome:
    t0 = time.monotonic()
    deadline = t0 + timeout_s
    # The checks end this much early: a path found at the end still needs its exact check,
    # and the run its harness.
    searching = deadline - min(RESERVE, 0.1 * timeout_s)

    def out(status: str, reason: str, depth: int, timed_out: bool = False,
            confirmed: Confirmed | None = None) -> BmcOutcome:
        return BmcOutcome(status, reason, depth, time.monotonic() - t0, timed_out, confirmed)

    why = applies(program)
    if why:
        return out("unknown", why, 0)
    enc = horn.Encoder(program, "bv")
    try:
        clauses = enc.clauses(deadline)
    except (TypeError, KeyError) as exc:
        return out("unknown", f"the program cannot be encoded as Horn clauses ({exc})", 0)
    except horn.EncodingTimeout as exc:
        return out("unknown", str(exc), 0, True)
    functions = _functions(program, clauses)
    looping = next((f.name for f in functions.values() if not _sort(f)), None)
    if looping is not None:
        return out("unknown", f"{looping} has a loop, which this unwinding does not cover", 0)
    begin = next(c for c in clauses if not c.body)
    recursive = traits.recursive(program)
    start = program.start.name
    templates: dict[int, _Template] = {}
    k, covered = 1, 0
    while True:
        if cancelled():
            return out("unknown", "cancelled", covered)
        ms = min(STEP_MS, int((searching - time.monotonic()) * 1000))
        if ms <= 0:
            return out("unknown", f"bounded model checking ran out of time after recursion depth {covered}",
                       covered, True)
        # A fresh solver per depth: one that deepens incrementally (the deeper calls closed by an
        # assumption until their depth is reached) took three times as long on Fibonacci05's
        # last check, whose calls below the unwinding preprocessing can no longer drop.
        solver = z3.SolverFor("QF_BV")
        unwinding = _Unwinding(functions, recursive, k, solver, templates)
        # The start's entry: arbitrary values within the clause's constraints.
        entry = [z3.FreshConst(a.sort(), "v") for a in begin.head_args]
        fixed, heads = unwinding.instantiate(None, begin, [])
        solver.add(fixed, *[v == h for v, h in zip(entry, heads)])
        root = unwinding.instance(start, 0, None, None, z3.BoolVal(True), entry)
        r = check_within(solver, ms, z3.Or(*unwinding.errors)) if unwinding.errors else z3.unsat
        if r == z3.sat:
            path = _path(solver.model(), root, program)
            feas = check_path(program, path, max(1, int((deadline - time.monotonic()) * 1000)))
            if feas.status == "sat":
                return out("unsafe", f"an error location is reachable within {k} recursive calls", k,
                           confirmed=Confirmed(path, feas))
            return out("unknown", f"the path found within {k} recursive calls is not confirmed "
                       f"({feas.status}: the clauses leave memory and floats arbitrary)", k)
        if r != z3.unsat:
            return out("unknown", f"bounded model checking timed out at recursion depth {k}", covered, True)
        covered = k
        bigger = _deepest_within(functions, recursive, start, k, MAX_BITS)
        if bigger <= k:
            return out("unknown", f"no error location within {k} recursive calls; deeper unwindings "
                       f"would exceed {MAX_BITS} bits of clause values", k)
        k = bigger


def _functions(program: Program, clauses: list[Clause]) -> dict[str, _Function]:
    fns = {f.name: _Function(f.name, horn.key(f.entry), horn.key(f.exit)) for f in program.all_functions()}
    i = 0
    while i < len(clauses):
        c = clauses[i]
        if not c.body:  # the start's entry: the root instance's
            i += 1
            continue
        at = c.body[0][0]
        fn = fns[at[0]]
        fn.bits += sum(_width(a) for a in c.head_args) + 1
        if c.head == ERROR:
            fn.errors.setdefault(at, []).append(c)
        elif c.callee and not c.returning:
            fn.calls.setdefault(at, []).append((c, clauses[i + 1]))
            i += 1
        else:
            fn.steps.setdefault(at, []).append(c)
        i += 1
    return fns


def _width(a: z3.ExprRef) -> int:
    return a.sort().size() if z3.is_bv(a) else 1


def _sort(fn: _Function) -> bool:
    """Order the function's cut points reachable from its entry topologically (False: they
    form a cycle)."""
    succ: dict[RelKey, list[RelKey]] = {}
    for at, cs in fn.steps.items():
        succ.setdefault(at, []).extend(c.head for c in cs)
    for at, calls in fn.calls.items():
        succ.setdefault(at, []).extend(back.head for _, back in calls)
    state: dict[RelKey, int] = {}  # 1 on the stack, 2 done
    post: list[RelKey] = []

    def visit(u: RelKey) -> bool:
        state[u] = 1
        for v in succ.get(u, ()):
            s = state.get(v, 0)
            if s == 1 or (s == 0 and not visit(v)):
                return False
        state[u] = 2
        post.append(u)
        return True

    if not visit(fn.entry):
        return False
    fn.order = post[::-1]
    return True


def _bits(functions: dict[str, _Function], name: str, d: int, limit: int, recursive: set[str],
          memo: dict[tuple[str, int], int], cap: int) -> int:
    """The bits of clause values that an unwinding to ``limit`` defines from ``name``'s instance
    at depth ``d`` down (at most ``cap + 1``)."""
    got = memo.get((name, d))
    if got is None:
        fn = functions[name]
        got = fn.bits
        for calls in fn.calls.values():
            for enter, _ in calls:
                cd = d + 1 if enter.callee in recursive else d
                if cd <= limit and got <= cap:
                    got += _bits(functions, enter.callee, cd, limit, recursive, memo, cap)
        memo[(name, d)] = got = min(got, cap + 1)
    return got


def _deepest_within(functions: dict[str, _Function], recursive: set[str], start: str, k: int, cap: int) -> int:
    """The next depth to try: twice ``k`` if the unwinding stays within ``cap`` bits, else the
    deepest that does (``k`` itself if none deeper does)."""

    def size(limit: int) -> int:
        return _bits(functions, start, 0, limit, recursive, {}, cap)

    if size(2 * k) <= cap:
        return 2 * k
    best = k
    while best + 1 < 2 * k and size(best + 1) <= cap:
        best += 1
    return best


@dataclass
class _Template:
    """A clause's constraints over placeholders: its body's values, its callee's exit values
    (a return), and the unknowns each instance gets fresh."""

    formula: z3.BoolRef
    own: list[z3.ExprRef]
    callee: list[z3.ExprRef]
    fresh: list[z3.ExprRef]


class _Unwinding:
    """The instances of one unwinding, their constraints asserted on ``solver``."""

    def __init__(self, functions: dict[str, _Function], recursive: set[str], k: int, solver: z3.Solver,
                 templates: dict[int, _Template]):
        self.functions, self.recursive, self.k, self.solver = functions, recursive, k, solver
        self.templates = templates
        self.errors: list[z3.BoolRef] = []

    def instance(self, name: str, depth: int, parent: _Instance | None, via: Clause | None,
                 active: z3.BoolRef, entry: list[z3.ExprRef]) -> _Instance:
        fn = self.functions[name]
        inst = _Instance(fn, depth, parent, via)
        inst.reach[fn.entry], inst.vals[fn.entry] = active, entry
        for at in fn.order:
            into = inst.into.get(at)
            if at != fn.entry:
                if not into:
                    continue  # no clause into it in this unwinding: never reached
                inst.reach[at] = z3.Or(*[x[0] for x in into]) if len(into) > 1 else into[0][0]
                inst.vals[at] = self._merge(inst, at)
            reach = inst.reach[at]
            for c in fn.steps.get(at, ()):
                self._choose(inst, c, reach, [], None)
            for enter, back in fn.calls.get(at, ()):
                cd = depth + 1 if enter.callee in self.recursive else depth
                if cd > self.k:
                    continue  # below the unwinding: the call is assumed not to happen
                call = z3.FreshBool("call")
                fixed, args = self.instantiate(inst, enter, [])
                self.solver.add(z3.Implies(call, z3.And(reach, fixed)))
                child = self.instance(enter.callee, cd, inst, enter, call, args)
                if child.fn.exit in child.reach:
                    self._choose(inst, back, z3.And(reach, call, child.reach[child.fn.exit]),
                                 child.vals[child.fn.exit], child)
            for c in fn.errors.get(at, ()):
                sel = z3.FreshBool("error")
                fixed, _ = self.instantiate(inst, c, [])
                self.solver.add(z3.Implies(sel, z3.And(reach, fixed)))
                inst.errors.append((sel, c))
                self.errors.append(sel)
        return inst

    def _choose(self, inst: _Instance, c: Clause, needs: z3.BoolRef, callee: list[z3.ExprRef],
                child: _Instance | None) -> None:
        """A step (or, with ``child``, a call's return) chosen by a fresh selector."""
        sel = z3.FreshBool("step")
        fixed, heads = self.instantiate(inst, c, callee)
        self.solver.add(z3.Implies(sel, z3.And(needs, fixed)))
        inst.into.setdefault(c.head, []).append((sel, c, child, heads))

    def _merge(self, inst: _Instance, at: RelKey) -> list[z3.ExprRef]:
        """The cut point's values: its only clause's, or at a join fresh values that each
        chosen clause's equal."""
        into = inst.into[at]
        if len(into) == 1:
            return into[0][3]
        vals = [z3.FreshConst(h.sort(), "v") for h in into[0][3]]
        for sel, _, _, heads in into:
            self.solver.add(z3.Implies(sel, z3.And(*[v == h for v, h in zip(vals, heads)])))
        return vals

    def instantiate(self, inst: _Instance | None, c: Clause,
                    callee: list[z3.ExprRef]) -> tuple[z3.BoolRef, list[z3.ExprRef]]:
        """The clause's constraints and head values over the instance's values at its body
        and the callee's at its exit; every other unknown of it (nondeterministic values) fresh."""
        t = self.templates.get(id(c))
        if t is None:
            t = self.templates[id(c)] = _template(c)
        pairs = [*zip(t.callee, callee), *[(x, z3.FreshConst(x.sort(), "u")) for x in t.fresh]]
        if inst is not None:
            pairs += zip(t.own, inst.vals[c.body[0][0]])
        if not pairs:
            return t.formula, list(c.head_args)
        return _substitute(t.formula, pairs), [_substitute(a, pairs) for a in c.head_args]


def _substitute(f: z3.ExprRef, pairs: list[tuple[z3.ExprRef, z3.ExprRef]]) -> z3.ExprRef:
    """z3.substitute without its per-pair sort checks (the pairs are built sort for sort), which
    took most of the encoding's time on a thousand instances."""
    n = len(pairs)
    src, dst = (z3.Ast * n)(), (z3.Ast * n)()
    for i, (a, b) in enumerate(pairs):
        src[i], dst[i] = a.as_ast(), b.as_ast()
    return type(f)(z3.Z3_substitute(f.ctx_ref(), f.as_ast(), n, src, dst), f.ctx)  # the same sort


def _template(c: Clause) -> _Template:
    own = list(c.body[0][1]) if c.body else []
    callee = list(c.body[1][1]) if c.returning else []
    formula = z3.And(*c.constraints)
    bound = {a.get_id() for a in [*own, *callee]}
    fresh = [x for x in uninterpreted_consts(z3.And(formula, *[a == a for a in c.head_args]))
             if x.get_id() not in bound]
    return _Template(formula, own, callee, fresh)


def _all(root: _Instance) -> list[_Instance]:
    out, todo = [], [root]
    while todo:
        inst = todo.pop()
        out.append(inst)
        todo += [x[2] for ins in inst.into.values() for x in ins if x[2] is not None]
    return out


def _path(model: z3.ModelRef, root: _Instance, program: Program) -> ErrorPath:
    """The CFA path of the model's derivation of an error: back from the chosen error clause
    to its instance's entry, through the call into it, and so on up to the start."""

    def chosen(sel: z3.BoolRef) -> bool:
        return z3.is_true(model.eval(sel, model_completion=True))

    def within(inst: _Instance, r: RelKey) -> list[Step]:  # from the instance's entry to r
        steps: list[Step] = []
        while r != inst.fn.entry:
            _, c, child, _ = next(x for x in inst.into[r] if chosen(x[0]))
            if child is None:
                seg = [Step("op", e) for e in c.edges]
            else:
                assert child.via is not None
                seg = [*_enter(child.via, program), *within(child, child.fn.exit), Step("return", c.edges[-1])]
            steps = seg + steps
            r = c.body[0][0]
        return steps

    inst, c = next((i, c) for i in _all(root) for sel, c in i.errors if chosen(sel))
    steps = within(inst, c.body[0][0])
    while inst.parent is not None:
        assert inst.via is not None
        steps = [*within(inst.parent, inst.via.body[0][0]), *_enter(inst.via, program), *steps]
        inst = inst.parent
    node = next(n for f in program.all_functions() for n in (f.entry, *f.nodes) if horn.key(n) == c.body[0][0])
    assert node.error is not None  # (the error relation's node)
    return ErrorPath(steps, node.error, node)


def _enter(c: Clause, program: Program) -> list[Step]:
    return [*[Step("op", e) for e in c.edges[:-1]],
            Step("call", c.edges[-1], _callee_entry=program.functions[c.callee].entry)]


__all__ = ["BmcOutcome", "MAX_BITS", "applies", "solve"]
