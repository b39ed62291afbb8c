"""The call graph and its strongly connected components (recursion)."""

from __future__ import annotations

from dataclasses import dataclass, field

from .cfa import Program


@dataclass
class CallGraph:
    """Who calls whom, with the recursive components."""

    callees: dict[str, set[str]]
    sccs: list[list[str]] = field(default_factory=list)  # callees before callers
    scc_of: dict[str, int] = field(default_factory=dict)
    # reachable's answers: the graph does not change once built, and BAM's blocks, the cache's
    # keys and validity all ask for every function's.
    _reach: dict[str, frozenset[str]] = field(default_factory=dict, repr=False, compare=False)

    @staticmethod
    def of(program: Program) -> CallGraph:
        callees = {f.name: set(f.calls) for f in program.all_functions()}
        cg = CallGraph(callees)
        cg.sccs = tarjan(callees)
        cg.scc_of = {f: i for i, comp in enumerate(cg.sccs) for f in comp}
        return cg

    def is_recursive(self, fn: str) -> bool:
        comp = self.sccs[self.scc_of[fn]]
        return len(comp) > 1 or fn in self.callees.get(fn, set())

    def recursive_functions(self) -> set[str]:
        return {f for f in self.callees if self.is_recursive(f)}

    def reachable(self, root: str) -> frozenset[str]:
        hit = self._reach.get(root)
        if hit is None:
            hit = self._reach[root] = frozenset(self._reachable(root))
        return hit

    def _reachable(self, root: str) -> set[str]:
        seen = {root}
        stack = [root]
        while stack:
            f = stack.pop()
            for g in self.callees.get(f, ()):
                if g not in seen:
                    seen.add(g)
                    stack.append(g)
        return seen


def tarjan(graph: dict[str, set[str]]) -> list[list[str]]:
    """Iterative Tarjan: SCCs in reverse topological order (a callee's SCC before its callers')."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    result: list[list[str]] = []
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work: list[tuple[str, list[str]]] = [(root, sorted(graph.get(root, ())))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            v, succs = work[-1]
            if succs:
                w = succs.pop(0)
                if w not in graph:
                    continue
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, sorted(graph.get(w, ()))))
                elif w in on_stack:
                    low[v] = min(low[v], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    comp = []
                    while True:
                        w = stack.pop()
                        on_stack.discard(w)
                        comp.append(w)
                        if w == v:
                            break
                    result.append(sorted(comp))
    return result
