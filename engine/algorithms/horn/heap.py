"""Heap objects in the Horn clauses, by one distinguished object per struct type (object morphing).

Cell morphing (horn/cells.py) describes an array by one cell at an arbitrary index. The same
idea describes the objects that ``malloc`` creates: objects of a struct type ``T`` are numbered
in allocation order (1, 2, ...), a pointer to one is its number (0 is NULL), and the clauses
keep, besides the count ``T#n`` of objects allocated so far, one object ``T#d`` chosen
arbitrarily at the start, with its fields ``T#v.f``. A read ``p->f`` is ``T#v.f`` if ``p`` is
``T#d``, and an arbitrary value otherwise; a write changes ``T#v.f`` only if ``p`` is ``T#d``.
Every execution of the program is one of the clauses' for every choice of ``T#d``, so their
invariants over ``(T#d, T#v.f)`` hold for every object: ``T#d <= T#n ==> T#v.order <= T#v.stock``
is "every node allocated so far has order <= stock", which Spacer finds over the integers.
As with cells, the clause into an error location is restricted to the executions whose
distinguished object is the one the deciding condition reads (horn/cells.py explains why
that loses no error).

A pointer read from a field of another object is arbitrary too, but it is a pointer the
program stored: NULL or an object allocated so far (``0 <= r <= T#n``). That rests on three
facts the clauses check as errors (undefined behaviour, or a value outside the model, which
no proof may rely on), each for the distinguished object and hence for every object:
* a field access through ``p`` needs ``1 <= p <= T#n`` (no NULL, no dangling or wild pointer:
  objects are never freed where this applies);
* a pointer stored into a field is NULL or an object allocated so far;
* a pointer field is written before it is read (``T#i.f``: whether the distinguished object's
  field ``f`` has been written since its allocation).

It applies to a program only where every use of such objects goes through these forms: the
struct's pointers are local variables, parameters and results (no globals) assigned from
``malloc(sizeof(T))``, NULL, one another or a pointer field, compared for (in)equality or
tested for NULL, and dereferenced only to read or write an integer or pointer field; a
pointer variable's address is taken only as the argument of a reference parameter
(``Node **pp``, used only as ``*pp`` or passed on as such), which copies the variable in and
out as horn/fields.py copies a struct's fields (a call passes one variable once). No object of
the type is declared, copied, freed, or handed to an unknown function, and allocation is
assumed to succeed (``--alloc-may-fail`` leaves the heap out). Anything else leaves the whole
heap out: its reads stay arbitrary values, as before.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import z3

from ...cfa.cfa import Program, VarInfo
from ...cfa.ctype import CType, IntType, PointerType, StructType
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
    ExternalCallEdge,
    Member,
    Nondet,
    ReturnEdge,
    Unary,
    Var,
)
from ...cfa.layout import Layout
from .cells import FLAG, INDEX, EncodingBase, edge_exprs

# More objects than this cannot exist in an address space of 64 bits (each takes a byte at
# least); an execution past it is none of the program's, and the count cannot wrap.
MAX_OBJECTS = 1 << 62
ALLOCATORS = ("malloc",)


@dataclass
class HeapType:
    """The objects of one struct type: their count, the distinguished one, its fields."""

    key: str
    n: str
    d: str
    fields: dict[str, str]  # field -> the distinguished object's value
    types: dict[str, IntType]  # field -> its type in the clauses (INDEX for a pointer)
    pointers: dict[str, str]  # pointer field -> the struct key it points to
    init: dict[str, str]  # pointer field -> whether the distinguished object's field was written


@dataclass
class Heap:
    """The program's morphed struct types, its pointer variables, the pseudo-variables."""

    types: dict[str, HeapType] = field(default_factory=dict)
    pointers: dict[str, str] = field(default_factory=dict)  # variable -> the struct key it points to
    # A reference parameter (``Node **pp``, used only as ``*pp``) -> the pseudo-variable that
    # holds ``*pp``: the caller's pointer variable, copied in and out as horn/fields.py does.
    refs: dict[str, str] = field(default_factory=dict)
    vars: dict[str, VarInfo] = field(default_factory=dict)
    # The functions that may change the objects (allocate, store into a field, call an unknown
    # function that may write globals, or call one that does): a call of any other leaves the
    # caller's pseudo-variables as they were, which Spacer then need not prove of its summary.
    modifying: set[str] = field(default_factory=set)

    @classmethod
    def of(cls, program: Program) -> Heap:
        found = _morphable(program)
        if found is None:
            return cls()
        keys, pointers, refs = found
        out = cls(pointers=pointers, refs={r: f"{r}->*" for r in refs})
        for r, pseudo in out.refs.items():
            out.vars[pseudo] = VarInfo(pseudo, INDEX, program.vars[r].function)
        for k in sorted(keys):
            fields: dict[str, str] = {}
            types: dict[str, IntType] = {}
            ptrs: dict[str, str] = {}
            init: dict[str, str] = {}
            for name, t in program.structs[k]:
                if isinstance(t, IntType):
                    types[name] = t
                elif _target(t) in keys:
                    types[name], ptrs[name] = INDEX, _target(t)  # type: ignore[assignment]
                    init[name] = f"{k}#i.{name}"
                    out.vars[init[name]] = VarInfo(init[name], FLAG, None)
                else:
                    continue
                fields[name] = f"{k}#v.{name}"
                out.vars[fields[name]] = VarInfo(fields[name], types[name], None)
            ht = HeapType(k, f"{k}#n", f"{k}#d", fields, types, ptrs, init)
            out.types[k] = ht
            out.vars[ht.n] = VarInfo(ht.n, INDEX, None)
            out.vars[ht.d] = VarInfo(ht.d, INDEX, None)
        for name in pointers:
            info = program.vars[name]
            out.vars[name] = VarInfo(name, INDEX, info.function)
        out.modifying = _modifying(program)
        return out

    def kept(self, var: str, callee: str) -> bool:
        """Whether a call of ``callee`` leaves the global ``var`` as it was (a pseudo-variable of
        the objects, and ``callee`` one that cannot change them)."""
        return var in self.vars and callee not in self.modifying

    def inputs(self, params: list[str]) -> list[str]:
        """The pseudo-variables of a function's reference parameters (entry copies too)."""
        return [self.refs[p] for p in params if p in self.refs]

    def passed(self, call: CallEdge, params: list[str]) -> list[tuple[str, str]]:
        """(callee's pseudo-variable, caller's variable) for each reference a call hands over."""
        out = []
        for q, a in zip(params, call.args):
            if q in self.refs:
                if isinstance(a, AddrOf):
                    assert isinstance(a.arg, Var)
                    out.append((self.refs[q], a.arg.name))
                else:
                    assert isinstance(a, Var)
                    out.append((self.refs[q], self.refs[a.name]))
        return out

    def initial(self, x: dict[str, z3.ExprRef], th) -> list[z3.BoolRef]:
        """At the program's start: no object yet, and the distinguished one is some object."""
        out: list[z3.BoolRef] = []
        for ht in self.types.values():
            out += [x[ht.n] == th.const(0, INDEX), x[ht.d] >= th.const(1, INDEX)]
        return out


