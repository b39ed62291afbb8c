"""Explicit-value analysis (Beyer & Löwe 2012) with exact machine-integer semantics.

A state maps tracked variables to concrete values; a missing variable is unknown. The
precision says which variables may be tracked at which location; CEGAR refines it.
Pointers and aggregates are not tracked: a write through a pointer makes every
address-taken variable unknown, which keeps the analysis sound under aliasing.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from typing import Any

from ...cfa.cfa import FunctionCFA, Program
from ...cfa.ctype import IntType, PointerType, StructType
from ...cfa.ir import (
    AbortEdge,
    AssignEdge,
    AssumeEdge,
    Binary,
    BlankEdge,
    CallEdge,
    Cast,
    CFANode,
    Const,
    DeclEdge,
    Edge,
    Expr,
    ExternalCallEdge,
    Nondet,
    ReturnEdge,
    Unary,
    Var,
)
from ...cfa.semantics import eval_binary, eval_cast, eval_unary
from ...cfa.traits import uses_memory
from ...core.bam import AnalysisUnsupported
from ...core.cpa import CPA, Block
from ...core.summaries import FORMULA
from ..varmap import expand_map, rebuild_map, reduce_map
from . import memory as mem
from . import symbolic as sym
from .precision import ValuePrecision


class ValueState:
    """An immutable map variable -> int.

    In a generalized block (see value/symbolic.py) values may also be symbolic
    expressions over the block's entry values, and ``c`` holds the branch constraints on
    them taken so far, as (expression, truth) pairs; ``c`` is None everywhere else.
    """

    __slots__ = ("m", "c", "_h")

    def __init__(self, m: Mapping[str, Any] | None = None, c: frozenset | None = None):
        self.m: dict[str, Any] = dict(m) if m else {}
        self.c = c
        self._h: int | None = None

    def __hash__(self) -> int:
        if self._h is None:
            self._h = hash(frozenset(self.m.items())) if self.c is None else hash((frozenset(self.m.items()), self.c))
        return self._h

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ValueState) and self.m == other.m and self.c == other.c

    def __repr__(self) -> str:
        facts = [f"{k}={sym.render(v) if isinstance(v, sym.Sym) else v}" for k, v in sorted(self.m.items())]
        facts += [f"[{'' if t else '!'}{sym.render(x)}]" for x, t in sorted(self.c or (), key=repr)]
        return "{" + ", ".join(facts) + "}"

    def get(self, name: str) -> Any:
        return self.m.get(name)

    def set(self, name: str, value: Any) -> ValueState:
        if value is None:
            if name not in self.m:
                return self
            m = dict(self.m)
            del m[name]
            return ValueState(m, self.c)
        if name in self.m and self.m[name] == value:
            return self
        m = dict(self.m)
        m[name] = value
        return ValueState(m, self.c)

    def without(self, pred: Callable[[str], bool]) -> ValueState:
        if not any(pred(k) for k in self.m):
            return self
        return ValueState({k: v for k, v in self.m.items() if not pred(k)}, self.c)

    def restrict(self, keep: Callable[[str], bool]) -> ValueState:
        return self.without(lambda k: not keep(k))


def evaluate(e: Expr, lookup: Callable[[str], Any], view: mem.View | None = None) -> Any:
    """The value of a side-effect-free expression, or None when it is not a single known value.
    Without ``view`` only integers (the integer-only fast path); with it, also pointers
    (:class:`memory.Ptr`) and reads of memory."""
    if isinstance(e, Const):
        return e.value
    if isinstance(e, Var):
        if isinstance(e.type, IntType) and (view is None or e.name not in view.mem.objects):
            return lookup(e.name)
        return None if view is None else mem.evaluate_memory(e, view, lambda x: evaluate(x, lookup, view))
    if isinstance(e, Binary):
        if not isinstance(e.left.type, IntType) or not isinstance(e.right.type, IntType):
            return None if view is None else mem.evaluate_memory(e, view, lambda x: evaluate(x, lookup, view))
        a = evaluate(e.left, lookup, view)
        if type(a) is not int:
            # 0 && .. style short-cuts do not exist here (&& is control flow), but x*0 and x&0 do.
            if e.op in ("*", "&"):
                b = evaluate(e.right, lookup, view)
                if b == 0:
                    return 0
            return None
        b = evaluate(e.right, lookup, view)
        if type(b) is not int:
            if e.op in ("*", "&") and a == 0:
                return 0
            return None
        return eval_binary(e.op, a, b, e.left.type, e.type)
    if isinstance(e, Unary):
        if view is not None and not isinstance(e.arg.type, IntType):
            return mem.evaluate_memory(e, view, lambda x: evaluate(x, lookup, view))
        a = evaluate(e.arg, lookup, view)
        return None if type(a) is not int else eval_unary(e.op, a, e.arg.type if e.op != "!" else e.type)
    if isinstance(e, Cast):
        if not isinstance(e.arg.type, IntType) or not isinstance(e.type, IntType):
            return None if view is None else mem.evaluate_memory(e, view, lambda x: evaluate(x, lookup, view))
        a = evaluate(e.arg, lookup, view)
        return None if type(a) is not int else eval_cast(a, e.type)
    if view is not None:
        return mem.evaluate_memory(e, view, lambda x: evaluate(x, lookup, view))
    return None


def evaluate_symbolic(e: Expr, lookup: Callable[[str], Any]) -> Any:
    """``evaluate`` in a generalized block: an int, a symbolic expression over the block's
    entry values, or None. Each operation is the one ``evaluate`` would apply, deferred to
    instantiation when an operand is symbolic (so its semantics are exactly the same)."""
    if isinstance(e, Const):
        return e.value
    if isinstance(e, Var):
        return lookup(e.name) if isinstance(e.type, IntType) else None
    if not isinstance(e.type, IntType):
        return None  # not an integer: no value (as evaluate's semantics give)
    if isinstance(e, Binary):
        if not isinstance(e.left.type, IntType) or not isinstance(e.right.type, IntType):
            return None
        a = evaluate_symbolic(e.left, lookup)
        b = evaluate_symbolic(e.right, lookup)
        if a is None or b is None:
            other = b if a is None else a
            if e.op in ("*", "&"):
                # As in evaluate: x*0 and x&0 are 0 whatever x is (a symbolic operand may be 0).
                if type(other) is int and other == 0:
                    return 0
                if isinstance(other, sym.Sym):
                    return sym.binary(e.op, a, b, e.left.type, e.type)
            return None
        return sym.binary(e.op, a, b, e.left.type, e.type)
    if isinstance(e, Unary):
        if not isinstance(e.arg.type, IntType):
            return None
        a = evaluate_symbolic(e.arg, lookup)
        return None if a is None else sym.unary(e.op, a, e.arg.type if e.op != "!" else e.type)
    if isinstance(e, Cast):
        if not isinstance(e.arg.type, IntType):
            return None
        a = evaluate_symbolic(e.arg, lookup)
        return None if a is None else sym.cast(a, e.type)
    return None


def solve_for_var(cond: Expr, truth: bool, lookup: Callable[[str], int | None],
                  view: mem.View | None = None) -> tuple[str, int] | None | bool:
    """If assume(cond == truth) pins one unknown variable to a single value, return it.

    Returns (var, value), or False if the assumption is unsatisfiable for that variable,
    or None if nothing can be concluded.
    """
    if isinstance(cond, Unary) and cond.op == "!":
        return solve_for_var(cond.arg, not truth, lookup, view)
    if isinstance(cond, Binary) and cond.op in ("==", "!=") and (cond.op == "==") == truth:
        for lhs, rhs in ((cond.left, cond.right), (cond.right, cond.left)):
            val = evaluate(rhs, lookup, view)
            if type(val) is not int:
                continue
            return _invert(lhs, val, lookup, view)
        return None
    if not isinstance(cond, Binary) or cond.op not in ("==", "!=", "<", ">", "<=", ">="):
        if not truth and isinstance(cond.type, IntType):  # [!(x)] means x == 0
            return _invert(cond, 0, lookup, view)
    return None


def _invert(lhs: Expr, val: int, lookup: Callable[[str], int | None],
            view: mem.View | None = None) -> tuple[str, int] | None | bool:
    while True:
        if isinstance(lhs, Var) and isinstance(lhs.type, IntType):
            if view is not None and lhs.name in view.mem.objects:
                return None
            if lookup(lhs.name) is not None:
                return None
            return (lhs.name, val) if lhs.type.contains(val) else False
        if isinstance(lhs, Cast) and isinstance(lhs.arg.type, IntType) and isinstance(lhs.type, IntType):
            inner_t = lhs.arg.type
            # The cast is injective on its source type when it does not narrow.
            if lhs.type.is_bool:
                return None
            if lhs.type.bits >= inner_t.bits or (lhs.type.bits == inner_t.bits):
                cand = inner_t.wrap(val)
                if eval_cast(cand, lhs.type) != val:
                    return False
                lhs, val = lhs.arg, cand
                continue
            return None
        return None


KEPT_MEMO = 64  # reduced entries' keys remembered (_kept_keys)


class ValueCPA(CPA[ValueState]):
    name = "value"

    def __init__(self, program: Program, generalize: bool = True):
        self.program = program
        self.vars = program.vars
        self.addressed = frozenset(n for n, v in program.vars.items() if v.addressed)
        self.globals = frozenset(n for n, v in program.vars.items() if v.is_global)
        self.generalizes = generalize
        self._generalizable: dict[str, bool] = {}
        self._kept_memo: dict[tuple[int, str], tuple[ValueState, list[str]]] = {}
        self._int_vars: set[str] | None = None
        # A function's locals (but its result) are dead at its exit: exits leave them out, so
        # a summary holds only what callers see, and an edit of a local does not change it.
        by_fn: dict[str, set[str]] = {}
        for n, v in program.vars.items():
            if v.function is not None:
                by_fn.setdefault(v.function, set()).add(n)
        self._dead_at: dict[int, frozenset[str]] = {}
        for f in program.all_functions():
            dead = frozenset(by_fn.get(f.name, set()) - {f.result_var})
            if dead:
                self._dead_at[id(f.exit)] = dead
        # Programs with pointers or memory get the memory model; integer-only ones keep the
        # plain variable map and pay nothing for it.
        self.memory = mem.Memory(program) if uses_memory(program) else None
        # The leak check reads the heap objects a state lists as all there are (see
        # is_less_or_equal), so under memsafety that list is never left to coverage.
        self._whole_heap = self.memory is not None and program.memsafety
        self._recursive_functions: set[str] | None = None
        self._local_objects: dict[str, frozenset[str]] = {}
        if self.memory is not None:
            for n in self.memory.objects:
                fn = program.vars[n].function
                if fn is not None:
                    self._local_objects[fn] = self._local_objects.get(fn, frozenset()) | {n}

    def initial(self, node: CFANode) -> ValueState:
        return ValueState()

    def is_less_or_equal(self, a: ValueState, b: ValueState) -> bool:
        if len(b.m) > len(a.m):
            return False
        if b.c and (a.c is None or not b.c <= a.c):
            return False
        am = a.m
        if not all(am.get(k, _MISSING) == v for k, v in b.m.items()):
            return False
        # A missing key is an unknown value, but for two facts: the leak check (memory._tracked)
        # takes the heap objects a state lists as every object allocated, and a variable's object
        # not listed dead is alive. A state that lists fewer must not cover one with more: a
        # loop's head would cover its second iteration by its first, and the objects allocated
        # in the loop would never reach the check. (b's are among a's: equal counts, equal lists;
        # and as many keys in all, the same keys.)
        return not self._whole_heap or len(am) == len(b.m) or mem.listed_objects(am) == mem.listed_objects(b.m)

    def coverage_items(self, state: ValueState):
        # a <= b iff b's facts (and constraints) are among a's
        if not state.c:
            return state.m.items()
        return [*state.m.items(), *((("#c", x), t) for x, t in state.c)]

    def join(self, a: ValueState, b: ValueState) -> ValueState:
        c = None if a.c is None or b.c is None else a.c & b.c
        return ValueState({k: v for k, v in a.m.items() if b.m.get(k, _MISSING) == v}, c)

    # ---- transfer -----------------------------------------------------------
    def _assign(self, state: ValueState, lhs: Expr, value: int | None) -> ValueState:
        if isinstance(lhs, Var):
            if not isinstance(lhs.type, IntType):
                return state.set(lhs.name, None)
            return state.set(lhs.name, value)
        root = lhs
        while not isinstance(root, Var):
            inner = getattr(root, "base", None)
            if inner is None:
                # A write through a pointer may hit any variable whose address was taken.
                return state.without(lambda k: k in self.addressed)
            root = inner
        return state  # an element or member of an aggregate: aggregates are not tracked

    def transfer(self, state: ValueState, edge: Edge, prec: Any) -> list[ValueState]:
        out = self._transfer(state, edge) if self.memory is None else self._transfer_memory(state, edge)
        dead = self._dead_at.get(id(edge.succ))
        if dead is not None:
            if self.memory is not None:
                return [s.without(lambda k: (mem.object_of(k) or k) in dead) for s in out]
            return [s.without(dead.__contains__) for s in out]
        return out

    # ---- transfer with memory ---------------------------------------------------------
    def _view(self, state: ValueState) -> mem.View:
        assert self.memory is not None
        return self.memory.view(state.m)

    def _transfer_memory(self, state: ValueState, edge: Edge) -> list[ValueState]:
        view = self._view(state)
        lookup = state.m.get

        def ev(e: Expr) -> Any:
            return evaluate(e, lookup, view)

        if isinstance(edge, AssumeEdge):
            assert edge.cond is not None
            v = ev(edge.cond)
            if v is not None:
                if isinstance(v, mem.Ptr):
                    v = 1
                return [state] if (v != 0) == edge.truth else []
            solved = solve_for_var(edge.cond, edge.truth, lookup, view)
            if solved is False:
                return []
            if isinstance(solved, tuple) and solved[0] not in state.m:
                return [state.set(solved[0], solved[1])]
            return [state]
        if not isinstance(edge, AssignEdge | DeclEdge | ReturnEdge | ExternalCallEdge | BlankEdge | AbortEdge):
            raise TypeError(f"value analysis: unexpected edge {type(edge).__name__}")
        mem.apply(view, edge, ev, self.globals)
        return [state if view.m is state.m else ValueState(view.m, state.c)]

    def _transfer(self, state: ValueState, edge: Edge) -> list[ValueState]:
        # In a generalized block (state.c set) values may be symbolic: the same transfer, with
        # evaluation deferred where an operand is symbolic.
        symbolic = state.c is not None
        ev = evaluate_symbolic if symbolic else evaluate
        lookup: Callable[[str], Any] = state.m.get
        if isinstance(edge, AssignEdge):
            assert edge.lhs is not None and edge.rhs is not None
            value = None if isinstance(edge.rhs, Nondet) else ev(edge.rhs, lookup)
            return [self._assign(state, edge.lhs, value)]
        if isinstance(edge, AssumeEdge):
            assert edge.cond is not None
            v = ev(edge.cond, lookup)
            if symbolic and isinstance(v, sym.Sym):
                # Decided by the entry values: both ways stay open, each under its constraint,
                # and instantiation drops the one a concrete entry contradicts.
                return [ValueState(state.m, state.c | {(v, edge.truth)})]  # type: ignore[operator]
            if v is not None:
                return [state] if (v != 0) == edge.truth else []
            if symbolic:
                def pinned(k: str) -> int | None:  # a symbolic value is known: never pinned
                    x = state.m.get(k)
                    return x if type(x) is int else None
                lookup = pinned
            solved = solve_for_var(edge.cond, edge.truth, lookup)
            if solved is False:
                return []
            if isinstance(solved, tuple) and solved[0] not in state.m:
                return [state.set(solved[0], solved[1])]
            return [state]
        if isinstance(edge, DeclEdge):
            assert edge.var is not None
            if edge.init is None or isinstance(edge.init, Nondet):
                return [state.set(edge.var.name, None)]
            return [self._assign(state, edge.var, ev(edge.init, lookup))]
        if isinstance(edge, ReturnEdge):
            if edge.result_var is None:
                return [state]
            value = ev(edge.value, lookup) if edge.value is not None else None
            return [self._assign(state, edge.result_var, value)]
        if isinstance(edge, ExternalCallEdge):
            s = state
            if edge.writes_globals:
                s = s.without(lambda k: k in self.globals)
            if any(not isinstance(a.type, IntType) for a in edge.args):
                s = s.without(lambda k: k in self.addressed)
            if edge.lhs is not None:
                s = self._assign(s, edge.lhs, None)
            return [s]
        if isinstance(edge, BlankEdge | AbortEdge):
            return [state]
        raise TypeError(f"value analysis: unexpected edge {type(edge).__name__}")

    def call_entry(self, state: ValueState, edge: CallEdge, callee: FunctionCFA, prec: Any) -> list[ValueState]:
        if self.memory is not None:
            return [self._call_entry_memory(state, edge, callee)]
        lookup = state.m.get
        values = [evaluate(a, lookup) for a in edge.args]
        fname = callee.name
        # The callee's locals start fresh: otherwise a caller's same-named locals (recursion)
        # would leak into the block's cache key.
        s = state.without(lambda k: self.vars[k].function == fname if k in self.vars else False)
        for p, v in zip(callee.params, values):
            s = s.set(p, v if isinstance(self.vars[p].type, IntType) else None)
        return [s]

    def return_to(self, state: ValueState, edge: CallEdge, callee: FunctionCFA, prec: Any) -> list[ValueState]:
        if edge.lhs is None or callee.result_var is None:
            return [state]
        if self.memory is not None:
            view = self._view(state)
            mem.assign(view, edge.lhs, Var(callee.result_var, self.vars[callee.result_var].type),
                       lambda e: evaluate(e, state.m.get, view))
            return [ValueState(view.m)]
        return [self._assign(state, edge.lhs, state.get(callee.result_var))]

    def _call_entry_memory(self, state: ValueState, edge: CallEdge, callee: FunctionCFA) -> ValueState:
        memory = self.memory
        assert memory is not None
        fname = callee.name
        own = self._local_objects.get(fname)
        if own and any(isinstance(v, mem.Ptr) and v.obj in own for v in state.m.values()):
            # The callee's own locals would share names with the caller's instances.
            raise AnalysisUnsupported(f"a pointer into a local of '{fname}' passed to a recursive call of it", None)
        view = self._view(state)
        lookup = state.m.get
        # Arguments are evaluated in the caller's state, before the callee's locals start fresh.
        values = [evaluate(a, lookup, view) if not isinstance(a.type, StructType) else view.address(
            a, lambda x: evaluate(x, lookup, view)) for a in edge.args]
        locals_ = self._callee_locals(fname)
        s = state.without(lambda k: (mem.object_of(k) or k) in locals_)
        view = self._view(s)
        for p, v in zip(callee.params, values):
            pv = Var(p, self.vars[p].type)
            if isinstance(pv.type, StructType):
                view.declare(p, zero=False)
                view.copy(mem.Ptr(p, 0), v, memory.layout.sizeof(pv.type))
            elif p in memory.objects:
                view.declare(p, zero=False)
                view.store(mem.Ptr(p, 0), pv.type, v)
            else:
                view.set_plain(p, v if isinstance(pv.type, IntType | PointerType) else None)
        return ValueState(view.m)

    def _callee_locals(self, fname: str) -> frozenset[str]:
        got = self._locals_cache.get(fname) if hasattr(self, "_locals_cache") else None
        if got is None:
            if not hasattr(self, "_locals_cache"):
                self._locals_cache: dict[str, frozenset[str]] = {}
            got = frozenset(k for k, v in self.vars.items() if v.function == fname)
            self._locals_cache[fname] = got
        return got

    def prec(self, state: ValueState, prec: ValuePrecision | None, node: CFANode) -> ValueState:
        if prec is None or prec.track_all:
            return state
        if self.memory is not None:
            # Allocation counters and heap sizes always stay: they keep objects distinct and
            # bounds known (the cells themselves follow the precision of their root).
            return state.restrict(lambda k: mem.always_kept(k) or prec.tracks(node, mem.root_of(k)))
        return state.restrict(lambda k: prec.tracks(node, k))

    # ---- BAM ----------------------------------------------------------------
    # With memory, a block's reduced entry keeps what the block can reach: the variables it
    # mentions, the objects they name or point to, and everything those objects point to,
    # transitively. expand gives the caller its other memory back as it was, unless the block
    # may have written beyond what it could reach (a write through an unknown pointer or out of
    # bounds, an unknown function with pointer arguments): then only their sizes come back.
    def reduce(self, state: ValueState, block: Block, prec: Any) -> ValueState:
        if self.memory is not None:
            m = {k: state.m[k] for k in self._kept_keys(state, block)}
            m[mem.INTACT] = mem.INTACT_VALUE
            return ValueState(m)
        return ValueState(reduce_map(state.m, block))

    def _kept_keys(self, state: ValueState, block: Block) -> list[str]:
        """The keys of ``state`` that ``block``'s reduced entry keeps (see reduce). The last few
        are kept: expand asks again of the entry that reduce was given."""
        key = (id(state), block.name)
        memo = self._kept_memo
        got = memo.get(key)
        if got is not None and got[0] is state:
            return got[1]
        keys = self._kept_keys_of(state, block)
        if len(memo) >= KEPT_MEMO:
            memo.pop(next(iter(memo)))
        memo[key] = (state, keys)  # (the state held: its id is not reused while it is here)
        return keys

    def _kept_keys_of(self, state: ValueState, block: Block) -> list[str]:
        assert self.memory is not None
        m = state.m
        objects = self.memory.objects
        keep: list[str] = []
        by_object: dict[str, list[str]] = {}
        roots: set[str] = set()
        for k, v in m.items():
            if k == mem.INTACT:
                continue
            obj = mem.object_of(k)
            if obj is not None:
                by_object.setdefault(obj, []).append(k)
                if mem.is_summary(obj):
                    roots.add(obj)  # a site's further instances: the block may allocate one
            elif k.startswith(mem.COUNTER):
                if mem.site_function(k) in block.functions:
                    keep.append(k)  # the block's allocations must not reuse a caller's object
            elif k in block.vars:
                keep.append(k)
                if isinstance(v, mem.Ptr):
                    roots.add(v.obj)
        roots.update(k for k in (block.vars if block.named is None else block.named) if k in objects)
        reached = mem.reachable_objects(m, by_object, roots)
        memsafety = self.memory.program.memsafety
        for obj, keys in by_object.items():
            if obj in reached:
                keep.extend(keys)
            elif memsafety and obj.startswith(mem.HEAP):
                # A leak check in the block must still see every live object.
                keep.extend(k for k in keys if k.endswith("[#]"))
        return keep

    def expand(self, entry: ValueState, reduced_exit: ValueState, block: Block) -> ValueState:
        if self.memory is not None:
            kept = set(self._kept_keys(entry, block))
            plain: dict[str, Any] = {}
            intact = mem.INTACT in reduced_exit.m
            memory_key = mem.MEMORY_KEY
            for k, v in entry.m.items():
                if not memory_key[k]:
                    plain[k] = v
                elif k not in kept and k != mem.INTACT and (intact or mem.always_kept(k)):
                    plain[k] = v  # memory the block could not reach
            out = expand_map(plain, reduced_exit.m, block, self.globals, self.addressed)
            if mem.INTACT not in entry.m:
                out.pop(mem.INTACT, None)
            return ValueState(out)
        return ValueState(expand_map(entry.m, reduced_exit.m, block, self.globals, self.addressed))

    def rebuild(self, call: ValueState, entry: ValueState, exit: ValueState, block: Block,
                edge: CallEdge) -> ValueState:
        if self.memory is not None:
            own = self._callee_locals(block.function.name)
            memory_key = mem.MEMORY_KEY
            plain_call = {k: v for k, v in call.m.items() if not memory_key[k]}
            out = rebuild_map(plain_call, {k: v for k, v in exit.m.items() if not memory_key[k]},
                              block, self.globals, self.addressed)
            for k, v in exit.m.items():
                if memory_key[k] and mem.object_of(k) not in own:
                    out[k] = v
            for k, v in call.m.items():  # a recursive caller's own instances of the callee's locals
                if memory_key[k] and mem.object_of(k) in own:
                    out[k] = v
            mem.release_frame(out, block.function.name)
            if self._whole_heap:
                self._dangling(out, call, own, block.function.name)
            return ValueState(out)
        return ValueState(rebuild_map(call.m, exit.m, block, self.globals, self.addressed))

    def _dangling(self, out: dict[str, Any], call: ValueState, own: frozenset[str], fname: str) -> None:
        """Under memsafety, the callee's objects a pointer still points to after its return are
        dead (in place): ``return &local`` is an invalid dereference later, not a valid one.
        In a recursive function a caller's own instance shares the name: such a pointer is not
        followed."""
        assert self.memory is not None
        held = {v.obj for v in out.values() if isinstance(v, mem.Ptr) and v.obj in own}
        if not held:
            return
        if fname in self._recursive():
            raise AnalysisUnsupported(f"a pointer to a local of the recursive function '{fname}' outlives its call",
                                      None)
        view = self.memory.view(out)
        view.owned = True  # (out is this rebuild's own map: changed in place)
        for obj in held:
            view.end_lifetime(obj)

    def _recursive(self) -> set[str]:
        if self._recursive_functions is None:
            from ...cfa.traits import recursive

            self._recursive_functions = recursive(self.program)
        return self._recursive_functions

    def generalize(self, reduced: ValueState, block: Block, prec: Any) -> ValueState:
        """The parametric entry of a generalizable block: its parameters' concrete values become
        symbols, so one analysis serves every call (instantiate specialises its exits)."""
        if not self.generalizes or reduced.c is not None or self.memory is not None:
            return reduced  # (symbolic evaluation is for the integer-only transfer)
        fn = block.function
        ok = self._generalizable.get(fn.name)
        if ok is None:
            if self._int_vars is None:
                self._int_vars = {n for n, v in self.vars.items() if isinstance(v.type, IntType) and not v.addressed}
            ok = self._generalizable[fn.name] = sym.generalizable(fn, self._int_vars)
        if not ok:
            return reduced
        m = dict(reduced.m)
        for p in fn.params:
            if type(m.get(p)) is int:
                m[p] = sym.Param(p)
        if m == reduced.m:
            return reduced
        return ValueState(m, frozenset())

    def instantiate(self, reduced: ValueState, exit_state: ValueState, block: Block) -> ValueState | None:
        if exit_state.c is None:
            return exit_state
        env = {k: v for k, v in reduced.m.items() if type(v) is int}
        memo: dict[int, int | None] = {}
        for x, truth in exit_state.c:
            v = sym.instantiate(x, env, memo)
            if v is not None and (v != 0) != truth:
                return None  # this exit is on a path the entry does not take
        out = {}
        for k, x in exit_state.m.items():
            v = sym.instantiate(x, env, memo)
            if v is not None:
                out[k] = v
        return ValueState(out)

    def precision_key(self, prec: ValuePrecision | None, block: Block) -> Hashable:
        return None if prec is None else prec.key_for(block)

    def describe(self, state: ValueState) -> str:
        return repr(state)

    def concrete_values(self, state: ValueState) -> dict[str, int]:
        if state.c is None:
            return state.m if self.memory is None else {k: v for k, v in state.m.items() if type(v) is int}
        return {k: v for k, v in state.m.items() if type(v) is int}

    def summary_facts(self, state: ValueState) -> dict[str, Any]:
        if state.c is None:
            return {k: v if type(v) is int else repr(v) for k, v in state.m.items() if k != mem.INTACT}
        out: dict[str, Any] = {}
        for k, value in state.m.items():
            if isinstance(value, sym.Param) and value.name == k:
                continue  # a parameter standing for itself: any value
            out[k] = value if isinstance(value, int) else sym.render(value)
        cons = [sym.render(x) if t else f"!({sym.render(x)})"
                for x, t in sorted(state.c, key=lambda c: (sym.canonical_json(c[0]), c[1]))]
        if cons:
            out[FORMULA] = " && ".join(cons)
        return out

    def to_json(self, state: ValueState) -> Any:
        if state.c is None:
            return {k: mem.value_to_json(v) for k, v in sorted(state.m.items())}
        enc = sym.Encoder()
        out: dict[str, Any] = {k: enc.value(v) for k, v in sorted(state.m.items())}
        ordered = sorted(state.c, key=lambda c: (sym.canonical_json(c[0]), c[1]))
        out[CONSTRAINTS] = [[enc.value(x), t] for x, t in ordered]
        out[NODES] = enc.nodes
        return out

    def from_json(self, data: Any) -> ValueState:
        if CONSTRAINTS not in data:
            return ValueState({str(k): mem.value_from_json(v) for k, v in data.items()})
        dec = sym.Decoder(data.get(NODES, []))
        c = frozenset((dec.value(x), bool(t)) for x, t in data[CONSTRAINTS])
        return ValueState({str(k): dec.value(v) for k, v in data.items() if k not in (CONSTRAINTS, NODES)}, c)


CONSTRAINTS = "#constraints"  # the key of a generalized state's constraints in its JSON form
NODES = "#nodes"  # ... and of the expression nodes its values refer to


_MISSING = object()
