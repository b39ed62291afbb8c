"""Bounded model checking with merged paths over the exact path encoding (BMC with
large blocks, for programs with memory).

Path exploration (algorithms/paths.py) follows every path one at a time: a loop of 16 iterations
with one data-dependent ``if`` is 65,536 paths. Here the program is executed symbolically from
its start (``program.start``, which calls the entry) with the same encoding (smt.PathEncoder,
memory as cex/memory.MemoryState), calls inlined with a frame per call instance, loops and
recursion unwound, and **states that reach the same point of the unrolled program merge**:
the same node, under the same calls (each identified by its call site's place, iteration
counts included), with the same iteration counts of the loops around it. The path condition
becomes a disjunction and every variable and memory byte an ``If`` (algorithms/bmc/merging.py), so
the formula grows with the unrolled program, not with its paths.

- **Order.** States are taken in a topological order of the unrolled program (each
  function's weak topological order with iteration counts, algorithms/bmc/wto.py, nested by call
  site), so every state that can reach a point has arrived there before the point is taken.
- **Path conditions** are Boolean literals defined once on one incremental solver (``g ==
  And(...)``, ``g == Or(...)``), as are new variables (``v == value``): a definition constrains
  only its fresh name, so the solver holds all of them and a question about one state is a
  check under its literal. A branch whose condition the values decide (a concrete loop counter)
  is not split. A state is checked for feasibility where it starts another iteration of a loop
  or enters a recursive call (an infeasible state would otherwise unroll to the bound).
- **Bounds.** A loop runs at most ``bound`` iterations per entry, a function at most ``bound``
  activations deep; a state beyond that is *cut*. The bound doubles round after round
  (``UNWIND_BOUNDS``), each round from scratch.
- **FALSE.** At an error location whose merged condition is satisfiable, the model picks one
  path: from the error state back to the start, at each merge the first merged state whose
  path condition the model makes true (the ``If`` picked its values). That path is confirmed by
  the exact path check (``smt.check_path``), so the violation is reported, replayed and cached
  like path exploration's. If the check refutes it (it relied on an undefined operation's
  arbitrary value, or on a pointer comparison that went the allocator's other way), that path
  is excluded and another is sought, a few times.
- **TRUE** only when a round covered every execution: no cut state is feasible, every error
  location's condition is unsatisfiable (or confirmed, with more violations asked for), and no
  execution reaches undefined behaviour.

Soundness of TRUE rests on path exploration's rules (see paths.py): undefined behaviour of
operations yields an arbitrary value, pointer comparisons that C leaves to the allocator may
go either way, a memory access that may fall outside a live object (or a string beyond what
the model covers, or an undefined call) is an obligation that must be unsatisfiable for a
TRUE (its paths go on only where the access is valid, to find violations), and a construct the
encoding cannot express ends the engine without an answer.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import NamedTuple

import z3

from ...cex.encoding import EncodingUnsupported, PathEncoder, check_path
from ...cex.feasibility import Confirmed, Encoding, Feasibility, to_int
from ...cex.memory import MemoryUnsupported
from ...cfa.cfa import FunctionCFA, Program
from ...cfa.ir import AbortEdge, AssumeEdge, CallEdge, CFANode, Edge
from ...core.cpa_algorithm import Budget
from ...core.path import ErrorPath, Step
from ...core.result import UnknownReason
from ...smt.solving import OUT_OF_TIME, check_alone, check_within, lean_solver
from ..paths import GiveUp, run_rounds, settle
from .flatmemory import Names
from .merging import MergeEncoder, merge, mergeable
from .wto import Wto, wto

UNWIND_BOUNDS = (1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024)  # loop iterations / call depth, per round
SOLVER_MS = 10_000  # one check (a check that runs out gives up the engine)
LAYOUT_BOUNDS = (16, 64, 256, 1024, 4096)  # bytes laid out for an object whose size is a term
HINTED_MS = 10_000  # the exact check of a path with the model's inputs
MAX_EXCLUDED_PATHS = 16  # paths to one error location refuted by the exact check before it is left undecided
NAME = "merged-path BMC"

_UB_ACCESS = "a path may access memory outside a live object{where} (undefined behaviour: no proof can rely on " \
             "what follows)"
_BEYOND_MODEL = "a path{where} goes beyond what the memory model covers (a string longer than the string " \
                "functions follow, or an object too large)"


@dataclass
class MergedOutcome:
    status: str  # "safe" | "unsafe" | "unknown"
    kind: UnknownReason = UnknownReason.NONE
    reason: str = ""
    confirmed: list[Confirmed] = field(default_factory=list)
    bound: int = 0  # the bound of the last round
    deeper: bool = False  # a loop or recursion went on past the last round's bound
    states: int = 0  # states taken (all rounds)
    merges: int = 0  # states merged into another (all rounds)


class _Call(NamedTuple):
    """An open call: its edge, and the caller's iteration counts, frame and place at the call."""

    edge: CallEdge
    counts: tuple[int, ...]
    frame: int
    local: tuple[int, ...]


