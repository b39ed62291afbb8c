"""Predicates: linear atoms over one frame's variables, independent of the SMT theory.

An atom is ``sum(c_i * x_i) <= k`` or ``sum(c_i * x_i) == k`` over program variables
(and entry copies ``x@old``). Interpolation finds atoms in linear integer arithmetic; the
abstraction reads them in the theory it runs in:

* integers: literally;
* bit-vectors: an equality is read modulo 2^w at the widest width of its variables, as C
  arithmetic would compute it (``\\result == n + m`` holds for unsigned wrap-around); an
  inequality is read over the exact values (each variable extended by its signedness to a
  width where nothing overflows).

Any reading is sound: predicate abstraction is sound for every set of predicates, so
the theory only decides how useful an atom is, never whether a verdict is right.
"""

from __future__ import annotations

from collections.abc import Callable
from math import gcd

import z3

from ...cfa.ctype import IntType
from ...smt.solving import extend

OLD = "@old"  # suffix of an entry copy: the value a parameter or global had at function entry

# (op, ((var, coeff), ...) sorted by var, const); op is "<=" or "=="
Atom = tuple[str, tuple[tuple[str, int], ...], int]

WIDE = 130  # bits: wide enough that a small linear combination of 64-bit values cannot overflow


def base_var(name: str) -> str:
    return name[: -len(OLD)] if name.endswith(OLD) else name


