"""Struct fields passed by pointer, in the Horn clauses (copy-in, copy-out).

A local struct that a function hands to its callees by address (``push(&r, v)``) is memory,
which the clauses otherwise read as arbitrary values: nothing relates ``r->count`` in the
callee to ``r.count`` in the caller. Where the program uses such a struct and the pointers
to it in only these ways, its integer fields become pseudo-variables of the frames:

* the object ``o`` (a local, non-parameter struct whose address is taken) is used only as
  ``o.f`` for an integer field ``f``, as ``o.a[i]`` for a member array of integers of fixed
  length, or as ``&o``, an argument of a call to a defined function whose parameter is such
  a pointer: ``o.f`` is the pseudo-variable ``o.f``;
* the pointer parameter ``p`` is never assigned, stored or computed with: it is used only
  as ``p->f`` or ``p->a[i]``, tested against NULL (``if (!p) return;``: it never is NULL),
  or passed on as such an argument: ``p->f`` is the pseudo-variable ``p->f`` of the callee,
  with an entry copy like a parameter's;
* no call passes one object (or one pointer) for two parameters.

The start function hands an entry's pointer parameter the address of a fresh object through
a temporary (``t = &input; entry(t)``): a temporary assigned once, to the address of a whole
object, and used only as an argument, stands for that ``&o``. (Where entry pointers may be
NULL, the temporary is assigned twice, and the parameter stays memory.)

Then every pointer to ``o`` is one of these parameters, pointing to a live object of a caller
(its frame outlives the call), and no two of them alias: a call copies the fields in, as it
does the parameters, and copies the callee's values at its exit back out, through the same
entry copies that tie a summary to its call. Everything else about such a struct (a member
that is no integer, a copy of the whole struct, ``&o.f``, a cast, a comparison of two
pointers, an external call) leaves it and its pointers out, as memory, read as arbitrary
values: sound either way.

A member array's cells are not modelled: a read is an arbitrary value, a write changes no
pseudo-variable. A write outside the array would (undefined behaviour, in practice the next
fields): each such write is an error the clauses must exclude, as an access outside a morphed
array is (horn/cells.py), so no proof relies on it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import z3

from ...cfa.cfa import Program, VarInfo
from ...cfa.ctype import ArrayType, IntType, PointerType, StructType
from ...cfa.ir import (
    AddrOf,
    AssignEdge,
    AssumeEdge,
    Binary,
    CallEdge,
    Cast,
    Const,
    DeclEdge,
    Deref,
    Edge,
    Expr,
    Index,
    Member,
    Var,
)
from ...smt.solving import extend
from .cells import INDEX, EncodingBase, edge_exprs


@dataclass
class Fields:
    """The modelled objects and pointer parameters, and the pseudo-variables they add."""

    objects: dict[str, list[str]] = field(default_factory=dict)  # object -> its fields' pseudo-variables
    pointers: dict[str, list[str]] = field(default_factory=dict)  # pointer parameter -> its pseudo-variables
    vars: dict[str, VarInfo] = field(default_factory=dict)
    addresses: dict[str, str] = field(default_factory=dict)  # temporary -> the object it is the address of

    @classmethod
    def of(cls, program: Program) -> Fields:
        out = cls()
        objects, pointers, out.addresses = _modelled(program)
        for name, st in sorted({**objects, **pointers}.items()):
            fields = [(f, t) for f, t in program.structs.get(st.key(), []) if isinstance(t, IntType)]
            fn = program.vars[name].function
            sep = "." if name in objects else "->"
            pseudo = [f"{name}{sep}{f}" for f, _ in fields]
            (out.objects if name in objects else out.pointers)[name] = pseudo
            for p, (_, t) in zip(pseudo, fields):
                out.vars[p] = VarInfo(p, t, fn)
        return out

    def name_of(self, e: Expr) -> str | None:
        """The pseudo-variable a member access stands for, if it is one."""
        if not isinstance(e, Member) or not isinstance(e.type, IntType):
            return None
        root = _root(e.base)
        if isinstance(e.base, Var) and root in self.objects:
            return f"{root}.{e.field}"
        if isinstance(e.base, Deref) and root in self.pointers:
            return f"{root}->{e.field}"
        return None

    def inputs(self, params: list[str]) -> list[str]:
        """The pseudo-variables of a function's modelled pointer parameters (entry copies too)."""
        return [p for q in params if q in self.pointers for p in self.pointers[q]]

    def passed(self, call: CallEdge, params: list[str]) -> list[tuple[str, str]]:
        """(callee's pseudo-variable, caller's) for each field a call hands over."""
        out: list[tuple[str, str]] = []
        for q, a in zip(params, call.args):
            if q not in self.pointers:
                continue
            ref = _referent(a, self.addresses)
            assert ref is not None  # _modelled admits no other argument for q
            caller = self.objects.get(ref) or self.pointers[ref]
            out.extend(zip(self.pointers[q], caller))
        return out


