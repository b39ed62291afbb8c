"""Block-abstraction memoization with procedure blocks and recursion (Beyer & Friedberger 2020; Friedberger 2015).

Each call is analysed as a block from its *reduced* entry state; results are memoized by
(block, reduced entry state, reduced precision). Recursion is handled by a fixpoint over
procedure summaries:

* A call whose reduced entry is covered by a block analysis already open on the stack
  (checked against the whole stack, i.e. before pushing the new level) is not unrolled:
  it uses the exit states known so far for that open analysis (empty at first) and marks
  every open level from there up as *recursion-dependent*.
* When an iteration ends, each summary that was consumed through coverage is compared
  with its final exit states. If an exit is not covered by what was consumed, the
  iteration was an under-approximation: all recursion-dependent cache entries are
  dropped (their exit states are kept as the next summaries) and the program is
  re-explored. Independent entries are reused, so non-recursive programs take one pass.
* At the fixpoint every consumed summary is inductive (Hoare's recursion rule), so the
  result is sound.

Targets found inside a block stop the analysis and travel up with the call chain that
leads to them, so the error path can be rebuilt through nested (and cached) blocks.
"""

from __future__ import annotations

import time
from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Any, Protocol, cast

from ..cfa.cfa import Program
from ..cfa.ir import CallEdge, CFANode
from ..smt.time_limit import past_deadline, solver_give_ups
from .arg import ARGState
from .cpa import Block, CompositeCPA, GeneralizationAbandoned
from .cpa_algorithm import Budget, BudgetExceeded, Successors, run_cpa

WIDEN_DELAY = 3  # summary updates joined before widening starts (domains that widen)
# Growth of one recursion summary, under a precision that never widens, after which a phase that
# is not the run's last gives up (FixpointDiverging): a value analysis enumerating a recursion
# over a wide input range (0, 2, 4, ... one exit per iteration, each iteration slower) would
# otherwise spend its whole time share before the next phase's abstraction proves it at once.
DIVERGENCE_LIMIT = 4
# Visits to one loop head that leave it both ways (the exit undecided) after which such a phase
# gives up likewise: a value analysis unrolling a loop whose bound is an input (``while (k > 0)
# { k--; i++; }``) would enumerate i forever. A loop with a known bound decides its exit on
# every visit and is unrolled to its end.
LOOP_DIVERGENCE_LIMIT = 8
# What block analyses are memoized by: (block, reduced entry, the precision's key for the block).
BlockKey = tuple[str, tuple, Hashable]


class AnalysisUnsupported(Exception):
    def __init__(self, what: str, where):
        self.what = what
        self.where = where
        super().__init__(f"{where}: {what}" if where else what)


class FixpointDiverging(Exception):
    """A recursion summary keeps growing under a precision that does not widen, or a loop with
    an undecided exit keeps unrolling (see DIVERGENCE_LIMIT, LOOP_DIVERGENCE_LIMIT). Never a
    verdict: the search hands over to its next phase."""

    def __init__(self, function: str, what: str = "the summary of"):
        self.function = function
        super().__init__(f"{what} {function} keeps growing")


class CacheInconsistency(Exception):
    """A block entry from the persistent cache that a fresh analysis of its block does not
    reproduce. Never a verdict: the run is repeated without the cache (verify.py). ``why``:

    - "differs": the re-analysis, as precise as the one that made the entry, reaches exits the
      entry does not cover, or none that covers the exit rebuilt: its key missed something its
      result depends on, or something else wrote it. The entry goes, and the cache is blamed
      (``proven``).
    - "merged": the re-analysis joins into one exit what the entry keeps apart (which one an
      analysis keeps apart depends on the order its paths arrived in), so the stored exit has
      no path of its own; the entry covers all the re-analysis reaches. The entry goes (its
      paths cannot be rebuilt), unblamed.
    - "solver": a solver gave up during the re-analysis, which then knows less than the one
      that made the entry. The entry stays, unblamed."""

    def __init__(self, function: str, store_key: str | None, why: str = "differs"):
        self.function = function
        self.store_key = store_key
        self.why = why
        self.proven = why == "differs"
        self.remove = why != "solver"
        super().__init__(f"a cached summary of {function} could not be " + {
            "differs": "reproduced",
            "merged": "rebuilt (its re-analysis joins exits that the entry keeps apart)",
            "solver": "rebuilt (a solver gave up on its re-analysis)"}[why])


