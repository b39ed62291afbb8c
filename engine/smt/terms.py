"""z3 terms and Horn rules as the engines over clauses share them: a rule quantified over its
own variables, the definitions in Spacer's answer, a formula's uninterpreted constants.
"""

from __future__ import annotations

from collections.abc import Iterable

import z3

from .solving import subterms


def add_rule(fp: z3.Fixedpoint, head: z3.BoolRef, body: list[z3.BoolRef], variables: Iterable[z3.ExprRef]) -> None:
    """A Horn rule, quantified over its own variables. (``fp.declare_var`` would quantify each
    rule over every variable declared so far: quadratic in the size of the clauses.)"""
    rule = z3.Implies(z3.And(body), head) if body else head
    vs = list(variables)
    fp.add_rule(z3.ForAll(vs, rule) if vs else rule)


def definitions(answer: z3.ExprRef, args: dict[str, list[z3.ExprRef]]) -> dict[str, z3.BoolRef]:
    """Spacer's answer to an unsatisfiable query (``ForAll(xs, R(xs) == body)`` per relation),
    each relation named in ``args`` defined over the terms given for its positions."""
    out: dict[str, z3.BoolRef] = {}
    for q in (answer.children() if z3.is_and(answer) else [answer]):
        body = q.body() if z3.is_quantifier(q) else q
        app, f = relation_definition(body)
        if app is None or app.decl().name() not in args:
            continue
        terms = args[app.decl().name()]
        # de Bruijn variables -> the terms of their positions
        subst: list[z3.ExprRef | None] = [None] * app.num_args()
        if not all(z3.is_var(app.arg(pos)) for pos in range(app.num_args())):
            continue
        for pos in range(app.num_args()):
            subst[z3.get_var_index(app.arg(pos))] = terms[pos]
        if any(s is None for s in subst):
            continue
        out[app.decl().name()] = z3.substitute_vars(f, *subst) if subst else f
    return out


def relation_definition(body: z3.ExprRef) -> tuple[z3.ExprRef | None, z3.ExprRef]:
    if z3.is_app(body) and body.decl().kind() == z3.Z3_OP_EQ and z3.is_bool(body.arg(0)):
        a, b = body.arg(0), body.arg(1)
        if z3.is_app(a) and a.decl().kind() == z3.Z3_OP_UNINTERPRETED:
            return a, b
        if z3.is_app(b) and b.decl().kind() == z3.Z3_OP_UNINTERPRETED:
            return b, a
    if z3.is_app(body) and body.decl().kind() == z3.Z3_OP_UNINTERPRETED:
        return body, z3.BoolVal(True, body.ctx)
    if z3.is_not(body) and body.arg(0).decl().kind() == z3.Z3_OP_UNINTERPRETED:
        return body.arg(0), z3.BoolVal(False, body.ctx)
    return None, body


def uninterpreted_consts(*terms: z3.ExprRef) -> set[z3.ExprRef]:
    """The uninterpreted constants in ``terms``."""
    return {t for t in subterms(*terms) if z3.is_const(t) and t.decl().kind() == z3.Z3_OP_UNINTERPRETED}
