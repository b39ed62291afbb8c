"""Whole-program invariants from Horn clauses, checked with machine integers.

The program becomes a system of constrained Horn clauses: one relation per CFA node over its
function's frame (integer variables whose address is never taken, the globals, and entry
copies ``x@old`` of the parameters and globals), one clause per edge, and per call a clause
into the callee's entry and one from the callee's exit back to the return site, linked
through the entry copies. The exit relation is the function's summary, for every calling
context at once, so recursion needs nothing more. Everything the encoding does not model
(memory, floats, pointers) reads as an arbitrary value: the clauses over-approximate the
program, as the predicate analysis's path formulas do (predicate/formula.py).

z3's Spacer solves the clauses over unbounded integers, where it generalises well (the
invariant of a counting loop, ``i + k == k0``, or the summary ``\\result == 2 * n``). That
answer is only a candidate: integer arithmetic is not C's. It becomes a proof only when every
clause, encoded again with bit-vectors (C's semantics: wrap-around, undefined behaviour as
an arbitrary value), holds with the candidate's relations read over the machine values
(``check``: each clause decided exactly, first over the integers, smt/intblast.py, for a
moment, or for all the time with the template invariants' candidates, then bit-blasted).
Relations the answer leaves out count as ``true``. A candidate that fails the check proves
nothing and the run goes on with the other engines; so does any counterexample Spacer
reports, since it may rely on unbounded integers (confirmed violations come from the engines
that confirm paths).

This is the over-approximating half of CPArec (Chen et al. 2014): summaries whose inductiveness a
solver checks; here they come from Spacer in one step rather than refined from interpolants.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TypeAlias, TypeVar, cast

import z3

from ...cfa.cfa import FunctionCFA, Program, VarInfo
from ...cfa.constants import fixed_values
from ...cfa.ctype import IntType
from ...cfa.ir import (
    AbortEdge,
    AssumeEdge,
    Binary,
    BlankEdge,
    CallEdge,
    Cast,
    CFANode,
    Const,
    ReturnEdge,
    Var,
)
from ...cfa.traits import has_error_location, recursive  # noqa: F401 (horn's own API)
from ...core.path import Step
from ...cpa.predicate.cpa import abstraction_point
from ...cpa.predicate.formula import MachineEncoder, SegmentEncoder, Theory, old
from ...smt.solving import check_within, extend, solver_watchdog
from ...smt.terms import add_rule, definitions, uninterpreted_consts
from ...smt.time_limit import solver_timeout
from ..scope import applies
from .cells import INDEX, CellEncoding, Cells, program_exprs
from .fields import FieldEncoding, Fields
from .heap import Heap, HeapEncoding

MAX_INLINE_EDGES = 64  # a callee encoded in place (``Encoder._inlinable``) has at most this many edges
MAX_SEGMENT_STEPS = 20_000  # nodes visited from one cut point (a cycle without one would not end)
ERROR = ("", -1)  # the relation that stands for "an error location is reachable"
GAVE_UP = "Spacer gave up"
CHECK_TIMED_OUT = "the machine-integer check of the invariants timed out"
# Per clause of Spacer's candidates: the integers first for this long, then bit-blasting (the
# template invariants' facts take the integers for all their time: see _holds_not).
INTEGERS_FIRST_S = 1.0
SUMMARY_MS = 1000  # to project a proved summary onto its function's interface, for display


@dataclass(frozen=True)
class NoSolution:
    """Why Spacer gave no solution. ``gave_up``: it stopped without an answer (out of time,
    interrupted, z3's "unknown"), so more time might give one; ``counterexample``: the error
    relation is derivable over the integers (no proof of anything about the C program)."""

    reason: str
    gave_up: bool = False
    counterexample: bool = False


def gave_up(why: str) -> NoSolution:
    return NoSolution(f"{GAVE_UP} ({why})", gave_up=True)


BUILDING_TIMED_OUT = gave_up("time, while building the clauses")
COUNTEREXAMPLE = NoSolution("Spacer found a counterexample over unbounded integers (not a proof of anything)",
                            counterexample=True)
NO_ERROR_RELATION = NoSolution("no error location is reachable in the clauses")

RelKey = tuple[str, int]  # (function, canonical node index)


@dataclass
class Clause:
    """``AND body & constraints => head`` (head ERROR: the error relation)."""

    head: RelKey
    head_args: list[z3.ExprRef]
    body: list[tuple[RelKey, list[z3.ExprRef]]]
    constraints: list[z3.BoolRef] = field(default_factory=list)
    # A call's clauses: into ``callee``'s entry (the head), or back from its exit (the body's
    # second relation, ``returning``). CPArec unwinds the calls (algorithms/cparec.py).
    callee: str = ""
    returning: bool = False
    # The CFA edges the clause stands for, in order (a call's clauses: up to the call edge), so
    # that a derivation can be replayed as a path (algorithms/kinduction: BMC's counterexamples);
    # a callee encoded in place adds its steps, a Step each (its call, its edges, its return).
    edges: list = field(default_factory=list)


@dataclass
class HornOutcome:
    status: str  # "safe" (proved with machine integers) or "unknown"
    reason: str = ""
    seconds: float = 0.0
    summaries: dict[str, str] = field(default_factory=dict)  # function -> its exit relation, in C (summary_text)
    timed_out: bool = False  # Spacer ran out of time: more time might prove it


class EncodingTimeout(Exception):
    """The clauses took longer to build than the engine's time."""


class Untranslatable(Exception):
    """A candidate formula outside the fragment that ``to_bv`` reads exactly."""


class ProductEncoder(MachineEncoder):
    """MachineEncoder with products of variables kept exact (nonlinear integer arithmetic),
    for checks that z3's nonlinear reasoning settles (kinduction's polynomial invariants);
    Spacer needs the linear clauses."""

    def _arith(self, op: str, a, b, lt: IntType, rt: IntType, t: IntType) -> z3.ExprRef:
        if self.th.name != "lia" or op != "*":
            return super()._arith(op, a, b, lt, rt, t)
        r = a * b
        if t.signed:
            return z3.If(z3.And(r >= t.min, r <= t.max), r, self.arbitrary(t))
        return self._wrap(r, t, None)


def _error_ahead(n: CFANode) -> bool:
    """Whether ``n`` is an error location, or leads only to one through edges without effect
    (the join of ``if (a || b) reach_error();``, a cut point of its own): the executions that
    reach it are those that reach the error, so its clause may be restricted as the error's."""
    seen = 0
    while n.error is None:
        if len(n.out) != 1 or not isinstance(n.out[0], BlankEdge) or seen > 8:
            return False
        n, seen = n.out[0].succ, seen + 1
    return True


def _copy(enc: SegmentEncoder) -> SegmentEncoder:
    c = type(enc)(enc.th, enc.read_initial)
    c.ssa = dict(enc.ssa)
    c.constraints = list(enc.constraints)
    if isinstance(enc, HeapEncoding):
        assert isinstance(c, HeapEncoding)
        c.ub, c.heap_reads, c.current, c.decided = list(enc.ub), list(enc.heap_reads), enc.current, enc.decided
        c.heap_seen = dict(enc.heap_seen)
    if isinstance(enc, CellEncoding):
        assert isinstance(c, CellEncoding)
        c.ub, c.reads, c.current, c.decided = list(enc.ub), list(enc.reads), enc.current, enc.decided
        c.seen = dict(enc.seen)
    elif isinstance(enc, FieldEncoding):
        assert isinstance(c, FieldEncoding)
        c.ub = list(enc.ub)
    return c


def _compose(base: type[SegmentEncoder], cells: Cells, params: dict[tuple[int, str], str], fixed: dict[str, int],
             fields: Fields, heap: Heap) -> type[SegmentEncoder]:
    """``base`` (a SegmentEncoder class) with the cell semantics of ``cells``' arrays, the
    generalized constants ``params``, the fixed variables' values ``fixed``, the struct
    fields passed by pointer ``fields`` and the heap's objects ``heap`` (their own class: a
    program's state, not a module's)."""
    mixins: list[type] = []
    if fields.vars:
        mixins.append(FieldEncoding)
    if fixed:
        mixins.append(FixedEncoding)
    if params:
        mixins.append(ParamEncoding)
    if heap.types:
        mixins.append(HeapEncoding)  # before the cells: its ``deciding`` adds theirs
    if cells.arrays:
        mixins.append(CellEncoding)
    if not mixins:
        return base
    return cast("type[SegmentEncoder]", type(f"Encoding{base.__name__}", (*mixins, base),
                {"cells": cells, "params": params, "fixed": fixed, "fields": fields, "heap": heap}))


class FixedEncoding:
    """A variable that holds one constant wherever it is read (cfa/constants.py) reads as that
    constant: ``A[i*n + j]`` with ``int n = 1000`` is linear."""

    fixed: dict[str, int]

    def expr(self, e):
        if isinstance(e, Var) and e.name in self.fixed and isinstance(e.type, IntType):
            return self.th.const(self.fixed[e.name], e.type)
        return super().expr(e)


class ParamEncoding:
    """Constants read as the parameters that stand for them (Encoder's ``generalize``)."""

    params: dict[tuple[int, str], str]

    def expr(self, e):
        if isinstance(e, Const) and isinstance(e.type, IntType):
            p = self.params.get((e.value, e.type.key()))
            if p is not None:
                return self.read(p)
        return super().expr(e)


GENERALIZE_MIN = 16  # a loop bound this large Spacer would rather enumerate than generalize


def generalizable(program: Program) -> frozenset[int]:
    """The constants that bound loops and branches (compared against in a condition) and are
    large enough that Spacer enumerates up to them (``i < 1000``): the values ``Encoder``'s
    ``generalize`` can turn into parameters. Operands of products, quotients and shifts are
    not among them (a parameter there would make the clauses nonlinear)."""
    compared: set[int] = set()
    arithmetic: set[int] = set()

    def visit(e) -> None:
        if isinstance(e, Binary):
            for side in (e.left, e.right):
                inner = side.arg if isinstance(side, Cast) else side
                if isinstance(inner, Const) and isinstance(inner.type, IntType):
                    (compared if e.op in ("<", "<=", ">", ">=", "==", "!=") else
                     arithmetic if e.op in ("*", "/", "%", "<<", ">>", "&", "|", "^") else set()).add(inner.value)
        for c in e.children():
            visit(c)

    for x in program_exprs(program):
        visit(x)
    return frozenset(v for v in compared - arithmetic if abs(v) >= GENERALIZE_MIN)


class Encoder:
    """The clauses of a program in one theory; ``clauses()`` yields them in a fixed order, so
    the clauses of two theories correspond one to one."""

    def __init__(self, program: Program, theory: str, exact: bool = True, products: bool = False,
                 generalize: frozenset[int] = frozenset()):
        """``exact``: machine integers where linear (MachineEncoder); False gives the plain
        integer clauses, whose answers the check refutes wherever they rely on no overflow.
        ``products``: exact products too (ProductEncoder), in nonlinear arithmetic.
        ``generalize``: constants (``generalizable``) that become parameters, arbitrary at the
        start (from 1 up, or from -1 down, for their sign) and constant from then on, one per
        value and type: the clauses then cover the program for every such value, the real one
        among them, so a proof of them is a proof of the program; Spacer proves ``i < n`` for
        every ``n`` where it would enumerate ``i < 1000``."""
        self.program = program
        self.th = Theory(program, theory)
        self.encoder = (ProductEncoder if products else MachineEncoder) if exact else SegmentEncoder
        # Arrays by one distinguished cell each (algorithms/horn/cells.py), generalized constants:
        # their pseudo-variables join the frames as variables do.
        self.cells = Cells.of(program)
        self.fields = Fields.of(program)  # struct fields passed by pointer (horn/fields.py)
        self.heap = Heap.of(program)  # objects from malloc, one per struct type (horn/heap.py)
        self.params: dict[tuple[int, str], str] = {}
        extra = {**self.cells.vars, **self.fields.vars, **self.heap.vars}
        if generalize:
            for value, t in sorted(_constants(program, generalize, self.cells), key=lambda vt: (vt[0], vt[1].key())):
                name = f"#k{value}:{t.key()}"
                self.params[(value, t.key())] = name
                extra[name] = VarInfo(name, t, None)
            self.cells.params = {k: v for k, v in self.params.items()}
        self.fixed = fixed_values(program)
        if extra:
            self.th.vars = {**program.vars, **extra}
        if extra or self.fixed:
            self.encoder = _compose(self.encoder, self.cells, self.params, self.fixed, self.fields, self.heap)
        th = self.th
        self.globals = sorted(n for n, v in th.vars.items() if v.is_global and th.modelled(n))
        # horn.solve reads a call of an assertion function in place (``_assertion``); the engines
        # that turn a derivation back into a path (k-induction's BMC) need the callee's steps.
        self.inline_asserts = False
        self._wrappers = _assertion_wrappers(program) if self.cells.arrays or self.heap.types else {}
        self._frames: dict[str, list[str]] = {}
        self._tag = 0
        self._cuts: dict[int, bool] = {}
        self._inline: dict[str, bool] = {}  # callee -> encoded in place (``_inlinable``)
        self._own: dict[str, list[str]] = {}  # function -> its modelled variables (``_locals``)
        self.signs: dict[RelKey, list[bool]] = {}  # per relation: how each argument reads as an integer

    def frame(self, fn: FunctionCFA) -> list[str]:
        fv = self._frames.get(fn.name)
        if fv is None:
            own = sorted(n for n, v in self.th.vars.items() if v.function == fn.name and self.th.modelled(n))
            params = [p for p in fn.params if self.th.modelled(p)] + self.fields.inputs(fn.params) \
                + self.heap.inputs(fn.params)
            fv = own + self.globals + [old(v) for v in params + self.globals]
            self._frames[fn.name] = fv
        return fv

    def _fresh_frame(self, fn: FunctionCFA) -> dict[str, z3.ExprRef]:
        if key(fn.entry) not in self.signs:
            signs = [self.th.type_of(v).signed for v in self.frame(fn)]
            for n in (fn.entry, *fn.nodes):
                self.signs[key(n)] = signs
        self._tag += 1
        return {v: self.th.term(v, f"h{self._tag}") for v in self.frame(fn)}

    def _ranges(self, terms: dict[str, z3.ExprRef]) -> list[z3.BoolRef]:
        out = []
        for v, t in terms.items():
            r = self.th.in_range(t, self.th.type_of(v))
            if r is not None:
                out.append(r)
        return out

    def clauses(self, deadline: float | None = None) -> list[Clause]:
        """EncodingTimeout once ``deadline`` (time.monotonic()) has passed."""
        program = self.program
        out: list[Clause] = []
        start = program.start
        x = self._fresh_frame(start)
        out.append(Clause(key(start.entry), [x[v] for v in self.frame(start)], [],
                          self._ranges(x) + self._parameters(x) + self.heap.initial(x, self.th)))
        for f in program.all_functions():
            for n in f.nodes:
                if not self.cut(f, n):
                    continue
                if deadline is not None and time.monotonic() > deadline:
                    raise EncodingTimeout(gave_up("time, while encoding the clauses").reason)
                if n.error is not None:
                    x = self._fresh_frame(f)
                    gate = self.cells.exact.get(f.name)  # the call's array reads were the cells
                    out.append(Clause(ERROR, [], [(key(n), [x[v] for v in self.frame(f)])],
                                      self._ranges(x) + ([x[gate] == 1] if gate else [])))
                out.extend(self._segments(f, n))
        return out

    def _parameters(self, x: dict[str, z3.ExprRef]) -> list[z3.BoolRef]:
        """The generalized constants at the start: each of its value's sign, and one value's
        parameters of different types equal as numbers."""
        th = self.th
        out: list[z3.BoolRef] = []
        by_value: dict[int, list[str]] = {}
        for (value, _), name in self.params.items():
            t = th.type_of(name)
            p = x[name]
            if th.name == "lia":
                out.append(p >= 1 if value > 0 else p <= -1)
            else:
                zero = th.const(0, t)
                out.append((p > zero if t.signed else p != zero) if value > 0 else p < zero)
            by_value.setdefault(value, []).append(name)
        for names in by_value.values():
            first = names[0]
            for other in names[1:]:
                if th.name == "lia":
                    out.append(x[first] == x[other])
                else:
                    a, b = th.type_of(first), th.type_of(other)
                    w = max(a.bits, b.bits) + 1
                    out.append(extend(x[first], a, w) == extend(x[other], b, w))
        return out

    def cut(self, f: FunctionCFA, n: CFANode) -> bool:
        """Where a relation stands: the predicate analysis's abstraction points and return sites;
        the paths between them (which join nowhere, as joins are cut points) become one clause each."""
        c = self._cuts.get(id(n))
        if c is None:
            c = abstraction_point(n, f) or any(isinstance(e, CallEdge) for e in n.inn)
            self._cuts[id(n)] = c
        return c

    def _segments(self, f: FunctionCFA, u: CFANode) -> list[Clause]:
        th = self.th
        frame = self.frame(f)
        x = self._fresh_frame(f)
        body = [(key(u), [x[v] for v in frame])]
        out: list[Clause] = []
        # (node, encoding, the path's edges, the call being inlined, if any)
        todo: list[tuple[CFANode, SegmentEncoder, list, CallEdge | None]] = [
            (u, self.encoder(th, x.__getitem__), [], None)]
        steps = 0
        while todo:
            n, enc, path, inlined = todo.pop()
            steps += 1
            if steps > MAX_SEGMENT_STEPS:
                raise TypeError(f"a path segment in {f.name} is too long")
            if inlined is not None and n is self.program.functions[inlined.callee].exit:
                self._inlined_return(inlined, enc)
                out.extend(self._segment_end(inlined.succ, enc, body, x, frame, [*path, Step("return", inlined)]))
                continue
            live = [e for e in n.out if not isinstance(e, AbortEdge)]  # abort ends the path
            for i, e in enumerate(live):
                here = enc if i == len(live) - 1 else _copy(enc)
                if isinstance(e, CallEdge):
                    if isinstance(here, CellEncoding | HeapEncoding):
                        here.current = e  # the arguments' reads are this edge's
                    if inlined is None and self._inlinable(e.callee):
                        callee = self.program.functions[e.callee]
                        self._inlined_call(e, here)
                        todo.append((callee.entry, here, [*path, Step("call", e, _callee_entry=callee.entry)], e))
                        continue
                    calls = self._call(f, e, here, body, x)
                    for c in calls:
                        c.edges = [*path, e]
                    out.extend(calls)
                    continue
                here.edge(e, lambda: self.globals)
                if inlined is None and self.cut(f, e.succ):
                    out.extend(self._segment_end(e.succ, here, body, x, frame, [*path, e]))
                else:
                    todo.append((e.succ, here, [*path, e], inlined))
        return out

    def _segment_end(self, n: CFANode, here: SegmentEncoder, body: list, x: dict, frame: list[str],
                     path: list) -> list[Clause]:
        """The clause of a path from the segment's start to the cut point ``n``."""
        exact = [here.deciding(here.decided)] if _error_ahead(n) \
            and isinstance(here, CellEncoding | HeapEncoding) and here.decided is not None else []
        return [Clause(key(n), [here.read(v) for v in frame], body,
                       list(here.constraints) + self._ranges(x) + exact, edges=path),
                *self._out_of_bounds(here, body, x, path)]

    # ---- small callees in place -----------------------------------------------------------
    def _inlinable(self, name: str) -> bool:
        """Whether a call of ``name`` is encoded in place rather than through its summary: on a
        program with heap objects (horn/heap.py), a callee without loops, calls or error
        locations. Its summary would relate the distinguished object before and after the
        call case by case (``d == n ==> v.f == x``), which Spacer seldom finds: a list push
        in a function took it 40 s, where the same code in the caller takes 1 s."""
        got = self._inline.get(name)
        if got is None:
            callee = self.program.functions[name]
            edges = list(callee.edges())
            got = bool(self.heap.types) and callee is not self.program.start and len(edges) <= MAX_INLINE_EDGES \
                and not any(isinstance(e, CallEdge) for e in edges) \
                and not any(n.loop_head or n.error is not None for n in callee.nodes)
            self._inline[name] = got
        return got

    def _locals(self, name: str) -> list[str]:
        """A function's modelled variables, parameters included (the frame without globals and
        entry copies)."""
        got = self._own.get(name)
        if got is None:
            th = self.th
            got = self._own[name] = sorted(n for n, info in th.vars.items() if info.function == name and th.modelled(n))
        return got

    def _inlined_call(self, e: CallEdge, enc: SegmentEncoder) -> None:
        """Into an inlined callee: its locals arbitrary, its parameters the arguments, the
        objects and variables passed by reference copied in."""
        callee = self.program.functions[e.callee]
        args = self._args(enc, e, callee)
        for v in self._locals(callee.name):
            enc.havoc(v)
        for p, value in args.items():
            enc.write(p, value)
        for q, c in self.fields.passed(e, callee.params) + self.heap.passed(e, callee.params):
            enc.write(q, enc.read(c))

    def _inlined_return(self, e: CallEdge, enc: SegmentEncoder) -> None:
        """Back from an inlined callee: references copied out, the result assigned."""
        callee = self.program.functions[e.callee]
        for q, c in self.fields.passed(e, callee.params) + self.heap.passed(e, callee.params):
            enc.write(c, enc.read(q))
        rv = callee.result_var
        self._result(e, callee, enc, enc.read(rv) if rv is not None and self.th.modelled(rv) else None)

    def _result(self, e: CallEdge, callee: FunctionCFA, enc: SegmentEncoder, value: z3.ExprRef | None) -> None:
        """The call's result ``value`` (the callee's result variable at its exit) into the call's
        lhs, through assign, which knows every modelled kind of place: an integer converted to
        the lhs's type, an object number as the callee returned it; anything else any value."""
        th, lhs, rv = self.th, e.lhs, callee.result_var
        if lhs is None:
            return
        if value is not None and rv is not None and isinstance(lhs.type, IntType) and rv not in self.heap.pointers:
            rt = th.type_of(rv)
            result = enc.cast(value, rt, lhs.type) if rt != lhs.type else value
            enc.assign(lhs, lambda: result)
        elif value is not None and rv in self.heap.pointers and isinstance(lhs, Var) and lhs.name in self.heap.pointers:
            enc.assign(lhs, lambda: value)
        else:
            enc.assign(lhs, None)

    def _out_of_bounds(self, enc: SegmentEncoder, body: list, x: dict, edges: list) -> list[Clause]:
        """An array access outside the array, on this segment: undefined behaviour, so an error
        no proof may ignore. (A prefix shared by several paths is listed once per path.)"""
        if not isinstance(enc, CellEncoding | FieldEncoding | HeapEncoding):
            return []
        return [Clause(ERROR, [], body, enc.constraints[:k] + [outside] + self._ranges(x), edges=edges)
                for k, outside in enc.ub]

    def _call(self, f: FunctionCFA, e: CallEdge, enc: SegmentEncoder, body: list, x: dict) -> list[Clause]:
        th = self.th
        frame = self.frame(f)
        callee = self.program.functions[e.callee]
        cframe = self.frame(callee)
        args = self._args(enc, e, callee)
        if self.inline_asserts and callee.name in self._wrappers:
            return self._assertion(f, e, enc, body, x, callee, args)
        # Into the callee: parameters from the arguments, the caller's globals; locals arbitrary.
        y = self._fresh_frame(callee)
        # The fields of structs passed by pointer go in as parameters do, and come back out.
        fields = self.fields.passed(e, callee.params) + self.heap.passed(e, callee.params)
        links = [y[p] == v for p, v in args.items()] + [y[g] == enc.read(g) for g in self.globals]
        links += [y[q] == enc.read(c) for q, c in fields] + [y[old(q)] == y[q] for q, _ in fields]
        links += [y[old(p)] == y[p] for p in args] + [y[old(g)] == y[g] for g in self.globals]
        gate = self.cells.exact.get(callee.name)
        if gate is not None:
            exact = enc.deciding(e) if isinstance(enc, CellEncoding | HeapEncoding) else z3.BoolVal(True)
            links.append(y[gate] == z3.If(exact, th.const(1, th.type_of(gate)), th.const(0, th.type_of(gate))))
        enter = Clause(key(callee.entry), [y[v] for v in cframe], body,
                       list(enc.constraints) + links + self._ranges(x) + self._ranges(y), callee.name)
        # Back from its exit: linked through the entry copies.
        z = self._fresh_frame(callee)
        ret = [z[old(p)] == v for p, v in args.items()] + [z[old(g)] == enc.read(g) for g in self.globals]
        ret += [z[old(q)] == enc.read(c) for q, c in fields]
        for g in self.globals:
            if not self.heap.kept(g, callee.name):
                enc.write(g, z[g])
        for q, c in fields:
            enc.write(c, z[q])
        self._result(e, callee, enc, z.get(callee.result_var) if callee.result_var else None)
        back = Clause(key(e.succ), [enc.read(v) for v in frame],
                      [*body, (key(callee.exit), [z[v] for v in cframe])],
                      list(enc.constraints) + ret + self._ranges(x) + self._ranges(z), callee.name, True)
        return [enter, back, *self._out_of_bounds(enc, body, x, [e])]

    def _assertion(self, f: FunctionCFA, e: CallEdge, enc: SegmentEncoder, body: list, x: dict,
                   callee: FunctionCFA, args: dict[str, z3.ExprRef]) -> list[Clause]:
        """A call of an assertion function (``_assertion_wrappers``), in place: the error when
        its condition fails, with the arguments' array reads the distinguished cells; else the
        caller goes on. (Through the callee's relations, Spacer would need its summary over the
        cells, which it seldom finds.)"""
        th = self.th
        failing: list[z3.BoolRef] = []
        for path in self._wrappers[callee.name]:
            sub = self.encoder(th, lambda v: args[v] if v in args else th.term(v, "w"))
            for edge in path:
                sub.edge(edge, lambda: self.globals)
            failing.append(z3.And(sub.constraints))
        exact = [enc.deciding(e)] if isinstance(enc, CellEncoding | HeapEncoding) else []
        error = Clause(ERROR, [], body, list(enc.constraints) + exact + [z3.Or(failing)] + self._ranges(x))
        if isinstance(e.lhs, Var) and th.modelled(e.lhs.name):
            enc.havoc(e.lhs.name)
        on = Clause(key(e.succ), [enc.read(v) for v in self.frame(f)], body, list(enc.constraints) + self._ranges(x))
        return [error, on, *self._out_of_bounds(enc, body, x, [e])]

    def _args(self, enc: SegmentEncoder, edge: CallEdge, callee: FunctionCFA) -> dict[str, z3.ExprRef]:
        out = {}
        for p, a in zip(callee.params, edge.args):
            if not self.th.modelled(p):
                continue
            pt = self.th.type_of(p)
            if p in self.heap.pointers and isinstance(enc, HeapEncoding):
                out[p] = enc.ptr(a)
                continue
            if not isinstance(a.type, IntType):
                out[p] = enc.arbitrary(pt)
                continue
            v = enc.expr(a)
            out[p] = enc.cast(v, a.type, pt) if a.type != pt else v
        return out


def key(node: CFANode) -> RelKey:
    return (node.function, node.canon)


# ---- solving --------------------------------------------------------------------------------
Interpretation: TypeAlias = "tuple[z3.ExprRef, list[z3.ExprRef]]"  # formula over placeholders, the placeholders


def solve(program: Program, timeout_s: float, cancelled: Callable[[], bool] = lambda: False) -> HornOutcome:
    """A proof with machine integers ("safe"), or why there is none.

    Spacer's search depends on its seed and the clauses' order (``_in_order``), and where
    loops are bounded by large constants it would rather enumerate up to them than generalize:
    so the time is shared by attempts, the clauses as they are under the default seed first,
    then with those constants generalized (``generalizable``: Spacer proves ``i < n`` for every
    ``n``), then other seeds of both, each first for a moment (``rounds``). The first
    candidate that holds with machine integers is the proof."""
    t0 = time.monotonic()
    why = applies(program)
    if why:
        return HornOutcome("unknown", why)
    deadline = t0 + timeout_s
    values = generalizable(program)
    plain: frozenset[int] = frozenset()
    schedule = ([((plain, 0), 0.35), ((values, 0), 0.25), ((values, 1), 0.1), ((plain, 1), 0.1),
                 ((values, 2), 0.1), ((plain, 2), 0.1)] if values else
                [((plain, 0), 0.5), ((plain, 1), 0.2), ((plain, 2), 0.15), ((plain, 3), 0.15)])
    encoders: dict[frozenset[int], tuple[Encoder, list[Clause]] | HornOutcome] = {}
    rules: dict[frozenset[int], list[Rule]] = {}
    out = HornOutcome("unknown", gave_up("no time").reason, timed_out=True)
    finished: set[tuple[frozenset[int], int]] = set()  # attempts that answered: the same again
    attempts = rounds(schedule, timeout_s)
    for i, ((generalize, seed), most) in enumerate(attempts):
        left = deadline - time.monotonic()
        if left <= 0.05 or cancelled():
            break
        if (generalize, seed) in finished:
            continue
        if generalize not in encoders:
            encoders[generalize] = clauses_of(program, "lia", generalize, deadline)
        got = encoders[generalize]
        if isinstance(got, HornOutcome):
            out = got
            if not got.timed_out and not generalize:
                break  # the program itself cannot be encoded
            continue
        lia, clauses = got
        if generalize not in rules:
            found = with_variables(clauses, deadline)
            if found is None:
                out = HornOutcome("unknown", BUILDING_TIMED_OUT.reason, timed_out=True)
                break
            rules[generalize] = found
        candidate = _spacer_once(rules[generalize], left if i == len(attempts) - 1 else most, seed, deadline)
        if not (isinstance(candidate, NoSolution) and candidate.gave_up):
            finished.add((generalize, seed))
        if isinstance(candidate, NoSolution):
            out = HornOutcome("unknown", candidate.reason, timed_out=candidate.gave_up)
            if candidate.counterexample and not generalize:
                break  # the clauses themselves reach the error: no seed will prove them
            continue
        if cancelled():
            return HornOutcome("unknown", "cancelled", time.monotonic() - t0)
        proved = checked_candidate(program, lia, generalize, _simplified(candidate, deadline), deadline, cancelled)
        if proved.status == "safe":
            proved.seconds = time.monotonic() - t0
            return proved
        out = proved
    out.seconds = time.monotonic() - t0
    return out


# Spacer's search is all or nothing: under one seed and order it proves the cell clauses of a
# loop over an array in 0.3 s, under another not in a minute, and which attempt is the quick
# one changes even with what the process did before (z3's terms and tables; CI failed on such
# a test after 12 s of attempts that were quick in another process). So where the time allows,
# every attempt first gets a moment (a round that takes at most a quarter of the time), then
# its share of what is left: the first round finds a quick proof whatever attempt has it.
FIRST_ROUND_SECONDS = 0.5
FIRST_ROUND_SHARE = 0.25

T = TypeVar("T")


def rounds(schedule: Sequence[tuple[T, float]], timeout_s: float) -> list[tuple[T, float]]:
    """Each attempt with its time: the schedule's shares of ``timeout_s``, after a first round
    of ``FIRST_ROUND_SECONDS`` each where that round fits in ``FIRST_ROUND_SHARE`` of it."""
    first = FIRST_ROUND_SECONDS * len(schedule)
    if first > FIRST_ROUND_SHARE * timeout_s:
        return [(what, share * timeout_s) for what, share in schedule]
    rest = timeout_s - first
    return [(what, FIRST_ROUND_SECONDS) for what, _ in schedule] + [(what, share * rest) for what, share in schedule]


def clauses_of(program: Program, theory: str, generalize: frozenset[int],
             deadline: float) -> tuple[Encoder, list[Clause]] | HornOutcome:
    enc = Encoder(program, theory, generalize=generalize)
    enc.inline_asserts = True
    try:
        return enc, enc.clauses(deadline)
    except (TypeError, KeyError) as exc:
        return HornOutcome("unknown", f"the program cannot be encoded as Horn clauses ({exc})")
    except EncodingTimeout as exc:
        return HornOutcome("unknown", str(exc), timed_out=True)


SIMPLIFY_S = 0.5  # per relation, to simplify a candidate in context before its check
SIMPLIFY_TOTAL_S = 2.0  # for all of a candidate's relations


def _simplified(candidate: dict[RelKey, Interpretation], deadline: float) -> dict[RelKey, Interpretation]:
    """The candidate with each relation rewritten into an equivalent over the integers, so
    that it proves exactly what the answer does while the machine-integer check gets the
    fewest and cheapest terms: quotients multiplied back (``_remainders``), then simplified in
    its own context (z3's ctx-solver-simplify, which drops conjuncts that others imply). On
    bench/loops' mod3 the deterministic search answers ``!(a + 3*((-a)/3) <= -1)``: its check
    bit-blasts a 35-bit division for 27 s, and ``!((2*a)%3 >= 1)`` takes 0.07 s. A relation
    that does not simplify in time keeps the rewriting alone."""
    out = {}
    until = min(deadline, time.monotonic() + SIMPLIFY_TOTAL_S)
    for k, (f, holes) in candidate.items():
        seconds = min(SIMPLIFY_S, until - time.monotonic())
        if z3.is_true(f) or z3.is_false(f):
            out[k] = (f, holes)
            continue
        f = z3.simplify(_remainders(f))
        if seconds <= 0.05:
            out[k] = (f, holes)
            continue
        try:
            f = z3.TryFor(z3.Tactic("ctx-solver-simplify"), int(seconds * 1000))(f).as_expr()
        except z3.Z3Exception:
            pass  # out of time: as it was
        out[k] = (f, holes)
    return out


def _remainders(t: z3.ExprRef, done: dict[int, z3.ExprRef] | None = None) -> z3.ExprRef:
    """``t`` with each ``d * (x div d)`` written ``x - x mod d`` (and ``-d * (x div d)`` as
    ``x mod d - x``): the integers' own identity for a constant ``d != 0``, where z3's
    ``x == d * (x div d) + x mod d``. With machine integers a remainder by a constant is one
    operation, a quotient times the same constant a division, a remainder and a product."""
    if not z3.is_app(t) or t.num_args() == 0:
        return t
    done = {} if done is None else done
    got = done.get(t.get_id())
    if got is not None:
        return got
    ch = [_remainders(c, done) for c in t.children()]
    out = t.decl()(*ch)
    if t.decl().kind() == z3.Z3_OP_MUL and len(ch) == 2:
        for c, q in ((ch[0], ch[1]), (ch[1], ch[0])):
            if (z3.is_int_value(c) and z3.is_app(q) and q.decl().kind() == z3.Z3_OP_IDIV
                    and z3.is_int_value(q.arg(1)) and q.arg(1).as_long() != 0):
                x, d = q.arg(0), q.arg(1).as_long()
                if c.as_long() == d:
                    out = x - x % d
                elif c.as_long() == -d:
                    out = x % d - x
    done[t.get_id()] = out
    return out


def checked_candidate(program: Program, lia: Encoder, generalize: frozenset[int], candidate: dict[RelKey, Interpretation],
             deadline: float, cancelled: Callable[[], bool], integers_first: float = INTEGERS_FIRST_S) -> HornOutcome:
    """Spacer's candidate as a proof, if every clause holds with it over machine integers."""
    # The check gets at least a moment, as Spacer's answer is in hand.
    got = clauses_of(program, "bv", generalize, max(deadline, time.monotonic() + 0.2))
    if isinstance(got, HornOutcome):
        return got
    bv, bv_clauses = got
    failed = check(bv_clauses, candidate, bv.signs, max(0.2, deadline - time.monotonic()), cancelled, integers_first)
    if failed:
        return HornOutcome("unknown", failed, timed_out=failed == CHECK_TIMED_OUT)
    summaries = {}
    for f in program.functions.values():
        got_f = candidate.get(key(f.exit))
        # (A callee encoded in place has no clauses into its relations: nothing to show.)
        if got_f is not None and not lia._inlinable(f.name):
            summaries[f.name] = summary_text(got_f, lia.frame(f), program)
    return HornOutcome("safe", "", 0.0, summaries)


# Spacer's attempts by seed (and with it the clauses' order), with their shares of the time.
SEED_SHARES = ((0, 0.4), (1, 0.2), (2, 0.2), (3, 0.2))


def spacer(clauses: list[Clause], timeout_s: float) -> dict[RelKey, Interpretation] | NoSolution:
    """Each relation's interpretation in Spacer's solution, or why there is none
    (``COUNTEREXAMPLE``: the error relation is derivable, over the integers)."""
    deadline = time.monotonic() + timeout_s
    out: dict[RelKey, Interpretation] | NoSolution = gave_up("no time")
    attempts = rounds(SEED_SHARES, timeout_s)
    found = with_variables(clauses, deadline)
    if found is None:
        return BUILDING_TIMED_OUT
    for i, (seed, most) in enumerate(attempts):
        if deadline - time.monotonic() <= 0.05:
            break
        out = _spacer_once(found, timeout_s if i == len(attempts) - 1 else max(0.05, most), seed, deadline)
        if not isinstance(out, NoSolution) or not out.gave_up:
            return out
    return out


def _in_order(clauses: list[T], seed: int) -> list[T]:
    """The clauses in the order an attempt gives them to Spacer: as encoded under the default
    seed, reversed under seed 1, shuffled by the seed under the others. The order varies
    Spacer's search more than its seed does (the check of Addition01-2's summaries, as encoded:
    no proof under any of four seeds in 45 s; reversed or shuffled: one in 0.2 s)."""
    if seed == 0:
        return clauses
    if seed == 1:
        return clauses[::-1]
    order = list(clauses)
    random.Random(seed).shuffle(order)
    return order


Rule: TypeAlias = "tuple[Clause, set[z3.ExprRef]]"  # a clause and its own variables


def with_variables(clauses: list[Clause], deadline: float) -> list[Rule] | None:
    """Each clause with its own variables, found once for all the attempts on them: walking
    the terms in Python costs more than building the rules (ofuf_1's 141 clauses: most of
    0.5 s). None: the deadline came first."""
    out = []
    for c in clauses:
        if time.monotonic() > deadline:
            return None
        out.append((c, uninterpreted_consts(*c.constraints, *c.head_args, *(a for _, args in c.body for a in args))))
    return out


def _spacer_once(rules: list[Rule], seconds: float, seed: int, deadline: float) -> dict[RelKey, Interpretation] | NoSolution:
    """One attempt: Spacer's search for at most ``seconds`` (or up to ``deadline``, building
    the rules included)."""
    # A context of its own: Spacer's search follows the terms' ids, and in the shared context
    # those depend on everything the process built before (copy.c's proof: 1.4 s or 18 s with
    # the same clauses, by PYTHONHASHSEED or a few unrelated terms made first). Translated into
    # a fresh context in a fixed order, the same clauses get the same ids and the same search.
    ctx = z3.Context()
    fp = z3.Fixedpoint(ctx=ctx)
    fp.set(engine="spacer")
    fp.set("spacer.random_seed", seed)
    # Every relation keeps its own interpretation (inlined or sliced ones would read "true"),
    # so that each clause can be checked on its own.
    fp.set("xform.inline_linear", False, "xform.inline_eager", False, "xform.slice", False)
    rels: dict[RelKey, z3.FuncDeclRef] = {}

    def rel(k: RelKey, args: list[z3.ExprRef]) -> z3.FuncDeclRef:
        r = rels.get(k)
        if r is None:
            r = z3.Function(f"R{len(rels)}", *[a.sort() for a in args], z3.BoolSort(ctx))
            rels[k] = r
            fp.register_relation(r)
        return r

    for c, free in _in_order(rules, seed):
        if time.monotonic() > deadline:  # building the rules counts against the engine's time
            return BUILDING_TIMED_OUT
        head_args = [a.translate(ctx) for a in c.head_args]
        heads = [z3.FreshConst(a.sort(), "hd") for a in head_args]
        head = rel(c.head, heads)(*heads)
        body = [rel(k, here)(*here) for k, args in c.body for here in [[a.translate(ctx) for a in args]]]
        body += [f.translate(ctx) for f in c.constraints] + [h == a for h, a in zip(heads, head_args)]
        add_rule(fp, head, body, [v.translate(ctx) for v in sorted(free, key=str)] + heads)
    ms = solver_timeout(int(1000 * min(seconds, deadline - time.monotonic())))
    if ERROR not in rels:
        return NO_ERROR_RELATION
    fp.set("timeout", ms)
    token = solver_watchdog.arm(fp.ctx, time.monotonic() + ms / 1000 + 0.05)
    try:
        r = fp.query(rels[ERROR]())
    except z3.Z3Exception as exc:  # interrupted by the watchdog, typically
        return gave_up(str(exc))
    finally:
        solver_watchdog.disarm(token)
    if r == z3.sat:
        return COUNTEREXAMPLE
    if r != z3.unsat:
        return gave_up(fp.reason_unknown() or "unknown")
    return _model(fp.get_answer(), rels)


def _model(answer: z3.ExprRef, rels: dict[RelKey, z3.FuncDeclRef]) -> dict[RelKey, Interpretation]:
    """Each relation's definition over placeholders ``__a<i>`` for its positions."""
    holes = {r.name(): [z3.Const(f"__a{i}", r.domain(i)) for i in range(r.arity())] for r in rels.values()}
    got = definitions(answer, holes)
    home = z3.main_ctx()  # where the other engines' terms are
    return {k: (got[r.name()].translate(home), [h.translate(home) for h in holes[r.name()]])
            for k, r in rels.items() if r.name() in got}


# ---- presentation -----------------------------------------------------------------------------
def summary_text(got: Interpretation, names: list[str], program: Program) -> str:
    """A function's exit relation over its interface, as a C expression: the parameters'
    values at the call (``n``), ``\\result``, the globals at the exit (``g``) and at the call
    (``\\old(g)``), and so the fields behind pointer parameters (``p->f``, ``\\old(p->f)``).
    The function's other locals are projected away."""
    f, holes = got
    shown: dict[int, str] = {}
    hidden = []
    for h, v in zip(holes, names):
        base = v[: -len(old(""))] if v.endswith(old("")) else v
        info = program.vars.get(base)
        display = base.rsplit("::", 1)[-1]
        if info is not None and info.is_result:
            shown[h.get_id()] = "\\result"
        elif base.endswith("->*"):  # what a reference parameter refers to (horn/heap.py)
            shown[h.get_id()] = f"\\old(*{display[:-3]})" if v != base else f"*{display[:-3]}"
        elif "->" in base:  # a field behind a pointer parameter (horn/fields.py), in and out
            shown[h.get_id()] = f"\\old({display})" if v != base else display
        elif v != base and info is not None and info.is_param:
            shown[h.get_id()] = display
        elif info is not None and info.is_global:
            shown[h.get_id()] = f"\\old({display})" if v != base else display
        else:
            hidden.append(h)
    if hidden:
        try:
            goals = z3.TryFor(z3.Then("qe", "simplify"), SUMMARY_MS)(z3.Exists(hidden, f))
            f = z3.And([g.as_expr() for g in goals]) if len(goals) else z3.BoolVal(True)
        except z3.Z3Exception:  # including the time running out
            return "(not shown)"
    try:
        return _c(z3.simplify(f), shown)
    except (Untranslatable, z3.Z3Exception):  # a quantifier elimination left a quantifier, say
        return "(not shown)"


def _c(t: z3.ExprRef, names: dict[int, str]) -> str:
    if z3.is_true(t):
        return "true"
    if z3.is_false(t):
        return "false"
    if z3.is_int_value(t):
        return str(t.as_long())
    if z3.is_const(t):
        if t.get_id() not in names:
            raise Untranslatable(str(t))
        return names[t.get_id()]
    k = t.decl().kind()
    flipped = {z3.Z3_OP_LE: " > ", z3.Z3_OP_GE: " < ", z3.Z3_OP_LT: " >= ", z3.Z3_OP_GT: " <= ", z3.Z3_OP_EQ: " != "}
    if k == z3.Z3_OP_NOT and z3.is_app(t.arg(0)) and t.arg(0).decl().kind() in flipped \
            and all(z3.is_int(c) for c in t.arg(0).children()):
        a, b = t.arg(0).children()
        return _c(a, names) + flipped[t.arg(0).decl().kind()] + _c(b, names)
    if k == z3.Z3_OP_ADD:
        text = _c(t.arg(0), names)
        for c in t.children()[1:]:
            if z3.is_app(c) and c.decl().kind() == z3.Z3_OP_MUL and z3.is_int_value(c.arg(0)) \
                    and c.arg(0).as_long() < 0 and c.num_args() == 2:
                m = -c.arg(0).as_long()
                text += " - " + (_c(c.arg(1), names) if m == 1 else f"{m} * {_c(c.arg(1), names)}")
            else:
                text += " + " + _c(c, names)
        return text
    ch = [_c(c, names) for c in t.children()]
    infix = {z3.Z3_OP_AND: " && ", z3.Z3_OP_OR: " || ", z3.Z3_OP_ADD: " + ", z3.Z3_OP_SUB: " - ",
             z3.Z3_OP_MUL: " * ", z3.Z3_OP_LE: " <= ", z3.Z3_OP_GE: " >= ", z3.Z3_OP_LT: " < ",
             z3.Z3_OP_GT: " > ", z3.Z3_OP_EQ: " == ", z3.Z3_OP_MOD: " % ", z3.Z3_OP_IDIV: " / ",
             z3.Z3_OP_IMPLIES: " ==> "}
    if k == z3.Z3_OP_NOT:
        return f"!({ch[0]})"
    if k == z3.Z3_OP_UMINUS:
        return f"-({ch[0]})"
    if k in infix:
        text = infix[k].join(ch)
        return text if k in (z3.Z3_OP_AND,) else f"({text})" if len(ch) > 1 and k == z3.Z3_OP_OR else text
    raise Untranslatable(str(t))


# ---- the check with machine integers ---------------------------------------------------------
def check(clauses: list[Clause], candidate: dict[RelKey, Interpretation], signs: dict[RelKey, list[bool]],
          timeout_s: float, cancelled: Callable[[], bool] = lambda: False, integers_first: float = 0.0) -> str:
    """"" if every clause holds over bit-vectors with the candidate's relations, else why not
    (``integers_first``: see ``_holds_not``)."""
    deadline = time.monotonic() + timeout_s
    for c in clauses:
        if cancelled():
            return "cancelled"
        if c.head != ERROR and _reads(candidate, c.head, z3.is_true):
            continue  # nothing to hold
        if any(_reads(candidate, k, z3.is_false) for k, _ in c.body):
            continue  # nothing reaches it
        try:
            body = [_apply(candidate, k, args, signs[k]) for k, args in c.body]
            head = z3.BoolVal(False) if c.head == ERROR else _apply(candidate, c.head, c.head_args, signs[c.head])
        except Untranslatable as exc:
            return f"a candidate invariant is outside what the machine-integer check reads ({exc})"
        r = _holds_not(list(body) + list(c.constraints) + [z3.Not(head)], deadline, integers_first)
        if r == z3.sat:
            return "the integer invariants do not hold with machine integers (overflow or wrap-around)"
        if r != z3.unsat:
            return CHECK_TIMED_OUT
    return ""


def _holds_not(formulas: list[z3.BoolRef], deadline: float, integers_first: float) -> z3.CheckSatResult:
    """Whether the bit-vector ``formulas`` have a model, decided exactly either way: first, for
    at most ``integers_first`` seconds, over the integers (smt/intblast.py), then
    bit-blasted with the time left. Each way is fast where the other is slow: the integers,
    linear arithmetic on wide terms, which bit-blasting has to rediscover from adder circuits
    (the template invariants' facts over a three-dimensional array's index: over 20 s
    bit-blasted, 0.1 s over the integers; Spacer's invariant of bench/loops' mod3.yml: 0.9 s,
    against no answer in 60 s); bit-blasting, remainders and bit-level facts, where every 32-bit
    operation is a quotient for the integer solver (Spacer's summaries of EvenOdd01-1: 1.9 s
    bit-blasted, over 3 s over the integers)."""
    if integers_first > 0:
        from ...smt.intblast import Unsupported, blast

        try:
            ints = blast(formulas)
        except Unsupported:
            ints = None
        if ints is not None:
            solver = z3.SolverFor("QF_LIA")
            solver.add(*ints)
            seconds = min(integers_first, deadline - time.monotonic())
            r = check_within(solver, max(1, int(seconds * 1000)))
            if r != z3.unknown or time.monotonic() >= deadline:
                return r
    # A fresh bit-blasting solver per clause: an incremental one is several times slower here.
    solver = z3.Tactic("qfbv").solver()
    solver.add(*formulas)
    return check_within(solver, max(1, int((deadline - time.monotonic()) * 1000)))


def _reads(candidate: dict[RelKey, Interpretation], k: RelKey, test: Callable[[z3.ExprRef], bool]) -> bool:
    got = candidate.get(k)
    return test(got[0]) if got is not None else test(z3.BoolVal(True))


def _apply(candidate: dict[RelKey, Interpretation], k: RelKey, args: list[z3.ExprRef],
           signs: list[bool]) -> z3.BoolRef:
    got = candidate.get(k)
    if got is None:
        return z3.BoolVal(True)
    f, holes = got
    ids = [h.get_id() for h in holes]
    return to_bv(f, dict(zip(ids, args)), dict(zip(ids, signs)))


def to_bv(f: z3.ExprRef, args: dict[int, z3.ExprRef], signed: dict[int, bool]) -> z3.BoolRef:
    """The integer formula ``f`` over bit-vector arguments, read exactly: each argument as the
    integer it stands for in C (by its type's signedness, ``signed``) and the arithmetic in a
    width where none of the formula's terms can overflow (from a bound on each term's size)."""
    bounds: dict[int, int] = {}

    def bound(t: z3.ExprRef) -> int:
        """An upper bound on |t| for every value of the arguments."""
        b = bounds.get(t.get_id())
        if b is not None:
            return b
        if z3.is_int_value(t):
            b = abs(t.as_long())
        elif z3.is_const(t) and t.get_id() in args:
            b = 1 << args[t.get_id()].size()
        elif z3.is_app(t) and t.decl().kind() in (z3.Z3_OP_ADD, z3.Z3_OP_SUB):
            b = sum(bound(c) for c in t.children())
        elif z3.is_app(t) and t.decl().kind() == z3.Z3_OP_UMINUS:
            b = bound(t.arg(0))
        elif z3.is_app(t) and t.decl().kind() == z3.Z3_OP_MUL:
            b = 1
            for c in t.children():
                b *= bound(c)
        elif z3.is_app(t) and t.decl().kind() in (z3.Z3_OP_MOD, z3.Z3_OP_IDIV):
            b = max(bound(t.arg(0)), bound(t.arg(1)))
        elif z3.is_app(t) and t.decl().kind() == z3.Z3_OP_ITE:
            b = max(bound(t.arg(1)), bound(t.arg(2)))
        elif z3.is_app(t):
            b = max([bound(c) for c in t.children() if z3.is_int(c)] + [1])
        else:
            raise Untranslatable(str(t)[:60])
        bounds[t.get_id()] = b
        return b

    def num(t: z3.ExprRef) -> z3.BitVecRef:
        if z3.is_int_value(t):
            return z3.BitVecVal(t.as_long(), width)
        if z3.is_const(t) and t.get_id() in args:
            a = args[t.get_id()]
            ext = width - a.size()
            return z3.SignExt(ext, a) if signed[t.get_id()] else z3.ZeroExt(ext, a)
        k = t.decl().kind() if z3.is_app(t) else None
        ch = t.children() if z3.is_app(t) else []
        if k == z3.Z3_OP_ADD:
            r = num(ch[0])
            for c in ch[1:]:
                r = r + num(c)
            return r
        if k == z3.Z3_OP_SUB:
            r = num(ch[0])
            for c in ch[1:]:
                r = r - num(c)
            return r
        if k == z3.Z3_OP_UMINUS:
            return -num(ch[0])
        if k == z3.Z3_OP_MUL:
            if sum(1 for c in ch if not z3.is_int_value(c)) > 1:
                raise Untranslatable("a product of variables")
            r = num(ch[0])
            for c in ch[1:]:
                r = r * num(c)
            return r
        if k in (z3.Z3_OP_MOD, z3.Z3_OP_IDIV) and z3.is_int_value(ch[1]) and ch[1].as_long() > 0:
            a, d = num(ch[0]), num(ch[1])
            m = a % d  # bvsmod: takes the (positive) divisor's sign, the mathematical remainder
            return m if k == z3.Z3_OP_MOD else (a - m) / d
        if k == z3.Z3_OP_ITE:
            return z3.If(pred(ch[0]), num(ch[1]), num(ch[2]))
        raise Untranslatable(str(t)[:60])

    def pred(t: z3.ExprRef) -> z3.BoolRef:
        if z3.is_true(t):
            return z3.BoolVal(True)
        if z3.is_false(t):
            return z3.BoolVal(False)
        k = t.decl().kind() if z3.is_app(t) else None
        ch = t.children() if z3.is_app(t) else []
        if k == z3.Z3_OP_AND:
            return z3.And([pred(c) for c in ch])
        if k == z3.Z3_OP_OR:
            return z3.Or([pred(c) for c in ch])
        if k == z3.Z3_OP_NOT:
            return z3.Not(pred(ch[0]))
        if k == z3.Z3_OP_IMPLIES:
            return z3.Implies(pred(ch[0]), pred(ch[1]))
        if k == z3.Z3_OP_ITE:
            return z3.If(pred(ch[0]), pred(ch[1]), pred(ch[2]))
        if k == z3.Z3_OP_EQ and all(z3.is_bool(c) for c in ch):
            return pred(ch[0]) == pred(ch[1])
        if k in (z3.Z3_OP_EQ, z3.Z3_OP_DISTINCT) and all(z3.is_int(c) for c in ch):
            xs = [num(c) for c in ch]
            return z3.And([xs[0] == y for y in xs[1:]]) if k == z3.Z3_OP_EQ else z3.Distinct(*xs)
        compare = {z3.Z3_OP_LE: lambda a, b: a <= b, z3.Z3_OP_GE: lambda a, b: a >= b,
                   z3.Z3_OP_LT: lambda a, b: a < b, z3.Z3_OP_GT: lambda a, b: a > b}
        if k in compare and len(ch) == 2:
            return compare[k](num(ch[0]), num(ch[1]))
        raise Untranslatable(str(t)[:60])

    def terms(t: z3.ExprRef) -> None:
        if z3.is_int(t):
            bound(t)
        elif z3.is_app(t):
            for c in t.children():
                terms(c)
        elif z3.is_quantifier(t):
            raise Untranslatable("a quantifier")

    terms(f)
    width = max([8, *(b.bit_length() + 2 for b in bounds.values())])
    return pred(f)


__all__ = ["solve", "check", "to_bv", "Encoder", "HornOutcome", "applies"]


def _constants(program: Program, values: frozenset[int], cells: Cells) -> set[tuple[int, IntType]]:
    """Each (value, type) of ``values`` among the program's constants and its arrays' sizes."""
    out: set[tuple[int, IntType]] = set()

    def visit(e) -> None:
        if isinstance(e, Const) and isinstance(e.type, IntType) and e.value in values:
            out.add((e.value, e.type))
        for c in e.children():
            visit(c)

    for x in program_exprs(program):
        visit(x)
    for cell in cells.arrays.values():
        out |= {(size, INDEX) for size in cell.sizes if isinstance(size, int) and size in values}
    return out


def _assertion_wrappers(program: Program) -> dict[str, list[list]]:
    """Functions whose only effect is an error when a condition on their parameters holds
    (``__VERIFIER_assert``, a user's ``check(cond)``): loop-free, branching on their parameters
    alone, calling nothing, writing nothing, returning no value. Each with its paths to an
    error location (lists of edges, each path's branches the condition's conjuncts)."""
    out: dict[str, list[list]] = {}
    for f in program.functions.values():
        params = set(f.params)
        if not params or f.calls or any(n.loop_head for n in f.nodes):
            continue
        paths: list[list] = []
        ok = True
        stack: list[tuple[CFANode, list]] = [(f.entry, [])]
        while stack and ok:
            n, path = stack.pop()
            if n.error is not None:
                paths.append(path)
                continue
            for edge in n.out:
                if isinstance(edge, AssumeEdge) and edge.cond is not None and edge.cond.variables() <= params:
                    stack.append((edge.succ, [*path, edge]))
                elif isinstance(edge, BlankEdge | AbortEdge) or (isinstance(edge, ReturnEdge) and edge.value is None):
                    stack.append((edge.succ, path))
                else:
                    ok = False
                    break
            if len(paths) > 8:
                ok = False
        if ok and paths:
            out[f.name] = paths
    return out
