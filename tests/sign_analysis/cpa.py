"""The sign domain: per integer variable a non-empty subset of {-, 0, +} (all three: unknown,
not stored). Sound for machine integers: an operation that may overflow gives any sign."""

from __future__ import annotations

from collections.abc import Hashable
from itertools import product
from typing import Any

from cbam.engine.cfa.ctype import IntType
from cbam.engine.cfa.ir import (
    AbortEdge,
    AssignEdge,
    AssumeEdge,
    Binary,
    BlankEdge,
    Cast,
    Const,
    DeclEdge,
    ExternalCallEdge,
    ReturnEdge,
    Unary,
    Var,
)
from cbam.engine.core.cpa import CPA, Block
from cbam.engine.cpa.varmap import expand_map, rebuild_map, reduce_map

NEG, ZERO, POS = "-", "0", "+"
ANY = frozenset({NEG, ZERO, POS})


def sign_of(v: int) -> frozenset[str]:
    return frozenset({NEG if v < 0 else ZERO if v == 0 else POS})


class SignState:
    __slots__ = ("m", "_h")

    def __init__(self, m: dict[str, frozenset[str]] | None = None):
        self.m = {k: v for k, v in (m or {}).items() if v != ANY}
        self._h: int | None = None

    def __hash__(self) -> int:
        if self._h is None:
            self._h = hash(frozenset(self.m.items()))
        return self._h

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SignState) and self.m == other.m

    def __repr__(self) -> str:
        return "{" + ", ".join(f"{k}: {''.join(sorted(v))}" for k, v in sorted(self.m.items())) + "}"

    def get(self, name: str) -> frozenset[str]:
        return self.m.get(name, ANY)

    def with_(self, name: str, signs: frozenset[str]) -> SignState:
        return SignState({**self.m, name: signs})


