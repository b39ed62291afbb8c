"""BAM with memory (the memory issue, item 5): a block's reduced entry keeps the memory the block
can reach (the objects its parameters and the globals it mentions point to, transitively), so a
summary of a pointer-taking function is reused by every call whose reachable memory agrees;
expand gives the caller the rest back, unless the block may have written beyond what it could
reach. Persistent keys, early cutoff and certificates follow (an edited pointer-taking function)."""

from __future__ import annotations

from pathlib import Path

import pytest
from cbam.engine.cache.store import CacheStore
from cbam.engine.cfa.callgraph import CallGraph
from cbam.engine.cfa.load import load_program
from cbam.engine.core.blocks import build_blocks
from cbam.engine.cpa import registry
from cbam.engine.cpa.value import memory as mem
from cbam.engine.cpa.value.cpa import ValueState
from cbam.engine.frontend.preprocess import PreprocessOptions
from cbam.engine.verify import VerifyOptions, run_deep, verify_program

from .conftest import assert_replay_reaches_error, check_error_path, load_src

VALUE_ONLY = {"config": "value", "path_exploration": False, "horn": False}

# ``total`` reads only ``data``: its eight calls differ only in ``log``, which it cannot reach.
SUMS = """#include <assert.h>
static int total(const int *a, int n) {
  int s = 0;
  for (int i = 0; i < n; i++) s += a[i];
  return s;
}
int main(void) {
  int data[4] = {1, 2, 3, 4};
  int log[8] = {0};
  for (int k = 0; k < 8; k++) log[k] = total(data, 4);
  assert(log[0] == 10 && log[7] == 10);
  return 0;
}
"""


def _verify(code: str, tmp_path: Path, name: str = "prog.c", **kw):
    program = load_src(code, tmp_path, name)
    return run_deep(lambda: verify_program(program, VerifyOptions(timeout=60, **kw)))


# ``add`` writes through its pointer, and ``other`` has its address taken: still out of add's reach.
ADDS = """#include <assert.h>
static void add(int *acc, int v) { *acc += v; }
int main(void) {
  int total = 0, other = 0;
  int *po = &other;
  for (int k = 0; k < 8; k++) { add(&total, 0); *po = k; }
  assert(total == 0 && other == 7);
  return 0;
}
"""


@pytest.mark.parametrize("code", [SUMS, ADDS], ids=["reads", "writes"])
def test_a_pointer_functions_summary_serves_calls_that_differ_only_in_memory_it_cannot_reach(
        tmp_path: Path, code: str) -> None:
    r = _verify(code, tmp_path, **VALUE_ONLY)
    assert r.verdict == "TRUE", r.reason
    # One analysis of total (beside the program's start and main); the seven later calls hit it.
    assert r.statistics.blocks_analysed <= 3
    assert r.statistics.cache_hits >= 7


def _states(code: str, tmp_path: Path):
    program = load_src(code, tmp_path)
    blocks = build_blocks(program, CallGraph.of(program))
    cpa, _ = registry.build(registry.configuration("value"), program, blocks, "bv")
    [value] = [c for c in cpa.components if c.name == "value"] if hasattr(cpa, "components") else [cpa]
    return program, blocks, value


def test_reduce_keeps_what_the_block_reaches_and_expand_restores_the_rest(tmp_path: Path) -> None:
    program, blocks, value = _states(SUMS, tmp_path)
    block = blocks["total"]
    [a] = [p for p in program.functions["total"].params if "a" in p.split("::")[-1]]
    [n] = [p for p in program.functions["total"].params if p != a]
    data = next(o for o in value.memory.objects if o.endswith("data"))
    log = next(o for o in value.memory.objects if o.endswith("log"))
    entry = {a: mem.Ptr(data, 0), n: 4, mem.cell(data, 0, 4): 1, mem.cell(data, 4, 4): 2,
             mem.cell(log, 0, 4): 10, mem.zero_key(log): mem.Zero(frozenset({(0, 4)}))}
    reduced = value.reduce(ValueState(entry), block, None)
    assert mem.cell(log, 0, 4) not in reduced.m and mem.zero_key(log) not in reduced.m
    assert reduced.m[mem.cell(data, 4, 4)] == 2 and reduced.m[mem.INTACT] == mem.INTACT_VALUE
    # Another call with other contents of log has the same reduced entry: the same summary.
    other = dict(entry)
    other[mem.cell(log, 0, 4)] = 7
    assert value.reduce(ValueState(other), block, None) == reduced

    expanded = value.expand(ValueState(entry), reduced, block)
    assert expanded.m[mem.cell(log, 0, 4)] == 10  # the block could not touch it
    # A write through an unknown pointer in the block (View.forget_all) loses the fact that
    # the rest is untouched: the caller's other memory does not come back.
    view = value.memory.view(dict(reduced.m))
    view.forget_all()
    assert mem.INTACT not in view.m
    clobbered = value.expand(ValueState(entry), ValueState(view.m), block)
    assert mem.cell(log, 0, 4) not in clobbered.m and mem.zero_key(log) not in clobbered.m
    assert mem.INTACT not in clobbered.m