def _root(base: Expr) -> str | None:
    """``o`` of ``o.f``, ``p`` of ``p->f``."""
    if isinstance(base, Var) and isinstance(base.type, StructType):
        return base.name
    if isinstance(base, Deref) and isinstance(base.ptr, Var) and isinstance(base.ptr.type, PointerType):
        return base.ptr.name
    return None


def _member_array(m: Member) -> int | None:
    """The length of a member that is a one-dimensional array of integers of fixed length."""
    t = m.type
    if isinstance(t, ArrayType) and isinstance(t.elem, IntType) and t.size is not None:
        return t.size
    return None


def _null_test(e: Expr, pointers: dict) -> bool | None:
    """Whether ``e``, ``p == NULL`` or ``p != NULL`` (either way round) for a pointer parameter
    in ``pointers``, holds for a pointer that is never NULL; None for any other expression."""
    if not isinstance(e, Binary) or e.op not in ("==", "!="):
        return None
    for p, other in ((e.left, e.right), (e.right, e.left)):
        while isinstance(other, Cast):
            other = other.arg
        if isinstance(p, Var) and p.name in pointers and isinstance(other, Const) and other.value == 0:
            return e.op == "!="
    return None


def _referent(arg: Expr, addresses: dict[str, str]) -> str | None:
    """``o`` of an argument ``&o`` (or a temporary that holds it), ``p`` of an argument ``p``."""
    if isinstance(arg, AddrOf) and isinstance(arg.arg, Var):
        return arg.arg.name
    if isinstance(arg, Var):
        return addresses.get(arg.name, arg.name)
    return None


def _addresses(program: Program) -> dict[str, str]:
    """The start function's temporaries that hold one object's address (see the docstring)."""
    writes: dict[str, list[Edge]] = {}
    for f in program.all_functions():
        for e in f.edges():
            target = e.var if isinstance(e, DeclEdge) else getattr(e, "lhs", None)  # every kind of write
            if isinstance(target, Var):
                writes.setdefault(target.name, []).append(e)
    out = {}
    for name, edges in writes.items():
        info = program.vars.get(name)
        e = edges[0]
        if (len(edges) == 1 and info is not None and info.is_temp and info.function == program.start.name
                and isinstance(e, AssignEdge) and isinstance(e.rhs, AddrOf) and isinstance(e.rhs.arg, Var)
                and e.rhs.type == info.type):
            out[name] = e.rhs.arg.name
    return out


