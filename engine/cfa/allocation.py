"""Allocation that may fail: with this option, each call of malloc, calloc or realloc in the
CFA becomes a choice between the call and a NULL result (SV-COMP tasks that check what a
program does when memory runs out expect it; by default allocation succeeds). The choice is
an input named ``__cbam_alloc_fails``: the harness's malloc returns NULL where it was 1."""

from __future__ import annotations

from .cfa import FunctionCFA, Program, VarInfo
from .ir import AssignEdge, AssumeEdge, Binary, Cast, Const, ExternalCallEdge, Nondet, Var
from .rewrite import link, move_start, new_node

FAILING = ("malloc", "calloc", "realloc")
CHOICE = "__cbam_alloc_fails"


def let_allocation_fail(program: Program) -> None:
    """Add the failing branch to every allocation call of ``program`` (in place)."""
    dm = program.data_model
    for f in program.all_functions():
        for e in [e for n in list(f.nodes) for e in n.out]:
            if isinstance(e, ExternalCallEdge) and e.callee in FAILING and e.lhs is not None:
                _branch(program, f, e, dm.int)


def _branch(program: Program, f: FunctionCFA, e: ExternalCallEdge, int_t) -> None:
    name = f"{f.name}::{CHOICE}.{len(program.vars)}"
    program.vars[name] = VarInfo(name, int_t, f.name, is_temp=True)
    choice = Var(name, int_t)
    pred, succ = e.pred, e.succ
    chosen, fails, calls = new_node(f), new_node(f), new_node(f)
    link(AssignEdge(pred=pred, succ=chosen, range=e.range, text=e.text, lhs=choice, rhs=Nondet(int_t, CHOICE)))
    cond = Binary("!=", choice, Const(0, int_t), int_t)
    link(AssumeEdge(pred=chosen, succ=fails, range=e.range, text=e.text, cond=cond, truth=True))
    link(AssumeEdge(pred=chosen, succ=calls, range=e.range, text=e.text, cond=cond, truth=False))
    assert e.lhs is not None
    link(AssignEdge(pred=fails, succ=succ, range=e.range, text=e.text, lhs=e.lhs,
                     rhs=Cast(Const(0, int_t), e.lhs.type)))
    move_start(e, calls)
