"""Acceleration of simple counting loops: the loop's effect in closed form, instead of its
iterations.

A loop qualifies when its body is one straight path (no branch, call, declaration or memory
access) whose only effects are ``v = v + d`` for constants ``d`` and ``x = c`` for constants
``c``, and when its condition compares one of the advancing variables, ``i``, with a constant
``N`` in the direction ``i`` moves (``i < N`` with ``d > 0``, ``i >= N`` with ``d < 0``, ...;
``i != N`` for an unsigned ``i`` stepping by one). Its iteration count is then a function of
``i`` alone, and the loop is replaced by::

    if (cond) { v = (T)((unsigned long long)v + n * d) for each v; x = c; i = ... }

with ``n`` computed from ``i`` and ``N``, the whole sum in unsigned 64-bit arithmetic and then
converted to the variable's type: modulo 2^width, as the iterations compute it (cbam wraps
signed overflow as gcc does). The step is exact only when ``i`` itself never wraps on the way
to ``N``: the constant bound and step decide that statically (``N + d - 1`` must fit ``i``'s
type for ``i < N``), and a loop for which it does not hold is left alone. So the accelerated
CFA has the program's exact semantics, and every analysis, the path check and the harness read
it without knowing about acceleration; value analysis no longer enumerates a million
iterations, and predicate analysis, Spacer and k-induction see a loop-free path.
"""

from __future__ import annotations

from collections.abc import Callable

from .ctype import DataModel, IntType
from .ir import AssignEdge, AssumeEdge, Binary, BlankEdge, Cast, CFANode, Const, Edge, Expr, Var

MAX_BODY = 64  # edges on the body's path
MAX_STEP = 1 << 16  # |d|: keeps n * d far from 64-bit overflow
_FLIP = {"<": ">", ">": "<", "<=": ">=", ">=": "<=", "!=": "!=", "==": "=="}


def accelerate(nodes: list[CFANode], new_node: Callable[[], CFANode], link: Callable[[Edge], object],
               dm: DataModel) -> int:
    """Replace every qualifying loop among ``nodes`` (a function's, before finalize); returns how many."""
    done = 0
    for head in list(nodes):
        plan = _plan(head)
        if plan is None:
            continue
        _rewrite(head, plan, new_node, link, dm)
        done += 1
    return done


class _Plan:
    def __init__(self, enter: AssumeEdge, leave: AssumeEdge, var: Var, op: str, bound: int,
                 steps: dict[str, tuple[Var, int]], sets: dict[str, tuple[Var, Const]]):
        self.enter, self.leave, self.var, self.op, self.bound = enter, leave, var, op, bound
        self.steps, self.sets = steps, sets


def _plan(head: CFANode) -> _Plan | None:
    if not head.loop_head or len(head.out) != 2 or not all(isinstance(e, AssumeEdge) for e in head.out):
        return None
    first = head.out[0]
    enter, leave = head.out if isinstance(first, AssumeEdge) and first.truth else head.out[::-1]
    assert isinstance(enter, AssumeEdge) and isinstance(leave, AssumeEdge)
    if not enter.truth or leave.truth or enter.cond is None or leave.cond is None \
            or enter.cond.canon() != leave.cond.canon() or len(head.inn) != 2:
        return None
    body = _path(enter.succ, head)
    if body is None:
        return None
    steps: dict[str, tuple[Var, int]] = {}
    sets: dict[str, tuple[Var, Const]] = {}
    for e in body:
        if isinstance(e, BlankEdge):
            continue
        if not isinstance(e, AssignEdge) or not isinstance(e.lhs, Var) or not isinstance(e.lhs.type, IntType) \
                or e.lhs.type.bits > 64 or e.lhs.name in steps or e.lhs.name in sets:
            return None
        if isinstance(e.rhs, Const):
            sets[e.lhs.name] = (e.lhs, e.rhs)
            continue
        d = None if e.lhs.type.is_bool else _step(e.lhs, e.rhs)  # conversion to _Bool is not modular
        if d is None:
            return None
        steps[e.lhs.name] = (e.lhs, d)
    guard = _guard(enter.cond, steps)
    if guard is None:
        return None
    var, op, bound = guard
    return _Plan(enter, leave, var, op, bound, steps, sets)


def _path(start: CFANode, head: CFANode) -> list[Edge] | None:
    """The body's edges from ``start`` back to ``head``, if the body is one straight path."""
    out: list[Edge] = []
    n = start
    while n is not head:
        if len(n.out) != 1 or len(n.inn) != 1 or n.error is not None or len(out) >= MAX_BODY:
            return None
        e = n.out[0]
        out.append(e)
        n = e.succ
    return out


def _widening(e: Expr) -> Var | None:
    """The variable ``e`` reads, through conversions that keep every value of its type."""
    while isinstance(e, Cast):
        inner = e.arg.type
        if not (isinstance(e.type, IntType) and isinstance(inner, IntType)
                and e.type.min <= inner.min and inner.max <= e.type.max):
            return None
        e = e.arg
    return e if isinstance(e, Var) and isinstance(e.type, IntType) else None


