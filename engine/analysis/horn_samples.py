"""Summaries and invariants guessed from runs of the program, kept where Houdini proves them.

Spacer generalizes from the clauses alone, over linear integer arithmetic. A recursive
function's summary may be nonlinear (``mult(n, m)``: ``\\result == n*m``), and a linear one
holds with machine integers only under a bound that Spacer has no reason to find (Addition03-1:
``\\result == m + n`` wherever ``m + n`` fits; ``m+1`` overflows otherwise, and the summary
without the bound is not inductive). With those summaries given, Spacer still gives up on the
nonlinear clauses (30 s on MultCommutative-2).

So, as DIG does for loops (kinduction/algebraic.py), the guess comes from states the program
reaches: it runs from its start on small random inputs (the CFA interpreted with C's
machine integers, replay.py's ``_Run``), and every cut point of the Horn clauses
(``horn.Encoder.cut``: entries, exits, loop heads, return sites) records its frame's values,
the entry copies ``x@old`` included. The equalities that hold in every state of a cut point
(up to degree 2 over few variables: ``algebraic._equalities``) are its candidates. At a
function's exit an equality that gives the result, ``\\result == e``, is also offered guarded,
``MIN <= e && e <= MAX ==> \\result == e`` (the result type's range): the form that survives an
argument's overflow on a path whose result would not fit anyway.

Houdini (horn_templates.solve, with its own bounds and orders beside these) keeps what every
clause preserves, over the integer clauses with exact products (``horn.ProductEncoder``:
machine integers wherever no signed operation overflows, an arbitrary value where one does).
Those clauses cover everything the machine program does, so an inductive invariant of them
that excludes every error clause is a proof, as kinduction's polynomial invariants are; the
samples only choose what to try.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

import z3

from ..cfa.cfa import CFANode, FunctionCFA, Program
from ..cfa.ctype import IntType
from ..cfa.ir import (
    AbortEdge,
    AssumeEdge,
    Binary,
    CallEdge,
    Cast,
    Const,
    DeclEdge,
    Expr,
    ExternalCallEdge,
    Nondet,
    Var,
)
from . import horn
from .horn import ERROR, HornOutcome, RelKey
from .horn_cells import edge_exprs
from .kinduction.algebraic import Equality, _equalities, atom
from .predicate.formula import old
from .replay import _UNSET, _Run, _Stop
from .value.memory import uses_memory

MAX_RUNS = 400
MAX_RUN_STEPS = 20_000  # CFA edges per run: a run that recurses deeper ends there, its states kept
RANDOM_RANGE = 16  # nondeterministic values are drawn from [-16, 16], within their type
MAX_VARIABLES = 8  # per cut point: the quadratic monomials of more outnumber the samples we take
MAX_ROWS = 120  # distinct states kept per cut point
SAMPLING_SHARE = 0.25  # of the time, for the runs
MAX_SIDES = 4  # constants per parameter whose sides get equalities of their own
MAX_TABLE = 64  # values of a pure function tabulated
BELOW = 4  # values under the table that must agree for it to say the function is constant there
MAX_TABLE_STEPS = 100_000  # CFA edges for one value (the smaller ones are tabulated by then)
NO_GUESS = "no equality holds in the sampled states"


def solve(program: Program, timeout_s: float, cancelled: Callable[[], bool] = lambda: False) -> HornOutcome:
    """A proof from sampled equalities kept by Houdini ("safe", with each function's summary in
    C), or why there is none."""
    t0 = time.monotonic()
    deadline = t0 + timeout_s
    if uses_memory(program):
        return HornOutcome("unknown", "the runs do not model memory")
    why = horn.applies(program, need_loop=False, max_edges=None)
    if why:
        return HornOutcome("unknown", why)
    enc = horn.Encoder(program, "lia", products=True)
    enc.inline_asserts = True
    try:
        clauses = enc.clauses(deadline)
    except (TypeError, KeyError) as exc:
        return HornOutcome("unknown", f"the program cannot be encoded as Horn clauses ({exc})")
    except horn.EncodingTimeout as exc:
        return HornOutcome("unknown", str(exc), timed_out=True)
    guessed, tables = guesses(program, enc, t0 + SAMPLING_SHARE * timeout_s, cancelled)
    if not any(guessed.values()):
        return HornOutcome("unknown", NO_GUESS, time.monotonic() - t0)
    from .horn_templates import TIMED_OUT
    from .horn_templates import solve as houdini

    # ``false`` too: a relation no run reached, and one without variables (reach_error's
    # entry), has no other candidate that says it is unreachable.
    got = houdini(program, enc, clauses, ERROR, deadline, cancelled,
                  extra=lambda k, names: [z3.BoolVal(False), *(f(names) for f in guessed.get(k, []))])
    seconds = time.monotonic() - t0
    if isinstance(got, str):
        return HornOutcome("unknown", got, seconds, timed_out=got == TIMED_OUT)
    summaries = {f.name: _summary(got[horn.key(f.exit)], f, enc.frame(f), program, tables.get(f.name))
                 for f in program.functions.values() if horn.key(f.exit) in got}
    return HornOutcome("safe", "", seconds, summaries)


def _summary(got: horn.Interpretation, fn: FunctionCFA, frame: list[str], program: Program,
             table: Table | None) -> str:
    """A function's summary in C; a table it keeps, as its values (a nested conditional of 47
    cases says less to a reader)."""
    f, holes = got
    if table is None:
        return horn.summary_text(got, frame, program)
    names = dict(zip(frame, holes))
    fact = _lookup(names[old(fn.params[0])], names[str(fn.result_var)], *table)
    parts = f.children() if z3.is_and(f) else [f]
    rest = [x for x in parts if not x.eq(fact)]
    if len(rest) == len(parts):
        return horn.summary_text(got, frame, program)
    lo, values, below = table
    p = fn.params[0].split("::")[-1]
    text = f"{lo} <= {p} && {p} <= {lo + len(values) - 1} ==> \\result == {{{', '.join(map(str, values))}}}[{p} - {lo}]"
    if below is not None:
        text += f" && ({p} < {lo} ==> \\result == {below})"
    other = horn.summary_text((z3.And(rest), holes), frame, program) if rest else "true"
    return text if other == "true" else f"{other} && {text}"


Guess = Callable[[dict[str, z3.ArithRef]], z3.BoolRef]  # a candidate over a frame's placeholders


def guesses(program: Program, enc: horn.Encoder, deadline: float,
            cancelled: Callable[[], bool] = lambda: False) -> tuple[dict[RelKey, list[Guess]], dict[str, Table]]:
    """Per cut point, the equalities that hold in every sampled state (and at an exit, each
    one that gives the result also guarded by the result's range, and those of each side of
    a parameter's comparison with a constant); and where a pure function is called, its
    table (``_tables``)."""
    # The tables first: the runs then take a tabulated call's result from them rather than
    # descending (fibonacci(16) from main is 3,000 calls).
    tables, memo = _tabulate(program, enc, deadline, cancelled)
    rows = sample(program, enc, deadline, cancelled, memo)
    out: dict[RelKey, list[Guess]] = {}
    exits = {horn.key(f.exit): f for f in program.all_functions()}
    for k, states in rows.items():
        fn = exits.get(k)
        result = fn.result_var if fn is not None else None
        vs = _variables(program, enc, k[0], states, result)
        if not vs:
            continue
        out[k] = _fitted(vs, states, program)
        if fn is not None and result is not None:
            out[k] += _by_sides(program, enc, fn, vs, states)
    for k, facts in _table_facts(program, enc, tables).items():
        out.setdefault(k, []).extend(facts)
    return out, tables


def _fitted(vs: list[str], states: list[dict[str, int]], program: Program,
            side: Guess | None = None) -> list[Guess]:
    """The equalities every state satisfies (each also guarded, ``_guarded``), under ``side``."""
    out: list[Guess] = []
    for eq in _equalities(vs, [{v: s[v] for v in vs} for s in states]):
        out.append(lambda names, eq=eq: atom(eq, names))
        for v in vs:
            guarded = None if v.endswith(old("")) else _guarded(eq, v, program)
            if guarded is not None:
                out.append(guarded)
    if side is None:
        return out
    return [lambda names, f=f: z3.Implies(side(names), f(names)) for f in out]


def _by_sides(program: Program, enc: horn.Encoder, fn: FunctionCFA, vs: list[str],
              states: list[dict[str, int]]) -> list[Guess]:
    """At a function's exit, the equalities of the calls on each side of a parameter's
    comparison with a constant (``m < 0``: ``\\result == -n*m``, else ``\\result == n*m``;
    Fibonacci's ``n < 1``: ``\\result == 0``), each under its side."""
    from .horn_templates import _associations

    met, _ = _associations(enc, fn)
    out: list[Guess] = []
    for p in fn.params:
        at_call = old(p)
        if at_call not in vs:
            continue
        for c in sorted(met.get(p, set()))[:MAX_SIDES]:
            for test, side in ((lambda x, c=c: x < c, lambda n, p=at_call, c=c: n[p] < c),
                               (lambda x, c=c: x == c, lambda n, p=at_call, c=c: n[p] == c),
                               (lambda x, c=c: x > c, lambda n, p=at_call, c=c: n[p] > c)):
                part = [s for s in states if test(s[at_call])]
                if part and len(part) < len(states):
                    out += _fitted(vs, part, program, side)
    return out


Table = tuple[int, list[int], int | None]  # lo, the values from lo up, the value below lo (if constant)
Memo = dict[str, dict[tuple[int, ...], int]]  # function -> its arguments -> its result


def _tabulate(program: Program, enc: horn.Encoder, deadline: float,
              cancelled: Callable[[], bool]) -> tuple[dict[str, Table], Memo]:
    """A pure function of one integer (``_pure``) on each value from just below the smallest
    constant it compares its parameter with up to the largest constant the program compares
    anything with (at most ``MAX_TABLE`` values), each result computed once (a tabulated call
    is not run again: ``fibonacci(46)`` is 46 calls): ``lo <= n <= hi ==> \\result == T(n)``
    at its exit, and at every cut point of a function that calls it, the same of the call's
    result (``lo <= a <= hi ==> t == T(a)`` for ``t = f(a)``). Bounded recursion such as
    Fibonacci's, whose values no polynomial gives and no bound keeps from overflowing."""
    from .horn_templates import _associations

    pure = _pure(program)
    if not pure:
        return {}, {}
    constants: set[int] = set()
    for f in program.all_functions():
        met, _ = _associations(enc, f)
        for cs in met.values():
            constants |= cs
    walker = _Walk(program, enc, random.Random(0), lambda *_: None)
    tables: dict[str, Table] = {}
    for name in sorted(pure):
        fn = program.functions[name]
        met, _ = _associations(enc, fn)
        own = met.get(fn.params[0], set())
        if not own:
            continue
        lo = min(own) - 1
        above = [c for c in constants if lo < c <= lo + MAX_TABLE]
        if not above:
            continue
        values: list[int] = []
        walker.memo[name] = {}
        for v in range(lo, max(above) + 1):
            if time.monotonic() > deadline or cancelled():
                break
            got = walker.call(fn, [v], MAX_TABLE_STEPS)
            if got is None:
                break
            walker.memo[name][(v,)] = got
            values.append(got)
        # Below the smallest constant, a function is often constant (``n < 1``: 0): the table
        # says so where a few values there agree.
        under = [walker.call(fn, [v], MAX_TABLE_STEPS) for v in range(lo - 1, lo - 1 - BELOW, -1)]
        below = under[0] if under[0] is not None and all(u == under[0] for u in under) else None
        if len(values) > 2:
            tables[name] = (lo, values, below)
    return tables, walker.memo


def _table_facts(program: Program, enc: horn.Encoder, tables: dict[str, Table]) -> dict[RelKey, list[Guess]]:
    out: dict[RelKey, list[Guess]] = {}
    for name, table in tables.items():
        fn = program.functions[name]
        p, r = old(fn.params[0]), fn.result_var
        if r is not None:
            out.setdefault(horn.key(fn.exit), []).append(
                lambda names, p=p, r=r, table=table: _lookup(names[p], names[r], *table))
    for f in program.all_functions():
        calls = [(e.callee, e.args[0], e.lhs.name) for e in f.edges()
                 if isinstance(e, CallEdge) and e.callee in tables and isinstance(e.lhs, Var) and len(e.args) == 1]
        if not calls:
            continue
        facts = [lambda names, a=a, t=t, table=tables[c]: _lookup(_term(a, names), names[t], *table)
                 for c, a, t in calls if _term(a, {v: z3.Int(v) for v in a.variables()}) is not None]
        for n in f.nodes:
            if enc.cut(f, n):
                out.setdefault(horn.key(n), []).extend(facts)
    return out


def _lookup(arg: z3.ArithRef, result: z3.ArithRef, lo: int, values: list[int], below: int | None) -> z3.BoolRef:
    """``lo <= arg < lo + len(values) ==> result == values[arg - lo]``, and ``arg < lo ==>
    result == below`` unless ``below`` is None."""
    table: z3.ArithRef = z3.IntVal(values[-1])
    for i in range(len(values) - 2, -1, -1):
        table = z3.If(arg == lo + i, values[i], table)
    inside = z3.Implies(z3.And(arg >= lo, arg <= lo + len(values) - 1), result == table)
    return inside if below is None else z3.And(inside, z3.Implies(arg < lo, result == below))


def _term(e: Expr, names: dict[str, z3.ArithRef]) -> z3.ArithRef | None:
    """A call's argument over the caller's frame: a variable, a constant, or either plus or
    minus a constant (what a recursive call passes); None otherwise."""
    while isinstance(e, Cast) and isinstance(e.type, IntType) and isinstance(e.arg.type, IntType) \
            and e.type.min <= e.arg.type.min and e.arg.type.max <= e.type.max:
        e = e.arg
    if isinstance(e, Var):
        return names.get(e.name)
    if isinstance(e, Const) and isinstance(e.value, int):
        return z3.IntVal(e.value)
    if isinstance(e, Binary) and e.op in ("+", "-") and isinstance(e.right, Const) and isinstance(e.right.value, int):
        x = _term(e.left, names)
        if x is None:
            return None
        return x + e.right.value if e.op == "+" else x - e.right.value
    return None


def _pure(program: Program) -> set[str]:
    """The functions of one integer parameter with an integer result that read and write no
    global, draw no input and call nothing but such functions: their result is a function of
    their argument, so a table of it holds wherever it is called."""
    def own_ok(f: FunctionCFA) -> bool:
        if len(f.params) != 1 or f.result_var is None or not isinstance(program.vars[f.params[0]].type, IntType) \
                or not isinstance(program.vars[f.result_var].type, IntType):
            return False
        for e in f.edges():
            if isinstance(e, ExternalCallEdge):
                return False
            for x in edge_exprs(e):
                for sub in (x.walk() if x is not None else ()):
                    if isinstance(sub, Nondet) or isinstance(sub, Var) and program.vars[sub.name].is_global:
                        return False
            if isinstance(e, DeclEdge) and e.init is not None and isinstance(e.init, Nondet):
                return False
        return True

    pure = {name for name, f in program.functions.items() if own_ok(f)}
    changed = True
    while changed:
        changed = False
        for name in list(pure):
            if any(c not in pure for c in program.functions[name].calls):
                pure.discard(name)
                changed = True
    return pure


def _guarded(eq: Equality, var: str, program: Program) -> Guess | None:
    """``eq`` as ``MIN <= e && e <= MAX ==> var == e`` where it reads ``var == e`` (the range
    of ``var``'s type): a result, or a call's result at its return site."""
    c = next((c for c, m in eq.terms if m == (var,)), 0)
    if abs(c) != 1 or any(var in m for _, m in eq.terms if m != (var,)):
        return None
    info = program.vars.get(var)
    t = info.type if info is not None else None
    if not isinstance(t, IntType):
        return None
    rest = tuple((-c * d, m) for d, m in eq.terms if m != (var,))

    def guess(names: dict[str, z3.ArithRef], t: IntType = t) -> z3.BoolRef:
        e = z3.Sum([d * _product([names[v] for v in m]) for d, m in rest]) if rest else z3.IntVal(0)
        return z3.Implies(z3.And(e >= t.min, e <= t.max), names[var] == e)

    return guess


def _product(xs: list[z3.ArithRef]) -> z3.ArithRef:
    out: z3.ArithRef = z3.IntVal(1)
    for x in xs:
        out = x if z3.is_int_value(out) and out.as_long() == 1 else out * x
    return out


def _variables(program: Program, enc: horn.Encoder, function: str, states: list[dict[str, int]],
               result: str | None) -> list[str]:
    """The integer variables every state of a cut point has a value for, at most
    ``MAX_VARIABLES``: the result first, then the entry copies (a summary's interface), then
    the others in the frame's order."""
    fn = program.functions.get(function) or program.start
    have = [v for v in enc.frame(fn) if all(v in s for s in states)]
    first = [v for v in have if v == result] + [v for v in have if v.endswith(old("")) and v != result]
    ordered = first + [v for v in have if v not in first]
    return ordered[:MAX_VARIABLES]


def sample(program: Program, enc: horn.Encoder, deadline: float,
           cancelled: Callable[[], bool] = lambda: False, memo: Memo | None = None) -> dict[RelKey, list[dict[str, int]]]:
    """Distinct states per cut point (frame variable -> its integer value), from runs on random
    inputs until ``deadline`` or ``MAX_RUNS`` (``memo``: results of pure functions that the runs
    take rather than call)."""
    rng = random.Random(0)
    seen: dict[RelKey, set[tuple]] = {}
    rows: dict[RelKey, list[dict[str, int]]] = {}

    def record(fn: FunctionCFA, node: CFANode, state: dict[str, int]) -> None:
        k = horn.key(node)
        mark = tuple(sorted(state.items()))
        got = seen.setdefault(k, set())
        if mark not in got and len(got) < MAX_ROWS:
            got.add(mark)
            rows.setdefault(k, []).append(state)

    for _ in range(MAX_RUNS):
        if time.monotonic() > deadline or cancelled():
            break
        walk = _Walk(program, enc, rng, record)
        walk.memo = memo or {}
        walk.walk(MAX_RUN_STEPS)
    return rows


class _Walk(_Run):
    """One run from the program's start: at each branch the edge whose condition holds, each
    nondeterministic value drawn at random; it ends at an error, an exit of the start, a
    stop (``assume``, ``abort``), or anything a run cannot go on from (an uninitialised read,
    an undefined operation, memory)."""

    def __init__(self, program: Program, enc: horn.Encoder, rng: random.Random,
                 record: Callable[[FunctionCFA, CFANode, dict[str, int]], None]):
        super().__init__(program, [])
        self.horn = enc
        self.rng = rng
        self.record = record
        self.olds: dict[int, dict[str, int]] = {0: {}}
        self.memo: dict[str, dict[tuple[int, ...], int]] = {}

    def input(self, source: str, t: IntType, step: int, rng: object = None) -> int:
        return self.rng.randint(max(t.min, -RANDOM_RANGE), min(t.max, RANDOM_RANGE))

    def write(self, name: str, t: IntType, value: int, frame: int, step: int) -> None:
        self.cur[self.inst(name, frame)] = t.wrap(value)

    def walk(self, max_steps: int) -> None:
        try:
            self._walk(max_steps)
        except (_Stop, RecursionError):
            pass

    def call(self, fn: FunctionCFA, args: list[int], max_steps: int) -> int | None:
        """``fn``'s result on ``args`` (None: the run did not return one, or overflowed on the
        way, where the program's value is undefined)."""
        self.cur, self.olds, self.overflow = {}, {}, []
        try:
            got = self._walk(max_steps, fn, args)
        except (_Stop, RecursionError):
            return None
        return None if self.overflow else got

    def _walk(self, max_steps: int, first: FunctionCFA | None = None, args: list[int] | None = None) -> int | None:
        program = self.program
        fn, node, frame, fresh = program.start, program.start.entry, 0, 0
        if first is not None:
            fn, node = first, first.entry
            self._enter(first, args or [], frame)
        stack: list[tuple[CallEdge, int, FunctionCFA]] = []
        for step in range(max_steps):
            if self.horn.cut(fn, node):
                self._record(fn, node, frame)
            if node.error is not None:
                return None
            if node is fn.exit:
                if not stack:
                    rv = fn.result_var
                    got = self.cur.get(self.inst(rv, frame), _UNSET) if rv is not None else _UNSET
                    return None if got is _UNSET else got
                e, caller, caller_fn = stack.pop()
                self._back(e, frame, caller)
                self.olds.pop(frame, None)
                fn, node, frame = caller_fn, e.succ, caller
                continue
            live = [e for e in node.out if not isinstance(e, AbortEdge)]
            if not live:
                return None
            if len(live) > 1:
                if not all(isinstance(e, AssumeEdge) and e.cond is not None for e in live):
                    return None
                taken = [e for e in live if (self.expr(e.cond, frame, step) != 0) == e.truth]  # type: ignore[union-attr, arg-type]
                if not taken:
                    return None
                edge = taken[0]
            else:
                edge = live[0]
            if isinstance(edge, CallEdge):
                callee = program.functions[edge.callee]
                values = [self.expr(a, frame, step) for a in edge.args]
                known = self.memo.get(callee.name, {}).get(tuple(values))
                if known is not None:  # a pure function's result, tabulated
                    if edge.lhs is not None:
                        self.assign(edge.lhs, known, frame, step)
                    node = edge.succ
                    continue
                fresh += 1
                self._enter(callee, values, fresh)
                stack.append((edge, frame, fn))
                fn, node, frame = callee, callee.entry, fresh
                continue
            self.op(edge, frame, step)
            node = edge.succ
        return None

    def _enter(self, callee: FunctionCFA, values: list[int], frame: int) -> None:
        for p, v in zip(callee.params, values):
            self.write(p, self._int(self.vars[p].type), v, frame, 0)
        olds = {old(p): self.cur[self.inst(p, frame)] for p in callee.params}
        for g in self.horn.globals:
            v = self.cur.get(g, _UNSET)
            if v is not _UNSET:
                olds[old(g)] = v
        self.olds[frame] = olds

    def _back(self, e: CallEdge, frame: int, caller: int) -> None:
        callee = self.program.functions[e.callee]
        if e.lhs is None or callee.result_var is None:
            return
        v = self.cur.get(self.inst(callee.result_var, frame), _UNSET)
        if v is _UNSET:
            raise _Stop  # fell off its end: a value no run can pick
        self.assign(e.lhs, v, caller, 0)

    def _record(self, fn: FunctionCFA, node: CFANode, frame: int) -> None:
        olds = self.olds.get(frame, {})
        state: dict[str, int] = {}
        for v in self.horn.frame(fn):
            x = olds.get(v, _UNSET) if v.endswith(old("")) else self.cur.get(self.inst(v, frame), _UNSET)
            if x is not _UNSET:
                state[v] = x
        self.record(fn, node, state)


__all__ = ["solve", "guesses", "sample"]
