"""The callstack CPA: the stack of active functions.

Frames hold function names only, not call sites: otherwise main's call of f and f's
recursive call of f would never cover each other and recursion would unroll forever.
"""

from __future__ import annotations

from typing import Any

from ..cfa.cfa import FunctionCFA
from ..cfa.ir import CallEdge, CFANode, Edge
from ..core.cpa import CPA, Block

Stack = tuple[str, ...]


class CallstackCPA(CPA[Stack]):
    name = "callstack"

    def initial(self, node: CFANode) -> Stack:
        return (node.function,)

    def is_less_or_equal(self, a: Stack, b: Stack) -> bool:
        return a == b

    def join(self, a: Stack, b: Stack) -> Stack:
        if a != b:
            raise ValueError("two call stacks have no join")  # as the location domain
        return a

    def coverage_items(self, state: Stack) -> tuple:
        return (("stack", state),)

    def transfer(self, state: Stack, edge: Edge, prec: Any) -> list[Stack]:
        return [state]

    def call_entry(self, state: Stack, edge: CallEdge, callee: FunctionCFA, prec: Any) -> list[Stack]:
        return [state + (callee.name,)]

    def return_to(self, state: Stack, edge: CallEdge, callee: FunctionCFA, prec: Any) -> list[Stack]:
        return [state[:-1]] if len(state) > 1 else [state]

    def reduce(self, state: Stack, block: Block, prec: Any) -> Stack:
        return state[-1:]

    def expand(self, entry: Stack, reduced_exit: Stack, block: Block) -> Stack:
        return entry

    def rebuild(self, call: Stack, entry: Stack, exit: Stack, block: Block, edge: CallEdge) -> Stack:
        return exit

    def describe(self, state: Stack) -> str:
        return "/".join(state)

    def to_json(self, state: Stack) -> Any:
        return list(state)

    def from_json(self, data: Any) -> Stack:
        return tuple(data)
