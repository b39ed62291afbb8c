"""Explicit-value interpolation along an infeasible error path (Beyer & Löwe 2012, Alg. 3 and 4).

Variables are renamed per call frame (``f::x@3``) so that recursive instances do not
clash; the interpolant at each position is reduced to the variables the rest of the
path needs to stay contradicting, and each becomes a (location, variable) pair of the
refined precision.
"""

from __future__ import annotations

from typing import Any

from ...cfa.cfa import Program
from ...cfa.ctype import IntType, StructType
from ...cfa.ir import (
    AbortEdge,
    AssignEdge,
    AssumeEdge,
    BlankEdge,
    CallEdge,
    CFANode,
    DeclEdge,
    ExternalCallEdge,
    Nondet,
    ReturnEdge,
    Var,
)
from ...cfa.semantics import eval_cast
from ...cfa.traits import uses_memory
from ...core.path import ErrorPath
from . import memory as mem
from .cpa import evaluate, solve_for_var
from .precision import ValuePrecision

Values = dict[str, int]
CONTRADICTION = None


class PathSemantics:
    """The strongest post of value assignments along one path, over frame-renamed variables."""

    def __init__(self, program: Program, path: ErrorPath):
        self.program = program
        self.vars = program.vars
        self.path = path
        self.frames = path.frames()
        self.addressed = {n for n, v in program.vars.items() if v.addressed}
        self.memory = mem.Memory(program) if uses_memory(program) else None
        self.globals = frozenset(n for n, v in program.vars.items() if v.is_global)
        # The frame a call step opens and the frame a return step goes back to.
        self.callee_frame: dict[int, int] = {}
        self.caller_frame: dict[int, int] = {}
        stack: list[int] = []
        for i, st in enumerate(path.steps):
            if st.kind == "call":
                stack.append(self.frames[i])
                self.callee_frame[i] = self.frames[i + 1] if i + 1 < len(self.frames) else -1
            elif st.kind == "return":
                self.caller_frame[i] = stack.pop()

    def inst(self, name: str, frame: int) -> str:
        info = self.vars.get(name)
        return name if info is None or info.is_global else f"{name}@{frame}"

    @staticmethod
    def base(inst: str) -> str:
        return inst.split("@", 1)[0]

    def location_after(self, i: int) -> CFANode:
        return self.path.steps[i].target

    def _assign(self, v: Values, lhs, value: int | None, frame: int) -> Values:
        if isinstance(lhs, Var):
            key = self.inst(lhs.name, frame)
            if value is None or not isinstance(lhs.type, IntType):
                if key in v:
                    v = dict(v)
                    del v[key]
                return v
            if v.get(key) == value:
                return v
            v = dict(v)
            v[key] = value
            return v
        root = lhs
        while not isinstance(root, Var):
            root = getattr(root, "base", None)
            if root is None:
                return {k: x for k, x in v.items() if self.base(k) not in self.addressed}
        return v

    def step(self, v: Values, i: int) -> Values | None:
        """Apply step i; None means the path is contradicting here."""
        if self.memory is not None:
            return self.step_memory(v, i)
        st = self.path.steps[i]
        frame = self.frames[i]
        e = st.edge

        def lookup(name: str) -> int | None:
            return v.get(self.inst(name, frame))

        if st.kind == "call":
            assert isinstance(e, CallEdge)
            callee = self.program.functions[e.callee]
            nf = self.callee_frame[i]
            vals = [evaluate(a, lookup) for a in e.args]
            out = {k: x for k, x in v.items() if not k.endswith(f"@{nf}")}
            for p, val in zip(callee.params, vals):
                if val is not None and isinstance(self.vars[p].type, IntType):
                    out[self.inst(p, nf)] = val
            return out
        if st.kind == "summary":
            return self._summary_step(v, i)
        if st.kind == "return":
            assert isinstance(e, CallEdge)
            callee = self.program.functions[e.callee]
            cf = self.caller_frame[i]
            if e.lhs is None or callee.result_var is None:
                return v
            return self._assign(v, e.lhs, lookup(callee.result_var), cf)
        if isinstance(e, AssumeEdge):
            assert e.cond is not None
            val = evaluate(e.cond, lookup)
            if val is not None:
                return v if (val != 0) == e.truth else CONTRADICTION
            solved = solve_for_var(e.cond, e.truth, lookup)
            if solved is False:
                return CONTRADICTION
            if isinstance(solved, tuple):
                out = dict(v)
                out[self.inst(solved[0], frame)] = solved[1]
                return out
            return v
        if isinstance(e, AssignEdge):
            assert e.lhs is not None and e.rhs is not None
            val = None if isinstance(e.rhs, Nondet) else evaluate(e.rhs, lookup)
            return self._assign(v, e.lhs, val, frame)
        if isinstance(e, DeclEdge):
            assert e.var is not None
            val = None if e.init is None or isinstance(e.init, Nondet) else evaluate(e.init, lookup)
            if val is not None and isinstance(e.var.type, IntType):
                val = eval_cast(val, e.var.type)
            return self._assign(v, e.var, val, frame)
        if isinstance(e, ReturnEdge):
            if e.result_var is None:
                return v
            val = evaluate(e.value, lookup) if e.value is not None else None
            return self._assign(v, e.result_var, val, frame)
        if isinstance(e, ExternalCallEdge):
            out = v
            if e.writes_globals:
                out = {k: x for k, x in out.items() if "@" in k}
            if any(not isinstance(a.type, IntType) for a in e.args):
                out = {k: x for k, x in out.items() if self.base(k) not in self.addressed}
            if e.lhs is not None:
                out = self._assign(out, e.lhs, None, frame)
            return out
        if isinstance(e, BlankEdge | AbortEdge):
            return v
        return v

    def _view(self, v: Values, frame: int) -> mem.View:
        assert self.memory is not None
        return self.memory.view(v, lambda n: self.inst(n, frame), self.base)

    def step_memory(self, v: Values, i: int) -> Values | None:
        """``step`` with the value analysis's memory model (memory objects of locals are named
        per frame like the variables: ``f::a@3[0:4]``)."""
        memory = self.memory
        assert memory is not None
        st = self.path.steps[i]
        frame = self.frames[i]
        e = st.edge
        view = self._view(v, frame)

        def lookup(name: str) -> Any:
            return v.get(self.inst(name, frame))

        def ev(x) -> Any:
            return evaluate(x, lookup, view)

        if st.kind == "call":
            assert isinstance(e, CallEdge)
            callee = self.program.functions[e.callee]
            nf = self.callee_frame[i]
            values = [view.address(a, ev) if isinstance(a.type, StructType) else ev(a) for a in e.args]
            tag = f"@{nf}"
            out = {k: x for k, x in v.items() if not (k.endswith(tag) or tag + "[" in k)}
            inner = self._view(out, nf)
            for p, val in zip(callee.params, values):
                t = self.vars[p].type
                if isinstance(t, StructType):
                    inner.declare(inner.name(p), False)
                    inner.copy(mem.Ptr(inner.name(p), 0), val, memory.layout.sizeof(t))
                elif p in memory.objects:
                    inner.declare(inner.name(p), False)
                    inner.store(mem.Ptr(inner.name(p), 0), t, val)
                else:
                    inner.set_plain(inner.name(p), val)
            return inner.m
        if st.kind == "summary":
            return self._summary_step(v, i)
        if st.kind == "return":
            assert isinstance(e, CallEdge)
            callee = self.program.functions[e.callee]
            cf = self.caller_frame[i]
            if e.lhs is None or callee.result_var is None:
                return v
            outer = self._view(v, cf)
            rv = callee.result_var
            rt = self.vars[rv].type

            def ev_caller(x) -> Any:
                return evaluate(x, lambda n: v.get(self.inst(n, cf)), outer)

            if isinstance(rt, StructType):
                outer.copy(outer.address(e.lhs, ev_caller), mem.Ptr(self.inst(rv, frame), 0),
                           memory.layout.sizeof(rt))
            else:
                value = ev(Var(rv, rt))
                mem.assign_value(outer, e.lhs, value, ev_caller)
            return outer.m
        if isinstance(e, AssumeEdge):
            assert e.cond is not None
            val = ev(e.cond)
            if val is not None:
                if isinstance(val, mem.Ptr):
                    val = 1
                return v if (val != 0) == e.truth else CONTRADICTION
            solved = solve_for_var(e.cond, e.truth, lookup, view)
            if solved is False:
                return CONTRADICTION
            if isinstance(solved, tuple):
                out = dict(v)
                out[self.inst(solved[0], frame)] = solved[1]
                return out
            return v
        mem.apply(view, e, ev, self.globals)
        return view.m

    def _summary_step(self, v: Values, i: int) -> Values | None:
        st = self.path.steps[i]
        frame = self.frames[i]
        e = st.edge
        assert isinstance(e, CallEdge) and st.summary is not None

        def lookup(name: str) -> int | None:
            return v.get(self.inst(name, frame))

        callee = self.program.functions[e.callee]
        for a, p in zip(e.args, callee.params):
            val = evaluate(a, lookup)
            if val is not None and val != st.summary["params"][p]:
                return CONTRADICTION
        out = v
        for name, val in st.summary["outputs"].items():
            if name == callee.result_var:
                if e.lhs is not None:
                    out = self._assign(out, e.lhs, val, frame)
            else:
                out = self._assign(out, Var(name, self.vars[name].type), val, frame)
        return out

    def contradicts(self, v: Values, start: int) -> bool:
        cur = v
        for j in range(start, len(self.path.steps)):
            after = self.step(cur, j)
            if after is None:
                return True
            cur = after
        return False

    def reads(self, i: int, v: Values | None = None) -> set[str]:
        """Instance variables step i reads."""
        st = self.path.steps[i]
        frame = self.frames[i]
        e = st.edge
        names: set[str] = set()
        if st.kind in ("call", "summary"):
            assert isinstance(e, CallEdge)
            for a in e.args:
                names |= a.variables()
            return {self.inst(n, frame) for n in names}
        if st.kind == "return":
            assert isinstance(e, CallEdge)
            callee = self.program.functions[e.callee]
            return {self.inst(callee.result_var, frame)} if callee.result_var else set()
        if isinstance(e, AssumeEdge):
            assert e.cond is not None
            names = e.cond.variables()
        elif isinstance(e, AssignEdge):
            assert e.lhs is not None and e.rhs is not None
            names = e.rhs.variables() if not isinstance(e.rhs, Nondet) else set()
            if not isinstance(e.lhs, Var):
                names |= e.lhs.variables()
        elif isinstance(e, DeclEdge):
            names = e.init.variables() if e.init is not None and not isinstance(e.init, Nondet) else set()
            for n in e.lengths:  # a variable-length array's size
                names |= n.variables()
        elif isinstance(e, ReturnEdge):
            names = e.value.variables() if e.value is not None else set()
        elif isinstance(e, ExternalCallEdge):
            for a in e.args:
                names |= a.variables()
        out = {self.inst(n, frame) for n in names}
        if self.memory is not None and v is not None:
            out |= {k for k in v if mem.is_memory_key(k)}  # a memory read may reach any location
        return out


