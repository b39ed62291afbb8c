"""Property: after any sequence of edits, the incremental run (persistent cache) reports exactly
what a from-scratch run reports: the same verdict, reason, violations and error paths.

Goblint (goblint#1134) and Dafny (dafny#143) users found bugs in exactly this place.
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass, replace
from pathlib import Path

from cbam.engine.cache.store import CacheStore
from cbam.engine.frontend.load import load_program
from cbam.engine.frontend.preprocess import PreprocessOptions
from cbam.engine.verify import VerifyOptions, run_deep, verify_program
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

CMPS = ["<", "<=", ">", ">=", "==", "!="]
OPS = ["+", "-", "*"]


@dataclass(frozen=True)
class Fn:
    name: str
    cmp: str
    c1: int
    op: str
    c2: int
    callee: str | None  # a function defined later in the list (no recursion), or None
    c3: int
    dead: int = 0  # a statement with no effect: the code changes, its summaries do not


@dataclass(frozen=True)
class Prog:
    fns: tuple[Fn, ...]
    main_calls: tuple[str, ...]
    bound: int
    check: int
    padding: int = 0  # blank lines before main: moves code without changing it

    def render(self) -> str:
        out = ["extern int __VERIFIER_nondet_int(void);",
               "extern void __assert_fail(const char *, const char *, unsigned int, const char *);",
               'void reach_error(void) { __assert_fail("0", "p.c", 3, "reach_error"); }']
        for f in self.fns:
            out.append(f"int {f.name}(int x);")
        for f in self.fns:
            tail = f"{f.callee}(x {f.op} {f.c3})" if f.callee else f"x {f.op} {f.c3}"
            dead = f"  x = x + {f.dead} - {f.dead};\n" if f.dead else ""
            out.append(f"int {f.name}(int x) {{\n{dead}  if (x {f.cmp} {f.c1}) return x {f.op} {f.c2};\n"
                       f"  return {tail};\n}}")
        out.extend([""] * self.padding)
        body = ["int main(void) {", "  int n = __VERIFIER_nondet_int();",
                f"  if (n > {self.bound}) n = {self.bound};", "  if (n < 0) n = 0;", "  int acc = 0;"]
        for j, c in enumerate(self.main_calls):
            # Every other call has a constant argument: its callee's summary is consumed whole by
            # an error path (a summary step), which counterexample certificates re-validate.
            body.append(f"  acc = acc + {c}({'n' if j % 2 == 0 else j});")
        body += [f"  if (acc == {self.check}) reach_error();", "  return 0;", "}"]
        return "\n".join(out + body) + "\n"


@st.composite
def programs(draw):
    k = draw(st.integers(2, 5))
    names = [f"f{i}" for i in range(k)]
    fns = []
    for i, nm in enumerate(names):
        later = names[i + 1:]
        callee = draw(st.one_of(st.none(), st.sampled_from(later))) if later else None
        fns.append(Fn(nm, draw(st.sampled_from(CMPS)), draw(st.integers(-3, 6)), draw(st.sampled_from(OPS)),
                      draw(st.integers(-2, 3)), callee, draw(st.integers(-2, 2))))
    calls = tuple(draw(st.lists(st.sampled_from(names), min_size=1, max_size=3)))
    return Prog(tuple(fns), calls, draw(st.integers(0, 4)), draw(st.integers(-5, 12)))


def apply_edit(p: Prog, edit: tuple) -> Prog:
    kind = edit[0]
    fns = list(p.fns)
    i = edit[1] % len(fns)
    f = fns[i]
    if kind == "const":
        fns[i] = replace(f, c1=f.c1 + edit[2])
    elif kind == "cmp":
        fns[i] = replace(f, cmp=CMPS[edit[2] % len(CMPS)])
    elif kind == "op":
        fns[i] = replace(f, op=OPS[edit[2] % len(OPS)], c2=f.c2 + 1)
    elif kind == "call":
        later = [g.name for g in fns[i + 1:]]
        fns[i] = replace(f, callee=later[edit[2] % len(later)] if later and edit[2] % 3 else None)
    elif kind == "add":
        new = Fn(f"g{len(fns)}_{edit[2] % 7}", "<", edit[2] % 5, "+", 1, None, 0)
        if all(g.name != new.name for g in fns):
            fns.append(new)
            return Prog(tuple(fns), p.main_calls + ((new.name,) if edit[2] % 2 else ()), p.bound, p.check, p.padding)
    elif kind == "remove" and len(fns) > 1:
        gone = fns.pop(i).name
        fns = [replace(g, callee=None) if g.callee == gone else g for g in fns]
        calls = tuple(c for c in p.main_calls if c != gone) or (fns[0].name,)
        return Prog(tuple(fns), calls, p.bound, p.check, p.padding)
    elif kind == "check":
        return replace(p, check=p.check + edit[2])
    elif kind == "dead":
        fns[i] = replace(f, dead=f.dead + 1 + edit[2] % 3)
    elif kind == "move":
        return replace(p, padding=p.padding + 1 + edit[2] % 3)
    return replace(p, fns=tuple(fns))


edits = st.tuples(st.sampled_from(["const", "cmp", "op", "call", "add", "remove", "check", "move", "dead"]),
                  st.integers(0, 9), st.integers(-3, 5))


def observe(result) -> tuple:
    return (result.verdict, result.reason, str(result.reason_range), tuple(
        (v.message, str(v.range), tuple((s.kind, s.message, str(s.range)) for s in v.steps),
         tuple((i.source, i.value) for i in v.inputs))
        for v in result.violations))


def verify(src: str, path: Path, store, config: str = "value") -> tuple:
    path.write_text(src)
    program = load_program(str(path), options=PreprocessOptions(data_model="LP64"))
    return observe(run_deep(lambda: verify_program(
        program, VerifyOptions(config=config, cache=store, timeout=30, harness=False))))


def _compare_along_edits(prog, edit_list, config: str, check) -> None:
    """Apply the edits one by one; after each, verify incrementally (one shared cache) and from
    scratch, and hand both observations to ``check``."""
    with tempfile.TemporaryDirectory() as d:
        store = CacheStore(Path(d) / "cache")
        work = Path(d) / "p.c"
        scratch = Path(d) / "scratch" / "p.c"
        scratch.parent.mkdir()
        p = prog
        for step in [None, *edit_list]:
            if step is not None:
                p = apply_edit(p, step)
            src = p.render()
            check(verify(src, work, store, config), verify(src, scratch, None, config), step, src, work, scratch)
        store.close()


# Exact equality holds for the value analysis: its refinement from a reused precision ends in the
# same verdicts and paths. Predicate refinement started from reused predicates may prove what a
# fresh run gives up on (both answers are correct); for it the test below demands no contradiction.
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(programs(), st.lists(edits, min_size=1, max_size=6))
def test_incremental_equals_from_scratch(prog, edit_list):
    def check(incremental, fresh, step, src, work, scratch):
        assert incremental[0] == fresh[0], f"verdict differs after {step}:\n{src}"
        # Paths: same steps and messages; ranges name different files, so compare lines only.
        norm = lambda obs: str(obs).replace(str(work), "F").replace(str(scratch), "F")  # noqa: E731
        assert norm(incremental) == norm(fresh), f"results differ after {step}:\n{src}"
    _compare_along_edits(prog, edit_list, "value", check)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(programs(), st.lists(edits, min_size=1, max_size=4))
def test_incremental_default_config_never_contradicts_from_scratch(prog, edit_list):
    def check(incremental, fresh, step, src, work, scratch):
        assert {incremental[0], fresh[0]} != {"TRUE", "FALSE"}, f"contradiction after {step}:\n{src}"
        if incremental[0] == fresh[0] == "FALSE":
            assert len(incremental[3]) == len(fresh[3])
    _compare_along_edits(prog, edit_list, "value+predicate", check)


def test_edits_are_meaningful():
    p = Prog((Fn("f0", "<", 1, "+", 1, None, 0),), ("f0",), 2, 3)
    assert apply_edit(p, ("const", 0, 2)).render() != p.render()
    assert apply_edit(p, ("move", 0, 0)).render().count("\n") > p.render().count("\n")
    assert "g1_3" in apply_edit(p, ("add", 0, 3)).render()
    assert "x = x + 2 - 2;" in apply_edit(p, ("dead", 0, 1)).render()