@pytest.mark.parametrize(("callee", "verdict"), [
    ("static void poke(int *p) { *p = 5; }", "TRUE"),  # a write to what it was given
    # through a pointer from nowhere: it may be anywhere, buf included
    ("extern int *where(void);\nstatic void poke(int *p) { int *q = where(); *q = 5; *p = 5; }", "UNKNOWN"),
    # out of bounds of what it was given (undefined): no TRUE may rely on buf being untouched
    ("static void poke(int *p) { p[1] = 5; *p = 5; }", "UNKNOWN"),
])
def test_memory_beyond_the_blocks_reach_comes_back_only_if_untouched(tmp_path: Path, callee: str,
                                                                    verdict: str) -> None:
    code = f"""#include <assert.h>
{callee}
int main(void) {{
  int buf[2] = {{1, 2}};
  int z = 0;
  poke(&z);
  assert(buf[0] == 1 && buf[1] == 2 && z == 5);
  return 0;
}}
"""
    r = _verify(code, tmp_path, **VALUE_ONLY)
    assert r.verdict == verdict, r.reason


def _run(src: str, path: Path, store: CacheStore, **opts):
    path.write_text(src)
    program = load_program(str(path), options=PreprocessOptions(data_model="LP64"))
    return run_deep(lambda: verify_program(program, VerifyOptions(cache=store, timeout=60, **opts)))


EDITS = [
    ("a loop bound (reads past the end: undefined)", "i < n; i++", "i <= n; i++"),  # TRUE -> not TRUE
    ("an element's weight", "s += a[i];", "s += 2 * a[i];"),  # TRUE -> FALSE
    ("nothing that matters", "s += a[i];", "s = s + a[i];"),
]


@pytest.mark.parametrize(("what", "old", "new"), EDITS, ids=[e[0] for e in EDITS])
def test_an_edited_pointer_function_is_reanalysed_and_agrees_with_a_fresh_run(tmp_path: Path, what: str,
                                                                           old: str, new: str) -> None:
    store = CacheStore(str(tmp_path / "cache"))
    path = tmp_path / "sums.c"
    try:
        first = _run(SUMS, path, store)
        assert first.verdict == "TRUE"
        edited = SUMS.replace(old, new)
        cached = _run(edited, path, store)
        fresh_store = CacheStore(str(tmp_path / "fresh"))
        try:
            fresh = _run(edited, path, fresh_store)
        finally:
            fresh_store.close()
        assert (cached.verdict, [v.range.line for v in cached.violations]) == \
               (fresh.verdict, [v.range.line for v in fresh.violations]), what
        if cached.verdict == "FALSE":
            check_error_path(cached)
            assert_replay_reaches_error(path, cached, "LP64", tmp_path)
            # The certificate re-validates: an unchanged re-run answers from the cache.
            again = _run(edited, path, store)
            assert again.verdict == "FALSE" and again.source == "cache"
    finally:
        store.close()


def test_an_edit_of_the_caller_reuses_the_pointer_functions_summary(tmp_path: Path) -> None:
    store = CacheStore(str(tmp_path / "cache"))
    path = tmp_path / "sums.c"
    try:
        _run(SUMS, path, store)
        # main's edit changes log, which total cannot reach: total's stored summary serves.
        r = _run(SUMS.replace("log[k] = total(data, 4);", "log[k] = total(data, 4) + 0;"), path, store)
        assert r.verdict == "TRUE"
        assert r.statistics.summary_hits >= 1
    finally:
        store.close()
