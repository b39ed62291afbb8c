"""Entry pointers that may be NULL: with this option, each pointer parameter of the entry
function gets NULL or its fresh object (cfa/builder.py), chosen by an input named
``input <param> == NULL`` that the harness replays. By default they point to their objects."""

from __future__ import annotations

from .builder import ENTRY_OBJECT
from .cfa import Program, VarInfo
from .ir import AddrOf, AssignEdge, AssumeEdge, Binary, Cast, Const, Expr, Index, Nondet, Var
from .rewrite import link, move_start, new_node


def let_entry_pointers_be_null(program: Program) -> None:
    start = program.start
    int_t = program.data_model.int
    for e in [e for n in list(start.nodes) for e in n.out]:
        if not isinstance(e, AssignEdge) or e.lhs is None or e.rhs is None:
            continue
        param = _entry_object_param(e.rhs)
        if param is None:
            continue
        name = f"{start.name}::__cbam_null.{param}"
        program.vars[name] = VarInfo(name, int_t, start.name, is_temp=True)
        choice = Var(name, int_t)
        pred, succ = e.pred, e.succ
        chosen, null, points = new_node(start), new_node(start), new_node(start)
        link(AssignEdge(pred=pred, succ=chosen, lhs=choice, rhs=Nondet(int_t, f"input {param} == NULL")))
        cond = Binary("!=", choice, Const(0, int_t), int_t)
        link(AssumeEdge(pred=chosen, succ=null, cond=cond, truth=True))
        link(AssumeEdge(pred=chosen, succ=points, cond=cond, truth=False))
        link(AssignEdge(pred=null, succ=succ, lhs=e.lhs, rhs=Cast(Const(0, int_t), e.lhs.type)))
        move_start(e, points)


def _entry_object_param(rhs: Expr) -> str | None:
    """The parameter whose entry object ``rhs`` (its address, maybe cast) points to."""
    while isinstance(rhs, Cast | AddrOf | Index):
        rhs = rhs.arg if isinstance(rhs, Cast | AddrOf) else rhs.base
    if isinstance(rhs, Var) and ENTRY_OBJECT in rhs.name:
        return rhs.name.split(ENTRY_OBJECT, 1)[1]
    return None