def _step(lhs: Var, rhs: Expr | None) -> int | None:
    """``d`` when ``lhs = rhs`` is ``lhs = lhs + d`` modulo lhs's width."""
    assert isinstance(lhs.type, IntType)
    if isinstance(rhs, Cast) and rhs.type == lhs.type:
        rhs = rhs.arg  # the conversion back to lhs's type: modulo its width, as the closed form
    if not isinstance(rhs, Binary) or rhs.op not in ("+", "-") or not isinstance(rhs.type, IntType) \
            or rhs.type.bits < lhs.type.bits:
        return None
    for a, b, sign in ((rhs.left, rhs.right, 1), (rhs.right, rhs.left, 1 if rhs.op == "+" else 0)):
        v = _widening(a)
        if v is not None and v.name == lhs.name and isinstance(b, Const) and sign:
            d = b.value if rhs.op == "+" else -b.value
            return d if 0 < abs(d) < MAX_STEP else None
    return None


def _guard(cond: Expr, steps: dict[str, tuple[Var, int]]) -> tuple[Var, str, int] | None:
    """(i, op, N) for a condition ``i op N`` on an advancing variable whose iterations end
    without ``i`` wrapping, whatever value ``i`` starts with."""
    if not isinstance(cond, Binary) or cond.op not in _FLIP:
        return None
    for a, b, op in ((cond.left, cond.right, cond.op), (cond.right, cond.left, _FLIP[cond.op])):
        v = _widening(a)
        if v is None or v.name not in steps or not isinstance(b, Const):
            continue
        t = v.type
        assert isinstance(t, IntType)
        d, n = steps[v.name][1], b.value
        if t.bits > 32 or t.is_bool:
            return None
        ok = {"<": d > 0 and n + d - 1 <= t.max, "<=": d > 0 and n + d <= t.max,
              ">": d < 0 and n + d + 1 >= t.min, ">=": d < 0 and n + d >= t.min,
              "!=": abs(d) == 1 and not t.signed and t.min <= n <= t.max}.get(op, False)
        return (v, op, n) if ok else None
    return None


def _rewrite(head: CFANode, plan: _Plan, new_node: Callable[[], CFANode], link: Callable[[Edge], object],
             dm: DataModel) -> None:
    """The loop's true branch now leads, through the closed-form assignments, to where its false
    branch leads; the body is left unreachable (finalize drops it)."""
    wide, uwide = dm.llong, dm.ullong
    i, bound = plan.var, plan.bound
    d = plan.steps[i.name][1]

    def c(v: int, t: IntType = wide) -> Const:
        return Const(v, t)

    def bin_(op: str, a: Expr, b: Expr, t: IntType = wide) -> Binary:
        return Binary(op, a, b, t)

    iw = Cast(i, wide)
    if plan.op == "!=":  # unsigned, one step at a time: (N - i) mod 2^width, or (i - N)
        assert isinstance(i.type, IntType)
        diff = bin_("-", c(bound), iw) if d > 0 else bin_("-", iw, c(bound))
        count: Expr = bin_("%", bin_("+", diff, c(1 << i.type.bits)), c(1 << i.type.bits))
    else:
        a = abs(d)
        diff = bin_("-", c(bound), iw) if d > 0 else bin_("-", iw, c(bound))
        strict = plan.op in ("<", ">")
        count = bin_("/", bin_("+", diff, c(a - 1)), c(a)) if strict else bin_("+", bin_("/", diff, c(a)), c(1))
    n = Cast(count, uwide)
    rng, text = plan.enter.range, plan.enter.text
    while_ = f"while `{text}`" if text else "while the loop runs"
    effects: list[tuple[Var, Expr, str]] = []
    for v, dv in plan.steps.values():
        assert isinstance(v.type, IntType)
        total = bin_("+", Cast(v, uwide), bin_("*", n, c(dv % (1 << 64), uwide), uwide), uwide)
        effects.append((v, Cast(total, v.type),
                        f"{v} {'+' if dv > 0 else '-'}= {abs(dv)} on each iteration {while_} (loop accelerated)"))
    effects += [(v, k, f"{v} = {k} (loop accelerated)") for v, k in plan.sets.values()]
    # The guard's variable last: every other closed form reads its value from before the loop.
    effects.sort(key=lambda e: e[0].name == i.name)
    # The true branch leaves the old body (finalize drops it, and with it the back edge) for the
    # closed form, which ends where the false branch does.
    enter = plan.enter
    enter.succ.inn.remove(enter)
    cur = new_node()
    enter.succ = cur
    cur.inn.append(enter)
    for k, (v, rhs, label) in enumerate(effects):
        nxt = plan.leave.succ if k == len(effects) - 1 else new_node()
        link(AssignEdge(pred=cur, succ=nxt, range=rng, text=label, lhs=v, rhs=rhs))
        cur = nxt
    head.loop_head = False
