"""Predicate refinement: tree interpolants for an infeasible error path, without z3's
(removed) interpolation API.

The path becomes a tree of relations (Friedberger 2015, §4.5.4–4.5.6): one node per abstraction
point the path passes; a call that returns gives a *merge* node at the return site whose
children are the caller's node at the call and the callee's node at its exit, and the
callee's body starts from a leaf (its entry interpolant is ``true``, so entry abstractions
stay coarse and block summaries get reused). A call the path never leaves is simply
chained. Each relation ranges over its frame's variables only, so every interpolant is
well scoped: no variable occurs at two SSA indices, the failure mode of sequential
interpolation under recursion.

The tree is a set of non-recursive Horn clauses; z3's Spacer engine solves it, and its
solution is a tree interpolant (``I(root) = false``, ``AND I(children) & label => I(node)``).
Spacer's solution is close to the strongest one and tends to enumerate concrete
values; so for every node the weakest interpolant (the negated projection of the rest
of the tree, by quantifier elimination) contributes its atoms as well. Those generalise:
for ``sum`` it yields ``\\result == n + m``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import z3

from ...cfa.cfa import Program
from ...cfa.ir import CallEdge, CFANode, Var
from ...core.path import ErrorPath
from ...smt.solving import conj, solver_watchdog, subterms
from ...smt.terms import add_rule, definitions, uninterpreted_consts
from ...smt.time_limit import solver_timeout
from .atoms import Atom, atom_vars, atoms_of
from .cpa import PredicateCPA, PredicatePrecision
from .formula import MachineEncoder, SegmentEncoder, Theory, old
from .invariants import LoopInvariants

MAX_TREE_NODES = 400
QE_NODES = 120  # weakest interpolants only for trees up to this size (one QE per node)
WEAK_ATOMS = 6  # atoms taken per node from a weakest interpolant
WEAK_CONST = 1 << 16
QE_SECONDS = 3.0  # per refinement, to eliminate the quantifiers of Spacer's interpolants


@dataclass(eq=False)
class TNode:
    fn: str
    location: CFANode
    names: list[str]
    args: list[z3.ExprRef]
    label: list[z3.BoolRef] = field(default_factory=list)
    children: list[TNode] = field(default_factory=list)


class _Frame:
    def __init__(self, fn: str, cur: TNode, th: Theory, encoder: type[SegmentEncoder] = SegmentEncoder):
        self.fn = fn
        self.cur = cur
        self.th = th
        self.encoder = encoder
        self.enc = self._enc()

    def _enc(self) -> SegmentEncoder:
        m = dict(zip(self.cur.names, self.cur.args))
        th = self.th
        return self.encoder(th, lambda v: m[v] if v in m else th.fresh(th.type_of(v), v))


class TreeBuilder:
    """``encoder``: SegmentEncoder (unbounded integers: a signed overflow cannot happen) or
    MachineEncoder (it gives an arbitrary value, as in the bit-vector abstraction)."""

    def __init__(self, program: Program, cpa: PredicateCPA, theory: Theory,
                 encoder: type[SegmentEncoder] = SegmentEncoder):
        self.program = program
        self.cpa = cpa
        self.th = theory
        self.encoder = encoder
        self.count = 0
        self.nodes: list[TNode] = []

    def _node(self, fn: str, location: CFANode) -> TNode:
        names = self.cpa.frame_vars(fn)
        self.count += 1
        args = [z3.Const(f"{v}!n{self.count}", self.th.sort(self.th.type_of(v))) for v in names]
        n = TNode(fn, location, names, args)
        self.nodes.append(n)
        if len(self.nodes) > MAX_TREE_NODES:
            raise _TooLarge()
        return n

    def _close(self, fr: _Frame, location: CFANode, extra_children: Sequence[TNode] = (),
               extra: Sequence[z3.BoolRef] = ()) -> None:
        n = self._node(fr.fn, location)
        n.children = [fr.cur, *extra_children]
        n.label = list(fr.enc.constraints) + list(extra)
        n.label += [a == fr.enc.read(v) for v, a in zip(n.names, n.args)]
        fr.cur = n
        fr.enc = fr._enc()

    def build(self, path: ErrorPath) -> TNode:
        program, cpa, th = self.program, self.cpa, self.th
        steps = path.steps
        returns: set[int] = set()
        stack: list[int] = []
        for i, st in enumerate(steps):
            if st.kind == "call":
                stack.append(i)
            elif st.kind == "return":
                returns.add(stack.pop())
        start_fn = program.start.name
        frames = [_Frame(start_fn, self._node(start_fn, program.start.entry), th, self.encoder)]
        globals_ = cpa.globals
        for i, st in enumerate(steps):
            fr = frames[-1]
            e = st.edge
            if st.kind == "op":
                fr.enc.edge(e, lambda: globals_)
                if cpa.is_point(e.succ):
                    self._close(fr, e.succ)
                continue
            assert isinstance(e, CallEdge)
            callee = program.functions[e.callee]
            copies = cpa.copies.get(callee.name, frozenset())
            if st.kind == "summary":
                assert st.summary is not None
                args = cpa.arg_terms(fr.enc, e, callee)
                for p, v in st.summary["params"].items():
                    if p in args:
                        fr.enc.constraints.append(args[p] == th.const(v, th.type_of(p)))
                for name, v in st.summary["outputs"].items():
                    if name != callee.result_var and th.modelled(name):
                        fr.enc.write(name, th.const(v, th.type_of(name)))
                    elif name == callee.result_var and isinstance(e.lhs, Var) and th.modelled(e.lhs.name):
                        fr.enc.write(e.lhs.name, th.const(v, th.type_of(e.lhs.name)))
                if cpa.is_point(e.succ):
                    self._close(fr, e.succ)
                continue
            if st.kind == "call":
                entry = self._node(callee.name, callee.entry)
                m = dict(zip(entry.names, entry.args))
                if i in returns:
                    # A leaf: the body is interpolated on its own; the caller's frame stays at
                    # the call and joins the callee's exit at the return site.
                    copies = cpa.copies.get(callee.name, frozenset())
                    entry.label = [m[old(v)] == m[v] for v in copies]
                else:
                    entry.children = [fr.cur]
                    terms = cpa.entry_terms(fr.enc, e, callee)
                    entry.label = list(fr.enc.constraints) + [m[v] == t for v, t in terms.items()]
                frames.append(_Frame(callee.name, entry, th, self.encoder))
                continue
            # return
            callee_fr = frames.pop()
            caller = frames[-1]
            if callee_fr.enc.constraints or callee_fr.enc.ssa:
                self._close(callee_fr, callee.exit)
            exit_node = callee_fr.cur
            x = dict(zip(exit_node.names, exit_node.args))
            links = cpa.return_links(caller.enc, e, callee, x.__getitem__)
            self._close(caller, e.succ, [exit_node], links)
        last = frames[-1]
        if last.enc.constraints or last.enc.ssa or last.cur.location is not path.error_node:
            self._close(last, path.error_node)
        return last.cur


class _TooLarge(Exception):
    pass


def _post_order(root: TNode) -> list[TNode]:
    out: list[TNode] = []
    todo: list[tuple[TNode, bool]] = [(root, False)]
    while todo:
        n, done = todo.pop()
        if done:
            out.append(n)
            continue
        todo.append((n, True))
        todo.extend((c, False) for c in n.children)
    return out


def spacer_interpolants(root: TNode, timeout_ms: int) -> dict[int, z3.BoolRef] | None:
    """Tree interpolants (over each node's args), or None if the tree is satisfiable or Spacer fails."""
    nodes = _post_order(root)
    # A context of its own, as horn._spacer_once explains: the same tree, the same search,
    # whatever terms the process built before.
    ctx = z3.Context()
    fp = z3.Fixedpoint(ctx=ctx)
    fp.set(engine="spacer")
    ms = solver_timeout(timeout_ms)
    start = time.monotonic()
    rels: dict[int, z3.FuncDeclRef] = {}
    args: dict[int, list[z3.ExprRef]] = {}
    for i, n in enumerate(nodes):
        args[id(n)] = [a.translate(ctx) for a in n.args]
        rels[id(n)] = z3.Function(f"R{i}", *[a.sort() for a in args[id(n)]], z3.BoolSort(ctx))
        fp.register_relation(rels[id(n)])
    for n in nodes:
        if time.monotonic() - start > ms / 1000:  # building the clauses counts against the limit
            return None
        label = [f.translate(ctx) for f in n.label]
        body = [rels[id(c)](*args[id(c)]) for c in n.children] + label
        head = rels[id(n)](*args[id(n)])
        vs = set(args[id(n)]) | {a for c in n.children for a in args[id(c)]}
        for f in label:
            vs |= uninterpreted_consts(f)
        add_rule(fp, head, body, sorted(vs, key=lambda v: v.decl().name()))  # str() pretty-prints: slow
    ms = max(1, ms - int(1000 * (time.monotonic() - start)))
    fp.set("timeout", ms)
    if root.args:  # the query's variables (declared after the rules, they bind in the query alone)
        fp.declare_var(*args[id(root)])
    token = solver_watchdog.arm(fp.ctx, time.monotonic() + ms / 1000 + 0.05)
    try:
        r = fp.query(rels[id(root)](*args[id(root)]))
    except z3.Z3Exception:
        return None
    finally:
        solver_watchdog.disarm(token)
    if r != z3.unsat:
        return None
    by_name = {rels[id(n)].name(): n for n in nodes}
    got = definitions(fp.get_answer(), {name: args[id(n)] for name, n in by_name.items()})
    home = z3.main_ctx()
    got = {name: f.translate(home) for name, f in got.items()}
    return {id(by_name[name]): f for name, f in got.items()}


def _exists(variables: list[z3.ExprRef], body: z3.BoolRef) -> z3.BoolRef:
    """``z3.Exists`` without its per-variable checks in Python (5.7 s of token_ring.01's 60)."""
    ctx = body.ctx
    bound = (z3.Ast * len(variables))(*(v.as_ast() for v in variables))
    return z3.QuantifierRef(z3.Z3_mk_exists_const(ctx.ref(), 1, len(variables), bound, 0, None, body.as_ast()), ctx)


def weakest_interpolants(root: TNode, timeout_ms: int, check: Callable[[], None]) -> dict[int, z3.BoolRef]:
    """For each node: NOT (exists non-shared. the rest of the tree), by quantifier elimination."""
    nodes = _post_order(root)
    below: dict[int, set[int]] = {}
    for n in nodes:
        s = {id(n)}
        for c in n.children:
            s |= below[id(c)]
        below[id(n)] = s
    out: dict[int, z3.BoolRef] = {}
    qe = z3.TryFor(z3.Then(z3.Tactic("simplify"), z3.Tactic("qe"), z3.Tactic("simplify")), solver_timeout(timeout_ms))
    # Each node's constants once: the rest of the tree differs from node to node, its labels do
    # not (walking the whole rest per node cost token_ring.01 18 s of a refinement).
    consts = {id(m): {c.get_id(): c for c in uninterpreted_consts(*m.label)} for m in nodes}
    for n in nodes:
        if n is root:
            continue
        check()
        others = [m for m in nodes if id(m) not in below[id(n)]]
        rest = [lab for m in others for lab in m.label]
        if not rest:
            out[id(n)] = z3.BoolVal(False)  # nothing outside this subtree: no state is excluded
            continue
        shared = {a.get_id() for a in n.args}
        local = list({i: c for m in others for i, c in consts[id(m)].items() if i not in shared}.values())
        body = conj(rest)
        f = _exists(local, body) if local else body
        try:
            goals = qe(f)
        except z3.Z3Exception:
            continue
        proj = z3.Or([g.as_expr() for g in goals])
        out[id(n)] = z3.Not(proj)
    return out


def _quantifier_free(f: z3.BoolRef, timeout_ms: int) -> z3.BoolRef:
    """``f`` without the existential quantifiers Spacer's interpolants may keep (over locals of
    the rest of the tree): eliminated, the relations they imply become atoms too (token_ring's
    ``token == local`` was only under a quantifier, and refinement stopped without it)."""
    if timeout_ms <= 0 or not _has_quantifier(f):
        return f
    qe = z3.TryFor(z3.Then(z3.Tactic("simplify"), z3.Tactic("qe"), z3.Tactic("simplify")), solver_timeout(timeout_ms))
    try:
        goals = qe(f)
    except z3.Z3Exception:
        return f  # atoms_of still reads the atoms over free variables under the quantifier
    return z3.Or([g.as_expr() for g in goals])


def _has_quantifier(f: z3.ExprRef) -> bool:
    return any(z3.is_quantifier(t) for t in subterms(f, into=lambda t: z3.is_app(t) and z3.is_bool(t)))


def _type_bound(a: Atom, th: Theory) -> bool:
    """``x <= UINT_MAX``-style atoms: true of every machine value, useless as predicates."""
    op, items, k = a
    if op != "<=" or len(items) != 1 or abs(items[0][1]) != 1:
        return False
    t = th.type_of(items[0][0])
    return (items[0][1] == 1 and k >= t.max) or (items[0][1] == -1 and -k <= t.min)


class PredicateRefiner:
    """Adds the atoms of tree interpolants of the (integer) path formula at their locations."""

    def __init__(self, cpa: PredicateCPA, timeout_ms: int = 20_000):
        self.cpa = cpa
        self.timeout_ms = timeout_ms
        self.last_atoms: dict[tuple[str, int], set[Atom]] = {}
        self._invariants: LoopInvariants | None = None

    def refine(self, program: Program, path: ErrorPath, precision: dict,
               check: Callable[[], None]) -> tuple[dict | None, str]:
        prec: PredicatePrecision = precision.get("predicate") or PredicatePrecision()
        got = self._atoms(program, path, check, SegmentEncoder)
        if isinstance(got, str):
            return None, got
        new, checks = got
        finer = prec.with_atoms(new, checks)
        if finer is None:
            # The integer tree has no signed overflow, the bit-vector abstraction has it as an
            # arbitrary value: its atoms may not exclude the path where an increment overflows
            # (token_ring's token += 1 in a summary that holds for any entry). Interpolants
            # of the machine-integer reading carry the bounds that keep the operations exact.
            again = self._atoms(program, path, check, MachineEncoder, weak=False)
            if not isinstance(again, str):
                for k, v in again[0].items():
                    new.setdefault(k, set()).update(v)
                checks |= again[1]
                finer = prec.with_atoms(new, checks)
        self.last_atoms = new
        if finer is None:
            return None, "interpolation found no new predicates for this error path"
        out = dict(precision)
        out["predicate"] = finer
        return out, ""

    def _atoms(self, program: Program, path: ErrorPath, check: Callable[[], None], encoder: type[SegmentEncoder],
               weak: bool = True) -> tuple[dict[tuple[str, int], set[Atom]], set[tuple[str, int]]] | str:
        """The atoms of the path's tree interpolants per location, and the locations whose
        interpolant is false; or why there are none."""
        th = Theory(program, "lia")
        tb = TreeBuilder(program, self.cpa, th, encoder)
        try:
            root = tb.build(path)
        except _TooLarge:
            return f"the error path is too long for predicate refinement (over {MAX_TREE_NODES} abstraction points)"
        except (TypeError, KeyError) as exc:
            return f"the error path cannot be encoded for interpolation ({exc})"
        check()
        strong = spacer_interpolants(root, self.timeout_ms)
        if strong is None:
            return ("the error path is infeasible only with machine-integer semantics (wrap-around "
                    "or bit operations); integer interpolation found no predicates")
        weak_itp = weakest_interpolants(root, max(500, self.timeout_ms // 10), check) \
            if weak and len(tb.nodes) <= QE_NODES else {}
        new: dict[tuple[str, int], set[Atom]] = {}
        checks: set[tuple[str, int]] = set()
        qe_until = time.monotonic() + QE_SECONDS
        for n in tb.nodes:
            s = strong.get(id(n))
            if s is not None and z3.is_false(z3.simplify(s)):
                checks.add((n.location.function, n.location.canon))
            names = {a.get_id(): v for v, a in zip(n.names, n.args)}

            def name_of(t: z3.ExprRef, names=names) -> str | None:
                return names.get(t.get_id())
            frame = set(n.names)
            atoms: set[Atom] = set()
            src = strong.get(id(n))
            if src is not None:
                src = _quantifier_free(src, int(1000 * (qe_until - time.monotonic())))
                atoms |= {a for a in atoms_of(src, name_of) if atom_vars(a) <= frame and not _type_bound(a, th)}
            src = weak_itp.get(id(n))
            if src is not None:
                # Quantifier elimination also yields case splits of the overflow encoding
                # (huge constants); only a few small atoms are worth tracking.
                extra = [a for a in atoms_of(src, name_of) - atoms
                         if atom_vars(a) <= frame and abs(a[2]) < WEAK_CONST and not _type_bound(a, th)]
                extra.sort(key=lambda a: (a[0] != "==", len(a[1]), abs(a[2]), a))
                atoms.update(extra[:WEAK_ATOMS])
            if n.location.loop_head:
                # What an unrolled path cannot state: the loop's affine invariants (candidates).
                if self._invariants is None or self._invariants.program is not program:
                    self._invariants = LoopInvariants(program)
                atoms |= {a for a in self._invariants.at(n.location.function, n.location.canon)
                          if atom_vars(a) <= frame}
            if atoms:
                new.setdefault((n.location.function, n.location.canon), set()).update(atoms)
        return new, checks
