"""Graphviz output of CFAs, for people."""

from __future__ import annotations

from .cfa import FunctionCallEdge, FunctionCFA, Program
from .ir import AssumeEdge, CallEdge, ExternalCallEdge, ReturnEdge


def _q(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def function_dot(cfa: FunctionCFA, cluster: bool = False) -> list[str]:
    out = []
    prefix = f"{cfa.name}_"
    if cluster:
        out.append(f"  subgraph {_q('cluster_' + cfa.name)} {{")
        out.append(f"    label={_q(cfa.name)};")
    for n in cfa.nodes:
        attrs = [f"label={_q(str(n.id))}"]
        if n is cfa.entry:
            attrs.append("shape=doublecircle")
        elif n.error is not None:
            attrs += ["shape=octagon", "color=red", f"xlabel={_q(n.error.message)}"]
        elif n.loop_head:
            attrs.append("shape=box")
        else:
            attrs.append("shape=circle")
        out.append(f"    {_q(prefix + str(n.id))} [{', '.join(attrs)}];")
    for n in cfa.nodes:
        for e in n.out:
            label = e.describe()
            style = ""
            if isinstance(e, AssumeEdge):
                style = ', color="darkgreen"' if e.truth else ', color="darkred"'
            elif isinstance(e, CallEdge | ExternalCallEdge):
                style = ", style=bold"
            elif isinstance(e, ReturnEdge):
                style = ", style=dashed"
            out.append(f"    {_q(prefix + str(n.id))} -> {_q(prefix + str(e.succ.id))} [label={_q(label)}{style}];")
    if cluster:
        out.append("  }")
    return out


def program_dot(program: Program, function: str | None = None) -> str:
    lines = ["digraph cfa {", "  node [fontname=\"monospace\"];", "  edge [fontname=\"monospace\"];"]
    funcs = [program.functions[function]] if function else list(program.functions.values())
    for f in funcs:
        lines += function_dot(f, cluster=function is None)
    if function is None:
        for e in program.interprocedural_edges():
            if e.pred.function not in program.functions:
                continue
            kind = "call" if isinstance(e, FunctionCallEdge) else "return"
            lines.append(f"  {_q(f'{e.pred.function}_{e.pred.id}')} -> {_q(f'{e.succ.function}_{e.succ.id}')} "
                         f"[label={_q(kind)}, style=dotted, color=\"blue\"];")
    lines.append("}")
    return "\n".join(lines) + "\n"


def function_text(cfa: FunctionCFA) -> str:
    """A stable, readable listing of one CFA (used by golden tests)."""
    from .fingerprint import canonical_order

    order = canonical_order(cfa)
    idx = {id(n): i for i, n in enumerate(order)}
    lines = [f"function {cfa.name}"]
    if cfa.unsupported:
        lines.append(f"  unsupported: {cfa.unsupported[0]}")
    for n in order:
        tag = " (entry)" if n is cfa.entry else " (exit)" if n is cfa.exit else ""
        if n.loop_head:
            tag += " (loop)"
        if n.error is not None:
            tag += f" (error: {n.error.message})"
        if tag or n.out:
            lines.append(f"  {idx[id(n)]}{tag}")
        for e in n.out:
            lines.append(f"    -> {idx[id(e.succ)]}  {type(e).__name__[:-4]:9} {e.describe()}")
    return "\n".join(lines) + "\n"
