"""Interval analysis: each integer variable's value lies in [lo, hi].

Sound for C's machine integers: an operation whose result may leave its type's range
(signed overflow, unsigned wrap-around) gives the full range of the type. Merge joins at
loop heads with widening (a bound that grows jumps to the type's limit), so loops
terminate; recursion summaries are widened the same way (``widen_summary``).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any

from ...cfa.cfa import FunctionCFA, Program
from ...cfa.ctype import CType, IntType
from ...cfa.ir import (
    AbortEdge,
    AssignEdge,
    AssumeEdge,
    Binary,
    BlankEdge,
    CallEdge,
    Cast,
    CFANode,
    Const,
    DeclEdge,
    Edge,
    Expr,
    ExternalCallEdge,
    Nondet,
    ReturnEdge,
    Unary,
    Var,
)
from ...core.cpa import CPA, Block
from ..varmap import expand_map, rebuild_map, reduce_map

Itv = tuple[int, int]


class IntervalState:
    __slots__ = ("m", "_h")

    def __init__(self, m: dict[str, Itv] | None = None):
        self.m: dict[str, Itv] = dict(m) if m else {}
        self._h: int | None = None

    def __hash__(self) -> int:
        if self._h is None:
            self._h = hash(frozenset(self.m.items()))
        return self._h

    def __eq__(self, other: object) -> bool:
        return isinstance(other, IntervalState) and self.m == other.m

    def __repr__(self) -> str:
        return "{" + ", ".join(f"{k} in [{lo}, {hi}]" for k, (lo, hi) in sorted(self.m.items())) + "}"

    def with_(self, name: str, itv: Itv | None) -> IntervalState:
        m = dict(self.m)
        if itv is None:
            m.pop(name, None)
        else:
            m[name] = itv
        return IntervalState(m)


def _range(t: CType) -> Itv | None:
    return (t.min, t.max) if isinstance(t, IntType) else None


def _fit(lo: int, hi: int, t: CType) -> Itv | None:
    """The interval if it lies in t's range; None (the whole type) otherwise."""
    if not isinstance(t, IntType) or lo < t.min or hi > t.max:
        return None
    return (lo, hi)


