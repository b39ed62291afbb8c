"""Side-effect-free expressions and CFA edge operations.

Expressions carry their C type; every implicit conversion is an explicit Cast, so an
analysis never has to re-derive C's conversion rules. ``canon()`` is the position-free
text the fingerprints hash; ``str()`` is C-like text for people.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..frontend.errors import Range
from .ctype import CType, IntType


class Expr:
    type: CType

    def canon(self) -> str:
        raise NotImplementedError

    def children(self) -> tuple[Expr, ...]:
        return ()

    def walk(self):
        yield self
        for c in self.children():
            yield from c.walk()

    def variables(self) -> set[str]:
        return {e.name for e in self.walk() if isinstance(e, Var)}

    def __reduce__(self):
        # Unpickled by its constructor: the __setstate__ that dataclasses gives a slotted class
        # looks its fields up on every call, three times the cost, and a new process unpickles
        # the expressions of every stored CFA it reuses (1,700 for the bench's 100 functions).
        return (type(self), tuple(getattr(self, name) for name in self.__match_args__))



@dataclass(frozen=True)
class ErrorInfo:
    """What makes a node a target: the kind of check and a message for people."""

    kind: str  # "reach_error" | "assert" | "verifier_assert" | "assert_fail"
    message: str
    range: Range | None
    check_text: str = ""


class CFANode:
    __slots__ = ("function", "id", "out", "inn", "loop_head", "error", "label", "_key", "canon")

    def __init__(self, function: str, id: int):
        self.function = function
        self.id = id
        self.out: list[Edge] = []
        self.inn: list[Edge] = []
        self.loop_head = False
        self.error: ErrorInfo | None = None
        self.label: str | None = None
        self._key = f"{function}:{id}"
        self.canon = -1  # index in the canonical order (set with the fingerprint; stable across layout edits)

    @property
    def key(self) -> str:
        return self._key

    def __repr__(self) -> str:
        return f"N{self._key}"

    def __lt__(self, other: CFANode) -> bool:
        return (self.function, self.id) < (other.function, other.id)


@dataclass(frozen=True, slots=True)
class Const(Expr):
    """An integer constant of its type."""

    value: int
    type: CType

    def canon(self) -> str:
        return f"{self.value}:{self.type.key()}"

    def __str__(self) -> str:
        if isinstance(self.type, IntType) and not self.type.signed and not self.type.is_bool:
            return f"{self.value}U"
        return str(self.value)


@dataclass(frozen=True, slots=True)
class Var(Expr):
    """A variable, by its program-wide unique name."""

    name: str  # unique program-wide: "g", "f::x", "f::x.1", "f::__t3"
    type: CType

    def canon(self) -> str:
        return f"${self.name}:{self.type.key()}"

    def __str__(self) -> str:
        return display_name(self.name)


@dataclass(frozen=True, slots=True)
class Unary(Expr):
    """-e, ~e or !e."""

    op: str  # "-", "~", "!"
    arg: Expr
    type: CType

    def canon(self) -> str:
        return f"({self.op} {self.arg.canon()}):{self.type.key()}"

    def children(self) -> tuple[Expr, ...]:
        return (self.arg,)

    def __str__(self) -> str:
        return f"{self.op}{_paren(self.arg)}"


@dataclass(frozen=True, slots=True)
class Binary(Expr):
    """e1 op e2, both operands already converted as C requires."""

    op: str  # + - * / % << >> & | ^ == != < > <= >=
    left: Expr
    right: Expr
    type: CType

    def canon(self) -> str:
        return f"({self.op} {self.left.canon()} {self.right.canon()}):{self.type.key()}"

    def children(self) -> tuple[Expr, ...]:
        return (self.left, self.right)

    def __str__(self) -> str:
        return f"{_paren(self.left)} {self.op} {_paren(self.right)}"


@dataclass(frozen=True, slots=True)
class Cast(Expr):
    """A conversion to another type, explicit or implicit."""

    arg: Expr
    type: CType

    def canon(self) -> str:
        return f"(cast {self.arg.canon()}):{self.type.key()}"

    def children(self) -> tuple[Expr, ...]:
        return (self.arg,)

    def __str__(self) -> str:
        # Implicit conversions were made explicit by the builder; show them only when they matter.
        return str(self.arg)


@dataclass(frozen=True, slots=True)
class Deref(Expr):
    """*e."""

    ptr: Expr
    type: CType

    def canon(self) -> str:
        return f"(* {self.ptr.canon()}):{self.type.key()}"

    def children(self) -> tuple[Expr, ...]:
        return (self.ptr,)

    def __str__(self) -> str:
        return f"*{_paren(self.ptr)}"


@dataclass(frozen=True, slots=True)
class AddrOf(Expr):
    """&e."""

    arg: Expr
    type: CType

    def canon(self) -> str:
        return f"(& {self.arg.canon()}):{self.type.key()}"

    def children(self) -> tuple[Expr, ...]:
        return (self.arg,)

    def __str__(self) -> str:
        return f"&{_paren(self.arg)}"


@dataclass(frozen=True, slots=True)
class Member(Expr):
    """e.field (or e->field, as (*e).field)."""

    base: Expr  # an lvalue of struct/union type (p->f is Member(Deref(p), f))
    field: str
    type: CType

    def canon(self) -> str:
        return f"(. {self.base.canon()} {self.field}):{self.type.key()}"

    def children(self) -> tuple[Expr, ...]:
        return (self.base,)

    def __str__(self) -> str:
        if isinstance(self.base, Deref):
            return f"{_paren(self.base.ptr)}->{self.field}"
        return f"{_paren(self.base)}.{self.field}"


@dataclass(frozen=True, slots=True)
class Index(Expr):
    """e[i]."""

    base: Expr  # an lvalue of array type
    index: Expr
    type: CType

    def canon(self) -> str:
        return f"([] {self.base.canon()} {self.index.canon()}):{self.type.key()}"

    def children(self) -> tuple[Expr, ...]:
        return (self.base, self.index)

    def __str__(self) -> str:
        return f"{_paren(self.base)}[{self.index}]"


@dataclass(frozen=True, slots=True)
class StrLit(Expr):
    """A string literal."""

    text: str
    type: CType

    def canon(self) -> str:
        return f"(str {self.text})"

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True, slots=True)
class FuncRef(Expr):
    """A function's name used as a value (its address)."""

    name: str
    type: CType

    def canon(self) -> str:
        return f"(fn {self.name})"

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True, slots=True)
class Nondet(Expr):
    """An arbitrary value of ``type``: the result of ``__VERIFIER_nondet_*()`` or an input."""

    type: CType
    source: str = "nondet"  # the function name, for reports and harnesses

    def canon(self) -> str:
        return f"(nondet {self.source}):{self.type.key()}"

    def __str__(self) -> str:
        return f"{self.source}()"


