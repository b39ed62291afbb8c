"""Confirming an error path by running it: no solver, when the inputs are known.

An error path of a program without memory (only integer variables; cpa/value/memory.py's
``uses_memory``) is a straight sequence of assignments, branches, calls and returns. Given a
value for each input it reads, in order (the inputs that broke the same program before an
edit, say), running the path is exact: C's machine-integer semantics (cfa/semantics.py), and
signed overflow wrapping around as gcc does and noted, as the bit-vector encoding of the path
(cex/encoding.py) has it. If every branch the path takes holds, the path is feasible with these
inputs and the violation is confirmed; anything else (a branch that fails, an undefined
operation the path may not pass, an uninitialised read, an input without a value) answers
None, and the caller checks the path with z3 as usual. The finding has the shape of the
exact check's (feasibility.py), with values where the encoding has terms.

It spares a new process the solver: importing z3 and making its context cost more than the
whole re-analysis of a one-function edit (bench/incremental_bench.py).
"""

from __future__ import annotations

from typing import Any

from ..cfa.cfa import Program
from ..cfa.ctype import CType, IntType
from ..cfa.ir import (
    AbortEdge,
    AssignEdge,
    AssumeEdge,
    Binary,
    BlankEdge,
    CallEdge,
    Cast,
    Const,
    DeclEdge,
    Expr,
    ExternalCallEdge,
    Nondet,
    ReturnEdge,
    Unary,
    Var,
)
from ..cfa.semantics import eval_binary
from ..cfa.traits import uses_memory
from ..core.path import ErrorPath
from ..frontend.errors import Range
from .feasibility import Encoding, Feasibility, InputValue


def with_replay(hints: list[list[int]]):
    """A path check (cegar.PathCheck) that first runs the path with each of ``hints`` (input
    vectors, in the order a path reads them), and checks it with z3 when none of them runs it
    to its error."""

    def check(program: Program, path: ErrorPath, timeout_ms: int, poll) -> Feasibility:
        for inputs in hints:
            poll()
            found = replay(program, path, inputs)
            if found is not None:
                return found
        from .encoding import check_path

        return check_path(program, path, timeout_ms, poll)

    return check


# A value never set (a function's result when it falls off its end): a run may carry it along,
# and stops where anything reads it. Shown as the value a solver's model completes an
# unconstrained term with.
UNSET: Any = object()


def _shown(v: Any) -> int:
    return 0 if v is UNSET else v


class RunStopped(Exception):
    """The path does not run with these inputs (or not without a solver)."""


def replay(program: Program, path: ErrorPath, inputs: list[int]) -> Feasibility | None:
    """The path's finding when it runs to its error with ``inputs`` (in the order it reads
    them), or None."""
    if uses_memory(program):
        return None
    try:
        return ConcreteRun(program, inputs).run(path)
    except RunStopped:
        return None


