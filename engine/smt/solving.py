"""Solver calls with a time limit that holds, and C's integer conversions on bit-vectors:
what every engine that talks to z3 shares. Light to import (z3 itself is loaded on first use,
engine/smt/lazy_z3.py), so an analysis that builds formulas only in some runs does not load the
path encoding (cex/encoding.py) with it.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Iterator

import z3

from ..cfa.ctype import IntType
from .time_limit import solver_timeout


def subterms(*terms: z3.ExprRef, into: Callable[[z3.ExprRef], bool] | None = None) -> Iterator[z3.ExprRef]:
    """Each distinct subterm of ``terms`` once (z3 terms are DAGs: a tree walk can take
    exponential time), descending into those ``into`` accepts (by default every application).
    (No z3 function as a default: that would load z3 with this module.)"""
    if into is None:
        into = z3.is_app
    todo = list(terms)
    seen: set[int] = set()
    while todo:
        t = todo.pop()
        i = t.get_id()
        if i in seen:
            continue
        seen.add(i)
        yield t
        if into(t):
            todo.extend(t.children())


def conj(fs: list[z3.BoolRef]) -> z3.BoolRef:
    """``z3.And(fs)`` without its per-argument coercion, which in the predicate analysis cost more
    than the solver (token_ring.01: 9.6 s of 60)."""
    return _nary(z3.Z3_mk_and, fs, True)


def disj(fs: list[z3.BoolRef]) -> z3.BoolRef:
    """``z3.Or(fs)``, likewise."""
    return _nary(z3.Z3_mk_or, fs, False)


def _nary(mk: Callable, fs: list[z3.BoolRef], unit: bool) -> z3.BoolRef:
    if not fs:
        return z3.BoolVal(unit)
    if len(fs) == 1:
        return fs[0]
    ctx = fs[0].ctx
    args = (z3.Ast * len(fs))(*(f.as_ast() for f in fs))
    return z3.BoolRef(mk(ctx.ref(), len(fs), args), ctx)


class _Watchdog:
    """One thread that interrupts z3 checks running past their time (instead of a timer thread
    per check: path exploration makes thousands of small checks)."""

    def __init__(self) -> None:
        self.cond = threading.Condition()
        self.watched: dict[int, tuple[float, z3.Context]] = {}
        self.fired: dict[int, z3.Context] = {}  # interrupted, not yet disarmed
        self.token = 0
        self.thread: threading.Thread | None = None

    def reset(self) -> None:
        """In a forked child (pipeline/beside.py): the parent's thread is not there, and its
        lock may have been held at the fork."""
        self.cond = threading.Condition()
        self.watched = {}
        self.fired = {}
        self.thread = None

    def arm(self, ctx: z3.Context, deadline: float) -> int:
        with self.cond:
            if self.thread is None or not self.thread.is_alive():
                self.thread = threading.Thread(target=self._loop, name="cbam-z3-watchdog", daemon=True)
                self.thread.start()
            self.token += 1
            self.watched[self.token] = (deadline, ctx)
            self.cond.notify()
            return self.token

    def disarm(self, token: int) -> None:
        """The check is over. If its interrupt came (the thread holds the lock while it
        interrupts, so none comes after this), the context is cleared of it: z3 keeps a
        context cancelled until its next check, and a check that answered just before its
        deadline would otherwise have its model fail to evaluate ("canceled", an internal
        error that differential fuzzing hit in 1 run of 700)."""
        with self.cond:
            self.watched.pop(token, None)
            ctx = self.fired.pop(token, None)
        if ctx is not None:
            z3.Solver(ctx=ctx).check()  # an empty check clears the cancellation

    def _loop(self) -> None:
        with self.cond:
            while True:
                if not self.watched:
                    self.cond.wait()
                    continue
                now = time.monotonic()
                for token, (deadline, ctx) in list(self.watched.items()):
                    if now >= deadline:
                        try:
                            ctx.interrupt()
                        except z3.Z3Exception:
                            # z3 reports an error the context already holds (a search it cancelled
                            # itself): the interrupt still stands, and this thread must live on,
                            # or no later check would be stopped at its time.
                            pass
                        del self.watched[token]
                        self.fired[token] = ctx
                if self.watched:
                    self.cond.wait(max(0.0, min(d for d, _ in self.watched.values()) - now))


solver_watchdog = _Watchdog()
if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=solver_watchdog.reset)


def check_within(solver: z3.Solver, timeout_ms: int, *assumptions: z3.BoolRef) -> z3.CheckSatResult:
    """``solver.check(*assumptions)`` that returns by its time limit: z3 honours "timeout" only
    between steps, and preprocessing a large array formula can take far longer; so the watchdog
    interrupts the context as well (an interrupted check answers unknown)."""
    ms = solver_timeout(timeout_ms)
    solver.set("timeout", ms)
    token = solver_watchdog.arm(solver.ctx, time.monotonic() + ms / 1000 + 0.05)
    try:
        return solver.check(*assumptions)
    finally:
        solver_watchdog.disarm(token)


def lean_solver(ctx: z3.Context | None = None) -> z3.Solver:
    """A solver for one question: simplification, propagation, elimination of definitions and
    bit-blasting into SAT. On formulas that define each step's values from the last (a path's
    SSA form), it answers in a fraction of a second what z3's incremental solvers, which skip
    that preprocessing, take seconds or minutes for: the sums of an array before and after a
    permutation are the same term once the definitions are substituted (array-crafted/mapavg1:
    0.02 s against a timeout)."""
    return z3.Then("simplify", "propagate-values", "solve-eqs", "simplify", "bit-blast", "sat", ctx=ctx).solver()


OUT_OF_TIME = ("timeout", "canceled", "interrupted")  # reason_unknown() when a check ran out of time


def check_alone(facts: list[z3.BoolRef], timeout_ms: int,
                fallback: Callable[[], z3.Solver] | None = None) -> tuple[z3.CheckSatResult, z3.Solver]:
    """One question in a solver of its own: ``lean_solver`` first, then ``fallback`` where that
    gives up for another reason than time (bit-blasting does not apply to memory as an array).
    The answer, and the solver that gave it (for its model or its reason). (No default of
    ``z3.Solver`` in the signature: reading it would load z3 with this module.)"""
    for make in (lean_solver, fallback or z3.Solver):
        solver = make()
        solver.add(facts)
        res = check_within(solver, timeout_ms)
        if res != z3.unknown or solver.reason_unknown() in OUT_OF_TIME:
            break
    return res, solver


MAX_FLAT = 50_000  # operands of one flattened application, at most
_AC = None  # the associative and commutative operators flat_ac gathers (set on first use: z3 loads lazily)


def flat_ac(facts: list[z3.BoolRef], done: dict[int, tuple[z3.ExprRef, z3.ExprRef]] | None = None
            ) -> list[z3.BoolRef]:
    """``facts`` with every chain of one associative, commutative operation (``+``, ``&``,
    ``|``, ``^`` on bit-vectors) as one application over all its operands, in linear time;
    shared subterms are rebuilt once. ``done``: what earlier calls flattened (a term's id ->
    it, flattened), read and added to, so that questions about the same deep values (a
    branch's condition and its negation) walk them once."""
    global _AC
    if _AC is None:
        _AC = {z3.Z3_OP_BADD, z3.Z3_OP_BAND, z3.Z3_OP_BOR, z3.Z3_OP_BXOR}
    memo: dict[int, tuple[z3.ExprRef, z3.ExprRef]] = {} if done is None else done  # (the key's term kept alive)

    def operands(u: z3.ExprRef, kind: int) -> list[z3.ExprRef]:
        out: list[z3.ExprRef] = []
        todo = [u.arg(i) for i in reversed(range(u.num_args()))]
        expanded: set[int] = set()
        while todo:
            x = todo.pop()
            # A subterm met again stays one operand: a chain that shares its subterms
            # (``s = s + s``) would flatten into exponentially many.
            if len(out) + len(todo) < MAX_FLAT and z3.is_app(x) and x.decl().kind() == kind \
                    and x.get_id() not in expanded:
                expanded.add(x.get_id())
                todo.extend(x.arg(i) for i in reversed(range(x.num_args())))
            else:
                out.append(x)
        return out

    todo: list[tuple[z3.ExprRef, bool]] = [(f, False) for f in facts]
    while todo:
        u, ready = todo.pop()
        if u.get_id() in memo:
            continue
        if not z3.is_app(u) or u.num_args() == 0:
            memo[u.get_id()] = (u, u)
            continue
        kind = u.decl().kind()
        kids = operands(u, kind) if kind in _AC else [u.arg(i) for i in range(u.num_args())]
        missing = [k for k in kids if k.get_id() not in memo]
        if missing and not ready:
            todo.append((u, True))
            todo.extend((k, False) for k in missing)
            continue
        args = [memo[k.get_id()][1] for k in kids]
        if all(a.eq(k) for a, k in zip(args, kids)) and len(kids) == u.num_args():
            memo[u.get_id()] = (u, u)
        else:
            arr = (z3.Ast * len(args))(*(a.as_ast() for a in args))
            memo[u.get_id()] = (u, z3.z3._to_expr_ref(z3.Z3_mk_app(u.ctx_ref(), u.decl().ast, len(args), arr), u.ctx))
    return [memo[f.get_id()][1] for f in facts]


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
