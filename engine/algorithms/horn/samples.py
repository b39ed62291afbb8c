"""Summaries and invariants guessed from runs of the program, kept where Houdini proves them.

Spacer generalizes from the clauses alone, over linear integer arithmetic. A recursive
function's summary may be nonlinear (``mult(n, m)``: ``\\result == n*m``), and a linear one
holds with machine integers only under a bound that Spacer has no reason to find (Addition03-1:
``\\result == m + n`` wherever ``m + n`` fits; ``m+1`` overflows otherwise, and the summary
without the bound is not inductive). With those summaries given, Spacer still gives up on the
nonlinear clauses (30 s on MultCommutative-2).

So, as DIG does for loops (kinduction/algebraic.py), the guess comes from states the program
reaches: it runs from its start on small random inputs (the CFA interpreted with C's
machine integers, replay.py's ``ConcreteRun``), and every cut point of the Horn clauses
(``horn.Encoder.cut``: entries, exits, loop heads, return sites) records its frame's values,
the entry copies ``x@old`` included. The equalities that hold in every state of a cut point
(up to degree 2 over few variables: ``equalities.equalities``) are its candidates. At a
function's exit an equality that gives the result, ``\\result == e``, is also offered guarded,
``MIN <= e && e <= MAX ==> \\result == e`` (the result type's range): the form that survives an
argument's overflow on a path whose result would not fit anyway. A function whose outcome
depends on one parameter is tabulated instead (``_tabulate``): its result and what it adds to
each global, value by value, each computed once; a pure function of several parameters, over its
last one per value of the others (``_curry``).

Houdini (horn/templates.prove, with its own bounds and orders beside these) keeps what every
clause preserves, over the integer clauses with exact products (``horn.ProductEncoder``:
machine integers wherever no signed operation overflows, an arbitrary value where one does).
Those clauses cover everything the machine program does, so an inductive invariant of them
that excludes every error clause is a proof, as kinduction's polynomial invariants are; the
samples only choose what to try.
"""

from __future__ import annotations

import itertools
import random
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import partial
from typing import TypeVar

import z3

from ...cfa.cfa import FunctionCFA, Program
from ...cfa.ctype import IntType
from ...cfa.ir import (
    AssignEdge,
    Binary,
    CallEdge,
    Cast,
    CFANode,
    Const,
    DeclEdge,
    Expr,
    ExternalCallEdge,
    Nondet,
    Var,
)
from ...cfa.traits import uses_memory
from ...cpa.predicate.formula import old
from ..equalities import Equality, atom, equalities
from ..runs import Call, Memo, Walk
from . import clauses as horn
from .cells import edge_exprs
from .clauses import ERROR, HornOutcome, RelKey
from .templates import TIMED_OUT, associations
from .templates import solve as houdini

MAX_RUNS = 400
MAX_RUN_STEPS = 20_000  # CFA edges per run: a run that recurses deeper ends there, its states kept
MAX_VARIABLES = 8  # per cut point: the quadratic monomials of more outnumber the samples we take
MAX_ROWS = 64  # distinct states kept per cut point: the quadratic monomials of 8 variables, and spare
SAMPLING_SHARE = 0.25  # of the time, for the runs
MAX_SIDES = 4  # constants per parameter whose sides get equalities of their own
MAX_TABLE = 64  # values of a pure function tabulated
BELOW = 4  # values under the table that must agree for it to say the function is constant there
BELOW_STEPS = 500  # for one value below it: a base case returns at once
MAX_TABLE_STEPS = 5_000  # CFA edges for one value (the smaller ones are in the table by then)
MAX_CURRIED = 8  # tables of a function of several parameters (combinations of all but the last)
NO_GUESS = "no equality holds in the sampled states"
T = TypeVar("T")


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
             tab: Tabled | Curried | None) -> str:
    """A function's summary in C; the tables it keeps, as their values (a nested conditional
    of 47 cases says less to a reader)."""
    f, holes = got
    if tab is None:
        return horn.summary_text(got, frame, program)
    names = dict(zip(frame, holes))
    mine = _exit_facts(fn, tab, names, program) if isinstance(tab, Tabled) else tab.exit_facts(fn, names)
    parts = f.children() if z3.is_and(f) else [f]
    # (a longer prefix of a table says what the shorter ones say: the last kept text per table)
    texts = list({group: text for fact, text, group in mine if any(x.eq(fact) for x in parts)}.values())
    rest = [x for x in parts if not any(x.eq(fact) for fact, _, _ in mine)]
    if not texts:
        return horn.summary_text(got, frame, program)
    other = horn.summary_text((z3.And(rest), holes), frame, program) if rest else "true"
    return " && ".join(([] if other == "true" else [other]) + texts)


