"""Every cache key comes from engine/cache/keys.py, and it is made of exactly what the value
depends on: changing an option that can change a result changes every key that must change,
and an option that cannot (the time limit, cancellation, the cache itself) changes none."""

from __future__ import annotations

from pathlib import Path

import pytest
from cbam.engine.cache import keys
from cbam.engine.cache.blockcache import function_keys
from cbam.engine.options import NativeReplay, VerifyOptions

from tests.conftest import load_src

SRC = """extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int g;
int f(int x) { return x + g; }
int main(void) { int a = __VERIFIER_nondet_int(); if (f(a) == 3) reach_error(); return 0; }
"""

BASE = VerifyOptions(config="value+predicate")
BLOCKS, RESULT, SOURCE, CERTIFICATE = "blocks", "result", "source", "certificate"
EVERY = {BLOCKS, RESULT, SOURCE, CERTIFICATE}
RUN = {RESULT, SOURCE, CERTIFICATE}  # what a whole run's answer depends on, beyond its blocks

# Each option: another value, and the keys that must change with it (all others must not).
CHANGES: dict[str, tuple[object, set[str]]] = {
    "config": ("value", EVERY),
    "predicate_theory": ("lia", EVERY),  # value+predicate uses a theory
    "order": ("bfs", EVERY),
    "property": ("memsafety", EVERY),  # the checks are part of the CFA being analysed
    "alloc_may_fail": (True, EVERY),  # so are the failing allocations
    "entry_null": (True, EVERY),  # and the NULL entry pointers
    "max_violations": (20, RUN),
    "harness": (False, RUN),  # a result carries its harness
    "extra_search_after_violation": (5.0, RUN),
    "path_exploration": (False, RUN),  # decides what CEGAR leaves undecided; blocks are CEGAR's
    "horn": (False, RUN),  # may prove a program before CEGAR runs; blocks are CEGAR's
    "timeout": (3.0, set()),  # a run cut short by it is never stored
    "cancel": (lambda: False, set()),
    "on_partial": (lambda result: None, set()),  # a listener: it sees results, never changes them
    "cache": (object(), set()),
    # The results cache keeps what the path check said; a FALSE read from it is run again
    # (cache/unchanged.py answers only an unchanged source from its own replayed run).
    "replay": (NativeReplay(source="prog.c"), set()),
}


def _keys(program, opts: VerifyOptions) -> dict[str, object]:
    return {BLOCKS: function_keys(program, opts), RESULT: keys.result_key(program, opts),
            SOURCE: keys.source_run_key("some source", opts), CERTIFICATE: keys.certificate_run(opts, "main")}


@pytest.fixture(scope="module")
def program(tmp_path_factory: pytest.TempPathFactory):
    return load_src(SRC, tmp_path_factory.mktemp("keys"))


def test_every_option_is_classified() -> None:
    assert set(CHANGES) == set(VerifyOptions._fields)


@pytest.mark.parametrize("option", list(CHANGES))
def test_an_option_changes_exactly_the_keys_that_depend_on_it(program, option: str) -> None:
    other, must = CHANGES[option]
    before = _keys(program, BASE)
    after = _keys(program, BASE._replace(**{option: other}))
    changed = {k for k in before if before[k] != after[k]}
    assert changed == must, f"{option}: changed {sorted(changed)}, expected {sorted(must)}"


def test_a_theory_changes_nothing_for_a_configuration_without_one(program) -> None:
    opts = VerifyOptions(config="value")
    assert _keys(program, opts) == _keys(program, opts._replace(predicate_theory="lia"))


def test_the_program_wide_facts_are_in_every_key(tmp_path: Path) -> None:
    """The data model and which variables have their address taken are read by the domains
    beyond a function's own code: f's block key changes when main takes g's address."""
    plain = load_src(SRC, tmp_path, "a.c")
    addressed = load_src(SRC.replace("int a = __VERIFIER_nondet_int();", "int a = __VERIFIER_nondet_int(); int *p = &g;"),
                         tmp_path, "b.c")
    ilp32 = load_src(SRC, tmp_path, "c.c", data_model="ILP32")
    base = function_keys(plain, BASE)["f"]
    assert function_keys(addressed, BASE)["f"] != base
    assert function_keys(ilp32, BASE)["f"] != base
    assert function_keys(load_src(SRC, tmp_path, "d.c"), BASE)["f"] == base  # and nothing else: not the path


def test_a_change_in_a_callee_changes_the_callers_result_key_not_its_block_key(tmp_path: Path) -> None:
    """A caller's block is reused with its callees' summaries checked one by one; the whole
    result depends on every reachable function."""
    a = load_src(SRC, tmp_path, "a.c")
    b = load_src(SRC.replace("return x + g;", "return x - g;"), tmp_path, "b.c")
    assert function_keys(a, BASE)["main"] == function_keys(b, BASE)["main"]
    assert function_keys(a, BASE)["f"] != function_keys(b, BASE)["f"]
    assert keys.result_key(a, BASE) != keys.result_key(b, BASE)