def _modifying(program: Program) -> set[str]:
    out: set[str] = set()
    calls: dict[str, set[str]] = {}
    for f in program.all_functions():
        for e in f.edges():
            if isinstance(e, CallEdge):
                calls.setdefault(e.callee, set()).add(f.name)
            elif isinstance(e, ExternalCallEdge) and (e.callee in ALLOCATORS or e.writes_globals):
                out.add(f.name)
            elif isinstance(e, ExternalCallEdge | AssignEdge) and isinstance(e.lhs, Member):
                out.add(f.name)
    todo = list(out)
    while todo:
        for caller in calls.get(todo.pop(), ()):
            if caller not in out:
                out.add(caller)
                todo.append(caller)
    return out


def _target(t: CType) -> str | None:
    if isinstance(t, PointerType) and isinstance(t.target, StructType) and not t.target.union:
        return t.target.key()
    return None


class _Reject(Exception):
    pass


def _morphable(program: Program) -> tuple[set[str], dict[str, str], dict[str, str]] | None:
    """The struct types whose objects the clauses can number, the pointer variables and the
    reference parameters (each with the struct pointed to), or None where any use of a struct
    pointer is outside the forms."""
    pointers: dict[str, str] = {}
    refs: dict[str, str] = {}
    params = {p for f in program.all_functions() for p in f.params}
    for name, info in program.vars.items():
        k = _target(info.type)
        if k is not None:
            if info.is_global:
                return None
            pointers[name] = k  # (taken by address only as a reference argument: checked below)
        k = _ref_target(info.type)
        if k is not None and name in params and not info.addressed:
            refs[name] = k
    if not pointers:
        return None
    walk = _Walk(program, pointers, refs)
    try:
        for f in program.all_functions():
            for e in f.edges():
                if isinstance(e, ExternalCallEdge) and e.callee in ALLOCATORS:
                    walk.allocation(e)
            for e in f.edges():
                walk.edge(e)
        keys = walk.keys()
    except _Reject:
        return None
    return keys, {**pointers, **{t: k for t, k in walk.temps.items() if k is not None}}, refs


