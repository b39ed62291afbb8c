"""A function's weak topological order (Bourdoncle, 1993): the order in which merged-path BMC
(algorithms/bmc/merged.py) visits the unrolled program.

A WTO lists a CFA's nodes so that every edge either goes forward in the list or back to the
head of a *component* (a loop, nested as the loops are) that contains its source; a
component's nodes follow its head without a gap. Unrolled with an iteration count per
component, the order becomes a topological order of the unrolled program: a state's place is
``(pos(h1), c1, pos(h2), c2, ..., pos(node))`` for the components ``h1 ⊃ h2 ⊃ ...`` around its
node and their iteration counts, and every edge leads to a larger place (a back edge
increments its head's count). So when the engine takes the state with the smallest place,
every state that can reach that place has already arrived there, and they merge.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...cfa.cfa import FunctionCFA
from ...cfa.ir import CFANode

_DONE = 1 << 62  # a node's depth-first number once its component is finished


@dataclass(frozen=True)
class Wto:
    pos: dict[int, int]  # id(node) -> its place in the order
    heads: dict[int, tuple[CFANode, ...]]  # id(node) -> the heads of the components around it, outermost first

    def local_key(self, node: CFANode, counts: tuple[int, ...]) -> tuple[int, ...]:
        """The node's place in the unrolled function, ``counts`` its components' iteration counts."""
        key: list[int] = []
        for h, c in zip(self.heads[id(node)], counts):
            key += (self.pos[id(h)], c)
        key.append(self.pos[id(node)])
        return tuple(key)

    def advance(self, src: CFANode, counts: tuple[int, ...], dst: CFANode) -> tuple[tuple[int, ...], bool]:
        """The iteration counts at ``dst`` after an edge from ``src`` (at ``counts``), and whether
        the edge is a back edge (it starts the next iteration of ``dst``'s component)."""
        hs, hd = self.heads[id(src)], self.heads[id(dst)]
        k = 0
        while k < len(hs) and k < len(hd) and hs[k] is hd[k]:
            k += 1  # the components around both: the edge stays in their iteration
        out = counts[:k] + (0,) * (len(hd) - k)
        back = k == len(hd) and bool(hd) and hd[-1] is dst
        if back:
            out = out[:-1] + (out[-1] + 1,)
        return out, back


def wto(cfa: FunctionCFA) -> Wto:
    """The function's WTO, keyed by node identity (so it is computed per run, never stored with a
    CFA that may be pickled). Recursive, as Bourdoncle's algorithm is: the depth follows the CFA's
    longest acyclic path (the analyses run on a thread with a deep stack, verify.run_deep)."""
    dfn: dict[int, int] = {}
    stack: list[CFANode] = []
    num = 0

    def succs(v: CFANode) -> list[CFANode]:
        return [e.succ for e in v.out]

    def visit(v: CFANode, partition: list) -> int:
        nonlocal num
        stack.append(v)
        num += 1
        dfn[id(v)] = num
        head = num
        loop = False
        for w in succs(v):
            d = dfn.get(id(w), 0)
            m = visit(w, partition) if d == 0 else d
            if m <= head:
                head, loop = m, True
        if head == dfn[id(v)]:
            dfn[id(v)] = _DONE
            e = stack.pop()
            if loop:
                while e is not v:
                    dfn[id(e)] = 0
                    e = stack.pop()
                partition.insert(0, component(v))
            else:
                partition.insert(0, v)
        return head

    def component(v: CFANode) -> tuple[CFANode, list]:
        part: list = []
        for w in succs(v):
            if dfn.get(id(w), 0) == 0:
                visit(w, part)
        return v, part

    top: list = []
    visit(cfa.entry, top)
    pos: dict[int, int] = {}
    heads: dict[int, tuple[CFANode, ...]] = {}

    def flatten(part: list, around: tuple[CFANode, ...]) -> None:
        for el in part:
            if isinstance(el, tuple):
                h, inner = el
                pos[id(h)] = len(pos)
                heads[id(h)] = (*around, h)
                flatten(inner, (*around, h))
            else:
                pos[id(el)] = len(pos)
                heads[id(el)] = around

    flatten(top, ())
    return Wto(pos, heads)
