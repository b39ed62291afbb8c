"""Traits of a program read off its CFAs, cheaply: whether it uses memory, which functions
recurse, whether it has an error location. The engines ask them to decide whether they apply,
the schedule (pipeline/portfolio.py) to decide which engines to run; reading one loads no
analysis.
"""

from __future__ import annotations

from .cfa import FunctionCFA, Program
from .ctype import ArrayType, IntType, StructType
from .ir import Binary, Cast, Const, Expr, Unary, Var


def has_error_location(program: Program) -> bool:
    return any(n.error is not None for f in program.all_functions() for n in f.nodes)


def recursive(program: Program) -> set[str]:
    """The functions on a cycle of calls."""
    from .callgraph import CallGraph

    cg = program.callgraph if isinstance(program.callgraph, CallGraph) else CallGraph.of(program)
    return cg.recursive_functions()


def memory_variables(program: Program) -> frozenset[str]:
    """The variables that live in memory: aggregates and those whose address is taken."""
    return frozenset(n for n, v in program.vars.items()
                     if v.addressed or isinstance(v.type, ArrayType | StructType))


def uses_memory(program: Program) -> bool:
    """Whether any value can be a pointer or live in memory (else the integer-only fast path)."""
    if any(not isinstance(v.type, IntType) for v in program.vars.values()):
        return True
    return any(f.derived(_function_uses_memory) for f in program.all_functions())


def _function_uses_memory(f: FunctionCFA) -> bool:
    from .ir import AssignEdge, AssumeEdge, CallEdge, DeclEdge, ExternalCallEdge, ReturnEdge

    plain = (Const, Var, Binary, Unary, Cast)
    for e in f.edges():
        exprs: list[Expr | None] = []
        if isinstance(e, AssignEdge):
            exprs = [e.lhs, e.rhs]
        elif isinstance(e, AssumeEdge):
            exprs = [e.cond]
        elif isinstance(e, DeclEdge):
            exprs = [e.init]
        elif isinstance(e, ReturnEdge):
            exprs = [e.value]
        elif isinstance(e, CallEdge | ExternalCallEdge):
            exprs = [e.lhs, *e.args]
            if isinstance(e, ExternalCallEdge) and e.callee in ALLOCATORS:
                return True
        for x in exprs:
            if x is not None and any(not isinstance(n, plain) and type(n).__name__ != "Nondet" for n in x.walk()):
                return True
    return False


def reads_input(program: Program) -> bool:
    """Whether one run of the program may differ from another: it reads a nondeterministic value
    or the result of an external function (printf's count included), calls one whose effect
    cbam does not model, or its entry function has parameters. (An uninitialised variable is
    not counted: the analyses read it as any value, and a program reads one rarely on purpose.)"""
    entry = program.functions.get(program.entry)
    if entry is None or entry.params:
        return True
    return any(f.derived(_function_reads_input) for f in program.all_functions())


# External functions whose effect and result the program's own state determines (cbam models
# them so): a call of any other reads the environment.
DETERMINED = frozenset({"strlen", "strcmp", "strncmp", "memcmp", "memset", "memcpy", "memmove", "strcpy", "strcat",
                        "strchr", "free", "abort", "exit", "__assert_fail"})


def _function_reads_input(f: FunctionCFA) -> bool:
    from .ir import AssignEdge, DeclEdge, ExternalCallEdge, Nondet
    from .output_calls import writes_nothing

    for e in f.edges():
        if isinstance(e, AssignEdge | DeclEdge):
            x = e.rhs if isinstance(e, AssignEdge) else e.init
            if x is not None and any(isinstance(n, Nondet) for n in x.walk()):
                return True
        elif isinstance(e, ExternalCallEdge):
            name = e.callee.removeprefix("__builtin_")
            if name in ALLOCATORS or name in DETERMINED:
                continue
            if writes_nothing(name, e.args) and e.lhs is None:
                continue  # printf and the like, their result unused
            return True
    return False


ALLOCATORS = {"malloc": "malloc", "calloc": "calloc", "realloc": "realloc", "alloca": "malloc",
              "__builtin_alloca": "malloc", "valloc": "malloc"}
