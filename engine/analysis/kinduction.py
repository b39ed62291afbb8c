"""k-induction with machine integers over the program's Horn clauses (issue 20, item 2).

The clauses of analysis/horn.py, encoded with bit-vectors (C's semantics: wrap-around, undefined
behaviour as an arbitrary value, memory and floats arbitrary), become one transition system. A
state is the cut point the program stands at (``pc``), one frame per function, and per called
function the call it will return to. That is exact for a program without recursion: each
function then has at most one activation at a time, so its frame can stay in the state while
it calls others. A step is one clause: a path segment between two cut points, a call into a
callee's entry, or a return from its exit back to the call's return site.

An error state stays an error state (a step may keep it), so a check at one depth covers every
shorter path. Steps merge paths: a step is the disjunction of the clauses that can fire from
the cut points reachable at that depth.

- **Step case, anchored at loop heads:** from any state at a loop head, with the invariants
  holding throughout, ``k`` error-free states are not followed by an error within ``gap``
  further steps. Started anywhere, the step case would fail on the commonest loop: a lock set
  and checked under the same condition in one iteration is no invariant of the joins inside
  the body, where an arbitrary state has the condition and not the lock.
- **Base case (BMC):** no error within ``k + lead`` steps from the start.
- **Why that suffices** (``gap_bound``): ``gap`` bounds the steps a path takes without standing
  at a loop head, ``lead`` those from the start to the first loop head. An error path of length
  ``m >= k + lead`` then stands at a loop head at some position ``p`` with ``m - p`` in
  ``[k, k + gap]``: the step case refutes it. A shorter one the base case refutes. The error
  locations are the program's own (``ERROR`` clauses), so a TRUE is a proof for machine
  integers.
- **Invariants:** facts found Houdini-style, candidate bounds of each variable by the program's
  constants that the start establishes and every clause preserves, with bit-vectors
  (``houdini``). They hold in every reachable state, so assuming them is sound.

A base case that finds an error state is only a candidate (the clauses over-approximate what
they do not model); the answer is then "reachable" and other engines, which confirm paths with
inputs and a harness, decide.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

import z3

from ..cfa.cfa import Program
from . import horn
from .horn import ERROR, Clause, RelKey
from .predicate.formula import old
from .predicate.refiner import uninterpreted_consts
from .smt import check_within

MAX_K = 64  # error-free states assumed in the step case; deeper than this, other engines do better
MAX_GAP = 120  # steps between loop heads: a program with longer paths is left to other engines
FIRST_SHARE = 0.5  # of the engine's time, for k-induction without invariants
HOUDINI_SHARE = 0.75  # ... until this share, for finding invariants; the rest for k-induction with them
MAX_INSTANCES = 20_000  # cut points with the calls inlined, to bound those steps
MAX_CANDIDATE_CONSTANTS = 12  # per sort: the constants whose bounds become candidate invariants
PC_BITS = 16
STEP_MS = 10_000  # one solver check's share at most (the run's deadline cuts it further)


@dataclass
class KInductionOutcome:
    status: str  # "safe" | "reachable" (a candidate error state within k steps) | "unknown"
    reason: str = ""
    k: int = 0  # the k of the proof, or how far the search got
    seconds: float = 0.0
    timed_out: bool = False  # more time might decide it
    invariants: int = 0  # Houdini invariants that strengthened the step case
    summaries: dict[str, str] = field(default_factory=dict)  # function -> the invariants at its exit, in C


def applies(program: Program) -> str:
    why = horn.applies(program)
    if why:
        return why
    if horn.recursive(program):
        return "the program is recursive (a function's frame would be overwritten by its own call)"
    return ""


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
            guard, writes = self._instance(t, None)
            starts.append(z3.And(*guard, s.pc == self.pc_of[t.clause.head],
                                 *[s.vals[v] == e for v, e in writes.items()],
                                 *[r == 0 for r in s.ret.values()]))
        return z3.Or(*starts)

    def _instance(self, t: _Template, s: State | None) -> tuple[list[z3.BoolRef], dict[VarKey, z3.ExprRef]]:
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

    def step(self, i: int, pcs: set[RelKey | None] | None = None) -> z3.BoolRef:
        """The transition from state ``i`` to state ``i + 1``: one clause, chosen by ``sel``
        (``pcs``: the cut points state ``i`` can stand at; None: any)."""
        s, t = self.state(i), self.state(i + 1)
        sel = z3.BitVec(f"sel@{i}", PC_BITS)
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
            guard, writes = self._instance(x, s)
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


def solve(program: Program, timeout_s: float, cancelled: Callable[[], bool] = lambda: False,
          max_k: int = MAX_K, strengthen: bool = True) -> KInductionOutcome:
    """``strengthen``: look for Houdini invariants when k-induction alone does not succeed in
    its share of the time (False: k-induction alone, with all of it)."""
    t0 = time.monotonic()
    deadline = t0 + timeout_s
    why = applies(program)
    if why:
        return KInductionOutcome("unknown", why)
    enc = horn.Encoder(program, "bv")
    try:
        clauses = enc.clauses(deadline)
    except (TypeError, KeyError) as exc:
        return KInductionOutcome("unknown", f"the program cannot be encoded as Horn clauses ({exc})")
    except horn.EncodingTimeout as exc:
        return KInductionOutcome("unknown", str(exc), seconds=time.monotonic() - t0, timed_out=True)
    ts = TransitionSystem(clauses, {f.name: enc.frame(f) for f in program.all_functions()}, enc.globals)
    heads = _loop_heads(program, set(ts.pc_of))

    invariants: dict[InvKey, list[Candidate]] = {}

    def out(status: str, reason: str, k: int, timed_out: bool = False, inv: int = 0) -> KInductionOutcome:
        texts = exit_facts(program, invariants) if status == "safe" else {}
        return KInductionOutcome(status, reason, k, time.monotonic() - t0, timed_out, inv, texts)

    bound = gap_bound(ts, heads)
    if bound is None or bound[0] > MAX_GAP:
        return out("unknown", f"paths between loop heads are longer than {MAX_GAP} steps", 0)
    gap, lead = bound
    # First without invariants, which is often enough and cheap; then with Houdini's.
    first = t0 + (FIRST_SHARE * timeout_s if strengthen else timeout_s)
    status, reason, k, timed_out = _induct(ts, heads, gap, lead, {}, first, cancelled, max_k)
    if status in ("safe", "reachable") or cancelled() or not strengthen:
        return out(status, reason, k, timed_out)
    found = houdini(ts, t0 + HOUDINI_SHARE * timeout_s, cancelled)
    if not found or not any(found.values()):
        return out(status, reason, k, timed_out)
    invariants = found
    count = sum(len(v) for v in invariants.values())
    status, reason, k, timed_out = _induct(ts, heads, gap, lead, invariants, deadline, cancelled, max_k)
    return out(status, reason, k, timed_out, count)


def _induct(ts: TransitionSystem, heads: set[RelKey], gap: int, lead: int, invariants: dict[InvKey, list[Candidate]],
            deadline: float, cancelled: Callable[[], bool], max_k: int) -> tuple[str, str, int, bool]:
    """k-induction for growing k, the step case strengthened with ``invariants``: (status,
    reason, k, whether it ran out of time)."""

    def left_ms() -> int:
        return min(STEP_MS, int((deadline - time.monotonic()) * 1000))

    def out(status: str, reason: str, k: int, timed_out: bool = False) -> tuple[str, str, int, bool]:
        return status, reason, k, timed_out

    base = z3.SolverFor("QF_BV")
    base.add(ts.init())
    depth = 0  # of the base case's unwinding
    base_pcs: set[RelKey | None] = {t.clause.head for t in ts.templates if not t.clause.body}
    step_pcs: set[RelKey | None] = set(heads)
    step = z3.SolverFor("QF_BV")
    s0 = ts.state(0)
    step.add(z3.Or(*[ts.at(s0, h) for h in heads]) if heads else z3.BoolVal(False))
    chain = 0  # transitions in the step solver
    for k in range(1, max_k + 1):
        if cancelled():
            return out("unknown", "cancelled", k - 1)
        # Step case: from a loop head (invariants holding throughout), k error-free states
        # cannot be followed by an error within ``gap`` further steps.
        while chain < k + gap:
            if left_ms() <= 0:
                return out("unknown", f"k-induction ran out of time at k = {k}", k - 1, True)
            step.add(*holds(ts, ts.state(chain), invariants), ts.step(chain, step_pcs))
            step_pcs = ts.successors(step_pcs)
            chain += 1
        step.add(z3.Not(ts.error(ts.state(k - 1))))
        if None not in step_pcs:
            r = z3.unsat  # no error location within reach
        else:
            r = _check_error(step, ts.error(ts.state(k + gap)), left_ms())
        if r not in (z3.sat, z3.unsat):
            return out("unknown", f"the induction step timed out at k = {k}", k, True)
        if r == z3.sat and k & (k - 1):
            continue  # the base case is looked at when the step holds, and at powers of two (for violations)
        # Base case: no error within k + lead steps from the start (errors stay errors).
        proved = r == z3.unsat
        while depth < k + lead:
            if left_ms() <= 0:
                return out("unknown", f"k-induction ran out of time at k = {k}", k, True)
            base.add(ts.step(depth, base_pcs))
            base_pcs = ts.successors(base_pcs)
            depth += 1
        if None not in base_pcs:
            r = z3.unsat
        else:
            r = _check_error(base, ts.error(ts.state(depth)), left_ms())
        if r == z3.sat:
            return out("reachable", f"bounded model checking reaches an error location within {depth} steps "
                       "(over the clauses, which leave memory and floats arbitrary)", k)
        if r != z3.unsat:
            return out("unknown", f"bounded model checking timed out at depth {depth}", k, True)
        if proved:
            return out("safe", "", k)
    return out("unknown", f"not {max_k}-inductive", max_k)




def _check_error(solver: z3.Solver, error: z3.BoolRef, ms: int) -> z3.CheckSatResult:
    """Whether ``error`` can hold, as an assumption: the first push() of a bit-vector solver
    internalises everything asserted so far, outside any check's time limit (30 s on a
    nonlinear loop body), where a check under assumptions can be interrupted."""
    flag = z3.FreshBool("error")
    solver.add(z3.Implies(flag, error))
    return check_within(solver, ms, flag)


def _loop_heads(program: Program, keys: set[RelKey]) -> set[RelKey]:
    return {horn.key(n) for f in program.all_functions() for n in f.nodes
            if n.loop_head and horn.key(n) in keys}


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


# ---- invariants --------------------------------------------------------------------------------
# (op, variable, other variable or None, constant); "" keys the globals' facts, which hold at
# every cut point; a relation keys facts over its function's locals where the program stands there.
Candidate = tuple[str, VarKey, VarKey | None, int]
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
    op, a, b, n = c
    vals = s.vals if vals is None else vals
    x = vals[a]
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
    constants: dict[int, set[int]] = {}
    for c in ts.clauses:
        for f in c.constraints:
            for t in _numerals(f):
                constants.setdefault(t.size(), set()).add(t.as_long())

    def bounds(v: VarKey) -> list[Candidate]:
        sort = ts.sorts[v]
        if not isinstance(sort, z3.BitVecSortRef):
            return []
        ns = sorted(constants.get(sort.size(), set()) | {0, 1})[:MAX_CANDIDATE_CONSTANTS]
        return [(op, v, None, n) for n in ns for op in ("==", "s>=", "s<=", "u<=")]

    out: dict[InvKey, list[Candidate]] = {GLOBAL: [c for v in ts.locals.get(GLOBAL, []) for c in bounds(v)]}
    for k in ts.pc_of:
        out[k] = [c for v in ts.locals.get(k[0], []) for c in bounds(v)]
    return out


def _numerals(f: z3.ExprRef) -> list[z3.BitVecNumRef]:
    out: list[z3.BitVecNumRef] = []
    todo, seen = [f], set()
    while todo:
        t = todo.pop()
        if t.get_id() in seen:
            continue
        seen.add(t.get_id())
        if z3.is_bv_value(t):
            out.append(t)
        elif z3.is_app(t):
            todo.extend(t.children())
    return out


def houdini(ts: TransitionSystem, deadline: float,
            cancelled: Callable[[], bool]) -> dict[InvKey, list[Candidate]] | None:
    """The largest subset of the candidates that the start establishes and every clause
    preserves, with bit-vectors (None: out of time). Rounds check every clause against the
    current set and drop what a model refutes, until nothing changes."""
    inv = candidates(ts)
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
            guard, writes = ts._instance(t, s if c.body else None)
            if c.body:
                pre = [atom(x, s) for x in inv[GLOBAL]]
                pre += [atom(x, s) for k, _ in c.body for x in inv[k]]
                post = {**s.vals, **writes}
            else:
                pre = []
                post = {v: writes.get(v, z3.FreshConst(sort, "init")) for v, sort in ts.sorts.items()}
            for key in (GLOBAL, c.head):
                todo = inv[key]
                if not todo:
                    continue
                # A solver per clause, each weakening tried under an assumption (see _check_error).
                solver = z3.SolverFor("QF_BV")
                solver.add(*guard, *pre)
                while todo:
                    r = _check_error(solver, z3.Not(z3.And(*[atom(x, s, post) for x in todo])),
                                     min(STEP_MS, int((deadline - time.monotonic()) * 1000)))
                    if r == z3.unsat:
                        break
                    if r != z3.sat:
                        return None
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
    op, a, b, n = c

    def name(v: VarKey) -> str:
        return "\\result" if v[1] == result_var else v[1].split("::")[-1]

    rhs = name(b) if b is not None else str(n)
    if op == "u<=":
        return f"(unsigned){name(a)} <= {rhs}u"
    return f"{name(a)} {op.lstrip('s')} {rhs}"