@dataclass(frozen=True, slots=True)
class Valid(Expr):
    """1 if ``size`` bytes at ``ptr`` lie in one live object (``kind`` "deref"; "write": one that is
    not a string literal, which C does not let a program change), or if ``ptr`` may
    be passed to free (``kind`` "free": NULL or the start of a live heap object), or if every
    allocated object is freed or reachable from a global (``kind`` "memtrack"); else 0. The
    string functions' reads: ``kind`` "string", a NUL between ``ptr`` and the end of its object;
    "strcmp", the bytes of ``ptr`` and of ``size`` (the other string) up to the first that differs
    or is NUL; "strchr", the bytes of ``ptr`` up to the first that is ``size`` (a char) or NUL.
    Only the memory-safety check (cfa/memsafety.py) puts it into a CFA."""

    ptr: Expr
    size: Expr
    kind: str
    type: CType

    def canon(self) -> str:
        return f"(valid-{self.kind} {self.ptr.canon()} {self.size.canon()})"

    def children(self) -> tuple[Expr, ...]:
        return (self.ptr, self.size)

    def __str__(self) -> str:
        if self.kind == "memtrack":
            return "tracked()"
        if self.kind in ("deref", "write"):
            return f"valid({self.ptr}, {self.size})"
        if self.kind in ("strcmp", "strchr"):
            return f"valid_{self.kind}({self.ptr}, {self.size})"
        return f"freeable({self.ptr})"


def _paren(e: Expr) -> str:
    s = str(e)
    return f"({s})" if isinstance(e, Binary) else s


def display_name(name: str) -> str:
    """``f::x.1`` -> ``x``: what the user wrote."""
    base = name.split("::", 1)[1] if "::" in name else name
    if base.startswith("__cbam_static."):
        base = base[len("__cbam_static."):]
    return base.split(".", 1)[0] if not base.startswith(".") else base


def is_lvalue(e: Expr) -> bool:
    return isinstance(e, Var | Deref | Member | Index)


def lvalue_root(e: Expr) -> Var | None:
    """The variable whose storage an lvalue lies in, if it is not reached through a pointer."""
    while True:
        if isinstance(e, Var):
            return e
        if isinstance(e, Member | Index):
            e = e.base
            continue
        return None


# ---------------------------------------------------------------------------
# Edge operations
# ---------------------------------------------------------------------------


@dataclass(eq=False)
class Edge:
    """An edge of a function's CFA. ``text`` is the user's source text, ``range`` where it is."""

    pred: CFANode = field(repr=False)
    succ: CFANode = field(repr=False)
    range: Range | None = field(default=None, repr=False)
    text: str = field(default="", repr=False)

    def canon(self) -> str:
        raise NotImplementedError

    def describe(self) -> str:
        return self.text or self.canon()


