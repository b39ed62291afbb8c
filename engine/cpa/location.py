"""The location CPA: the program counter, a flat lattice; reduce/expand/rebuild are identities."""

from __future__ import annotations

from typing import Any

from ..cfa.cfa import FunctionCFA, Program
from ..cfa.ir import CallEdge, CFANode, Edge
from ..core.cpa import CPA, Block


class LocationCPA(CPA[CFANode]):
    name = "location"

    def __init__(self, program: Program | None = None):
        self.program = program  # resolves the JSON form of a node back to the node

    def initial(self, node: CFANode) -> CFANode:
        return node

    def is_less_or_equal(self, a: CFANode, b: CFANode) -> bool:
        return a is b

    def coverage_items(self, state: CFANode) -> tuple:
        return ()  # reached states are kept per location already

    def join(self, a: CFANode, b: CFANode) -> CFANode:
        if a is not b:
            raise ValueError("join of different locations")
        return a

    def transfer(self, state: CFANode, edge: Edge, prec: Any) -> list[CFANode]:
        return [edge.succ]

    def call_entry(self, state: CFANode, edge: CallEdge, callee: FunctionCFA, prec: Any) -> list[CFANode]:
        return [callee.entry]

    def return_to(self, state: CFANode, edge: CallEdge, callee: FunctionCFA, prec: Any) -> list[CFANode]:
        return [edge.succ]

    def merge(self, new: CFANode, old: CFANode, prec: Any, node: CFANode) -> CFANode:
        return old

    def reduce(self, state: CFANode, block: Block, prec: Any) -> CFANode:
        return state

    def expand(self, entry: CFANode, reduced_exit: CFANode, block: Block) -> CFANode:
        return reduced_exit

    def rebuild(self, call: CFANode, entry: CFANode, exit: CFANode, block: Block, edge: CallEdge) -> CFANode:
        return exit

    def describe(self, state: CFANode) -> str:
        return state.key

    def to_json(self, state: CFANode) -> Any:
        # The canonical number: the same node after an edit elsewhere in the file.
        return [state.function, state.canon]

    def from_json(self, data: Any) -> CFANode:
        if self.program is None:
            raise ValueError("a location CPA without its program cannot read a stored node")
        return self.program.function_of_name(data[0]).canonical_nodes()[data[1]]

    def exit_json(self, data: Any) -> Any:
        # An exit is at its block's exit node, whatever that node's number: an edit that adds a
        # statement renumbers the nodes, and must not make identical exits look different.
        return "exit"