class _Walk:
    """Every use of a struct pointer, checked against the forms the encoding models."""

    def __init__(self, program: Program, pointers: dict[str, str], refs: dict[str, str]):
        self.program = program
        self.pointers = pointers
        self.refs = refs
        self.temps: dict[str, str | None] = {}  # an allocator's result -> the struct it becomes
        self.sizes: dict[str, list[Expr | None]] = {}
        self.fields: set[str] = set()  # struct types pointer fields point to

    def allocation(self, e: ExternalCallEdge) -> None:
        lhs = e.lhs
        if not isinstance(lhs, Var) or self.program.vars[lhs.name].addressed or lhs.name in self.pointers:
            raise _Reject
        self.temps.setdefault(lhs.name, None)
        self.sizes.setdefault(lhs.name, []).append(e.args[0] if e.args else None)

    def keys(self) -> set[str]:
        if any(k is None for k in self.temps.values()):
            raise _Reject  # an allocation that never becomes a struct pointer
        keys = {*self.pointers.values(), *(k for k in self.temps.values() if k), *self.fields}
        if any(k not in self.program.structs for k in keys):
            raise _Reject
        layout = Layout(self.program.data_model, self.program.structs)
        for t, k in self.temps.items():
            assert k is not None  # (rejected above)
            need = layout.sizeof(StructType(k.split(" ", 1)[1]))
            for size in self.sizes[t]:
                while isinstance(size, Cast):
                    size = size.arg
                if need is None or not isinstance(size, Const) or size.value < need:
                    raise _Reject  # fields past the object's end would be out of bounds
        return keys

    # ---- expressions --------------------------------------------------------------------
    def ptr(self, x: Expr, k: str) -> None:
        """``x`` must be a pointer to struct ``k`` in one of the forms."""
        if isinstance(x, Cast):
            if _null(x):
                return
            if isinstance(x.arg, Var) and x.arg.name in self.temps:
                if self.temps[x.arg.name] not in (None, k):
                    raise _Reject
                self.temps[x.arg.name] = k
                return
            if _target(x.arg.type) == k:
                self.ptr(x.arg, k)
                return
            raise _Reject
        if isinstance(x, Const) and x.value == 0:
            return
        if isinstance(x, Var) and self.pointers.get(x.name) == k:
            return
        if isinstance(x, Member) and _target(x.type) == k:
            self.access(x)
            return
        if isinstance(x, Deref) and isinstance(x.ptr, Var) and self.refs.get(x.ptr.name) == k:
            return  # ``*pp``: the caller's variable, copied in and out
        raise _Reject

    def access(self, x: Member) -> None:
        """``p->f``, for an integer or struct pointer field ``f``."""
        if not isinstance(x.base, Deref):
            raise _Reject
        k = _target(x.base.ptr.type)
        if k is None:
            raise _Reject
        target = _target(x.type)
        if target is not None:
            self.fields.add(target)
        elif not isinstance(x.type, IntType):
            raise _Reject
        self.ptr(x.base.ptr, k)

    def value(self, x: Expr) -> None:
        """An expression that is no struct pointer: struct pointers in it only in comparisons
        for (in)equality, NULL tests and field reads."""
        if isinstance(x, Member) and isinstance(x.base, Deref) and _target(x.base.ptr.type):
            self.access(x)
            return
        if isinstance(x, Binary) and x.op in ("==", "!=") and (_target(x.left.type) or _target(x.right.type)):
            k = _target(x.left.type) or _target(x.right.type)
            assert k is not None
            self.ptr(x.left, k)
            self.ptr(x.right, k)
            return
        if isinstance(x, Unary) and x.op == "!" and _target(x.arg.type):
            self.cond(x.arg)
            return
        if _target(x.type) is not None or _ref_target(x.type) is not None \
                or (isinstance(x, Var) and x.name in self.temps) or isinstance(x.type, StructType):
            raise _Reject
        if isinstance(x, Deref | AddrOf | Member) and _mentions_struct(x):
            raise _Reject
        for c in x.children():
            self.value(c)

    def cond(self, x: Expr) -> None:
        k = _target(x.type)
        if k is not None:
            self.ptr(x, k)
        else:
            self.value(x)

    def call(self, e: CallEdge) -> None:
        """Struct pointers by value, and references to the caller's pointer variables (``&l``,
        or a reference parameter passed on) for reference parameters, one variable once."""
        callee = self.program.functions[e.callee]
        referred: set[str] = set()
        for q, a in zip(callee.params, e.args):
            if q in self.pointers:
                self.ptr(a, self.pointers[q])
            elif q in self.refs:
                ref = _referred(a, self.pointers, self.refs, self.refs[q])
                if ref is None or ref in referred:
                    raise _Reject
                referred.add(ref)
            else:
                self.value(a)
        if len(e.args) > len(callee.params):
            for a in e.args[len(callee.params):]:
                self.value(a)
        lhs = e.lhs
        if lhs is not None:
            rv = callee.result_var
            if isinstance(lhs, Var) and lhs.name in self.pointers:
                if rv is None or self.pointers.get(rv) != self.pointers[lhs.name]:
                    raise _Reject
            else:
                self.value(lhs)

    # ---- edges ----------------------------------------------------------------------------
    def edge(self, e: Edge) -> None:
        if isinstance(e, AssumeEdge):
            assert e.cond is not None
            self.cond(e.cond)
        elif isinstance(e, DeclEdge):
            v = e.var
            if v is not None and v.name in self.pointers:
                if e.init is not None and not isinstance(e.init, Nondet):
                    self.ptr(e.init, self.pointers[v.name])
                return
            if v is not None and _mentions_struct_type(v.type):
                raise _Reject  # an object of a struct type outside the heap
            for x in (e.init, *e.lengths):
                if x is not None and not isinstance(x, Nondet):
                    self.value(x)
        elif isinstance(e, AssignEdge):
            lhs, rhs = e.lhs, e.rhs
            assert lhs is not None and rhs is not None
            if isinstance(lhs, Var) and lhs.name in self.pointers:
                if not isinstance(rhs, Nondet):
                    self.ptr(rhs, self.pointers[lhs.name])
                return
            if isinstance(lhs, Deref) and isinstance(lhs.ptr, Var) and lhs.ptr.name in self.refs:
                self.ptr(rhs, self.refs[lhs.ptr.name])
                return
            if isinstance(lhs, Member) and isinstance(lhs.base, Deref) and _target(lhs.base.ptr.type):
                self.access(lhs)
                k = _target(lhs.type)
                if k is not None:
                    self.ptr(rhs, k)
                elif not isinstance(rhs, Nondet):
                    self.value(rhs)
                return
            self.value(lhs)
            if not isinstance(rhs, Nondet):
                self.value(rhs)
        elif isinstance(e, ExternalCallEdge):
            if e.callee in ALLOCATORS:
                return
            for x in (*e.args, e.lhs):
                if x is not None:
                    self.value(x)
        elif isinstance(e, CallEdge):
            self.call(e)
        elif isinstance(e, ReturnEdge):
            rv = e.result_var
            if e.value is not None and rv is not None and rv.name in self.pointers:
                self.ptr(e.value, self.pointers[rv.name])
            elif e.value is not None:
                self.value(e.value)
        else:
            for x in edge_exprs(e):
                if x is not None and not isinstance(x, Nondet):
                    self.value(x)