@dataclass(eq=False)
class BlankEdge(Edge):
    """An edge that does nothing (joins, gotos, labels); or, with ``ends``, where control leaves
    a block: the lifetimes of the block's variables that live in memory (aggregates, and
    variables whose address is taken) end, and a pointer to one of them dangles."""

    label: str = ""
    ends: tuple[Var, ...] = ()

    def canon(self) -> str:
        return f"end {', '.join(v.canon() for v in self.ends)}" if self.ends else "skip"

    def describe(self) -> str:
        return self.text or self.label


@dataclass(eq=False)
class DeclEdge(Edge):
    """A declaration, with its initialiser."""

    var: Var | None = None
    init: Expr | None = None  # None: uninitialised (an arbitrary value for locals); Const 0: zero-filled
    is_global: bool = False
    # A variable-length array's lengths (size_t), outermost first, evaluated when this runs: the
    # object holds their product of elements of the variable's (flat, one-dimensional) type.
    lengths: tuple[Expr, ...] = ()

    def canon(self) -> str:
        assert self.var is not None
        init = self.init.canon() if self.init is not None else "?"
        vla = "".join(f" [{n.canon()}]" for n in self.lengths)
        return f"decl{'G' if self.is_global else ''} {self.var.canon()}{vla} = {init}"

    def describe(self) -> str:
        assert self.var is not None
        if self.text:
            return self.text
        return f"{self.var.type} {self.var}" + (f" = {self.init}" if self.init is not None else "")


@dataclass(eq=False)
class AssignEdge(Edge):
    """lhs = rhs, side-effect free on both sides."""

    lhs: Expr | None = None
    rhs: Expr | None = None

    def canon(self) -> str:
        assert self.lhs is not None and self.rhs is not None
        return f"assign {self.lhs.canon()} := {self.rhs.canon()}"

    def describe(self) -> str:
        return self.text or f"{self.lhs} = {self.rhs}"


@dataclass(eq=False)
class AssumeEdge(Edge):
    """A branch: taken when cond is (or, with truth False, is not) nonzero."""

    cond: Expr | None = None
    truth: bool = True

    def canon(self) -> str:
        assert self.cond is not None
        return f"assume{'+' if self.truth else '-'} {self.cond.canon()}"

    def describe(self) -> str:
        c = self.text or str(self.cond)
        return f"[{c}]" if self.truth else f"[!({c})]"


@dataclass(eq=False)
class FitsEdge(AssumeEdge):
    """A branch on whether a variable-length array fits in the largest object the data model
    has (cfa/translate/vla.py): the run stops where it does not. Every analysis takes it as the
    branch it is; the memory-safety property reports the stop (cfa/memsafety.py)."""

    def canon(self) -> str:
        return "fits:" + super().canon()


@dataclass(eq=False)
class CallEdge(Edge):
    """Summary edge in the caller: from the call node to the return node of a defined function."""

    lhs: Expr | None = None
    callee: str = ""
    args: tuple[Expr, ...] = ()

    def canon(self) -> str:
        lhs = self.lhs.canon() if self.lhs is not None else "_"
        return f"call {lhs} := {self.callee}({', '.join(a.canon() for a in self.args)})"

    def describe(self) -> str:
        return self.text or f"{self.callee}({', '.join(str(a) for a in self.args)})"


@dataclass(eq=False)
class ExternalCallEdge(Edge):
    """A call of a function without a body: its result is arbitrary and it may write
    globals (unless it is a known libc function) and memory reachable from its pointer arguments."""

    lhs: Expr | None = None
    callee: str = ""
    args: tuple[Expr, ...] = ()
    writes_globals: bool = True

    def canon(self) -> str:
        lhs = self.lhs.canon() if self.lhs is not None else "_"
        g = "G" if self.writes_globals else ""
        return f"extcall{g} {lhs} := {self.callee}({', '.join(a.canon() for a in self.args)})"

    def describe(self) -> str:
        return self.text or f"{self.callee}(...)"


@dataclass(eq=False)
class ReturnEdge(Edge):
    """``return value;`` -- assigns the function's result variable and goes to the exit node."""

    value: Expr | None = None
    result_var: Var | None = None

    def canon(self) -> str:
        return f"return {self.value.canon() if self.value is not None else '_'}"

    def describe(self) -> str:
        return self.text or (f"return {self.value}" if self.value is not None else "return")


@dataclass(eq=False)
class AbortEdge(Edge):
    """abort() / exit(): the path ends here without an error. ``undefined``: the program's
    behaviour is undefined here (a call through a pointer that is no function), so a path
    through it ends, but no proof may rest on its ending."""

    label: str = "abort()"
    undefined: bool = False

    def canon(self) -> str:
        return "abort undefined" if self.undefined else "abort"

    def describe(self) -> str:
        return self.text or self.label

