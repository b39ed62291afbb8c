"""Expressions: typed, side-effect free, with calls, assignments and short circuits turned into edges and temporaries"""

from __future__ import annotations

import re

from pycparser import c_ast

from ...frontend.errors import Unsupported
from ..ctype import (
    ArrayType,
    CType,
    FloatType,
    FunctionType,
    IntType,
    PointerType,
    StructType,
    VoidType,
)
from ..ir import (
    AddrOf,
    AssignEdge,
    AssumeEdge,
    Binary,
    Cast,
    Const,
    Deref,
    Expr,
    FuncRef,
    Index,
    Member,
    StrLit,
    Unary,
    Var,
    is_lvalue,
    lvalue_root,
)
from ..layout import Layout
from ..semantics import eval_binary, eval_cast, eval_unary
from .common import (
    is_elvis,
    literal_elem_type,
    narrow_spelling,
    parse_char,
    parse_char_literal,
    parse_string_literal,
)
from .forms import BitFieldRef, VlaPointer, VlaSlice
from .parts import BuilderParts


class ExpressionBuilder(BuilderParts):
    """Expressions: typed, side-effect free, with calls, assignments and short circuits turned into edges and temporaries (a part of FunctionBuilder)."""

    # ---- expressions: typing helpers --------------------------------------
    def convert(self, e: Expr, t: CType) -> Expr:
        if e.type == t or isinstance(t, VoidType):
            return e
        if isinstance(e, Const) and isinstance(t, IntType):
            v = eval_cast(e.value, t)
            if v is not None:
                return Const(v, t)
        if isinstance(e.type, FloatType) or isinstance(t, FloatType):
            raise Unsupported("floating-point arithmetic", None)
        return Cast(e, t)

    def rvalue(self, e: Expr) -> Expr:
        """Array-to-pointer and function-to-pointer decay."""
        if isinstance(e, VlaSlice | VlaPointer):
            return self.vla_rvalue(e)
        if isinstance(e, BitFieldRef):
            return self.bitfield_load(e)
        if isinstance(e.type, ArrayType):
            return AddrOf(Index(e, Const(0, self.dm.int), e.type.elem), self.dm.pointer(e.type.elem))
        if isinstance(e.type, FunctionType) and isinstance(e, FuncRef):
            return e
        return e

    def promote(self, e: Expr) -> Expr:
        return self.convert(e, self.dm.promote(e.type))

    def binary(self, op: str, lhs: Expr, rhs: Expr, node: c_ast.Node | None) -> Expr:
        dm = self.dm
        left, r = self.rvalue(lhs), self.rvalue(rhs)
        for side in (left, r):
            if isinstance(side.type, FloatType):
                raise Unsupported("floating-point arithmetic", self.pb.range(node))
            if isinstance(side.type, StructType):
                raise Unsupported("arithmetic on a struct value", self.pb.range(node))
        lp, rp = isinstance(left.type, PointerType), isinstance(r.type, PointerType)
        if op in ("<<", ">>"):
            left, r = self.promote(left), self.promote(r)
            return self.fold(Binary(op, left, r, left.type))
        if op in ("==", "!=", "<", ">", "<=", ">="):
            if lp or rp:
                if not lp:
                    left = Cast(left, r.type)
                if not rp:
                    r = Cast(r, left.type)
                return Binary(op, left, r, dm.int)
            ct = dm.usual_arithmetic(left.type, r.type)
            return self.fold(Binary(op, self.convert(left, ct), self.convert(r, ct), dm.int))
        if op in ("+", "-") and (lp or rp):
            for side in (left, r):
                if isinstance(side.type, PointerType) and isinstance(side.type.target, ArrayType) \
                        and side.type.target.size is None:
                    # What it steps over has no size cbam knows (a row of a variable-length array).
                    raise Unsupported("arithmetic on a pointer to a variable-length array", self.pb.range(node))
            if lp and rp and op == "-":
                return Binary("-", left, r, dm.ptrdiff_t)
            if rp and op == "+":
                left, r = r, left
            return Binary(op, left, self.convert(r, dm.ptrdiff_t), left.type)
        if lp or rp:
            raise Unsupported(f"operator {op} on pointers", self.pb.range(node))
        ct = dm.usual_arithmetic(left.type, r.type)
        return self.fold(Binary(op, self.convert(left, ct), self.convert(r, ct), ct))

    def fold(self, e: Expr) -> Expr:
        if isinstance(e, Binary) and isinstance(e.left, Const) and isinstance(e.right, Const):
            v = eval_binary(e.op, e.left.value, e.right.value, e.left.type, e.type)
            if v is not None:
                return Const(v, e.type)
        if isinstance(e, Unary) and isinstance(e.arg, Const):
            v = eval_unary(e.op, e.arg.value, e.arg.type)
            if v is not None:
                return Const(v, e.type)
        return e

    def truth(self, e: Expr) -> Expr:
        """A condition as an int-valued expression (comparisons stay as they are)."""
        e = self.rvalue(e)
        if isinstance(e.type, StructType):
            raise Unsupported("a struct used as a condition", None)
        return e

    # ---- expressions ------------------------------------------------------
    def expr(self, node: c_ast.Node, want: bool = True) -> Expr:
        rng = self.pb.range(node)
        try:
            return self._expr(node, want)
        except Unsupported as u:
            if u.where is None:
                raise Unsupported(u.what, rng) from None
            raise

    def _expr(self, node: c_ast.Node, want: bool) -> Expr:
        dm = self.dm
        if isinstance(node, c_ast.Constant):
            return self.constant(node)
        if isinstance(node, c_ast.ID):
            return self.identifier(node)
        if isinstance(node, c_ast.BinaryOp):
            if node.op in ("&&", "||"):
                return self.logical_value(node)
            left = self.expr(node.left)
            right = self.expr(node.right)
            return self.binary(node.op, left, right, node)
        if isinstance(node, c_ast.UnaryOp):
            return self.unary(node, want)
        if isinstance(node, c_ast.Cast):
            t = self.pb.resolve_type(node.to_type, self.scope, node)
            e = self.rvalue(self.expr(node.expr))
            if isinstance(t, VoidType):
                return Const(0, dm.int)
            if isinstance(t, FloatType):
                raise Unsupported("floating-point types", self.pb.range(node))
            if isinstance(t, IntType) and isinstance(e.type, IntType):
                return self.convert(e, t)
            return Cast(e, t)
        if isinstance(node, c_ast.Assignment):
            return self.assignment(node, want)
        if isinstance(node, c_ast.FuncCall):
            return self.call(node, want)
        if isinstance(node, c_ast.TernaryOp):
            return self.ternary(node, want)
        if isinstance(node, c_ast.ExprList):
            last: Expr = Const(0, dm.int)
            for i, sub in enumerate(node.exprs):
                last = self.expr(sub, want if i == len(node.exprs) - 1 else False)
            return self.rvalue(last)  # a value, not an lvalue: (0, a) is a pointer, as sizeof sees
        if isinstance(node, c_ast.StructRef):
            base = self.expr(node.name)
            if node.type == "->":
                base = self.rvalue(base)
                if not isinstance(base.type, PointerType):
                    raise Unsupported("'->' on a non-pointer", self.pb.range(node))
                base = Deref(base, base.type.target)
            return self.member(base, node.field.name, node)  # bit-fields: translate/bitfields.py
        if isinstance(node, c_ast.ArrayRef):
            base = self.expr(node.name)
            idx = self.rvalue(self.expr(node.subscript))
            if isinstance(base, VlaSlice | VlaPointer):
                return self.vla_index(base, idx)
            if isinstance(idx.type, ArrayType | PointerType) and isinstance(base.type, IntType):
                base, idx = idx, base
            if isinstance(base.type, ArrayType):
                return Index(base, self.convert(idx, dm.ptrdiff_t), base.type.elem)
            base = self.rvalue(base)
            if isinstance(base.type, PointerType):
                ptr = self.binary("+", base, idx, node)
                return Deref(ptr, base.type.target)
            raise Unsupported("subscript of a non-array", self.pb.range(node))
        if isinstance(node, c_ast.Compound):  # GNU statement expression
            return self.statement_expression(node, want)
        if isinstance(node, c_ast.Typename):
            raise Unsupported("a type name in expression position", self.pb.range(node))
        if isinstance(node, c_ast.CompoundLiteral):
            return self.compound_literal(node)
        if isinstance(node, c_ast.InitList):
            raise Unsupported("an initializer list in expression position", self.pb.range(node))
        raise Unsupported(f"expression {type(node).__name__}", self.pb.range(node))

    def constant(self, node: c_ast.Constant) -> Expr:
        dm = self.dm
        text = node.value
        if node.type == "string" or text.startswith('"') or text.startswith('L"'):
            if text.startswith('"') and "\\u" not in text and "\\U" not in text:
                return StrLit(text, dm.pointer(dm.char))
            # L"...", u"...", U"...", u8"..." or a universal character name: the analyses read
            # a literal's object as the bytes of a narrow one, so it is spelled as one.
            elems, name = parse_string_literal(text)
            et = literal_elem_type(dm, name)
            return StrLit(narrow_spelling(elems, dm.sizeof(et, {}) or 1), dm.pointer(et))
        if node.type == "char" or text.endswith("'"):
            if not text.startswith("'"):  # L'a', u'a', U'a': a wchar_t, char16_t, char32_t
                v, name = parse_char_literal(text)
                return Const(v, literal_elem_type(dm, name))
            return Const(parse_char(text, dm), dm.int)
        if re.fullmatch(r"(0[xX][0-9a-fA-F]+|[0-9]+)([uUlL]*)", text) is None:
            raise Unsupported("floating-point constants", self.pb.range(node))
        m = re.fullmatch(r"(0[xX][0-9a-fA-F]+|[0-9]+)([uUlL]*)", text)
        assert m is not None
        digits, suffix = m.group(1), m.group(2).lower()
        decimal = not (digits.startswith("0x") or digits.startswith("0X") or (digits.startswith("0") and len(digits) > 1))
        value = int(digits, 0) if not (digits.startswith("0") and len(digits) > 1 and digits[1] not in "xX") else int(digits, 8)
        u = "u" in suffix
        longs = suffix.count("l")
        cands: list[IntType]
        if longs == 0:
            cands = [dm.int, dm.long, dm.llong] if decimal else [dm.int, dm.uint, dm.long, dm.ulong, dm.llong, dm.ullong]
        elif longs == 1:
            cands = [dm.long, dm.llong] if decimal else [dm.long, dm.ulong, dm.llong, dm.ullong]
        else:
            cands = [dm.llong] if decimal else [dm.llong, dm.ullong]
        if u:
            cands = [dm.unsigned_of(c) for c in cands]
            cands = list(dict.fromkeys(cands))
        for c in cands:
            if c.contains(value):
                return Const(value, c)
        if dm.ullong.contains(value):
            return Const(value, dm.ullong)
        raise Unsupported("an integer constant too large for any type", self.pb.range(node))

    def identifier(self, node: c_ast.ID) -> Expr:
        name = node.name
        if name == "__func__":
            return StrLit(f'"{self.name}"', self.dm.pointer(self.dm.char))
        vid = self.scope.lookup("vars", name)
        if vid is not None:
            info = self.pb.vars[vid]
            if isinstance(info.type, FloatType):
                raise Unsupported("floating-point variables", self.pb.range(node))
            shape = self.pb.vla_shapes.get(vid)
            if shape is not None:
                return self.vla_variable(Var(vid, info.type), shape)
            return Var(vid, info.type)
        ev = self.scope.lookup("enums", name)
        if ev is not None:
            return Const(ev, self.dm.int)
        if name in self.pb.func_types or name in self.pb.func_defs:
            ft = self.pb.func_types.get(name) or FunctionType(self.dm.int, (), unprototyped=True)
            return FuncRef(name, ft)
        raise Unsupported(f"use of undeclared identifier '{name}'", self.pb.range(node))

    def field_type(self, t: CType, fieldname: str, node: c_ast.Node) -> CType:
        if not isinstance(t, StructType):
            raise Unsupported("member access on a non-struct", self.pb.range(node))
        fields = self.pb.structs.get(t.key())
        if fields is None:
            if t.key() in self.pb.bitfield_structs:
                raise Unsupported(self.pb.unsupported_structs.get(t.key(), "bit-fields"), self.pb.range(node))
            raise Unsupported(f"incomplete type {t}", self.pb.range(node))
        for fname, ftype in fields:
            if fname == fieldname:
                if isinstance(ftype, FloatType):
                    raise Unsupported("floating-point members", self.pb.range(node))
                return ftype
        # Members of anonymous struct/union members are reached through them.
        for fname, ftype in fields:
            if isinstance(ftype, StructType) and fname.startswith("__anon"):
                try:
                    return self.field_type(ftype, fieldname, node)
                except Unsupported:
                    continue
        raise Unsupported(f"no member '{fieldname}' in {t}", self.pb.range(node))

    def preferred_alignment(self, t: CType, alignment: int | None) -> int | None:
        """GNU's ``__alignof__``: the alignment gcc prefers, which on i386 is 8 for a 64-bit
        integer (and an array of them) where the ABI's, ``_Alignof``'s, is 4."""
        while isinstance(t, ArrayType):
            t = t.elem
        if isinstance(t, IntType) and t.bits == 64:
            return 8
        return alignment

    def unary(self, node: c_ast.UnaryOp, want: bool) -> Expr:
        dm = self.dm
        op = node.op
        if op in ("sizeof", "_Alignof", "__alignof__"):
            if isinstance(node.expr, c_ast.Typename):
                t = self.pb.resolve_type(node.expr, self.scope, node)
            elif isinstance(node.expr, c_ast.Constant) and node.expr.type == "string":
                elems, name = parse_string_literal(node.expr.value)  # "za" is a char[3], L"za" an int[3]
                t = ArrayType(literal_elem_type(dm, name), len(elems))
            else:
                # The operand is not evaluated (a variable-length array's would be: unsupported
                # when that has side effects).
                operand, effects = self.pb.probe(node.expr, self.scope)
                if isinstance(operand, VlaSlice) and op == "sizeof":
                    if effects:
                        raise Unsupported("sizeof of a variable-length array whose operand has side effects",
                                          self.pb.range(node))
                    return self.vla_sizeof(operand)
                self.no_bitfield(operand, f"'{op}' applied to", node)
                t = operand.type
                if isinstance(t, StructType):
                    t = self.pb.flexible_types.get(t.key(), t)  # its declared type's size (GNU C)
                if isinstance(t, FunctionType) and isinstance(node.expr, c_ast.UnaryOp) and node.expr.op == "&":
                    t = dm.pointer(t)  # &f is a pointer (the builder keeps the function itself for calls)
            size = dm.sizeof(t, self.pb.structs) if op == "sizeof" else dm.alignof(t, self.pb.structs)
            if op == "__alignof__":
                size = self.preferred_alignment(t, size)
            if size is None and isinstance(t, FunctionType | VoidType):
                size = 1  # GNU C: sizeof and alignof of void and of a function are 1
            if size is None and isinstance(t, StructType) and t.key() in self.pb.bitfield_structs:
                raise Unsupported(self.pb.unsupported_structs.get(t.key(), "bit-fields"), self.pb.range(node))
            if size is None:
                raise Unsupported(f"{op} of an incomplete type", self.pb.range(node))
            return Const(size, dm.size_t)
        if op in ("++", "--", "p++", "p--"):
            lv = self.lvalue(node.expr)
            one = Const(1, dm.int)
            new = self.binary("+" if "+" in op else "-", lv, one, node)
            if op.startswith("p") and want:
                old = self.new_temp(lv.type, self.pb.range(node))
                self.emit(AssignEdge, node, lhs=old, rhs=lv)
                self.emit(AssignEdge, node, lhs=lv, rhs=self.convert(new, lv.type))
                return old
            self.emit(AssignEdge, node, lhs=lv, rhs=self.convert(new, lv.type))
            return lv
        if op == "&":
            if isinstance(node.expr, c_ast.ID) and self.scope.lookup("vars", node.expr.name) is None:
                f = self.identifier(node.expr)
                if isinstance(f, FuncRef):
                    return f
            e = self.expr(node.expr)
            self.no_bitfield(e, "cannot take the address of", node)
            if isinstance(e, VlaSlice):
                return self.vla_address(e)
            lv = self.as_lvalue(e, node.expr)
            offset = self.null_based_offset(lv)
            if offset is not None:
                return Cast(Const(offset, dm.size_t), dm.pointer(lv.type))
            root = lvalue_root(lv)
            if root is not None and root.name in self.pb.vars:
                self.pb.vars[root.name].addressed = True
                self.pb._addressed.append(root.name)
            return AddrOf(lv, dm.pointer(lv.type))
        if op == "*":
            target = self.expr(node.expr)
            if isinstance(target, VlaSlice | VlaPointer):  # *A is A[0]
                return self.vla_index(target, Const(0, dm.int))
            p = self.rvalue(target)
            if isinstance(p, FuncRef):
                return p
            if not isinstance(p.type, PointerType):
                raise Unsupported("dereference of a non-pointer", self.pb.range(node))
            if isinstance(p.type.target, FunctionType):
                return p
            if isinstance(p.type.target, VoidType):
                raise Unsupported("dereference of void *", self.pb.range(node))
            return Deref(p, p.type.target)
        e = self.rvalue(self.expr(node.expr))
        if isinstance(e.type, FloatType):
            raise Unsupported("floating-point arithmetic", self.pb.range(node))
        if op == "!":
            return self.fold(Unary("!", e, dm.int))
        if op in ("-", "~", "+"):
            if not isinstance(e.type, IntType):
                raise Unsupported(f"unary {op} on a non-integer", self.pb.range(node))
            e = self.promote(e)
            return e if op == "+" else self.fold(Unary(op, e, e.type))
        raise Unsupported(f"unary operator {op}", self.pb.range(node))

    def null_based_offset(self, lv: Expr) -> int | None:
        """The address ``&((T *)0)->m`` (offsetof written out, as container_of does): a constant,
        computed from the layout without touching memory; None for any other lvalue."""
        if not isinstance(lv, Member | Index):
            return None
        layout = Layout(self.dm, self.pb.structs)
        offset = 0
        while isinstance(lv, Member | Index):
            if isinstance(lv, Member):
                field = layout.offset(lv.base.type, lv.field)
                if field is None:
                    return None
                offset += field[0]
            else:
                size = layout.sizeof(lv.type)
                if not isinstance(lv.index, Const) or size is None:
                    return None
                offset += lv.index.value * size
            lv = lv.base
        if not isinstance(lv, Deref):
            return None
        p = lv.ptr
        while isinstance(p, Cast) and isinstance(p.type, PointerType | IntType):
            p = p.arg
        return offset if isinstance(p, Const) and p.value == 0 else None

    def lvalue(self, node: c_ast.Node) -> Expr:
        return self.as_lvalue(self.expr(node), node)

    def as_lvalue(self, e: Expr, node: c_ast.Node) -> Expr:
        if isinstance(e, VlaPointer):
            return e.var
        if isinstance(e, VlaSlice):
            raise Unsupported("assignment to an array", self.pb.range(node))
        if not is_lvalue(e) and not isinstance(e, BitFieldRef):
            raise Unsupported("assignment to a non-lvalue", self.pb.range(node))
        return e

    def assignment(self, node: c_ast.Assignment, want: bool) -> Expr:
        lv = self.lvalue(node.lvalue)
        if isinstance(lv.type, ArrayType):
            raise Unsupported("assignment to an array", self.pb.range(node))
        if node.op == "=":
            if isinstance(node.rvalue, c_ast.FuncCall) and isinstance(lv, Var):
                r = self.call(node.rvalue, True, direct_lhs=lv, whole=node)
                if r is lv:
                    return lv
            else:
                r = self.rvalue(self.expr(node.rvalue))
            if isinstance(lv.type, StructType):
                if r.type != lv.type:
                    raise Unsupported("struct assignment between different types", self.pb.range(node))
                self.emit(AssignEdge, node, lhs=lv, rhs=r)
                return lv
            self.emit(AssignEdge, node, lhs=lv, rhs=self.convert(r, lv.type))
            return lv
        op = node.op[:-1]
        r = self.expr(node.rvalue)
        new = self.binary(op, lv, r, node)
        self.emit(AssignEdge, node, lhs=lv, rhs=self.convert(new, lv.type))
        return lv

    def ternary(self, node: c_ast.TernaryOp, want: bool) -> Expr:
        elvis = is_elvis(node)
        if self.const_only:
            return self.constant_ternary(node, elvis)
        t_node, f_node, join = self.new_node(), self.new_node(), self.new_node()
        if elvis:
            # GNU ``a ?: b``: ``a`` is evaluated once, and its value is the result when nonzero.
            a = self.rvalue(self.expr(node.cond))
            if isinstance(a.type, StructType):
                raise Unsupported("a struct used as a condition", self.pb.range(node.cond))
            src = self.here()
            rng = self.pb.range(node.cond)
            text = self.pb.source_text(rng)
            self.link(AssumeEdge(pred=src, succ=t_node, range=rng, text=text, cond=a, truth=True))
            self.link(AssumeEdge(pred=src, succ=f_node, range=rng, text=text, cond=a, truth=False))
            a_end = t_node
        else:
            self.cond(node.cond, t_node, f_node)
            # Types of both arms decide the result type; compute them on scratch builders.
            self.cur = t_node
            a = self.rvalue(self.expr(node.iftrue, want))
            a_end = self.cur
        self.cur = f_node
        b = self.rvalue(self.expr(node.iffalse, want))
        b_end = self.cur
        rt = self.ternary_type(a, b)
        if not want or isinstance(rt, VoidType):
            for end in (a_end, b_end):
                self.cur = end
                self.goto(join)
            self.cur = join
            return Const(0, self.dm.int)
        tmp = self.new_temp(rt, self.pb.range(node))
        self.cur = a_end
        self.emit(AssignEdge, node.cond if elvis else node.iftrue, lhs=tmp, rhs=self.convert(a, rt))
        self.goto(join)
        self.cur = b_end
        self.emit(AssignEdge, node.iffalse, lhs=tmp, rhs=self.convert(b, rt))
        self.goto(join)
        self.cur = join
        return tmp

    def ternary_type(self, a: Expr, b: Expr) -> CType:
        if isinstance(a.type, IntType) and isinstance(b.type, IntType):
            return self.dm.usual_arithmetic(a.type, b.type)
        if isinstance(a.type, VoidType) or isinstance(b.type, VoidType):
            return self.dm.void
        return a.type if isinstance(a.type, PointerType) else b.type

    def constant_ternary(self, node: c_ast.TernaryOp, elvis: bool) -> Expr:
        """``c ? a : b`` and ``a ?: b`` where C requires a constant (a case label, an array's
        length, an enumerator): the operands are constants, and only the chosen one counts."""
        c = self.rvalue(self.expr(node.cond))
        a = c if elvis else self.rvalue(self.expr(node.iftrue))
        b = self.rvalue(self.expr(node.iffalse))
        if not (isinstance(c, Const) and isinstance(a, Const) and isinstance(b, Const)):
            raise Unsupported("a non-constant expression where C requires a constant", self.pb.range(node))
        rt = self.ternary_type(a, b)
        return self.convert(a if c.value != 0 else b, rt)

    def logical_value(self, node: c_ast.BinaryOp) -> Expr:
        if self.const_only:
            left = self.expr(node.left)
            right = self.expr(node.right)
            if isinstance(left, Const) and isinstance(right, Const):
                v = (left.value != 0 and right.value != 0) if node.op == "&&" else (left.value != 0 or right.value != 0)
                return Const(int(v), self.dm.int)
            raise Unsupported("a non-constant expression where C requires a constant", self.pb.range(node))
        t_node, f_node, join = self.new_node(), self.new_node(), self.new_node()
        tmp = self.new_temp(self.dm.int, self.pb.range(node))
        self.cond(node, t_node, f_node)
        self.cur = t_node
        self.emit(AssignEdge, node, lhs=tmp, rhs=Const(1, self.dm.int))
        self.goto(join)
        self.cur = f_node
        self.emit(AssignEdge, node, lhs=tmp, rhs=Const(0, self.dm.int))
        self.goto(join)
        self.cur = join
        return tmp

    def statement_expression(self, node: c_ast.Compound, want: bool) -> Expr:
        items = node.block_items or []
        value: Expr = Const(0, self.dm.int)
        with self.block_scope():
            for i, item in enumerate(items):
                if i == len(items) - 1 and not isinstance(item, c_ast.Decl | c_ast.Compound | c_ast.If | c_ast.While |
                                                           c_ast.For | c_ast.DoWhile | c_ast.Switch | c_ast.Return |
                                                           c_ast.Label | c_ast.Goto | c_ast.EmptyStatement |
                                                           c_ast.Break | c_ast.Continue):
                    value = self.rvalue(self.expr(item, want))
                else:
                    self.stmt(item)
        return value
