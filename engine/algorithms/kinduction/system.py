"""The program's Horn clauses as one transition system, for k-induction (see the package).

A state holds the cut point the program stands at (``pc``), the globals once, each function's
locals once, and per callee the call it will return to. That is exact without recursion: each
function then has one activation at a time, so its frame can stay in the state while it calls
others. A step is one clause: a path segment between two cut points, a call into a callee's
entry, or a return from its exit to the call's return site.
"""

from __future__ import annotations

from dataclasses import dataclass

import z3

from ...cfa.cfa import Program
from ...core.path import ErrorPath, Step
from ...cpa.predicate.formula import old
from ...smt.solving import check_within
from ...smt.terms import uninterpreted_consts
from ..horn.clauses import ERROR, Clause, RelKey, key

MAX_INSTANCES = 20_000  # cut points with the calls inlined, to bound those steps
PC_BITS = 16
STEP_MS = 10_000  # one solver check's share at most (the run's deadline cuts it further)


VarKey = tuple[str, str]  # ("", global) or (function, local)


@dataclass
class _Template:
    """One clause over the state: which argument is which state variable, what it writes."""

    clause: Clause
    index: int
    reads: list[tuple[z3.ExprRef, VarKey | None]]  # body argument -> the state variable it is
    writes: dict[VarKey, z3.ExprRef]  # head argument that is not the body's own value
    constraints: list[z3.BoolRef]  # the clause's, with the auxiliary values they define substituted


