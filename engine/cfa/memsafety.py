"""The memory-safety property (SV-COMP's valid-memsafety: valid-deref, valid-free and
valid-memtrack) as
targets in the CFA, so that every analysis, BAM and CEGAR check it as they check assertions.

Before an edge that reads or writes memory through a pointer or an array index, each such
access gets a check ``assume(!valid(&lvalue, sizeof lvalue))`` leading to an error location
of kind ``valid-deref`` (``free(p)``: ``freeable(p)``, kind ``valid-free``); when the program
ends, ``tracked()`` (kind ``valid-memtrack``): no allocated object is left that is neither freed
nor reachable from a global. Accesses to a
variable by name, and to an array variable at a constant index within its bounds, are valid
by construction and get no check. The assertions of unreach-call are not checked then: a
failing assert ends the path as abort() would.
"""

from __future__ import annotations

from .cfa import FunctionCFA, Program
from .ctype import ArrayType, CType, IntType
from .ir import (
    AbortEdge,
    AddrOf,
    AssignEdge,
    AssumeEdge,
    BlankEdge,
    CallEdge,
    Const,
    DeclEdge,
    Deref,
    Edge,
    ErrorInfo,
    Expr,
    ExternalCallEdge,
    FitsEdge,
    Index,
    Member,
    ReturnEdge,
    Valid,
    Var,
)
from .layout import Layout
from .output_calls import string_reads
from .rewrite import link, move_start, new_node

KINDS = ("valid-deref", "valid-free", "valid-memtrack")
_COPIES = {"memset": (0, None, 2), "memcpy": (0, 1, 2), "memmove": (0, 1, 2), "__builtin_memset": (0, None, 2),
           "__builtin_memcpy": (0, 1, 2)}


def instrument(program: Program) -> None:
    """Add the memory-safety checks to every function of ``program`` (in place) and turn the
    unreach-call targets into ends of paths."""
    layout = Layout(program.data_model, program.structs)
    for f in program.all_functions():
        for n in f.nodes:
            if n.error is not None and n.error.kind not in KINDS:
                n.error = None
        _through_oversized_arrays(f)
        for e in [e for n in list(f.nodes) for e in n.out]:
            checks = _checks(e, layout, program)
            if checks:
                _guard(f, e, checks)
    # When the program ends (main returned, its locals gone; or abort/exit, the active calls'
    # locals still there), every allocated object must be freed or still reachable.
    size_t = program.data_model.size_t
    track = Valid(Const(0, size_t), Const(0, size_t), "memtrack", program.data_model.int)
    message = "memory allocated on this path is neither freed nor reachable when the program ends"
    for e in [e for n in list(program.start.nodes) for e in n.out if isinstance(e, ReturnEdge)]:
        _guard(program.start, e, [(track, message)])
    for f in program.all_functions():
        for e in [e for n in list(f.nodes) for e in n.out if isinstance(e, AbortEdge)]:
            _guard(f, e, [(track, message)])


def _through_oversized_arrays(f: FunctionCFA) -> None:
    """A run goes on past a variable-length array too large for any object (FitsEdge), as
    the code gcc emits does, with a size modulo SIZE_MAX + 1: under unreach-call it stops there,
    as no such run can call the error function, but the stack overflow it meets is a memory
    error, which this property must not assume away. (No access to such an object is checked
    valid: the exact check gives up on objects this large, so no TRUE rests on it.)"""
    for n in list(f.nodes):
        fits = [e for e in n.out if isinstance(e, FitsEdge)]
        go_on = [e.succ for e in fits if e.truth]
        for e in fits:
            if not e.truth and go_on:
                link(BlankEdge(pred=e.succ, succ=go_on[0], range=e.range, text=e.text))


