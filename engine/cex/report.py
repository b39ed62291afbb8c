"""Turn a confirmed error path and the values it was confirmed with into a report people can follow."""

from __future__ import annotations

import re

from ..cfa.builder import START_FUNCTION
from ..cfa.cfa import Program
from ..cfa.ir import (
    AssignEdge,
    AssumeEdge,
    BlankEdge,
    CallEdge,
    DeclEdge,
    ExternalCallEdge,
    Nondet,
    ReturnEdge,
    display_name,
)
from ..core.path import ErrorPath
from ..core.result import InputReport, PathStepReport, Violation
from .feasibility import Feasibility

_ASSERT_CALL = re.compile(r"^\s*__VERIFIER_assert\s*\((.*)\)\s*;?\s*$", re.S)




def edge_ref(e) -> list:
    return [e.pred.function, e.pred.canon, e.pred.out.index(e)]


def build_violation(program: Program, path: ErrorPath, feas: Feasibility) -> Violation:
    assert feas.encoding is not None
    enc, val = feas.encoding, feas.value
    inputs_at = {inp.step: inp for inp in enc.inputs}
    steps: list[PathStepReport] = []
    call_stack: list[int] = []
    for i, st in enumerate(path.steps):
        e = st.edge
        fn = e.pred.function
        writes = {display_name(n): val(t, ty) for n, t, ty in enc.writes[i]}
        if st.kind == "call":
            assert isinstance(e, CallEdge)
            call_stack.append(i)
            if fn == START_FUNCTION:
                continue
            args = ", ".join(f"{display_name(n)} = {val(t, ty)}" for n, t, ty in enc.args.get(i, []))
            steps.append(PathStepReport("call", f"call {e.callee}({args})", e.range, fn, e.text,
                                        {display_name(n): val(t, ty) for n, t, ty in enc.args.get(i, [])}))
            continue
        if st.kind == "summary":
            assert isinstance(e, CallEdge) and st.summary is not None
            if fn == START_FUNCTION:
                continue
            args = ", ".join(f"{display_name(n)} = {val(t, ty)}" for n, t, ty in enc.args.get(i, []))
            steps.append(PathStepReport("call", f"call {e.callee}({args})", e.range, fn, e.text,
                                        {display_name(n): val(t, ty) for n, t, ty in enc.args.get(i, [])}))
            callee = program.functions[e.callee]
            ret = st.summary["outputs"].get(callee.result_var) if callee.result_var else None
            msg = f"{e.callee} returns {ret}" if ret is not None else f"{e.callee} returns"
            steps.append(PathStepReport("return", msg, e.range, fn, e.text, writes))
            continue
        if st.kind == "return":
            assert isinstance(e, CallEdge)
            call_stack.pop()
            if fn == START_FUNCTION:
                continue
            callee = program.functions[e.callee]
            ret = None
            if callee.result_var is not None:
                for _name, t, ty in enc.writes[i]:
                    ret = val(t, ty)
            msg = f"{e.callee} returns {ret}" if ret is not None else f"{e.callee} returns"
            steps.append(PathStepReport("return", msg, e.range, fn, e.text, writes))
            continue
        if fn == START_FUNCTION:
            inp = inputs_at.get(i)
            if inp is not None and inp.source.startswith("input "):
                steps.append(PathStepReport("input", f"{inp.source[6:]} = {inp.value} (input)", None, fn, "",
                                            {inp.source[6:]: inp.value or 0}))
            continue
        if isinstance(e, AssumeEdge):
            cond = e.text or str(e.cond)
            steps.append(PathStepReport("branch", f"branch `{cond}` {'taken' if e.truth else 'not taken'}",
                                        e.range, fn, cond))
        elif isinstance(e, DeclEdge | AssignEdge):
            rhs = e.init if isinstance(e, DeclEdge) else e.rhs
            if isinstance(e, DeclEdge):
                assert e.var is not None
                lhs_name = display_name(e.var.name)
            else:
                lhs_name = str(e.lhs)
            if i in inputs_at and isinstance(rhs, Nondet):
                inp = inputs_at[i]
                if lhs_name.startswith("__t"):
                    msg = f"{inp.source}() returns {inp.value}"
                else:
                    msg = f"{lhs_name} = {inp.value} (nondet)"
                steps.append(PathStepReport("input", msg, e.range, fn, e.text, {lhs_name: inp.value or 0}))
            elif writes and not lhs_name.startswith("__t"):
                shown = ", ".join(f"{k} = {v}" for k, v in writes.items())
                steps.append(PathStepReport("decl" if isinstance(e, DeclEdge) else "assign", shown, e.range, fn,
                                            e.text, writes))
        elif isinstance(e, ReturnEdge):
            if e.value is not None and writes:
                steps.append(PathStepReport("return", f"return {next(iter(writes.values()))}", e.range, fn, e.text,
                                            writes))
        elif isinstance(e, ExternalCallEdge):
            inp = inputs_at.get(i)
            msg = f"{e.callee}() returns {inp.value} (external function: any value)" if inp else f"{e.callee}()"
            steps.append(PathStepReport("extern", msg, e.range, fn, e.text, writes))
        elif isinstance(e, BlankEdge) and e.ends:
            names = ", ".join(display_name(v.name) for v in e.ends)
            steps.append(PathStepReport("scope", f"the lifetime of {names} ends (its block is left)", e.range, fn,
                                        e.text))
    _attach_refs(steps, path)
    # Where to report: an assertion wrapper defined in the file reports at its call.
    err = path.error
    message, rng, function = err.message, err.range, path.error_node.function
    ref: list = ["node", path.error_node.function, path.error_node.canon]
    if path.error_node.function == "__VERIFIER_assert":
        for i in range(len(path.steps) - 1, -1, -1):
            st = path.steps[i]
            if st.kind == "call" and isinstance(st.edge, CallEdge) and st.edge.callee == "__VERIFIER_assert":
                m = _ASSERT_CALL.match(st.edge.text or "")
                cond = m.group(1).strip() if m else ", ".join(str(a) for a in st.edge.args)
                message = f"assertion `{cond}` may fail"
                rng = st.edge.range
                function = st.edge.pred.function
                ref = ["edge", *edge_ref(st.edge)]
                break
    steps.append(PathStepReport("error", message, err.range, path.error_node.function, err.check_text,
                                ref=["node", path.error_node.function, path.error_node.canon]))
    inputs = [InputReport(inp.source, inp.value if inp.value is not None else 0, str(inp.type), inp.range)
              for inp in enc.inputs]
    if enc.inputs:
        message = f"{message} (for example when {describe_inputs(enc.inputs)})"
    notes = []
    if feas.overflow_steps:
        first = path.steps[feas.overflow_steps[0]].edge
        where = f" at {first.range}" if first.range else ""
        notes.append(f"this path relies on signed integer overflow{where}, which is undefined behaviour "
                     "(cbam follows gcc and wraps around)")
    return Violation(message, err.kind, rng, function, steps, inputs, notes, ref=ref)


