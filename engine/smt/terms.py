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


def few_values(term: z3.ExprRef, limit: int, depth: int = 8) -> int | None:
    """An upper bound on how many values the bit-vector ``term`` can take, read off its shape
    alone (no solver): ``x % 4`` takes at most 4, ``x & 1`` 2, ``c ? a : b`` what ``a`` and
    ``b`` take together; None where the bound found exceeds ``limit`` (or the term is too deep
    to tell cheaply). Path exploration splits a path on such a value (algorithms/paths.py)."""
    if not z3.is_bv(term):
        return None
    width = term.size()
    whole = 1 << width if width <= 16 else None  # what any term of this width can take
    if z3.is_bv_value(term):
        return 1
    if depth == 0 or not z3.is_app(term):
        return whole if whole is not None and whole <= limit else None
    kind = term.decl().kind()
    kids = [term.arg(i) for i in range(term.num_args())]

    def of(k: z3.ExprRef) -> int | None:
        return few_values(k, limit, depth - 1)

    def const(k: z3.ExprRef) -> int | None:
        return k.as_long() if z3.is_bv_value(k) else None

    n: int | None = None
    if kind in (z3.Z3_OP_BUREM, z3.Z3_OP_BUREM_I) and (c := const(kids[1])) is not None and c > 0:
        n = c
    elif kind in (z3.Z3_OP_BSREM, z3.Z3_OP_BSREM_I, z3.Z3_OP_BSMOD, z3.Z3_OP_BSMOD_I) \
            and (c := const(kids[1])) is not None:
        c = c - (1 << width) if c >> (width - 1) else c
        n = 2 * abs(c) - 1 if c else None
    elif kind == z3.Z3_OP_BAND and any(const(k) is not None for k in kids):
        mask = (1 << width) - 1
        for k in kids:
            if (c := const(k)) is not None:
                mask &= c
        n = 1 << bin(mask).count("1")
    elif kind in (z3.Z3_OP_ZERO_EXT, z3.Z3_OP_SIGN_EXT, z3.Z3_OP_BNOT, z3.Z3_OP_BNEG):
        n = of(kids[0])
    elif kind == z3.Z3_OP_EXTRACT:
        inner = of(kids[0])
        n = inner if whole is None else min(whole, inner) if inner is not None else whole
    elif kind == z3.Z3_OP_ITE:
        a, b = of(kids[1]), of(kids[2])
        n = a + b if a is not None and b is not None else None
    elif kind in (z3.Z3_OP_BADD, z3.Z3_OP_BMUL, z3.Z3_OP_BSUB, z3.Z3_OP_BOR, z3.Z3_OP_BXOR, z3.Z3_OP_CONCAT):
        n = 1
        for k in kids:
            m = of(k)
            if m is None:
                n = None
                break
            n *= m
            if n > limit:
                n = None
                break
    elif kind in (z3.Z3_OP_BLSHR, z3.Z3_OP_BUDIV, z3.Z3_OP_BUDIV_I) and (c := const(kids[1])) is not None:
        n = of(kids[0])
        if kind == z3.Z3_OP_BLSHR and c < width and (1 << (width - c)) <= limit:
            n = min(n, 1 << (width - c)) if n is not None else 1 << (width - c)
    if n is None or (whole is not None and whole < n):
        n = whole
    return n if n is not None and n <= limit else None


_REDUCTIONS = (z3.Z3_OP_BUREM, z3.Z3_OP_BUREM_I, z3.Z3_OP_BSREM, z3.Z3_OP_BSREM_I, z3.Z3_OP_BSMOD, z3.Z3_OP_BSMOD_I,
               z3.Z3_OP_BAND, z3.Z3_OP_BLSHR, z3.Z3_OP_BUDIV, z3.Z3_OP_BUDIV_I, z3.Z3_OP_EXTRACT)
_WRAPPERS = (z3.Z3_OP_ZERO_EXT, z3.Z3_OP_SIGN_EXT, z3.Z3_OP_EXTRACT, z3.Z3_OP_BADD, z3.Z3_OP_BSUB, z3.Z3_OP_BMUL,
             z3.Z3_OP_BOR, z3.Z3_OP_BXOR, z3.Z3_OP_CONCAT, z3.Z3_OP_BNOT, z3.Z3_OP_BNEG)


def drawn_from_few(term: z3.ExprRef, limit: int) -> int | None:
    """``few_values(term, limit)`` where the few values come from reducing a value of many
    (``x % 4``, ``'a' + x % 3``, ``x & 7``: a choice among a handful, drawn from an input), else
    None. A sum of two values of few values each (``s += a[i]`` over bits) is not such a
    choice: splitting on it would follow one path per partial sum where one path does."""
    n = few_values(term, limit)
    if n is None or n < 2:
        return None
    t = term
    for _ in range(8):
        if not z3.is_app(t):
            return None
        kind = t.decl().kind()
        kids = [t.arg(i) for i in range(t.num_args())]
        if kind in _REDUCTIONS and kind != z3.Z3_OP_EXTRACT or kind == z3.Z3_OP_EXTRACT and few_values(kids[0], limit) is None:
            return n if few_values(kids[0], limit) is None else None
        if kind == z3.Z3_OP_CONCAT:  # (z3's x % 4: zeros, then the low bits of x)
            kids = [k for k in kids if not z3.is_bv_value(k)]
        elif kind not in _WRAPPERS:
            return None
        symbolic = [k for k in kids if not z3.is_bv_value(k)]
        if len(symbolic) != 1:
            return None
        t = symbolic[0]
    return None
