"""Initialisers as C11 6.7.9 and gcc read them: brace elision, designators (nested, out of order,
GNU ranges), string literals with or without braces, and arrays of unknown length completed by
their initialiser.

One walk serves two ends: it lowers an initialiser to assignments, and it measures how many
elements an array of unknown length gets (``measure``), so the length the type says and the
elements the object holds can never disagree (``char s[] = {"ab"}`` was one element long, so
``sizeof(s)`` was 1 and ``s[1]`` out of bounds).

The walk keeps a stack of current objects (C11 6.7.9p17-20): the brace-enclosed object at the
bottom, above it the subobjects whose braces are elided or that a designator entered. An
initialiser goes to the next subobject of the top frame; a frame that is full gives way to its
parent; a designator starts again from the bottom frame, and the initialisers after it go on
from the subobject it named."""

from __future__ import annotations

from dataclasses import dataclass

from pycparser import c_ast

from ...frontend.errors import Unsupported
from ..ctype import ArrayType, CType, IntType, PointerType, StructType
from ..ir import AssignEdge, Const, DeclEdge, Expr, Index, Var
from ..struct_layout import Fields
from .common import START_FUNCTION, literal_elem_type, parse_string_literal
from .parts import BuilderParts

# The GNU range designator ``[lo ... hi]``, as the token pass spells it for pycparser.
RANGE_DESIGNATOR = "__cbam_range"

# An aggregate's elements when an array of unknown length is measured: more than any real one.
_UNBOUNDED = 1 << 62


@dataclass
class _Frame:
    """A current object: ``pos`` is the index of its next subobject."""

    lv: Expr | None  # None while measuring
    type: CType
    pos: int = 0


@dataclass
class _Shared:
    """One initialiser for several subobjects (a GNU range), translated once, at the first."""

    node: c_ast.Node
    expr: Expr | None = None


@dataclass(frozen=True)
class _Store:
    """A subobject's initial value, at its position in the object (indices from the outermost)."""

    key: tuple[int, ...]
    lv: Expr
    type: CType
    value: c_ast.Node | Expr | _Shared


