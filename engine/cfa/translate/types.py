"""Types: C declarators and specifiers resolved to cbam types, struct layouts, enums and constant expressions"""

from __future__ import annotations

from pycparser import c_ast

from ...frontend.errors import Unsupported
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
from .common import (
    START_FUNCTION,
    _Scope,
)
from .vla import VlaSlice

NON_CONSTANT = "a non-constant expression where C requires a constant"

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..builder import ProgramBuilder  # noqa: F401


class TypeResolver:
    """Types: C declarators and specifiers resolved to cbam types, struct layouts, enums and constant expressions (a part of FunctionBuilder)."""

    # ---- types -----------------------------------------------------------
    def new_anon(self, prefix: str) -> str:
        self._anon += 1
        return f"{prefix}{self._anon}"

    def resolve_type(self, node: c_ast.Node, scope: _Scope, where: c_ast.Node | None = None) -> CType:
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

    def typeof_type(self, node: c_ast.TypeOf, scope: _Scope) -> CType:
        """``typeof(type-name)``, or ``typeof(expression)``: the expression's type, in the scope the
        type is written in. The expression is not evaluated (a variable-length array's would be)."""
        if isinstance(node.expr, c_ast.Typename):
            return self.resolve_type(node.expr, scope, node)
        e, _ = self.probe(node.expr, scope)
        if isinstance(e, VlaSlice):
            raise Unsupported("typeof of a variable-length array", self.range(node))
        return e.type

    def probe(self, node: c_ast.Node, scope: _Scope) -> tuple[Expr, bool]:
        """An expression built for its type alone (sizeof and typeof do not evaluate theirs), on a
        throw-away builder where its side effects go; and whether it has any."""
        fb = self.function_builder(scope.function or START_FUNCTION, scope)
        fb.scope = scope
        fb.temps = 10_000  # its temporaries must not collide with the function's
        e = fb.expr(node)
        return e, fb.cur is not fb.entry or bool(fb.entry.out)

    def param_type(self, node: c_ast.Node, scope: _Scope, where: c_ast.Node) -> CType:
        """A parameter's type as the function sees it: an array is a pointer to its first element,
        a function a pointer to it. The array's outermost length does not matter, and the inner
        ones may be variable (their rows have no known length then; the function's body keeps
        the lengths: vla.py)."""
        if isinstance(node, c_ast.ArrayDecl):
            return self.dm.pointer(self.param_row_type(node.type, scope, where))
        return self.adjust_param(self.resolve_type(node, scope, where))

    def param_row_type(self, node: c_ast.Node, scope: _Scope, where: c_ast.Node) -> CType:
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

    def resolve_names(self, names: list[str], scope: _Scope, where: c_ast.Node) -> CType:
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

    def struct_type(self, node: c_ast.Struct | c_ast.Union, scope: _Scope) -> StructType:
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
            fields: list[tuple[str, CType]] = []
            bitfields = False
            for d in node.decls:
                bitfields |= d.bitsize is not None
                ft = self.resolve_type(d.type, scope, d)
                fields.append((d.name or self.new_anon("__anon"), ft))
            if bitfields:
                # Unsupported only where used: headers declare such structs that programs never touch.
                self.bitfield_structs[st.key()] = self.range(node)
            else:
                self.structs[st.key()] = fields
        return st

    def enum_type(self, node: c_ast.Enum, scope: _Scope) -> CType:
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

    def const_int(self, node: c_ast.Node, scope: _Scope) -> int:
        fb = self.function_builder(None, scope, const_only=True)
        e = fb.expr(node)
        if not isinstance(e, Const):
            raise Unsupported(NON_CONSTANT, self.range(node))
        return e.value