@dataclass
class TargetTrace:
    """A target state and the calls leading to its block from the current level."""

    state: ARGState
    chain: tuple[tuple[ARGState, ARGState], ...] = ()  # (call state in caller, callee block root)


@dataclass
class BlockResult:
    """A block's analysis for one reduced entry: its exits, the targets it reaches, and whether it used an
    unfinished recursion's summary."""

    root: ARGState
    exits: list[ARGState]
    targets: list[TargetTrace]
    dependent: bool
    states: int = 0
    store_key: str | None = None


@dataclass
class _Level:
    """A block analysis in progress, on BAM's stack."""

    key: BlockKey
    block: Block
    entry: tuple
    dependent: bool = False
    consumed: list = field(default_factory=list)  # callee summaries used (for the persistent cache)


@dataclass
class BAMStats:
    """What BAM did: cache hits and misses, covered recursive calls, fixpoint iterations."""

    cache_hits: int = 0
    cache_misses: int = 0
    covered_calls: int = 0
    fixpoint_iterations: int = 0
    blocks_analysed: int = 0


class PersistentSummaries(Protocol):
    """What BAM asks of the persistent summary cache (cache/blockcache.PersistentBlocks), which
    builds on this layer and so is known here by its methods only."""

    target_levels: list[dict]
    fresh: dict[str, Any]

    def key(self, block: Block, reduced: tuple, prec_key: Hashable, excluded: dict[int, CFANode] | None = None) -> str: ...

    def lookup(self, bam: BAM, block: Block, reduced: tuple, prec: dict, key: str
               ) -> tuple[list[ARGState], bool] | None: ...

    def record(self, block: Block, reduced: tuple, prec: dict, prec_key: Hashable, key: str, result: BlockResult,
               consumed: list[dict], seconds: float, excluded: dict[int, CFANode] | None = None) -> None: ...

    def consumption(self, callee: Block, reduced: tuple, result: BlockResult,
                    exits: list[tuple[ARGState, tuple]], prec: dict, excluded: dict[int, CFANode] | None) -> dict: ...

    def record_target_level(self, block: Block, reduced: tuple, key: str, consumed: list[dict]) -> None: ...

    def flush(self, drop: set[str] | None = None) -> int: ...