def _exit_facts(fn: FunctionCFA, tab: Tabled, names: dict[str, z3.ArithRef],
                program: Program) -> list[tuple[z3.BoolRef, str, object]]:
    """A tabulated function's facts at its exit (over its frame's ``names``), each with its text:
    ``\\result`` by the key parameter's value at the call, and each written global's increase
    from its value at the call, where the sum fits the global's type."""
    p = names[old(fn.params[tab.key])]
    shown = fn.params[tab.key].split("::")[-1]
    out: list[tuple[z3.BoolRef, str, object]] = []
    if tab.result is not None and fn.result_var is not None:
        out.append((_lookup(p, names[fn.result_var], *tab.result), _table_text(shown, "\\result", tab.result), -1))
    for g, t in tab.effects.items():
        gt = program.vars[g].type
        assert isinstance(gt, IntType)
        out.append((_increase(p, names[g], names[old(g)], gt, t), _table_text(shown, f"{g} - \\old({g})", t), g))
    return out


def _table_text(p: str, what: str, table: Table) -> str:
    lo, values, below = table
    at = p if lo == 0 else f"{p} - {lo}" if lo > 0 else f"{p} + {-lo}"
    text = f"({lo} <= {p} && {p} <= {lo + len(values) - 1} ==> {what} == {{{', '.join(map(str, values))}}}[{at}])"
    return text if below is None else text + f" && ({p} < {lo} ==> {what} == {below})"


Guess = Callable[[dict[str, z3.ArithRef]], z3.BoolRef]  # a candidate over a frame's placeholders

Table = tuple[int, list[int], int | None]  # lo, the values from lo up, the value below lo (if constant)


@dataclass
class Tabled:
    """A function's results and effects by the value of one parameter (``key``, its index)."""

    key: int
    result: Table | None  # None: a void function
    effects: dict[str, Table]  # global -> how much a call adds to it


@dataclass
class Curried:
    """The results of a pure function of several parameters (Ackermann's ``ackermann(m, n)``), a
    table over its last one per value of the others: what bounded unwinding computes of it,
    CPArec's under-approximation, offered as summaries."""

    tables: dict[tuple[int, ...], Table]  # the other parameters' values -> the table over the last
    compared: dict[str, set[int]]  # parameter -> the constants it is compared with

    def parts(self) -> list[tuple[tuple[int, ...], Table]]:
        """Each table, also cut to its prefixes (``_prefixes``), so that Houdini keeps as much of
        it as what it calls supports, with the other parameters' values."""
        return [(fixed, (lo, values[:size], None)) for fixed, (lo, values, _) in self.tables.items()
                for size in _prefixes(len(values))]

    @staticmethod
    def fact(part: tuple[tuple[int, ...], Table], args: list[z3.ArithRef], result: z3.ArithRef) -> z3.BoolRef:
        """``result`` by the arguments of a call (or the parameters at a call), where ``part`` has them."""
        fixed, table = part
        return z3.Implies(z3.And([a == v for a, v in zip(args, fixed)]), _lookup(args[-1], result, *table))

    def exit_facts(self, fn: FunctionCFA, names: dict[str, z3.ArithRef]) -> list[tuple[z3.BoolRef, str, object]]:
        """The facts at ``fn``'s exit (over its frame's ``names``), each with its text and its table."""
        assert fn.result_var is not None
        args = [names[old(p)] for p in fn.params]
        shown = [p.split("::")[-1] for p in fn.params]
        out: list[tuple[z3.BoolRef, str, object]] = []
        for part in self.parts():
            fixed, table = part
            where = " && ".join(f"{n} == {v}" for n, v in zip(shown, fixed))
            text = "(" + where + " ==> " + _table_text(shown[-1], "\\result", table) + ")"
            out.append((self.fact(part, args, names[fn.result_var]), text, fixed))
        return out