def _attach_refs(steps: list[PathStepReport], path: ErrorPath) -> None:
    """Give each reported step the edge it came from, by position-free coordinates."""
    by_range: dict[int, list] = {}
    for st in path.steps:
        if st.edge.range is not None and st.edge.pred.canon >= 0:
            by_range.setdefault(id(st.edge.range), edge_ref(st.edge))
    for s in steps:
        if s.range is not None and s.ref is None:
            s.ref = by_range.get(id(s.range))


def describe_inputs(inputs, shown: int = 6) -> str:
    """The values that break the check, as a person would write them."""
    def one(inp) -> str:
        if inp.source.startswith("input *"):
            size = int(str(inp.type)[len("bytes["):-1])
            data = inp.value.to_bytes(size, "little")
            return f"{inp.source[6:]} = {{{', '.join(str(b) for b in data[:8])}{', ...' if size > 8 else ''}}}"
        if inp.source.startswith("input "):
            return f"{inp.source[6:]} = {inp.value}"
        if inp.source.startswith("extern "):
            return f"{inp.source[7:]}() returns {inp.value}"
        return f"{inp.source}() = {inp.value}"

    parts = [one(i) for i in inputs[:shown]]
    if len(inputs) > shown:
        parts.append(f"and {len(inputs) - shown} more inputs")
    return ", ".join(parts)
