"""Struct fields passed by pointer in the Horn clauses (algorithms/horn/fields.py): which
objects and pointer parameters become pseudo-variables, the proofs that gives, and the uses
that keep a struct out (where copy-in/copy-out would be wrong)."""

from __future__ import annotations

from pathlib import Path

import pytest
from cbam.engine.algorithms.horn import clauses
from cbam.engine.algorithms.horn.fields import Fields
from cbam.engine.verify import run_deep

from .conftest import assert_replay_reaches_error, check_error_path, load_src, verify_src

HEAD = """extern int __VERIFIER_nondet_int(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error(void) { __assert_fail("0", "acct.c", 3, "reach_error"); }
"""

ACCOUNT = HEAD + """struct account { int balance; int ops; };
static int withdraw(struct account *a, int amt) {
  if (amt <= 0 || amt > a->balance) return 0;
  a->balance -= amt; a->ops++; return 1;
}
static void deposit(struct account *a, int amt) {
  if (amt > 0 && amt < 1000 && a->balance < 1000000) { a->balance += amt; a->ops++; }
}
int main(void) {
  struct account acc = {0, 0};
  while (__VERIFIER_nondet_int()) {
    if (__VERIFIER_nondet_int()) deposit(&acc, __VERIFIER_nondet_int());
    else withdraw(&acc, __VERIFIER_nondet_int());
    if (acc.balance < 0) reach_error();
  }
  return 0;
}
"""


def solve(src: str, tmp_path: Path, name: str = "prog.c") -> clauses.HornOutcome:
    program = load_src(src, tmp_path, name)
    return run_deep(lambda: clauses.solve(program, 20.0))


def test_a_struct_passed_by_pointer_becomes_fields_of_the_frames(tmp_path: Path) -> None:
    fields = Fields.of(load_src(ACCOUNT, tmp_path))
    assert fields.objects == {"main::acc": ["main::acc.balance", "main::acc.ops"]}
    assert set(fields.pointers) == {"withdraw::a", "deposit::a"}


def test_the_balance_is_proved_through_the_callees(tmp_path: Path) -> None:
    """Without the fields, the clauses read ``a->balance`` as any value: no invariant, and the
    value and predicate analyses have none either (UNKNOWN after the whole minute)."""
    got = solve(ACCOUNT, tmp_path)
    assert got.status == "safe", got.reason
    assert "a->balance" in got.summaries["withdraw"]  # shown on hover, as C
    # In the portfolio, Spacer's proof or k-induction's (it proves ACCOUNT too, after CEGAR, on
    # a machine too busy for Spacer's turn beside): which one, is not checked (Spacer alone is, above).
    r = verify_src(ACCOUNT, tmp_path, name="run.c")
    assert r.verdict == "TRUE", r.reason


def test_an_overdraft_is_found_and_replayed(tmp_path: Path) -> None:
    src = ACCOUNT.replace("amt > a->balance)", "amt > a->balance + 1)")
    assert solve(src, tmp_path).status != "safe"
    r = verify_src(src, tmp_path, name="over.c")
    assert r.verdict == "FALSE"
    check_error_path(r)
    assert_replay_reaches_error(tmp_path / "over.c", r, "LP64", tmp_path)


ALIAS = HEAD + """struct s { int x; };
void two(struct s *a, struct s *b) { a->x = 1; b->x = 2; }
int main(void) {
  struct s o = {0};
  int n = __VERIFIER_nondet_int();
  for (int i = 0; i < n; i++) two(&o, &o);
  if (n > 0 && o.x != 2) reach_error();
  return 0;
}
"""

# Uses after which copy-in/copy-out would be wrong, each with a program that fails through it.
KEPT_OUT = {
    "aliasing arguments": ALIAS.replace("o.x != 2", "o.x != 1"),
    "the address of a field": HEAD + """struct s { int x; };
void inc(struct s *a) { a->x++; }
int main(void) {
  struct s o = {0};
  int *q = &o.x;
  int n = __VERIFIER_nondet_int();
  for (int i = 0; i < n; i++) { inc(&o); *q = 5; }
  if (n > 0 && o.x != 1) reach_error();
  return 0;
}
""",
    "a pointer kept in a global": HEAD + """struct s { int x; };
struct s *keep;
void inc(struct s *a) { a->x++; keep = a; }
int main(void) {
  struct s o = {0};
  int n = __VERIFIER_nondet_int();
  for (int i = 0; i < n; i++) { inc(&o); keep->x = 7; }
  if (n > 0 && o.x != 1) reach_error();
  return 0;
}
""",
    "a write outside a member array": HEAD + """struct ring { int buf[4]; int count; };
void put(struct ring *r, int k) { r->buf[k] = 7; }
int main(void) {
  struct ring r = {0};
  int n = __VERIFIER_nondet_int();
  for (int j = 0; j < n; j++) {
    int k = __VERIFIER_nondet_int();
    if (k < 0 || k > 4) return 0;
    put(&r, k);
  }
  if (r.count != 0) reach_error();
  return 0;
}
""",
}


