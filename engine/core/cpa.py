"""The CPA interface (Théoduloz 2010) with the BAM operators (Beyer & Friedberger 2020; Friedberger 2015), and the composite CPA.

Algorithms (the CPA algorithm, BAM, CEGAR) only use these interfaces; a domain is one
class implementing :class:`CPA`. States are immutable and hashable.
"""

from __future__ import annotations

import functools
import itertools
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from ..cfa.cfa import FunctionCFA
from ..cfa.ir import CallEdge, CFANode, Edge

State = Hashable
# A domain's own state type (CPA[ValueState], ...): the algorithms see states as opaque.
StateT = TypeVar("StateT", bound=Hashable)


@dataclass(frozen=True)
class Block:
    """A procedure block: a function together with everything it calls, transitively."""

    name: str
    function: FunctionCFA
    functions: frozenset[str]
    vars: frozenset[str]  # every variable an operation of the block mentions
    havocs_all_globals: bool  # calls an external function that may write any global
    writes_memory: bool  # writes through a pointer or lets an external function do so
    deterministic: bool = False  # no nondet, externals, uninitialised locals or memory operations
    inputs: frozenset[str] = frozenset()  # the entry's parameters and the globals the block mentions
    # What an operation of the block names, without the address-taken variables that ``vars``
    # adds when the block writes through pointers (None: ``vars``). A domain that follows
    # pointers reaches those through them (value/cpa.py's reduce with memory).
    named: frozenset[str] | None = None

    @property
    def entry(self) -> CFANode:
        return self.function.entry

    @property
    def exit(self) -> CFANode:
        return self.function.exit


class GeneralizationAbandoned(Exception):
    """A generalized (parametric) block analysis does not pay off: analyse the call's own entry."""


class CPA(ABC, Generic[StateT]):
    """One abstract domain with its operators, on states of type ``StateT``. ``prec`` is the
    domain's own precision object. What ``rebuild`` gives only ``return_to`` takes: a domain
    may make it a state of another type (the predicate domain does)."""

    name: str = "cpa"
    joins: bool = False  # True if merge joins states at the same location (merge-join)
    widens_summaries: bool = False  # True if widen_summary must be applied to recursion summaries

    @abstractmethod
    def initial(self, node: CFANode) -> StateT: ...

    # -- lattice ------------------------------------------------------------
    @abstractmethod
    def is_less_or_equal(self, a: StateT, b: StateT) -> bool: ...

    def join(self, a: StateT, b: StateT) -> StateT:
        raise NotImplementedError(f"{self.name} has no join")

    # -- transfer -------------------------------------------------------------
    @abstractmethod
    def transfer(self, state: StateT, edge: Edge, prec: Any) -> list[StateT]:
        """Successors along an intraprocedural edge (never a CallEdge); [] if infeasible."""

    @abstractmethod
    def call_entry(self, state: StateT, edge: CallEdge, callee: FunctionCFA, prec: Any) -> list[StateT]:
        """The state at the callee's entry: arguments passed to parameters."""

    @abstractmethod
    def return_to(self, state: Any, edge: CallEdge, callee: FunctionCFA, prec: Any) -> list[StateT]:
        """After rebuild: the callee's result assigned to the call's left-hand side."""

    # -- strengthening (CPAchecker's strengthen operator) ----------------------------
    # A domain that sets this gets, in the composite, the values the other components pin at
    # the successor (``concrete_values``): facts about every state there, sound to assume.
    # ``known`` builds them on demand: most steps end between abstraction points and need none.
    uses_known_values: bool = False

    def transfer_known(self, state: StateT, edge: Edge, prec: Any,
                       known: Callable[[], dict[str, int]]) -> list[StateT]:
        return self.transfer(state, edge, prec)

    def return_to_known(self, state: Any, edge: CallEdge, callee: FunctionCFA, prec: Any,
                        known: Callable[[], dict[str, int]]) -> list[StateT]:
        return self.return_to(state, edge, callee, prec)

    # -- merge / stop / prec ------------------------------------------------------
    def merge(self, new: StateT, old: StateT, prec: Any, node: CFANode) -> StateT:
        return old  # merge-sep

    def stop(self, state: StateT, reached: Sequence[StateT], prec: Any) -> bool:
        return any(self.is_less_or_equal(state, r) for r in reached)

    def prec(self, state: StateT, prec: Any, node: CFANode) -> StateT:
        return state

    def coverage_items(self, state: StateT) -> Sequence[tuple[Hashable, Hashable]] | None:
        """Optional index for stop: hashable (key, value) pairs such that ``a <= b`` implies
        that the pairs of b are among those of a. None: no index (any state may cover)."""
        return None

    # -- BAM operators ------------------------------------------------------------
    @abstractmethod
    def reduce(self, state: StateT, block: Block, prec: Any) -> StateT: ...

    @abstractmethod
    def expand(self, entry: StateT, reduced_exit: StateT, block: Block) -> StateT: ...

    @abstractmethod
    def rebuild(self, call: StateT, entry: StateT, exit: StateT, block: Block, edge: CallEdge) -> Any: ...

    def generalize(self, reduced: StateT, block: Block, prec: Any) -> StateT:
        """The entry a block is analysed and memoized under; by default the reduced entry.
        A domain may abstract it further into a *parametric* entry (one analysis serving many
        calls) if ``instantiate`` can specialise the exits back to each call's reduced entry.
        Its transfer may raise :class:`GeneralizationAbandoned` in such a block; the block is
        then analysed from the reduced entry instead."""
        return reduced

    def instantiate(self, reduced: StateT, exit_state: StateT, block: Block) -> StateT | None:
        """An exit of the generalized analysis, specialised to the call's reduced entry; None
        if the call cannot reach that exit."""
        return exit_state

    def precision_key(self, prec: Any, block: Block) -> Hashable:
        return None

    # -- presentation / persistence ---------------------------------------------
    def describe(self, state: StateT) -> str:
        return str(state)

    def concrete_values(self, state: StateT) -> dict[str, int] | None:
        """Variables this state pins to one value, if the domain knows such a thing."""
        return None

    def summary_facts(self, state: StateT) -> dict[str, Any]:
        """What a summary shows of the state, per variable: an int (one value), a pair (a
        range), or text (an expression); or a formula under summaries.FORMULA. Rendered when a
        block is recorded, so that readers of the cache (hover, `cbam summary`) need no domain."""
        return {}

    def widen_summary(self, old: list[StateT], new: list[StateT]) -> list[StateT] | None:
        """For recursion: combine a block's previous and new exit states so that the
        fixpoint terminates; None means "keep the states as they are" (finite domains)."""
        return None

    def to_json(self, state: StateT) -> Any:
        return repr(state)

    def from_json(self, data: Any) -> StateT:
        raise NotImplementedError

    def exit_json(self, data: Any) -> Any:
        """Of a block exit's ``to_json``: the part that identifies it across edits (the cache
        compares exits by it); by default all of it."""
        return data