def _referred(a: Expr, pointers: dict[str, str], refs: dict[str, str], k: str) -> str | None:
    """The caller's variable a reference argument stands for: ``&l`` for a pointer variable
    ``l``, or the caller's own reference parameter passed on."""
    if isinstance(a, AddrOf) and isinstance(a.arg, Var) and pointers.get(a.arg.name) == k:
        return a.arg.name
    if isinstance(a, Var) and refs.get(a.name) == k:
        return a.name
    return None


def _null(x: Expr) -> bool:
    """NULL: 0, cast to pointers (``((void *)0)`` cast again to the struct's pointer)."""
    while isinstance(x, Cast):
        x = x.arg
    return isinstance(x, Const) and x.value == 0


def _ref_target(t: CType) -> str | None:
    """The struct of a pointer to a struct pointer (a reference parameter's type)."""
    return _target(t.target) if isinstance(t, PointerType) else None


def _mentions_struct(x: Expr) -> bool:
    if _target(x.type) is not None or isinstance(x.type, StructType):
        return True
    return any(_mentions_struct(c) for c in x.children())


def _mentions_struct_type(t: CType) -> bool:
    while True:
        if isinstance(t, StructType):
            return True
        inner = getattr(t, "elem", None)
        if inner is None:
            return False
        t = inner