class BAM:
    def __init__(self, program: Program, cpa: CompositeCPA, blocks: dict[str, Block], budget: Budget,
                 order: str = "dfs", max_depth: int = 5000):
        self.program = program
        self.cpa = cpa
        self.blocks = blocks
        self.budget = budget
        self.order = order
        self.max_depth = max_depth
        self.cache: dict[Hashable, BlockResult] = {}
        self.summaries: dict[Hashable, list[ARGState]] = {}
        self.summary_updates: dict[Hashable, int] = {}
        self.stack: list[_Level] = []
        self.consumed: dict[Hashable, list[ARGState]] = {}
        self.stats = BAMStats()
        self.excluded_targets: dict[int, CFANode] = {}  # error nodes already reported, by id
        self.persistent: PersistentSummaries | None = None
        self.prec: dict = {}
        self.concrete_only: set[str] = set()  # blocks whose generalized analysis was abandoned
        self.give_up_diverging = False  # raise FixpointDiverging (a phase with a successor)
        self.undecided_exits: dict[int, int] = {}  # loop head (by id) -> visits that left it both ways

    # ---- keys -------------------------------------------------------------------
    def key(self, block: Block, reduced: tuple, prec: dict) -> BlockKey:
        return (block.name, reduced, self.cpa.precision_key(prec, block))

    def exclude(self, node: CFANode) -> None:
        """A reported error location: later searches prune it (a search for further violations).

        The search that follows starts its recursion fixpoints and its count of undecided loop
        exits afresh, as a run does that resumes from the violations' certificates
        (cache/certificate.py): both then explore alike and meet the same next violation."""
        self.excluded_targets[id(node)] = node
        self.summaries.clear()
        self.summary_updates.clear()
        self.undecided_exits.clear()

    def live_targets(self) -> bool:
        """Whether an error location the search has not excluded is in a function the start
        block can reach (a search for further violations with none left has nothing to do)."""
        reach = self.blocks[self.program.start.name].functions
        return any(n.error is not None and id(n) not in self.excluded_targets
                   for f in self.program.all_functions() if f.name in reach for n in f.nodes)

    # ---- the fixpoint -------------------------------------------------------------
    def run(self, prec: dict) -> BlockResult:
        """Analyse the whole program (the start block); returns its result at the fixpoint."""
        self.prec = prec
        start = self.blocks[self.program.start.name]
        initial = self.cpa.initial(start.entry)
        while True:
            self.stats.fixpoint_iterations += 1
            self.consumed = {}
            self.stack = []
            if self.persistent is not None:
                self.persistent.target_levels = []
            try:
                result = self.analyse(start, initial, prec)
            except (BudgetExceeded, FixpointDiverging):
                # Out of time (or cancelled, or handing over): the blocks completed so far are final unless they
                # took part in the unfinished recursion iteration; the next run starts from them.
                self._drop_dependent()
                self._flush()
                raise
            if result.targets:
                # The iteration was cut short: its recursion-dependent entries are incomplete.
                self._drop_dependent()
                self._flush()
                return result
            if not self._needs_iteration():
                self._flush()
                return result
            self._drop_dependent()
            self.budget.check()

    def _flush(self) -> None:
        """Persist the block entries of the in-memory cache that are final."""
        if self.persistent is None:
            return
        live = {r.store_key for r in self.cache.values() if r.store_key is not None}
        self.persistent.flush(drop={k for k in self.persistent.fresh if k not in live})

    def _needs_iteration(self) -> bool:
        for k, snapshot in self.consumed.items():
            final = self.summaries.get(k, [])
            for e in final:
                if not any(self.cpa.is_less_or_equal(e.state, o.state) for o in snapshot):
                    return True
        return False

    def _drop_dependent(self) -> None:
        for k in [k for k, r in self.cache.items() if r.dependent]:
            del self.cache[k]

    # ---- block analysis ------------------------------------------------------------
    def call(self, block: Block, reduced: tuple, prec: dict) -> tuple[BlockResult, list[tuple[ARGState, tuple]]]:
        """The result of a call with this reduced entry, and its exits as (exit, state) pairs.

        A block the domains generalize is analysed once under its generalized entry; each
        call's result is that summary instantiated at the call's reduced entry (an
        *instance*), memoized and persisted like any block entry, so a later call or run with
        the same entry loads it without the summary.
        """
        general = reduced if block.name in self.concrete_only else self.cpa.generalize(reduced, block, prec)
        res = None
        if general is not reduced:
            key = self.key(block, reduced, prec)
            res = self.cache.get(key)
            if res is None:
                res = self._instance(block, reduced, general, prec, key)
        if res is None:
            res = self.analyse(block, reduced, prec)
        return res, [(e, e.state) for e in res.exits]

    def _instance(self, block: Block, reduced: tuple, general: tuple, prec: dict, key: BlockKey) -> BlockResult | None:
        store_key, loaded = self._load(block, reduced, prec, key)
        if loaded is not None:
            return loaded
        try:
            summary = self.analyse(block, general, prec)
        except GeneralizationAbandoned:
            self.concrete_only.add(block.name)
            return None
        if summary.targets or summary.dependent:
            return None  # not a summary to instantiate: analyse the call's own entry
        exits = []
        for e in summary.exits:
            state = self.cpa.instantiate(reduced, e.state, block)
            if state is not None:
                # Its path is rebuilt from the call's own entry (rematerialize), if ever needed.
                exits.append(ARGState(state, origin=(block.name, reduced, prec)))
        result = BlockResult(ARGState(reduced), exits, [], False, 0, store_key)
        self.cache[key] = result
        if self.persistent is not None and store_key is not None:
            self.persistent.record(block, reduced, prec, key[2], store_key, result, [], 0.0)
        return result

    def analyse(self, block: Block, reduced: tuple, prec: dict) -> BlockResult:
        key = self.key(block, reduced, prec)
        cached = self.cache.get(key)
        if cached is not None and not (cached.targets and self._stale_targets(cached)):
            self.stats.cache_hits += 1
            if cached.dependent and self.stack:
                self.stack[-1].dependent = True
            return cached
        # A recursive call covered by an open analysis: use that analysis's summary so far.
        for i in range(len(self.stack) - 1, -1, -1):
            lvl = self.stack[i]
            if lvl.block.name == block.name and lvl.key[2] == key[2] and \
                    self.cpa.is_less_or_equal(reduced, lvl.entry):
                self.stats.covered_calls += 1
                for j in range(i, len(self.stack)):
                    self.stack[j].dependent = True
                summary = list(self.summaries.get(lvl.key, []))
                self.consumed.setdefault(lvl.key, summary)
                return BlockResult(ARGState(reduced), summary, [], True)
        if len(self.stack) >= self.max_depth:
            raise AnalysisUnsupported(f"recursion deeper than {self.max_depth} calls", None)
        store_key, loaded = self._load(block, reduced, prec, key)
        if loaded is not None:
            return loaded
        return self._fresh(block, reduced, prec, key, store_key)

    def _load(self, block: Block, reduced: tuple, prec: dict, key: BlockKey) -> tuple[str | None, BlockResult | None]:
        """(store key, the entry loaded from the persistent cache if it holds a valid one)."""
        if self.persistent is None:
            return None, None
        store_key = self.persistent.key(block, reduced, key[2], self.excluded_targets)
        saved, self.stack = self.stack, []  # validation's own calls are not the caller's
        try:
            found = self.persistent.lookup(self, block, reduced, prec, store_key)
        finally:
            self.stack = saved
        if found is None:
            return store_key, None
        exits, dependent = found
        for e in exits:
            e.origin = (block.name, reduced, prec)
        # Validated against an unfinished recursion: as good as this iteration, like a fresh
        # analysis that consumed the same summaries.
        result = BlockResult(ARGState(reduced), exits, [], dependent, 0, store_key)
        self.cache[key] = result
        if dependent and self.stack:
            self.stack[-1].dependent = True
        return store_key, result

    def _fresh(self, block: Block, reduced: tuple, prec: dict, key: BlockKey, store_key: str | None) -> BlockResult:
        self.stats.cache_misses += 1
        self.stats.blocks_analysed += 1
        level = _Level(key, block, reduced)
        self.stack.append(level)
        root = ARGState(reduced)
        t0 = time.monotonic()
        try:
            states, targets = run_cpa(
                self.cpa, root, lambda s: self._successors(s, block, prec),
                lambda s: s.location is block.exit, prec, self.budget, self.order)
        finally:
            self.stack.pop()
        exits = [s for s in states if s.location is block.exit]
        traces = [t if isinstance(t, TargetTrace) else TargetTrace(cast(ARGState, t)) for t in targets]
        result = BlockResult(root, exits, traces, level.dependent, len(states), store_key)
        if level.dependent:
            old = self.summaries.get(key, [])
            merged = list(old)
            for e in exits:
                if not any(self.cpa.is_less_or_equal(e.state, o.state) for o in merged):
                    merged.append(e)
            # Count the updates that changed the summary, not the re-analyses: when widening
            # starts must depend on the block's own summaries, not on how often an enclosing
            # fixpoint happened to re-run it (or a cached result would differ from a fresh one).
            grew = len(merged) != len(old)
            updates = self.summary_updates.get(key, 0) + (1 if grew or not old else 0)
            self.summary_updates[key] = updates
            # Join for the first few updates, widen after: delayed widening keeps small bounds.
            prev = [o.state for o in old] if updates > WIDEN_DELAY else []
            widened = self.cpa.widen_summary(prev, [m.state for m in merged]) if merged else None
            if widened is not None:
                # Domains with infinite chains (intervals) widen their summaries; the ARG of the
                # newest exit stands for the widened state when a path is rebuilt through it.
                anchor = exits[-1] if exits else merged[-1]
                merged = [ARGState(w, anchor.parent, anchor.edge, anchor.summary_exit) for w in widened]
            elif grew and updates > DIVERGENCE_LIMIT and self.give_up_diverging:
                raise FixpointDiverging(block.name)
            self.summaries[key] = merged
            result.exits = merged if not traces else exits
        self.cache[key] = result
        if level.dependent and self.stack:
            self.stack[-1].dependent = True
        if self.persistent is not None and store_key is not None:
            if traces:
                self.persistent.record_target_level(block, reduced, store_key, level.consumed)
            else:
                self.persistent.record(block, reduced, prec, key[2], store_key, result, level.consumed,
                                       time.monotonic() - t0, self.excluded_targets)
        return result

    def rematerialize(self, exit_state: ARGState) -> ARGState:
        """An exit loaded from the persistent cache has no ARG: analyse its block again to get one."""
        assert exit_state.origin is not None
        name, reduced, prec = exit_state.origin
        block = self.blocks[name]
        key = self.key(block, reduced, prec)
        loaded = self.cache.get(key)
        give_ups = solver_give_ups()
        result = self._solve(block, reduced, prec, key)
        for e in result.exits:
            if e.state == exit_state.state:
                return e
        for e in result.exits:
            # An instance of a generalized summary may know less than the concrete analysis;
            # an exit it covers is a path to it.
            if self.cpa.is_less_or_equal(e.state, exit_state.state):
                return e
        # A re-analysis whose solver calls the time limit cut short computes less than the one
        # that made the entry: the run is out of time, and the entry is not to blame.
        self.budget.check()
        if past_deadline():
            raise BudgetExceeded("timeout")
        raise CacheInconsistency(name, loaded.store_key if loaded is not None else None,
                                 "solver" if solver_give_ups() != give_ups
                                 else "merged" if self._merged(exit_state, result, loaded) else "differs")

    def _merged(self, exit_state: ARGState, result: BlockResult, loaded: BlockResult | None) -> bool:
        """Whether a re-analysis that does not rebuild ``exit_state`` only joined it with other
        exits: one of its exits covers it, and the stored exits together cover all of them."""
        if loaded is None or not loaded.exits or not any(
                self.cpa.is_less_or_equal(exit_state.state, e.state) for e in result.exits):
            return False
        cover = loaded.exits[0].state
        try:
            for e in loaded.exits[1:]:
                cover = self.cpa.join(cover, e.state)
        except (NotImplementedError, ValueError):  # no join: nothing shows the entry whole
            return False
        return all(self.cpa.is_less_or_equal(e.state, cover) for e in result.exits)

    def _solve(self, block: Block, reduced: tuple, prec: dict, key: BlockKey) -> BlockResult:
        """A fresh analysis of one block, with an ARG, iterated to its own recursion fixpoint.

        The entry loaded for this key leaves the in-memory cache first: a recursive call with
        the same entry must be covered by this analysis, not answered by the loaded exits
        (whose path would lead back here). The run's own bookkeeping is left as it was.
        """
        saved = (self.consumed, self.stack)
        before = set(self.cache)
        self.cache.pop(key, None)
        before.discard(key)
        try:
            while True:
                self.consumed, self.stack = {}, []
                result = self._fresh(block, reduced, prec, key, None)
                if not self._needs_iteration():
                    return result
                for k in [k for k, r in self.cache.items() if r.dependent and k not in before]:
                    del self.cache[k]
                self.budget.check()
        finally:
            self.consumed, self.stack = saved

    def _stale_targets(self, result: BlockResult) -> bool:
        return any(id(t.state.location) in self.excluded_targets for t in result.targets)

    def _successors(self, s: ARGState, block: Block, prec: dict) -> Successors:
        cpa = self.cpa
        loc = s.location
        out = Successors()
        if loc.error is not None:
            return out
        for edge in loc.out:
            if isinstance(edge, CallEdge):
                callee = self.program.functions[edge.callee]
                if callee.unsupported is not None:
                    raise AnalysisUnsupported(callee.unsupported[0], callee.unsupported[1])
                cblock = self.blocks[edge.callee]
                for entry in cpa.call_entry(s.state, edge, callee, prec):
                    reduced = cpa.reduce(entry, cblock, prec)
                    res, exits = self.call(cblock, reduced, prec)
                    if self.persistent is not None and not res.targets and self.stack:
                        self.stack[-1].consumed.append(self.persistent.consumption(
                            cblock, reduced, res, exits, prec, self.excluded_targets))
                    live = [t for t in res.targets if id(t.state.location) not in self.excluded_targets]
                    if live:
                        out.targets = [TargetTrace(t.state, ((s, res.root),) + t.chain) for t in live]
                        return out
                    for exit_state, exit_here in exits:
                        expanded = cpa.expand(entry, exit_here, cblock)
                        rebuilt = cpa.rebuild(s.state, entry, expanded, cblock, edge)
                        for ret in cpa.return_to(rebuilt, edge, callee, prec):
                            ret = cpa.prec(ret, prec, edge.succ)
                            out.states.append(ARGState(ret, s, edge, exit_state))
            else:
                for succ in cpa.transfer(s.state, edge, prec):
                    succ = cpa.prec(succ, prec, edge.succ)
                    if edge.succ.error is not None and id(edge.succ) in self.excluded_targets:
                        continue
                    out.states.append(ARGState(succ, s, edge))
        if loc.loop_head and self.give_up_diverging and len({id(st.edge.succ) for st in out.states if st.edge is not None}) > 1:
            n = self.undecided_exits.get(id(loc), 0) + 1
            self.undecided_exits[id(loc)] = n
            if n > LOOP_DIVERGENCE_LIMIT:
                raise FixpointDiverging(f"{loc.function} (line {_line(loc)})", "the loop in")
        return out


def _line(node: CFANode) -> str:
    for e in node.out:
        if e.range is not None:
            return str(e.range.line)
    return "?"