def _modelled(program: Program) -> tuple[dict[str, StructType], dict[str, StructType], dict[str, str]]:
    """The objects and pointer parameters used only as the module's docstring says, and the
    temporaries that stand for objects' addresses."""
    objects: dict[str, StructType] = {}
    pointers: dict[str, StructType] = {}
    for name, v in program.vars.items():
        t = v.type
        if v.function is None or v.is_global:
            continue
        if isinstance(t, StructType) and not t.union and v.addressed and not v.is_param:
            objects[name] = t
        elif (v.is_param and isinstance(t, PointerType) and isinstance(t.target, StructType)
              and not t.target.union and v.function != program.start.name):
            pointers[name] = t.target
    addresses = {t: o for t, o in _addresses(program).items() if o in objects}
    candidates = set(objects) | set(pointers) | set(addresses)
    bad: set[str] = set()

    def mentioned(e: Expr) -> None:
        for x in e.walk():
            if isinstance(x, Var) and x.name in candidates:
                bad.add(x.name)

    def visit(e: Expr | None) -> None:
        if e is None:
            return
        if isinstance(e, Index) and isinstance(e.base, Member) and _root(e.base.base) in candidates:
            if _member_array(e.base) is None:
                bad.add(_root(e.base.base))  # type: ignore[arg-type]
            visit(e.index)
            return
        if isinstance(e, Member) and _root(e.base) in candidates:
            if not isinstance(e.type, IntType):
                bad.add(_root(e.base))  # type: ignore[arg-type]
            return
        if _null_test(e, pointers) is not None:
            return
        if isinstance(e, AddrOf | Var):
            mentioned(e)  # &o.f, &p, o as a value, p as a value
            return
        for c in e.children():
            visit(c)

    links: list[tuple[str, str]] = []  # (argument's referent, parameter)
    for f in program.all_functions():
        for e in f.edges():
            if isinstance(e, CallEdge) and e.callee in program.functions:
                params = program.functions[e.callee].params
                bad.update(params[len(e.args):])  # a parameter no argument sets (unprototyped)
                seen: list[str] = []
                for i, a in enumerate(e.args):
                    ref = _referent(a, addresses)
                    q = params[i] if i < len(params) else None
                    whole = isinstance(a, AddrOf) or (isinstance(a, Var) and a.name in addresses)
                    if ref in candidates and whole == (ref in objects) and q is not None:
                        links.append((ref, q))
                        if ref in seen:
                            bad.add(ref)  # one object for two parameters: they alias
                        seen.append(ref)
                    else:
                        if q is not None:
                            bad.add(q)  # NULL, &a[i], p + 1, ...: not a whole modelled object
                        visit(a)
                visit(e.lhs)
                continue
            exprs = edge_exprs(e)  # a declared object itself is no use; its initialiser is
            if isinstance(e, AssumeEdge) and isinstance(e.cond, Var) and e.cond.name in pointers:
                continue  # if (p): a test against NULL
            if isinstance(e, AssignEdge) and isinstance(e.lhs, Var) and e.lhs.name in addresses:
                continue  # t = &o, the one write of such a temporary
            if (isinstance(e, AssignEdge) and isinstance(e.lhs, Member) and isinstance(e.rhs, Const)
                    and _root(e.lhs.base) in candidates and _member_array(e.lhs) is not None):
                exprs = [e.rhs]  # a member array's initialiser (``= {0}``): within the member
            for x in exprs:
                visit(x)
    for temp, o in addresses.items():
        if temp in bad:
            bad.add(o)  # the temporary was used otherwise: the object's address with it
    changed = True
    while changed:
        changed = False
        for ref, q in links:
            st = objects.get(ref) or pointers.get(ref)
            ok = ref not in bad and q in pointers and q not in bad and pointers[q] == st
            if not ok and not (ref in bad and q in bad):
                bad |= {ref, q}
                changed = True
    return ({n: t for n, t in objects.items() if n not in bad},
            {n: t for n, t in pointers.items() if n not in bad},
            {t: o for t, o in addresses.items() if o not in bad})


class FieldEncoding(EncodingBase):
    """The copy-in/copy-out semantics, mixed into a SegmentEncoder class (horn.Encoder composes
    them): the member accesses that stand for pseudo-variables, and the objects' declarations
    (calls are horn.Encoder._call's)."""

    fields: Fields  # set on the composed class

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        if not hasattr(self, "ub"):  # shared with CellEncoding where both are mixed in
            self.ub: list[tuple[int, z3.BoolRef]] = []

    def _cells(self, e: Expr) -> int | None:
        """The length of the member array ``o.a`` or ``p->a`` that ``e`` indexes, if modelled."""
        if isinstance(e, Index) and isinstance(e.base, Member):
            root = _root(e.base.base)
            if root in self.fields.objects or root in self.fields.pointers:
                return _member_array(e.base)
        return None

    def cond(self, e: Expr) -> z3.BoolRef:
        if isinstance(e, Var) and e.name in self.fields.pointers:
            return z3.BoolVal(True)  # never NULL (``!p`` is the negation of this)
        known = _null_test(e, self.fields.pointers)
        if known is not None:
            return z3.BoolVal(known)
        return super().cond(e)

    def expr(self, e: Expr):
        name = self.fields.name_of(e) if isinstance(e, Member) else None
        if name is not None:
            return self.read(name)
        return super().expr(e)

    def assign(self, lhs: Expr | None, value) -> None:
        size = self._cells(lhs) if lhs is not None else None
        if size is not None:
            assert isinstance(lhs, Index)
            i, t = self.expr(lhs.index), lhs.index.type
            assert isinstance(t, IntType)
            th = self.th
            if th.name != "lia":
                i = extend(i, t, INDEX.bits)
            outside = z3.Or(i < th.const(0, INDEX), i >= th.const(size, INDEX))
            self.ub.append((len(self.constraints), outside))
            return
        name = self.fields.name_of(lhs) if isinstance(lhs, Member) else None
        if name is None:
            super().assign(lhs, value)
        elif value is None:
            self.havoc(name)
        else:
            self.write(name, value())

    def edge(self, e: Edge, all_globals) -> None:
        if isinstance(e, DeclEdge) and e.var is not None and e.var.name in self.fields.objects:
            for name in self.fields.objects[e.var.name]:
                if isinstance(e.init, Const):  # zero-filled
                    self.write(name, self.th.const(0, self.th.type_of(name)))
                else:
                    self.havoc(name)
            return
        super().edge(e, all_globals)


__all__ = ["Fields", "FieldEncoding"]