def _prefixes(n: int) -> list[int]:
    """The lengths a table of ``n`` values is also offered at: a value whose calls fall outside
    what the tables hold (``ackermann(3, 4)`` calls ``ackermann(2, 61)``) costs only the
    prefixes that reach it."""
    return [k for k in (4, 8, 16, 32) if k < n] + [n]




def guesses(program: Program, enc: horn.Encoder, deadline: float, cancelled: Callable[[], bool] = lambda: False
            ) -> tuple[dict[RelKey, list[Guess]], dict[str, Tabled | Curried]]:
    """Per cut point, the equalities that hold in every sampled state (and at an exit, each
    one that gives the result also guarded by the result's range, and those of each side of
    a parameter's comparison with a constant), over the frame and what tabulated calls add to
    the globals (``_features``); and the tables' own facts (``_table_facts``)."""
    # The tables first: the runs then take a tabulated call's outcome from them rather than
    # descending (fibonacci(16) from main is 3,000 calls).
    met = _met(program, enc)
    tables, memo = _tabulate(program, enc, met, deadline, cancelled)
    # (the tables of several parameters get half of what is left: the runs need the rest)
    curried, more = _curry(program, enc, met, time.monotonic() + 0.5 * max(0.0, deadline - time.monotonic()), cancelled)
    everything: dict[str, Tabled | Curried] = {**tables, **curried}
    rows = sample(program, enc, deadline, cancelled, everything, {**memo, **more})
    out: dict[RelKey, list[Guess]] = {}
    exits = {horn.key(f.exit): f for f in program.all_functions()}
    functions = {f.name: f for f in program.all_functions()}
    for k, states in rows.items():
        fn = exits.get(k)
        result = fn.result_var if fn is not None else None
        features = _features(functions[k[0]], tables)
        states = [_with_features(s, features) for s in states]
        vs = _variables(program, enc, k[0], states, result, list(features))
        if not vs:
            continue
        out[k] = _fitted(vs, states, program, features=features)
        if fn is not None and result is not None:
            out[k] += _by_sides(program, met[fn.name], fn, vs, states)
    for k, facts in _table_facts(program, enc, tables, curried).items():
        out.setdefault(k, []).extend(facts)
    return out, everything


def _met(program: Program, enc: horn.Encoder) -> dict[str, dict[str, set[int]]]:
    """Per function, per variable, the constants it is compared with or assigned."""
    return {f.name: associations(enc, f)[0] for f in program.all_functions()}


# A tabulated call's increase of a global, as a variable of its caller's fitting: the call's
# key argument and that increase's table.
Feature = tuple[Expr, Table]


def _features(f: FunctionCFA, tables: dict[str, Tabled]) -> dict[str, Feature]:
    """Per call of ``f`` to a tabulated function, what it adds to each global: the equalities
    then relate a global after the calls to its value at the entry (applyHanoi's second return
    site: ``counter == \\old(counter) + 1 + 2*D(n-1)``), which no frame variable holds."""
    out: dict[str, Feature] = {}
    for i, e in enumerate(x for x in f.edges() if isinstance(x, CallEdge) and x.callee in tables):
        tab = tables[e.callee]
        for g, t in tab.effects.items():
            out[f"#{i}+{g}"] = (e.args[tab.key], t)
    return out


