"""Fingerprints: stable under layout changes, different on any semantic change."""

from __future__ import annotations

import pytest

from .conftest import load_src

BASE = """
int helper(int a, int b) {
  if (a > b) { return a - b; }
  return b + 2 * a;
}
int main(void) { return helper(3, 4); }
"""


def fp(src: str, tmp_path, fn: str = "helper") -> str:
    return load_src(src, tmp_path).functions[fn].fingerprint


def test_whitespace_and_comments_do_not_change_it(tmp_path):
    spaced = BASE.replace("if (a > b)", "if   (a>b)  /* compare */").replace("return b + 2 * a;",
                                                                           "return b+2*a; // sum\n\n")
    assert fp(BASE, tmp_path) == fp(spaced, tmp_path)


def test_moving_the_function_does_not_change_it(tmp_path):
    moved = "int unrelated(void) { return 7; }\n\n\n" + BASE.replace("int main(void) { return helper(3, 4); }", "") + \
        "int main(void) { return helper(3, 4); }\n"
    assert fp(BASE, tmp_path) == fp(moved, tmp_path)


@pytest.mark.parametrize("old,new", [
    ("a > b", "a >= b"), ("a - b", "a + b"), ("2 * a", "3 * a"), ("return b", "return a"),
    ("int a, int b", "unsigned a, int b"), ("2 * a", "2 / a"), ("a > b", "b > a"),
])
def test_semantic_changes_change_it(tmp_path, old, new):
    assert old in BASE
    assert fp(BASE, tmp_path) != fp(BASE.replace(old, new), tmp_path)


def test_callee_change_does_not_change_caller_fingerprint(tmp_path):
    changed = BASE.replace("2 * a", "5 * a")
    assert fp(BASE, tmp_path, "main") == fp(changed, tmp_path, "main")


def test_call_graph_and_recursion(tmp_path):
    src = "int odd(int); int even(int n){ return n == 0 ? 1 : odd(n - 1); } " \
          "int odd(int n){ return n == 0 ? 0 : even(n - 1); } int f(int n){ return n ? f(n - 1) : 0; } " \
          "int main(void){ return even(4) + f(2); }"
    p = load_src(src, tmp_path)
    cg = p.callgraph
    assert cg.recursive_functions() == {"even", "odd", "f"}
    assert sorted(cg.sccs[cg.scc_of["even"]]) == ["even", "odd"]
    order = [f for comp in cg.sccs for f in comp]
    assert order.index("even") < order.index("main")
