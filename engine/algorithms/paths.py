"""Exhaustive path exploration: bounded symbolic execution with the bit-precise path encoding.

Every path of the program from its start is followed, one at a time, in depth-first order, on
one incremental z3 solver: a branch that the path so far makes impossible is dropped, an error
location that a path reaches is confirmed the usual way (``smt.check_path``, so a violation found
here is reported, replayed and cached like any other). The encoding is the counterexample
check's (memory included), so what this engine knows is exact where the abstract analyses lose
relations: `*p == y` after a swap through two pointers, a struct copied with memcpy.

A loop or a recursion is unwound as far as the path stays feasible, up to a bound on how often
one path may pass the same location. The bound grows round after round (iterative deepening),
so a shallow violation is found before a deep one. A round in which no path met the bound has
seen every execution: then, and only then, the answer is TRUE.

Soundness of TRUE rests on four rules:
- undefined behaviour of operations (signed overflow, division by zero, a shift out of range)
  yields an arbitrary value, the policy of cfa/semantics.py, so no proof relies on a
  compiler's choice; a path that reaches an error location only through such a value is
  checked with the exact encoding, and if that refutes it the location stays undecided;
- a comparison of pointers that C leaves to the allocator (a freed object's address, the order
  of two objects, one object's end against another's start) may go either way;
- every memory access is checked on the path that makes it: if it may fall outside a live
  object, the program's behaviour is undefined from there and the exploration gives up;
- a construct the encoding cannot express ends the exploration without an answer.
"""

from __future__ import annotations

import copy
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

import z3

from ..cex.encoding import EncodingUnsupported, PathEncoder, check_path
from ..cex.feasibility import Confirmed, Feasibility
from ..cex.memory import MemoryUnsupported
from ..cfa.cfa import Program
from ..cfa.ctype import CType
from ..cfa.ir import AbortEdge, AssumeEdge, CallEdge, CFANode, Edge
from ..cfa.traits import uses_memory
from ..core.cpa_algorithm import Budget, BudgetExceeded
from ..core.path import ErrorPath, Step
from ..core.result import UnknownReason
from ..smt.solving import OUT_OF_TIME, check_alone, check_within, flat_ac
from ..smt.terms import drawn_from_few, uninterpreted_consts

UNWIND_BOUNDS = (2, 8, 32, 128, 512, 2048, 8192, 32768)  # passes of one location on one path, per round
SOLVER_MS = 10_000  # one feasibility check (a check that runs out gives up the exploration)
INCREMENTAL_MS = 1_000  # of that, for the incremental solver before the question goes to one of its own
# Paths cut by one round's bound, kept to go on from in the next (each with its encoding and
# the solver's facts): past this many, or past this many values and bytes written in all (a
# path's copy of them: about 100 bytes each), the next round starts over from the entry instead.
MAX_FRONTIER = 2_000
MAX_FRONTIER_CELLS = 2_000_000
MAX_UB_ONLY_PATHS = 16  # paths reaching one error location only through UB before it is given up
# A path at a loop head whose state can take at most this many values splits into one path per
# value (``Explorer._concrete``), each of which then runs without a solver call.
MAX_CONCRETE = 256
CONCRETE_MS = 2_000  # for finding those values (each check is a small one)
MAX_SPLIT_TRIES = 4  # per path (with its forks): past that, a path is not one to split
# A variable assigned a value of few possible values drawn from an input just read (``x % 4``,
# ``x & 1``: smt.terms.drawn_from_few) splits the path into one per value the path allows, memory or not: a
# length or an index drawn that way then makes the loops over it concrete (a SHA-256 stream
# fed in two pieces at an arbitrary split point: 4 concrete paths, where the one symbolic path
# put a hash over symbolic addresses to the solver). At most this many values ...
MAX_FEW = 64
MAX_FEW_PATHS = 1024  # ... and at most this many paths made of one by such splits (a hash reduced in a loop)
# A value nested deeper is named (ExplorationEncoder.write): flattening costs a walk of the term on every
# check of a deep condition, so a loop that accumulates a value and tests it each time costs
# the square of this at most. Deep enough for a fold over 10,000 cells taken three times
# (array-crafted's xor3: with 1,500, the pieces were named, and only the solver could see through
# the names, for minutes).
MAX_TERM_DEPTH = 50_000
SIMPLIFY_DEPTH = 64  # a condition nested deeper is flattened before it is simplified
# A condition still nested deeper once flattened and simplified is not given to z3: asserting
# it can take minutes, deaf to any time limit (a product a loop built 30,000 times over an
# input). The exploration gives up instead.
MAX_CHECK_DEPTH = 2_000


class GiveUp(Exception):
    def __init__(self, kind: UnknownReason, reason: str):
        self.kind = kind
        self.reason = reason
        super().__init__(reason)