class TransitionSystem:
    """The clauses as ``init``, ``step`` and ``error`` over states ``state(i)``.

    A state holds the globals once, each function's locals once, the cut point, and per callee
    the call it returns to (0 when it is not active). Entry copies (``x@old``) are not kept:
    they link a call's return to its entry in the clauses, which the state does by itself."""

    def __init__(self, clauses: list[Clause], frames: dict[str, list[str]], globals_: list[str]):
        self.clauses = clauses
        self.pc_of: dict[RelKey, int] = {}
        self.call_of: dict[int, int] = {}  # clause index (enter or return) -> its call's id
        self.site_of: dict[int, RelKey] = {}  # call id -> the caller's relation at the call
        self.callee_of: dict[int, str] = {}
        self.sorts: dict[VarKey, z3.SortRef] = {}
        glob = set(globals_)

        def slot(fn: str, name: str) -> VarKey | None:
            if name.endswith(old("")):
                return None
            return ("", name) if name in glob else (fn, name)

        for i, c in enumerate(clauses):
            if c.callee and not c.returning:
                # horn.Encoder._call yields a call's two clauses one after the other.
                self.call_of[i] = self.call_of[i + 1] = i + 1
                self.site_of[i + 1] = c.body[0][0]
                self.callee_of[i + 1] = c.callee
        self.templates: list[_Template] = []
        for i, c in enumerate(clauses):
            reads: list[tuple[z3.ExprRef, VarKey | None]] = []
            own: dict[VarKey, int] = {}
            for j, (k, args) in enumerate(c.body):
                self.pc_of.setdefault(k, len(self.pc_of) + 1)
                caller_globals = c.returning and j == 0  # stale copies from before the call
                for a, name in zip(args, frames[k[0]]):
                    v = slot(k[0], name)
                    if v is not None and not (caller_globals and v[0] == ""):
                        self.sorts.setdefault(v, a.sort())
                        reads.append((a, v))
                        own[v] = a.get_id()
                    else:
                        reads.append((a, None))
            writes: dict[VarKey, z3.ExprRef] = {}
            if c.head != ERROR:
                self.pc_of.setdefault(c.head, len(self.pc_of) + 1)
                for a, name in zip(c.head_args, frames[c.head[0]]):
                    v = slot(c.head[0], name)
                    if v is not None:
                        self.sorts.setdefault(v, a.sort())
                        if own.get(v) != a.get_id():
                            writes[v] = a
            constraints = _eliminate(list(c.constraints), writes, {a.get_id() for a, _ in reads})
            self.templates.append(_Template(c, i, reads, writes, constraints))
        self.err = len(self.pc_of) + 1
        self.callees = sorted({c.callee for c in clauses if c.callee})
        self.locals: dict[str, list[VarKey]] = {}
        for v in self.sorts:
            self.locals.setdefault(v[0], []).append(v)
        self._states: list[State] = []

    def state(self, i: int) -> State:
        while len(self._states) <= i:
            n = len(self._states)
            vals = {v: z3.Const(f"{v[0]}.{v[1]}@{n}", s) for v, s in self.sorts.items()}
            ret = {g: z3.BitVec(f"ret.{g}@{n}", PC_BITS) for g in self.callees}
            self._states.append(State(z3.BitVec(f"pc@{n}", PC_BITS), vals, ret))
        return self._states[i]

    def at(self, s: State, k: RelKey) -> z3.BoolRef:
        return s.pc == self.pc_of[k]

    def error(self, s: State) -> z3.BoolRef:
        return s.pc == self.err

    def init(self) -> z3.BoolRef:
        s = self.state(0)
        starts = []
        for t in self.templates:
            if t.clause.body:
                continue
            guard, writes = self.instance(t, None)
            starts.append(z3.And(*guard, s.pc == self.pc_of[t.clause.head],
                                 *[s.vals[v] == e for v, e in writes.items()],
                                 *[r == 0 for r in s.ret.values()]))
        return z3.Or(*starts)

    def instance(self, t: _Template, s: State | None) -> tuple[list[z3.BoolRef], dict[VarKey, z3.ExprRef]]:
        """The clause's constraints and writes over state ``s``, with fresh auxiliary values."""
        c = t.clause
        sub: list[tuple[z3.ExprRef, z3.ExprRef]] = []
        bound: set[int] = set()
        guard: list[z3.BoolRef] = []
        if s is not None:
            guard.append(s.pc == self.pc_of[c.body[-1][0]])
            if c.returning:
                guard.append(s.ret[c.callee] == self.call_of[t.index])
            for a, v in t.reads:
                if v is not None:
                    sub.append((a, s.vals[v]))
                    bound.add(a.get_id())
        consts: set[z3.ExprRef] = set()
        for f in [*t.constraints, *t.writes.values()]:
            consts |= uninterpreted_consts(f)
        for x in consts:
            if x.get_id() not in bound:
                sub.append((x, z3.FreshConst(x.sort(), "k")))
        guard += [z3.substitute(f, *sub) if sub else f for f in t.constraints]
        return guard, {v: z3.substitute(e, *sub) if sub else e for v, e in t.writes.items()}

    def successors(self, pcs: set[RelKey | None]) -> set[RelKey | None]:
        """Where one step can go from the cut points ``pcs`` (None: the error), by the clauses'
        relations alone: the cut points a state can stand at after i steps, which the
        transition of step i needs no other clauses for."""
        out: set[RelKey | None] = {None} if None in pcs else set()
        for x in self.templates:
            c = x.clause
            if c.body and c.body[-1][0] in pcs:
                out.add(None if c.head == ERROR else c.head)
        return out

    def selector(self, i: int) -> z3.BitVecRef:
        """Which clause step ``i`` takes (-1: an error state kept)."""
        return z3.BitVec(f"sel@{i}", PC_BITS)

    def path(self, model: z3.ModelRef, depth: int, program: Program) -> ErrorPath | None:
        """The CFA path of a derivation of the error within ``depth`` steps in ``model``, as
        the counterexample check reads paths (None: it ends elsewhere)."""
        nodes = {key(n): n for f in program.all_functions() for n in (f.entry, *f.nodes)}
        steps: list[Step] = []
        for i in range(depth):
            chosen = model.eval(self.selector(i), model_completion=True).as_long()
            if chosen >= len(self.clauses):
                break
            c = self.clauses[chosen]
            if c.head == ERROR:
                node = nodes[c.body[0][0]]
                return ErrorPath(steps, node.error, node) if node.error is not None else None
            if c.returning:
                steps.append(Step("return", c.edges[-1]))
            elif c.callee:
                steps += [Step("op", e) for e in c.edges[:-1]]
                steps.append(Step("call", c.edges[-1], _callee_entry=program.functions[c.callee].entry))
            else:
                steps += [e if isinstance(e, Step) else Step("op", e) for e in c.edges]
        return None

    def step(self, i: int, pcs: set[RelKey | None] | None = None) -> z3.BoolRef:
        """The transition from state ``i`` to state ``i + 1``: one clause, chosen by ``sel``
        (``pcs``: the cut points state ``i`` can stand at; None: any)."""
        s, t = self.state(i), self.state(i + 1)
        sel = self.selector(i)
        live = [x for x in self.templates if x.clause.body and (pcs is None or x.clause.body[-1][0] in pcs)]
        # sel == -1 keeps an error state as it is: errors stay errors, so a check at one depth
        # covers every shorter path.
        out: list[z3.BoolRef] = [z3.Or(*[sel == x.index for x in live],
                                       z3.And(sel == -1, self.error(s)) if pcs is None or None in pcs
                                       else z3.BoolVal(False))]
        pc: z3.ExprRef = s.pc
        nxt: dict[VarKey, z3.ExprRef] = dict(s.vals)
        ret: dict[str, z3.ExprRef] = dict(s.ret)
        for x in live:
            guard, writes = self.instance(x, s)
            chosen = sel == x.index
            out.append(z3.Implies(chosen, z3.And(*guard)))
            c = x.clause
            pc = z3.If(chosen, z3.BitVecVal(self.err if c.head == ERROR else self.pc_of[c.head], PC_BITS), pc)
            for v, e in writes.items():
                nxt[v] = z3.If(chosen, e, nxt[v])
            if c.callee:
                # Entering sets the callee's return point, returning clears it.
                ret[c.callee] = z3.If(chosen, z3.BitVecVal(0 if c.returning else self.call_of[x.index], PC_BITS),
                                      ret[c.callee])
        out.append(t.pc == pc)
        out += [t.vals[v] == e for v, e in nxt.items()]
        out += [t.ret[g] == e for g, e in ret.items()]
        return z3.And(*out)