ALG3_MAX_STEPS = 1500


def interpolate(program: Program, path: ErrorPath, deadline_check=None) -> list[tuple[CFANode, str]] | None:
    """Precision increments that rule out ``path``; None if the value domain cannot refute it.

    Paths up to ALG3_MAX_STEPS long get Alg. 3/4 of Beyer & Löwe 2012 exactly: inductive interpolants
    along the path, each minimised by dropping every variable the rest of the path does not
    need to stay contradicting (quadratic in the path). Longer paths -- spliced through
    recursive summaries they can be very long -- use :func:`interpolate_by_slice`.
    """
    if len(path.steps) > ALG3_MAX_STEPS:
        return interpolate_by_slice(program, path, deadline_check)
    sem = PathSemantics(program, path)
    if not sem.contradicts({}, 0):
        return None
    pairs: set[tuple[CFANode, str]] = set()
    itp: Values = {}
    for i in range(len(path.steps)):
        if deadline_check is not None and i % 64 == 0:
            deadline_check()
        nxt = sem.step(itp, i)
        if nxt is None:
            break  # the interpolant is false from here on: nothing more to track
        for k in sorted(nxt):  # Alg. 3, in a deterministic order
            if mem.always_kept(k):
                continue
            trial = {x: y for x, y in nxt.items() if x != k}
            if sem.contradicts(trial, i + 1):
                nxt = trial
        itp = nxt
        if path.steps[i].kind == "return":
            dead = f"@{sem.frames[i]}"
            itp = {k: x for k, x in itp.items() if not k.endswith(dead)}
        loc = sem.location_after(i)
        for k in itp:
            if not mem.always_kept(k):
                pairs.add((loc, mem.root_of(sem.base(k))))
    return sorted(pairs, key=lambda p: (p[0].key, p[1]))


