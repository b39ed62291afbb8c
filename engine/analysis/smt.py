"""Exact bit-vector encoding of an error path for z3, and the model as concrete inputs.

Every FALSE is confirmed here: the path's SSA formula, with C's machine-integer
semantics for the data model, must be satisfiable. Each call opens a frame, so every
recursive instance gets fresh variables. Division by zero and out-of-range shifts are
excluded from the path (a real run would not get past them); signed overflow wraps as
gcc does, and the report says when the path relies on it.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import z3

from ..cfa.cfa import Program
from ..cfa.ctype import CType, IntType, PointerType
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
from .path import ErrorPath

_run = threading.local()


def set_deadline(deadline: float | None) -> None:
    """The current run's deadline (time.monotonic), for this analysis thread's solver calls."""
    _run.deadline = deadline


def past_deadline() -> bool:
    deadline = getattr(_run, "deadline", None)
    return deadline is not None and time.monotonic() >= deadline


def solver_timeout(ms: int) -> int:
    """A solver call's timeout, cut to the run's remaining time: a single query must not
    carry a run past its deadline (its callers treat "unknown" soundly)."""
    deadline = getattr(_run, "deadline", None)
    if deadline is None:
        return max(1, ms)
    return max(1, min(ms, int((deadline - time.monotonic()) * 1000)))


def extend(v: z3.ExprRef, src: IntType, bits: int) -> z3.ExprRef:
    """``v`` of type ``src`` widened to ``bits`` by its signedness."""
    return v if bits == src.bits else (z3.SignExt if src.signed else z3.ZeroExt)(bits - src.bits, v)


def bv_cast(v: z3.ExprRef, src: IntType, dst: IntType) -> z3.ExprRef:
    """C's integer conversion on bit-vectors."""
    if dst.is_bool:
        return z3.If(v != 0, z3.BitVecVal(1, dst.bits), z3.BitVecVal(0, dst.bits))
    if dst.bits >= src.bits:
        return extend(v, src, dst.bits)
    return z3.Extract(dst.bits - 1, 0, v)


def shift_amount(b: z3.ExprRef, amount_bits: int, width: int) -> z3.ExprRef:
    """A shift amount of ``amount_bits`` bits brought to the shifted value's width."""
    if width > amount_bits:
        return z3.ZeroExt(width - amount_bits, b)
    if width < amount_bits:
        return z3.Extract(width - 1, 0, b)
    return b


class EncodingUnsupported(Exception):
    def __init__(self, what: str, rng=None):
        self.what = what
        self.range = rng
        super().__init__(what)


@dataclass
class InputValue:
    """A value the environment supplies along the path (a nondet call, an input, an external call)."""

    source: str  # e.g. "__VERIFIER_nondet_int", "input argc", "extern foo"
    type: CType
    step: int
    term: z3.ExprRef
    value: int | None = None
    range: object = None


@dataclass
class Encoding:
    constraints: list[z3.BoolRef] = field(default_factory=list)
    inputs: list[InputValue] = field(default_factory=list)
    # per step: list of (display name, term, type) written by the step
    writes: list[list[tuple[str, z3.ExprRef, CType]]] = field(default_factory=list)
    # per step: the arguments passed (call steps)
    args: dict[int, list[tuple[str, z3.ExprRef, CType]]] = field(default_factory=dict)
    overflow_checks: list[tuple[z3.BoolRef, int]] = field(default_factory=list)


def _bits(t: CType, program: Program) -> int:
    if isinstance(t, IntType):
        return t.bits
    if isinstance(t, PointerType):
        return t.bits
    raise EncodingUnsupported(f"values of type {t}")


