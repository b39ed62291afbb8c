"""Control-flow automata: per-function CFAs over the nodes and edges of ir.py, and the whole
program."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from ..frontend.errors import Diagnostic, Range
from .ctype import CType, DataModel
from .ir import CFANode, Edge


@dataclass
class VarInfo:
    """A program variable: its unique name, type, owner and where it is declared."""

    name: str
    type: CType
    function: str | None  # None for globals (including static locals, which live in globals)
    is_param: bool = False
    is_temp: bool = False
    is_result: bool = False
    addressed: bool = False
    range: Range | None = None

    @property
    def is_global(self) -> bool:
        return self.function is None


_T = TypeVar("_T")


@dataclass
class FunctionCFA:
    """One function's control-flow automaton, with what the front end found about it."""

    name: str
    entry: CFANode
    exit: CFANode
    params: list[str]
    return_type: CType
    result_var: str | None
    nodes: list[CFANode] = field(default_factory=list)
    range: Range | None = None
    name_range: Range | None = None
    unsupported: tuple[str, Range | None] | None = None
    fingerprint: str = ""
    calls: set[str] = field(default_factory=set)
    variadic: bool = False

    def edges(self):
        for n in self.nodes:
            yield from n.out

    def derived(self, compute: Callable[[FunctionCFA], _T]) -> _T:
        """``compute(self)``, kept with this CFA. ``compute`` must read nothing but the CFA: an
        unchanged function's CFA is reused from one run to the next, and so are its facts."""
        memo: dict[Any, Any] | None = self.__dict__.get("_derived")
        if memo is None:
            memo = self.__dict__["_derived"] = {}
        if compute not in memo:
            memo[compute] = compute(self)
        return memo[compute]

    def canonical_nodes(self) -> list[CFANode]:
        """Nodes by canonical index (see canonical_order)."""
        table = getattr(self, "_canon_table", None)
        if table is None:
            table = canonical_order(self)
            self._canon_table = table
        return table


@dataclass
class Program:
    """Every function's CFA, the variables and types, and what the front end reported."""

    data_model: DataModel
    functions: dict[str, FunctionCFA]
    vars: dict[str, VarInfo]
    structs: dict[str, list[tuple[str, CType]]]
    start: FunctionCFA  # synthetic: initialises globals, then calls the entry function
    entry: str
    main_file: str
    diagnostics: list[Diagnostic] = field(default_factory=list)
    declared: dict[str, Range | None] = field(default_factory=dict)  # external functions
    func_types: dict = field(default_factory=dict)  # name -> FunctionType, declared or defined
    callgraph: object = None
    source_key: str | None = None  # content address of what the front end read (frontend.source_key)
    # The same, known before preprocessing, where the source's bytes decide its preprocessed text
    # (frontend.source_key.unpreprocessed_key)
    unpreprocessed_key: str | None = None
    load_stats: dict = field(default_factory=dict)  # what the front end parsed, built and reused
    memsafety: bool = False  # the memory-safety checks are in the CFA (cfa/memsafety.py)
    alloc_may_fail: bool = False  # allocations may return NULL (cfa/allocation.py)
    entry_null: bool = False  # the entry's pointer parameters may be NULL (cfa/nullable.py)

    def all_functions(self) -> list[FunctionCFA]:
        return [self.start, *self.functions.values()]

    def function_of_name(self, name: str) -> FunctionCFA:
        return self.start if name == self.start.name else self.functions[name]

    def interprocedural_edges(self) -> list[FunctionCallEdge | FunctionReturnEdge]:
        """The call and return edges between the per-function CFAs, one pair per call site."""
        from .ir import CallEdge

        out: list[FunctionCallEdge | FunctionReturnEdge] = []
        for f in self.all_functions():
            for e in f.edges():
                if isinstance(e, CallEdge) and e.callee in self.functions:
                    callee = self.functions[e.callee]
                    out.append(FunctionCallEdge(e, callee))
                    out.append(FunctionReturnEdge(e, callee))
        return out


@dataclass(frozen=True)
class FunctionCallEdge:
    """From a call site to the callee's entry: arguments are passed to the parameters.

    Derived from the caller's summary edge (``ir.CallEdge``); the analyses apply it through
    ``CPA.call_entry``.
    """

    summary: Edge
    callee: FunctionCFA

    @property
    def pred(self) -> CFANode:
        return self.summary.pred

    @property
    def succ(self) -> CFANode:
        return self.callee.entry


@dataclass(frozen=True)
class FunctionReturnEdge:
    """From the callee's exit back to the call's return node: the result goes to the left-hand
    side (``CPA.rebuild`` then ``CPA.return_to``)."""

    summary: Edge
    callee: FunctionCFA

    @property
    def pred(self) -> CFANode:
        return self.callee.exit

    @property
    def succ(self) -> CFANode:
        return self.summary.succ


def canonical_order(cfa: FunctionCFA) -> list[CFANode]:
    """Breadth-first from the entry, successors in edge order (then the exit if unreachable):
    a node order that does not depend on numbering, layout or positions in the source."""
    order: list[CFANode] = []
    seen: set[int] = set()
    queue = deque([cfa.entry])
    seen.add(id(cfa.entry))
    while queue:
        n = queue.popleft()
        order.append(n)
        for e in n.out:
            if id(e.succ) not in seen:
                seen.add(id(e.succ))
                queue.append(e.succ)
    if id(cfa.exit) not in seen:
        order.append(cfa.exit)
    return order
