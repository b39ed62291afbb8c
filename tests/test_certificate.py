"""Counterexample certificates (engine/cache/certificate.py): after an edit the violation does
not depend on, it is re-validated by re-exploring only the edited function; after any other
edit it is found afresh. Either way the result is a from-scratch run's: the same verdict and
violations, by the same path where both took one (the engines race to a violation, and two
correct paths to it may come out), each path replaying to its error where they differ."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from cbam.engine.cache.store import CacheStore
from cbam.engine.cfa.load import load_program
from cbam.engine.frontend.preprocess import PreprocessOptions
from cbam.engine.verify import VerifyOptions, run_deep, verify_program
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from .conftest import assert_replay_reaches_error, check_error_path
from .test_incremental_equivalence import observe

# The violation needs three iterations of the recursion fixpoint over rdown (its argument is
# unknown), after calls whose summaries it consumes: a leaf through a middle function.
PROGRAM = """extern int __VERIFIER_nondet_int(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error(void) { __assert_fail("0", "c.c", 3, "reach_error"); }
int rdown(int n) { if (n <= 0) return 0; return rdown(n - 1) + 1; }
int leaf(int x) { int acc = 0; for (int i = 0; i < 20; i++) { acc += (x + i) % 3; } if (x > BOUND) return BOUND; return acc % 5 + x; }
int mid(int x) { int y = leaf(x + 1); return y + leaf(y % 4); }
int other(int x) { return x * 2; }
int main(void) {
PAD  int n = __VERIFIER_nondet_int();
  if (n < 0) n = 0;
  if (n > 2) n = 2;
  int a = mid(1);
  int b = mid(2);
  if (a > 1000) reach_error();
  if (rdown(n) == 2) reach_error();
  return other(b);
}
"""


def render(bound: int = 10, pad: int = 0, program: str = PROGRAM) -> str:
    return program.replace("BOUND", str(bound)).replace("PAD", "\n" * pad)


def run(src: str, path: Path, store: CacheStore | None, config: str = "value"):
    path.write_text(src)
    program = load_program(str(path), options=PreprocessOptions(data_model="LP64"))
    return run_deep(lambda: verify_program(program, VerifyOptions(config=config, cache=store, timeout=60)))


def outline(result) -> tuple:
    """What any correct run of the program reports, whatever path it took: the verdict, and
    each violation's check and where it is."""
    return (result.verdict, result.reason, str(result.reason_range),
            tuple((v.message.split(" (for example when ")[0], str(v.range)) for v in result.violations))


def compare(src: str, tmp_path: Path, store: CacheStore, config: str = "value"):
    """The incremental run, after checking it reports what a from-scratch run reports: exactly,
    path and all, where the two took the same path; else the same outline, each path replaying."""
    inc = run(src, tmp_path / "c.c", store, config)
    (tmp_path / "scratch").mkdir(exist_ok=True)
    fresh = run(src, tmp_path / "scratch" / "c.c", None, config)
    norm = lambda obs: str(obs).replace(str(tmp_path / "scratch" / "c.c"), "F").replace(str(tmp_path / "c.c"), "F")  # noqa: E731
    if norm(observe(inc, values=False)) == norm(observe(fresh, values=False)):
        if inc.source == "cache":  # a certified violation is the stored one, example values and all
            assert norm(observe(inc)) == norm(observe(fresh))
        return inc
    assert norm(outline(inc)) == norm(outline(fresh))
    for result, source, where in ((inc, tmp_path / "c.c", "replay"), (fresh, tmp_path / "scratch" / "c.c", "replay-fresh")):
        if result.verdict == "FALSE":
            check_error_path(result)
            (tmp_path / where).mkdir(exist_ok=True)
            assert_replay_reaches_error(source, result, "LP64", tmp_path / where)
    return inc


def check_path(result, error_line: int) -> None:
    """The violation is the rdown check with n = 2, reached through rdown's recursion."""
    assert result.verdict == "FALSE" and len(result.violations) == 1
    v = result.violations[0]
    assert v.range.line == error_line
    assert [i.value for i in v.inputs] == [2]
    calls = [s for s in v.steps if s.kind == "call" and s.text.startswith("rdown(")]
    assert len(calls) == 3  # rdown(2), rdown(1), rdown(0)


@pytest.fixture
def store(tmp_path):
    """A cache that holds the base program's result (and its certificate)."""
    store = CacheStore(tmp_path / "cache")
    compare(render(), tmp_path, store)
    yield store
    store.close()


@pytest.mark.parametrize("config", ["value", "value+predicate"])
def test_leaf_edit_keeping_its_summary_revalidates_only_the_leaf(tmp_path, config):
    store = CacheStore(tmp_path / "cache")
    cold = compare(render(), tmp_path, store, config)
    check_path(cold, 15)
    assert cold.source == "fresh" and store.stats()["certificates"] == 1
    # leaf's bound goes from 10 to 50: no call passes more than 10, so every exit is the same.
    warm = compare(render(bound=50), tmp_path, store, config)
    check_path(warm, 15)
    assert warm.source == "cache"
    # leaf is analysed once, with its parameter as a symbol; leaf(2) and leaf(3) (mid(1) calls
    # leaf(2) twice (2 % 4), mid(2) calls leaf(3) twice (7 % 4)) are instances of that summary.
    assert warm.statistics.blocks_analysed == 1
    store.close()


def test_leaf_edit_changing_its_summary_is_analysed_afresh(tmp_path, store):
    changed = compare(render(bound=2), tmp_path, store)  # leaf(3) now returns 2
    assert changed.source == "fresh"
    check_path(changed, 15)


def test_revalidated_path_follows_moved_code(tmp_path, store):
    # The leaf edit keeps the certificate; three blank lines move main's code (and the error) down.
    moved = compare(render(bound=50, pad=3), tmp_path, store)
    assert moved.source == "cache" and moved.statistics.blocks_analysed > 0
    check_path(moved, 18)
    assert min(s.range.line for s in moved.violations[0].steps if s.function == "main" and s.range) == 12


def test_edit_on_the_error_path_is_analysed_afresh(tmp_path, store):
    # rdown is on the path: the certificate names its code, which changed.
    edited = render(program=PROGRAM.replace("return rdown(n - 1) + 1;", "return 1 + rdown(n - 1);"))
    res = compare(edited, tmp_path, store)
    assert res.source == "fresh"
    check_path(res, 15)
    # main's own code: the block the target is in.
    res = compare(render(program=PROGRAM.replace("if (a > 1000)", "if (a > 999)")), tmp_path, store)
    assert res.source == "fresh"
    check_path(res, 15)


def test_edit_that_creates_an_earlier_violation_is_found(tmp_path, store):
    # mid's result for 1 now exceeds 1000: the first check fails before rdown is reached.
    res = compare(render(program=PROGRAM.replace("return y + leaf(y % 4);", "return y + leaf(y % 4) + 2000;")),
                  tmp_path, store)
    assert res.source == "fresh" and res.verdict == "FALSE"
    assert res.violations[0].range.line == 14


def test_a_garbled_certificate_is_not_trusted(tmp_path, store):
    file = os.path.abspath(tmp_path / "c.c")
    rows = store._read("SELECT run, payload FROM certificates WHERE file = ?", (file,))
    assert len(rows) == 1
    for payload in ('{"levels": 3}', '{"levels": [], "paths": {}, "result": {"verdict": "TRUE"}}', "not json"):
        store._write([("UPDATE certificates SET payload = ? WHERE file = ?", (payload, file))])
        res = compare(render(bound=50 + len(payload)), tmp_path, store)
        assert res.source == "fresh"
        check_path(res, 15)


def test_edit_of_a_function_the_path_enters_is_analysed_afresh(tmp_path):
    """is_two's exits do not change (its result is unknown either way), but the path goes
    through its body: the certificate names its code, so the new body's steps are reported."""
    program = PROGRAM.replace("int main(void) {", "int is_two(int v) { return v == 2; }\nint main(void) {").replace(
        "  if (rdown(n) == 2) reach_error();", "  int m = __VERIFIER_nondet_int();\n"
        "  if (is_two(m)) { if (rdown(n) == 2) reach_error(); }")
    store = CacheStore(tmp_path / "cache")
    cold = compare(render(program=program), tmp_path, store)
    assert any(s.text == "return v == 2;" for s in cold.violations[0].steps)
    warm = compare(render(bound=50, program=program), tmp_path, store)
    assert warm.source == "cache"  # the certificate holds for an edit elsewhere
    edited = compare(render(bound=50, program=program.replace("return v == 2;", "return v - 2 == 0;")),
                     tmp_path, store)
    assert edited.source == "fresh"
    assert any(s.text == "return v - 2 == 0;" for s in edited.violations[0].steps)
    assert [i.value for i in edited.violations[0].inputs] == [2, 2]
    store.close()


# Property: programs whose violation comes after calls with constant arguments (their summaries
# are consumed whole). Edits either change a callee's code without changing what it returns (a
# statement with no effect) or change a constant (which may change it). After every step the
# incremental run equals a from-scratch run; after an edit of the first kind on a program the
# last run found FALSE, the certificate must hold.
def _cert_program(consts: tuple[int, ...], dead: tuple[int, ...], check: int) -> str:
    out = ["extern int __VERIFIER_nondet_int(void);",
           "extern void __assert_fail(const char *, const char *, unsigned int, const char *);",
           'void reach_error(void) { __assert_fail("0", "p.c", 3, "reach_error"); }']
    for i, (c, d) in enumerate(zip(consts, dead)):
        stmt = f"  x = x + {d} - {d};\n" if d else ""
        out.append(f"int g{i}(int x) {{\n{stmt}  if (x > {c}) return x - {c};\n  return {c} - x;\n}}")
    body = ["int main(void) {", "  int n = __VERIFIER_nondet_int();", "  int acc = 0;"]
    body += [f"  acc = acc + g{i}({i + 1});" for i in range(len(consts))]
    body += [f"  if (n == acc + {check}) reach_error();", "  return 0;", "}"]
    return "\n".join(out + body) + "\n"


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(st.lists(st.integers(-2, 4), min_size=2, max_size=4), st.integers(-3, 3),
       st.lists(st.tuples(st.booleans(), st.integers(0, 9), st.integers(1, 3)), min_size=1, max_size=5))
def test_certificates_hold_exactly_when_they_should(tmp_path_factory, consts, check, edits):
    tmp_path = tmp_path_factory.mktemp("cert")
    store = CacheStore(tmp_path / "cache")
    consts, dead = list(consts), [0] * len(consts)
    prev = compare(_cert_program(tuple(consts), tuple(dead), check), tmp_path, store)
    for no_effect, which, k in edits:
        i = which % len(consts)
        if no_effect:
            dead[i] += k
        else:
            consts[i] += k
        res = compare(_cert_program(tuple(consts), tuple(dead), check), tmp_path, store)
        assert res.verdict == "FALSE"  # n is unconstrained: some n always hits
        if no_effect:
            assert res.source == "cache" and res.statistics.blocks_analysed == 1
        prev = res
    assert prev.violations[0].steps[-1].kind == "error"
    store.close()
