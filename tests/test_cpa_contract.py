"""The contract every registered analysis must keep, checked on states it really reaches.

States are sampled from BAM runs of small programs (calls, recursion, globals, branches, a loop,
a pointer write) under each precision the configuration's schedule tries and under the precision
a refinement learned. Each component CPA of each configuration, and the tests' sign domain,
must satisfy:

* ``is_less_or_equal`` is reflexive and transitive;
* ``join`` (where the domain has one) is an upper bound of its arguments;
* ``expand(e, reduce(e, B), B)`` is at least as precise as ``e`` at a block entry (reduce forgets
  only what expand puts back);
* a state survives the JSON round trip the persistent cache puts it through;
* the precision codec round-trips.

A new analysis is checked by registering it: the configurations are read from the registry.
"""

from __future__ import annotations

import itertools
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from cbam.engine.cache import keys
from cbam.engine.cache.store import CacheStore
from cbam.engine.cfa.callgraph import CallGraph
from cbam.engine.cfa.ir import CallEdge
from cbam.engine.core.bam import BAM
from cbam.engine.core.blocks import build_blocks
from cbam.engine.core.cpa import CPA
from cbam.engine.core.cpa_algorithm import Budget, BudgetExceeded
from cbam.engine.cpa import registry
from cbam.engine.verify import VerifyOptions, run_deep, verify_program

from tests.conftest import load_src
from tests.sign_analysis import SIGN

PROGRAMS = {
    "calls": """
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int g = 0;
int inc(int x) { g = g + 1; return x + 1; }
int sum(int n) { if (n <= 0) return 0; return n + sum(n - 1); }
int main(void) {
  int a = __VERIFIER_nondet_int();
  int b = 3;
  int *p = &b;
  if (a > 0 && a < 10) { b = inc(a); } else { b = inc(2); *p = 5; }
  int s = sum(3);
  int i = 0;
  while (i < 3) { i = inc(i); }
  if (s != 6) reach_error();
  if (a > 0 && a < 10 && b != a + 1) reach_error();
  return 0;
}
""",
    # Memory a block cannot reach (other, the older node) is left out of its reduced entry.
    "memory": """
extern void *malloc(unsigned long);
extern void reach_error(void);
struct node { int v; struct node *next; };
static void bump(struct node *n) { n->v = n->v + 1; }
static struct node *push(struct node *h, int v) {
  struct node *n = malloc(sizeof *n); n->v = v; n->next = h; return n;
}
int main(void) {
  int other[3] = {1, 2, 3};
  struct node *h = push(0, 1);
  struct node *first = h;
  h = push(0, 2);
  bump(h);
  other[0] = 7;
  bump(first);
  if (h->v != 3 || first->v != 2 || other[1] != 2) reach_error();
  return 0;
}
""",
    # Needs a refinement: the precision a run learns is sampled too.
    "refine": """
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int twice(int x) { return x + x; }
int main(void) {
  int n = __VERIFIER_nondet_int();
  int k = 0;
  if (n > 5) k = 1;
  int m = twice(n);
  if (k == 1 && m < 10) reach_error();
  return 0;
}
""",
}

CONFIGS = [*registry.CONFIGURATIONS, SIGN.name]
MAX_PAIRS = 400


@pytest.fixture
def config(request: pytest.FixtureRequest) -> Iterator[str]:
    name = request.param
    if name == SIGN.name:
        registry.register(SIGN)
    try:
        yield name
    finally:
        if name == SIGN.name:
            registry.unregister(SIGN.name)


def _precisions(found: list[registry.Analysis], learned: dict[str, Any], program) -> list[dict[str, Any]]:
    """Each phase of the schedule, and the learned precision where there is one."""
    steps = {a.name: [p for p, _ in a.precision.schedule(program)] for a in found if a.precision is not None}
    out = [{name: ps[min(i, len(ps) - 1)] for name, ps in steps.items()}
           for i in range(max((len(ps) for ps in steps.values()), default=1))]
    codecs = {a.name: a.precision for a in found if a.precision is not None}
    if learned:
        out.append({name: codecs[name].from_json(data) for name, data in learned.items()})
    return out


def _learned(config: str, program, path: Path, cache: Path) -> dict[str, Any]:
    store = CacheStore(str(cache))
    try:
        run_deep(lambda: verify_program(program, VerifyOptions(config=config, cache=store, timeout=30)))
        return store.get_precision(os.path.abspath(path), keys.precision_slot(config, "main")) or {}
    finally:
        store.close()


class Run:
    """What one program's BAM runs reached under one configuration."""

    def __init__(self, cpa, found: list[registry.Analysis]):
        self.cpa = cpa
        self.found = found
        self.states: list[tuple] = []
        self.calls: list[tuple[tuple, CallEdge, dict, Any]] = []  # caller state, edge, precision, block
        self.precisions: list[dict] = []
        self.cached: list[tuple] = []  # what the persistent cache stores: reduced entries and exits

    def components(self, states: list[tuple] | None = None) -> Iterator[tuple[int, CPA, list]]:
        for i, c in enumerate(self.cpa.components):
            yield i, c, list(dict.fromkeys(s[i] for s in (self.states if states is None else states)))