def _with_features(state: dict[str, int], features: dict[str, Feature]) -> dict[str, int]:
    if not features:
        return state
    out = dict(state)
    for name, (arg, table) in features.items():
        v = _evaluated(arg, state)
        got = _at(table, v) if v is not None else None
        if got is not None:
            out[name] = got
    return out


def _at(table: Table, v: int) -> int | None:
    lo, values, below = table
    if lo <= v < lo + len(values):
        return values[v - lo]
    return below if v < lo else None


def _evaluated(e: Expr, state: dict[str, int]) -> int | None:
    """``_term`` over a state's values."""
    return _term(e, state, int)


def _fitted(vs: list[str], states: list[dict[str, int]], program: Program, side: Guess | None = None,
            features: dict[str, Feature] | None = None) -> list[Guess]:
    """The equalities every state satisfies (each also guarded, ``_guarded``), under ``side``;
    one over a feature, where the feature's table has the call's argument."""
    out: list[Guess] = []
    for eq in equalities(vs, [{v: s[v] for v in vs} for s in states]):
        here: list[Guess] = [partial(atom, eq)]
        for v in vs:
            guarded = None if v.endswith(old("")) or v.startswith("#") else _guarded(eq, v, program)
            if guarded is not None:
                here.append(guarded)
        used = [x for x in eq.variables if x.startswith("#")]
        out += [_over(g, {x: features[x] for x in used}) for g in here] if used and features else here
    if side is None:
        return out
    return [partial(_implied, side, f) for f in out]


def _implied(side: Guess, guess: Guess, names: dict[str, z3.ArithRef]) -> z3.BoolRef:
    return z3.Implies(side(names), guess(names))


def _over(guess: Guess, features: dict[str, Feature]) -> Guess:
    """``guess`` with each feature read as its table at its argument, where the table has it."""
    def over(names: dict[str, z3.ArithRef]) -> z3.BoolRef:
        more = dict(names)
        inside = []
        for x, (arg, table) in features.items():
            a = _term(arg, names, z3.IntVal)
            if a is None:
                return z3.BoolVal(True)
            more[x], where = _table_term(a, table)
            inside.append(where)
        return z3.Implies(z3.And(inside), guess(more))

    return over


def _by_sides(program: Program, met: dict[str, set[int]], fn: FunctionCFA, vs: list[str],
              states: list[dict[str, int]]) -> list[Guess]:
    """At a function's exit, the equalities of the calls on each side of a parameter's
    comparison with a constant (``m < 0``: ``\\result == -n*m``, else ``\\result == n*m``;
    Fibonacci's ``n < 1``: ``\\result == 0``), each under its side."""
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


def _tabulate(program: Program, enc: horn.Encoder, met: dict[str, dict[str, set[int]]], deadline: float,
              cancelled: Callable[[], bool]) -> tuple[dict[str, Tabled], Memo]:
    """Each function whose result and effects on the globals are a function of one parameter
    (``_tabulable``: the one it compares with constants), on each value from the smallest one
    it returns for, just below the smallest constant it compares the parameter with, up to the
    largest constant the program compares anything with (at most ``MAX_TABLE`` values) or the
    first value that overflows. Each value is computed once: a call the table has is not run
    again (``fibonacci(46)`` is 46 calls, ``applyHanoi(31)`` 31 rather than 2^31), which
    assumes what the table is for: that nothing but the parameter matters. Houdini checks that
    as it checks everything else. Bounded recursion such as Fibonacci's or the towers of Hanoi's,
    whose values no polynomial gives and no bound keeps from overflowing but the values
    themselves."""
    keys = _tabulable(program, met)
    if not keys:
        return {}, {}
    constants = {c for by_var in met.values() for cs in by_var.values() for c in cs}
    walker = Walk(program, enc, random.Random(0), lambda *_: None)
    walker.memo_anywhere = True
    tables: dict[str, Tabled] = {}
    for name, (key, lowest, written) in sorted(keys.items()):
        fn = program.functions[name]
        lo = lowest - 1
        above = [c for c in constants if lo < c <= lo + MAX_TABLE]
        if not above:
            continue
        rows: list[tuple[int, Call]] = []
        walker.memo[name] = {}
        walker.keys[name] = (key,)
        for v in range(lo, max(above) + 1):
            if time.monotonic() > deadline or cancelled():
                break
            got = walker.call(fn, _args(fn, key, v), written, MAX_TABLE_STEPS)
            if got is None:
                if rows:
                    break
                continue  # (no value yet: the table starts higher)
            walker.memo[name][(v,)] = got
            rows.append((v, got))
        if len(rows) <= 2:
            continue
        first = rows[0][0]
        # Below the table, a function is often constant (``n < 1``: 0): the table says so
        # where a few values there agree.
        under = [walker.call(fn, _args(fn, key, v), written, BELOW_STEPS)
                 for v in range(first - 1, first - 1 - BELOW, -1)]
        below = under[0] if under[0] is not None and all(u == under[0] for u in under) else None

        tables[name] = Tabled(key, _column(rows, below, lambda r: r[0]) if fn.result_var is not None else None,
                              {g: t for g in written if (t := _column(rows, below, partial(_increase_of, g)))})
    return tables, {n: m for n, m in walker.memo.items() if n in tables}


