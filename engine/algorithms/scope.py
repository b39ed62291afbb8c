"""Which programs the engines over Horn clauses can try: cheap facts read off the CFAs.

The portfolio (pipeline/portfolio.py) asks these before it loads an engine, so a program that no
such engine takes never imports them (a new process pays for every module it loads).
"""

from __future__ import annotations

from ..cfa.cfa import Program
from ..cfa.ctype import ArrayType
from ..cfa.ir import AbortEdge
from ..cfa.traits import has_error_location, recursive

# A program larger than this (CFA edges) goes to the other engines first: Spacer's time grows
# quickly with the number of relations, and BAM's summaries are what makes edits cheap there.
MAX_EDGES = 600


def applies(program: Program, need_loop: bool = True, max_edges: int | None = MAX_EDGES) -> str:
    """Why the encoding cannot prove this program ("" if it can try). ``need_loop``: a program
    without loops or recursion is left to the other engines; so is one with more than
    ``max_edges`` CFA edges."""
    if program.memsafety:
        return "memory-safety checks are not encoded"
    why = unsupported_reached(program)
    if why:
        return why
    edges = 0
    for f in program.all_functions():
        for n in f.nodes:
            for e in n.out:
                edges += 1
                if isinstance(e, AbortEdge) and e.undefined:
                    return "the program has undefined behaviour that ends a path"
    if max_edges is not None and edges > max_edges:
        return f"the program has over {max_edges} CFA edges"
    if not has_error_location(program):
        return "no error location"
    if need_loop and not any(n.loop_head for f in program.all_functions() for n in f.nodes) \
            and not recursive(program):
        # Without loops or recursion, value analysis and predicate abstraction settle it fast,
        # and BAM's summaries, per calling context, are what the editor shows and reuses.
        return "no loop or recursion"
    return ""


def unsupported_reached(program: Program) -> str:
    """Why a proof over the whole program cannot stand ("" if it can): a function the front end
    could not translate (floating point, inline assembly, ...) that the entry may call, directly
    or through a pointer. Its CFA is empty, which an encoding of the whole program would read
    as "never returns", so everything after a call of it would be proved unreachable. The
    engines that follow paths give up at such a call when they reach it; these cannot tell."""
    from ..cfa.callgraph import CallGraph

    cg = program.callgraph if isinstance(program.callgraph, CallGraph) else CallGraph.of(program)
    for name in sorted(cg.reachable(program.start.name)):
        f = program.functions.get(name) if name != program.start.name else program.start
        if f is not None and f.unsupported is not None:
            what, where = f.unsupported
            return f"{name} calls for an unsupported feature: {what}" + (f" at {where}" if where else "")
    return ""


def merges_paths(program: Program) -> str:
    """Why merged-path BMC (algorithms/bmc/merged.py) does not try the program ("" if it does). It
    unrolls loops and recursion; a program without either is left to path exploration, which
    follows its few paths exactly as fast."""
    if program.memsafety:
        return "memory-safety checks are left to path exploration"
    if not has_error_location(program):
        return "no error location"
    if not any(n.loop_head for f in program.all_functions() for n in f.nodes) and not recursive(program):
        return "no loop or recursion"
    return ""


# An array with more elements than this, or a variable length, is one that unrolling engines
# (merged-path BMC) enumerate element by element, and template invariants generalize over.
LARGE_ARRAY = 256


def large_arrays(program: Program) -> bool:
    """Whether the program has a local or global array, never addressed, with more
    than ``LARGE_ARRAY`` elements or a variable length: the arrays the template invariants try
    first (horn/templates.py), before merged-path BMC unrolls them."""
    for v in program.vars.values():
        t, n = v.type, 1
        if not isinstance(t, ArrayType) or v.addressed:
            continue
        while isinstance(t, ArrayType):
            if t.size is None:
                return True
            n *= t.size
            t = t.elem
        if n > LARGE_ARRAY:
            return True
    return False


def unwinds_recursion(program: Program) -> str:
    """Why BMC through the recursion (algorithms/bmc/recursion.py) does not try the program ("" if
    it does)."""
    if not recursive(program):
        return "no recursion (k-induction's BMC covers loops)"
    return applies(program, need_loop=False)