class SignCPA(CPA):
    name = "sign"

    def __init__(self, program):
        self.program = program
        self.vars = program.vars
        self.globals = frozenset(n for n, v in program.vars.items() if v.is_global)
        self.addressed = frozenset(n for n, v in program.vars.items() if v.addressed)

    # ---- lattice ----------------------------------------------------------------------------
    def initial(self, node) -> SignState:
        return SignState()

    def is_less_or_equal(self, a: SignState, b: SignState) -> bool:
        return all(a.get(k) <= v for k, v in b.m.items())

    def join(self, a: SignState, b: SignState) -> SignState:
        return SignState({k: a.get(k) | b.get(k) for k in set(a.m) | set(b.m)})

    # ---- expressions -----------------------------------------------------------------------
    def eval(self, s: SignState, e) -> frozenset[str]:
        if not isinstance(e.type, IntType):
            return ANY
        if isinstance(e, Const):
            return sign_of(e.value)
        if isinstance(e, Var):
            return s.get(e.name)
        if isinstance(e, Cast):
            inner = self.eval(s, e.arg)
            widening = isinstance(e.arg.type, IntType) and e.type.min <= e.arg.type.min and e.arg.type.max <= e.type.max
            return inner if widening and not e.type.is_bool else ANY
        if isinstance(e, Unary) and e.op == "-" and e.type.min < 0:
            return ANY  # -INT_MIN overflows
        if isinstance(e, Binary) and e.op in ("+", "*") and e.type.min < 0:
            a, b = self.eval(s, e.left), self.eval(s, e.right)
            if ANY in (a, b):
                return ANY
            return frozenset().union(*(_combine(e.op, x, y) for x, y in product(a, b)))
        return ANY

    def _assume(self, s: SignState, cond, truth: bool) -> SignState | None:
        if isinstance(cond, Unary) and cond.op == "!":
            return self._assume(s, cond.arg, not truth)
        if isinstance(cond, Binary) and cond.op in ("==", "!=", "<", ">", "<=", ">=") \
                and isinstance(cond.right, Const) and cond.right.value == 0 and isinstance(_var(cond.left), str):
            op = cond.op if truth else {"==": "!=", "!=": "==", "<": ">=", ">": "<=", "<=": ">", ">=": "<"}[cond.op]
            allowed = {"==": {ZERO}, "!=": {NEG, POS}, "<": {NEG}, ">": {POS}, "<=": {NEG, ZERO},
                       ">=": {ZERO, POS}}[op]
            name = _var(cond.left)
            new = s.get(name) & allowed
            return None if not new else s.with_(name, frozenset(new))
        return s

    # ---- transfer ---------------------------------------------------------------------------
    def _set(self, s: SignState, lhs, signs: frozenset[str]) -> SignState:
        if isinstance(lhs, Var):
            return s.with_(lhs.name, signs if isinstance(lhs.type, IntType) else ANY)
        return SignState({k: v for k, v in s.m.items() if k not in self.addressed})  # a write through memory

    def transfer(self, s: SignState, edge, prec: Any) -> list[SignState]:
        if isinstance(edge, AssignEdge):
            return [self._set(s, edge.lhs, self.eval(s, edge.rhs))]
        if isinstance(edge, DeclEdge):
            return [self._set(s, edge.var, ANY if edge.init is None else self.eval(s, edge.init))]
        if isinstance(edge, AssumeEdge):
            r = self._assume(s, edge.cond, edge.truth)
            return [] if r is None else [r]
        if isinstance(edge, ReturnEdge):
            if edge.result_var is None:
                return [s]
            return [self._set(s, edge.result_var, self.eval(s, edge.value) if edge.value is not None else ANY)]
        if isinstance(edge, ExternalCallEdge):
            m = {k: v for k, v in s.m.items() if not (edge.writes_globals and k in self.globals)
                 and not (any(not isinstance(a.type, IntType) for a in edge.args) and k in self.addressed)}
            out = SignState(m)
            return [self._set(out, edge.lhs, ANY) if edge.lhs is not None else out]
        if isinstance(edge, BlankEdge | AbortEdge):
            return [s]
        raise TypeError(f"sign analysis: unexpected edge {type(edge).__name__}")

    def call_entry(self, s: SignState, edge, callee, prec: Any) -> list[SignState]:
        vals = [self.eval(s, a) for a in edge.args]
        out = SignState({k: v for k, v in s.m.items() if not (k in self.vars and self.vars[k].function == callee.name)})
        for p, v in zip(callee.params, vals):
            out = out.with_(p, v)
        return [out]

    def return_to(self, s: SignState, edge, callee, prec: Any) -> list[SignState]:
        if edge.lhs is None or callee.result_var is None:
            return [s]
        return [self._set(s, edge.lhs, s.get(callee.result_var))]

    # ---- BAM ---------------------------------------------------------------------------------
    def reduce(self, s: SignState, block: Block, prec: Any) -> SignState:
        return SignState(reduce_map(s.m, block))

    def expand(self, entry: SignState, reduced_exit: SignState, block: Block) -> SignState:
        return SignState(expand_map(entry.m, reduced_exit.m, block, self.globals, self.addressed))

    def rebuild(self, call: SignState, entry: SignState, exit: SignState, block: Block, edge) -> SignState:
        return SignState(rebuild_map(call.m, exit.m, block, self.globals, self.addressed))

    def precision_key(self, prec: Any, block: Block) -> Hashable:
        return None

    # ---- what the cache and the summaries see ----------------------------------------------
    def summary_facts(self, s: SignState) -> dict[str, Any]:
        bounds = {frozenset({POS}): (1, None), frozenset({ZERO, POS}): (0, None), frozenset({NEG}): (None, -1),
                  frozenset({NEG, ZERO}): (None, 0), frozenset({ZERO}): 0}
        return {k: bounds[v] for k, v in s.m.items() if v in bounds}

    def to_json(self, s: SignState) -> Any:
        return {k: "".join(sorted(v)) for k, v in sorted(s.m.items())}

    def from_json(self, data: Any) -> SignState:
        return SignState({str(k): frozenset(v) for k, v in data.items()})


def _combine(op: str, x: str, y: str) -> frozenset[str]:
    if op == "*":
        if ZERO in (x, y):
            return frozenset({ZERO})
        # The product of two non-zero values may overflow to any sign.
        return ANY
    if x == ZERO:
        return frozenset({y})
    if y == ZERO:
        return frozenset({x})
    return ANY  # a sum of non-zero values may overflow, or change sign


def _var(e) -> str | None:
    while isinstance(e, Cast) and isinstance(e.arg.type, IntType) and e.type.min <= e.arg.type.min \
            and e.arg.type.max <= e.type.max and not e.type.is_bool:
        e = e.arg
    return e.name if isinstance(e, Var) and isinstance(e.type, IntType) else None