def _args(fn: FunctionCFA, key: int, value: int) -> list[int]:
    """A call's arguments: ``value`` for the key parameter, 0 for the others."""
    args = [0] * len(fn.params)
    args[key] = value
    return args


def _curry(program: Program, enc: horn.Encoder, met: dict[str, dict[str, set[int]]], deadline: float,
           cancelled: Callable[[], bool]) -> tuple[dict[str, Curried], Memo]:
    """Each pure function of several parameters, all compared with constants (``_curriable``),
    computed on each value of its parameters from just below the smallest constant it compares
    each with, the last one up to the largest constant the program compares anything with (at
    most ``MAX_TABLE`` values) or the first value that does not return, the others over at most
    ``MAX_CURRIED`` combinations. Every call that returns on the way is kept (the calls a value
    makes are its table's smaller values, and other tables' values), and taken rather than made
    again: ``ackermann(2, 23)`` is ``ackermann(1, 47)`` once ``ackermann(2, 22)`` is known."""
    names = _curriable(program, met)
    if not names:
        return {}, {}
    top = max((c for by_var in met.values() for cs in by_var.values() for c in cs), default=0)
    walker = Walk(program, enc, random.Random(0), lambda *_: None)
    walker.memo_anywhere = True
    out: dict[str, Curried] = {}
    for name in names:
        fn = program.functions[name]
        mine = walker.memo.setdefault(name, {})
        walker.keys[name] = tuple(range(len(fn.params)))
        walker.recorded.add(name)
        lows = [min(met[name][p]) - 1 for p in fn.params]
        spans = [range(lo, max(lo, min(top, lo + MAX_TABLE - 1)) + 1) for lo in lows]
        empty = 0  # combinations in a row without a value, after one with
        valued = False  # some combination had a value
        for fixed in list(itertools.product(*spans[:-1]))[:MAX_CURRIED]:
            found = misses = 0
            for v in spans[-1]:
                if time.monotonic() > deadline or cancelled():
                    break
                if (*fixed, v) in mine:
                    found += 1
                    continue
                got = walker.call(fn, [*fixed, v], [], MAX_TABLE_STEPS)
                if got is None:
                    misses += 1
                    if found or misses >= BELOW:
                        break
                    continue
                mine[(*fixed, v)] = got
                found += 1
            empty = empty + 1 if not found and valued else 0
            valued = valued or found > 0
            if empty >= 2:
                break
        tables = {fixed: table for fixed in sorted({t[:-1] for t in mine})
                  if (table := _run_from(mine, fixed, lows[-1])) is not None}
        if tables:
            out[name] = Curried(dict(list(tables.items())[:MAX_CURRIED]), {p: met[name][p] for p in fn.params})
    return out, {n: walker.memo[n] for n in out}