@dataclass
class PathsOutcome:
    status: str  # "safe" | "unsafe" | "unknown"
    kind: UnknownReason = UnknownReason.NONE
    reason: str = ""
    confirmed: list[Confirmed] = field(default_factory=list)
    paths: int = 0  # complete paths followed (all rounds)
    unwind: int = 0  # the bound of the last round
    deeper: bool = False  # a path went on past the last round's bound


class ExplorationEncoder(PathEncoder):
    """The path encoding with undefined behaviour as an arbitrary value and cheap copies for
    branching."""

    def __init__(self, program: Program):
        super().__init__(program)
        self.depths: dict[int, int] = {}  # term id -> how deep it nests (shared by the clones)
        self.kept: list[z3.ExprRef] = []  # the terms of those ids
        # What flat_ac made of the terms in deep conditions (shared by the clones): a branch
        # asks of both its edges, and a path's checks of the same values.
        self.flat: dict[int, tuple[z3.ExprRef, z3.ExprRef]] = {}
        self.few: list[str] = []  # variables the last step wrote a value of few values to (``MAX_FEW``)
        self.note_few = False  # whether to note them (path exploration splits on them; merged-path BMC does not)

    def overflow(self, happens: z3.BoolRef, wrapped: z3.ExprRef, step: int) -> z3.ExprRef:
        return self._arbitrary_if(happens, wrapped)

    def defined(self, ok: z3.BoolRef, value: z3.ExprRef) -> z3.ExprRef:
        return self._arbitrary_if(z3.Not(ok), value)

    def pointer_compare(self, op: str, a: z3.ExprRef, b: z3.ExprRef, c: z3.BoolRef) -> z3.BoolRef:
        decided = self.mem.determined(op, a, b)
        if z3.is_true(decided):
            return c
        self.counter += 1
        return z3.If(decided, c, z3.Bool(f"unspecified#{self.counter}"))

    def pointers_decide(self, op: str, a: int, b: int) -> bool:
        return self.mem.determined_now(op, a, b) is True

    def write(self, name: str, t: CType, value: Any, frame: int, step: int) -> None:
        """The value itself rather than a variable defined equal to it, up to a depth: a fold
        over an array then stays one term, which z3's rewriter puts in order (the xor of 1,000
        cells before and after a rotation is the same term once flattened: array-crafted/xor2,
        where the definitions cost 4 s per check). Deeper, the term is named, as the path
        encoding does, so that no check walks a term without end."""
        if self.note_few and not isinstance(value, int) and not z3.is_bv_value(value) \
                and drawn_from_few(value, MAX_FEW) is not None and self._just_read(value, step):
            self.few.append(self.inst(name, frame))
        if isinstance(value, int) or z3.is_bv_value(value) or self._depth(value) > MAX_TERM_DEPTH:
            super().write(name, t, value, frame, step)
            return
        self.cur[self.inst(name, frame)] = value
        self.enc.writes[step].append((name, value, t))

    def _just_read(self, value: z3.ExprRef, step: int) -> bool:
        """Whether ``value`` is made of inputs read in the last two steps alone: a choice drawn
        as it is read (``k = nondet() % 4``), not a sum that a loop builds of older inputs."""
        recent = {inp.term.get_id() for inp in self.enc.inputs[-4:]
                  if step - inp.step <= 2 and isinstance(inp.term, z3.ExprRef)}
        consts = uninterpreted_consts(value)
        return bool(consts) and all(c.get_id() in recent for c in consts)

    def simplified(self, c: z3.BoolRef) -> z3.BoolRef:
        """``c`` simplified; a deep one flattened first (``flat_ac``): z3's rewriter flattens
        a chain of one operation in time quadratic in its depth (5 s for xor2's 1,000 cells,
        where flattening first takes 0.2 s), and so does a solver that is given it."""
        if self._depth(c) <= SIMPLIFY_DEPTH:
            return z3.simplify(c)
        return z3.simplify(flat_ac([c], self.flat)[0])

    def _depth(self, term: z3.ExprRef) -> int:
        """How deep ``term`` nests, from the depths of the terms written before (most values
        are an operation over them)."""
        depths = self.depths
        todo: list[tuple[z3.ExprRef, list[z3.ExprRef] | None]] = [(term, None)]  # (with its operands, once known)
        while todo:
            u, kids = todo[-1]
            if u.get_id() in depths:
                todo.pop()
                continue
            if kids is None:
                kids = [u.arg(i) for i in range(u.num_args())] if z3.is_app(u) else []
                missing = [k for k in kids if k.get_id() not in depths]
                if missing:
                    todo[-1] = (u, kids)
                    todo.extend((k, None) for k in missing)
                    continue
            todo.pop()
            depths[u.get_id()] = 1 + max((depths[k.get_id()] for k in kids), default=0)
            self.kept.append(u)  # (an id stays that term's while the term lives)
        return depths[term.get_id()]

    def _arbitrary_if(self, bad: z3.BoolRef, value: z3.ExprRef) -> z3.ExprRef:
        bad = z3.simplify(bad)
        if z3.is_false(bad):
            return value
        self.counter += 1
        return z3.If(bad, z3.BitVec(f"undefined#{self.counter}", value.size()), value)

    def clone(self) -> ExplorationEncoder:
        new = copy.copy(self)
        new.cur = dict(self.cur)
        new.live_frames = list(self.live_frames)
        new.stack = list(self.stack)
        new.few = list(self.few)
        enc = copy.copy(self.enc)
        enc.constraints, enc.inputs, enc.writes = list(enc.constraints), list(enc.inputs), list(enc.writes)
        enc.args, enc.overflow_checks = dict(enc.args), list(enc.overflow_checks)
        new.enc = enc
        mem = copy.copy(self.mem)
        mem.sizes, mem.heap, mem.names = dict(mem.sizes), set(mem.heap), dict(mem.names)
        mem.known_sizes, mem.live_log = dict(mem.known_sizes), dict(mem.live_log)
        mem.alive = dict(mem.alive) if mem.alive is not None else None
        mem.accesses, mem.constraints, mem.log = list(mem.accesses), list(mem.constraints), dict(mem.log)
        mem.bounds = list(mem.bounds)
        mem.readonly, mem.ended = set(mem.readonly), set(mem.ended)
        new.mem = mem
        return new