def make_atom(op: str, coeffs: dict[str, int], const: int) -> Atom | None:
    """A normalised atom (gcd 1, equalities with a positive leading coefficient), or None if trivial."""
    items = tuple(sorted((v, c) for v, c in coeffs.items() if c != 0))
    if not items:
        return None
    g = 0
    for _, c in items:
        g = gcd(g, abs(c))
    if op == "==":
        if const % g:
            return None  # never true: not a useful predicate
        items = tuple((v, c // g) for v, c in items)
        const //= g
        if items[0][1] < 0:
            items = tuple((v, -c) for v, c in items)
            const = -const
    else:
        items = tuple((v, c // g) for v, c in items)
        const = const // g  # floor: sum <= k  <=>  sum/g <= floor(k/g)
    return (op, items, const)


def atom_vars(a: Atom) -> set[str]:
    return {v for v, _ in a[1]}


# ---- from z3 (interpolants in linear integer arithmetic) --------------------------------

class _NonLinear(Exception):
    pass


def _linear(t: z3.ExprRef, name_of: Callable[[z3.ExprRef], str | None]) -> tuple[dict[str, int], int]:
    if z3.is_int_value(t):
        return {}, t.as_long()
    if z3.is_const(t) or z3.is_var(t):
        n = name_of(t)
        if n is None:
            raise _NonLinear()
        return {n: 1}, 0
    k = t.decl().kind()
    if k == z3.Z3_OP_ADD:
        co: dict[str, int] = {}
        c0 = 0
        for a in t.children():
            c, k0 = _linear(a, name_of)
            for v, x in c.items():
                co[v] = co.get(v, 0) + x
            c0 += k0
        return co, c0
    if k == z3.Z3_OP_SUB:
        first, *rest = t.children()
        co, c0 = _linear(first, name_of)
        co = dict(co)
        for a in rest:
            c, k0 = _linear(a, name_of)
            for v, x in c.items():
                co[v] = co.get(v, 0) - x
            c0 -= k0
        return co, c0
    if k == z3.Z3_OP_UMINUS:
        c, k0 = _linear(t.arg(0), name_of)
        return {v: -x for v, x in c.items()}, -k0
    if k == z3.Z3_OP_MUL:
        scale = 1
        lin: tuple[dict[str, int], int] | None = None
        for a in t.children():
            if z3.is_int_value(a):
                scale *= a.as_long()
            elif lin is None:
                lin = _linear(a, name_of)
            else:
                raise _NonLinear()
        if lin is None:
            return {}, scale
        return {v: x * scale for v, x in lin[0].items()}, lin[1] * scale
    if k == z3.Z3_OP_TO_INT or k == z3.Z3_OP_TO_REAL:
        return _linear(t.arg(0), name_of)
    raise _NonLinear()


def atoms_of(f: z3.ExprRef, name_of: Callable[[z3.ExprRef], str | None]) -> set[Atom]:
    """The linear atoms of a formula (non-linear and divisibility atoms are left out)."""
    out: set[Atom] = set()
    seen: set[int] = set()
    todo = [f]
    while todo:
        t = todo.pop()
        if t.get_id() in seen:
            continue
        seen.add(t.get_id())
        if not z3.is_bool(t):
            continue
        if z3.is_quantifier(t):
            # Spacer's interpolants may keep locals existentially quantified: the atoms over the
            # node's own variables are still atoms of it (those over bound ones are not linear
            # in the names, and are left out).
            todo.append(t.body())
            continue
        k = t.decl().kind() if z3.is_app(t) else None
        if k in (z3.Z3_OP_AND, z3.Z3_OP_OR, z3.Z3_OP_NOT, z3.Z3_OP_IMPLIES, z3.Z3_OP_ITE) or \
                (k == z3.Z3_OP_EQ and z3.is_bool(t.arg(0))):
            todo.extend(c for c in t.children() if z3.is_bool(c))
            continue
        if k in (z3.Z3_OP_LE, z3.Z3_OP_LT, z3.Z3_OP_GE, z3.Z3_OP_GT, z3.Z3_OP_EQ, z3.Z3_OP_DISTINCT) \
                and t.num_args() == 2 and t.arg(0).sort() == z3.IntSort():
            try:
                lc, lk = _linear(t.arg(0), name_of)
                rc, rk = _linear(t.arg(1), name_of)
            except _NonLinear:
                continue
            diff = dict(lc)
            for v, x in rc.items():
                diff[v] = diff.get(v, 0) - x
            const = rk - lk  # sum(diff) (op) const
            if k in (z3.Z3_OP_EQ, z3.Z3_OP_DISTINCT):
                a = make_atom("==", diff, const)
            elif k == z3.Z3_OP_LE:
                a = make_atom("<=", diff, const)
            elif k == z3.Z3_OP_LT:
                a = make_atom("<=", diff, const - 1)
            elif k == z3.Z3_OP_GE:
                a = make_atom("<=", {v: -x for v, x in diff.items()}, -const)
            else:
                a = make_atom("<=", {v: -x for v, x in diff.items()}, -const - 1)
            if a is not None:
                out.add(a)
    return out


# ---- to z3 ------------------------------------------------------------------------

def atom_to_z3(a: Atom, term: Callable[[str], z3.ExprRef], types: Callable[[str], IntType], theory: str) -> z3.BoolRef:
    op, items, const = a
    if theory == "lia":
        s = z3.Sum([c * term(v) if c != 1 else term(v) for v, c in items]) if len(items) > 1 else \
            (items[0][1] * term(items[0][0]) if items[0][1] != 1 else term(items[0][0]))
        return s == const if op == "==" else s <= const
    if op == "==":
        # modular equality at the widest operand's width
        w = max(types(v).bits for v, _ in items)
        return _bv_sum(items, term, types, w) == z3.BitVecVal(const % (1 << w), w)
    # signed comparison at a width where the sum's exact value is representable
    w = exact_width(items, const, types)
    return _bv_sum(items, term, types, w) <= z3.BitVecVal(const % (1 << w), w)


def exact_width(items, const: int, types: Callable[[str], IntType]) -> int:
    """A width at which sum(c_i * x_i) and const are exact signed values: each term needs the
    variable's bits, its coefficient's bits and a sign bit; the sum a carry bit per doubling.
    (A fixed 130 bits was as exact, but bit-blasting its adders cost most of the solver's time.)"""
    term = max(types(v).bits + abs(c).bit_length() + 1 for v, c in items)
    return min(WIDE, max(term + len(items).bit_length() + 1, abs(const).bit_length() + 2))


def _bv_sum(items, term: Callable[[str], z3.ExprRef], types: Callable[[str], IntType], w: int) -> z3.BitVecRef:
    """sum(c_i * x_i) modulo 2^w. A negative coefficient is a negation of the positive product:
    the same value, without multiplying by a constant whose bits are nearly all set."""
    pos: list[z3.BitVecRef] = []
    neg: list[z3.BitVecRef] = []
    for v, c in items:
        x = extend(term(v), types(v), w)
        t = x if abs(c) == 1 else z3.BitVecVal(abs(c), w) * x
        (pos if c > 0 else neg).append(t)
    s = pos[0] if pos else -neg.pop(0)
    for p in pos[1:]:
        s = s + p
    for n in neg:
        s = s - n
    return s


# ---- to C ------------------------------------------------------------------------

def _name(v: str, display: Callable[[str], str]) -> str:
    if v.endswith(OLD):
        return f"\\old({display(base_var(v))})"
    return display(v)


def atom_to_c(a: Atom, display: Callable[[str], str], negate: bool = False) -> str:
    """``\\result == n + m``-style text: positive terms on the left when the constant allows."""
    op, items, const = a
    pos = [(v, c) for v, c in items if c > 0]
    neg = [(v, -c) for v, c in items if c < 0]

    def side(terms: list[tuple[str, int]], k: int) -> str:
        parts = [(_name(v, display) if c == 1 else f"{c} * {_name(v, display)}") for v, c in terms]
        if k:
            parts.append(str(k))
        if not parts:
            return "0"
        out = parts[0]
        for p in parts[1:]:
            out += f" - {p[1:]}" if p.startswith("-") else f" + {p}"
        return out

    if op == "==":
        # Put the result variable (or the first variable) alone on the left when possible.
        lead = next((t for t in items if t[0].endswith("__retval")), items[0])
        v, c = lead
        rest = [(x, -y if c > 0 else y) for x, y in items if x != v]
        k = const if c > 0 else -const
        lhs = _name(v, display) if abs(c) == 1 else f"{abs(c)} * {_name(v, display)}"
        rhs_pos = [(x, y) for x, y in rest if y > 0]
        rhs_neg = [(x, -y) for x, y in rest if y < 0]
        rhs = side(rhs_pos, 0)
        if rhs == "0":
            rhs = ""
        for x, y in rhs_neg:
            t = _name(x, display) if y == 1 else f"{y} * {_name(x, display)}"
            rhs = f"{rhs} - {t}" if rhs else f"-{t}"
        if k:
            rhs = f"{rhs} {'+' if k > 0 else '-'} {abs(k)}" if rhs else str(k)
        return f"{lhs} {'!=' if negate else '=='} {rhs or '0'}"
    # sum(pos) - sum(neg) <= const   <=>   sum(pos) <= sum(neg) + const
    left = side(pos, 0)
    right = side(neg, 0)
    k = const
    if right == "0":
        right = str(k)
    elif k:
        right = f"{right} {'+' if k > 0 else '-'} {abs(k)}"
    if left == "0":
        return f"{right} {'<' if negate else '>='} 0"
    return f"{left} {'>' if negate else '<='} {right}"


def atom_to_json(a: Atom) -> list:
    return [a[0], [[v, c] for v, c in a[1]], a[2]]


def atom_from_json(d: list) -> Atom:
    return (str(d[0]), tuple((str(v), int(c)) for v, c in d[1]), int(d[2]))