class PathEncoder:
    def __init__(self, program: Program):
        self.program = program
        self.vars = program.vars
        self.cur: dict[str, z3.ExprRef] = {}
        self.counter = 0
        self.enc = Encoding()
        self.frame = 0

    def inst(self, name: str, frame: int) -> str:
        info = self.vars.get(name)
        if info is None or info.is_global:
            return name
        return f"{name}@{frame}"

    def fresh(self, base: str, t: CType) -> z3.ExprRef:
        self.counter += 1
        return z3.BitVec(f"{base}#{self.counter}", _bits(t, self.program))

    def read(self, name: str, t: CType, frame: int) -> z3.ExprRef:
        key = self.inst(name, frame)
        term = self.cur.get(key)
        if term is None:  # uninitialised: any value
            term = self.fresh(key, t)
            self.cur[key] = term
        return term

    def write(self, name: str, t: CType, term: z3.ExprRef, frame: int, step: int) -> None:
        key = self.inst(name, frame)
        v = self.fresh(key, t)
        self.enc.constraints.append(v == term)
        self.cur[key] = v
        self.enc.writes[step].append((name, v, t))

    # ---- expressions ----------------------------------------------------------
    def expr(self, e: Expr, frame: int, step: int) -> z3.ExprRef:
        if isinstance(e, Const):
            return z3.BitVecVal(e.value % (1 << _bits(e.type, self.program)), _bits(e.type, self.program))
        if isinstance(e, Var):
            if not isinstance(e.type, IntType):
                raise EncodingUnsupported("pointer values")
            return self.read(e.name, e.type, frame)
        if isinstance(e, Cast):
            if not isinstance(e.type, IntType) or not isinstance(e.arg.type, IntType):
                raise EncodingUnsupported("pointer casts")
            return self.cast(self.expr(e.arg, frame, step), e.arg.type, e.type)
        if isinstance(e, Unary):
            a = self.expr(e.arg, frame, step)
            if e.op == "-":
                return -a
            if e.op == "~":
                return ~a
            if e.op == "!":
                return z3.If(a == 0, z3.BitVecVal(1, 32), z3.BitVecVal(0, 32))
            raise EncodingUnsupported(f"operator {e.op}")
        if isinstance(e, Binary):
            if not isinstance(e.left.type, IntType) or not isinstance(e.right.type, IntType):
                raise EncodingUnsupported("pointer arithmetic")
            a = self.expr(e.left, frame, step)
            b = self.expr(e.right, frame, step)
            signed = e.left.type.signed
            op = e.op
            one, zero = z3.BitVecVal(1, 32), z3.BitVecVal(0, 32)
            if op in ("==", "!=", "<", ">", "<=", ">="):
                if op == "==":
                    c = a == b
                elif op == "!=":
                    c = a != b
                elif signed:
                    c = {"<": a < b, ">": a > b, "<=": a <= b, ">=": a >= b}[op]
                else:
                    c = {"<": z3.ULT(a, b), ">": z3.UGT(a, b), "<=": z3.ULE(a, b), ">=": z3.UGE(a, b)}[op]
                return z3.If(c, one, zero)
            rt = e.type
            assert isinstance(rt, IntType)
            if op in ("+", "-", "*"):
                r = a + b if op == "+" else a - b if op == "-" else a * b
                if rt.signed:
                    w = rt.bits
                    wa, wb = z3.SignExt(w, a), z3.SignExt(w, b)
                    wide = wa + wb if op == "+" else wa - wb if op == "-" else wa * wb
                    self.enc.overflow_checks.append((wide != z3.SignExt(w, r), step))
                return r
            if op in ("/", "%"):
                self.enc.constraints.append(b != 0)
                if signed:
                    return a / b if op == "/" else z3.SRem(a, b)
                return z3.UDiv(a, b) if op == "/" else z3.URem(a, b)
            if op in ("<<", ">>"):
                bw = _bits(e.right.type, self.program)
                # An amount that is negative or not below the width is undefined behaviour.
                self.enc.constraints.append(z3.ULT(b, z3.BitVecVal(rt.bits, bw)))
                amount = shift_amount(b, bw, rt.bits)
                if op == "<<":
                    return a << amount
                return a >> amount if signed else z3.LShR(a, amount)
            if op == "&":
                return a & b
            if op == "|":
                return a | b
            if op == "^":
                return a ^ b
            raise EncodingUnsupported(f"operator {op}")
        raise EncodingUnsupported(f"{type(e).__name__.lower()} expressions (memory is not encoded yet)")

    def cast(self, v: z3.ExprRef, src: IntType, dst: IntType) -> z3.ExprRef:
        return bv_cast(v, src, dst)

    def truth(self, e: Expr, frame: int, step: int) -> z3.BoolRef:
        return self.expr(e, frame, step) != 0

    # ---- steps ----------------------------------------------------------------
    def assign(self, lhs: Expr, rhs_term: z3.ExprRef, frame: int, step: int) -> None:
        if isinstance(lhs, Var) and isinstance(lhs.type, IntType):
            self.write(lhs.name, lhs.type, rhs_term, frame, step)
            return
        raise EncodingUnsupported("writes to memory (pointers, arrays, structs)", None)

    def encode(self, path: ErrorPath, poll: Callable[[], None] = lambda: None) -> Encoding:
        """``poll`` raises when the run's time is up (a path may have millions of steps)."""
        frames = path.frames()
        stack: list[int] = []
        program = self.program
        for i, st in enumerate(path.steps):
            poll()
            self.enc.writes.append([])
            frame = frames[i]
            e = st.edge
            try:
                if st.kind == "call":
                    assert isinstance(e, CallEdge)
                    callee = program.functions[e.callee]
                    new_frame = frames[i + 1] if i + 1 < len(frames) else frame + 1
                    vals = [self.expr(a, frame, i) if isinstance(a.type, IntType) else None for a in e.args]
                    stack.append(frame)
                    passed = []
                    for p, v in zip(callee.params, vals):
                        pt = self.vars[p].type
                        if v is None:
                            if isinstance(pt, IntType):
                                raise EncodingUnsupported("pointer arguments")
                            continue
                        self.write(p, pt, v, new_frame, i)
                        passed.append((p, self.cur[self.inst(p, new_frame)], pt))
                    self.enc.args[i] = passed
                    continue
                if st.kind == "summary":
                    assert isinstance(e, CallEdge) and st.summary is not None
                    callee = program.functions[e.callee]
                    passed = []
                    for a, p in zip(e.args, callee.params):
                        pt = self.vars[p].type
                        val = st.summary["params"][p]
                        term = self.expr(a, frame, i)
                        self.enc.constraints.append(term == z3.BitVecVal(val % (1 << _bits(pt, program)),
                                                                        _bits(pt, program)))
                        passed.append((p, term, pt))
                    self.enc.args[i] = passed
                    for name, val in st.summary["outputs"].items():
                        t = self.vars[name].type
                        const = z3.BitVecVal(val % (1 << _bits(t, program)), _bits(t, program))
                        if name == callee.result_var:
                            self.enc.writes[i].append((name, const, t))
                            if e.lhs is not None:
                                self.assign(e.lhs, const, frame, i)
                        else:
                            self.write(name, t, const, frame, i)
                    continue
                if st.kind == "return":
                    assert isinstance(e, CallEdge)
                    callee = program.functions[e.callee]
                    caller_frame = stack.pop()
                    if e.lhs is not None and callee.result_var is not None:
                        rt = self.vars[callee.result_var].type
                        term = self.read(callee.result_var, rt, frame)
                        self.assign(e.lhs, term, caller_frame, i)
                    elif callee.result_var is not None:
                        rt = self.vars[callee.result_var].type
                        self.enc.writes[i].append((callee.result_var, self.read(callee.result_var, rt, frame), rt))
                    continue
                self.op(e, frame, i)
            except EncodingUnsupported as u:
                if u.range is None:
                    u.range = e.range
                raise
        return self.enc

    def op(self, e, frame: int, i: int) -> None:
        if isinstance(e, BlankEdge | AbortEdge):
            return
        if isinstance(e, AssumeEdge):
            c = self.truth(e.cond, frame, i)
            self.enc.constraints.append(c if e.truth else z3.Not(c))
            return
        if isinstance(e, DeclEdge):
            var = e.var
            assert var is not None
            if not isinstance(var.type, IntType):
                if e.init is not None and not isinstance(e.init, Nondet):
                    raise EncodingUnsupported("pointer or aggregate variables")
                return
            if e.init is None:
                self.cur[self.inst(var.name, frame)] = self.fresh(self.inst(var.name, frame), var.type)
                return
            term = self.rhs(e.init, var.type, frame, i)
            self.write(var.name, var.type, term, frame, i)
            return
        if isinstance(e, AssignEdge):
            lhs = e.lhs
            if isinstance(lhs, Var) and not isinstance(lhs.type, IntType):
                raise EncodingUnsupported("pointer variables")
            if not isinstance(lhs, Var):
                raise EncodingUnsupported("writes to memory (pointers, arrays, structs)")
            self.assign(lhs, self.rhs(e.rhs, lhs.type, frame, i), frame, i)
            return
        if isinstance(e, ReturnEdge):
            if e.result_var is not None and e.value is not None:
                if not isinstance(e.result_var.type, IntType):
                    raise EncodingUnsupported("returning pointers")
                self.write(e.result_var.name, e.result_var.type, self.expr(e.value, frame, i), frame, i)
            return
        if isinstance(e, ExternalCallEdge):
            if any(not isinstance(a.type, IntType) for a in e.args) and any(
                    v.addressed for v in self.vars.values()):
                raise EncodingUnsupported(f"external function {e.callee} with pointer arguments")
            if e.writes_globals:
                for name, info in self.vars.items():
                    if info.is_global and isinstance(info.type, IntType):
                        self.cur[name] = self.fresh(name, info.type)
            if e.lhs is not None:
                if not isinstance(e.lhs, Var) or not isinstance(e.lhs.type, IntType):
                    raise EncodingUnsupported(f"external function {e.callee} returning a pointer")
                v = self.fresh(f"ext_{e.callee}", e.lhs.type)
                self.enc.inputs.append(InputValue(f"extern {e.callee}", e.lhs.type, i, v, range=e.range))
                self.write(e.lhs.name, e.lhs.type, v, frame, i)
            return
        raise EncodingUnsupported(f"edge {type(e).__name__}")

    def rhs(self, rhs: Expr, t: CType, frame: int, i: int) -> z3.ExprRef:
        if isinstance(rhs, Nondet):
            v = self.fresh("nondet", t)
            self.enc.inputs.append(InputValue(rhs.source, t, i, v))
            return v
        return self.expr(rhs, frame, i)


