"""Error paths rebuilt through nested, cached block abstractions.

A path is a list of steps: ``op`` (an intraprocedural edge), ``call`` (enter the callee
of a CallEdge) and ``return`` (leave it, assigning the result). Each call step opens a
fresh frame, so recursive instances of a function get their own variables.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..cfa.ir import CallEdge, CFANode, Edge, ErrorInfo
from .arg import ARGState, block_root
from .bam import TargetTrace


@dataclass(frozen=True)
class Step:
    """``summary`` is a whole call collapsed to its effect: the callee block is deterministic,
    its inputs are concrete and every exit agrees, so the call means exactly
    "arguments equal ``params``; result and globals become ``outputs``"."""

    kind: str  # "op" | "call" | "return" | "summary"
    edge: Edge

    @property
    def target(self) -> CFANode:
        """The location after this step."""
        if self.kind == "call":
            assert isinstance(self.edge, CallEdge) and self._callee_entry is not None
            return self._callee_entry
        return self.edge.succ

    _callee_entry: CFANode | None = None
    summary: dict | None = None


@dataclass
class ErrorPath:
    """The steps from the program's start to an error location."""

    steps: list[Step]
    error: ErrorInfo
    error_node: CFANode

    def frames(self) -> list[int]:
        """The frame id active *before* each step (call steps open frame ids in order)."""
        out = []
        stack = [0]
        next_id = 1
        for st in self.steps:
            out.append(stack[-1])
            if st.kind == "call":
                stack.append(next_id)
                next_id += 1
            elif st.kind == "return":
                stack.pop()
        return out


def _call_edge_at(state: ARGState) -> CallEdge:
    for e in state.location.out:
        if isinstance(e, CallEdge):
            return e
    raise ValueError("no call edge at a call state")


def _within_block(s: ARGState, program, bam=None, poll: Callable[[], None] = lambda: None) -> list[Step]:
    """Steps from the root of ``s``'s block analysis to ``s``, splicing summaries. ``poll`` raises
    when the run's time is up: a path through unrolled recursion can have millions of steps."""
    if s.origin is not None:
        if bam is None:
            raise ValueError("a path through a cached block needs the BAM instance to rebuild it")
        s = bam.rematerialize(s)
    chain: list[ARGState] = []
    cur: ARGState | None = s
    while cur is not None and cur.parent is not None:
        chain.append(cur)
        cur = cur.parent
    chain.reverse()
    steps: list[Step] = []
    for st in chain:
        poll()
        assert st.edge is not None
        if st.summary_exit is not None and isinstance(st.edge, CallEdge):
            collapsed = _collapse(st, program, bam)
            if collapsed is not None:
                steps.append(collapsed)
                continue
            callee = program.functions[st.edge.callee]
            steps.append(Step("call", st.edge, callee.entry))
            steps.extend(_within_block(st.summary_exit, program, bam, poll))
            steps.append(Step("return", st.edge))
        else:
            steps.append(Step("op", st.edge))
    return steps


def _collapse(st: ARGState, program, bam) -> Step | None:
    if bam is None:
        return None
    edge = st.edge
    assert isinstance(edge, CallEdge)
    block = bam.blocks[edge.callee]
    if not block.deterministic:
        return None
    ex = st.summary_exit
    assert ex is not None and st.parent is not None  # (a call's state, with its callee's exit)
    reduced = ex.origin[1] if ex.origin is not None else block_root(ex).state
    res = bam.cache.get(bam.key(block, reduced, bam.prec))
    if res is None or res.targets or res.dependent or not res.exits:
        return None
    callee = program.functions[edge.callee]
    # The call's own reduced entry (the block may have been analysed under a generalized one).
    own = None
    for entry in bam.cpa.call_entry(st.parent.state, edge, callee, bam.prec):
        r = bam.cpa.reduce(entry, block, bam.prec)
        if r == reduced or bam.cpa.generalize(r, block, bam.prec) == reduced:
            own = r
            break
    if own is None:
        return None
    entry_vals = bam.cpa.concrete_values(own)
    if any(v not in entry_vals for v in block.inputs):
        return None
    outputs = [callee.result_var] if callee.result_var else []
    outputs += sorted(g for g in block.inputs if program.vars[g].is_global)
    here = [bam.cpa.instantiate(own, e.state, block) for e in res.exits]
    exit_vals = [bam.cpa.concrete_values(x) for x in here if x is not None]
    if not exit_vals:
        return None
    values: dict[str, int] = {}
    for o in outputs:
        seen = {d.get(o) for d in exit_vals}
        if len(seen) != 1 or None in seen:
            return None
        values[o] = seen.pop()
    params = {p: entry_vals[p] for p in callee.params}
    return Step("summary", edge, None, {"params": params, "outputs": values})


def reconstruct(trace: TargetTrace, program, bam=None, poll: Callable[[], None] = lambda: None) -> ErrorPath:
    steps: list[Step] = []
    for call_state, _callee_root in trace.chain:
        steps.extend(_within_block(call_state, program, bam, poll))
        edge = _call_edge_at(call_state)
        steps.append(Step("call", edge, program.functions[edge.callee].entry))
    steps.extend(_within_block(trace.state, program, bam, poll))
    node = trace.state.location
    assert node.error is not None
    return ErrorPath(steps, node.error, node)
