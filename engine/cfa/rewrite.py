"""Small edits of a built CFA, for the passes that add to it (cfa/memsafety.py,
cfa/allocation.py): a fresh node, and linking an edge into its nodes."""

from __future__ import annotations

from .cfa import FunctionCFA
from .ir import CFANode, Edge


def new_node(f: FunctionCFA) -> CFANode:
    n = CFANode(f.name, max(x.id for x in f.nodes) + 1)
    f.nodes.append(n)
    return n


def link(e: Edge) -> Edge:
    e.pred.out.append(e)
    e.succ.inn.append(e)
    return e


def move_start(e: Edge, node: CFANode) -> None:
    """``e`` now leaves from ``node`` (a node added in front of it)."""
    e.pred.out.remove(e)
    e.pred = node
    node.out.append(e)
