"""Symbolic values over a block's entry values, for generalized (parametric) block summaries.

A block whose result is a straight function of its parameters (see ``generalizable``) can be
analysed once with its parameters as symbols instead of once per concrete entry: the value
analysis then computes expressions over the symbols, and branches on them record
constraints. A caller instantiates such a summary at its concrete entry (expand), which
evaluates the expressions and constraints with the same machine-integer semantics as the
concrete analysis (``cfa.semantics``), so an instantiated exit is the state a concrete
analysis of that entry computes, or less precise where the symbolic route lost a fact (an
unknown value stays unknown; it never becomes a wrong one).

Expressions are immutable, hashed once, and bounded in size: an expression that would grow
beyond ``MAX_SIZE`` nodes (a loop that accumulates for too long) abandons generalization for
that entry, and the block is analysed concretely instead.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from typing import Any

from ...cfa.callgraph import tarjan
from ...cfa.cfa import FunctionCFA
from ...cfa.ctype import IntType
from ...cfa.ir import (
    AbortEdge,
    AssignEdge,
    AssumeEdge,
    Binary,
    BlankEdge,
    Cast,
    Const,
    DeclEdge,
    Expr,
    Nondet,
    ReturnEdge,
    Unary,
    Var,
)
from ...cfa.semantics import binary_function, eval_binary, eval_cast, eval_unary
from ...core.cpa import GeneralizationAbandoned

MAX_SIZE = 20_000  # tree nodes of one expression (evaluation and storage are linear in it)
MAX_BRANCH_SITES = 4  # branches on symbolic values, outside loops, in one function
RENDER_LIMIT = 160  # characters of an expression shown to a user


class Abandon(GeneralizationAbandoned):
    """Generalization does not pay off for this entry: analyse it concretely."""


class Sym:
    __slots__ = ("_h", "size")
    _h: int
    size: int  # tree nodes

    def __hash__(self) -> int:
        return self._h


class Param(Sym):
    """The entry value of a parameter."""

    __slots__ = ("name",)

    def __init__(self, name: str):
        self.name = name
        self.size = 1
        self._h = hash(("p", name))

    def __eq__(self, other: object) -> bool:
        return self is other or (isinstance(other, Param) and other.name == self.name)

    __hash__ = Sym.__hash__


class Op(Sym):
    """An operation: kind "b" (binary: types = (left, result)), "u" (unary: (operand,)) or
    "c" (cast: (target,)); args are Sym or int, or None (no single value) beside a symbolic
    operand of * or &, whose result is 0 if that operand is."""

    __slots__ = ("kind", "op", "types", "args")

    def __init__(self, kind: str, op: str, types: tuple[IntType, ...], args: tuple[Any, ...]):
        size = 1
        for a in args:  # a loop, not sum() over a generator: decoding a stored summary makes thousands
            if isinstance(a, Sym):
                size += a.size
        if size > MAX_SIZE:
            raise Abandon("expression too large")
        self.kind, self.op, self.types, self.args = kind, op, types, args
        self.size = size
        self._h = hash((kind, op, types, args))

    def __eq__(self, other: object) -> bool:
        # Iterative: expressions can be thousands of operations deep.
        stack: list[tuple[Any, Any]] = [(self, other)]
        while stack:
            a, b = stack.pop()
            if a is b:
                continue
            if isinstance(a, Op):
                if not (isinstance(b, Op) and a._h == b._h and a.kind == b.kind and a.op == b.op
                        and a.types == b.types and len(a.args) == len(b.args)):
                    return False
                stack.extend(zip(a.args, b.args))
            elif isinstance(a, Param):
                if not (isinstance(b, Param) and a.name == b.name):
                    return False
            elif isinstance(b, Sym) or a != b:
                return False
        return True

    __hash__ = Sym.__hash__


def binary(op: str, a: Any, b: Any, left_t: IntType, result_t: IntType) -> Any:
    if not isinstance(a, Sym) and not isinstance(b, Sym):
        return eval_binary(op, a, b, left_t, result_t)
    return Op("b", op, (left_t, result_t), (a, b))


def unary(op: str, a: Any, t: IntType) -> Any:
    if not isinstance(a, Sym):
        return eval_unary(op, a, t)
    return Op("u", op, (t,), (a,))


def cast(a: Any, t: IntType) -> Any:
    if not isinstance(a, Sym):
        return eval_cast(a, t)
    return Op("c", "", (t,), (a,))


def instantiate(v: Any, env: dict[str, int], memo: dict[int, int | None]) -> int | None:
    """The value of ``v`` when every parameter has its value in env (None: no single value).
    ``memo`` (by node identity) is shared by the values of one state."""
    if not isinstance(v, Sym):
        return v
    if id(v) in memo:
        return memo[id(v)]
    for nid, fn, s0, a0, s1, a1 in _tape(v):
        if nid in memo:
            continue
        if fn is None:
            memo[nid] = env.get(a0)
            continue
        memo[nid] = fn(memo[a0] if s0 else a0, memo[a1] if s1 else a1)
    return memo[id(v)]


_TAPES: OrderedDict[int, tuple[Sym, list[tuple[Any, ...]]]] = OrderedDict()
_TAPES_MAX = 256


def _post_order(root: Sym) -> list[Sym]:
    """The distinct nodes under ``root``, each after its operands."""
    order: list[Sym] = []
    seen: set[int] = set()
    stack: list[tuple[Sym, bool]] = [(root, False)]
    while stack:
        x, ready = stack.pop()
        if ready:
            order.append(x)
            continue
        if id(x) in seen:
            continue
        seen.add(id(x))
        stack.append((x, True))
        if isinstance(x, Op):
            stack.extend((a, False) for a in x.args if isinstance(a, Sym) and id(a) not in seen)
    return order


def _tape(root: Sym) -> list[tuple[Any, ...]]:
    """``_post_order(root)`` as steps ``(id, fn, is_node0, arg0, is_node1, arg1)``: ``fn`` computes
    the node from its operands' values (a node operand is given by its id, its value then read
    from the memo), or is None for a parameter (``arg0`` its name). Every call of a block
    instantiates its summary's exit values again; the steps are made once per value (and kept
    with it, so its id is not reused meanwhile)."""
    hit = _TAPES.get(id(root))
    if hit is not None and hit[0] is root:
        return hit[1]
    tape: list[tuple[Any, ...]] = []
    for x in _post_order(root):
        if isinstance(x, Param):
            tape.append((id(x), None, False, x.name, False, None))
            continue
        assert isinstance(x, Op)
        a0 = x.args[0]
        a1 = x.args[1] if len(x.args) > 1 else None
        s0, s1 = isinstance(a0, Sym), isinstance(a1, Sym)
        tape.append((id(x), _operation(x), s0, id(a0) if s0 else a0, s1, id(a1) if s1 else a1))
    _TAPES[id(root)] = (root, tape)
    if len(_TAPES) > _TAPES_MAX:
        _TAPES.popitem(last=False)
    return tape


_OPERATIONS: dict[tuple[str, str, tuple[IntType, ...]], Any] = {}


def _operation(x: Op) -> Any:
    """The function ``(a, b) -> value`` of an operation node, with ``cfa.semantics``' meaning and
    None for "no single value" (an operand without one gives none, except that x*0 and x&0 are
    0, as in the concrete evaluation)."""
    key = (x.kind, x.op, x.types)
    fn = _OPERATIONS.get(key)
    if fn is None:
        fn = _OPERATIONS[key] = _make_operation(*key)
    return fn


def _make_operation(kind: str, op: str, types: tuple[IntType, ...]) -> Any:
    if kind == "u":
        t = types[0]

        def unary_op(a, _b):
            return None if a is None else eval_unary(op, a, t)

        return unary_op
    if kind == "c":
        t = types[0]

        def cast_op(a, _b):
            return None if a is None else eval_cast(a, t)

        return cast_op
    left_t, result_t = types
    absorbing = op in ("*", "&")
    arith = binary_function(op, left_t, result_t)

    def binary_op(a, b):
        if a is None or b is None:
            return 0 if absorbing and (a == 0 or b == 0) else None
        return arith(a, b)

    return binary_op


# ---- persistence and display ----------------------------------------------------------------
class Encoder:
    """JSON for the symbolic values of one state: a table of shared nodes, so an expression
    is stored in the size of its DAG, and values that refer into it (an int stays an int,
    a node is ``[index]``). The numbering follows the order values are encoded in, so equal
    states encode equally."""

    def __init__(self) -> None:
        self.nodes: list[Any] = []
        self._index: dict[int, int] = {}

    def value(self, v: Any) -> Any:
        if not isinstance(v, Sym):
            return v
        return [self._node(v)]

    def _node(self, root: Sym) -> int:
        stack: list[tuple[Sym, bool]] = [(root, False)]
        while stack:
            v, ready = stack.pop()
            if id(v) in self._index:
                continue
            if isinstance(v, Param):
                self._index[id(v)] = len(self.nodes)
                self.nodes.append(["p", v.name])
                continue
            assert isinstance(v, Op)
            if not ready:
                stack.append((v, True))
                stack.extend((a, False) for a in reversed(v.args) if isinstance(a, Sym))
                continue
            index = self._index
            args = [[index[id(a)]] if isinstance(a, Sym) else a for a in v.args]
            codes = _CODES.get(v.types)
            if codes is None:
                codes = _CODES[v.types] = [_type_code(t) for t in v.types]
            index[id(v)] = len(self.nodes)
            self.nodes.append([v.kind, v.op, codes, args])
        return self._index[id(root)]


class Decoder:
    def __init__(self, nodes: Any):
        if not isinstance(nodes, list):
            raise ValueError("symbolic node table is not a list")
        # A new process decodes every stored summary it instantiates (a leaf's is a DAG of
        # about a thousand nodes): one pass, with the type tuples shared through a memo.
        built: list[Sym] = []
        self.built = built
        types_of = _TYPE_TUPLES
        for n in nodes:
            if n[0] == "p":
                built.append(Param(str(n[1])))
                continue
            kind, op, types, args = n
            if kind not in ("b", "u", "c"):
                raise ValueError(f"unknown symbolic operation {kind!r}")
            codes = tuple(types)
            ts = types_of.get(codes)
            if ts is None:
                ts = types_of[codes] = tuple(_type_of(t) for t in codes)
            values: list[Any] = []  # (Sym, int or None)
            for a in args:
                if a is None or (type(a) is int):
                    values.append(a)
                elif type(a) is list and len(a) == 1 and type(a[0]) is int and 0 <= a[0] < len(built):
                    values.append(built[a[0]])
                else:
                    values.append(self.value(a))  # anything else: checked (and refused) there
            built.append(Op(kind, str(op), ts, tuple(values)))

    def value(self, d: Any) -> Any:
        if isinstance(d, int) and not isinstance(d, bool):
            return d
        if isinstance(d, list) and len(d) == 1 and isinstance(d[0], int) and 0 <= d[0] < len(self.built):
            return self.built[d[0]]
        raise ValueError(f"not a symbolic value: {d!r}")


_TYPES: dict[str, IntType] = {}
_TYPE_TUPLES: dict[tuple[Any, ...], tuple[IntType, ...]] = {}
_CODES: dict[tuple[IntType, ...], list[str]] = {}


def _type_code(t: IntType) -> str:
    return f"{t.name}/{t.bits}/{int(t.signed)}/{t.rank}"


def _type_of(code: Any) -> IntType:
    t = _TYPES.get(code)
    if t is None:
        name, bits, signed, rank = str(code).rsplit("/", 3)
        t = _TYPES[code] = IntType(name, int(bits), signed == "1", int(rank))
    return t


def canonical_json(v: Any) -> str:
    """A text for ordering values deterministically (independent of hashing and identity)."""
    enc = Encoder()
    ref = enc.value(v)
    return json.dumps([ref, enc.nodes])


def render(v: Any, limit: int = RENDER_LIMIT) -> str:
    """C-like text of a symbolic value, shortened to about ``limit`` characters."""
    out: list[str] = []
    budget = [limit]

    def emit(s: str) -> None:
        budget[0] -= len(s)
        out.append(s)

    def go(x: Any, outer: bool = False) -> None:
        if budget[0] <= 0:
            return
        if not isinstance(x, Sym):
            emit(str(x))
        elif isinstance(x, Param):
            emit(x.name.split("::")[-1])
        elif isinstance(x, Op) and x.kind == "b":
            emit("" if outer else "(")
            go(x.args[0])
            emit(f" {x.op} ")
            go(x.args[1])
            emit("" if outer else ")")
        elif isinstance(x, Op) and x.kind == "u":
            emit(x.op)
            go(x.args[0])
        else:
            assert isinstance(x, Op)
            emit(f"({x.types[0].name})")
            go(x.args[0])

    go(v, outer=True)
    text = "".join(out)
    return text if budget[0] >= 0 else text[:limit] + "…"


# ---- which functions are generalized ------------------------------------------------------------
def generalizable(fn: FunctionCFA, int_vars: set[str]) -> bool:
    """Whether analysing ``fn`` with symbolic parameters is bounded and cannot lose a target.

    The function calls nothing and contains no error location (a target found under one
    entry must not be reported for another); it only computes with plain integer variables
    (no memory, no aggregates, no nondeterminism); and its control flow depends on its
    parameters only through a few branches outside loops, so the symbolic analysis
    explores at most 2^MAX_BRANCH_SITES times the paths of a concrete one and never a loop
    whose trip count is symbolic.
    """
    if not fn.params or any(p not in int_vars for p in fn.params):
        return False
    for n in fn.nodes:
        if n.error is not None:
            return False
    edges = list(fn.edges())
    plain = (Const, Var, Binary, Unary, Cast)
    exprs: list[tuple[Any, Expr | None]] = []
    for e in edges:
        if isinstance(e, DeclEdge):
            assert e.var is not None
            if e.var.name not in int_vars or (e.init is not None and isinstance(e.init, Nondet)):
                return False
            exprs.append((e.var.name, e.init))
        elif isinstance(e, AssignEdge):
            if not isinstance(e.lhs, Var) or e.lhs.name not in int_vars or isinstance(e.rhs, Nondet):
                return False
            exprs.append((e.lhs.name, e.rhs))
        elif isinstance(e, ReturnEdge):
            if e.result_var is not None and e.result_var.name not in int_vars:
                return False
            exprs.append((e.result_var.name if e.result_var is not None else None, e.value))
        elif isinstance(e, AssumeEdge):
            exprs.append((None, e.cond))
        elif not isinstance(e, BlankEdge | AbortEdge):
            return False  # calls (internal or external) and anything else
    for _, x in exprs:
        if x is not None and any(not isinstance(n, plain) or (isinstance(n, Var) and n.name not in int_vars)
                                 for n in x.walk()):
            return False
    # Variables whose value depends on a parameter (flow-insensitively).
    tainted = set(fn.params)
    changed = True
    while changed:
        changed = False
        for target, x in exprs:
            if target is not None and target not in tainted and x is not None and x.variables() & tainted:
                tainted.add(target)
                changed = True
    in_loop = _nodes_in_cycles(fn)
    sites: set[int] = set()
    for e in edges:
        if isinstance(e, AssumeEdge) and e.cond is not None and e.cond.variables() & tainted:
            if e.pred in in_loop:
                return False
            sites.add(id(e.pred))
    return len(sites) <= MAX_BRANCH_SITES


def _nodes_in_cycles(fn: FunctionCFA) -> set:
    """Nodes on some cycle of the function's CFA."""
    succs: dict[str, set[str]] = {str(i): set() for i in range(len(fn.nodes))}
    number = {id(n): str(i) for i, n in enumerate(fn.nodes)}
    for n in fn.nodes:
        succs[number[id(n)]] |= {number[id(e.succ)] for e in n.out if id(e.succ) in number}
    cyclic = {v for comp in tarjan(succs) for v in comp if len(comp) > 1 or v in succs[v]}
    return {n for n in fn.nodes if number[id(n)] in cyclic}