def _run_from(memo: dict[tuple[int, ...], Call], fixed: tuple[int, ...], lo: int) -> Table | None:
    """The table over the last parameter with the others at ``fixed``: the values from the first
    one the memo has (at ``lo`` or above), as far as they go on without a gap."""
    have = sorted(t[-1] for t in memo if t[:-1] == fixed and t[-1] >= lo)
    if not have:
        return None
    first = have[0]
    values: list[int] = []
    while len(values) < MAX_TABLE and (got := memo.get((*fixed, first + len(values)))) is not None:
        if got[0] is None:
            return None
        values.append(got[0])
    return (first, values, None) if len(values) > 2 else None




def _increase_of(g: str, call: Call) -> int | None:
    """How much a call adds to global ``g``."""
    return call[1].get(g)


def _column(rows: list[tuple[int, Call]], below: Call | None, pick: Callable[[Call], int | None]) -> Table | None:
    """The table of one of the calls' outcomes (the result, or a global's increase)."""
    values = [pick(r) for _, r in rows]
    if any(x is None for x in values):
        return None
    under = pick(below) if below is not None else None
    return rows[0][0], values, under  # type: ignore[return-value]


def _table_facts(program: Program, enc: horn.Encoder, tables: dict[str, Tabled],
                 curried: dict[str, Curried]) -> dict[RelKey, list[Guess]]:
    """At a tabulated function's exit, its table (``\\result`` by the parameter's value at the
    call, each written global's increase from its value at the call, where the sum fits the
    global's type); at every cut point a call reaches in its caller, the call's result by its
    argument (by its arguments, for a function of several parameters). (A call's effect on a global its caller reads has no such fact: what the global
    held before the call is in no frame. The equalities the runs fit give it, by ``_features``.)"""
    out: dict[RelKey, list[Guess]] = {}
    for name, tab in tables.items():
        fn = program.functions[name]
        out.setdefault(horn.key(fn.exit), []).extend(
            partial(_exit_fact, fn, tab, program, i)
            for i in range(len(tab.effects) + (tab.result is not None and fn.result_var is not None)))
    for name, cur in curried.items():
        fn = program.functions[name]
        # Where a parameter is not a constant it is compared with, wherever that holds: past
        # ``if (n == 0) return ...``, a call ``f(m, n - 1)`` whose callee would return at once is not
        # the one made, and the tables' facts there are about the calls that are.
        apart = [lambda names, p=p, c=c: names[p] != c for p, cs in cur.compared.items() for c in sorted(cs)]
        for n in fn.nodes:
            if enc.cut(fn, n):
                out.setdefault(horn.key(n), []).extend(apart)
        out.setdefault(horn.key(fn.exit), []).extend(
            partial(_curried_exit_fact, fn, part) for part in cur.parts())
    for f in program.all_functions():
        for e in f.edges():
            if not isinstance(e, CallEdge) or not isinstance(e.lhs, Var):
                continue
            known = [_evaluated(a, dict.fromkeys(a.variables(), 0)) is not None for a in e.args]
            facts: list[Guess] = []
            called = tables.get(e.callee)
            if called is not None and called.result is not None and known[called.key]:
                facts.append(partial(_call_fact, e.args[called.key], e.lhs.name, called.result))
            if e.callee in curried and all(known):
                facts += [partial(_curried_call_fact, e, e.lhs.name, part) for part in curried[e.callee].parts()]
            # (only where the call's result may be: at a cut point before it they would fail)
            for n in _after(e):
                if enc.cut(f, n):
                    out.setdefault(horn.key(n), []).extend(facts)
    return out


def _exit_fact(fn: FunctionCFA, tab: Tabled, program: Program, i: int, names: dict[str, z3.ArithRef]) -> z3.BoolRef:
    return _exit_facts(fn, tab, names, program)[i][0]


def _curried_exit_fact(fn: FunctionCFA, part: tuple[tuple[int, ...], Table],
                       names: dict[str, z3.ArithRef]) -> z3.BoolRef:
    assert fn.result_var is not None  # (a function of a result: curried tables are of pure functions)
    return Curried.fact(part, [names[old(p)] for p in fn.params], names[fn.result_var])