@dataclass
class Feasibility:
    status: str  # "sat" | "unsat" | "unknown" | "unsupported"
    encoding: Encoding | None = None
    model: z3.ModelRef | None = None
    reason: str = ""
    unsupported_range: object = None
    overflow_steps: list[int] = field(default_factory=list)


def check_path(program: Program, path: ErrorPath, timeout_ms: int = 60_000,
               poll: Callable[[], None] = lambda: None) -> Feasibility:
    encoder = PathEncoder(program)
    try:
        enc = encoder.encode(path, poll)
    except EncodingUnsupported as u:
        return Feasibility("unsupported", reason=u.what, unsupported_range=u.range)
    solver = z3.SolverFor("QF_BV")
    solver.set("timeout", solver_timeout(timeout_ms))
    solver.add(*enc.constraints)
    res = solver.check()
    if res == z3.unsat:
        return Feasibility("unsat", enc)
    if res != z3.sat:
        return Feasibility("unknown", enc, reason=f"the SMT solver gave up ({solver.reason_unknown()})")
    model = solver.model()
    for inp in enc.inputs:
        inp.value = to_int(model.eval(inp.term, model_completion=True), inp.type)
    overflow = [s for cond, s in enc.overflow_checks if z3.is_true(model.eval(cond, model_completion=True))]
    return Feasibility("sat", enc, model, overflow_steps=sorted(set(overflow)))


def to_int(v: z3.ExprRef, t: CType) -> int:
    raw = v.as_long() if z3.is_bv_value(v) else 0
    if isinstance(t, IntType):
        return t.wrap(raw)
    return raw