@dataclass
class _Alt:
    """One of the states a merged state came from: its path condition and how it got there."""

    pc: z3.BoolRef
    steps: tuple | None  # (step, previous) linked list since its own last merge
    join: list[_Alt] | None


@dataclass
class _State:
    node: CFANode
    counts: tuple[int, ...]  # iteration counts of the loops around node (wto heads)
    calls: tuple[_Call, ...]
    frame: int
    enc: MergeEncoder
    pc: z3.BoolRef
    steps: tuple | None = None
    join: list[_Alt] | None = None
    key: tuple = ()

    def fork(self) -> _State:
        return _State(self.node, self.counts, self.calls, self.frame, self.enc.clone(), self.pc, self.steps,
                      self.join, self.key)

    def alternatives(self) -> list[_Alt]:
        if self.steps is None and self.join is not None:
            return self.join
        return [_Alt(self.pc, self.steps, self.join)]


class MergedBMC:
    def __init__(self, program: Program, budget: Budget, max_violations: int = 1,
                 excluded: dict[int, CFANode] | None = None,
                 on_confirmed: Callable[[Confirmed], None] | None = None, start_bound: int = 1,
                 solver_ms: int = SOLVER_MS):
        self.start_bound = start_bound
        self.solver_ms = solver_ms
        self.program = program
        self.budget = budget
        self.max_violations = max_violations
        self.excluded = dict(excluded or {})
        self.on_confirmed = on_confirmed
        self.out = MergedOutcome("unknown")
        self.undecided: list[tuple[CFANode | None, str]] = []
        self.wtos: dict[str, Wto] = {}

    def run(self) -> MergedOutcome:
        def at(bound: int) -> None:
            self.out.bound = bound

        return run_rounds(self.out, [b for b in UNWIND_BOUNDS if b >= self.start_bound], at, self._round,
                          self.max_violations, self.undecided, NAME,
                          f"a loop runs or a recursion goes deeper than {UNWIND_BOUNDS[-1]}",
                          lambda: f" (unwound {self.out.bound} deep)")

    # ---- the unrolled program ---------------------------------------------------------------
    def _fn(self, node: CFANode) -> FunctionCFA:
        return self.program.function_of_name(node.function)

    def _wto(self, fn: FunctionCFA) -> Wto:
        w = self.wtos.get(fn.name)
        if w is None:
            w = self.wtos[fn.name] = wto(fn)
        return w

    def _key(self, s: _State) -> tuple:
        return (*(c.local for c in s.calls), self._wto(self._fn(s.node)).local_key(s.node, s.counts))

    # ---- one round ------------------------------------------------------------------------
    def _round(self, bound: int) -> bool:
        """Unroll every loop and recursion up to ``bound``; whether a feasible state was cut."""
        self.defs: list[z3.BoolRef] = []  # every definition made this round (each of a fresh name)
        self.inputs: dict[int, list[z3.ExprRef]] = {}  # id(step) -> the inputs it read, in order
        self.names = Names()
        self.frames: dict[tuple, int] = {(): 0}
        self.known: dict[int, bool] = {}  # feasibility of path-condition literals
        self.cuts: list[z3.BoolRef] = []
        self.obligations: list[tuple[z3.BoolRef, str]] = []
        self.pending: dict[tuple, list[_State]] = {}
        self.heap: list[tuple] = []
        start = self.program.start
        enc = MergeEncoder(self.program, self.names)
        first = _State(start.entry, (0,) * len(self._wto(start).heads[id(start.entry)]), (), 0, enc, z3.BoolVal(True))
        self._push(first)
        while self.heap:
            key = heapq.heappop(self.heap)
            for s in self.pending.pop(key):
                self.budget.check()
                self.out.states += 1
                self._expand(s, bound)
                if len(self.out.confirmed) >= self.max_violations:
                    return False
        if self.cuts and self._satisfiable(self._define(z3.Or(*self.cuts))):
            return True
        if self.obligations:
            model = self._model(self._define(z3.Or(*(o for o, _ in self.obligations))))
            if model is not None:
                why = next(w for o, w in self.obligations if z3.is_true(model.eval(o, model_completion=True)))
                self.undecided.append((None, f"{NAME}: {why}"))
        return False

    def _push(self, s: _State) -> None:
        s.key = self._key(s)
        here = self.pending.get(s.key)
        if here is None:
            self.pending[s.key] = [s]
            heapq.heappush(self.heap, s.key)
            return
        for i, other in enumerate(here):
            if mergeable(other.enc, s.enc):
                here[i] = self._merge(other, s)
                self.out.merges += 1
                return
        here.append(s)  # not mergeable exactly: the two go on apart

    def _merge(self, a: _State, b: _State) -> _State:
        enc = merge(a.enc, b.enc, a.pc)
        pc = self._define(z3.Or(a.pc, b.pc))
        return _State(a.node, a.counts, a.calls, a.frame, enc, pc, None, a.alternatives() + b.alternatives(), a.key)

    def _expand(self, s: _State, bound: int) -> None:
        node = s.node
        if node.error is not None:
            self._target(s)
            return
        fn = self._fn(node)
        edges: list[Edge] = [s.calls[-1].edge] if node is fn.exit and s.calls else list(node.out)
        if len(edges) == 2:
            edges = self._decided(s, edges)
        for i, e in enumerate(edges):
            self._take(s if i == len(edges) - 1 else s.fork(), e, bound)

    def _decided(self, s: _State, edges: list[Edge]) -> list[Edge]:
        """A two-way branch whose condition the state's values decide goes one way (no copy)."""
        a, b = edges
        if not (isinstance(a, AssumeEdge) and isinstance(b, AssumeEdge) and a.truth != b.truth
                and a.cond is not None and b.cond is not None and a.cond.canon() == b.cond.canon()):
            return edges
        try:
            c = s.enc.truth(a.cond, s.frame, 0)
        except (EncodingUnsupported, MemoryUnsupported):
            return edges  # the step itself will say so
        if not isinstance(c, bool):
            c = z3.simplify(c)
            if not (z3.is_true(c) or z3.is_false(c)):
                return edges
            c = z3.is_true(c)
        return [a if a.truth == c else b]

    # ---- one step -------------------------------------------------------------------------
    def _take(self, s: _State, e: Edge, bound: int) -> None:
        """Extend ``s`` by ``e`` and queue it, unless it becomes infeasible or is cut."""
        node, frame = s.node, s.frame
        fn = self._fn(node)
        check = False  # whether to check feasibility before going on
        if isinstance(e, CallEdge) and node is fn.exit and s.calls and e is s.calls[-1].edge:
            call = s.calls[-1]
            step = Step("return", e)
            succ, calls, next_frame, new_frame = e.succ, s.calls[:-1], frame, call.frame
            counts, back = self._wto(self._fn(e.pred)).advance(e.pred, call.counts, succ)
        elif isinstance(e, CallEdge):
            callee = self.program.functions[e.callee]
            if callee.unsupported is not None:
                what, at = callee.unsupported
                raise GiveUp(UnknownReason.UNSUPPORTED, f"unsupported feature: {what}" + (f" at {at}" if at else ""))
            depth = sum(1 for c in s.calls if c.edge.callee == e.callee)
            if depth >= bound:
                self.cuts.append(s.pc)
                return
            check = depth > 0  # a recursive call: an infeasible state would recurse to the bound
            local = self._wto(fn).local_key(node, s.counts)
            calls = (*s.calls, _Call(e, s.counts, frame, local))
            ctx = tuple(c.local for c in calls)
            new_frame = self.frames.setdefault(ctx, len(self.frames))
            next_frame = new_frame
            step = Step("call", e, _callee_entry=callee.entry)
            succ = callee.entry
            counts, back = (0,) * len(self._wto(callee).heads[id(succ)]), False
        else:
            step = Step("op", e)
            succ, calls, next_frame, new_frame = e.succ, s.calls, frame, frame
            counts, back = self._wto(fn).advance(node, s.counts, succ)
            if isinstance(e, AbortEdge) and e.undefined:
                where = f" at {e.range}" if e.range else ""
                self.obligations.append((s.pc, f"a path reaches undefined behaviour{where} ({e.label})"))
        pc = self._encode(s, step, frame, next_frame)
        if pc is None:
            return  # infeasible
        if step.kind == "return":
            s.enc.forget_frame(frame)
        s.pc, s.steps = pc, (step, s.steps)
        s.node, s.counts, s.calls, s.frame = succ, counts, calls, new_frame
        if back:
            if counts[-1] > bound:
                self.cuts.append(pc)
                return
            check = True  # another iteration: an infeasible state would unroll to the bound
        if check and not self._satisfiable(pc):
            return
        self._push(s)

    def _encode(self, s: _State, step: Step, frame: int, next_frame: int) -> z3.BoolRef | None:
        """Encode the step on ``s``'s encoding; the path condition after it (None: infeasible)."""
        enc = s.enc
        enc.mem.site, enc.mem.seq = s.key, 0
        enc.mem.bound_of = lambda size: self._size_bound(size, s.pc)
        enc.enc = Encoding()
        try:
            enc.step(0, step, frame, next_frame)
        except EncodingUnsupported as u:
            raise GiveUp(UnknownReason.UNSUPPORTED, f"{NAME} cannot encode {u.what}"
                         + (f" (at {u.range})" if u.range else "")) from None
        if enc.defs:
            self.defs += enc.defs
            enc.defs = []
        if enc.enc.inputs:
            self.inputs[id(step)] = [i.term for i in enc.enc.inputs]
        conds = []
        for c in enc.enc.constraints:
            c = z3.simplify(c)
            if z3.is_false(c):
                return None
            if not z3.is_true(c):
                conds.append(c)
        pc = s.pc
        if conds:
            pc = self._define(z3.And(pc, *conds))
        mem = enc.mem
        where = f" at {step.edge.range}" if step.edge.range else ""
        facts = [(f, _BEYOND_MODEL) for f in mem.bounds] + [(a.valid, _UB_ACCESS) for a in mem.accesses]
        mem.bounds, mem.accesses = [], []
        for fact, what in facts:
            # The fact must hold on every path that gets here; where it may not, no TRUE can
            # follow, and the paths go on only where it holds (to find violations).
            if not isinstance(fact, bool):
                fact = z3.simplify(fact)
                if z3.is_true(fact):
                    continue
                if z3.is_false(fact):
                    fact = False
            if fact is True:
                continue
            if fact is False:
                self.obligations.append((pc, what.format(where=where)))
                return None
            self.obligations.append((self._define(z3.And(pc, z3.Not(fact))), what.format(where=where)))
            pc = self._define(z3.And(pc, fact))
        return pc

    # ---- the solver -------------------------------------------------------------------------
    def _define(self, f: z3.BoolRef) -> z3.BoolRef:
        """A fresh literal that means ``f`` (on every path: it names ``f``, nothing more)."""
        self.names.n += 1
        g = z3.Bool(f"pc#{self.names.n}")
        self.defs.append(g == f)
        return g

    def _check(self, lit: z3.BoolRef) -> z3.CheckSatResult:
        # A new solver per question, with every definition (those that do not bear on it are
        # eliminated first): z3's incremental solvers took seconds, and its QF_BV strategy up to
        # 18 s, on questions that simplification, propagation, elimination of the definitions and
        # bit-blasting into SAT answer in a fraction of a second (abs_helpers' sign * magnitude:
        # 0.01 s; array_minmax's bounds: 1.2 s against 3.2 s).
        res, self.solver = check_alone([*self.defs, lit], self.solver_ms, lambda: z3.SolverFor("QF_BV"))
        if res == z3.unknown:
            self.budget.check()
            why = self.solver.reason_unknown()
            kind = UnknownReason.TIMEOUT if why in OUT_OF_TIME else UnknownReason.UNCONFIRMED
            raise GiveUp(kind, f"{NAME}: the SMT solver gave up on a check ({why}, unwound {self.out.bound} deep)")
        return res

    def _satisfiable(self, lit: z3.BoolRef) -> bool:
        k = lit.get_id()
        v = self.known.get(k)
        if v is None:
            v = self.known[k] = self._check(lit) == z3.sat
        return v

    def _size_bound(self, size: z3.ExprRef, pc: z3.BoolRef) -> int | None:
        """A bound of an object's size (a term) on the paths that make it, for laying it out;
        None if there is none within LAYOUT_BOUNDS (or the solver does not say)."""
        for k in LAYOUT_BOUNDS:
            try:
                if self._check(self._define(z3.And(pc, z3.UGT(size, z3.BitVecVal(k, size.size()))))) == z3.unsat:
                    return k
            except GiveUp:
                return None
        return None

    def _model(self, lit: z3.BoolRef) -> z3.ModelRef | None:
        if self._check(lit) != z3.sat:
            return None
        # The model again, from the same question in a fresh context: in the run's context z3's
        # choice follows the ids of its terms, which depend on what the process built before (how
        # far CEGAR's probe got in its 0.5 s), so the inputs reported would change from run to run.
        # Translated in order, the same question gets the same ids and the same model.
        ctx = z3.Context()
        alone = lean_solver(ctx)
        alone.add([f.translate(ctx) for f in self.solver.assertions()])
        if check_within(alone, self.solver_ms) == z3.sat:
            return alone.model().translate(z3.main_ctx())
        return self.solver.model()  # (where that solver does not answer: the run's model, as before)

    # ---- error locations --------------------------------------------------------------------
    def _target(self, s: _State) -> None:
        node = s.node
        if id(node) in self.excluded:
            return
        assert node.error is not None
        query = s.pc
        for tried in range(MAX_EXCLUDED_PATHS):
            model = self._model(query)
            if model is None:
                if tried:  # every path there went through undefined behaviour: no proof, no violation
                    break
                return
            steps, chosen = _extract(s, model)
            error_path = ErrorPath(steps, node.error, node)
            feas = self._confirm(error_path, model)
            if settle(error_path, feas, self.out.confirmed, self.excluded, self.on_confirmed, NAME):
                return
            # Reached on this path only through an undefined operation's arbitrary value (or a
            # pointer comparison the allocator decides): look for another path to it.
            query = self._define(z3.And(query, z3.Not(z3.And(*chosen)) if chosen else z3.BoolVal(False)))
        self.undecided.append((node, f"{NAME}: an error location is reachable only through undefined behaviour"))

    def _confirm(self, path: ErrorPath, model: z3.ModelRef) -> Feasibility:
        """The exact check of ``path`` (smt.check_path), first with the inputs the model chose:
        a model of the exact encoding with them is a confirmation like any other, and with the
        inputs fixed z3 need not search (a path of 455 steps through writes at symbolic
        addresses took 60 s without them). Without them when they do not hold there (the path
        relied on an undefined operation's arbitrary value, which the exact encoding does not
        give it)."""
        encoder = PathEncoder(self.program)
        try:
            enc = encoder.encode(path, self.budget.poll)
        except EncodingUnsupported as u:
            return Feasibility("unsupported", reason=u.what, unsupported_range=u.range)
        hints: list[z3.BoolRef] = []
        for i, st in enumerate(path.steps):
            ours = self.inputs.get(id(st), [])
            theirs = [inp.term for inp in enc.inputs if inp.step == i]
            if len(ours) != len(theirs):
                hints = []
                break
            hints += [t == model.eval(o, model_completion=True) for o, t in zip(ours, theirs)]
        if hints:
            solver = z3.Solver() if enc.uses_memory else z3.SolverFor("QF_BV")
            solver.add(*enc.constraints)
            solver.add(*hints)
            if check_within(solver, HINTED_MS) == z3.sat:
                found = solver.model()
                for inp in enc.inputs:
                    inp.value = to_int(found.eval(inp.term, model_completion=True), inp.type)
                overflow = [s for cond, s in enc.overflow_checks if z3.is_true(found.eval(cond, model_completion=True))]
                return Feasibility("sat", enc, found, overflow_steps=sorted(set(overflow)))
            self.budget.check()
        return check_path(self.program, path, poll=self.budget.poll)


