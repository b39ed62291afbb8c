"""Types: C declarators and specifiers resolved to cbam types, struct layouts, enums and constant expressions"""

from __future__ import annotations

import re

from pycparser import c_ast

from ...frontend.attributes import Attribute, unsupported_reason
from ...frontend.cparser import GnuParser
from ...frontend.errors import Range, Unsupported
from ..ctype import (
    ArrayType,
    CType,
    FunctionType,
    StructType,
    VoidType,
)
from ..ir import (
    Const,
    Expr,
)
from ..struct_layout import Fields, LayoutError, MemberSpec, lay_out
from .common import (
    START_FUNCTION,
    Scope,
)
from .forms import VlaSlice
from .parts import ProgramParts

NON_CONSTANT = "a non-constant expression where C requires a constant"



class TypeResolver(ProgramParts):
    """Types: C declarators and specifiers resolved to cbam types, struct layouts, enums and constant expressions (a part of FunctionBuilder)."""

    # ---- types -----------------------------------------------------------
    def new_anon(self, prefix: str) -> str:
        self._anon += 1
        return f"{prefix}{self._anon}"

    def resolve_type(self, node: c_ast.Node, scope: Scope, where: c_ast.Node | None = None) -> CType:
        if isinstance(node, c_ast.TypeDecl):
            return self.resolve_type(node.type, scope, where or node)
        if isinstance(node, c_ast.Typename):
            return self.resolve_type(node.type, scope, where or node)
        if isinstance(node, c_ast.PtrDecl):
            return self.dm.pointer(self.resolve_type(node.type, scope, where))
        if isinstance(node, c_ast.ArrayDecl):
            elem = self.resolve_type(node.type, scope, where)
            size = None
            if node.dim is not None:
                try:
                    size = self.const_int(node.dim, scope)
                except Unsupported as u:
                    if u.what == NON_CONSTANT:
                        # Local variables and parameters are declared by the builder (vla.py).
                        raise Unsupported("a variable-length array type here (cbam supports them as local "
                                          "variables and parameters)", u.where) from None
                    raise
            return ArrayType(elem, size)
        if isinstance(node, c_ast.FuncDecl):
            ret = self.resolve_type(node.type, scope, where)
            params: list[CType] = []
            variadic = False
            unproto = node.args is None
            if node.args is not None:
                for p in node.args.params:
                    if isinstance(p, c_ast.EllipsisParam):
                        variadic = True
                        continue
                    if isinstance(p, c_ast.ID):  # K&R identifier list
                        params.append(self.dm.int)
                        continue
                    pt = self.param_type(p.type, scope, p)
                    if isinstance(pt, VoidType):
                        continue
                    params.append(pt)
            return FunctionType(ret, tuple(params), variadic, unproto)
        if isinstance(node, c_ast.TypeOf):
            return self.typeof_type(node, scope)
        if isinstance(node, c_ast.IdentifierType):
            return self.resolve_names(node.names, scope, where or node)
        if isinstance(node, (c_ast.Struct, c_ast.Union)):
            return self.struct_type(node, scope)
        if isinstance(node, c_ast.Enum):
            return self.enum_type(node, scope)
        raise Unsupported(f"type {type(node).__name__}", self.range(where or node))

    def typeof_type(self, node: c_ast.TypeOf, scope: Scope) -> CType:
        """``typeof(type-name)``, or ``typeof(expression)``: the expression's type, in the scope the
        type is written in. The expression is not evaluated (a variable-length array's would be)."""
        if isinstance(node.expr, c_ast.Typename):
            return self.resolve_type(node.expr, scope, node)
        e, _ = self.probe(node.expr, scope)
        if isinstance(e, VlaSlice):
            raise Unsupported("typeof of a variable-length array", self.range(node))
        return e.type

    def probe(self, node: c_ast.Node, scope: Scope) -> tuple[Expr, bool]:
        """An expression built for its type alone (sizeof and typeof do not evaluate theirs), on a
        throw-away builder where its side effects go; and whether it has any."""
        fb = self.function_builder(scope.function or START_FUNCTION, scope)
        fb.scope = scope
        fb.temps = 10_000  # its temporaries must not collide with the function's
        e = fb.expr(node)
        return e, fb.cur is not fb.entry or bool(fb.entry.out)

    def param_type(self, node: c_ast.Node, scope: Scope, where: c_ast.Node) -> CType:
        """A parameter's type as the function sees it: an array is a pointer to its first element,
        a function a pointer to it. The array's outermost length does not matter, and the inner
        ones may be variable (their rows have no known length then; the function's body keeps
        the lengths: vla.py)."""
        if isinstance(node, c_ast.ArrayDecl):
            return self.dm.pointer(self.param_row_type(node.type, scope, where))
        return self.adjust_param(self.resolve_type(node, scope, where))

    def param_row_type(self, node: c_ast.Node, scope: Scope, where: c_ast.Node) -> CType:
        if not isinstance(node, c_ast.ArrayDecl):
            return self.resolve_type(node, scope, where)
        elem = self.param_row_type(node.type, scope, where)
        size = None
        if node.dim is not None:
            try:
                size = self.const_int(node.dim, scope)
            except Unsupported:
                size = None  # variable (in a prototype its names need not even be declared)
        return ArrayType(elem, size)

    def adjust_param(self, t: CType) -> CType:
        if isinstance(t, ArrayType):
            return self.dm.pointer(t.elem)
        if isinstance(t, FunctionType):
            return self.dm.pointer(t)
        return t

    def resolve_names(self, names: list[str], scope: Scope, where: c_ast.Node) -> CType:
        dm = self.dm
        words = [n for n in names if n not in ("const", "volatile", "register", "auto", "static", "extern", "inline")]
        if len(words) == 1 and words[0] not in ("int", "char", "short", "long", "signed", "unsigned", "_Bool",
                                                 "void", "float", "double"):
            name = words[0]
            if name == "__cbam_int128":
                return dm.int128
            td = scope.lookup("typedefs", name)
            if td is None:
                raise Unsupported(f"unknown type name '{name}'", self.range(where))
            return td
        s = set(words)
        if "float" in s or "double" in s or "_Complex" in s:
            raise Unsupported("floating-point types", self.range(where))
        if "void" in s:
            return dm.void
        if "_Bool" in s:
            return dm.bool
        unsigned = "unsigned" in s
        if "char" in s:
            return dm.uchar if unsigned else (dm.schar if "signed" in s else dm.char)
        if "short" in s:
            return dm.ushort if unsigned else dm.short
        longs = words.count("long")
        if longs >= 2:
            return dm.ullong if unsigned else dm.llong
        if longs == 1:
            return dm.ulong if unsigned else dm.long
        if "__cbam_int128" in s:
            return dm.uint128 if unsigned else dm.int128
        return dm.uint if unsigned else dm.int

    def struct_type(self, node: c_ast.Struct | c_ast.Union, scope: Scope) -> StructType:
        union = isinstance(node, c_ast.Union)
        if node.name is None:
            st = StructType(self.new_anon("__anon"), union)
        else:
            existing = scope.lookup("tags", node.name)
            if node.decls is None:
                if existing is not None:
                    return existing
                st = StructType(node.name, union)
                scope.tags[node.name] = st
                return st
            if existing is not None and existing.key() not in self.structs:
                st = existing  # completes a forward declaration
            else:
                tag = node.name
                while StructType(tag, union).key() in self.structs:
                    tag = self.new_anon(f"{node.name}.")
                st = StructType(tag, union)
            scope.tags[node.name] = st  # before the members: they may point back to it
        if node.decls is not None:
            try:
                self.structs[st.key()] = self.struct_layout(node, st, scope)
            except Unsupported as u:
                # Unsupported only where used: headers declare structs that programs never touch.
                self.bitfield_structs[st.key()] = u.where
                self.unsupported_structs[st.key()] = u.what
        return st

    def struct_layout(self, node: c_ast.Struct | c_ast.Union, st: StructType, scope: Scope) -> Fields:
        """The members of a struct or union definition, laid out as gcc lays them out."""
        attrs = self.attrs
        bad = None
        body = attrs.body_of(node.coord)
        if body is not None:
            bad = attrs.unsupported_between(*body)
        type_attrs = attrs.for_type(node.coord)
        bad = bad or next((a for a in type_attrs if unsupported_reason(a)), None)
        if bad is not None:
            raise Unsupported(unsupported_reason(bad) or bad.name, self.attribute_range(bad, node))
        packed = any(a.name == "packed" for a in type_attrs)
        aligned = self.attribute_alignment(type_attrs, scope, node)
        members: list[MemberSpec] = []
        for d in node.decls:
            ft = self.resolve_type(d.type, scope, d)
            bits = None
            if d.bitsize is not None:
                bits = self.const_int(d.bitsize, scope)
                name = d.name
            else:
                name = d.name or self.new_anon("__anon")
            # An unnamed bit-field has no coordinate of its own: its width's is in its stretch.
            mattrs = attrs.for_decl(d.coord if d.coord is not None else getattr(d.bitsize, "coord", None))
            member_aligned = self.attribute_alignment(mattrs, scope, d)
            for spec in getattr(d, "align", None) or []:  # C11 _Alignas: a user alignment, as aligned(N)
                n = (self.dm.alignof(self.resolve_type(spec.alignment, scope, d), self.structs)
                     if isinstance(spec.alignment, c_ast.Typename) else self.const_int(spec.alignment, scope))
                if n:
                    member_aligned = max(member_aligned or 0, n)
            members.append(MemberSpec(name, ft, bits, any(a.name == "packed" for a in mattrs), member_aligned))
        try:
            return lay_out(self.dm, st.union, members, lambda t: self.dm.sizeof(t, self.structs),
                           lambda t: self.dm.alignof(t, self.structs), packed=packed, aligned=aligned,
                           pack=attrs.pack_at(node.coord))
        except LayoutError as e:
            raise Unsupported(str(e), self.range(node)) from None

    def attribute_alignment(self, attrs: list[Attribute], scope: Scope, where: c_ast.Node) -> int | None:
        """The largest ``aligned(N)`` among ``attrs`` (``aligned`` alone: x86's biggest, 16)."""
        best = None
        for a in attrs:
            if a.name != "aligned":
                continue
            n = 16 if not a.args else self.attribute_int(a, scope, where)
            if n <= 0 or n & (n - 1):
                raise Unsupported(f"requested alignment {n} is not a positive power of 2", self.attribute_range(a, where))
            best = n if best is None else max(best, n)
        return best

    def attribute_int(self, a: Attribute, scope: Scope, where: c_ast.Node) -> int:
        """An attribute's argument, a constant expression (``8``, ``__alignof__(long long)``),
        parsed on its own with the typedef names it uses declared, evaluated in ``scope``."""
        text = a.args or ""
        m = re.fullmatch(r"\(*\s*(0[xX][0-9a-fA-F]+|[0-9]+)[uUlL]*\s*\)*", text)
        if m is not None and text.count("(") == text.count(")"):
            return int(m.group(1), 0)
        names = [w for w in dict.fromkeys(re.findall(r"[A-Za-z_]\w*", text)) if scope.lookup("typedefs", w) is not None]
        src = "".join(f"typedef int {w};" for w in names) + f"char __cbam_attr[{text}];"
        try:
            ast = GnuParser().parse(src)
            dim = ast.ext[-1].type.dim
        except Exception:  # noqa: BLE001 - whatever pycparser raises on text it cannot read
            raise Unsupported(f"the argument of the {a.spelling} attribute", self.attribute_range(a, where)) from None
        try:
            return self.const_int(dim, scope)
        except Unsupported:
            raise Unsupported(f"the argument of the {a.spelling} attribute", self.attribute_range(a, where)) from None

    def attribute_range(self, a: Attribute, where: c_ast.Node | None) -> Range | None:
        sm = self.spans.sm
        i = sm._by_coord.get(a.pos)
        if i is not None:
            return sm.range_of(i, i)
        return self.range(where)

    def enum_type(self, node: c_ast.Enum, scope: Scope) -> CType:
        for a in self.attrs.for_type(node.coord):
            # A packed enum is as narrow as its values allow: a width cbam does not give it.
            why = unsupported_reason(a) or f"the {a.spelling} attribute on an enum"
            raise Unsupported(why, self.attribute_range(a, node))
        if node.values is not None:
            val = -1
            values = []
            for e in node.values.enumerators:
                val = self.const_int(e.value, scope) if e.value is not None else val + 1
                scope.enums[e.name] = val
                values.append(val)
            t = self.dm.uint if values and min(values) >= 0 else self.dm.int
            if node.name:
                scope.typedefs[f"enum {node.name}"] = t
            return t
        if node.name:
            t = scope.lookup("typedefs", f"enum {node.name}")
            if t is not None:
                return t
        return self.dm.uint

    def const_int(self, node: c_ast.Node, scope: Scope) -> int:
        fb = self.function_builder(None, scope, const_only=True)
        e = fb.expr(node)
        if not isinstance(e, Const):
            raise Unsupported(NON_CONSTANT, self.range(node))
        return e.value
