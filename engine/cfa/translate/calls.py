"""Calls and the verification model: defined, external and nondet functions, error and assert functions"""

from __future__ import annotations

from pycparser import c_ast

from ...frontend.errors import Range, Unsupported
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
    AbortEdge,
    AddrOf,
    AssignEdge,
    AssumeEdge,
    Binary,
    BlankEdge,
    CallEdge,
    Cast,
    Const,
    DeclEdge,
    Deref,
    ErrorInfo,
    Expr,
    ExternalCallEdge,
    FuncRef,
    Index,
    Nondet,
    Var,
)
from .common import (
    ABORT_FUNCTIONS,
    ASSERT_FAIL_FUNCTIONS,
    ERROR_FUNCTIONS,
    LIBC_PURE,
    NONDET_PREFIX,
    unsupported_reason,
)
from .parts import BuilderParts

# Bits of an integer that a floating type holds exactly (x86: float, double, 80-bit long double).
MANTISSA_BITS = {"float": 24, "double": 53}


class CallBuilder(BuilderParts):
    """Calls and the verification model: defined, external and nondet functions, error and assert functions (a part of FunctionBuilder)."""

    # ---- calls ------------------------------------------------------------
    def call(self, node: c_ast.FuncCall, want: bool, direct_lhs: Var | None = None,
             whole: c_ast.Node | None = None) -> Expr:
        dm = self.dm
        rng = self.pb.range(node)
        callee_node = node.name
        name: str | None = None
        if isinstance(callee_node, c_ast.ID) and self.scope.lookup("vars", callee_node.name) is None:
            name = callee_node.name
        else:
            fe = self.expr(callee_node)
            if isinstance(fe, FuncRef):
                name = fe.name
            else:
                return self.call_through_pointer(node, self.rvalue(fe), want)
        args_ast = node.args.exprs if node.args is not None else []
        if self.const_only:
            raise Unsupported("a function call in a constant expression", rng)
        # Special functions of the verification model.
        if name in ERROR_FUNCTIONS or name in ASSERT_FAIL_FUNCTIONS:
            if name in ASSERT_FAIL_FUNCTIONS:
                for a in args_ast:
                    self.expr(a, False)
            kind = "reach_error" if name in ERROR_FUNCTIONS else "assert_fail"
            self.error_edge(ErrorInfo(kind, f"{name}() is reachable", rng), node)
            return Const(0, dm.int)
        if name in ABORT_FUNCTIONS:
            for a in args_ast:
                self.expr(a, False)
            self.emit(AbortEdge, node, label=f"{name}()")
            self.cur = None
            return Const(0, dm.int)
        builtin_assert = name == "__cbam_assert" or (name == "__VERIFIER_assert" and name not in self.pb.func_defs)
        builtin_assume = name == "__VERIFIER_assume" or (name == "assume_abort_if_not" and name not in self.pb.func_defs)
        if builtin_assert or builtin_assume:
            if len(args_ast) != 1:
                raise Unsupported(f"{name} with {len(args_ast)} arguments", rng)
            cont = self.new_node()
            if builtin_assume:
                sink = self.new_node()
                self.cond(args_ast[0], cont, sink)
            else:
                text = self.pb.source_text(self.pb.range(args_ast[0]))
                err = self.new_node()
                err.error = ErrorInfo("assert", f"assertion `{text}` may fail", rng, text)
                self.cond(args_ast[0], cont, err)
            self.cur = cont
            return Const(0, dm.int)
        if name.startswith(NONDET_PREFIX) and name not in self.pb.func_defs:
            t = self.nondet_type(name, rng, direct_lhs.type if direct_lhs is not None else None)
            for a in args_ast:
                self.expr(a, False)
            if isinstance(t, VoidType):
                return Const(0, dm.int)
            target = direct_lhs if (direct_lhs is not None and direct_lhs.type == t) else None
            if target is None:
                if not want:
                    return Const(0, dm.int)
                target = self.new_temp(t, rng)
            self.emit(AssignEdge, whole if target is direct_lhs and whole is not None else node,
                      lhs=target, rhs=Nondet(t, name))
            return target
        ft = self.pb.func_types.get(name)
        if ft is None:
            ft = FunctionType(dm.int, (), unprototyped=True)  # implicit declaration
            self.pb.declared.setdefault(name, rng)
            self.pb._implicit.append((name, rng))
        if isinstance(ft.ret, FloatType):
            raise Unsupported(unsupported_reason(ft.ret) or "floating-point types", rng)
        args: list[Expr] = []
        for i, a in enumerate(args_ast):
            e = self.rvalue(self.expr(a))
            if isinstance(e.type, FloatType):
                raise Unsupported("floating-point arithmetic", self.pb.range(a))
            if i < len(ft.params) and not ft.unprototyped:
                e = self.convert(e, ft.params[i]) if isinstance(ft.params[i], IntType | PointerType) else e
            elif isinstance(e.type, IntType):
                e = self.promote(e)
            args.append(e)
        defined = name in self.pb.func_defs
        if defined:
            fd_type = self.pb.func_types.get(name)
            if fd_type is None:  # ``int f { ... }``: a body without a parameter list, which pycparser reads
                raise Unsupported(f"a call of '{name}', whose definition has no parameter list", rng)
            nparams = len(fd_type.params)
            if len(args) != nparams and not fd_type.variadic:
                raise Unsupported(f"call of '{name}' with {len(args)} arguments (it takes {nparams})", rng)
            if len(args) < nparams:
                raise Unsupported(f"call of '{name}' with {len(args)} arguments (it takes at least {nparams})", rng)
            if ft.unprototyped:
                args = [self.convert(a, p) if isinstance(p, IntType) else a for a, p in zip(args, fd_type.params)] \
                    + args[nparams:]
            if fd_type.variadic:
                args = args[:nparams] + [self.variadic_arguments(args[nparams:], node)]
        ret = ft.ret
        lhs: Expr | None = None
        if not isinstance(ret, VoidType):
            if direct_lhs is not None and direct_lhs.type == ret:
                lhs = direct_lhs
            elif want or defined:
                lhs = self.new_temp(ret, rng)
        edge_node = whole if (lhs is not None and lhs is direct_lhs and whole is not None) else node
        if defined:
            self.calls.add(name)
            self.emit(CallEdge, edge_node, lhs=lhs, callee=name, args=tuple(args))
        else:
            self.emit(ExternalCallEdge, edge_node, lhs=lhs, callee=name, args=tuple(args),
                      writes_globals=name not in LIBC_PURE)
        if lhs is None:
            return Const(0, dm.int)
        return lhs

    def call_through_pointer(self, node: c_ast.FuncCall, fp: Expr, want: bool) -> Expr:
        """``(*fp)(args)``: a call of each defined function whose address the program takes (and
        whose parameter count fits), chosen by comparing ``fp`` with it; any other target is an
        unknown external function."""
        dm = self.dm
        rng = self.pb.range(node)
        ft = fp.type.target if isinstance(fp.type, PointerType) else fp.type
        if not isinstance(ft, FunctionType):
            raise Unsupported("a call of a non-function", rng)
        args_ast = node.args.exprs if node.args is not None else []
        args = []
        for i, a in enumerate(args_ast):
            e = self.rvalue(self.expr(a))
            if isinstance(e.type, FloatType):
                raise Unsupported("floating-point arithmetic", self.pb.range(a))
            if i < len(ft.params) and not ft.unprototyped and isinstance(ft.params[i], IntType | PointerType):
                e = self.convert(e, ft.params[i])
            elif isinstance(e.type, IntType):
                e = self.promote(e)
            args.append(e)
        if isinstance(fp, Var):
            target: Expr = fp
        else:  # evaluated once, before the comparisons
            target = self.new_temp(fp.type, rng)
            self.emit(AssignEdge, node, lhs=target, rhs=fp)
        ret = ft.ret
        lhs = None if isinstance(ret, VoidType) or not want else self.new_temp(ret, rng)
        join = self.new_node()
        for name in self.pb.address_taken_functions():
            fd_type = self.pb.func_types.get(name)
            if fd_type is None or (len(fd_type.params) != len(args) and not fd_type.variadic) \
                    or len(args) < len(fd_type.params):
                continue
            hit, miss = self.new_node(), self.new_node()
            here = self.here()
            cond = Binary("==", target, Cast(FuncRef(name, fd_type), target.type), dm.int)
            self.link(AssumeEdge(pred=here, succ=hit, range=rng, cond=cond, truth=True))
            self.link(AssumeEdge(pred=here, succ=miss, range=rng, cond=cond, truth=False))
            self.cur = hit
            call_args = tuple(self.convert(a, p) if isinstance(p, IntType | PointerType) and a.type != p else a
                              for a, p in zip(args, fd_type.params))
            if fd_type.variadic:
                call_args += (self.variadic_arguments(args[len(fd_type.params):], node),)
            call_lhs = lhs
            if lhs is not None and fd_type.ret != lhs.type:
                call_lhs = self.new_temp(fd_type.ret, rng) if not isinstance(fd_type.ret, VoidType) else None
            self.calls.add(name)
            self.emit(CallEdge, node, lhs=call_lhs, callee=name, args=call_args)
            if call_lhs is not None and call_lhs is not lhs and lhs is not None:
                self.emit(AssignEdge, node, lhs=lhs, rhs=self.convert(call_lhs, lhs.type))
            self.goto(join)
            self.cur = miss
        # A function without a body whose address is taken (``fgets`` passed as a reader) is
        # called as the external function it is, on the branch where the pointer holds its
        # address: a path on which the pointer holds a defined function's never meets it.
        for name in self.pb.address_taken_functions(defined=False):
            if name in self.pb.func_defs:
                continue
            fd_type = self.pb.func_types.get(name)
            hit, miss = self.new_node(), self.new_node()
            here = self.here()
            ref_type = fd_type if fd_type is not None else ft
            cond = Binary("==", target, Cast(FuncRef(name, ref_type), target.type), dm.int)
            self.link(AssumeEdge(pred=here, succ=hit, range=rng, cond=cond, truth=True))
            self.link(AssumeEdge(pred=here, succ=miss, range=rng, cond=cond, truth=False))
            self.cur = hit
            self.emit(ExternalCallEdge, node, lhs=lhs, callee=name, args=tuple(args), writes_globals=True)
            self.goto(join)
            self.cur = miss
        # Any other target is not a function at all, and the call would crash.
        self.emit(AbortEdge, node, label="call through an invalid function pointer", undefined=True)
        self.cur = None
        self.cur = join
        return lhs if lhs is not None else Const(0, dm.int)

    def variadic_arguments(self, extras: list[Expr], node: c_ast.FuncCall) -> Expr:
        """A call's extra arguments (promoted already) for a variadic function the program
        defines: stored in a new object of this frame, a slot each of its size rounded up to a
        word (i386: 4 bytes, x86-64: 8), as a stack holds them; the value is the address the callee
        gets as its hidden parameter (builder.bind_params), and va_arg reads the slots through
        it (__cbam_prelude.h). So a va_arg of the type passed reads exactly what was stored, and
        one past the last argument reads outside the object: an invalid dereference. With no
        extra arguments the address is NULL."""
        dm = self.dm
        rng = self.pb.range(node)
        char_p = dm.pointer(dm.char)
        if not extras:
            return Cast(Const(0, dm.int), char_p)
        word = dm.sizeof(char_p) or 4
        slots: list[tuple[int, Expr]] = []
        size = 0
        for e in extras:
            if isinstance(e.type, FunctionType):
                e = Cast(e, dm.pointer(e.type))
            nbytes = dm.sizeof(e.type, self.pb.structs)
            if not isinstance(e.type, IntType | PointerType | StructType) or nbytes is None:
                raise Unsupported("an argument of this type passed as a variadic argument", rng)
            slots.append((size, e))
            size += -(-nbytes // word) * word
        self.temps += 1
        area = self.pb.new_var(f"{self.name}::__va_args{self.temps}", ArrayType(dm.char, size), self.name,
                               range=rng, addressed=True)
        self.scope.objects.append(area)
        self.emit(DeclEdge, node, var=area, init=None)
        for off, e in slots:
            at = AddrOf(Index(area, Const(off, dm.ptrdiff_t), dm.char), char_p)
            self.emit(AssignEdge, node, lhs=Deref(Cast(at, dm.pointer(e.type)), e.type), rhs=e)
        return AddrOf(Index(area, Const(0, dm.ptrdiff_t), dm.char), char_p)

    def nondet_type(self, name: str, rng: Range | None, into: CType | None = None) -> CType:
        """The type of ``name()``'s arbitrary value. A floating-point one is supported only when it
        goes straight into an integer variable every one of whose values it can take exactly
        (``int x = __VERIFIER_nondet_double();``): then it is that integer type's arbitrary value
        (out of range, the conversion is undefined, which cbam reads as arbitrary)."""
        ft = self.pb.func_types.get(name)
        if ft is not None and not isinstance(ft.ret, FloatType):
            return ft.ret
        dm = self.dm
        suffix = name[len(NONDET_PREFIX):]
        if suffix in MANTISSA_BITS or ft is not None:  # a floating type (whose declaration cbam does not model)
            if isinstance(into, IntType) and into.bits <= MANTISSA_BITS.get(suffix, 0):
                return into
            raise Unsupported("floating-point nondeterministic values", rng)
        table: dict[str, CType] = {
            "int": dm.int, "uint": dm.uint, "unsigned": dm.uint, "unsigned_int": dm.uint,
            "char": dm.char, "uchar": dm.uchar, "unsigned_char": dm.uchar, "short": dm.short,
            "ushort": dm.ushort, "unsigned_short": dm.ushort, "long": dm.long, "ulong": dm.ulong,
            "unsigned_long": dm.ulong, "longlong": dm.llong, "long_long": dm.llong, "ulonglong": dm.ullong,
            "unsigned_long_long": dm.ullong, "bool": dm.bool, "_Bool": dm.bool, "size_t": dm.size_t,
            "u8": dm.uchar, "u16": dm.ushort, "u32": dm.uint, "u64": dm.ullong, "s8": dm.schar,
            "s16": dm.short, "s32": dm.int, "s64": dm.llong, "pointer": dm.pointer(dm.void),
            "pchar": dm.pointer(dm.char), "loff_t": dm.llong, "int128": dm.int128, "uint128": dm.uint128,
        }
        return table.get(suffix, dm.int)

    def error_edge(self, info: ErrorInfo, node: c_ast.Node) -> None:
        err = self.new_node()
        err.error = info
        src = self.here()
        self.link(BlankEdge(pred=src, succ=err, range=info.range, label="error"))
        self.cur = None
