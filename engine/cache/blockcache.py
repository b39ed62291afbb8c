"""BAM's persistent layer: content-addressed block abstractions with early cutoff.

Key of a block entry (cache/keys.py says what each part is for): the function's
fingerprint (for a recursive function, the fingerprints of its whole call tree), the
reduced entry state, the reduced precision, the analysis context (configuration, theory,
search order, data model, cbam version, program-wide facts), and the error locations a
search for further violations had excluded inside the block when it was analysed.

Early cutoff: a non-recursive block records every callee summary it consumed (callee,
reduced entry, precision, and a digest of the callee's exits and block facts). A stored
entry is reused only if, for each of them, the callee's *current* result has the same
digest, so an edited callee that still returns the same exits leaves its callers valid.
A callee result that is still part of an unfinished recursion fixpoint is not final: an
entry validated against it is only as good as that iteration (BAM marks it recursion-
dependent, so it is validated again in the next iteration).
"""

from __future__ import annotations

import json
from collections.abc import Hashable
from typing import TYPE_CHECKING, Any, NamedTuple

from ..cfa.callgraph import CallGraph
from ..cfa.cfa import Program
from ..cfa.ir import CFANode
from ..core.arg import ARGState
from ..core.cpa import Block, CompositeCPA
from ..core.summaries import render_block
from .keys import analysis_context
from .keys import digest as _h
from .store import CacheStore

if TYPE_CHECKING:
    from ..core.bam import BAM, BlockResult
    from ..options import VerifyOptions


def _jsonable(x: Hashable) -> Any:
    if isinstance(x, tuple | list | frozenset | set):
        items = [_jsonable(i) for i in x]
        return sorted(items, key=repr) if isinstance(x, frozenset | set) else items
    return x


def _callgraph(program: Program) -> CallGraph:
    return program.callgraph if isinstance(program.callgraph, CallGraph) else CallGraph.of(program)


def function_keys(program: Program, opts: VerifyOptions, context: str | None = None) -> dict[str, str]:
    """What each function's block entries are filed under: its own code, or for a recursive
    function the code of its whole call tree, in the run's analysis context."""
    cg = _callgraph(program)
    ctx = context if context is not None else analysis_context(program, opts)
    fps = {f.name: f.fingerprint for f in program.all_functions()}
    recursive = cg.recursive_functions()
    out: dict[str, str] = {}
    for f in program.all_functions():
        if f.name in recursive:
            out[f.name] = _h("deep", sorted((g, fps[g]) for g in cg.reachable(f.name)), ctx)
        else:
            out[f.name] = _h("shallow", f.name, fps[f.name], ctx)
    return out


DECODED_STATES = "_states"  # the slot of a decoded row (CacheStore.get_block) that keeps its exits decoded