class HeapEncoding(EncodingBase):
    """The object semantics, mixed into a SegmentEncoder class (horn.Encoder composes them):
    pointer variables as object numbers, field reads and writes, allocation. Like
    CellEncoding it records the accesses that may be undefined (``ub``) and, per read, the
    edge it was made on and when it reads the distinguished object (``reads``)."""

    heap: Heap  # set on the composed class

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.ub: list[tuple[int, z3.BoolRef]] = []
        self.heap_reads: list[tuple[Edge | None, str, str, z3.BoolRef]] = []
        self.current: Edge | None = None
        self.decided: Edge | None = None
        # A field read again through the same pointer value, with no write to the type's objects
        # in between, is the same value.
        self.heap_seen: dict[tuple[str, str, int], z3.ExprRef] = {}

    def _const(self, v: int) -> z3.ExprRef:
        return self.th.const(v, INDEX)

    def ptr(self, x: Expr) -> z3.ExprRef:
        """The object number a struct pointer expression holds (0: NULL)."""
        if isinstance(x, Cast):
            if _null(x):
                return self._const(0)
            return self.ptr(x.arg)
        if isinstance(x, Const):
            return self._const(0)
        if isinstance(x, Var):
            return self.read(x.name)
        if isinstance(x, Deref):
            assert isinstance(x.ptr, Var)
            return self.read(self.heap.refs[x.ptr.name])
        assert isinstance(x, Member)
        return self._field(x)

    def _object(self, x: Member) -> tuple[HeapType, z3.ExprRef, z3.BoolRef]:
        """The type, object number and hit of the access ``p->f``; its validity is an error to
        exclude."""
        assert isinstance(x.base, Deref)
        k = _target(x.base.ptr.type)
        assert k is not None
        ht = self.heap.types[k]
        q = self.ptr(x.base.ptr)
        n = self.read(ht.n)
        self.ub.append((len(self.constraints), z3.Or(q < self._const(1), q > n)))
        return ht, q, q == self.read(ht.d)

    def _field(self, x: Member) -> z3.ExprRef:
        ht, q, hit = self._object(x)
        f = x.field
        at = (ht.key, f, q.get_id())
        r = self.heap_seen.get(at)
        if r is None:
            r = self.arbitrary(ht.types[f])
            self.constraints.append(z3.Implies(hit, r == self.read(ht.fields[f])))
            if f in ht.pointers:
                # What the program stored: NULL or an object of the type allocated so far.
                target = self.heap.types[ht.pointers[f]]
                self.constraints.append(z3.And(r >= self._const(0), r <= self.read(target.n)))
                unwritten = self.read(ht.init[f]) == self.th.const(0, FLAG)
                self.ub.append((len(self.constraints), z3.And(hit, unwritten)))
            self.heap_seen[at] = r
        self.heap_reads.append((self.current, ht.key, str(q.get_id()), hit))
        return r

    def expr(self, e: Expr) -> z3.ExprRef:
        if isinstance(e, Member) and isinstance(e.base, Deref) and isinstance(e.type, IntType) \
                and _target(e.base.ptr.type) in self.heap.types:
            return self._field(e)
        return super().expr(e)

    def cond(self, e: Expr) -> z3.BoolRef:
        if isinstance(e, Binary) and e.op in ("==", "!=") and _target(e.left.type) in self.heap.types:
            a, b = self.ptr(e.left), self.ptr(e.right)
            return a == b if e.op == "==" else a != b
        if _target(e.type) in self.heap.types:
            return self.ptr(e) != self._const(0)
        return super().cond(e)

    def assign(self, lhs: Expr | None, value) -> None:
        """A call's result or an external function's: into a field or a pointer variable too."""
        if isinstance(lhs, Member) and isinstance(lhs.base, Deref) and _target(lhs.base.ptr.type) in self.heap.types:
            self._store(lhs, value() if value is not None and isinstance(lhs.type, IntType) else None)
            return
        if isinstance(lhs, Var) and lhs.name in self.heap.pointers:
            if value is None:
                self.havoc(lhs.name)
            else:
                self.write(lhs.name, value())
            return
        super().assign(lhs, value)

    def _store(self, lhs: Member, value: z3.ExprRef | None) -> None:
        ht, q, hit = self._object(lhs)
        f = lhs.field
        if f not in ht.fields:  # a field the clauses do not keep (not read either)
            return
        new = value if value is not None else self.arbitrary(ht.types[f])
        if f in ht.pointers:
            target = self.heap.types[ht.pointers[f]]
            stray = z3.Or(new < self._const(0), new > self.read(target.n))
            self.ub.append((len(self.constraints), stray))
            self.write(ht.init[f], z3.If(hit, self.th.const(1, FLAG), self.read(ht.init[f])))
        self.write(ht.fields[f], z3.If(hit, new, self.read(ht.fields[f])))
        self.heap_seen = {k: r for k, r in self.heap_seen.items() if k[0] != ht.key}

    def _allocate(self, lhs: Var, k: str) -> None:
        ht = self.heap.types[k]
        before = self.read(ht.n)
        if self.th.name == "bv":  # (the integers do not wrap)
            self.constraints.append(before < self._const(MAX_OBJECTS))
        n = before + self._const(1)
        self.write(ht.n, n)
        self.write(lhs.name, n)
        hit = n == self.read(ht.d)
        for f, v in ht.fields.items():
            self.write(v, z3.If(hit, self.arbitrary(ht.types[f]), self.read(v)))
        for v in ht.init.values():
            self.write(v, z3.If(hit, self.th.const(0, FLAG), self.read(v)))
        self.heap_seen = {key: r for key, r in self.heap_seen.items() if key[0] != ht.key}

    def edge(self, e: Edge, all_globals) -> None:
        self.current = e
        if isinstance(e, AssumeEdge):
            self.decided = e
        pointers = self.heap.pointers
        if isinstance(e, ExternalCallEdge) and e.callee in ALLOCATORS and isinstance(e.lhs, Var) \
                and e.lhs.name in pointers:
            self._allocate(e.lhs, pointers[e.lhs.name])
            return
        if isinstance(e, DeclEdge) and e.var is not None and e.var.name in pointers:
            if e.init is None or isinstance(e.init, Nondet):
                self.havoc(e.var.name)
            else:
                self.write(e.var.name, self.ptr(e.init))
            return
        if isinstance(e, AssignEdge) and isinstance(e.lhs, Deref) and isinstance(e.lhs.ptr, Var) \
                and e.lhs.ptr.name in self.heap.refs:
            assert e.rhs is not None
            self.write(self.heap.refs[e.lhs.ptr.name], self.ptr(e.rhs))
            return
        if isinstance(e, ReturnEdge) and e.result_var is not None and e.result_var.name in pointers:
            if e.value is None:
                self.havoc(e.result_var.name)
            else:
                self.write(e.result_var.name, self.ptr(e.value))
            return
        if isinstance(e, AssignEdge) and isinstance(e.lhs, Var) and e.lhs.name in pointers:
            assert e.rhs is not None
            if isinstance(e.rhs, Nondet):
                self.havoc(e.lhs.name)
            else:
                self.write(e.lhs.name, self.ptr(e.rhs))
            return
        if isinstance(e, AssignEdge) and isinstance(e.lhs, Member) and isinstance(e.lhs.base, Deref) \
                and _target(e.lhs.base.ptr.type) in self.heap.types:
            rhs = e.rhs
            assert rhs is not None
            if isinstance(rhs, Nondet):
                value = None
            elif _target(e.lhs.type) is not None:
                value = self.ptr(rhs)
            else:
                v = self.expr(rhs)
                lt = e.lhs.type
                assert isinstance(lt, IntType) and isinstance(rhs.type, IntType)
                value = v if rhs.type == lt else self.cast(v, rhs.type, lt)
            self._store(e.lhs, value)
            return
        super().edge(e, all_globals)

    def deciding(self, edge: Edge) -> z3.BoolRef:
        """That the reads made on ``edge`` are the distinguished objects (per type, where one
        object is read there), and the cells' (CellEncoding's) where it is mixed in too."""
        by_type: dict[str, list[tuple[str, z3.BoolRef]]] = {}
        for e, k, text, hit in self.heap_reads:
            if e is edge:
                by_type.setdefault(k, []).append((text, hit))
        hits = [reads[0][1] for reads in by_type.values() if len({t for t, _ in reads}) == 1]
        inner = getattr(super(), "deciding", None)
        if inner is not None:
            hits.append(inner(edge))
        return z3.And(hits) if hits else z3.BoolVal(True)


__all__ = ["Heap", "HeapEncoding"]