@dataclass
class _Path:
    """One path under way: where it is, the calls open, its encoding, its steps (shared with the
    paths it branched from), how often it passed each branching location."""

    node: CFANode
    calls: tuple[CallEdge, ...]
    frames: tuple[int, ...]
    next_frame: int
    enc: ExplorationEncoder
    steps: tuple | None  # (step, previous) linked list
    length: int
    visits: dict[int, int]
    added: int = 0  # constraints of enc already on the solver
    mem_added: int = 0
    checked: int = 0  # memory accesses already shown valid
    bounded: int = 0  # limits of the memory model already shown to hold
    # (loop head, inputs read) where the path's state had too many values to split it
    tried: frozenset[tuple[int, int]] = frozenset()
    splits: int = 1  # how many paths the splits on values of few values made of its origin (``MAX_FEW_PATHS``)

    def fork(self) -> _Path:
        return _Path(self.node, self.calls, self.frames, self.next_frame, self.enc.clone(), self.steps, self.length,
                     dict(self.visits), self.added, self.mem_added, self.checked, self.bounded, self.tried,
                     self.splits)

    def step_list(self) -> list[Step]:
        out = []
        cur = self.steps
        while cur is not None:
            out.append(cur[0])
            cur = cur[1]
        out.reverse()
        return out


class _Paused(Exception):
    """The budget ran out between two steps of a path: ``edge`` is its next (None: it goes on
    from its node)."""

    def __init__(self, edge: Edge | None, reason: str):
        super().__init__(reason)
        self.edge, self.reason = edge, reason