def _sample(config: str, tmp_path: Path) -> list[Run]:
    conf = registry.configuration(config)
    runs = []
    for name, text in PROGRAMS.items():
        program = load_src(text, tmp_path, f"{name}.c")
        blocks = build_blocks(program, CallGraph.of(program))
        cpa, found = registry.build(conf, program, blocks, "bv")
        run = Run(cpa, found)
        learned = _learned(config, program, tmp_path / f"{name}.c", tmp_path / f"cache-{name}")
        for prec in _precisions(found, learned, program):
            run.precisions.append(prec)
            bam = BAM(program, cpa, blocks, Budget(20.0))
            try:
                run_deep(lambda b=bam, p=prec: b.run(p))
            except BudgetExceeded:
                pass
            seen: set[int] = set()
            for key, res in bam.cache.items():
                run.cached.extend([key[1], *(x.state for x in res.exits)])
                for leaf in [res.root, *res.exits, *(t.state for t in res.targets)]:
                    node = leaf
                    while node is not None and node.id not in seen:
                        seen.add(node.id)
                        run.states.append(node.state)
                        if isinstance(node.edge, CallEdge) and node.parent is not None:
                            run.calls.append((node.parent.state, node.edge, prec, blocks[node.edge.callee]))
                        node = node.parent
        runs.append(run)
    assert sum(len(r.states) for r in runs) > 10 and any(r.calls for r in runs), \
        "the sample programs reach too little to check anything"
    return runs


@pytest.fixture
def runs(config: str, tmp_path: Path) -> list[Run]:
    return _sample(config, tmp_path)


def _pairs(items: list, limit: int = MAX_PAIRS) -> list[tuple]:
    pairs = list(itertools.product(items, repeat=2))
    step = max(1, len(pairs) // limit)
    return pairs[::step]


pytestmark = pytest.mark.parametrize("config", CONFIGS, indirect=True)


def test_less_or_equal_is_reflexive_and_transitive(runs: list[Run]) -> None:
    for run in runs:
        for _, c, distinct in run.components():
            for s in distinct:
                assert c.is_less_or_equal(s, s), f"{c.name}: {c.describe(s)} is not <= itself"
            by_id = {id(s): s for s in distinct}
            below = [(id(a), id(b)) for a, b in _pairs(distinct) if c.is_less_or_equal(a, b)]
            above: dict[int, list[int]] = {}
            for a, b in below:
                above.setdefault(a, []).append(b)
            for a, b in below[:MAX_PAIRS]:
                for y in above.get(b, [])[:20]:
                    assert c.is_less_or_equal(by_id[a], by_id[y]), \
                        f"{c.name}: {c.describe(by_id[a])} <= {c.describe(by_id[b])} <= {c.describe(by_id[y])}"


def test_join_is_an_upper_bound(runs: list[Run]) -> None:
    checked = 0
    for run in runs:
        for _, c, distinct in run.components():
            if type(c).join is CPA.join:
                continue  # no join: merge-sep only
            for a, b in _pairs(distinct):
                try:
                    j = c.join(a, b)
                except ValueError:
                    continue  # the location domain joins only equal locations
                assert c.is_less_or_equal(a, j) and c.is_less_or_equal(b, j), \
                    f"{c.name}: join({c.describe(a)}, {c.describe(b)}) = {c.describe(j)} is not above both"
                checked += 1
    assert checked > 0


def test_expand_after_reduce_is_at_least_as_precise(runs: list[Run]) -> None:
    checked = 0
    for run in runs:
        for caller, edge, prec, block in run.calls[:200]:
            for entry in run.cpa.call_entry(caller, edge, block.function, prec):
                for c, e in zip(run.cpa.components, entry):
                    x = c.expand(e, c.reduce(e, block, prec.get(c.name)), block)
                    assert c.is_less_or_equal(x, e), \
                        f"{c.name}: expand(e, reduce(e)) = {c.describe(x)} is less precise than e = {c.describe(e)}"
                    checked += 1
    assert checked > 0


def test_cached_states_survive_the_json_round_trip(runs: list[Run]) -> None:
    assert any(r.cached for r in runs)
    for run in runs:
        for _, c, distinct in run.components(run.cached):
            for s in distinct:
                data = json.loads(json.dumps(c.to_json(s)))
                back = c.from_json(data)
                assert c.is_less_or_equal(back, s) and c.is_less_or_equal(s, back), \
                    f"{c.name}: {c.describe(s)} came back as {c.describe(back)}"
                assert c.to_json(back) == data


def test_the_precision_codec_round_trips(runs: list[Run]) -> None:
    checked = 0
    for run in runs:
        for prec in run.precisions:
            for a in run.found:
                if a.precision is not None:
                    data = json.loads(json.dumps(a.precision.to_json(prec[a.name])))
                    assert a.precision.to_json(a.precision.from_json(data)) == data, a.name
                    checked += 1
    if any(a.precision is not None for r in runs for a in r.found):
        assert checked > 0