def _eliminate(constraints: list[z3.BoolRef], writes: dict[VarKey, z3.ExprRef],
               keep: set[int]) -> list[z3.BoolRef]:
    """The constraints without those that define an auxiliary value (``y == e``), which is
    substituted everywhere instead (in ``writes`` too): a call's entry copies its caller's
    globals through such links, and every copy would be one more variable per step."""
    out = list(constraints)
    changed = True
    while changed:
        changed = False
        for i, f in enumerate(out):
            if not (z3.is_eq(f) and f.num_args() == 2):
                continue
            for a, e in ((f.arg(0), f.arg(1)), (f.arg(1), f.arg(0))):
                if z3.is_const(a) and a.decl().kind() == z3.Z3_OP_UNINTERPRETED and a.get_id() not in keep \
                        and all(x.get_id() != a.get_id() for x in uninterpreted_consts(e)):
                    del out[i]
                    out = [z3.substitute(g, (a, e)) for g in out]
                    for v, w in writes.items():
                        writes[v] = z3.substitute(w, (a, e))
                    changed = True
                    break
            if changed:
                break
    return [f for f in out if not z3.is_true(z3.simplify(f))]


@dataclass
class State:
    pc: z3.BitVecRef
    vals: dict[VarKey, z3.ExprRef]
    ret: dict[str, z3.BitVecRef]


def check_error(solver: z3.Solver, error: z3.BoolRef, ms: int) -> z3.CheckSatResult:
    """Whether ``error`` can hold, as an assumption: the first push() of a bit-vector solver
    internalises everything asserted so far, outside any check's time limit (30 s on a
    nonlinear loop body), where a check under assumptions can be interrupted."""
    flag = z3.FreshBool("error")
    solver.add(z3.Implies(flag, error))
    return check_within(solver, ms, flag)


def gap_bound(ts: TransitionSystem, heads: set[RelKey]) -> tuple[int, int] | None:
    """The most steps a path takes without standing at a loop head, and the most it takes from
    the start to the first loop head it meets (or to its end without one) (None: more than
    ``MAX_INSTANCES`` cut points once the calls are inlined, or a cycle without a loop head,
    which the CFA's loop heads rule out). Without recursion the calls inline into a finite
    graph of (call stack, cut point) pairs, the states' skeleton; every cycle in it passes a
    loop head, so the answer is its longest path once each loop head is cut in two (the paths
    into it end there, the paths out of it start there)."""
    out: dict[RelKey, list[tuple[RelKey | None, int]]] = {}  # relation -> (successor, call id or 0)
    back: dict[int, RelKey] = {}  # call id -> the return site
    for t in ts.templates:
        c = t.clause
        if not c.body:
            continue
        if c.returning:
            back[ts.call_of[t.index]] = c.head
            continue
        src = c.body[0][0]
        if c.callee:
            out.setdefault(src, []).append((c.head, ts.call_of[t.index]))
        else:
            out.setdefault(src, []).append((None if c.head == ERROR else c.head, 0))
    starts = [t.clause.head for t in ts.templates if not t.clause.body]
    exits = {k for k in ts.pc_of if not out.get(k)}
    Node = tuple[tuple[int, ...], RelKey | None]
    succ: dict[Node, list[Node]] = {}
    todo: list[Node] = [((), k) for k in starts]
    while todo:
        n = todo.pop()
        if n in succ:
            continue
        if len(succ) > MAX_INSTANCES:
            return None
        stack, k = n
        nxt: list[Node] = []
        if k is not None:
            for dst, call in out.get(k, []):
                nxt.append(((*stack, call), dst) if call else (stack, dst))
            if k in exits and stack:
                nxt.append((stack[:-1], back.get(stack[-1])))
        succ[n] = nxt
        todo.extend(nxt)
    # Longest path ending at each node, cutting at loop heads, by a depth-first topological order.
    order: list[Node] = []
    state: dict[Node, int] = {}
    for root in succ:
        if root in state:
            continue
        stack2 = [(root, iter(succ[root]))]
        state[root] = 1
        while stack2:
            n, it = stack2[-1]
            m = next(it, None)
            if m is None:
                state[n] = 2
                order.append(n)
                stack2.pop()
                continue
            if m[1] in heads:
                continue  # a path ends at a loop head: the edge into it closes no cycle
            if state.get(m) == 1:
                return None
            if m not in state:
                state[m] = 1
                stack2.append((m, iter(succ.get(m, []))))
    longest: dict[Node, int] = {}
    best = 0
    for n in reversed(order):
        here = 0 if n[1] in heads else longest.get(n, 0)
        for m in succ.get(n, []):
            if longest.get(m, -1) < here + 1:
                longest[m] = here + 1
                best = max(best, here + 1)
    # The same from the start alone, up to the first loop head.
    lead: dict[Node, int] = {((), k): 0 for k in starts}
    first = 0
    for n in reversed(order):
        if n not in lead or (n[1] in heads and lead[n] > 0):
            continue
        for m in succ.get(n, []):
            if lead.get(m, -1) < lead[n] + 1:
                lead[m] = lead[n] + 1
                first = max(first, lead[m])
    return best, first