def _extract(s: _State, model: z3.ModelRef) -> tuple[list[Step], list[z3.BoolRef]]:
    """The path the model takes to ``s``, and the path conditions of the states it chose at
    merges: at each merge the first state whose condition holds (whose values the ``If`` took)."""
    rev: list[Step] = []
    chosen: list[z3.BoolRef] = []
    steps, join = s.steps, s.join
    while True:
        while steps is not None:
            rev.append(steps[0])
            steps = steps[1]
        if join is None:
            break
        alt = next((a for a in join if z3.is_true(model.eval(a.pc, model_completion=True))), None)
        if alt is None:  # cannot be: the merged condition is the disjunction
            raise GiveUp(UnknownReason.INTERNAL, f"{NAME}: a model of a merged state fits none of its paths")
        chosen.append(alt.pc)
        steps, join = alt.steps, alt.join
    rev.reverse()
    return rev, chosen


def check(program: Program, budget: Budget, max_violations: int = 1, excluded: dict[int, CFANode] | None = None,
          on_confirmed: Callable[[Confirmed], None] | None = None, start_bound: int = 1,
          solver_ms: int = SOLVER_MS) -> MergedOutcome:
    """``start_bound``: the bound an earlier run of this program was cut at by its time (the
    rounds below it were cut by their bounds, without a violation). ``solver_ms``: one check's
    limit (a check that runs out gives up the engine)."""
    return MergedBMC(program, budget, max_violations, excluded, on_confirmed, start_bound, solver_ms).run()
