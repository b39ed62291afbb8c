"""Unit tests: integer semantics, the value/callstack/location domains and their BAM operators."""

from __future__ import annotations

from cbam.engine.cfa.ctype import DataModel
from cbam.engine.cfa.ir import Binary, Cast, Const, Unary, Var
from cbam.engine.cfa.semantics import eval_binary, eval_cast, eval_unary
from cbam.engine.core.cpa import Block, CompositeCPA
from cbam.engine.cpa.callstack import CallstackCPA
from cbam.engine.cpa.location import LocationCPA
from cbam.engine.cpa.value.cpa import ValueCPA, ValueState, evaluate, solve_for_var
from cbam.engine.cpa.value.precision import ValuePrecision

from .conftest import load_src, verify_src

DM = DataModel("ILP32")


def test_unsigned_wraps_and_signed_overflow_is_unknown():
    assert eval_binary("+", 4294967295, 1, DM.uint, DM.uint) == 0
    assert eval_binary("-", 0, 1, DM.uint, DM.uint) == 4294967295
    assert eval_binary("+", 2147483647, 1, DM.int, DM.int) is None
    assert eval_binary("*", -2147483648, -1, DM.int, DM.int) is None
    assert eval_unary("-", -2147483648, DM.int) is None
    assert eval_unary("-", 1, DM.uint) == 4294967295


def test_division_truncates_and_undefined_cases_are_unknown():
    assert eval_binary("/", -7, 2, DM.int, DM.int) == -3
    assert eval_binary("%", -7, 2, DM.int, DM.int) == -1
    assert eval_binary("/", 1, 0, DM.int, DM.int) is None
    assert eval_binary("/", -2147483648, -1, DM.int, DM.int) is None
    assert eval_binary("<<", 1, 32, DM.int, DM.int) is None
    assert eval_binary("<<", 1, 31, DM.uint, DM.uint) == 2147483648
    assert eval_binary(">>", -8, 1, DM.int, DM.int) == -4


def test_conversions():
    assert eval_cast(300, DM.uchar) == 44
    assert eval_cast(255, DM.char) == -1
    assert eval_cast(-1, DM.uint) == 4294967295
    assert eval_cast(7, DM.bool) == 1
    assert eval_cast(2**32 + 5, DataModel("LP64").long) == 2**32 + 5
    assert eval_cast(2**32 + 5, DM.long) == 5


def test_evaluate_and_assume_refinement():
    x = Var("x", DM.int)
    st = {"y": 3}
    e = Binary("+", Var("y", DM.int), Const(1, DM.int), DM.int)
    assert evaluate(e, st.get) == 4
    assert evaluate(Binary("*", x, Const(0, DM.int), DM.int), st.get) == 0
    assert solve_for_var(Binary("==", x, Const(5, DM.int), DM.int), True, st.get) == ("x", 5)
    assert solve_for_var(Binary("!=", x, Const(5, DM.int), DM.int), False, st.get) == ("x", 5)
    assert solve_for_var(Binary("!=", x, Const(5, DM.int), DM.int), True, st.get) is None
    assert solve_for_var(x, False, st.get) == ("x", 0)
    c = Var("c", DM.char)
    widened = Cast(c, DM.int)
    assert solve_for_var(Binary("==", widened, Const(300, DM.int), DM.int), True, {}.get) is False
    u = Var("u", DM.uint)
    assert solve_for_var(Binary("==", Cast(Var("i", DM.int), DM.uint), Const(4294967295, DM.uint), DM.int),
                         True, {}.get) == ("i", -1)
    assert evaluate(Unary("!", u, DM.int), {"u": 0}.get) == 1


def _program_and_cpa(tmp_path):
    src = """
    int g; int h;
    int f(int n) { int t = n + g; return t; }
    int main(void) { int a = 1; int r = f(a); return r + h; }
    """
    p = load_src(src, tmp_path)
    return p, ValueCPA(p)


def test_value_lattice(tmp_path):
    _, cpa = _program_and_cpa(tmp_path)
    a = ValueState({"x": 1, "y": 2})
    b = ValueState({"x": 1})
    assert cpa.is_less_or_equal(a, b) and not cpa.is_less_or_equal(b, a)
    assert cpa.join(a, ValueState({"x": 1, "y": 3})) == b
    assert cpa.is_less_or_equal(a, ValueState())


def test_value_reduce_expand_rebuild(tmp_path):
    p, cpa = _program_and_cpa(tmp_path)
    block = Block("f", p.functions["f"], frozenset({"f"}), frozenset({"f::n", "f::t", "f::__retval", "g"}), False,
                  False)
    entry = ValueState({"main::a": 1, "f::n": 1, "g": 5, "h": 7})
    reduced = cpa.reduce(entry, block, None)
    assert reduced == ValueState({"f::n": 1, "g": 5})  # the caller's locals and h are context only
    exit_reduced = ValueState({"f::n": 1, "g": 5, "f::t": 6, "f::__retval": 6})
    expanded = cpa.expand(entry, exit_reduced, block)
    assert expanded.get("main::a") == 1 and expanded.get("h") == 7 and expanded.get("f::__retval") == 6
    call = ValueState({"main::a": 1, "g": 5, "h": 7, "f::n": 99})
    rebuilt = cpa.rebuild(call, entry, expanded, block, None)
    assert rebuilt.get("f::n") == 99  # the caller's instance comes back (recursion)
    assert rebuilt.get("f::__retval") == 6 and rebuilt.get("g") == 5


