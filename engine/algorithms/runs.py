"""Runs of the program from its start on random inputs, the CFA interpreted with C's machine
integers (replay.py's ``ConcreteRun``): what horn/samples.py records at the Horn clauses' cut points to
guess summaries from, and what testing.py takes as paths to an error."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import cast

from ..cex.replay import UNSET, ConcreteRun, RunStopped
from ..cfa.cfa import FunctionCFA, Program
from ..cfa.ctype import IntType
from ..cfa.ir import AbortEdge, AssumeEdge, CallEdge, CFANode, Edge
from ..core.path import Step
from ..cpa.predicate.formula import old
from ..frontend.errors import Range

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .horn import clauses

RANDOM_RANGE = 16  # nondeterministic values are drawn from [-16, 16], within their type
# function -> the values of its key parameters -> (its result or None, each written global's increase)
Memo = dict[str, dict[tuple[int, ...], tuple[int | None, dict[str, int]]]]
Call = tuple[int | None, dict[str, int]]  # a call's result (None: void) and what it adds to each global


class Walk(ConcreteRun):
    """One run from the program's start: at each branch the edge whose condition holds, each
    nondeterministic value drawn at random; it ends at an error, an exit of the start, a
    stop (``assume``, ``abort``), or anything a run cannot go on from (an uninitialised read,
    an undefined operation, memory)."""

    def __init__(self, program: Program, enc: clauses.Encoder | None, rng: random.Random,
                 record: Callable[[FunctionCFA, CFANode, dict[str, int]], None] = lambda *_: None,
                 draw: Callable[[random.Random, IntType], int] | None = None):
        """``enc``: whose cut points the run records its states at (``record``), none without;
        ``draw``: a nondeterministic value of a type (by default, one from [-16, 16])."""
        super().__init__(program, [])
        self.horn = enc
        self.rng = rng
        self.record = record
        self.draw = draw
        self.steps: list[Step] | None = None  # where wanted ([]): the path the run takes, as an error path's
        self.drawn: list[int] = []  # the nondeterministic values it drew, in order
        self.reached: CFANode | None = None  # the error location it ended at
        self.olds: dict[int, dict[str, int]] = {0: {}}
        self.memo: Memo = {}
        self.keys: dict[str, tuple[int, ...]] = {}  # per tabulated function, its key parameters' indices
        self.memo_anywhere = False
        self.recorded: set[str] = set()  # functions whose every returning call goes into the memo

    def input(self, source: str, t: IntType, step: int, rng: Range | None = None) -> int:
        v = self.draw(self.rng, t) if self.draw is not None else \
            self.rng.randint(max(t.min, -RANDOM_RANGE), min(t.max, RANDOM_RANGE))
        self.drawn.append(v)
        return v

    def write(self, name: str, t: IntType, value: int, frame: int, step: int) -> None:
        self.cur[self.inst(name, frame)] = t.wrap(value)

    def walk(self, max_steps: int) -> None:
        try:
            self._walk(max_steps)
        except (RunStopped, RecursionError):
            pass

    def call(self, fn: FunctionCFA, args: list[int], written: list[str],
             max_steps: int) -> tuple[int | None, dict[str, int]] | None:
        """``fn``'s result (None: a void function) and how much it adds to each global it
        writes, called with ``args`` (and the globals 0). None: the run did not return, or
        overflowed on the way, where the program's value is undefined."""
        self.cur, self.olds, self.overflow = {g: 0 for g in written}, {}, []
        try:
            got = self._walk(max_steps, fn, args)
        except (RunStopped, RecursionError):
            return None
        if got is UNSET or self.overflow:
            return None
        return cast("int | None", got), {g: self.cur[g] for g in written}

    def _walk(self, max_steps: int, first: FunctionCFA | None = None, args: list[int] | None = None) -> object:
        """The first function's result where it returns (None: it has none), else UNSET."""
        program = self.program
        fn, node, frame, fresh = program.start, program.start.entry, 0, 0
        if first is not None:
            fn, node = first, first.entry
            self._enter(first, args or [], frame)
        stack: list[tuple[CallEdge, int, FunctionCFA]] = []
        for step in range(max_steps):
            if self.horn is not None and self.horn.cut(fn, node):
                self._record(fn, node, frame)
            if node.error is not None:
                self.reached = node
                return UNSET
            if node is fn.exit:
                if not stack:
                    rv = fn.result_var
                    return self.cur.get(self.inst(rv, frame), UNSET) if rv is not None else None
                e, caller, caller_fn = stack.pop()
                if fn.name in self.recorded and not self.overflow:
                    self._remember(fn, frame)
                self._back(e, frame, caller)
                if self.steps is not None:
                    self.steps.append(Step("return", e))
                self.olds.pop(frame, None)
                fn, node, frame = caller_fn, e.succ, caller
                continue
            live = [e for e in node.out if not isinstance(e, AbortEdge)]
            if not live:
                return UNSET
            if len(live) > 1:
                tests = [(e, e.cond) for e in live if isinstance(e, AssumeEdge) and e.cond is not None]
                if len(tests) != len(live):
                    return UNSET
                taken = [e for e, cond in tests if (self.expr(cond, frame, step) != 0) == e.truth]
                if not taken:
                    return UNSET
                edge: Edge = taken[0]
            else:
                edge = live[0]
            if isinstance(edge, CallEdge):
                callee = program.functions[edge.callee]
                values = [self.expr(a, frame, step) for a in edge.args]
                if self._tabled(fn, edge, callee, values, frame, step):
                    if self.steps is not None:
                        raise RunStopped  # (a path takes every call; a run that wants one has no tables)
                    node = edge.succ
                    continue
                if self.steps is not None:
                    self.steps.append(Step("call", edge, _callee_entry=callee.entry))
                fresh += 1
                self._enter(callee, values, fresh)
                stack.append((edge, frame, fn))
                fn, node, frame = callee, callee.entry, fresh
                continue
            if self.steps is not None:
                self.steps.append(Step("op", edge))
            self.op(edge, frame, step)
            node = edge.succ
        return UNSET

    def _tabled(self, caller: FunctionCFA, e: CallEdge, callee: FunctionCFA, values: list[int], frame: int,
                step: int) -> bool:
        """Whether the call's result and effects came from the table (where it has them, and,
        while sampling, for calls from a tabulated function alone, and for half of them: the
        first call descends, and some nested ones, so that the callee's cut points get states
        at more than the first call's globals)."""
        table = self.memo.get(callee.name)
        if table is None or not (self.memo_anywhere or caller.name in self.memo and self.rng.random() < 0.5):
            return False
        got = table.get(tuple(values[i] for i in self.keys[callee.name]))
        if got is None:
            return False
        result, effects = got
        for g, d in effects.items():
            before = self.cur.get(g, UNSET)
            if before is UNSET:
                raise RunStopped
            t = self._int(self.vars[g].type)
            if not t.min <= before + d <= t.max:
                self.overflow.append(step)
            self.cur[g] = t.wrap(before + d)
        if e.lhs is not None:
            if result is None:
                raise RunStopped
            self.assign(e.lhs, result, frame, step)
        return True

    def _remember(self, fn: FunctionCFA, frame: int) -> None:
        """A returning call of a pure function (no globals, ``_curriable``), into the memo."""
        olds = self.olds.get(frame, {})
        args = tuple(olds.get(old(p), UNSET) for p in fn.params)
        result = self.cur.get(self.inst(fn.result_var, frame), UNSET) if fn.result_var is not None else UNSET
        if UNSET not in args and result is not UNSET:
            self.memo.setdefault(fn.name, {}).setdefault(args, (result, {}))

    def _enter(self, callee: FunctionCFA, values: list[int], frame: int) -> None:
        for p, v in zip(callee.params, values):
            self.write(p, self._int(self.vars[p].type), v, frame, 0)
        olds = {old(p): self.cur[self.inst(p, frame)] for p in callee.params}
        for g in self.horn.globals if self.horn is not None else ():
            v = self.cur.get(g, UNSET)
            if v is not UNSET:
                olds[old(g)] = v
        self.olds[frame] = olds

    def _back(self, e: CallEdge, frame: int, caller: int) -> None:
        callee = self.program.functions[e.callee]
        if e.lhs is None or callee.result_var is None:
            return
        v = self.cur.get(self.inst(callee.result_var, frame), UNSET)
        if v is UNSET:
            raise RunStopped  # fell off its end: a value no run can pick
        self.assign(e.lhs, v, caller, 0)

    def _record(self, fn: FunctionCFA, node: CFANode, frame: int) -> None:
        assert self.horn is not None
        olds = self.olds.get(frame, {})
        state: dict[str, int] = {}
        for v in self.horn.frame(fn):
            x = olds.get(v, UNSET) if v.endswith(old("")) else self.cur.get(self.inst(v, frame), UNSET)
            if x is not UNSET:
                state[v] = x
        self.record(fn, node, state)
