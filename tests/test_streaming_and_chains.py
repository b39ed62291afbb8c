"""The multi-violation mode, incrementally: violations are reported as they are confirmed
(VerifyOptions.on_partial), and an edit that none of them depends on re-validates them from
their certificates (cache/certificate.py's chain) instead of searching for them again. The
result is exactly a from-scratch run's either way."""

from __future__ import annotations

from pathlib import Path

from cbam.engine.cache.store import CacheStore
from cbam.engine.cfa.load import load_program
from cbam.engine.frontend.preprocess import PreprocessOptions
from cbam.engine.verify import VerifyOptions, run_deep, verify_program

from .conftest import assert_replay_reaches_error, check_error_path
from .test_incremental_equivalence import observe

# Three failing checks, each at its own error location; a leaf whose result the last check
# depends on (an edit that changes it invalidates that violation's certificate); and a
# function called at the end, whose code an edit changes without changing its result.
PROGRAM = """extern int __VERIFIER_nondet_int(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
#define check(c) ((c) ? (void)0 : __assert_fail("c", "p.c", __LINE__, "main"))
int rdown(int n) { if (n <= 0) return 0; return rdown(n - 1) + 1; }
int leaf(int x) { int acc = 0; for (int i = 0; i < 20; i++) { acc += (x + i) % 3; } return acc % 5 + x + LEAF; }
int other(int x) { int unused = OTHER; return x * 2; }
int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 0) n = 0;
  if (n > 2) n = 2;
  check(n != 1);
  check(rdown(n) != 2);
  int a = leaf(1);
  check(a < 1000);
  check(n != 0);
  return other(n);
}
"""


def render(leaf: int = 0, other: int = 0) -> str:
    return PROGRAM.replace("LEAF", str(leaf)).replace("OTHER", str(other))

OPTS = VerifyOptions(config="value+predicate", max_violations=20, harness=True, timeout=60)


def run(src: str, path: Path, store: CacheStore | None, partials: list | None = None):
    path.write_text(src)
    program = load_program(str(path), options=PreprocessOptions(data_model="LP64"))
    opts = OPTS._replace(cache=store, on_partial=(lambda r: partials.append(r)) if partials is not None else None)
    return run_deep(lambda: verify_program(program, opts))


def lines(result) -> list[int]:
    return [v.range.line for v in result.violations]


def test_each_violation_is_reported_as_it_is_confirmed(tmp_path):
    partials: list = []
    result = run(render(), tmp_path / "p.c", None, partials)
    assert result.verdict == "FALSE" and len(result.violations) == 3
    assert [len(p.violations) for p in partials] == [1, 2, 3]
    assert all(p.partial and p.verdict == "FALSE" for p in partials)
    assert lines(partials[-1]) == lines(result)  # in the order found, the final result's order
    assert not result.partial and "partial" not in result.to_json()
    for v in result.violations:
        check_error_path(type(result)(result.verdict, violations=[v]))


def _norm(result, tmp_path: Path) -> str:
    return str(observe(result, values=False)).replace(str(tmp_path / "scratch" / "p.c"), "F").replace(
        str(tmp_path / "p.c"), "F")


def test_an_edit_elsewhere_revalidates_the_violations_from_their_certificates(tmp_path):
    store = CacheStore(tmp_path / "cache")
    (tmp_path / "scratch").mkdir()
    first = run(render(), tmp_path / "p.c", store)
    assert len(first.violations) == 3
    cert = [r for r in store.conn.execute("SELECT payload FROM certificates").fetchall()]
    assert cert and '"chain"' in cert[0][0]
    for other in (1, 2):
        src = render(other=other)
        partials: list = []
        inc = run(src, tmp_path / "p.c", store, partials)
        fresh = run(src, tmp_path / "scratch" / "p.c", None)
        assert _norm(inc, tmp_path) == _norm(fresh, tmp_path)
        # All three come from their certificates, at once, before any search.
        assert partials and len(partials[0].violations) == 3
        # Only the edited function was explored again, not the paths to the violations.
        assert inc.statistics.blocks_analysed < fresh.statistics.blocks_analysed
        for v in inc.violations:
            check_error_path(type(inc)(inc.verdict, violations=[v], data_model="LP64"))
        assert_replay_reaches_error(tmp_path / "p.c", type(inc)(inc.verdict, violations=inc.violations[:1]), "LP64",
                                    tmp_path)
    store.close()


def test_an_edit_to_what_a_violation_consumed_searches_for_it_again(tmp_path):
    """The leaf's result changes: the violations found before the search consumed it stand on
    their certificates, the others are searched for again, and the result is a fresh run's."""
    store = CacheStore(tmp_path / "cache")
    (tmp_path / "scratch").mkdir()
    run(render(), tmp_path / "p.c", store)
    for leaf in (1, 2):
        partials: list = []
        inc = run(render(leaf=leaf), tmp_path / "p.c", store, partials)
        fresh = run(render(leaf=leaf), tmp_path / "scratch" / "p.c", None)
        assert _norm(inc, tmp_path) == _norm(fresh, tmp_path)
        assert [len(p.violations) for p in partials][-1] == len(inc.violations)
    store.close()


def test_an_edit_on_the_path_searches_again(tmp_path):
    """Changing the first failing check invalidates its certificate (and the chain after it):
    the run finds what a fresh run finds."""
    store = CacheStore(tmp_path / "cache")
    (tmp_path / "scratch").mkdir()
    run(render(), tmp_path / "p.c", store)
    src = render().replace("check(n != 1);", "check(n != 3);")
    inc = run(src, tmp_path / "p.c", store)
    fresh = run(src, tmp_path / "scratch" / "p.c", None)
    assert lines(inc) == lines(fresh) and len(inc.violations) == 2
    store.close()