def _trunc_div(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


class IntervalCPA(CPA[IntervalState]):
    name = "interval"
    joins = True
    widens_summaries = True

    def __init__(self, program: Program):
        self.program = program
        self.vars = program.vars
        self.addressed = frozenset(n for n, v in program.vars.items() if v.addressed)
        self.globals = frozenset(n for n, v in program.vars.items() if v.is_global)

    def _full(self, name: str) -> Itv | None:
        info = self.vars.get(name)
        return _range(info.type) if info is not None else None

    def get(self, s: IntervalState, name: str) -> Itv | None:
        return s.m.get(name) or self._full(name)

    # ---- lattice ------------------------------------------------------------------------
    def initial(self, node: CFANode) -> IntervalState:
        return IntervalState()

    def is_less_or_equal(self, a: IntervalState, b: IntervalState) -> bool:
        for k, (blo, bhi) in b.m.items():
            alo, ahi = a.m.get(k) or self._full(k) or (blo, bhi)
            if alo < blo or ahi > bhi:
                return False
        return True

    def join(self, a: IntervalState, b: IntervalState) -> IntervalState:
        return IntervalState({k: (min(v[0], b.m[k][0]), max(v[1], b.m[k][1])) for k, v in a.m.items() if k in b.m})

    def widen(self, old: IntervalState, new: IntervalState) -> IntervalState:
        out: dict[str, Itv] = {}
        for k, (nlo, nhi) in new.m.items():
            if k not in old.m:
                continue
            olo, ohi = old.m[k]
            full = self._full(k) or (nlo, nhi)
            lo = olo if nlo >= olo else full[0]
            hi = ohi if nhi <= ohi else full[1]
            if (lo, hi) != full:
                out[k] = (lo, hi)
        return IntervalState(out)

    def merge(self, new: IntervalState, old: IntervalState, prec: Any, node: CFANode) -> IntervalState:
        if not node.loop_head:
            return old  # merge-sep away from loop heads keeps branches apart
        return self.widen(old, self.join(old, new))

    def widen_summary(self, old: list[IntervalState], new: list[IntervalState]) -> list[IntervalState] | None:
        if not new:
            return new
        joined = new[0]
        for s in new[1:]:
            joined = self.join(joined, s)
        if old:
            prev = old[0]
            for s in old[1:]:
                prev = self.join(prev, s)
            joined = self.widen(prev, self.join(prev, joined))
        return [joined]

    # ---- expressions --------------------------------------------------------------------
    def eval(self, e: Expr, look: Callable[[str], Itv | None]) -> Itv | None:
        t = e.type
        if isinstance(e, Const):
            return (e.value, e.value)
        if isinstance(e, Var):
            return look(e.name) if isinstance(t, IntType) else None
        if isinstance(e, Cast):
            inner = self.eval(e.arg, look) if isinstance(e.arg.type, IntType) else None
            if not isinstance(t, IntType):
                return None
            if t.is_bool:
                if inner is None:
                    return (0, 1)
                if inner == (0, 0):
                    return (0, 0)
                return (1, 1) if inner[0] > 0 or inner[1] < 0 else (0, 1)
            return _fit(*inner, t) if inner is not None else _range(t)
        if isinstance(e, Unary):
            a = self.eval(e.arg, look)
            if e.op == "!":
                if a is None:
                    return (0, 1)
                return (1, 1) if a == (0, 0) else (0, 0) if (a[0] > 0 or a[1] < 0) else (0, 1)
            if a is None or not isinstance(t, IntType):
                return _range(t)
            if e.op == "-":
                return _fit(-a[1], -a[0], t)
            if e.op == "~":
                return _fit(~a[1], ~a[0], t) if t.signed else _fit(t.max - a[1], t.max - a[0], t)
            return _range(t)
        if isinstance(e, Binary):
            if not isinstance(e.left.type, IntType) or not isinstance(e.right.type, IntType):
                return None
            a, b = self.eval(e.left, look), self.eval(e.right, look)
            op = e.op
            if op in ("==", "!=", "<", ">", "<=", ">="):
                if a is None or b is None:
                    return (0, 1)
                return _compare(op, a, b)
            if a is None or b is None or not isinstance(t, IntType):
                return _range(t)
            if op in ("+", "-", "*"):
                cands: tuple[int, ...]
                if op == "+":
                    cands = (a[0] + b[0], a[1] + b[1])
                elif op == "-":
                    cands = (a[0] - b[1], a[1] - b[0])
                else:
                    cands = (a[0] * b[0], a[0] * b[1], a[1] * b[0], a[1] * b[1])
                return _fit(min(cands), max(cands), t) or _range(t)
            if op == "/" and (b[0] > 0 or b[1] < 0):
                qs = [_trunc_div(x, y) for x in a for y in b]
                return _fit(min(qs), max(qs), t) or _range(t)
            if op == "%" and a[0] >= 0 and b[0] > 0:
                return (0, min(a[1], b[1] - 1))
            if op == "&" and a[0] >= 0 and b[0] >= 0:
                return (0, min(a[1], b[1]))
            if op == ">>" and a[0] >= 0 and b[0] == b[1] and 0 <= b[0] < t.bits:
                return (a[0] >> b[0], a[1] >> b[0])
            return _range(t)
        return None

    def _refine(self, s: IntervalState, cond: Expr, truth: bool) -> IntervalState | None:
        """assume(cond == truth): narrow the variables it constrains; None if infeasible."""
        look = lambda n: self.get(s, n)  # noqa: E731
        v = self.eval(cond, look)
        if v is not None:
            if truth and v == (0, 0):
                return None
            if not truth and (v[0] > 0 or v[1] < 0):
                return None
        if isinstance(cond, Unary) and cond.op == "!":
            return self._refine(s, cond.arg, not truth)
        if isinstance(cond, Binary) and cond.op in ("==", "!=", "<", ">", "<=", ">="):
            op = cond.op if truth else {"==": "!=", "!=": "==", "<": ">=", ">": "<=", "<=": ">", ">=": "<"}[cond.op]
            for lhs, rhs, o in ((cond.left, cond.right, op), (cond.right, cond.left, _flip(op))):
                name = _var_of(lhs)
                if name is None:
                    continue
                cur = self.get(s, name)
                other = self.eval(rhs, look)
                if cur is None or other is None:
                    continue
                new = _narrow(cur, o, other)
                if new is None:
                    return None
                if new != cur:
                    s = s.with_(name, new)
            return s
        name = _var_of(cond)
        if name is not None:
            cur = self.get(s, name)
            if cur is not None:
                new = _narrow(cur, "!=" if truth else "==", (0, 0))
                if new is None:
                    return None
                return s.with_(name, new)
        return s

    # ---- transfer -----------------------------------------------------------------------
    def _assign(self, s: IntervalState, lhs: Expr, itv: Itv | None) -> IntervalState:
        if isinstance(lhs, Var):
            full = self._full(lhs.name)
            return s.with_(lhs.name, None if itv is None or itv == full else itv)
        root: Expr | None = lhs
        while not isinstance(root, Var):
            root = getattr(root, "base", None)
            if root is None:
                return IntervalState({k: v for k, v in s.m.items() if k not in self.addressed})
        return s

    def transfer(self, s: IntervalState, edge: Edge, prec: Any) -> list[IntervalState]:
        look = lambda n: self.get(s, n)  # noqa: E731
        if isinstance(edge, AssignEdge):
            assert edge.lhs is not None and edge.rhs is not None
            itv = None if isinstance(edge.rhs, Nondet) else self.eval(edge.rhs, look)
            return [self._assign(s, edge.lhs, itv)]
        if isinstance(edge, AssumeEdge):
            assert edge.cond is not None
            r = self._refine(s, edge.cond, edge.truth)
            return [] if r is None else [r]
        if isinstance(edge, DeclEdge):
            assert edge.var is not None
            itv = None if edge.init is None or isinstance(edge.init, Nondet) else self.eval(edge.init, look)
            return [self._assign(s, edge.var, itv)]
        if isinstance(edge, ReturnEdge):
            if edge.result_var is None:
                return [s]
            return [self._assign(s, edge.result_var, self.eval(edge.value, look) if edge.value else None)]
        if isinstance(edge, ExternalCallEdge):
            m = dict(s.m)
            if edge.writes_globals:
                m = {k: v for k, v in m.items() if k not in self.globals}
            if any(not isinstance(a.type, IntType) for a in edge.args):
                m = {k: v for k, v in m.items() if k not in self.addressed}
            out = IntervalState(m)
            return [self._assign(out, edge.lhs, None) if edge.lhs is not None else out]
        if isinstance(edge, BlankEdge | AbortEdge):
            return [s]
        raise TypeError(f"interval analysis: unexpected edge {type(edge).__name__}")

    def call_entry(self, s: IntervalState, edge: CallEdge, callee: FunctionCFA, prec: Any) -> list[IntervalState]:
        look = lambda n: self.get(s, n)  # noqa: E731
        vals = [self.eval(a, look) for a in edge.args]
        m = {k: v for k, v in s.m.items() if not (k in self.vars and self.vars[k].function == callee.name)}
        out = IntervalState(m)
        for p, v in zip(callee.params, vals):
            out = self._assign(out, Var(p, self.vars[p].type), v)
        return [out]

    def return_to(self, s: IntervalState, edge: CallEdge, callee: FunctionCFA, prec: Any) -> list[IntervalState]:
        if edge.lhs is None or callee.result_var is None:
            return [s]
        return [self._assign(s, edge.lhs, s.m.get(callee.result_var))]

    # ---- BAM ------------------------------------------------------------------------------
    def reduce(self, s: IntervalState, block: Block, prec: Any) -> IntervalState:
        return IntervalState(reduce_map(s.m, block))

    def expand(self, entry: IntervalState, reduced_exit: IntervalState, block: Block) -> IntervalState:
        return IntervalState(expand_map(entry.m, reduced_exit.m, block, self.globals, self.addressed))

    def rebuild(self, call: IntervalState, entry: IntervalState, exit: IntervalState, block: Block,
                edge: CallEdge) -> IntervalState:
        return IntervalState(rebuild_map(call.m, exit.m, block, self.globals, self.addressed))

    def precision_key(self, prec: Any, block: Block) -> Hashable:
        return None

    def describe(self, s: IntervalState) -> str:
        return repr(s)

    def summary_facts(self, s: IntervalState) -> dict[str, Any]:
        return {k: (lo, hi) for k, (lo, hi) in s.m.items()}

    def to_json(self, s: IntervalState) -> Any:
        return {k: list(v) for k, v in sorted(s.m.items())}

    def from_json(self, data: Any) -> IntervalState:
        return IntervalState({str(k): (int(v[0]), int(v[1])) for k, v in data.items()})


def _var_of(e: Expr) -> str | None:
    """The variable an expression is, possibly under a cast that keeps every value."""
    while isinstance(e, Cast) and isinstance(e.arg.type, IntType) and isinstance(e.type, IntType) \
            and not e.type.is_bool and e.type.min <= e.arg.type.min and e.arg.type.max <= e.type.max:
        e = e.arg
    return e.name if isinstance(e, Var) and isinstance(e.type, IntType) else None


def _flip(op: str) -> str:
    return {"<": ">", ">": "<", "<=": ">=", ">=": "<=", "==": "==", "!=": "!="}[op]


def _compare(op: str, a: Itv, b: Itv) -> Itv:
    if op == "<":
        return (1, 1) if a[1] < b[0] else (0, 0) if a[0] >= b[1] else (0, 1)
    if op == "<=":
        return (1, 1) if a[1] <= b[0] else (0, 0) if a[0] > b[1] else (0, 1)
    if op == ">":
        return _compare("<", b, a)
    if op == ">=":
        return _compare("<=", b, a)
    if op == "==":
        if a[0] == a[1] == b[0] == b[1]:
            return (1, 1)
        return (0, 0) if a[1] < b[0] or b[1] < a[0] else (0, 1)
    eq = _compare("==", a, b)
    return (1 - eq[1], 1 - eq[0])


def _narrow(cur: Itv, op: str, other: Itv) -> Itv | None:
    lo, hi = cur
    if op == "<":
        hi = min(hi, other[1] - 1)
    elif op == "<=":
        hi = min(hi, other[1])
    elif op == ">":
        lo = max(lo, other[0] + 1)
    elif op == ">=":
        lo = max(lo, other[0])
    elif op == "==":
        lo, hi = max(lo, other[0]), min(hi, other[1])
    elif op == "!=" and other[0] == other[1]:
        if lo == other[0]:
            lo += 1
        elif hi == other[0]:
            hi -= 1
    return (lo, hi) if lo <= hi else None