def _call_fact(arg: Expr, lhs: str, table: Table, names: dict[str, z3.ArithRef]) -> z3.BoolRef:
    """A call's result ``lhs`` by its argument ``arg``, as the callee's table says."""
    return _lookup(_term(arg, names, z3.IntVal), names[lhs], *table)


def _curried_call_fact(e: CallEdge, lhs: str, part: tuple[tuple[int, ...], Table],
                       names: dict[str, z3.ArithRef]) -> z3.BoolRef:
    return Curried.fact(part, [_term(a, names, z3.IntVal) for a in e.args], names[lhs])


def _after(e: CallEdge) -> list[CFANode]:
    """The nodes of the caller that a run reaches after the call ``e``."""
    seen = {id(e.succ): e.succ}
    todo = [e.succ]
    while todo:
        for x in todo.pop().out:
            if id(x.succ) not in seen:
                seen[id(x.succ)] = x.succ
                todo.append(x.succ)
    return list(seen.values())


def _increase(arg: z3.ArithRef, now: z3.ArithRef, before: z3.ArithRef, t: IntType, table: Table) -> z3.BoolRef:
    """``now == before + T(arg)`` where ``arg`` is in the table and the sum fits ``t``."""
    term, inside = _table_term(arg, table)
    total = before + term
    return z3.Implies(z3.And(inside, total >= t.min, total <= t.max), now == total)


def _table_term(arg: z3.ArithRef, table: Table) -> tuple[z3.ArithRef, z3.BoolRef]:
    """The table's value at ``arg``, and where that is the function's."""
    lo, values, below = table
    term: z3.ArithRef = z3.IntVal(values[-1])
    for i in range(len(values) - 2, -1, -1):
        term = z3.If(arg == lo + i, values[i], term)
    if below is None:
        return term, z3.And(arg >= lo, arg <= lo + len(values) - 1)
    return z3.If(arg < lo, below, term), arg <= lo + len(values) - 1


def _lookup(arg: z3.ArithRef, result: z3.ArithRef, lo: int, values: list[int], below: int | None) -> z3.BoolRef:
    """``result == T(arg)`` wherever the table has ``arg``."""
    term, inside = _table_term(arg, (lo, values, below))
    return z3.Implies(inside, result == term)


def _term(e: Expr, names: Mapping[str, T], const: Callable[[int], T]) -> T | None:
    """A call's argument over the caller's frame (``names``: a z3 term or a value per variable):
    a variable, a constant, or either plus or minus a constant (what a recursive call passes);
    None otherwise."""
    e = _widened(e)
    if isinstance(e, Var):
        return names.get(e.name)
    if isinstance(e, Const) and isinstance(e.value, int):
        return const(e.value)
    if isinstance(e, Binary) and e.op in ("+", "-") and isinstance(e.right, Const) and isinstance(e.right.value, int):
        x = _term(e.left, names, const)
        if x is None:
            return None
        return x + e.right.value if e.op == "+" else x - e.right.value  # type: ignore[operator, return-value]
    return None


def _widened(e: Expr) -> Expr:
    """``e`` without the conversions that keep every value (``(long long) n``)."""
    while isinstance(e, Cast) and isinstance(e.type, IntType) and isinstance(e.arg.type, IntType) \
            and e.type.min <= e.arg.type.min and e.arg.type.max <= e.type.max:
        e = e.arg
    return e