def interpolate_by_slice(program: Program, path: ErrorPath, deadline_check=None) -> list[tuple[CFANode, str]] | None:
    """The same interpolants' variables, in time linear in the path.

    One forward pass applies the strongest post with full precision and finds the step
    where the path becomes contradicting; one backward pass slices the variables that
    contradiction depends on. The interpolant after step i is the forward state at i
    restricted to that slice: it implies the next interpolant under step i+1 and
    contradicts the step where the path fails, as Alg. 4 of Beyer & Löwe 2012 requires, in time
    linear in the path (which, spliced through recursive summaries, can be long).
    """
    sem = PathSemantics(program, path)
    n = len(path.steps)
    made_known: list[set[str]] = []  # instance variables step i gave a (new) known value
    known_reads: list[set[str]] = []  # instance variables step i read that were known
    v: Values = {}
    fail = -1
    for i in range(n):
        if deadline_check is not None and i % 256 == 0:
            deadline_check()
        reads = sem.reads(i, v)
        known_reads.append({r for r in reads if r in v})
        nxt = sem.step(v, i)
        if nxt is None:
            fail = i
            made_known.append(set())
            break
        if nxt is v:
            made_known.append(set())
        else:
            made_known.append({k for k, x in nxt.items() if v.get(k, _UNSET) != x})
            st = path.steps[i]
            if st.kind == "return":
                # The callee's frame is gone: its instances are never read again.
                dead = f"@{sem.frames[i]}"
                nxt = {k: x for k, x in nxt.items() if not k.endswith(dead)}
        v = nxt
    if fail < 0:
        return None
    needed = set(known_reads[fail])
    pairs: set[tuple[CFANode, str]] = set()
    for i in range(fail - 1, -1, -1):
        if needed:
            loc = sem.location_after(i)
            for k in needed:
                if not mem.always_kept(k):
                    pairs.add((loc, mem.root_of(sem.base(k))))
        defs = made_known[i] & needed
        if defs:
            needed -= defs
            needed |= known_reads[i]
        st = path.steps[i]
        if st.kind == "call":
            fresh = f"@{sem.callee_frame[i]}"
            needed = {k for k in needed if not k.endswith(fresh)}
    return sorted(pairs, key=lambda p: (p[0].key, p[1]))


_UNSET = object()


class ValueRefiner:
    """CEGAR refinement for the value domain: interpolate, then refine (scoped) precision."""

    def refine(self, program: Program, path: ErrorPath, precision: dict,
               check) -> tuple[dict | None, str]:
        pairs = interpolate(program, path, check)
        if pairs is None:
            return None, ("an error path is infeasible, but only through relations between unknown values, "
                          "which the value analysis cannot express")
        old: ValuePrecision = precision["value"]
        new = old.refined(pairs, program)
        if new.same_as(old):
            return None, "the same spurious error path keeps coming back"
        return {**precision, "value": new}, ""