def test_callstack_and_location(tmp_path):
    p, _ = _program_and_cpa(tmp_path)
    cs = CallstackCPA()
    block = Block("f", p.functions["f"], frozenset({"f"}), frozenset(), False, False)
    assert cs.reduce(("main", "f"), block, None) == ("f",)
    assert cs.expand(("main", "f"), ("f",), block) == ("main", "f")
    loc = LocationCPA()
    node = p.functions["f"].entry
    assert loc.reduce(node, block, None) is node
    comp = CompositeCPA([loc, cs])
    assert comp.is_less_or_equal((node, ("f",)), (node, ("f",)))


def test_precision_scopes_and_keys(tmp_path):
    p, _ = _program_and_cpa(tmp_path)
    f = p.functions["f"]
    prec = ValuePrecision().refined([(f.entry, "f::n"), (f.exit, "g")], p)
    assert prec.tracks(f.exit, "f::n")  # scoped to the whole function
    assert prec.tracks(p.functions["main"].entry, "g")  # globals everywhere
    assert not prec.tracks(p.functions["main"].entry, "main::a")
    block = Block("f", f, frozenset({"f"}), frozenset({"f::n", "g"}), False, False)
    other = ValuePrecision().refined([(p.functions["main"].entry, "main::a")], p)
    assert other.key_for(block) == ValuePrecision().key_for(block)  # main's precision is not f's business
    assert prec.key_for(block) != ValuePrecision().key_for(block)
    again = ValuePrecision.from_json(prec.to_json())
    assert again.same_as(prec)


PUSH_THROUGH_A_POINTER = """extern int __VERIFIER_nondet_int(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error(void) { __assert_fail("0", "push.c", 3, "reach_error"); }
struct ring { int count; int buf[4]; };
void push(struct ring *r, int v) { if (r->count < 4) { r->buf[r->count] = v; r->count++; } }
int main(void) {
  struct ring r = {0};
  int n = __VERIFIER_nondet_int();
  for (int i = 0; i < n; i++) push(&r, i);
  if (r.count > 4) reach_error();
  return 0;
}
"""


def test_an_object_written_through_a_pointer_is_tracked_where_it_is_written(tmp_path):
    """main's ``r`` is written in push through ``r->count``: an interpolant that needs it there
    tracks it in push as well as in main. Tracked in main alone, push forgot what it wrote, and
    the same spurious path came back after every refinement (UNKNOWN)."""
    p = load_src(PUSH_THROUGH_A_POINTER, tmp_path)
    push = p.functions["push"]
    prec = ValuePrecision().refined([(push.entry, "main::r")], p)
    assert prec.tracks(push.exit, "main::r") and prec.tracks(p.functions["main"].exit, "main::r")
    block = Block("push", push, frozenset({"push"}), frozenset({"push::r"}), False, False)
    assert prec.key_for(block) != ValuePrecision().key_for(block)  # push's summaries are new ones
    r = verify_src(PUSH_THROUGH_A_POINTER, tmp_path, name="run.c", config="value", horn=False,
                   path_exploration=False)
    assert r.verdict == "TRUE", r.reason


def test_interpolation_tracks_only_what_refutes_the_path(tmp_path):
    """[EV] Fig. 1: the first spurious path needs `flag`, never the loop counter `ticks`."""
    from cbam.engine.cex.encoding import check_path
    from cbam.engine.core.bam import BAM
    from cbam.engine.core.blocks import build_blocks
    from cbam.engine.core.cpa_algorithm import Budget
    from cbam.engine.core.path import reconstruct
    from cbam.engine.cpa.value.refiner import interpolate, interpolate_by_slice

    src = """
    extern int system_call();
    void reach_error(void);
    int main(int x) {
      int flag, ticks, result;
      flag = 0; ticks = 0;
      while (1) { ticks = ticks + 1; result = system_call(); if (result == 0 || ticks > x) { break; } }
      if (flag > 0) { reach_error(); return 1; }
      return 0;
    }
    """
    p = load_src(src, tmp_path)
    cpa = CompositeCPA([LocationCPA(), CallstackCPA(), ValueCPA(p)])
    bam = BAM(p, cpa, build_blocks(p, p.callgraph), Budget(30))
    result = bam.run({"value": ValuePrecision()})
    path = reconstruct(result.targets[0], p, bam)
    assert check_path(p, path).status == "unsat"
    for itp in (interpolate, interpolate_by_slice):
        pairs = itp(p, path)
        names = {v for _, v in pairs}
        assert "main::flag" in names and "main::ticks" not in names
        refined = ValuePrecision().refined(pairs, p)
        again = BAM(p, cpa, build_blocks(p, p.callgraph), Budget(30)).run({"value": refined})
        assert not again.targets  # the refined precision proves the program