def _tabulable(program: Program, met_by: dict[str, dict[str, set[int]]]) -> dict[str, tuple[int, int, list[str]]]:
    """The functions that may be a function of one integer parameter: they draw no input,
    touch no memory, call only such functions, and compare exactly one parameter with
    constants (the key). Per function: the key's index, the smallest constant it is compared
    with, and the globals the function (or a callee) writes."""
    out: dict[str, tuple[int, int, list[str]]] = {}
    writes: dict[str, set[str]] = {}
    for name, f in program.functions.items():
        met = met_by[name]
        compared = [i for i, p in enumerate(f.params) if met.get(p)]
        if len(compared) != 1:
            continue
        written = _pure(program, f)
        if written is not None:
            out[name] = (compared[0], min(met[f.params[compared[0]]]), [])
            writes[name] = written
    changed = True
    while changed:  # callees must be tabulable too; their writes are the caller's
        changed = False
        for name in list(out):
            callees = program.functions[name].calls
            if any(c not in out for c in callees):
                del out[name]
                changed = True
                continue
            more = set().union(*(writes[c] for c in callees)) - writes[name] if callees else set()
            if more:
                writes[name] |= more
                changed = True
    return {name: (k, lo, sorted(writes[name])) for name, (k, lo, _) in out.items()}


def _curriable(program: Program, met_by: dict[str, dict[str, set[int]]]) -> list[str]:
    """The functions that may be a function of their parameters alone, of two or more, each
    compared with constants: integers in and out, no input, no memory, no globals, and no
    calls but to themselves."""
    out = []
    for name, f in program.functions.items():
        if len(f.params) < 2 or f.result_var is None or not all(met_by[name].get(p) for p in f.params):
            continue
        if f.calls - {name} or _pure(program, f) != set():
            continue
        if any(isinstance(sub, Var) and program.vars[sub.name].is_global
               for e in f.edges() for x in edge_exprs(e) if x is not None for sub in x.walk()):
            continue
        out.append(name)
    return out


def _pure(program: Program, f: FunctionCFA) -> set[str] | None:
    """The globals ``f`` writes itself, if it draws no input and touches no memory (None
    otherwise), with integer parameters and result."""
    if any(not isinstance(program.vars[p].type, IntType) for p in f.params) or \
            f.result_var is not None and not isinstance(program.vars[f.result_var].type, IntType):
        return None
    written: set[str] = set()
    for e in f.edges():
        if isinstance(e, ExternalCallEdge) or isinstance(e, DeclEdge) and isinstance(e.init, Nondet):
            return None
        for x in edge_exprs(e):
            for sub in (x.walk() if x is not None else ()):
                if isinstance(sub, Nondet) or isinstance(sub, Var) and not isinstance(sub.type, IntType):
                    return None
        lhs = e.lhs if isinstance(e, AssignEdge | CallEdge) else None
        if isinstance(lhs, Var) and program.vars[lhs.name].is_global:
            written.add(lhs.name)
        elif lhs is not None and not isinstance(lhs, Var):
            return None
    return written


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
               result: str | None, features: list[str] = []) -> list[str]:  # noqa: B006 (not mutated)
    """The integer variables (and features) every state of a cut point has a value for, at most
    ``MAX_VARIABLES``: the result first, then the globals, the features, the entry copies (a
    summary's interface: the globals' first), then the others in the frame's order."""
    fn = program.functions.get(function) or program.start
    have = [v for v in [*enc.frame(fn), *features] if all(v in s for s in states)]
    globals_ = set(enc.globals)
    olds = [v for v in have if v.endswith(old("")) and v != result]
    first = [v for v in have if v == result] + [v for v in have if v in globals_] + \
        [v for v in have if v.startswith("#")] + sorted(olds, key=lambda v: v[: -len(old(""))] not in globals_)
    ordered = first + [v for v in have if v not in first]
    return ordered[:MAX_VARIABLES]


def sample(program: Program, enc: horn.Encoder, deadline: float, cancelled: Callable[[], bool] = lambda: False,
           tables: Mapping[str, Tabled | Curried] | None = None, memo: Memo | None = None) -> dict[RelKey, list[dict[str, int]]]:
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
        walk = Walk(program, enc, rng, record)
        walk.memo = memo or {}
        walk.keys = {n: (t.key,) if isinstance(t, Tabled) else tuple(range(len(program.functions[n].params)))
                     for n, t in (tables or {}).items()}
        walk.walk(MAX_RUN_STEPS)
    return rows


__all__ = ["solve", "guesses", "sample"]
