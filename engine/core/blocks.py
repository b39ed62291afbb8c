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


def _deterministic(cfa: FunctionCFA) -> bool:
    """Given concrete inputs, this function's run is fully determined by cbam's semantics."""
    from ..cfa.ir import AddrOf, Deref, Index, Member, Nondet, StrLit

    def plain(x) -> bool:
        return x is None or not any(isinstance(n, Nondet | Deref | Index | Member | AddrOf | StrLit) for n in x.walk())

    for e in cfa.edges():
        if isinstance(e, ExternalCallEdge):
            return False
        if isinstance(e, DeclEdge):
            assert e.var is not None
            if e.init is None and isinstance(e.var.type, IntType):
                return False
            if not isinstance(e.var.type, IntType) or not plain(e.init):
                return False
        elif isinstance(e, AssignEdge):
            if not isinstance(e.lhs, Var) or not isinstance(e.lhs.type, IntType) or not plain(e.rhs):
                return False
        elif isinstance(e, AssumeEdge):
            if not plain(e.cond):
                return False
        elif isinstance(e, CallEdge):
            if not all(plain(a) and isinstance(a.type, IntType) for a in e.args):
                return False
            if e.lhs is not None and not isinstance(e.lhs, Var):
                return False
        elif isinstance(e, ReturnEdge):
            if e.value is not None and (not plain(e.value) or not isinstance(e.value.type, IntType)):
                return False
    return True


def _edge_facts(cfa: FunctionCFA) -> tuple[frozenset[str], bool, bool]:
    names: set[str] = set()
    havoc_globals = False
    writes_memory = False
    for e in cfa.edges():
        exprs = []
        if isinstance(e, DeclEdge):
            exprs = [e.var, e.init, *e.lengths]
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
    return frozenset(names), havoc_globals, writes_memory


def _rooted_at_var(lv) -> bool:
    while not isinstance(lv, Var):
        lv = getattr(lv, "base", None)
        if lv is None:
            return False
    return True


def build_blocks(program: Program, callgraph: CallGraph) -> dict[str, Block]:
    facts = {f.name: f.derived(_edge_facts) for f in program.all_functions()}
    determ = {f.name: f.derived(_deterministic) for f in program.all_functions()}
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
            named, h, m = facts.get(g, (frozenset(), False, False))
            names |= named
            names |= locals_by_fn.get(g, set())
            havoc |= h
            mem |= m
        if havoc:
            names |= globals_
        named = frozenset(names)
        if mem:
            names |= addressed
        inputs = frozenset(f.params) | frozenset(n for n in names if n in globals_)
        blocks[f.name] = Block(f.name, f, funcs, frozenset(names), havoc, mem,
                               all(determ.get(g, False) for g in funcs) and not havoc and not mem, inputs, named)
    return blocks
