"""Predicate abstraction under BAM (Théoduloz 2010; Beyer & Friedberger 2020; Friedberger 2015), with large blocks.

A state is a Boolean combination ``psi`` of the predicates at its last abstraction point,
plus the edges taken since (``pending``). Abstraction happens at function entries and
exits, loop heads, joins, call sites, return sites and error locations, by all-SAT
over the location's predicates (Boolean abstraction; Cartesian if a location has too
many models). Everything between abstraction points is one path formula.

BAM operators. A state at a function entry only speaks of the callee's frame (parameters,
globals, and entry copies ``x@old`` of parameters the body assigns and globals the block
writes), so ``reduce`` and ``expand`` are the identity on it; ``rebuild`` and
``return_to`` together compute ``(psi_call & args = params & psi_exit)`` abstracted at the
return site, which restores the caller's context (digest §2.2; the copies play the role of
the extra parameter and return variables).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Set
from typing import Any

import z3

from ...cfa.cfa import FunctionCFA, Program
from ...cfa.ctype import IntType
from ...cfa.ir import (
    AssignEdge,
    AssumeEdge,
    CallEdge,
    CFANode,
    DeclEdge,
    Edge,
    ExternalCallEdge,
    ReturnEdge,
    Var,
)
from ...core.cpa import CPA, Block
from ...core.summaries import FORMULA
from ...smt.solving import conj, disj
from ...smt.time_limit import solver_gave_up, solver_timeout
from .atoms import Atom, atom_from_json, atom_to_c, atom_to_json, atom_to_z3, base_var
from .formula import SegmentEncoder, Theory, old

MAX_CUBES = 64  # Boolean abstraction beyond this many models falls back to Cartesian
Cube = tuple  # per atom: True, False or None (either)


class PredState:
    __slots__ = ("atoms", "cubes", "pending", "_h")

    def __init__(self, atoms: tuple[Atom, ...] = (), cubes: frozenset[Cube] = frozenset({()}),
                 pending: tuple[Edge, ...] = ()):
        self.atoms = atoms
        self.cubes = cubes
        self.pending = pending
        self._h: int | None = None

    def __hash__(self) -> int:
        if self._h is None:
            self._h = hash((self.atoms, self.cubes, tuple(id(e) for e in self.pending)))
        return self._h

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PredState) and self.atoms == other.atoms and self.cubes == other.cubes \
            and len(self.pending) == len(other.pending) and all(a is b for a, b in zip(self.pending, other.pending))

    @property
    def is_true(self) -> bool:
        return any(all(b is None for b in c) for c in self.cubes)

    def __repr__(self) -> str:
        return f"PredState({len(self.atoms)} atoms, {len(self.cubes)} cubes, {len(self.pending)} pending)"


class RebuildState:
    """Between rebuild and return_to: the caller's state at the call and the callee's exit."""

    __slots__ = ("call", "exit")

    def __init__(self, call: PredState, exit: PredState):
        self.call = call
        self.exit = exit

    def __hash__(self) -> int:
        return hash((self.call, self.exit))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, RebuildState) and self.call == other.call and self.exit == other.exit


class PredicatePrecision:
    """Predicates per location (function, canonical node index): stable across edits."""

    def __init__(self, at: dict[tuple[str, int], frozenset[Atom]] | None = None,
                 checks: frozenset[tuple[str, int]] = frozenset()):
        self.at_node: dict[tuple[str, int], frozenset[Atom]] = at or {}
        # Locations where refinement found the path infeasible outright (interpolant false):
        # with lazy checks, the satisfiability of the path formula is checked only there.
        self.checks = checks
        self._keys: dict[str, Hashable] = {}
        self._sorted: dict[tuple[str, int], tuple[Atom, ...]] = {}

    def atoms(self, node: CFANode) -> tuple[Atom, ...]:
        k = (node.function, node.canon)
        s = self._sorted.get(k)
        if s is None:
            s = tuple(sorted(self.at_node.get(k, ())))
            self._sorted[k] = s
        return s

    def size(self) -> int:
        return sum(len(v) for v in self.at_node.values())

    def checks_at(self, node: CFANode) -> bool:
        return (node.function, node.canon) in self.checks

    def with_atoms(self, new: dict[tuple[str, int], set[Atom]],
                   checks: Set[tuple[str, int]] = frozenset()) -> PredicatePrecision | None:
        """A finer precision, or None if ``new`` adds nothing."""
        at = dict(self.at_node)
        grew = not checks <= self.checks
        for k, atoms in new.items():
            cur = at.get(k, frozenset())
            if not atoms <= cur:
                at[k] = cur | frozenset(atoms)
                grew = True
        return PredicatePrecision(at, self.checks | frozenset(checks)) if grew else None

    def key_for(self, block: Block) -> Hashable:
        key = self._keys.get(block.name)
        if key is None:
            key = (tuple(sorted((f"{f}#{c}", tuple(sorted(v)))
                                for (f, c), v in self.at_node.items() if f in block.functions)),
                   tuple(sorted(f"{f}#{c}" for f, c in self.checks if f in block.functions)))
            self._keys[block.name] = key
        return key

    def to_json(self) -> dict:
        return {"at": {f"{f}#{c}": [atom_to_json(a) for a in sorted(v)] for (f, c), v in sorted(self.at_node.items())},
                "checks": sorted(f"{f}#{c}" for f, c in self.checks)}

    @classmethod
    def from_json(cls, data: dict) -> PredicatePrecision:
        def key(k: str) -> tuple[str, int]:
            f, _, c = k.rpartition("#")
            return (f, int(c))
        at = {key(k): frozenset(atom_from_json(a) for a in v) for k, v in data.get("at", {}).items()}
        return cls(at, frozenset(key(k) for k in data.get("checks", [])))


def abstraction_point(node: CFANode, fn: FunctionCFA) -> bool:
    return (node is fn.entry or node is fn.exit or node.loop_head or node.error is not None
            or len(node.inn) > 1 or any(isinstance(e, CallEdge) for e in node.out))


class PredicateCPA(CPA[PredState]):
    name = "predicate"

    def __init__(self, program: Program, blocks: dict[str, Block], theory: str = "bv",
                 timeout_ms: int = 10_000, lazy_checks: bool = False):
        self.program = program
        # Lazy: without predicates at a location, the path formula is checked only where a
        # refinement asked for it (value+predicate: the value domain already prunes the
        # infeasible branches it can see, so most checks would repeat its work).
        self.lazy_checks = lazy_checks
        self.blocks = blocks
        self.th = Theory(program, theory)
        self.timeout_ms = timeout_ms
        self.globals = sorted(n for n, v in program.vars.items() if v.is_global and self.th.modelled(n))
        self.copies = frame_copies(program, blocks, self.th)
        self._frame_vars: dict[str, list[str]] = {}
        self._points: dict[int, bool] = {}
        self._le_cache: dict[tuple, bool] = {}
        self._bools: dict[Atom, z3.BoolRef] = {}

    # ---- frames ---------------------------------------------------------------------
    def frame_vars(self, fn: str) -> list[str]:
        fv = self._frame_vars.get(fn)
        if fv is None:
            own = sorted(n for n, v in self.program.vars.items() if v.function == fn and self.th.modelled(n))
            fv = own + self.globals + sorted(old(v) for v in self.copies.get(fn, ()))
            self._frame_vars[fn] = fv
        return fv

    def is_point(self, node: CFANode) -> bool:
        p = self._points.get(id(node))
        if p is None:
            p = abstraction_point(node, self.program.function_of_name(node.function))
            self._points[id(node)] = p
        return p

    # ---- formulas ---------------------------------------------------------------------
    def psi(self, s: PredState, term) -> z3.BoolRef:
        if s.is_true:
            return z3.BoolVal(True)
        zs = [atom_to_z3(a, term, self.th.type_of, self.th.name) for a in s.atoms]
        return disj([conj([z if b else z3.Not(z) for z, b in zip(zs, c) if b is not None]) for c in s.cubes])

    def encode_segment(self, s: PredState, tag: str) -> SegmentEncoder:
        th = self.th
        enc = SegmentEncoder(th, lambda v: th.term(v, tag))
        enc.constraints.append(self.psi(s, lambda v: th.term(v, tag)))
        for e in s.pending:
            enc.edge(e, lambda: self.globals)
        return enc

    def abstract(self, constraints: list[z3.BoolRef], atoms: tuple[Atom, ...], term) -> PredState | None:
        """The Boolean abstraction of ``constraints`` over ``atoms`` (None if unsatisfiable)."""
        solver = z3.Solver()
        solver.set("timeout", solver_timeout(self.timeout_ms))
        solver.add(*constraints)
        if not atoms:
            r = solver.check()
            if r == z3.unknown:
                solver_gave_up()
            return None if r == z3.unsat else PredState()
        zs = [atom_to_z3(a, term, self.th.type_of, self.th.name) for a in atoms]
        bs = [z3.Bool(f"__b{i}") for i in range(len(atoms))]
        for b, z in zip(bs, zs):
            solver.add(b == z)
        cubes: set[Cube] = set()
        while True:
            solver.set("timeout", solver_timeout(self.timeout_ms))  # each model search, not the loop
            r = solver.check()
            if r == z3.unsat:
                break
            if r != z3.sat:  # the solver gave up: anything is possible (sound)
                solver_gave_up()
                return PredState(atoms, frozenset({(None,) * len(atoms)}))
            m = solver.model()
            cube = tuple(z3.is_true(m.eval(b, model_completion=True)) for b in bs)
            cubes.add(cube)
            if len(cubes) > MAX_CUBES:
                return self._cartesian(constraints, atoms, zs)
            solver.add(disj([z3.Not(b) if v else b for b, v in zip(bs, cube)]))
        if not cubes:
            return None
        return PredState(atoms, frozenset(cubes))

    def _cartesian(self, constraints, atoms, zs) -> PredState:
        solver = z3.Solver()
        solver.set("timeout", solver_timeout(self.timeout_ms))
        solver.add(*constraints)
        cube: list[bool | None] = []
        for z in zs:
            solver.set("timeout", solver_timeout(self.timeout_ms))
            neg = solver.check(z3.Not(z))
            pos = solver.check(z) if neg != z3.unsat else z3.sat
            if neg == z3.unsat:
                cube.append(True)
            elif pos == z3.unsat:
                cube.append(False)
            else:
                if z3.unknown in (neg, pos):
                    solver_gave_up()
                cube.append(None)
        return PredState(atoms, frozenset({tuple(cube)}))

    # ---- CPA ----------------------------------------------------------------------------
    def initial(self, node: CFANode) -> PredState:
        return PredState()

    def is_less_or_equal(self, a: PredState, b: PredState) -> bool:
        if a is b:
            return True
        if len(a.pending) != len(b.pending) or any(x is not y for x, y in zip(a.pending, b.pending)):
            return False
        if b.is_true:
            return True
        if a.atoms == b.atoms and a.cubes <= b.cubes:
            return True
        key = (a.atoms, a.cubes, b.atoms, b.cubes)
        r = self._le_cache.get(key)
        if r is None:
            r = self._implies(a, b)
            self._le_cache[key] = r
        return r

    def _bool(self, a: Atom) -> z3.BoolRef:
        b = self._bools.get(a)
        if b is None:
            b = z3.Bool(f"__p{len(self._bools)}")
            self._bools[a] = b
        return b

    def _prop(self, s: PredState) -> z3.BoolRef:
        bs = [self._bool(a) for a in s.atoms]
        return disj([conj([x if v else z3.Not(x) for x, v in zip(bs, c) if v is not None]) for c in s.cubes])

    def _implies(self, a: PredState, b: PredState) -> bool:
        """Propositional implication over the atoms: sound (it may miss a semantic one)."""
        lits_b = [{(x, v) for x, v in zip(b.atoms, c) if v is not None} for c in b.cubes]
        if all(any(lb <= la for lb in lits_b)
               for la in ({(x, v) for x, v in zip(a.atoms, c) if v is not None} for c in a.cubes)):
            return True  # every cube of a has all the literals of one of b's: no solver needed
        solver = z3.Solver()
        solver.add(self._prop(a), z3.Not(self._prop(b)))
        return solver.check() == z3.unsat

    # Beside the value analysis, an abstraction assumes the values it pins: with them, atoms over
    # flags it tracks are decided, and the cubes over the rest stay few (token_ring's flags made
    # Boolean abstraction fall back to Cartesian, which lost the relations refinement had found).
    uses_known_values = True

    def transfer(self, state: PredState, edge: Edge, prec: PredicatePrecision | None) -> list[PredState]:
        return self.transfer_known(state, edge, prec, dict)

    def transfer_known(self, state: PredState, edge: Edge, prec: PredicatePrecision | None,
                       known: Callable[[], dict[str, int]]) -> list[PredState]:
        pending = state.pending + (edge,)
        if not self.is_point(edge.succ):
            return [PredState(state.atoms, state.cubes, pending)]
        return self._abstract_at(PredState(state.atoms, state.cubes, pending), edge.succ, prec, known)

    def _known_facts(self, enc: SegmentEncoder, fn: str, known: Callable[[], dict[str, int]]) -> list[z3.BoolRef]:
        """The values pinned at the point as constraints on the frame's current terms."""
        vals = known()
        if not vals:
            return []
        th = self.th
        return [enc.read(v) == th.const(vals[v], th.type_of(v)) for v in self.frame_vars(fn) if v in vals]

    def _abstract_at(self, s: PredState, node: CFANode, prec: PredicatePrecision | None,
                     known: Callable[[], dict[str, int]]) -> list[PredState]:
        atoms = prec.atoms(node) if prec is not None else ()
        if not atoms and s.is_true:
            if not any(isinstance(e, AssumeEdge) for e in s.pending):
                return [PredState()]  # nothing to decide: no SMT call
            if self.lazy_checks and not (prec is not None and prec.checks_at(node)):
                return [PredState()]
        enc = self.encode_segment(s, "0")
        facts = self._known_facts(enc, node.function, known) if atoms else []
        r = self.abstract(enc.constraints + facts, atoms, enc.read)
        return [] if r is None else [r]

    def arg_terms(self, enc: SegmentEncoder, edge: CallEdge, callee: FunctionCFA) -> dict[str, z3.ExprRef]:
        """The call's arguments, converted to the parameters' types, in the caller's frame."""
        out = {}
        for p, a in zip(callee.params, edge.args):
            if not self.th.modelled(p) or not isinstance(a.type, IntType):
                continue
            v = enc.expr(a)
            pt = self.th.type_of(p)
            out[p] = enc.cast(v, a.type, pt) if a.type != pt else v
        return out

    def entry_terms(self, enc: SegmentEncoder, edge: CallEdge, callee: FunctionCFA) -> dict[str, z3.ExprRef]:
        """The callee's entry values (parameters, globals and their entry copies) in terms of the
        caller's frame ``enc``; the callee's other locals are unconstrained."""
        copies = self.copies.get(callee.name, frozenset())
        out: dict[str, z3.ExprRef] = {}
        for v, t in [*self.arg_terms(enc, edge, callee).items(), *((g, enc.read(g)) for g in self.globals)]:
            out[v] = t
            if v in copies:
                out[old(v)] = t
        return out

    def return_links(self, enc: SegmentEncoder, edge: CallEdge, callee: FunctionCFA,
                     x: Callable[[str], z3.ExprRef]) -> list[z3.BoolRef]:
        """Joins the caller's frame ``enc`` (at the call) with the callee's exit frame ``x``:
        returns the links between arguments and the callee's entry values, and continues
        ``enc`` after the call (the callee's globals, the result in the call's lhs)."""
        th = self.th
        copies = self.copies.get(callee.name, frozenset())
        links = [x(old(p) if p in copies else p) == v for p, v in self.arg_terms(enc, edge, callee).items()]
        links += [x(old(g) if g in copies else g) == enc.read(g) for g in self.globals]
        for g in self.globals:
            enc.write(g, x(g))
        lhs = edge.lhs
        if isinstance(lhs, Var) and th.modelled(lhs.name):
            rv = callee.result_var
            if rv is not None and th.modelled(rv):
                rt, lt = th.type_of(rv), th.type_of(lhs.name)
                enc.write(lhs.name, enc.cast(x(rv), rt, lt) if rt != lt else x(rv))
            else:
                enc.havoc(lhs.name)
        return links

    def call_entry(self, state: PredState, edge: CallEdge, callee: FunctionCFA,
                   prec: PredicatePrecision | None) -> list[PredState]:
        th = self.th
        atoms = prec.atoms(callee.entry) if prec is not None else ()
        if not atoms and state.is_true and not state.pending:
            return [PredState()]
        enc = self.encode_segment(state, "c")
        e_term = self.entry_terms(enc, edge, callee)
        r = self.abstract(enc.constraints, atoms, lambda v: e_term.get(v) if v in e_term else th.term(v, "e"))
        return [] if r is None else [r]

    def rebuild(self, call: PredState, entry: PredState, exit: PredState, block: Block, edge: CallEdge) -> RebuildState:
        return RebuildState(call, exit)

    def return_to(self, state: RebuildState, edge: CallEdge, callee: FunctionCFA,
                  prec: PredicatePrecision | None) -> list[PredState]:
        return self.return_to_known(state, edge, callee, prec, dict)

    def return_to_known(self, state: RebuildState, edge: CallEdge, callee: FunctionCFA,
                        prec: PredicatePrecision | None, known: Callable[[], dict[str, int]]) -> list[PredState]:
        th = self.th
        atoms = prec.atoms(edge.succ) if prec is not None else ()
        if not atoms and state.call.is_true and state.exit.is_true and not state.call.pending:
            return [PredState()]  # the links only define the callee's side: satisfiable
        enc = self.encode_segment(state.call, "c")

        def x(v: str) -> z3.ExprRef:  # the callee's frame at its exit
            return th.term(v, "x")
        extra = [self.psi(state.exit, x), *self.return_links(enc, edge, callee, x)]
        extra += self._known_facts(enc, edge.succ.function, known) if atoms else []
        r = self.abstract(enc.constraints + extra, atoms, enc.read)
        return [] if r is None else [r]

    # ---- BAM ------------------------------------------------------------------------------
    def reduce(self, state: PredState, block: Block, prec: Any) -> PredState:
        return state  # an entry state speaks of the callee's frame only

    def expand(self, entry: PredState, reduced_exit: PredState, block: Block) -> PredState:
        return reduced_exit  # rebuild restores the caller's context from the call state

    def precision_key(self, prec: PredicatePrecision | None, block: Block) -> Hashable:
        return None if prec is None else prec.key_for(block)

    # ---- presentation ------------------------------------------------------------------
    def formula_text(self, s: PredState, display) -> str:
        """The state as a C expression (DNF over its predicates)."""
        if s.is_true:
            return "true"
        cubes = []
        for c in sorted(s.cubes, key=repr):
            lits = [atom_to_c(a, display, negate=not b) for a, b in zip(s.atoms, c) if b is not None]
            cubes.append(" && ".join(lits) if lits else "true")
        if len(cubes) == 1:
            return cubes[0]
        return " || ".join(f"({c})" if "&&" in c else c for c in cubes)

    def summary_text(self, s: PredState) -> str:
        """What a summary shows: the literals every model agrees on, over the function's
        interface (parameters, result, globals, entry copies). A consequence of the state,
        not always all of it; an equality hides the inequalities over the same variables."""
        if s.is_true or not s.cubes:
            return "true"
        lits: set[tuple[Atom, bool]] | None = None
        for c in s.cubes:
            here = {(a, b) for a, b in zip(s.atoms, c) if b is not None and self._interface(a)}
            lits = here if lits is None else lits & here
        assert lits is not None
        eq_vars = [{v for v, _ in a[1]} for a, b in lits if a[0] == "==" and b]
        keep = [(a, b) for a, b in lits
                if not (a[0] == "<=" and any({v for v, _ in a[1]} <= vs for vs in eq_vars))]
        keep.sort(key=lambda lit: (lit[0][0] != "==", not lit[1], lit[0]))
        text = " && ".join(atom_to_c(a, _display, negate=not b) for a, b in keep)
        return text or "true"

    def _interface(self, a: Atom) -> bool:
        for v, _ in a[1]:
            info = self.program.vars.get(base_var(v))
            if info is None or not (info.is_global or info.is_param or info.is_result):
                return False
        return True

    def describe(self, state: Any) -> str:
        if isinstance(state, PredState):
            return self.formula_text(state, _display)
        return repr(state)

    def summary_facts(self, state: PredState) -> dict[str, Any]:
        text = self.summary_text(state)
        return {} if text == "true" else {FORMULA: text}

    def to_json(self, state: PredState) -> Any:
        if not isinstance(state, PredState) or state.pending:
            raise ValueError("only abstract states are stored")
        return {"predicates": [atom_to_json(a) for a in state.atoms],
                "cubes": sorted(([None if b is None else int(b) for b in c] for c in state.cubes), key=repr)}

    def from_json(self, data: Any) -> PredState:
        atoms = tuple(atom_from_json(a) for a in data["predicates"])
        cubes = frozenset(tuple(None if b is None else bool(b) for b in c) for c in data["cubes"])
        return PredState(atoms, cubes)


