"""Exact bit-vector encoding of an error path for z3, and the model as concrete inputs.

Every FALSE is confirmed here: the path's SSA formula, with C's machine-integer
semantics for the data model, must be satisfiable. What the path itself determines (a loop
counter, a constant, an address computed from them) is computed here, as a Python int (the
value's bit pattern), and only what depends on inputs becomes a z3 term: a path through a loop
that runs a thousand times costs no solver for its counter, and memory at concrete addresses
needs no z3 array. Each call opens a frame, so every
recursive instance gets fresh variables. Division by zero and out-of-range shifts are
excluded from the path (a real run would not get past them); signed overflow wraps as
gcc does, and the report says when the path relies on it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import z3

from ..cfa.builder import ENTRY_OBJECT
from ..cfa.cfa import Program
from ..cfa.ctype import ArrayType, CType, FunctionType, IntType, PointerType, StructType
from ..cfa.folding import folded_to_sign
from ..cfa.ir import (
    AbortEdge,
    AddrOf,
    AssignEdge,
    AssumeEdge,
    Binary,
    BlankEdge,
    CallEdge,
    Cast,
    Const,
    DeclEdge,
    Deref,
    Expr,
    ExternalCallEdge,
    FuncRef,
    Index,
    Member,
    Nondet,
    ReturnEdge,
    StrLit,
    Unary,
    Valid,
    Var,
)
from ..cfa.output_calls import writes_nothing
from ..cfa.traits import ALLOCATORS, memory_variables
from ..cfa.translate.common import parse_string
from ..core.path import ErrorPath, Step
from ..smt.bvrange import Ranges
from ..smt.solving import bv_cast, check_within, extend, shift_amount
from .feasibility import Encoding, Feasibility, InputValue, to_int
from .memory import MemoryState, MemoryUnsupported


class EncodingUnsupported(Exception):
    def __init__(self, what: str, rng=None):
        self.what = what
        self.range = rng
        super().__init__(what)


def _signed(v: int, bits: int) -> int:
    """A bit pattern read as two's complement."""
    return v - (1 << bits) if v >> (bits - 1) else v