class CompositeCPA:
    """The product of component CPAs; component 0 is the location CPA."""

    def __init__(self, components: list[CPA[Any]]):
        self.components = components
        self.names = [c.name for c in components]
        # Components whose precision operator is not the identity (most are): prec runs per state.
        self._prec_idx = [i for i, c in enumerate(components) if type(c).prec is not CPA.prec]

    def location(self, state: tuple) -> CFANode:
        return state[0]

    def relocated(self, state: tuple) -> tuple:
        """The state at the same location of the current program: a state kept from an earlier
        build of its function (which a line shift rebuilds with new nodes) is at a node that
        no edge of this program reaches, and node identity is what states compare by."""
        loc = self.components[0]
        return (loc.from_json(loc.to_json(state[0])), *state[1:])

    def initial(self, node: CFANode) -> tuple:
        return tuple(c.initial(node) for c in self.components)

    def is_less_or_equal(self, a: tuple, b: tuple) -> bool:
        return all(c.is_less_or_equal(x, y) for c, x, y in zip(self.components, a, b))

    def join(self, a: tuple, b: tuple) -> tuple:
        """Componentwise (NotImplementedError if a component has none, ValueError if one has
        none for these two states)."""
        return tuple(c.join(x, y) for c, x, y in zip(self.components, a, b))

    def _product(self, parts: list[list]) -> list[tuple]:
        if any(not p for p in parts):
            return []
        if all(len(p) == 1 for p in parts):
            return [tuple(p[0] for p in parts)]
        return [tuple(t) for t in itertools.product(*parts)]

    def transfer(self, state: tuple, edge: Edge, prec: dict) -> list[tuple]:
        return self._step(state, lambda c, s: c.transfer(s, edge, prec.get(c.name)),
                          lambda c, s, known: c.transfer_known(s, edge, prec.get(c.name), known))

    def _step(self, state: tuple, step, step_known) -> list[tuple]:
        """Each component's successors, combined; a component that ``uses_known_values`` steps
        last, once per combination of the others, with the values they pin."""
        parts: list[list | None] = []
        for c, s in zip(self.components, state):
            if c.uses_known_values:
                parts.append(None)
                continue
            succ = step(c, s)
            if not succ:
                return []
            parts.append(succ)
        if all(p is not None for p in parts):
            return self._product(parts)  # type: ignore[arg-type]
        out: list[tuple] = []
        for t in self._product([p if p is not None else [None] for p in parts]):
            known = functools.cache(functools.partial(self._known, t))
            out.extend(self._product([[x] if x is not None else step_known(c, s, known)
                                      for c, s, x in zip(self.components, state, t)]))
        return out

    def _known(self, states: tuple) -> dict[str, int]:
        known: dict[str, int] = {}
        for c, s in zip(self.components, states):
            if s is not None:
                known.update(c.concrete_values(s) or {})
        return known

    def call_entry(self, state: tuple, edge: CallEdge, callee: FunctionCFA, prec: dict) -> list[tuple]:
        parts = []
        for c, s in zip(self.components, state):
            succ = c.call_entry(s, edge, callee, prec.get(c.name))
            if not succ:
                return []
            parts.append(succ)
        return self._product(parts)

    def return_to(self, state: tuple, edge: CallEdge, callee: FunctionCFA, prec: dict) -> list[tuple]:
        return self._step(state, lambda c, s: c.return_to(s, edge, callee, prec.get(c.name)),
                          lambda c, s, known: c.return_to_known(s, edge, callee, prec.get(c.name), known))

    def merge(self, new: tuple, old: tuple, prec: dict, node: CFANode) -> tuple:
        """merge-agree: join the joining components when all the others are equal; else keep old."""
        if not any(c.joins for c in self.components):
            return old
        for c, n, o in zip(self.components, new, old):
            if not c.joins and n != o:
                return old
        return tuple(c.merge(n, o, prec.get(c.name), node) if c.joins else o
                     for c, n, o in zip(self.components, new, old))

    def stop(self, state: tuple, reached: Sequence[tuple], prec: dict) -> bool:
        return any(self.is_less_or_equal(state, r) for r in reached)

    def coverage_items(self, state: tuple) -> list[Hashable]:
        """The components' coverage items, tagged by component (a necessary condition for
        coverage; stop confirms candidates with is_less_or_equal)."""
        out: list[Hashable] = []
        for i, (c, s) in enumerate(zip(self.components, state)):
            items = c.coverage_items(s)
            if items is not None:
                out.extend(((i, k), v) for k, v in items)
        return out

    def prec(self, state: tuple, prec: dict, node: CFANode) -> tuple:
        out = None
        for i in self._prec_idx:
            c = self.components[i]
            s = c.prec(state[i], prec.get(c.name), node)
            if s is not state[i]:
                if out is None:
                    out = list(state)
                out[i] = s
        return state if out is None else tuple(out)

    def reduce(self, state: tuple, block: Block, prec: dict) -> tuple:
        return tuple(c.reduce(s, block, prec.get(c.name)) for c, s in zip(self.components, state))

    def expand(self, entry: tuple, reduced_exit: tuple, block: Block) -> tuple:
        return tuple(c.expand(e, x, block) for c, e, x in zip(self.components, entry, reduced_exit))

    def rebuild(self, call: tuple, entry: tuple, exit: tuple, block: Block, edge: CallEdge) -> tuple:
        return tuple(c.rebuild(a, b, x, block, edge) for c, a, b, x in zip(self.components, call, entry, exit))

    def generalize(self, reduced: tuple, block: Block, prec: dict) -> tuple:
        parts = [c.generalize(s, block, prec.get(c.name)) for c, s in zip(self.components, reduced)]
        if all(p is s for p, s in zip(parts, reduced)):
            return reduced
        return tuple(parts)

    def instantiate(self, reduced: tuple, exit_state: tuple, block: Block) -> tuple | None:
        parts = []
        for c, r, x in zip(self.components, reduced, exit_state):
            p = c.instantiate(r, x, block)
            if p is None:
                return None
            parts.append(p)
        return tuple(parts)

    def precision_key(self, prec: dict, block: Block) -> Hashable:
        return tuple(c.precision_key(prec.get(c.name), block) for c in self.components)

    def describe(self, state: tuple) -> str:
        return " | ".join(c.describe(s) for c, s in zip(self.components, state))

    def widen_summary(self, old: list[tuple], new: list[tuple]) -> list[tuple] | None:
        """Componentwise, when some component widens and all others agree on one value."""
        idx = [i for i, c in enumerate(self.components) if c.widens_summaries]
        if not idx or not new:
            return None
        base = new[0]
        if any(s[i] != base[i] for s in new + old for i in range(len(base)) if i not in idx):
            return None
        out = list(base)
        for i in idx:
            widened = self.components[i].widen_summary([s[i] for s in old], [s[i] for s in new])
            assert widened is not None  # (a component that widens summaries always gives them)
            out[i] = widened[0]
        return [tuple(out)]

    def summary_facts(self, state: tuple) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for c, s in zip(self.components, state):
            out.update(c.summary_facts(s))
        return out

    def concrete_values(self, state: tuple) -> dict[str, int]:
        out: dict[str, int] = {}
        for c, s in zip(self.components, state):
            vals = c.concrete_values(s)
            if vals:
                out.update(vals)
        return out
