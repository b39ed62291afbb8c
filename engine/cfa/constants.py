"""Variables that hold one constant wherever they are read.

``int n = 1000; int A[n][n];`` declares a variable-length array (its hidden lengths copy ``n``)
whose every access is ``A[i*n + j]``: a product of two variables, which linear encodings (the
Horn clauses over the integers) give up on, though ``n`` can only ever be 1000 where it is read.
A local integer variable is *fixed* here when its address is never taken, exactly one edge
writes it (its declaration without a value aside), with a constant or a fixed variable
(converted to its type), and that edge lies on every path from the function's entry to every
edge that reads it. Such a variable reads as
its constant on every execution, so an encoding may use the constant in its place.
"""

from __future__ import annotations

from .cfa import FunctionCFA, Program
from .ctype import IntType
from .ir import (
    AssignEdge,
    CallEdge,
    Cast,
    CFANode,
    Const,
    DeclEdge,
    Edge,
    Expr,
    ExternalCallEdge,
    ReturnEdge,
    Var,
)


def fixed_values(program: Program) -> dict[str, int]:
    """Variable name -> the constant it holds wherever it is read."""
    out: dict[str, int] = {}
    for f in program.all_functions():
        out.update(_fixed_in(program, f))
    return out


def _fixed_in(program: Program, f: FunctionCFA) -> dict[str, int]:
    candidates = {n for n, v in program.vars.items() if v.function == f.name and not v.addressed
                  and not v.is_param and isinstance(v.type, IntType)}
    if not candidates:
        return {}
    writes: dict[str, list[Edge]] = {}
    reads: dict[str, list[Edge]] = {}
    for e in f.edges():
        w = _written(e)
        if isinstance(e, DeclEdge) and e.init is None and not e.lengths:
            # ``int m; m = n;``: a declaration without a value writes nothing a read after the
            # write (which the dominance below requires) could see. Declaring again would make
            # the value indeterminate, but a path from the declaration to a read that misses
            # the write would also miss it from the entry; and a block entered again declares
            # the variable before its write, in scope.
            continue
        if w is not None and w in candidates:
            writes.setdefault(w, []).append(e)
        for x in _read_exprs(e):
            for v in x.variables():
                if v in candidates:
                    reads.setdefault(v, []).append(e)
    single = {v: es[0] for v, es in writes.items() if len(es) == 1 and len(es[0].succ.inn) == 1}
    if not single:
        return {}
    dom = _Dominators(f)
    fixed: dict[str, int] = {}
    changed = True
    while changed:  # a fixed variable's value may come from another (the hidden copies of lengths)
        changed = False
        for v, write in single.items():
            if v in fixed:
                continue
            value = _value(_written_value(write), program.vars[v].type, fixed)
            if value is None:
                continue
            if all(dom.dominates(write.succ, e.pred) for e in reads.get(v, [])):
                fixed[v] = value
                changed = True
    return fixed


def _written(e: Edge) -> str | None:
    if isinstance(e, DeclEdge):
        return e.var.name if e.var is not None else None
    if isinstance(e, AssignEdge | CallEdge | ExternalCallEdge):
        return e.lhs.name if isinstance(e.lhs, Var) else None
    if isinstance(e, ReturnEdge):
        return e.result_var.name if e.result_var is not None else None
    return None


def _written_value(e: Edge) -> Expr | None:
    if isinstance(e, DeclEdge):
        return e.init if not e.lengths else None
    if isinstance(e, AssignEdge):
        return e.rhs
    return None  # a call's result, a return value: not a constant here


def _read_exprs(e: Edge) -> list[Expr]:
    if isinstance(e, DeclEdge):
        return [x for x in (e.init, *e.lengths) if x is not None]
    if isinstance(e, AssignEdge):
        # The target's own name is no read, but its index or pointer is.
        lhs = [] if isinstance(e.lhs, Var) or e.lhs is None else [e.lhs]
        return [*lhs, *([e.rhs] if e.rhs is not None else [])]
    if isinstance(e, CallEdge | ExternalCallEdge):
        lhs = [] if isinstance(e.lhs, Var) or e.lhs is None else [e.lhs]
        return [*lhs, *e.args]
    if isinstance(e, ReturnEdge):
        return [e.value] if e.value is not None else []
    cond = getattr(e, "cond", None)
    return [cond] if cond is not None else []


def _value(x: Expr | None, t, fixed: dict[str, int]) -> int | None:
    """The constant ``x`` evaluates to, converted to ``t``; None if it is not one."""
    if not isinstance(t, IntType):
        return None
    if isinstance(x, Cast):
        inner = _value(x.arg, x.arg.type, fixed)
        return None if inner is None else _convert(inner, t)
    if isinstance(x, Const) and isinstance(x.value, int) and isinstance(x.type, IntType):
        return _convert(x.value, t)
    if isinstance(x, Var) and x.name in fixed and isinstance(x.type, IntType):
        return _convert(fixed[x.name], t)
    return None


def _convert(v: int, t: IntType) -> int:
    if t.is_bool:
        return int(v != 0)
    return t.wrap(v)


class _Dominators:
    """Immediate dominators by Cooper, Harvey and Kennedy's iteration: ``dominates(a, b)``
    when ``a`` lies on every path from the entry to ``b`` (a node dominates itself; a node the
    entry does not reach is dominated by everything, as no execution gets there)."""

    def __init__(self, f: FunctionCFA):
        order = _reverse_postorder(f.entry)
        self.index = {id(n): k for k, n in enumerate(order)}
        idom: list[int] = [-1] * len(order)
        idom[0] = 0
        changed = True
        while changed:
            changed = False
            for k in range(1, len(order)):
                new = -1
                for e in order[k].inn:
                    p = self.index.get(id(e.pred), -1)
                    if p < 0 or idom[p] < 0:
                        continue
                    new = p if new < 0 else self._meet(idom, p, new)
                if new != idom[k]:
                    idom[k] = new
                    changed = True
        self.idom = idom

    @staticmethod
    def _meet(idom: list[int], a: int, b: int) -> int:
        while a != b:
            while a > b:
                a = idom[a]
            while b > a:
                b = idom[b]
        return a

    def dominates(self, a: CFANode, b: CFANode) -> bool:
        ia, ib = self.index.get(id(a)), self.index.get(id(b))
        if ib is None:
            return True
        if ia is None:
            return False
        while ib > ia:
            ib = self.idom[ib]
        return ib == ia


def _reverse_postorder(entry: CFANode) -> list[CFANode]:
    seen = {id(entry)}
    post: list[CFANode] = []
    stack: list[tuple[CFANode, int]] = [(entry, 0)]
    while stack:
        n, i = stack.pop()
        if i < len(n.out):
            stack.append((n, i + 1))
            s = n.out[i].succ
            if id(s) not in seen:
                seen.add(id(s))
                stack.append((s, 0))
        else:
            post.append(n)
    return post[::-1]