class Explorer:
    def __init__(self, program: Program, budget: Budget, max_violations: int,
                 excluded: dict[int, CFANode] | None = None,
                 on_confirmed: Callable[[Confirmed], None] | None = None):
        self.program = program
        self.budget = budget
        self.max_violations = max_violations
        self.excluded = dict(excluded or {})
        self.on_confirmed = on_confirmed
        self.out = PathsOutcome("unknown")
        self.undecided: list[tuple[CFANode | None, str]] = []
        self.ub_only: dict[int, int] = {}  # per error location: paths that reach it only through UB
        self.memory = uses_memory(program)
        # The paths the last round cut, with the facts they had put on the solver; None: the
        # next round starts at the entry (the first, or after too many were cut).
        self.frontier: list[tuple[_Path, list[z3.BoolRef]]] | None = None
        # A round its budget stopped between two steps: (solver, pending, frontier, cut), and the
        # index of its bound. ``resume`` goes on with it, losing nothing.
        self.paused: tuple[z3.Solver, list, list | None, bool] | None = None
        self.kept = 0  # values and bytes written of the paths this round keeps (MAX_FRONTIER_CELLS)
        self.two_ways: dict[tuple[int, int], bool] = {}  # (edge, edge) -> one condition, both ways
        self.round_at = 0

    @property
    def resumable(self) -> bool:
        return self.paused is not None

    def run(self) -> PathsOutcome:
        def at(bound: int) -> None:
            self.out.unwind = bound
            self.round_at = UNWIND_BOUNDS.index(bound)

        return run_rounds(self.out, UNWIND_BOUNDS[self.round_at:], at, self._round, self.max_violations,
                          self.undecided, "path exploration",
                          f"a path passes one location more than {UNWIND_BOUNDS[-1]} times")

    def resume(self, budget: Budget) -> PathsOutcome:
        """Go on, with ``budget``, from where the last budget stopped a round (``resumable``)."""
        assert self.paused is not None
        self.budget = budget
        self.out.status, self.out.kind, self.out.reason = "unknown", UnknownReason.NONE, ""
        return self.run()

    # ---- one round ------------------------------------------------------------------------
    def _round(self, bound: int) -> bool:
        """Follow every path with at most ``bound`` passes of one location; whether one was cut.
        The paths the last round cut go on from where they were cut (a path within that round's
        bound was followed to its end then): a list walked by several calls, cut at 2, 8 and 32
        passes, was walked again from the start each round, half of sll_nondet_insert-2's time."""
        # (path, the edge to take first or None to go on from its node, scope, facts to put back)
        pending: list[tuple[_Path, Edge | None, int, list[z3.BoolRef] | None]]
        frontier: list[tuple[_Path, list[z3.BoolRef]]] | None
        if self.paused is not None:
            (solver, pending, frontier, cut), self.paused = self.paused, None
        else:
            solver, pending, frontier, cut = z3.Solver(), [], [], False
            self.kept = 0
            if self.frontier is None:
                start = self.program.start
                enc = ExplorationEncoder(self.program)
                enc.note_few = True
                first = _Path(start.entry, (), (0,), 1, enc, None, 0, {})
                pending += [(first.fork(), alt, 0, None) for alt in reversed(self._successors(first))]
            else:
                pending += [(path, None, 0, facts) for path, facts in reversed(self.frontier)]
        while pending:
            path, edge, scope, facts = pending.pop()
            solver.pop(solver.num_scopes() - scope)
            solver.push()
            if facts:
                solver.add(*facts)
            try:
                was_cut = self._follow(path, edge, solver, pending, bound)
            except _Paused as p:
                # Between two steps: the path goes back on top, over the scopes it pushed.
                pending.append((path, p.edge, solver.num_scopes(), None))
                self.paused = (solver, pending, frontier, cut)
                raise BudgetExceeded(p.reason) from None
            if was_cut:
                cut = True
                cells = len(path.enc.cur) + len(path.enc.mem.log)
                if frontier is not None and len(frontier) < MAX_FRONTIER and self.kept + cells <= MAX_FRONTIER_CELLS:
                    frontier.append((path, list(solver.assertions())))
                    self.kept += cells
                else:
                    frontier = None
            if len(self.out.confirmed) >= self.max_violations:
                break
        self.frontier = frontier if cut else None
        return cut

    def _follow(self, path: _Path, edge: Edge | None, solver: z3.Solver, pending: list, bound: int) -> bool:
        """Extend ``path`` by ``edge`` (None: none, it goes on from its node), then along its
        edges, pushing the other branches on ``pending``, to its end; whether ``bound`` cut it."""
        known = False  # the edge is a branch the path's values decided (``_decided``)
        while True:
            try:
                self.budget.check()
            except BudgetExceeded as exc:
                raise _Paused(edge, exc.reason) from None
            if edge is not None:
                if not self._take(path, edge, solver, known):
                    return False  # infeasible
                node = path.node
                if node.error is not None:
                    self._target(path, solver)
                    return False
                if path.enc.few and (forks := self._few(path, solver)):
                    base = solver.num_scopes()
                    pending.extend((fork, None, base, None) for fork in reversed(forks))
                    return False
            node = path.node
            if node.out and node.loop_head or len(node.out) > 1:
                n = path.visits.get(id(node), 0) + 1
                if n > bound:
                    return True
                path.visits[id(node)] = n
            if node.loop_head and (forks := self._concrete(path, solver)):
                base = solver.num_scopes()
                for fork in reversed(forks):
                    nxt = self._successors(fork)
                    for alt in reversed(self._decided(fork, nxt)[0] if len(nxt) == 2 else nxt):
                        pending.append((fork.fork(), alt, base, None))
                return False
            nxt = self._successors(path)
            if not nxt:
                self.out.paths += 1
                return False
            known = False
            if len(nxt) == 2:
                nxt, known = self._decided(path, nxt)
            if len(nxt) == 1:
                edge = nxt[0]
                continue
            base = solver.num_scopes()
            for alt in reversed(nxt[1:]):
                pending.append((path.fork(), alt, base, None))
            solver.push()
            edge = nxt[0]

    def _decided(self, path: _Path, nxt: list[Edge]) -> tuple[list[Edge], bool]:
        """A two-way branch whose condition the path already decides (a concrete loop counter)
        goes one way: no copy of the path, no solver call. Whether its condition was a number
        (then the step need not evaluate it again: ``_take``'s ``known``)."""
        a, b = nxt
        key = (id(a), id(b))
        two_ways = self.two_ways.get(key)
        if two_ways is None:  # (canon() builds a string: once per branch, not once per pass)
            two_ways = self.two_ways[key] = (
                isinstance(a, AssumeEdge) and isinstance(b, AssumeEdge) and a.truth != b.truth
                and a.cond is not None and b.cond is not None and a.cond.canon() == b.cond.canon())
        if not two_ways:
            return nxt, False
        assert isinstance(a, AssumeEdge) and isinstance(b, AssumeEdge) and a.cond is not None
        # The calls open at this step, as the step sets them: the leak check reads them, and
        # with the last step's a returned main's pointers still held its memory (no leak seen).
        path.enc.at_step(path.frames[-1])
        try:
            c = path.enc.truth(a.cond, path.frames[-1], path.length)
        except (EncodingUnsupported, MemoryUnsupported):
            return nxt, False  # the step itself will say so
        if isinstance(c, bool):
            return [a if a.truth == c else b], True
        c = path.enc.simplified(c)
        if z3.is_true(c) or z3.is_false(c):
            return [a if a.truth == z3.is_true(c) else b], False
        return nxt, False

    def _concrete(self, path: _Path, solver: z3.Solver) -> list[_Path] | None:
        """At a loop head: where the path's state (its variables' values) can take few values
        (``MAX_CONCRETE``), one path per value, each with its variables as numbers, so that
        its branches are decided without the solver (``_decided``) until it reads another
        input. Inputs bounded by ``assume(0 < x && x <= 10)`` ahead of a loop whose branches
        rest on products of them: bresenham's 100 inputs cost 1,400 checks of 50 ms without.
        All the values or none: every value the path constraints allow is found (the last
        check answers unsat), or the path goes on as it is. Not with memory, whose contents
        are not variables."""
        key = (id(path.node), len(path.enc.enc.inputs))
        if self.memory or key in path.tried or len(path.tried) >= MAX_SPLIT_TRIES:
            return None
        path.tried = path.tried | {key}
        live = set(path.frames)
        terms = {k: v for k, v in path.enc.cur.items() if not isinstance(v, int) and _in(k, live)}
        if not terms or not all(z3.is_bv(t) for t in terms.values()):
            return None
        # A variable that holds a value nothing else mentions (one not yet written) keeps it:
        # it is free whatever the others hold.
        fresh = [z3.simplify(c) for c in path.enc.enc.constraints[path.added:]]
        mentioned: dict[int, int] = {}  # per constant, how many of these terms it occurs in
        for t in [*solver.assertions(), *fresh, *terms.values()]:
            for c in uninterpreted_consts(t):
                mentioned[c.get_id()] = mentioned.get(c.get_id(), 0) + 1
        terms = {k: t for k, t in terms.items()
                 if not (z3.is_const(t) and t.decl().kind() == z3.Z3_OP_UNINTERPRETED and mentioned[t.get_id()] == 1)}
        if not terms:
            return None
        solver.push()
        states: list[dict[str, int]] = []
        try:
            solver.add(*fresh)
            deadline = time.monotonic() + self._ms(CONCRETE_MS) / 1000
            while True:
                left = int(1000 * (deadline - time.monotonic()))
                res = check_within(solver, left) if left > 0 else z3.unknown
                if res == z3.unsat:
                    break
                if res != z3.sat or len(states) >= MAX_CONCRETE:
                    return None
                m = solver.model()
                values = {k: m.eval(t, model_completion=True) for k, t in terms.items()}
                if not all(z3.is_bv_value(v) for v in values.values()):
                    return None
                if not states and self._far(solver, terms, values):
                    return None
                states.append({k: v.as_long() for k, v in values.items()})
                solver.add(z3.Or([t != values[k] for k, t in terms.items()]))
        finally:
            solver.pop()
        forks = []
        for values in states:
            fork = path.fork()
            fork.enc.enc.constraints.extend(t == z3.BitVecVal(values[k], t.size()) for k, t in terms.items())
            fork.enc.cur.update(values)
            forks.append(fork)
        return forks

    def _few(self, path: _Path, solver: z3.Solver) -> list[_Path] | None:
        """After a step that wrote a value of few values (``MAX_FEW``) to a variable: one path per
        value the path allows, each with the variable as a number. All the values or none, as
        in ``_concrete``; a value the path determines replaces the term on the path itself."""
        keys, path.enc.few = path.enc.few, []
        forks: list[_Path] = []
        for key in keys:
            term = path.enc.cur.get(key)
            if term is None or isinstance(term, int) or not z3.is_bv(term):
                continue
            values = self._values(term, solver)
            if values is None:
                continue
            if len(values) == 1:
                path.enc.enc.constraints.append(term == z3.BitVecVal(values[0], term.size()))
                path.enc.cur[key] = values[0]
                continue
            if path.splits * len(values) > MAX_FEW_PATHS:
                continue
            path.splits *= len(values)
            for v in values:
                fork = path.fork()
                fork.enc.enc.constraints.append(term == z3.BitVecVal(v, term.size()))
                fork.enc.cur[key] = v
                forks.append(fork)
            break  # (each fork splits on the rest of ``keys`` at its next step that writes one, if any)
        return forks or None

    def _values(self, term: z3.ExprRef, solver: z3.Solver) -> list[int] | None:
        """Every value ``term`` takes on the path (on ``solver``), if the solver finds them all
        within ``CONCRETE_MS``: None otherwise."""
        solver.push()
        found: list[int] = []
        try:
            deadline = time.monotonic() + self._ms(CONCRETE_MS) / 1000
            while len(found) <= MAX_FEW:
                left = int(1000 * (deadline - time.monotonic()))
                res = check_within(solver, left) if left > 0 else z3.unknown
                if res == z3.unsat:
                    return found
                if res != z3.sat:
                    return None
                v = solver.model().eval(term, model_completion=True)
                if not z3.is_bv_value(v):
                    return None
                found.append(v.as_long())
                solver.add(term != v)
            return None
        finally:
            solver.pop()

    def _far(self, solver: z3.Solver, terms: dict[str, z3.ExprRef], values: dict[str, z3.ExprRef]) -> bool:
        """Whether some variable may lie more than ``MAX_CONCRETE`` from its value in the first
        model: then the split is not tried. One check, where finding all the values of an input
        read in a loop (``while (__VERIFIER_nondet_int())``) up to the limit took 256, at every
        iteration: a loop of 7 such reads went from 0.9 s to 49 s. Values far apart but few
        are left unsplit too: a heuristic, never a loss of paths."""
        far = []
        for k, t in terms.items():
            if 1 << t.size() > 2 * MAX_CONCRETE:  # (a narrower one is never far)
                width = z3.BitVecVal(2 * MAX_CONCRETE, t.size())
                far.append(z3.Not(z3.ULE(t - values[k] + MAX_CONCRETE, width)))
        if not far:
            return False
        solver.push()
        try:
            solver.add(z3.Or(far))
            return check_within(solver, self._ms(CONCRETE_MS)) != z3.unsat
        finally:
            solver.pop()

    def _successors(self, path: _Path) -> list[Edge]:
        node = path.node
        fn = self.program.function_of_name(node.function)
        if node is fn.exit and path.calls:
            return [path.calls[-1]]  # the return step (see _take)
        return list(node.out)

    # ---- one step -------------------------------------------------------------------------
    def _take(self, path: _Path, edge: Edge, solver: z3.Solver, known: bool = False) -> bool:
        """Extend ``path`` by ``edge``; False if the path becomes infeasible. ``known``: a branch
        whose condition ``_decided`` found true (evaluating it did all a step does but note it)."""
        node = path.node
        fn = self.program.function_of_name(node.function)
        frame = path.frames[-1]
        if isinstance(edge, CallEdge) and node is fn.exit and path.calls and edge is path.calls[-1]:
            step = Step("return", edge)
            nxt, next_frame = edge.succ, frame
            path.calls, path.frames = path.calls[:-1], path.frames[:-1]
        elif isinstance(edge, CallEdge):
            callee = self.program.functions[edge.callee]
            if callee.unsupported is not None:
                what, at = callee.unsupported
                raise GiveUp(UnknownReason.UNSUPPORTED, f"unsupported feature: {what}" + (f" at {at}" if at else ""))
            step = Step("call", edge, _callee_entry=callee.entry)
            nxt, next_frame = callee.entry, path.next_frame
            path.calls, path.frames = (*path.calls, edge), (*path.frames, next_frame)
            path.next_frame += 1
        else:
            step = Step("op", edge)
            nxt, next_frame = edge.succ, frame
            if isinstance(edge, AbortEdge) and edge.undefined:
                where = f" at {edge.range}" if edge.range else ""
                self.undecided.append((None, f"path exploration: a path reaches undefined behaviour{where} "
                                             f"({edge.label})"))
        try:
            if known:
                path.enc.enc.writes.append([])
            else:
                path.enc.step(path.length, step, frame, next_frame)
        except EncodingUnsupported as u:
            raise GiveUp(UnknownReason.UNSUPPORTED, f"path exploration cannot encode {u.what}"
                         + (f" (at {u.range})" if u.range else "")) from None
        path.steps = (step, path.steps)
        path.length += 1
        path.node = nxt
        enc, mem = path.enc.enc, path.enc.mem
        if path.added == len(enc.constraints) and path.mem_added == len(mem.constraints) \
                and path.bounded == len(mem.bounds) and path.checked == len(mem.accesses):
            return True  # (most steps: nothing new to check)
        raw = [*enc.constraints[path.added:], *mem.constraints[path.mem_added:]]
        new = [path.enc.simplified(c) for c in raw]
        path.added, path.mem_added = len(enc.constraints), len(mem.constraints)
        # (simplified() knows each raw condition's depth: only a deep one has its result walked)
        for c0, c in zip(raw, new):
            if path.enc._depth(c0) > MAX_CHECK_DEPTH and (depth := path.enc._depth(c)) > MAX_CHECK_DEPTH:
                where = f" at {edge.range}" if edge.range else ""
                raise GiveUp(UnknownReason.DEPTH, f"path exploration: a condition{where} is nested {depth} operations "
                                                  f"deep (a value built by a long loop), more than the solver takes")
        new = [c for c in new if not z3.is_true(c)]
        if any(z3.is_false(c) for c in new):
            return False
        if new:
            solver.add(*new)
            if isinstance(edge, AssumeEdge) and self._check(solver) != z3.sat:
                return False
        # The model's limits first: an access's validity may rest on them (a string's length).
        for limit in mem.bounds[path.bounded:]:
            self._implied(limit, solver, edge, "a path{where} goes beyond what the memory model covers (a string "
                                               "longer than the string functions follow, or an object too large)")
        path.bounded = len(mem.bounds)
        for access in mem.accesses[path.checked:]:
            self._implied(access.valid, solver, edge, "a path may access memory outside a live object{where} "
                                                      "(undefined behaviour: no proof can rely on what follows)")
        path.checked = len(mem.accesses)
        return True

    def _ms(self, most: int) -> int:
        """``most`` milliseconds for a check, or what is left of the budget if less: a phase given
        a second must not spend ten on one check (bench/loops' prod4br_unwindbound5: 30 s of a
        1.2 s turn, on nonlinear arithmetic)."""
        if self.budget.deadline is None:
            return most
        return max(1, min(most, int(1000 * (self.budget.deadline - time.monotonic()))))

    def _check(self, solver: z3.Solver) -> z3.CheckSatResult:
        res = check_within(solver, self._ms(INCREMENTAL_MS))
        if res == z3.unknown:
            self.budget.check()
            # The incremental solver skips the preprocessing that substitutes the path's
            # definitions: a question it cannot answer in a moment goes to a solver of its own.
            # Chains of one associative operation become one application first (what the
            # rewriter would do, in linear time), so that it can put their operands in order.
            res, solver = check_alone(flat_ac(list(solver.assertions())), self._ms(SOLVER_MS - INCREMENTAL_MS))
        if res == z3.unknown:
            self.budget.check()
            why = solver.reason_unknown()
            # Out of time (its own limit, or interrupted past it): a faster machine might decide.
            kind = UnknownReason.TIMEOUT if why in OUT_OF_TIME else UnknownReason.UNCONFIRMED
            raise GiveUp(kind, f"path exploration: the SMT solver gave up on a check ({why})")
        return res

    def _implied(self, fact: z3.BoolRef, solver: z3.Solver, edge: Edge, what: str) -> None:
        """``fact`` must hold on every path that gets here; where it may not, the path's
        continuation is explored only where it does, and no TRUE can follow."""
        if z3.is_true(fact):
            return
        v = z3.simplify(fact)
        if z3.is_true(v):
            return
        solver.push()
        solver.add(z3.Not(v))
        try:
            res = self._check(solver)
        finally:
            solver.pop()
        if res == z3.sat:
            # Undefined behaviour, or beyond the model: no TRUE can rely on what follows; the
            # paths where the fact holds are still explored for violations.
            where = f" at {edge.range}" if edge.range else ""
            self.undecided.append((None, "path exploration: " + what.format(where=where)))
        solver.add(v)

    # ---- error locations --------------------------------------------------------------------
    def _input_values(self, path: _Path, solver: z3.Solver) -> list[int] | None:
        """The values of the path's nondeterministic values and external results in a model of
        the path (None if the solver gives none at once)."""
        inputs = [inp for inp in path.enc.enc.inputs if not inp.source.startswith("input ")]
        if not inputs or check_within(solver, self._ms(INCREMENTAL_MS)) != z3.sat:
            return None
        m = solver.model()
        values = [m.eval(inp.term, model_completion=True) for inp in inputs]
        return [v.as_long() for v in values] if all(z3.is_bv_value(v) for v in values) else None

    def _target(self, path: _Path, solver: z3.Solver) -> None:
        node = path.node
        if id(node) in self.excluded:
            return
        assert node.error is not None
        error_path = ErrorPath(path.step_list(), node.error, node)
        feas = None
        # (Only where a split made the path concrete: elsewhere the symbolic check's model is the
        # one to report, whose values z3 keeps small, a VLA's lengths among them.)
        values = self._input_values(path, solver) if path.splits > 1 else None
        if values is not None:
            # The path's own model first: with its inputs as numbers, the check is concrete
            # where the exploration made it so (a split value drew a key from a table: a hash
            # over symbolic addresses otherwise, which the memory model gives up on).
            fixed = check_path(self.program, error_path, self._ms(60_000), poll=self.budget.poll, inputs=values)
            feas = fixed if fixed.status == "sat" else None
        if feas is None:
            feas = check_path(self.program, error_path, self._ms(60_000), poll=self.budget.poll)
        if settle(error_path, feas, self.out.confirmed, self.excluded, self.on_confirmed, "path exploration"):
            return
        # Reached only through an undefined operation's arbitrary value. Another path to the
        # same location may reach it without (a loop that runs longer, another call of the
        # same assert function): the location stays a target for a few more such paths.
        seen = self.ub_only.get(id(node), 0)
        if not seen:
            self.undecided.append((node, "path exploration: an error location is reachable only through undefined "
                                         "behaviour"))
        self.ub_only[id(node)] = seen + 1
        if seen + 1 >= MAX_UB_ONLY_PATHS:
            self.excluded[id(node)] = node