def _cast_int(v: int, src: IntType, dst: IntType) -> int:
    """C's integer conversion on a bit pattern (as bv_cast does on terms)."""
    if dst.is_bool:
        return int(v != 0)
    if dst.bits >= src.bits and src.signed:
        v = _signed(v, src.bits)
    return v % (1 << dst.bits)


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
        self.mem = MemoryState(program)
        self.objects = memory_variables(program)
        self.live_frames: list[int] = [0]  # the frames of the calls active at the current step
        self.stack: list[int] = []  # the frames of the calls that are open
        self.ranges = Ranges()  # of the terms written, to leave out overflows that cannot happen
        # Values for the path's nondeterministic values and external results, in order (check_path's
        # ``inputs``): with them, most of a path is concrete for the solver.
        self.fixed: list[int] | None = None
        self.fixed_at = 0

    def inst(self, name: str, frame: int) -> str:
        info = self.vars.get(name)
        if info is None or info.is_global:
            return name
        return f"{name}@{frame}"

    def fresh(self, base: str, t: CType) -> z3.ExprRef:
        self.counter += 1
        v = z3.BitVec(f"{base}#{self.counter}", _bits(t, self.program))
        if isinstance(t, IntType) and t.is_bool:  # a byte whose values are 0 and 1
            self.enc.constraints.append(z3.ULE(v, 1))
        return v

    def read(self, name: str, t: CType, frame: int) -> Any:
        key = self.inst(name, frame)
        term = self.cur.get(key)
        if term is None:  # uninitialised: any value
            term = self.fresh(key, t)
            self.cur[key] = term
        return term

    def write(self, name: str, t: CType, value: Any, frame: int, step: int) -> None:
        key = self.inst(name, frame)
        if not isinstance(value, int) and z3.is_bv_value(value):
            value = value.as_long()  # (an address malloc returned: its object's base)
        if isinstance(value, int):  # a value the path determines: kept as a value
            v = value
        else:
            v = self.fresh(key, t)
            self.enc.constraints.append(v == value)
            self.ranges.note(v, value)
        self.cur[key] = v
        self.enc.writes[step].append((name, v, t))

    def width(self, t: CType) -> int:
        """The bits of a scalar value of type ``t`` (a function designator: an address's)."""
        return self.mem.bits if isinstance(t, FunctionType) else _bits(t, self.program)

    def num(self, v: Any, t: CType) -> z3.ExprRef:
        """A value of type ``t`` as a z3 term."""
        return z3.BitVecVal(v, self.width(t)) if isinstance(v, int) else v

    # ---- expressions ----------------------------------------------------------
    def expr(self, e: Expr, frame: int, step: int) -> z3.ExprRef:
        """The value of ``e`` as a z3 term."""
        return self.num(self.value(e, frame, step), e.type)

    def value(self, e: Expr, frame: int, step: int) -> Any:
        """The value of ``e``: an int (its bit pattern) where the path determines it, else a z3 term."""
        if isinstance(e, Const):
            return e.value % (1 << _bits(e.type, self.program))
        if isinstance(e, Var):
            if e.name in self.objects:
                return self.mem.load(self.address(e, frame, step), e.type, step)
            if not isinstance(e.type, IntType | PointerType):
                raise EncodingUnsupported(f"values of type {e.type}")
            return self.read(e.name, e.type, frame)
        if isinstance(e, Cast):
            src, dst = self.scalar(e.arg.type), self.scalar(e.type)
            v = self.value(e.arg, frame, step)
            return _cast_int(v, src, dst) if isinstance(v, int) else self.cast(v, src, dst)
        if isinstance(e, Deref | Index | Member):
            return self.mem.load(self.address(e, frame, step), e.type, step)
        if isinstance(e, AddrOf):
            return self.address(e.arg, frame, step)
        if isinstance(e, FuncRef):
            return self.mem.function(e.name)
        if isinstance(e, StrLit):
            return self.mem.string(e.text, parse_string(e.text))
        if isinstance(e, Valid):
            if e.kind == "memtrack":
                frames = set(self.live_frames)
                pointers = []
                for name, info in self.vars.items():
                    if name in self.objects or not isinstance(info.type, PointerType):
                        continue
                    for f in ([0] if info.is_global else frames):
                        term = self.cur.get(self.inst(name, f))
                        if term is not None:
                            pointers.append(term)
                return z3.If(self.mem.tracked(pointers, frames), z3.BitVecVal(1, 32), z3.BitVecVal(0, 32))
            if e.kind == "opaque":
                raise EncodingUnsupported("memory accesses of an external function cbam does not model")
            p = self.expr(e.ptr, frame, step)
            if e.kind == "free":
                ok = self.mem.freeable(p)
            elif e.kind == "string":
                ok = self.mem.terminated(p)
            elif e.kind in ("strcmp", "strchr"):
                ok = self.mem.read_until(p, self.expr(e.size, frame, step), e.kind == "strcmp")
            elif e.kind == "strcpy":
                src = self.expr(e.size, frame, step)
                ok = z3.And(self.mem.terminated(src), self.mem.valid_term(p, self.mem.string_length(src) + 1),
                            self.mem.writable_term(p))
            else:
                size = self.value(e.size, frame, step)
                st, ut = self.scalar(e.size.type), IntType("uintptr", self.mem.bits, False, 4)
                n = _cast_int(size, st, ut) if isinstance(size, int) else bv_cast(size, st, ut)
                ok = self.mem.valid(p, n)
                if e.kind == "write" and ok is not False:
                    ok = self.mem.writable(p) if ok is True else z3.And(ok, self.mem.writable_term(p))
            if isinstance(ok, bool):
                return int(ok)
            return z3.If(ok, z3.BitVecVal(1, 32), z3.BitVecVal(0, 32))
        if isinstance(e, Unary):
            a = self.value(e.arg, frame, step)
            if isinstance(a, int):
                if e.op == "!":
                    return int(a == 0)
                w = _bits(e.type, self.program)
                if e.op == "-":
                    return -a % (1 << w)  # -INT_MIN wraps, as bvneg does
                if e.op == "~":
                    return ~a % (1 << w)
                raise EncodingUnsupported(f"operator {e.op}")
            if e.op == "-":
                return -a
            if e.op == "~":
                return ~a
            if e.op == "!":
                return z3.If(a == 0, z3.BitVecVal(1, 32), z3.BitVecVal(0, 32))
            raise EncodingUnsupported(f"operator {e.op}")
        if isinstance(e, Binary):
            if not isinstance(e.left.type, IntType) or not isinstance(e.right.type, IntType):
                return self.pointer_binary(e, frame, step)
            a = self.value(e.left, frame, step)
            b = self.value(e.right, frame, step)
            if isinstance(a, int) and isinstance(b, int):
                return self._int_binary(e, a, b, step)
            a, b = self.num(a, e.left.type), self.num(b, e.right.type)
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
                if rt.signed and not self.ranges.fits(op, a, b, rt.bits):
                    w = rt.bits
                    wa, wb = z3.SignExt(w, a), z3.SignExt(w, b)
                    wide = wa + wb if op == "+" else wa - wb if op == "-" else wa * wb
                    return self.overflow(wide != z3.SignExt(w, r), r, step)
                return r
            if op in ("/", "%"):
                if signed:
                    r = a / b if op == "/" else z3.SRem(a, b)
                else:
                    r = z3.UDiv(a, b) if op == "/" else z3.URem(a, b)
                return self.defined(b != 0, r)
            if op in ("<<", ">>"):
                bw = _bits(e.right.type, self.program)
                amount = shift_amount(b, bw, rt.bits)
                if op == "<<":
                    r = a << amount
                else:
                    r = a >> amount if signed else z3.LShR(a, amount)
                # An amount that is negative or not below the width is undefined behaviour.
                return self.defined(z3.ULT(b, z3.BitVecVal(rt.bits, bw)), r)
            if op == "&":
                return a & b
            if op == "|":
                return a | b
            if op == "^":
                return a ^ b
            raise EncodingUnsupported(f"operator {op}")
        raise EncodingUnsupported(f"{type(e).__name__.lower()} expressions")

    def cast(self, v: z3.ExprRef, src: IntType, dst: IntType) -> z3.ExprRef:
        return bv_cast(v, src, dst)

    def _int_binary(self, e: Binary, a: int, b: int, step: int) -> Any:
        """``a op b`` on bit patterns, as the bit-vector operations below compute it (an operation
        whose behaviour is undefined goes through the same hooks, with its condition decided)."""
        lt, rt = e.left.type, e.type
        assert isinstance(lt, IntType) and isinstance(rt, IntType) and isinstance(e.right.type, IntType)
        op, signed = e.op, lt.signed
        if op in ("==", "!=", "<", ">", "<=", ">="):
            x, y = (_signed(a, lt.bits), _signed(b, lt.bits)) if signed else (a, b)
            return int(x == y if op == "==" else x != y if op == "!=" else x < y if op == "<" else
                       x > y if op == ">" else x <= y if op == "<=" else x >= y)
        w = rt.bits
        mod = 1 << w
        if op in ("+", "-", "*"):
            r = (a + b if op == "+" else a - b if op == "-" else a * b) % mod
            if rt.signed:
                x, y = _signed(a, w), _signed(b, w)
                wide = x + y if op == "+" else x - y if op == "-" else x * y
                if wide != _signed(r, w):
                    return self.overflow(z3.BoolVal(True), z3.BitVecVal(r, w), step)
            return r
        if op in ("/", "%"):
            if b == 0:
                return self.defined(z3.BoolVal(False), z3.BitVecVal(0, w))
            if signed:
                x, y = _signed(a, w), _signed(b, w)
                q = abs(x) // abs(y) * (-1 if (x < 0) != (y < 0) else 1)  # toward zero, as bvsdiv
                return (q if op == "/" else x - q * y) % mod
            return (a // b if op == "/" else a % b) % mod
        if op in ("<<", ">>"):
            if b >= w:  # an amount, as unsigned in its own width, not below the width: undefined
                return self.defined(z3.BoolVal(False), z3.BitVecVal(0, w))
            if op == "<<":
                return (a << b) % mod
            return (_signed(a, w) >> b) % mod if signed else a >> b
        if op == "&":
            return a & b
        if op == "|":
            return a | b
        if op == "^":
            return a ^ b
        raise EncodingUnsupported(f"operator {op}")

    # ---- undefined behaviour (path exploration overrides these: see algorithms/paths.py) ----------
    def overflow(self, happens: z3.BoolRef, wrapped: z3.ExprRef, step: int) -> z3.ExprRef:
        """Signed overflow: an error path wraps around as gcc does, and says so in a note."""
        self.enc.overflow_checks.append((happens, step))
        return wrapped

    def pointer_compare(self, op: str, a: z3.ExprRef, b: z3.ExprRef, c: z3.BoolRef) -> z3.BoolRef:
        """A comparison of two pointers, as addresses in this model's layout: an error path may
        take any outcome a real allocator could give (what C leaves open is a choice of inputs)."""
        return c

    def pointers_decide(self, op: str, a: int, b: int) -> bool:
        """Whether the comparison of two concrete addresses is its outcome here (as
        ``pointer_compare`` would leave it)."""
        return True

    def defined(self, ok: z3.BoolRef, value: z3.ExprRef) -> z3.ExprRef:
        """An operation defined only where ``ok`` holds: an error path is a defined execution."""
        self.enc.constraints.append(ok)
        return value

    # ---- memory -----------------------------------------------------------------------
    def entry_objects(self, step: int) -> None:
        """The contents of the objects the entry's pointer parameters point to, as inputs (the
        harness builds them from these bytes)."""
        for key, oid in list(self.mem.names.items()):
            name = key.rsplit("@", 1)[0]
            if ENTRY_OBJECT not in name:
                continue
            size = z3.simplify(self.mem.sizes[oid]).as_long()
            base = self.mem.base(oid)
            data = [self.mem.byte_term(base + k) for k in range(size)]
            term = data[0] if size == 1 else z3.Concat(*reversed(data))
            param = name.split(ENTRY_OBJECT, 1)[1]
            self.enc.inputs.append(InputValue(f"input *{param}", IntType(f"bytes[{size}]", 8 * size, False, 9),
                                              step, term))

    def scalar(self, t: CType) -> IntType:
        """An integer or pointer type as the integer type of its bits (pointers are unsigned)."""
        if isinstance(t, IntType):
            return t
        if isinstance(t, PointerType):
            return IntType("uintptr", t.bits, False, 4)
        if isinstance(t, FunctionType):  # a function designator: its address
            return IntType("uintptr", self.mem.bits, False, 4)
        raise EncodingUnsupported(f"values of type {t}")

    def address(self, lv: Expr, frame: int, step: int) -> Any:
        layout = self.mem.layout
        if isinstance(lv, Var):
            if lv.name not in self.objects:
                raise EncodingUnsupported(f"the address of {lv}")
            return self.mem.object(self.inst(lv.name, frame), lv.type)
        if isinstance(lv, Deref):
            return self.value(lv.ptr, frame, step)
        if isinstance(lv, Member):
            f = layout.offset(lv.base.type, lv.field)
            if f is None:
                raise EncodingUnsupported(f"member {lv.field} of {lv.base.type}")
            return self.mem.add(self.address(lv.base, frame, step), f[0])
        if isinstance(lv, Index):
            es = layout.sizeof(lv.type)
            if es is None:
                raise EncodingUnsupported(f"arrays of {lv.type}")
            base = self.address(lv.base, frame, step)
            off = self.scaled(lv.index, es, frame, step)
            if isinstance(base, int) and isinstance(off, int):
                return (base + off) & self.mem.mask
            return self.mem.term(base) + self.mem.term(off)
        raise EncodingUnsupported(f"the address of {type(lv).__name__.lower()} expressions")

    def vla_size(self, e: DeclEdge, frame: int, step: int) -> z3.ExprRef:
        """A variable-length array's size in bytes: the product of its lengths and its element's
        size, computed wide enough not to wrap. An error path keeps to sizes the object's offset
        bits hold (a product that wraps in size_t is no object a run can have)."""
        assert e.var is not None and isinstance(e.var.type, ArrayType)
        bits = self.mem.bits
        wide = bits * (len(e.lengths) + 1)
        total = z3.BitVecVal(self.mem.layout.sizeof(e.var.type.elem) or 1, wide)
        for n in e.lengths:
            nt = self.scalar(n.type)
            total = total * z3.ZeroExt(wide - nt.bits, self.expr(n, frame, step))
        self.mem.bounds.append(z3.ULT(total, z3.BitVecVal(1 << self.mem.off_bits, wide)))
        return z3.Extract(bits - 1, 0, total)

    def scaled(self, index: Expr, size: int, frame: int, step: int) -> Any:
        it = self.scalar(index.type)
        v = self.value(index, frame, step)
        if isinstance(v, int):
            k = _signed(v, it.bits) if it.signed and it.bits <= self.mem.bits else v
            return (k * size) & self.mem.mask
        i = extend(v, it, self.mem.bits) if it.bits <= self.mem.bits else z3.Extract(self.mem.bits - 1, 0, v)
        return i * size if size != 1 else i

    def pointer_binary(self, e: Binary, frame: int, step: int) -> z3.ExprRef:
        lt, rt = e.left.type, e.right.type
        if e.op in ("+", "-") and isinstance(lt, PointerType) and isinstance(rt, IntType):
            es = self.mem.layout.elem_size(lt.target)
            if es is None:
                raise EncodingUnsupported(f"arithmetic on pointers to {lt.target}")
            p = self.value(e.left, frame, step)
            k = self.scaled(e.right, es, frame, step)
            if isinstance(p, int) and isinstance(k, int):
                return (p + k if e.op == "+" else p - k) & self.mem.mask
            p, k = self.mem.term(p), self.mem.term(k)
            return p + k if e.op == "+" else p - k
        if e.op == "-" and isinstance(lt, PointerType) and isinstance(rt, PointerType):
            es = self.mem.layout.elem_size(lt.target) or 1
            a, b = self.expr(e.left, frame, step), self.expr(e.right, frame, step)
            d = self.defined(self.mem.oid(a) == self.mem.oid(b), a - b)  # within one object only
            d = d / es if es != 1 else d
            return bv_cast(d, self.scalar(lt), self.scalar(e.type)) if isinstance(e.type, IntType) else d
        if e.op in ("==", "!=", "<", ">", "<=", ">="):
            va, vb = self.value(e.left, frame, step), self.value(e.right, frame, step)
            if isinstance(va, int) and isinstance(vb, int) and self.pointers_decide(e.op, va, vb):
                return int({"==": va == vb, "!=": va != vb, "<": va < vb, ">": va > vb,
                            "<=": va <= vb, ">=": va >= vb}[e.op])
            a, b = self.num(va, e.left.type), self.num(vb, e.right.type)
            c = {"==": a == b, "!=": a != b, "<": z3.ULT(a, b), ">": z3.UGT(a, b),
                 "<=": z3.ULE(a, b), ">=": z3.UGE(a, b)}[e.op]
            return z3.If(self.pointer_compare(e.op, a, b, c), z3.BitVecVal(1, 32), z3.BitVecVal(0, 32))
        raise EncodingUnsupported(f"operator {e.op} on pointers")

    def store_to(self, lhs: Expr, value: z3.ExprRef, frame: int, step: int) -> None:
        self.mem.store(self.address(lhs, frame, step), lhs.type, value, step)
        self.enc.writes[step].append((str(lhs), value, lhs.type))

    def copy_object(self, dst: z3.ExprRef, src: z3.ExprRef, t: CType, step: int) -> None:
        size = self.mem.layout.sizeof(t)
        if size is None:
            raise EncodingUnsupported(f"copies of {t}")
        self.mem.check(dst, size, step)
        self.mem.check(src, size, step)
        self.mem.copy(dst, src, size)

    def assign_expr(self, lhs: Expr, rhs: Expr, frame: int, step: int) -> None:
        """``lhs = rhs`` for any lvalue: a variable, memory, or a whole struct."""
        if isinstance(lhs.type, StructType):
            self.copy_object(self.address(lhs, frame, step), self.address(rhs, frame, step), lhs.type, step)
            return
        value = self.rhs(rhs, lhs.type, frame, step)
        self.assign(lhs, value, frame, step)

    def truth(self, e: Expr, frame: int, step: int) -> Any:
        """Whether ``e`` is nonzero: a bool where the path decides it, else a z3 condition."""
        v = self.value(e, frame, step)
        return v != 0 if isinstance(v, int) else v != 0

    # ---- steps ----------------------------------------------------------------
    def assign(self, lhs: Expr, rhs_term: z3.ExprRef, frame: int, step: int) -> None:
        if isinstance(lhs, Var) and lhs.name not in self.objects and isinstance(lhs.type, IntType | PointerType):
            self.write(lhs.name, lhs.type, rhs_term, frame, step)
            return
        if isinstance(lhs.type, StructType):
            raise EncodingUnsupported("struct values from external functions")
        self.store_to(lhs, rhs_term, frame, step)

    def encode(self, path: ErrorPath, poll: Callable[[], None] = lambda: None) -> Encoding:
        """``poll`` raises when the run's time is up (a path may have millions of steps)."""
        frames = path.frames()
        for i, st in enumerate(path.steps):
            poll()
            self.step(i, st, frames[i], frames[i + 1] if i + 1 < len(frames) else frames[i] + 1)
        return self.finish()

    def returns(self, e: CallEdge, i: int, frame: int, caller_frame: int) -> None:
        callee = self.program.functions[e.callee]
        if e.lhs is not None and callee.result_var is not None:
            rt = self.vars[callee.result_var].type
            if isinstance(rt, StructType):
                self.copy_object(self.address(e.lhs, caller_frame, i),
                                 self.mem.object(self.inst(callee.result_var, frame), rt), rt, i)
                return
            term = self.read(callee.result_var, rt, frame)
            self.assign(e.lhs, term, caller_frame, i)
        elif callee.result_var is not None and callee.result_var not in self.objects:
            rt = self.vars[callee.result_var].type
            self.enc.writes[i].append((callee.result_var, self.read(callee.result_var, rt, frame), rt))

    def finish(self) -> Encoding:
        # An error path must be a defined execution: every access in bounds of a live object.
        self.enc.constraints.extend(self.mem.constraints)
        self.enc.constraints.extend(self.mem.bounds)
        self.enc.constraints.extend(a.valid for a in self.mem.accesses)
        self.enc.uses_memory = self.mem.used
        return self.enc

    def at_step(self, frame: int) -> None:
        """The calls open at a step taken in ``frame`` (what the leak check reads): set by each
        step, and by whoever evaluates an expression ahead of its step."""
        self.live_frames = [*self.stack, frame]

    def step(self, i: int, st: Step, frame: int, next_frame: int) -> None:
        """Encode the path's ``i``-th step, taken in ``frame`` (a call step opens ``next_frame``)."""
        program = self.program
        stack = self.stack
        self.enc.writes.append([])
        self.at_step(frame)
        e = st.edge
        try:
            if st.kind == "call":
                assert isinstance(e, CallEdge)
                callee = program.functions[e.callee]
                if frame == 0 and e.callee == program.entry:
                    self.entry_objects(i)
                new_frame = next_frame
                vals = [self.address(a, frame, i) if isinstance(a.type, StructType) else self.value(a, frame, i)
                        for a in e.args]
                stack.append(frame)
                passed = []
                for p, v in zip(callee.params, vals):
                    pt = self.vars[p].type
                    if p in self.objects:
                        dst = self.mem.object(self.inst(p, new_frame), pt)
                        if isinstance(pt, StructType):
                            self.copy_object(dst, v, pt, i)
                        else:
                            self.mem.store(dst, pt, v, i)
                        continue
                    self.write(p, pt, v, new_frame, i)
                    passed.append((p, self.cur[self.inst(p, new_frame)], pt))
                self.enc.args[i] = passed
                return
            if st.kind == "summary":
                assert isinstance(e, CallEdge) and st.summary is not None
                callee = program.functions[e.callee]
                passed = []
                for a, p in zip(e.args, callee.params):
                    pt = self.vars[p].type
                    val = st.summary["params"][p] % (1 << _bits(pt, program))
                    term = self.value(a, frame, i)
                    if isinstance(term, int):
                        if term != val:
                            self.enc.constraints.append(z3.BoolVal(False))
                    else:
                        self.enc.constraints.append(term == z3.BitVecVal(val, _bits(pt, program)))
                    passed.append((p, term, pt))
                self.enc.args[i] = passed
                for name, val in st.summary["outputs"].items():
                    t = self.vars[name].type
                    const = val % (1 << _bits(t, program))
                    if name == callee.result_var:
                        self.enc.writes[i].append((name, const, t))
                        if e.lhs is not None:
                            self.assign(e.lhs, const, frame, i)
                    else:
                        self.write(name, t, const, frame, i)
                return
            if st.kind == "return":
                assert isinstance(e, CallEdge)
                self.returns(e, i, frame, stack.pop())
                self.mem.end_frame(f"@{frame}")  # the callee's locals are gone
                return
            self.op(e, frame, i)
        except MemoryUnsupported as u:
            raise EncodingUnsupported(str(u), e.range) from None
        except EncodingUnsupported as u:
            if u.range is None:
                u.range = e.range
            raise

    def op(self, e, frame: int, i: int) -> None:
        if isinstance(e, BlankEdge):
            for v in e.ends:  # control leaves their block: a pointer to one dangles
                self.mem.end_lifetime(self.inst(v.name, frame))
            return
        if isinstance(e, AbortEdge):
            return
        if isinstance(e, AssumeEdge):
            assert e.cond is not None
            c = self.truth(e.cond, frame, i)
            if isinstance(c, bool):
                if c != e.truth:
                    self.enc.constraints.append(z3.BoolVal(False))  # the path does not go this way
                return
            self.enc.constraints.append(c if e.truth else z3.Not(c))
            return
        if isinstance(e, DeclEdge):
            var = e.var
            assert var is not None
            if e.lengths:
                assert isinstance(var.type, ArrayType)
                self.mem.names[self.inst(var.name, frame)] = self.mem.create(self.vla_size(e, frame, i))
                return
            if var.name in self.objects:
                # Its block entered again: a new object (a pointer to the ended one still dangles).
                self.mem.begin_lifetime(self.inst(var.name, frame))
                base = self.mem.object(self.inst(var.name, frame), var.type)
                if isinstance(var.type, ArrayType | StructType):
                    if isinstance(e.init, Const):
                        size = self.mem.layout.sizeof(var.type)
                        assert size is not None
                        self.mem.zero(base, size)
                    return
                if e.init is not None:
                    self.mem.store(base, var.type, self.rhs(e.init, var.type, frame, i), i)
                return
            if not isinstance(var.type, IntType | PointerType):
                raise EncodingUnsupported(f"variables of type {var.type}")
            if e.init is None:
                self.cur[self.inst(var.name, frame)] = self.fresh(self.inst(var.name, frame), var.type)
                return
            term = self.rhs(e.init, var.type, frame, i)
            self.write(var.name, var.type, term, frame, i)
            return
        if isinstance(e, AssignEdge):
            assert e.lhs is not None and e.rhs is not None
            self.assign_expr(e.lhs, e.rhs, frame, i)
            return
        if isinstance(e, ReturnEdge):
            if e.result_var is not None and e.value is not None:
                self.assign_expr(e.result_var, e.value, frame, i)
            return
        if isinstance(e, ExternalCallEdge):
            self.external(e, frame, i)
            return
        raise EncodingUnsupported(f"edge {type(e).__name__}")

    def external(self, e: ExternalCallEdge, frame: int, i: int) -> None:
        name = e.callee.removeprefix("__builtin_")
        mem = self.mem
        size_t = self.program.data_model.size_t

        def arg(k: int) -> z3.ExprRef:
            return self.expr(e.args[k], frame, i)

        def as_size(k: int) -> z3.ExprRef:
            return bv_cast(arg(k), self.scalar(e.args[k].type), self.scalar(self.program.data_model.pointer(size_t)))

        result: z3.ExprRef | None = None
        kind = ALLOCATORS.get(name)
        if kind == "malloc" and e.args:
            result = mem.allocate(as_size(0), zero=False, frame=frame if "alloca" in name else None)
        elif kind == "calloc" and len(e.args) >= 2:
            result = mem.allocate(as_size(0) * as_size(1), zero=True)
        elif kind == "realloc" and len(e.args) >= 2:
            old, n = arg(0), as_size(1)
            result = mem.allocate(n, zero=False)
            if not z3.is_true(z3.simplify(old == 0)):
                # Copy what both sizes hold; the old object's size is its id's.
                old_size = z3.BitVecVal(0, mem.bits)
                for k, sz in mem.sizes.items():
                    old_size = z3.If(mem.oid(old) == z3.BitVecVal(k, mem.id_bits), sz, old_size)
                m = z3.If(z3.ULT(old_size, n), old_size, n)
                mem.copy(result, old, z3.If(old == 0, z3.BitVecVal(0, mem.bits), m))
                mem.release(old, i)
        elif name == "free" and e.args:
            mem.release(self.value(e.args[0], frame, i), i)  # (a concrete address stays an int)
        elif name == "memset" and len(e.args) >= 3:
            dst, n = arg(0), as_size(2)
            mem.check(dst, n, i)
            mem.fill(dst, z3.Extract(7, 0, arg(1)), n)
            result = dst
        elif name in ("memcpy", "memmove") and len(e.args) >= 3:
            dst, src, n = arg(0), arg(1), as_size(2)
            mem.check(dst, n, i)
            mem.check(src, n, i)
            mem.copy(dst, src, n)
            result = dst
        elif name == "strlen" and e.args:
            result = mem.c_string_length(arg(0), i)
        elif name in ("strcmp", "strncmp") and len(e.args) >= 2:
            limit = as_size(2) if name == "strncmp" and len(e.args) >= 3 else None
            result = mem.c_string_compare(arg(0), arg(1), limit, i)
        elif name == "memcmp" and len(e.args) >= 3:
            result = mem.compare_bytes(arg(0), arg(1), as_size(2), i)
        elif name == "strcpy" and len(e.args) >= 2:
            dst, src = arg(0), arg(1)
            n = mem.c_string_length(src, i) + 1
            mem.check(dst, n, i)
            mem.copy(dst, src, n)
            result = dst
        elif name == "strncpy" and len(e.args) >= 3:
            mem.c_string_ncopy(arg(0), arg(1), as_size(2), i)
            result = arg(0)
        elif name == "strcat" and len(e.args) >= 2:
            dst, src = arg(0), arg(1)
            end = dst + mem.c_string_length(dst, i)
            n = mem.c_string_length(src, i) + 1
            mem.check(end, n, i)
            mem.copy(end, src, n)
            result = dst
        elif name == "strchr" and len(e.args) >= 2:
            result = mem.c_string_find(arg(0), z3.Extract(7, 0, arg(1)), i)
        elif writes_nothing(name, e.args):
            # printf and the like (cfa/output_calls.py): no effect on the program's memory; the
            # value returned is any int, and no input of the harness: the replay runs the real one.
            if e.lhs is not None:
                if not isinstance(e.lhs.type, IntType):
                    raise EncodingUnsupported(f"external function {e.callee} returning {e.lhs.type}")
                self.assign(e.lhs, self.fresh(f"ext_{e.callee}", e.lhs.type), frame, i)
            return
        else:
            if any(not isinstance(a.type, IntType) for a in e.args) and (mem.used or self.objects):
                raise EncodingUnsupported(f"external function {e.callee} with pointer arguments")
            if e.writes_globals:
                if any(self.vars[o].is_global for o in self.objects):
                    raise EncodingUnsupported(f"external function {e.callee}, which may write global memory")
                for name_, info in self.vars.items():
                    if info.is_global and isinstance(info.type, IntType | PointerType):
                        self.cur[name_] = self.fresh(name_, info.type)
            if e.lhs is not None:
                if not isinstance(e.lhs.type, IntType):
                    raise EncodingUnsupported(f"external function {e.callee} returning {e.lhs.type}")
                v = self.input_term(f"extern {e.callee}", f"ext_{e.callee}", e.lhs.type, i, e.range)
                self.assign(e.lhs, v, frame, i)
            return
        if result is not None and folded_to_sign(name, e.args):
            result = _sign(mem.term(result))
        if e.lhs is not None:
            if result is None:
                raise EncodingUnsupported(f"the result of {e.callee}")
            t = self.scalar(e.lhs.type)
            result = self.mem.term(result)
            src_bits = result.size()
            result = bv_cast(result, IntType("r", src_bits, name in ("strcmp", "strncmp", "memcmp"), 4), t)
            self.assign(e.lhs, z3.simplify(result), frame, i)

    def rhs(self, rhs: Expr, t: CType, frame: int, i: int) -> Any:
        if isinstance(rhs, Nondet) and not isinstance(t, IntType):
            raise EncodingUnsupported(f"nondeterministic values of type {t}")
        if isinstance(rhs, Nondet):
            return self.input_term(rhs.source, "nondet", t, i)
        return self.value(rhs, frame, i)

    def input_term(self, source: str, base: str, t: CType, step: int, rng=None) -> z3.ExprRef:
        """The value the environment supplies here (a nondet call's, an external function's):
        the next of ``fixed`` where the caller gives the inputs (check_path's ``inputs``), else
        a fresh variable."""
        if self.fixed is not None and self.fixed_at < len(self.fixed):
            v: z3.ExprRef = z3.BitVecVal(self.fixed[self.fixed_at], _bits(t, self.program))
            self.fixed_at += 1
        else:
            v = self.fresh(base, t)
        self.enc.inputs.append(InputValue(source, t, step, v, range=rng))
        return v


def _sign(v: z3.ExprRef) -> z3.ExprRef:
    zero = z3.BitVecVal(0, v.size())
    return z3.If(v == zero, zero, z3.If(v > zero, z3.BitVecVal(1, v.size()), z3.BitVecVal(-1, v.size())))


def check_path(program: Program, path: ErrorPath, timeout_ms: int = 60_000,
               poll: Callable[[], None] = lambda: None, inputs: list[int] | None = None) -> Feasibility:
    """Whether ``path`` is feasible, exactly. ``inputs``: values for its nondeterministic values
    and external results, in order (a model the caller found): "sat" then confirms the path
    with those values (anything else says nothing about other values)."""
    encoder = PathEncoder(program)
    encoder.fixed = inputs
    try:
        enc = encoder.encode(path, poll)
    except EncodingUnsupported as u:
        return Feasibility("unsupported", reason=u.what, unsupported_range=u.range)
    solver = z3.Solver() if enc.uses_memory else z3.SolverFor("QF_BV")
    solver.add(*enc.constraints)
    res = check_within(solver, timeout_ms)
    if res == z3.unsat:
        return Feasibility("unsat", enc)
    if res != z3.sat:
        return Feasibility("unknown", enc, reason=f"the SMT solver gave up ({solver.reason_unknown()})")
    model = solver.model()
    for inp in enc.inputs:
        inp.value = to_int(model.eval(inp.term, model_completion=True), inp.type)
    overflow = [s for cond, s in enc.overflow_checks if z3.is_true(model.eval(cond, model_completion=True))]
    return Feasibility("sat", enc, model, overflow_steps=sorted(set(overflow)))