class ConcreteRun:
    def __init__(self, program: Program, inputs: list[int]):
        self.program = program
        self.vars = program.vars
        self.inputs = list(inputs)
        self.cur: dict[str, Any] = {}  # a variable instance's value (or UNSET)
        self.enc = Encoding()
        self.overflow: list[int] = []

    def run(self, path: ErrorPath) -> Feasibility:
        frames = path.frames()
        stack: list[int] = []
        for i, st in enumerate(path.steps):
            self.enc.writes.append([])
            frame = frames[i]
            e = st.edge
            if st.kind == "call":
                assert isinstance(e, CallEdge)
                callee = self.program.functions[e.callee]
                new_frame = frames[i + 1] if i + 1 < len(frames) else frame + 1
                values = [self.expr(a, frame, i) for a in e.args]
                stack.append(frame)
                passed: list[tuple[str, Any, CType]] = []
                for p, v in zip(callee.params, values):
                    pt = self._int(self.vars[p].type)
                    self.write(p, pt, v, new_frame, i)
                    passed.append((p, v, pt))
                self.enc.args[i] = passed
            elif st.kind == "summary":
                assert isinstance(e, CallEdge) and st.summary is not None
                callee = self.program.functions[e.callee]
                passed = []
                for a, p in zip(e.args, callee.params):
                    pt = self._int(self.vars[p].type)
                    v = self.expr(a, frame, i)
                    if v != pt.wrap(st.summary["params"][p]):
                        raise RunStopped
                    passed.append((p, v, pt))
                self.enc.args[i] = passed
                for name, val in st.summary["outputs"].items():
                    t = self._int(self.vars[name].type)
                    v = t.wrap(val)
                    if name == callee.result_var:
                        self.enc.writes[i].append((name, v, t))
                        if e.lhs is not None:
                            self.assign(e.lhs, v, frame, i)
                    else:
                        self.write(name, t, v, frame, i)
            elif st.kind == "return":
                assert isinstance(e, CallEdge)
                self.returns(e, i, frame, stack.pop())
            else:
                self.op(e, frame, i)
        if self.inputs:
            raise RunStopped  # the path reads fewer inputs than it was given: they were for another path
        for inp in self.enc.inputs:
            inp.value = inp.term
        return Feasibility("sat", self.enc, None, overflow_steps=sorted(set(self.overflow)), replayed=True)

    # ---- variables ------------------------------------------------------------------------
    def inst(self, name: str, frame: int) -> str:
        info = self.vars.get(name)
        return name if info is None or info.is_global else f"{name}@{frame}"

    def read(self, name: str, frame: int) -> int:
        v = self.cur.get(self.inst(name, frame), UNSET)
        if v is UNSET:
            raise RunStopped  # uninitialised: any value, which a run cannot pick
        return v

    def write(self, name: str, t: IntType, value: int, frame: int, step: int) -> None:
        v = t.wrap(value)
        self.cur[self.inst(name, frame)] = v
        self.enc.writes[step].append((name, v, t))

    def assign(self, lhs: Expr, value: int, frame: int, step: int) -> None:
        if not isinstance(lhs, Var):
            raise RunStopped
        self.write(lhs.name, self._int(lhs.type), value, frame, step)

    @staticmethod
    def _int(t: CType) -> IntType:
        if not isinstance(t, IntType):
            raise RunStopped
        return t

    def input(self, source: str, t: IntType, step: int, rng: Range | None = None) -> int:
        if not self.inputs:
            raise RunStopped
        v = t.wrap(self.inputs.pop(0))
        self.enc.inputs.append(InputValue(source, t, step, v, range=rng))
        return v

    # ---- edges ----------------------------------------------------------------------------
    def op(self, e, frame: int, i: int) -> None:
        if isinstance(e, BlankEdge | AbortEdge):
            return
        if isinstance(e, AssumeEdge):
            assert e.cond is not None
            if (self.expr(e.cond, frame, i) != 0) != e.truth:
                raise RunStopped
            return
        if isinstance(e, DeclEdge):
            var = e.var
            assert var is not None
            if e.lengths:
                raise RunStopped
            t = self._int(var.type)
            if e.init is None:
                self.cur.pop(self.inst(var.name, frame), None)  # uninitialised until written
                return
            self.write(var.name, t, self.rhs(e.init, t, frame, i), frame, i)
            return
        if isinstance(e, AssignEdge):
            assert e.lhs is not None and e.rhs is not None
            self.assign(e.lhs, self.rhs(e.rhs, self._int(e.lhs.type), frame, i), frame, i)
            return
        if isinstance(e, ReturnEdge):
            if e.result_var is not None and e.value is not None:
                self.assign(e.result_var, self.rhs(e.value, self._int(e.result_var.type), frame, i), frame, i)
            return
        if isinstance(e, ExternalCallEdge):
            if e.writes_globals and any(info.is_global for info in self.vars.values()):
                raise RunStopped  # the globals' new values are not inputs a run can be given
            if e.lhs is not None:
                t = self._int(e.lhs.type)
                self.assign(e.lhs, self.input(f"extern {e.callee}", t, i, e.range), frame, i)
            return
        raise RunStopped

    def returns(self, e: CallEdge, i: int, frame: int, caller_frame: int) -> None:
        callee = self.program.functions[e.callee]
        if callee.result_var is None:
            return
        rt = self._int(self.vars[callee.result_var].type)
        v = self.cur.get(self.inst(callee.result_var, frame), UNSET)
        if e.lhs is None:
            self.enc.writes[i].append((callee.result_var, _shown(v), rt))
        elif v is UNSET:  # the function fell off its end: any value, fine while nothing reads it
            if not isinstance(e.lhs, Var):
                raise RunStopped
            self._int(e.lhs.type)
            self.cur[self.inst(e.lhs.name, caller_frame)] = UNSET
            self.enc.writes[i].append((e.lhs.name, 0, e.lhs.type))
        else:
            self.assign(e.lhs, v, caller_frame, i)

    def rhs(self, rhs: Expr, t: IntType, frame: int, i: int) -> int:
        if isinstance(rhs, Nondet):
            return self.input(rhs.source, t, i)
        return self.expr(rhs, frame, i)

    # ---- expressions: as the bit-vector encoding (smt.PathEncoder.expr) -------------------------
    def expr(self, e: Expr, frame: int, step: int) -> int:
        if isinstance(e, Const):
            return self._int(e.type).wrap(e.value)
        if isinstance(e, Var):
            self._int(e.type)
            return self.read(e.name, frame)
        if isinstance(e, Cast):
            self._int(e.arg.type)
            return self._int(e.type).wrap(self.expr(e.arg, frame, step))
        if isinstance(e, Unary):
            t = self._int(e.type)
            a = self.expr(e.arg, frame, step)
            if e.op == "-":
                return t.wrap(-a)  # -INT_MIN wraps, as bvneg does
            if e.op == "~":
                return t.wrap(~a)
            if e.op == "!":
                return int(a == 0)
            raise RunStopped
        if isinstance(e, Binary):
            lt, rt = self._int(e.left.type), self._int(e.type)
            self._int(e.right.type)
            a, b = self.expr(e.left, frame, step), self.expr(e.right, frame, step)
            op = e.op
            r = eval_binary(op, a, b, lt, rt)
            if r is not None:
                return r
            if op in ("+", "-", "*"):  # signed overflow: wraps, and the report says so
                self.overflow.append(step)
                return rt.wrap(a + b if op == "+" else a - b if op == "-" else a * b)
            if op in ("/", "%") and b != 0:  # INT_MIN / -1: the bit-vector quotient wraps
                q = abs(a) // abs(b) * (-1 if (a < 0) != (b < 0) else 1)
                return rt.wrap(q if op == "/" else a - q * b)
            if op == "<<" and 0 <= b < rt.bits:  # a negative value shifted, or a bit into the sign
                return rt.wrap(a << b)
            raise RunStopped  # division by zero, a shift by too much: a path may not pass there
        raise RunStopped


__all__ = ["replay", "with_replay"]