def _in(key: str, frames: set[int]) -> bool:
    """Whether a variable instance (``name@frame``, a global without) belongs to an open call."""
    _, at, frame = key.rpartition("@")
    return not at or not frame.isdigit() or int(frame) in frames


def settle(error_path: ErrorPath, feas: Feasibility, confirmed: list[Confirmed], excluded: dict[int, CFANode],
           on_confirmed: Callable[[Confirmed], None] | None, name: str) -> bool:
    """Whether the exact check confirmed ``error_path`` (then it joins ``confirmed`` and its
    location is excluded); False if the path relied on undefined behaviour. GiveUp when the
    check could not say."""
    if feas.status == "sat":
        c = Confirmed(error_path, feas)
        confirmed.append(c)
        excluded[id(error_path.error_node)] = error_path.error_node
        if on_confirmed is not None:
            on_confirmed(c)
        return True
    if feas.status == "unsupported":
        raise GiveUp(UnknownReason.UNSUPPORTED, f"an error path could not be confirmed: cbam cannot encode "
                     f"{feas.reason}")
    if feas.status == "unknown":  # the solver gave up: a matter of time
        raise GiveUp(UnknownReason.TIMEOUT, f"{name}: an error path could not be confirmed: {feas.reason}")
    return False


class RoundsOutcome(Protocol):
    status: str
    kind: UnknownReason
    reason: str
    confirmed: list[Confirmed]
    deeper: bool