@pytest.mark.parametrize("case", sorted(KEPT_OUT))
def test_uses_that_copy_in_copy_out_would_get_wrong_prove_nothing(tmp_path: Path, case: str) -> None:
    src = KEPT_OUT[case]
    if case == "a write outside a member array":
        assert Fields.of(load_src(src, tmp_path)).objects  # modelled, with the write as an error
    else:
        assert not Fields.of(load_src(src, tmp_path)).objects
    assert solve(src, tmp_path).status != "safe"


def test_aliasing_arguments_are_memory_as_before(tmp_path: Path) -> None:
    r = verify_src(ALIAS.replace("o.x != 2", "o.x != 1"), tmp_path, name="alias.c")
    assert r.verdict == "FALSE"
    check_error_path(r)
    assert_replay_reaches_error(tmp_path / "alias.c", r, "LP64", tmp_path)
    assert verify_src(ALIAS, tmp_path, name="alias2.c").verdict == "TRUE"


def test_a_member_array_written_in_bounds_leaves_the_count_to_its_proof(tmp_path: Path) -> None:
    src = KEPT_OUT["a write outside a member array"].replace("k > 4", "k > 3")
    assert solve(src, tmp_path).status == "safe"


def test_tests_against_null_keep_the_fields_and_read_as_never_null(tmp_path: Path) -> None:
    """``if (!a) return;`` in the callees: every call passes a whole object, so the test is
    false, and the account is proved as without it. Comparing two pointers keeps it out."""
    guarded = ACCOUNT.replace("static int withdraw(struct account *a, int amt) {\n",
                              "static int withdraw(struct account *a, int amt) {\n  if (a == (void *)0) return 0;\n")
    guarded = guarded.replace("  if (amt > 0 && amt < 1000", "  if (!a) return;\n  if (amt > 0 && amt < 1000")
    assert guarded.count("return") > ACCOUNT.count("return") + 1
    assert set(Fields.of(load_src(guarded, tmp_path)).pointers) == {"withdraw::a", "deposit::a"}
    assert solve(guarded, tmp_path, "guarded.c").status == "safe"
    compared = ACCOUNT.replace("static void deposit(struct account *a, int amt) {\n",
                               "static struct account *last;\nstatic void deposit(struct account *a, int amt) {\n"
                               "  if (a == last) return;\n")
    assert "deposit::a" not in Fields.of(load_src(compared, tmp_path, "compared.c")).pointers


ENTRY = """extern void __VERIFIER_assert(int);
struct account { int balance; int ops; };
static void deposit(struct account *a, int amt) {
  if (amt > 0 && amt < 1000 && a->balance < 1000000) { a->balance += amt; a->ops++; }
}
static void run(struct account *a, int n) { for (int i = 0; i < n; i++) deposit(a, 5); }
void check(struct account *a, int n) {
  if (a->balance < 0) return;
  run(a, n);
  __VERIFIER_assert(a->balance >= 0);
}
"""


def test_an_entry_pointer_parameter_points_to_a_modelled_object(tmp_path: Path) -> None:
    """A file without main: the start function hands ``check`` a fresh object through a
    temporary (``t = &input; check(t, n)``), which stands for ``&input``. Where entry pointers
    may be NULL that temporary has two writes, and nothing is modelled."""
    from cbam.engine.cfa.nullable import let_entry_pointers_be_null

    program = load_src(ENTRY, tmp_path, entry="check")
    fields = Fields.of(program)
    assert len(fields.objects) == 1 and {"check::a", "run::a", "deposit::a"} <= set(fields.pointers)
    assert run_deep(lambda: clauses.solve(program, 20.0)).status == "safe"
    nullable = load_src(ENTRY, tmp_path, "null.c", entry="check")
    let_entry_pointers_be_null(nullable)
    assert not Fields.of(nullable).objects
    assert run_deep(lambda: clauses.solve(nullable, 20.0)).status != "safe"
