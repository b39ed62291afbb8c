"""The interval analysis's invariants, offered to other engines (the registry's ``invariants``).

k-induction's step case starts from an arbitrary state at a loop head; what the interval
analysis knows there (a variable the loop never writes keeps its value, a counter stays
non-negative) rules out states no run reaches. This is the analysis's own domain and transfer
(cpa.py), run to a fixpoint over the whole program once, without BAM: a function's entry state
joins its calls' (its facts hold for every call), and a call's return takes the caller's
locals from the call and the globals and result from the callee's exit. Joins everywhere,
widening at loop heads after ``WIDEN_DELAY`` visits.

The facts are linear atoms (``("<=", (("x", 1),), 10)``: ``x <= 10``), keyed by location
(function, canonical node index), as the registry documents. Whoever uses them checks them
first (k-induction keeps those Houdini proves inductive), so an imprecision here costs a
candidate, never a verdict.
"""

from __future__ import annotations

import time
from collections import deque
from typing import Any

from ...cfa.cfa import FunctionCFA, Program
from ...cfa.ctype import IntType
from ...cfa.ir import CallEdge, CFANode
from .cpa import IntervalCPA, IntervalState

WIDEN_DELAY = 3  # visits of a loop head joined before widening
MAX_VISITS = 200_000  # node visits in all: past this the program is too large for a moment's analysis

Location = tuple[str, int]
Fact = tuple[str, tuple[tuple[str, int], ...], int]


def invariants(program: Program, precision: Any, deadline: float) -> dict[Location, list[Fact]]:
    """The interval facts at every location the analysis reaches (nothing if it does not reach
    its fixpoint by ``deadline``). ``precision`` is unused: the domain has none."""
    states = fixpoint(program, deadline)
    if states is None:
        return {}
    out: dict[Location, list[Fact]] = {}
    for node, s in states.items():
        facts = [f for name, itv in sorted(s.m.items()) for f in _facts(program, name, itv)]
        if facts:
            out[(node.function, node.canon)] = facts
    return out


def fixpoint(program: Program, deadline: float) -> dict[CFANode, IntervalState] | None:
    """The interval state at each reachable node, or None (out of time or visits, or an edge
    the domain does not handle)."""
    cpa = IntervalCPA(program)
    at: dict[CFANode, IntervalState] = {}
    visits: dict[CFANode, int] = {}
    calls: dict[str, set[CallEdge]] = {}  # callee -> its calls reached so far
    exits = {f.exit: f for f in program.all_functions()}
    work: deque[CFANode] = deque()

    def put(node: CFANode, s: IntervalState) -> None:
        old = at.get(node)
        if old is not None:
            if cpa.is_less_or_equal(s, old):
                return
            s = cpa.join(old, s)
            visits[node] = visits.get(node, 0) + 1
            if node.loop_head and visits[node] > WIDEN_DELAY:
                s = cpa.widen(old, s)
        at[node] = s
        work.append(node)

    put(program.start.entry, cpa.initial(program.start.entry))
    count = 0
    while work:
        count += 1
        if count > MAX_VISITS or count % 256 == 0 and time.monotonic() > deadline:
            return None
        node = work.popleft()
        s = at[node]
        callee_of = exits.get(node)
        if callee_of is not None:
            for call in calls.get(callee_of.name, ()):
                if call.pred in at:
                    put(call.succ, _returned(cpa, at[call.pred], s, call, callee_of))
        for e in node.out:
            if isinstance(e, CallEdge):
                callee = program.function_of_name(e.callee)
                calls.setdefault(callee.name, set()).add(e)
                for s2 in cpa.call_entry(s, e, callee, None):
                    put(callee.entry, s2)
                if callee.exit in at:
                    put(e.succ, _returned(cpa, s, at[callee.exit], e, callee))
                continue
            try:
                succ = cpa.transfer(s, e, None)
            except TypeError:
                return None
            for s2 in succ:
                put(e.succ, s2)
    return at


def _returned(cpa: IntervalCPA, call: IntervalState, exit_: IntervalState, edge: CallEdge,
              callee: FunctionCFA) -> IntervalState:
    """After the call: the caller's locals as at the call (the callee may have written those
    whose address is taken), the globals and the result as at the callee's exit."""
    m = {k: v for k, v in call.m.items()
         if k not in cpa.globals and k not in cpa.addressed and k != callee.result_var}
    m.update((k, v) for k, v in exit_.m.items() if k in cpa.globals or k == callee.result_var)
    return cpa.return_to(IntervalState(m), edge, callee, None)[0]


def _facts(program: Program, name: str, itv: tuple[int, int]) -> list[Fact]:
    """What an interval says beyond its variable's type."""
    info = program.vars.get(name)
    t = info.type if info is not None else None
    if not isinstance(t, IntType):
        return []
    lo, hi = itv
    if lo == hi:
        return [("==", ((name, 1),), lo)]
    out: list[Fact] = []
    if lo > t.min:
        out.append(("<=", ((name, -1),), -lo))
    if hi < t.max:
        out.append(("<=", ((name, 1),), hi))
    return out