_O = TypeVar("_O", bound=RoundsOutcome)


def run_rounds(out: _O, bounds: Iterable[int], at: Callable[[int], None], round_: Callable[[int], bool],
               max_violations: int, undecided: list[tuple[CFANode | None, str]], name: str, beyond: str,
               where: Callable[[], str] = str) -> _O:
    """Rounds of a bounded search with growing ``bounds`` (``round_`` says whether it cut a
    feasible path), until one covers every execution, enough violations are confirmed, or time
    runs out. The answer is TRUE only without an undecided error location (one reached only
    through undefined behaviour, unless another path really reached it). ``deeper``: the last
    bound was not enough (a loop runs longer, or the paths branch further)."""
    try:
        for bound in bounds:
            at(bound)
            cut = round_(bound)
            if len(out.confirmed) >= max_violations:
                out.status = "unsafe"
                return out
            if not cut:
                confirmed = {id(c.path.error_node) for c in out.confirmed}
                left = [(n, why) for n, why in undecided if n is None or id(n) not in confirmed]
                if left:
                    out.status = "unsafe" if out.confirmed else "unknown"
                    out.kind, out.reason = UnknownReason.UNCONFIRMED, left[0][1]
                else:
                    out.status = "unsafe" if out.confirmed else "safe"
                return out
        out.deeper = True
        raise GiveUp(UnknownReason.NO_PROGRESS, f"{name}: {beyond}")
    except GiveUp as g:
        out.status = "unsafe" if out.confirmed else "unknown"
        out.kind, out.reason = g.kind, g.reason
        return out
    except BudgetExceeded as exc:
        out.status = "unsafe" if out.confirmed else "unknown"
        out.kind = UnknownReason(exc.reason)
        out.reason = f"{name}: {exc.reason}{where()}"
        return out


def explore(program: Program, budget: Budget, max_violations: int = 1,
            excluded: dict[int, CFANode] | None = None,
            on_confirmed: Callable[[Confirmed], None] | None = None) -> PathsOutcome:
    return Explorer(program, budget, max_violations, excluded, on_confirmed).run()