def _checks(e: Edge, layout: Layout, program: Program) -> list[tuple[Valid, str]]:
    int_t = program.data_model.int
    size_t = program.data_model.size_t
    accessed: list[Expr] = []

    def collect(x: Expr | None, access: bool) -> None:
        if x is None:
            return
        if isinstance(x, Deref):
            if access:
                accessed.append(x)
            collect(x.ptr, True)
        elif isinstance(x, Member):
            if access and _through_memory(x):
                accessed.append(x)
            collect(x.base, False)
        elif isinstance(x, Index):
            if access and not _static_in_bounds(x):
                accessed.append(x)
            collect(x.base, False)
            collect(x.index, True)
        elif isinstance(x, AddrOf):
            collect(x.arg, False)
        elif isinstance(x, Var):
            return
        else:
            for c in x.children():
                collect(c, True)

    if isinstance(e, AssignEdge):
        collect(e.lhs, True)
        collect(e.rhs, True)
    elif isinstance(e, AssumeEdge):
        collect(e.cond, True)
    elif isinstance(e, DeclEdge):
        collect(e.init, True)
        for n in e.lengths:
            collect(n, True)
    elif isinstance(e, ReturnEdge):
        collect(e.value, True)
    elif isinstance(e, CallEdge | ExternalCallEdge):
        collect(e.lhs, True)
        for a in e.args:
            collect(a, True)
    # The place an assignment writes (a string literal may be read, not written).
    written = e.lhs if isinstance(e, AssignEdge | CallEdge | ExternalCallEdge) else None
    out: list[tuple[Valid, str]] = []
    seen: set[str] = set()
    for lv in accessed:
        size = layout.sizeof(lv.type)
        if size is None or isinstance(lv.type, ArrayType):
            continue
        write = lv is written
        v = Valid(AddrOf(lv, program.data_model.pointer(lv.type)), Const(size, size_t), "write" if write else "deref",
                  int_t)
        if v.canon() not in seen:
            seen.add(v.canon())
            out.append((v, f"write to `{lv}` may be invalid (NULL, out of bounds, freed, out of its scope, or a string "
                           "literal)" if write else
                        f"dereference of `{lv}` may be invalid (NULL, out of bounds, freed, or out of its scope)"))
    if isinstance(e, ExternalCallEdge):
        name = e.callee
        if name in ("free", "realloc") and e.args:
            # realloc(p, n) frees p as free(p) does: NULL, or the start of a live heap object.
            out.append((Valid(e.args[0], Const(0, size_t), "free", int_t),
                        f"{name}({e.args[0]}{', ...' if name == 'realloc' else ''}) may free memory that is not a "
                        "live heap object"))
        elif name in _COPIES and len(e.args) > 2:
            dst, src, count = _COPIES[name]
            for k in (dst, src):
                if k is not None:
                    out.append((Valid(e.args[k], e.args[count], "write" if k == dst else "deref", int_t),
                                f"{name} may access memory out of bounds of `{e.args[k]}`"))
        elif name == "strlen" and e.args:
            out.append((Valid(e.args[0], Const(0, size_t), "string", int_t),
                        f"strlen may read past the end of `{e.args[0]}` (no terminating NUL in bounds)"))
        elif name == "strcpy" and len(e.args) >= 2:
            out.append((Valid(e.args[1], Const(0, size_t), "string", int_t),
                        f"strcpy may read past the end of `{e.args[1]}` (no terminating NUL in bounds)"))
            out.append((Valid(e.args[0], e.args[1], "strcpy", int_t),
                        f"strcpy may write past the end of `{e.args[0]}`"))
        elif name in ("strcmp", "strchr") and len(e.args) >= 2:
            # Exactly the bytes they read: strcmp stops at the first difference, strchr at the
            # character, both at a NUL (a string without its NUL may still be read safely).
            out.append((Valid(e.args[0], e.args[1], name, int_t),
                        f"{name} may read past the end of `{e.args[0]}`"
                        + (f" or of `{e.args[1]}`" if name == "strcmp" else "")))
        elif name == "memcmp" and len(e.args) >= 3:
            for k in (0, 1):
                out.append((Valid(e.args[k], e.args[2], "deref", int_t),
                            f"memcmp may read out of bounds of `{e.args[k]}`"))
        elif (printed := string_reads(name, e.args)) is not None:
            # printf and the like read each string they print up to its NUL, and nothing else
            # (cfa/output_calls.py); a FILE * is the library's own.
            for a in printed:
                out.append((Valid(a, Const(0, size_t), "string", int_t),
                            f"{name} may read past the end of `{a}` (no terminating NUL in bounds)"))
        elif name not in ("malloc", "calloc", "alloca", "__builtin_alloca", "realloc") and any(
                not isinstance(a.type, IntType) for a in e.args):
            # What it reads or writes through its pointers is not modelled: never assumed safe.
            for a in e.args:
                if not isinstance(a.type, IntType):
                    out.append((Valid(a, Const(0, size_t), "opaque", int_t),
                                f"{name} may access memory through `{a}` out of bounds (cbam does not model it)"))
    return out


def _through_memory(x: Expr) -> bool:
    while isinstance(x, Member | Index):
        if isinstance(x, Index) and not _static_in_bounds(x):
            return True
        x = x.base
    return isinstance(x, Deref)


def _static_in_bounds(x: Index) -> bool:
    t: CType = x.base.type
    if not isinstance(x.index, Const) or not isinstance(t, ArrayType) or t.size is None:
        return False
    return 0 <= x.index.value < t.size and not _through_memory(x.base)


def _guard(f: FunctionCFA, e: Edge, checks: list[tuple[Valid, str]]) -> None:
    """pred --[valid_1]--> ... --[valid_k]--> (new) --e--> succ, each check failing into an error."""
    cur = e.pred
    for v, message in checks:
        ok = new_node(f)
        bad = new_node(f)
        kind = {"free": "valid-free", "memtrack": "valid-memtrack"}.get(v.kind, "valid-deref")
        bad.error = ErrorInfo(kind, message, e.range, str(v))
        link(AssumeEdge(pred=cur, succ=ok, range=e.range, text=e.text, cond=v, truth=True))
        link(AssumeEdge(pred=cur, succ=bad, range=e.range, text=e.text, cond=v, truth=False))
        cur = ok
    move_start(e, cur)


__all__ = ["instrument", "KINDS"]
