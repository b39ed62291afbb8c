"""The summary cache with memory: a pointer-taking function is edited, and the cached run must
give what a fresh run gives, in both modes, while an edit elsewhere still reuses its summary
(persistent keys, early cutoff) and a FALSE's certificate (first-violation mode) or chain
(the editor's mode) still re-validates. A struct layout change, invisible in the text of the
functions that use the struct, must not let a stale summary through."""

from __future__ import annotations

from pathlib import Path

import pytest
from cbam.engine.cache.store import CacheStore
from cbam.engine.cfa.load import load_program
from cbam.engine.frontend.preprocess import PreprocessOptions
from cbam.engine.verify import VerifyOptions, run_deep, verify_program

from .conftest import assert_replay_reaches_error, check_error_path

EDITOR = {"max_violations": 20, "extra_search_after_violation": 5.0}

BASE = """#include <assert.h>
#include <stdlib.h>
struct acc { int total; int count; };
static void add(struct acc *a, int v) { a->total += v; a->count += 1; }
static int other(int x) { return x * 2; }
int main(void) {
  struct acc *a = malloc(sizeof *a);
  a->total = 0; a->count = 0;
  add(a, 3);
  add(a, 4);
  assert(a->count == 2);
  assert(a->total == 7);
  assert(other(2) == 4);
  free(a);
  return 0;
}
"""


def run(src: str, path: Path, store, **opts):
    path.write_text(src)
    program = load_program(str(path), options=PreprocessOptions(data_model="LP64"))
    return run_deep(lambda: verify_program(program, VerifyOptions(cache=store, timeout=60, **opts)))


def observe(r) -> tuple:
    return r.verdict, tuple((v.range.line, v.kind) for v in r.violations)


EDITS = [
    ("the pointer function's effect", "a->total += v;", "a->total += v + 1;"),  # TRUE -> FALSE
    ("the pointer function, nothing that matters", "a->count += 1;", "a->count = a->count + 1;"),
    ("a function without pointers", "return x * 2;", "return x + x;"),
    ("the pointer function, a second field", "a->count += 1;", "a->count += 2;"),
]


@pytest.mark.parametrize("mode", ["first", "editor"])
def test_edits_of_a_pointer_taking_function_give_the_fresh_answer(tmp_path: Path, mode: str):
    opts = EDITOR if mode == "editor" else {}
    store = CacheStore(tmp_path / "cache")
    try:
        first = run(BASE, tmp_path / "p.c", store, **opts)
        assert first.verdict == "TRUE"
        src = BASE
        for _what, old, new in EDITS:
            src = src.replace(old, new)
            cached = run(src, tmp_path / "p.c", store, **opts)
            fresh = run(src, tmp_path / "fresh.c", None, **opts)
            assert observe(cached) == observe(fresh), f"after editing {_what}"
            if fresh.verdict == "FALSE":
                check_error_path(cached)
                assert_replay_reaches_error(tmp_path / "p.c", cached, "LP64", tmp_path)
    finally:
        store.close()


def test_an_edit_elsewhere_reuses_the_pointer_functions_summary(tmp_path: Path):
    store = CacheStore(tmp_path / "cache")
    try:
        run(BASE, tmp_path / "p.c", store)
        again = run(BASE.replace("return x * 2;", "return x + x;"), tmp_path / "p.c", store)
        assert again.verdict == "TRUE"
        assert again.statistics.summary_hits > 0  # add's summaries came from the cache
    finally:
        store.close()


def test_a_false_is_certified_and_revalidated_after_an_edit_elsewhere(tmp_path: Path):
    failing = BASE.replace("a->total += v;", "a->total += v + 1;")
    store = CacheStore(tmp_path / "cache")
    try:
        first = run(failing, tmp_path / "p.c", store)
        assert observe(first) == ("FALSE", ((12, "assert"),))
        second = run(failing.replace("return x * 2;", "return x + x;"), tmp_path / "p.c", store)
        fresh = run(failing.replace("return x * 2;", "return x + x;"), tmp_path / "fresh.c", None)
        assert observe(second) == observe(fresh)
        assert_replay_reaches_error(tmp_path / "p.c", second, "LP64", tmp_path)
        fixed = run(BASE, tmp_path / "p.c", store)  # the pointer function fixed: the certificate fails
        assert fixed.verdict == "TRUE"
    finally:
        store.close()


def test_a_struct_layout_change_is_not_served_from_the_cache(tmp_path: Path):
    """add's text is the same; its member offsets are not."""
    store = CacheStore(tmp_path / "cache")
    try:
        before = BASE.replace("assert(a->total == 7);", "assert(((int *)a)[0] == 7);")
        assert run(before, tmp_path / "p.c", store).verdict == "TRUE"
        after = before.replace("struct acc { int total; int count; };", "struct acc { int count; int total; };")
        cached = run(after, tmp_path / "p.c", store)
        fresh = run(after, tmp_path / "fresh.c", None)
        assert fresh.verdict != "TRUE"
        assert observe(cached) == observe(fresh)
    finally:
        store.close()