class InitializerBuilder(BuilderParts):
    """Initialisers: the walk over brace-enclosed lists and designators (a part of FunctionBuilder)."""

    # ---- the types an initialiser completes ----------------------------------
    def completed_type(self, t: CType, init: c_ast.Node | None) -> CType:
        """``t``, with the length of an outermost array of unknown length taken from ``init``
        (or of a struct's flexible array member: ``flexible_completed``)."""
        if isinstance(t, StructType) and isinstance(init, c_ast.InitList):
            return self.flexible_completed(t, init)
        if not isinstance(t, ArrayType) or t.size is not None or init is None:
            return t
        strings = self.string_initialiser(t, init)
        if strings is not None:
            return ArrayType(t.elem, len(strings))
        if isinstance(init, c_ast.InitList):
            return ArrayType(t.elem, self._fill(None, t, list(init.exprs or []), init))
        return t

    def flexible_completed(self, t: StructType, init: c_ast.InitList) -> CType:
        """GNU C: a static struct's flexible array member initialised, ``{ 2, { 1, 2 } }`` or
        ``{ .d = "ab" }``, makes the object that much larger while ``sizeof`` of its type stays
        (gcc: sizeof 4, 12 bytes of object). The variable gets a copy of the struct whose last
        member has the initialiser's length; sizeof maps it back (pb.flexible_types)."""
        fields = self.pb.structs.get(t.key())
        if not isinstance(fields, Fields) or not fields or t.union:
            return t
        name, ft = fields[-1]
        if not (isinstance(ft, ArrayType) and ft.size is None):
            return t
        items = list(init.exprs or [])
        named = [i for i in items if isinstance(i, c_ast.NamedInitializer)]
        value = next((i.expr for i in named if len(i.name) == 1 and isinstance(i.name[0], c_ast.ID)
                      and i.name[0].name == name), None)
        if value is None and not named and len(items) == len(fields.declared):
            value = items[-1]
        if not isinstance(value, c_ast.InitList | c_ast.Constant):
            return t  # none, or braces elided: "an initialiser for a flexible array member"
        member = self.completed_type(ArrayType(ft.elem, None), value)
        elem_size = self.dm.sizeof(ft.elem, self.pb.structs)
        if not isinstance(member, ArrayType) or member.size is None or elem_size is None:
            return t
        done = StructType(f"{t.tag}.flexible{member.size}")
        if done.key() not in self.pb.structs:
            self.pb.structs[done.key()] = Fields(
                [*fields[:-1], (name, member)], fields.offsets,
                max(fields.size, fields.offsets[-1] + member.size * elem_size), fields.align,
                fields.bitfields, fields.declared)
            self.pb.flexible_types[done.key()] = t
        return done

    def string_initialiser(self, t: CType, init: c_ast.Node) -> list[int] | None:
        """The elements (with the terminating zero) when ``init`` is a string literal, optionally
        in braces (C11 6.7.9p14), that initialises an array of ``t``'s element type."""
        if isinstance(init, c_ast.InitList) and len(init.exprs or []) == 1 \
                and not isinstance(init.exprs[0], c_ast.NamedInitializer):
            init = init.exprs[0]
        if not (isinstance(t, ArrayType) and isinstance(init, c_ast.Constant) and init.type == "string"):
            return None
        elems, kind = parse_string_literal(init.value)
        et = literal_elem_type(self.dm, kind)
        elem = t.elem
        if not isinstance(elem, IntType) or elem.bits != et.bits:
            return None  # e.g. char *names[] = {"a"}: the literal is an element, not the array
        return elems

    # ---- compound literals ------------------------------------------------------
    def compound_literal(self, node: c_ast.CompoundLiteral) -> Expr:
        """``(T){...}``: an unnamed object initialised as a declaration of it would be, an lvalue.
        In a function it lives until its block ends (C11 6.5.2.5p5); at file scope it has
        static storage, and starts as zero."""
        pb = self.pb
        t = self.completed_type(pb.resolve_type(node.type, self.scope, node), node.init)
        if isinstance(t, ArrayType) and t.size is None:
            raise Unsupported("a compound literal of unknown length", pb.range(node))
        aggregate = isinstance(t, ArrayType | StructType)
        at_file_scope = self.name == START_FUNCTION
        if at_file_scope:
            var = pb.new_var(f"__cbam_literal.{len(pb.vars)}", t, None, range=pb.range(node))
        else:
            var = pb.new_var(self.unique_local("__cbam_literal"), t, self.name, range=pb.range(node))
            if aggregate:
                self.scope.objects.append(var)
        zero = Const(0, t) if aggregate or at_file_scope and isinstance(t, IntType) else None
        self.emit(DeclEdge, node, var=var, init=zero, is_global=at_file_scope)
        self.initialise(var, t, node.init, node)
        return Var(var.name, t)

    # ---- lowering --------------------------------------------------------------
    def initialise(self, lv: Expr, t: CType, init: c_ast.Node, decl: c_ast.Node) -> None:
        """Assignments that give object ``lv`` (already zero where C says it starts as zero)
        the value of ``init``. The order in which an initialiser list's expressions run is
        unspecified (C11 6.7.9p23); gcc runs them in the order of the subobjects they
        initialise, whatever order the designators name them in, and so does cbam."""
        plan: list[_Store] = []
        self._plan(lv, t, init, (), plan, decl)
        for store in sorted(plan, key=lambda s: s.key):  # (stable: a later override stays later)
            value = store.value
            if isinstance(value, _Shared):
                if value.expr is None:
                    value.expr = self.rvalue(self.expr(value.node))
                e, node = value.expr, value.node
            elif isinstance(value, Expr):
                e, node = value, init
            else:
                e, node = self.rvalue(self.expr(value)), value
            self.emit(AssignEdge, node, lhs=store.lv,
                      rhs=self.convert(e, store.type) if isinstance(store.type, IntType | PointerType) else e)

    def _plan(self, lv: Expr, t: CType, init: c_ast.Node | _Shared, key: tuple[int, ...], plan: list[_Store],
              decl: c_ast.Node) -> None:
        if isinstance(init, _Shared):
            plan.append(_Store(key, lv, t, init))
            return
        strings = self.string_initialiser(t, init)
        if strings is not None:
            assert isinstance(t, ArrayType)
            for i, ch in enumerate(strings[: t.size if t.size is not None else len(strings)]):
                plan.append(_Store((*key, i), Index(lv, Const(i, self.dm.ptrdiff_t), t.elem), t.elem,
                                   Const(ch, self.dm.int)))
            return
        if isinstance(init, c_ast.InitList):
            items = list(init.exprs or [])
            if isinstance(t, ArrayType | StructType):
                self._fill(lv, t, items, decl, key, plan)
            elif items:  # a scalar in braces: int x = {5};
                if len(items) > 1 or isinstance(items[0], c_ast.NamedInitializer):
                    raise Unsupported("excess or designated initialisers of a scalar", self.pb.range(init))
                self._plan(lv, t, items[0], key, plan, decl)
            else:  # struct s x = { .a = {} }; (GNU C, C23): zero
                plan.append(_Store(key, lv, t, Const(0, self.dm.int)))
            return
        if isinstance(t, ArrayType):
            raise Unsupported("an array initialised by an expression", self.pb.range(init))
        plan.append(_Store(key, lv, t, init))

    def _fill(self, lv: Expr | None, t: CType, items: list, decl: c_ast.Node, key: tuple[int, ...] = (),
              plan: list[_Store] | None = None) -> int:
        """Plan the elements or members of aggregate ``lv`` from the initialisers of its
        brace-enclosed list; the number of outermost elements they reach (the length an array
        of unknown length gets). Without ``plan`` it only measures (``lv`` is None)."""
        measure = plan is None
        root = _Frame(lv, t)
        stack = [root]
        reached = 0
        for item in items:
            count = 1
            if isinstance(item, c_ast.NamedInitializer):
                del stack[1:]
                count = self._designate(stack, item.name, measure)
                value: c_ast.Node | _Shared = item.expr
            else:
                value = item
                if not self._next_free(stack):
                    continue  # beyond the aggregate: gcc ignores it (with a warning)
            # Braces elided: the initialiser goes to the first scalar of the subobject.
            while True:
                top = stack[-1]
                sub_lv, sub_t = self._part(top, top.pos, measure, decl)
                if self._whole(sub_t, value):
                    break
                if count != 1:
                    raise Unsupported("a range designator for aggregates without braces", self.pb.range(item))
                stack.append(_Frame(sub_lv, sub_t))
            top = stack[-1]
            if plan is not None:
                if count > 1 and not isinstance(value, c_ast.InitList):
                    value = _Shared(value)  # GNU C evaluates a range's initialiser once
                where = (*key, *(f.pos for f in stack[:-1]))
                for k in range(count):
                    sub_lv, sub_t = self._part(top, top.pos + k, measure, decl)
                    assert sub_lv is not None
                    self._plan(sub_lv, sub_t, value, (*where, top.pos + k), plan, decl)
            top.pos += count
            if isinstance(top.type, StructType) and top.type.union:
                top.pos = _UNBOUNDED  # one member of a union is initialised
            reached = max(reached, root.pos + (1 if len(stack) > 1 else 0))
        return min(reached, _UNBOUNDED)

    def _next_free(self, stack: list[_Frame]) -> bool:
        """Pop the frames that are full; whether the aggregate has a subobject left."""
        while stack[-1].pos >= self._count(stack[-1]):
            if len(stack) == 1:
                return False
            stack.pop()
            stack[-1].pos += 1
        return True

    def _count(self, f: _Frame) -> int:
        t = f.type
        if isinstance(t, ArrayType):
            return t.size if t.size is not None else _UNBOUNDED
        assert isinstance(t, StructType)
        return len(self._fields(t))

    def _fields(self, t: StructType) -> list[tuple[str, CType]]:
        fields = self.pb.structs.get(t.key())
        if fields is None:
            raise Unsupported(f"an initialiser for an incomplete or unsupported {t}", None)
        return self.declared_members(fields)  # bit-fields by name, in declaration order

    def _part(self, f: _Frame, i: int, measure: bool, decl: c_ast.Node) -> tuple[Expr | None, CType]:
        t = f.type
        if isinstance(t, ArrayType):
            if t.size is None and f.lv is not None:
                raise Unsupported("an initialiser for an array of unknown length inside an aggregate",
                                  self.pb.range(decl))
            return (None if measure or f.lv is None else Index(f.lv, Const(i, self.dm.ptrdiff_t), t.elem)), t.elem
        assert isinstance(t, StructType)
        name, ft = self._fields(t)[i]
        if isinstance(ft, ArrayType) and ft.size is None and f.lv is not None:
            raise Unsupported("an initialiser for a flexible array member", self.pb.range(decl))
        return (None if measure or f.lv is None else self.member_lvalue(f.lv, name, ft)), ft

    def _whole(self, t: CType, value: c_ast.Node | _Shared) -> bool:
        """Whether ``value`` initialises a whole subobject of type ``t`` (else it is the first of
        the subobject's own initialisers, its braces elided)."""
        if not isinstance(t, ArrayType | StructType) or isinstance(value, c_ast.InitList):
            return True
        if isinstance(value, _Shared):
            return False
        if isinstance(value, c_ast.Constant):
            return self.string_initialiser(t, value) is not None
        if isinstance(t, ArrayType):
            return False  # no expression but a string literal is an array
        # A struct from an expression: a whole struct of that type, or the first scalar of its
        # elided braces (its type, read without translating it: that comes in order, later).
        e, _ = self.pb.probe(value, self.scope)
        return isinstance(e.type, StructType) and e.type.key() == t.key()

    def _designate(self, stack: list[_Frame], designators: list[c_ast.Node], measure: bool) -> int:
        """Enter the subobject that ``designators`` name, from the brace-enclosed object: frames
        for the subobjects on the way, the last one's ``pos`` at it. The number of subobjects
        it names (a GNU range ``[lo ... hi]``: hi - lo + 1)."""
        count = 1
        for k, d in enumerate(designators):
            if k > 0:
                top = stack[-1]
                sub_lv, sub_t = self._part(top, top.pos, measure, d)
                if count != 1:
                    raise Unsupported("a range designator followed by another designator", self.pb.range(d))
                stack.append(_Frame(sub_lv, sub_t))
            top = stack[-1]
            if isinstance(d, c_ast.ArrayDesignator) or not isinstance(d, c_ast.ID):
                index = d.expr if isinstance(d, c_ast.ArrayDesignator) else d
                if not isinstance(top.type, ArrayType):
                    raise Unsupported("an array designator for a non-array", self.pb.range(d))
                lo, hi = self._index_range(index)
                if lo < 0 or hi < lo or (top.type.size is not None and hi >= top.type.size):
                    raise Unsupported(f"an array designator [{lo}] outside {top.type}", self.pb.range(d))
                top.pos, count = lo, hi - lo + 1
            else:
                if not isinstance(top.type, StructType):
                    raise Unsupported(f"a member designator .{d.name} for a non-struct", self.pb.range(d))
                path = self._member_path(top.type, d.name)
                if path is None:
                    raise Unsupported(f"{top.type} has no member {d.name}", self.pb.range(d))
                for j, i in enumerate(path):
                    if j > 0:  # through an anonymous struct or union member
                        sub_lv, sub_t = self._part(stack[-1], stack[-1].pos, measure, d)
                        stack.append(_Frame(sub_lv, sub_t))
                    stack[-1].pos = i
        return count

    def _index_range(self, node: c_ast.Node) -> tuple[int, int]:
        if isinstance(node, c_ast.FuncCall) and isinstance(node.name, c_ast.ID) and node.name.name == RANGE_DESIGNATOR:
            lo, hi = node.args.exprs
            return self.pb.const_int(lo, self.scope), self.pb.const_int(hi, self.scope)
        i = self.pb.const_int(node, self.scope)
        return i, i

    def _member_path(self, t: StructType, name: str) -> list[int] | None:
        """The member indices that lead to ``name`` in ``t``, through anonymous members."""
        for i, (fname, ft) in enumerate(self._fields(t)):
            if fname == name:
                return [i]
            if fname.startswith("__anon") and isinstance(ft, StructType):
                inner = self._member_path(ft, name)
                if inner is not None:
                    return [i, *inner]
        return None