def _display(v: str) -> str:
    if v.endswith("::__retval"):
        return "\\result"
    return v.rsplit("::", 1)[-1]


def _writes(f: FunctionCFA) -> tuple[frozenset[str], bool]:
    """The variables a function's own edges assign, and whether it calls an external function
    that may write globals."""
    written: set[str] = set()
    ext = False
    for e in f.edges():
        if isinstance(e, AssignEdge) and isinstance(e.lhs, Var):
            written.add(e.lhs.name)
        elif isinstance(e, DeclEdge) and e.var is not None:
            written.add(e.var.name)
        elif isinstance(e, ReturnEdge) and e.result_var is not None:
            written.add(e.result_var.name)
        elif isinstance(e, ExternalCallEdge):
            if isinstance(e.lhs, Var):
                written.add(e.lhs.name)
            ext = ext or e.writes_globals
        elif isinstance(e, CallEdge) and isinstance(e.lhs, Var):
            written.add(e.lhs.name)
    return frozenset(written), ext


def frame_copies(program: Program, blocks: dict[str, Block], th: Theory) -> dict[str, frozenset[str]]:
    """Per function: the parameters its body assigns and the globals its block may write.
    Their entry values get copies ``x@old`` in the frame, which summaries can relate to."""
    own: dict[str, frozenset[str]] = {}
    havocs: dict[str, bool] = {}
    for f in program.all_functions():
        own[f.name], havocs[f.name] = f.derived(_writes)
    globals_ = [n for n, v in program.vars.items() if v.is_global and th.modelled(n)]
    out: dict[str, frozenset[str]] = {}
    for f in program.all_functions():
        block = blocks.get(f.name)
        fns: Iterable[str] = block.functions if block is not None else (f.name,)
        written = set().union(*(own.get(g, frozenset()) for g in fns))
        any_ext = any(havocs.get(g, False) for g in fns)
        cs = {p for p in f.params if p in own[f.name] and th.modelled(p)}
        cs |= {g for g in globals_ if any_ext or g in written}
        out[f.name] = frozenset(cs)
    return out


__all__ = ["PredicateCPA", "PredState", "PredicatePrecision", "abstraction_point", "frame_copies"]