class PersistentBlocks:
    def __init__(self, store: CacheStore, program: Program, cpa: CompositeCPA, blocks: dict[str, Block],
                 opts: VerifyOptions, file: str | None):
        self.store = store
        self.program = program
        self.cpa = cpa
        self.blocks = blocks
        self.config = opts.config + ("/lia" if opts.theory == "lia" else "")  # shown by `cbam summary`
        self.file = file
        cg = _callgraph(program)
        self.context = analysis_context(program, opts)
        self.recursive = cg.recursive_functions()
        self.fn_keys = function_keys(program, opts, self.context)
        self._fps = {f.name: f.fingerprint for f in program.all_functions()}
        self._cg = cg
        self._deep: dict[str, str] = {}
        self.target_levels: list[dict] = []  # the blocks a target was found through (certificate.py)
        self.hits = 0
        self.misses = 0
        self.fresh: dict[str, _Fresh] = {}  # key -> its row's makings, written at the end of a run
        self.loaded: set[str] = set()
        self._digests: dict[tuple, tuple[list[tuple], str]] = {}
        self._validity: dict[tuple, tuple[tuple, str]] = {}
        self._reach: dict[str, list[str]] = {}
        self._prec_digests: dict[tuple, tuple[tuple, str]] = {}

    # ---- state encoding ---------------------------------------------------------------
    def state_json(self, state: tuple) -> Any:
        return [c.to_json(s) for c, s in zip(self.cpa.components, state)]

    def state_from_json(self, data: Any) -> tuple:
        return tuple(c.from_json(d) for c, d in zip(self.cpa.components, data))

    def key(self, block: Block, reduced: tuple, prec_key: Hashable, excluded: dict[int, CFANode] | None = None) -> str:
        """``excluded``: the error locations the search has already reported (by id); those
        inside the block were pruned from its analysis, so its result depends on them."""
        parts: list[Any] = [self.fn_keys[block.name], self.state_json(reduced), _jsonable(prec_key)]
        inside = self._excluded_inside(block, excluded)
        if inside:
            parts.append(["excluded", inside])
        return _h(*parts)

    def _excluded_inside(self, block: Block, excluded: dict[int, CFANode] | None) -> list:
        return self._excluded_in(block.functions, excluded)

    def _excluded_in(self, functions, excluded: dict[int, CFANode] | None) -> list:
        if not excluded:
            return []
        return sorted((n.function, self._fps.get(n.function), n.canon) for n in excluded.values()
                      if n.function in functions)

    def validity(self, block: Block, prec: dict, excluded: dict[int, CFANode] | None) -> str:
        """Everything the callee results a block's analysis consumed are a function of: the code
        of every function it can reach (the call graph has every call, those through pointers
        included) in the run's analysis context, the precision of every block there, and the
        error locations excluded there. A stored entry recorded under the same validity
        consumed exactly the results a new validation of its callees would compute, so it is
        valid without one: an edit elsewhere re-validates nothing below this block.
        Precisions are immutable (refinement makes new ones), so their ids identify them
        while the memo holds them."""
        values = tuple(prec.values())
        memo_key = (block.name, tuple(map(id, values)), tuple(sorted(excluded)) if excluded else ())
        hit = self._validity.get(memo_key)
        if hit is None:
            reach = self._reach.get(block.name)
            if reach is None:
                reach = self._reach[block.name] = sorted(self._cg.reachable(block.name))
            precs = [self._precision_digest(g, prec, values) for g in reach if g in self.blocks]
            targets = self._excluded_in(set(reach), excluded)
            hit = self._validity[memo_key] = (values, _h("validity", self.deep_key(block.name), precs, targets))
        return hit[1]

    def _precision_digest(self, name: str, prec: dict, values: tuple) -> str:
        memo_key = (name, tuple(map(id, values)))
        hit = self._prec_digests.get(memo_key)
        if hit is None:
            hit = self._prec_digests[memo_key] = (values, _h(_jsonable(self.cpa.precision_key(prec, self.blocks[name]))))
        return hit[1]

    def deep_key(self, name: str) -> str | None:
        """The fingerprints of everything ``name`` can reach (None: no such function)."""
        if name not in self._deep:
            if name not in self._fps:
                return None
            self._deep[name] = _h("deep", sorted((g, self._fps[g]) for g in self._cg.reachable(name)), self.context)
        return self._deep[name]

    def _exit_json(self, state: tuple) -> Any:
        return self._as_exit(self.state_json(state))

    def _as_exit(self, data: list) -> list:
        """_exit_json of a state from its state_json."""
        return [c.exit_json(d) for c, d in zip(self.cpa.components, data)]

    def ordered_digest(self, block: Block, exits: list[tuple]) -> str:
        """The exits in the order a caller explores them, which decides the first target it finds."""
        return _h([self._exit_json(e) for e in exits], self.digest(block, exits))

    def digest(self, block: Block, exits: list[tuple]) -> str:
        """What a caller sees of a block's result: its exit states (without their node), as
        specialised to the caller's entry, and the facts its callers' transfer reads."""
        # The same exits (one cached result) are digested again for every caller that validates
        # against them; states are immutable, and the memo keeps them alive, so ids stay theirs.
        memo_key = (block.name, tuple(map(id, exits)))
        hit = self._digests.get(memo_key)
        if hit is None:
            hit = self._digests[memo_key] = (exits, self._digest_json(block, [self._exit_json(e) for e in exits]))
        return hit[1]

    def _digest_json(self, block: Block, exits: list[Any]) -> str:
        states = sorted(json.dumps(e, sort_keys=True) for e in exits)
        return _h(states, sorted(block.vars), block.havocs_all_globals, block.writes_memory)

    # ---- lookup / record ---------------------------------------------------------------
    def lookup(self, bam: BAM, block: Block, reduced: tuple, prec: dict, key: str) -> tuple[list[ARGState], bool] | None:
        """The stored exits, and whether their validation used a callee result that is part of an
        unfinished recursion fixpoint (then they hold for this iteration only); None: no valid entry."""
        row = self.store.get_block(key)
        if row is None:
            self.misses += 1
            return None
        dependent = False
        consumed = row["consumed"]
        if consumed and row.get("validity") is not None and row["validity"] == self.validity(block, prec, bam.excluded_targets):
            consumed = []  # what it consumed is what its callees give now (validity)
        for c in consumed:
            callee = self.blocks.get(c["callee"])
            if callee is None:
                self.misses += 1
                return None
            if self.unchanged(callee, c, prec, bam.excluded_targets):
                continue
            try:
                entry = self.state_from_json(c["entry"])
            except (KeyError, IndexError, TypeError, ValueError):
                self.misses += 1
                return None
            res, exits = bam.call(callee, entry, prec)
            if res.targets or self.digest(callee, [x for _, x in exits]) != c["digest"]:
                self.misses += 1
                return None
            dependent |= res.dependent
        try:
            states = self._exits_of(row, block)
        except (KeyError, IndexError, TypeError, ValueError):
            self.misses += 1
            return None
        self.hits += 1
        self.loaded.add(key)
        origin = (block.name, reduced)
        return [ARGState(s, origin=origin) for s in states], dependent

    def _exits_of(self, row: dict, block: Block) -> list[tuple]:
        """The row's exit states, decoded once per decoded row: the store keeps that row (and
        bounds what it keeps) while it holds, the states are immutable, and the row's key names
        everything they depend on, the configuration included (a leaf's generalized summary is
        a DAG of a thousand expressions). Except their location: a node of the build of the
        function they were decoded for, so they are kept with that build, and moved to the
        current one when it is another (an edit above the function moved its lines)."""
        fn = self.program.function_of_name(block.name)
        held = row.get(DECODED_STATES)
        if held is not None and held[0] is fn:
            return held[1]
        if held is not None:
            states = [self.cpa.relocated(s) for s in held[1]]
        else:
            states = [self.state_from_json(x) for x in row["exits"]]
        row[DECODED_STATES] = (fn, states)
        return states

    def record(self, block: Block, reduced: tuple, prec: dict, prec_key: Hashable, key: str, result: BlockResult,
               consumed: list[dict], seconds: float, excluded: dict[int, CFANode] | None = None) -> None:
        if key in self.loaded or result.targets:
            return
        # Results of an unfinished recursion hold for one iteration: checked one by one, always.
        final = consumed and block.name not in self.recursive and not any(c.get("dependent") for c in consumed)
        # What depends on the search's state (its precision, the targets it excludes) is taken
        # now; the rest (the row's JSON, its rendering) is made when the row is written.
        self.fresh[key] = _Fresh(
            block, reduced, prec_key, key, [e.state for e in result.exits],
            [] if block.name in self.recursive else consumed,
            self.validity(block, prec, excluded) if final else None,
            # Analysed with reported violations pruned: right for the search that asked for it,
            # not a summary of the function (hover and `cbam summary` leave it out).
            bool(self._excluded_inside(block, excluded)), result.states, round(seconds, 4),
            self.program.function_of_name(block.name))

    def _row(self, f: _Fresh) -> dict[str, Any]:
        exits = [self.state_json(s) for s in f.exits]
        params = [p.split("::", 1)[1] for p in f.fn.params]
        rendered = render_block(f.block.name, params, self.cpa.summary_facts(f.reduced),
                                [self.cpa.summary_facts(s) for s in f.exits])
        return {
            "rendered": rendered, "pruned": f.pruned,
            "key": f.key, "function": f.block.name, "fn_key": self.fn_keys[f.block.name], "config": self.config,
            "entry": self.state_json(f.reduced), "prec": _jsonable(f.prec_key), "exits": exits,
            "consumed": f.consumed, "validity": f.validity,
            "digest": self._digest_json(f.block, [self._as_exit(x) for x in exits]), "states": f.states,
            "seconds": f.seconds,
        }

    def consumption(self, callee: Block, reduced: tuple, result: BlockResult,
                    exits: list[tuple[ARGState, tuple]], prec: dict, excluded: dict[int, CFANode] | None) -> dict:
        """A callee summary a block used: the call's reduced entry and digests of the exits as
        that call saw them (a generalized summary may change while its instances do not), and
        the callee's validity then (a final result only)."""
        seen = [x for _, x in exits]
        out = {"callee": callee.name, "entry": self.state_json(reduced), "digest": self.digest(callee, seen),
               "ordered": self.ordered_digest(callee, seen)}
        if result.dependent:
            # An unfinished recursion's summary so far: the same code yields it in the same iteration.
            out["dependent"] = True
            out["deep"] = self.deep_key(callee.name)
        elif callee.name not in self.recursive:  # as for a stored entry's own validity (record)
            out["validity"] = self.validity(callee, prec, excluded)
        return out

    def unchanged(self, callee: Block, consumed: dict, prec: dict, excluded: dict[int, CFANode] | None) -> bool:
        """Whether a consumed callee result is what calling it again would give, without calling
        it: the call's entry is the recorded one, and its validity (everything else the result
        is a function of) is the same."""
        recorded = consumed.get("validity")
        return recorded is not None and recorded == self.validity(callee, prec, excluded)

    def record_target_level(self, block: Block, reduced: tuple, key: str, consumed: list[dict]) -> None:
        self.target_levels.append({"function": block.name, "key": key, "entry": self.state_json(reduced),
                                   "consumed": list(consumed)})

    def evict(self, key: str) -> None:
        """Forget an entry that turned out not to be what its key promises."""
        self.fresh.pop(key, None)
        self.loaded.discard(key)
        self.store.delete_block(key)

    def flush(self, drop: set[str] | None = None) -> int:
        rows = [r for k, r in self.fresh.items() if not drop or k not in drop]
        # Kept with each row once stored (CacheStore), for this build of the function (_exits_of).
        kept = {f.key: {DECODED_STATES: (f.fn, f.exits)} for f in rows}
        self.store.put_blocks_made(kept, lambda: [self._row(f) for f in rows], self.file)
        self.fresh.clear()
        return len(rows)


class _Fresh(NamedTuple):
    """A block entry analysed in this run, to be stored: what its row is made from."""

    block: Block
    reduced: tuple
    prec_key: Hashable
    key: str
    exits: list[tuple]
    consumed: list[dict]
    validity: str | None
    pruned: bool
    states: int
    seconds: float
    fn: Any  # the build of its function (cfa.FunctionCFA)
