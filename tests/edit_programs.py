"""Small C programs and edits to them, for the incremental ≡ from-scratch property tests and
the differential campaign (bench/differential.py).

A program is a chain of functions over one integer type each (callees come later in the
list, and a function may recurse on itself), an entry that clamps an arbitrary input and
feeds it to some of them, and two checks: one through ``__VERIFIER_assert`` (the error
location inside a callee block, where a search for further violations prunes it) and one
direct ``reach_error()``. The entry is ``main`` or a function with a parameter (then there is
no ``main``, and cbam gives the parameter an arbitrary value).

Edits keep the meaning (a commutative rewrite, a renamed local, functions in another order,
code moved down) or change it (constants, comparisons, operators, calls, callees, checks,
and the integer types and signedness of functions and of the entry's variables).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from hypothesis import strategies as st

CMPS = ["<", "<=", ">", ">=", "==", "!="]
OPS = ["+", "-", "*"]
TYPES = ["int", "unsigned int", "unsigned char", "signed char", "short", "unsigned short", "long long",
         "unsigned long", "T"]
TYPEDEFS = TYPES[:-1]


@dataclass(frozen=True)
class Fn:
    name: str
    type: str
    cmp: str
    c1: int
    op: str
    c2: int
    callee: str | None  # a function later in the list, the function itself (recursion), or None
    c3: int
    local: str = "y"  # the name of its one local variable (renaming it changes nothing)
    swapped: bool = False  # "c2 op x" for a commutative op: the same meaning, other code

    def render(self) -> str:
        t, x, y = self.type, "x", self.local
        early = f"{self.c2} {self.op} {x}" if self.swapped and self.op != "-" else f"{x} {self.op} {self.c2}"
        if self.callee == self.name:
            # Recursion on a smaller argument; the base case stops it for every type.
            return (f"{t} {self.name}({t} {x}) {{\n  {t} {y} = {x};\n  if ({y} <= {abs(self.c1)}) return {early};\n"
                    f"  return {self.name}({y} - 1) {self.op} {self.c3};\n}}")
        tail = f"{self.callee}({y} {self.op} {self.c3})" if self.callee else f"{y} {self.op} {self.c3}"
        return (f"{t} {self.name}({t} {x}) {{\n  {t} {y} = {x};\n  if ({y} {self.cmp} {self.c1}) return {early};\n"
                f"  return {tail};\n}}")


@dataclass(frozen=True)
class Prog:
    fns: tuple[Fn, ...]
    calls: tuple[str, ...]  # the functions the entry calls, in order
    bound: int
    check: int  # __VERIFIER_assert(acc != check)
    check2: int  # if (acc > check2) reach_error();
    acc_type: str = "int"
    entry: str = "main"  # "main", or "top": an entry function with an arbitrary parameter
    order: tuple[int, ...] = ()  # the order definitions appear in (a permutation of fns)
    padding: int = 0  # blank lines before the entry: moves code without changing it
    typedef: str = "int"  # what T stands for: functions of type T change meaning, not text

    def render(self) -> str:
        out = ["extern int __VERIFIER_nondet_int(void);", "extern void abort(void);",
               "extern void __assert_fail(const char *, const char *, unsigned int, const char *);",
               'void reach_error(void) { __assert_fail("0", "p.c", 4, "reach_error"); }',
               "void __VERIFIER_assert(int cond) { if (!cond) { reach_error(); abort(); } }"]
        out.append(f"typedef {self.typedef} T;")
        out += [f"{f.type} {f.name}({f.type} x);" for f in self.fns]
        order = self.order if sorted(self.order) == list(range(len(self.fns))) else range(len(self.fns))
        out += [self.fns[i].render() for i in order]
        out += [""] * self.padding
        t = self.acc_type
        if self.entry == "main":
            head = ["int main(void) {", "  int n = __VERIFIER_nondet_int();"]
        else:
            head = ["int top(int n) {"]
        body = head + [f"  if (n > {self.bound}) n = {self.bound};", "  if (n < 0) n = 0;", f"  {t} acc = 0;"]
        for j, c in enumerate(self.calls):
            # Every other call has a constant argument: its callee's summary is consumed whole by an
            # error path (a summary step), which counterexample certificates re-validate.
            body.append(f"  acc = acc + {c}({'n' if j % 2 == 0 else j});")
        body += [f"  __VERIFIER_assert(acc != {self.check});", f"  if (acc > {self.check2}) reach_error();",
                 "  return 0;", "}"]
        return "\n".join(out + body) + "\n"


@st.composite
def programs(draw, entries: tuple[str, ...] = ("main",), recursion: bool = True):
    k = draw(st.integers(2, 4))
    names = [f"f{i}" for i in range(k)]
    fns = []
    for i, nm in enumerate(names):
        options = [None, *names[i + 1:]] + ([nm] if recursion else [])
        fns.append(Fn(nm, draw(st.sampled_from(TYPES[:3] if draw(st.booleans()) else TYPES)),
                      draw(st.sampled_from(CMPS)), draw(st.integers(-3, 6)), draw(st.sampled_from(OPS)),
                      draw(st.integers(-2, 3)), draw(st.sampled_from(options)), draw(st.integers(-2, 2))))
    calls = tuple(draw(st.lists(st.sampled_from(names), min_size=1, max_size=3)))
    return Prog(tuple(fns), calls, draw(st.integers(0, 4)), draw(st.integers(-5, 12)), draw(st.integers(5, 40)),
                draw(st.sampled_from(TYPES[:4])), draw(st.sampled_from(entries)),
                typedef=draw(st.sampled_from(TYPEDEFS)))


EDIT_KINDS = ["const", "cmp", "op", "call", "add", "remove", "check", "type", "acc_type", "typedef", "move", "swap",
              "rename", "reorder"]
MEANING_KEEPING = {"move", "swap", "rename", "reorder"}


def apply_edit(p: Prog, edit: tuple) -> Prog:
    kind, a, b = edit
    fns = list(p.fns)
    i = a % len(fns)
    f = fns[i]
    if kind == "const":
        fns[i] = replace(f, c1=f.c1 + b)
    elif kind == "cmp":
        fns[i] = replace(f, cmp=CMPS[b % len(CMPS)])
    elif kind == "op":
        fns[i] = replace(f, op=OPS[b % len(OPS)], c2=f.c2 + 1)
    elif kind == "call":
        choices = [None, *(g.name for g in fns[i + 1:]), f.name]
        fns[i] = replace(f, callee=choices[b % len(choices)])
    elif kind == "add":
        new = Fn(f"g{len(fns)}_{b % 7}", TYPES[b % len(TYPES)], "<", b % 5, "+", 1, None, 0)
        if all(g.name != new.name for g in fns):
            fns.append(new)
            return replace(p, fns=tuple(fns), calls=p.calls + ((new.name,) if b % 2 else ()), order=())
    elif kind == "remove" and len(fns) > 1:
        gone = fns.pop(i).name
        fns = [replace(g, callee=None) if g.callee == gone else g for g in fns]
        calls = tuple(c for c in p.calls if c != gone) or (fns[0].name,)
        return replace(p, fns=tuple(fns), calls=calls, order=())
    elif kind == "check":
        return replace(p, check=p.check + b) if a % 2 else replace(p, check2=p.check2 + b)
    elif kind == "type":
        fns[i] = replace(f, type=TYPES[(TYPES.index(f.type) + 1 + b % (len(TYPES) - 1)) % len(TYPES)])
    elif kind == "typedef":
        return replace(p, typedef=TYPEDEFS[(TYPEDEFS.index(p.typedef) + 1 + b % 3) % len(TYPEDEFS)])
    elif kind == "acc_type":
        return replace(p, acc_type=TYPES[(TYPES.index(p.acc_type) + 1 + b % 3) % len(TYPES)])
    elif kind == "move":
        return replace(p, padding=p.padding + 1 + b % 3)
    elif kind == "swap":
        fns[i] = replace(f, swapped=not f.swapped)
    elif kind == "rename":
        fns[i] = replace(f, local="z" if f.local == "y" else "y")
    elif kind == "reorder":
        n = len(fns)
        order = list(p.order) if sorted(p.order) == list(range(n)) else list(range(n))
        j = b % n
        order[i], order[j] = order[j], order[i]
        return replace(p, order=tuple(order))
    return replace(p, fns=tuple(fns))


edits = st.tuples(st.sampled_from(EDIT_KINDS), st.integers(0, 9), st.integers(-3, 5))


def sibling(p: Prog) -> Prog:
    """Another program with the same functions (an earlier project sharing the cache)."""
    return replace(p, calls=tuple(reversed(p.calls)) + (p.fns[-1].name,), check=p.check + 3, check2=p.check2 - 2,
                   padding=p.padding + 2)


def random_program(rng, entries: tuple[str, ...] = ("main", "top"), recursion: bool = True) -> Prog:
    """The same distribution as ``programs``, from a seeded random.Random (for campaigns that
    must be reproducible by seed without hypothesis)."""
    k = rng.randint(2, 4)
    names = [f"f{i}" for i in range(k)]
    fns = []
    for i, nm in enumerate(names):
        options = [None, *names[i + 1:]] + ([nm] if recursion else [])
        fns.append(Fn(nm, rng.choice(TYPES[:3] if rng.random() < 0.5 else TYPES), rng.choice(CMPS),
                      rng.randint(-3, 6), rng.choice(OPS), rng.randint(-2, 3), rng.choice(options), rng.randint(-2, 2)))
    calls = tuple(rng.choice(names) for _ in range(rng.randint(1, 3)))
    return Prog(tuple(fns), calls, rng.randint(0, 4), rng.randint(-5, 12), rng.randint(5, 40),
                rng.choice(TYPES[:4]), rng.choice(entries), typedef=rng.choice(TYPEDEFS))


def random_edit(rng) -> tuple:
    return (rng.choice(EDIT_KINDS), rng.randint(0, 9), rng.randint(-3, 5))
