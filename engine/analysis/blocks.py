"""Procedure blocks for BAM: each function with everything it calls."""

from __future__ import annotations

from ..cfa.callgraph import CallGraph
from ..cfa.cfa import FunctionCFA, Program
from ..cfa.ctype import IntType
from ..cfa.ir import (
    AssignEdge,
    AssumeEdge,
    CallEdge,
    DeclEdge,
    ExternalCallEdge,
    ReturnEdge,
    Var,
)
from .cpa import Block


def _edge_facts(cfa: FunctionCFA) -> tuple[set[str], bool, bool]:
    names: set[str] = set()
    havoc_globals = False
    writes_memory = False
    for e in cfa.edges():
        exprs = []
        if isinstance(e, DeclEdge):
            exprs = [e.var, e.init]
        elif isinstance(e, AssignEdge):
            exprs = [e.lhs, e.rhs]
            if e.lhs is not None and not _rooted_at_var(e.lhs):
                writes_memory = True
        elif isinstance(e, AssumeEdge):
            exprs = [e.cond]
        elif isinstance(e, CallEdge):
            exprs = [e.lhs, *e.args]
            if e.lhs is not None and not _rooted_at_var(e.lhs):
                writes_memory = True
        elif isinstance(e, ExternalCallEdge):
            exprs = [e.lhs, *e.args]
            havoc_globals |= e.writes_globals
            if any(not isinstance(a.type, IntType) for a in e.args):
                writes_memory = True
        elif isinstance(e, ReturnEdge):
            exprs = [e.value, e.result_var]
        for x in exprs:
            if x is not None:
                names |= x.variables()
    return names, havoc_globals, writes_memory


def _rooted_at_var(lv) -> bool:
    while not isinstance(lv, Var):
        lv = getattr(lv, "base", None)
        if lv is None:
            return False
    return True


def build_blocks(program: Program, callgraph: CallGraph) -> dict[str, Block]:
    facts = {f.name: _edge_facts(f) for f in program.all_functions()}
    addressed = {n for n, v in program.vars.items() if v.addressed}
    globals_ = {n for n, v in program.vars.items() if v.is_global}
    locals_by_fn: dict[str, set[str]] = {}
    for n, v in program.vars.items():
        if v.function is not None:
            locals_by_fn.setdefault(v.function, set()).add(n)
    blocks: dict[str, Block] = {}
    for f in program.all_functions():
        funcs = frozenset(callgraph.reachable(f.name))
        names: set[str] = set()
        havoc = False
        mem = False
        for g in funcs:
            n, h, m = facts.get(g, (set(), False, False))
            names |= n
            names |= locals_by_fn.get(g, set())
            havoc |= h
            mem |= m
        if havoc:
            names |= globals_
        if mem:
            names |= addressed
        blocks[f.name] = Block(f.name, f, funcs, frozenset(names), havoc, mem)
    return blocks
