"""The path encoding's leak check (pathmemory.MemoryState.tracked): what the path decides is
decided in Python, what it leaves open stays a term, and together they mean what the check's
plain formula means (written out here as the reference)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
import z3
from cbam.engine.cex import memory as pathmemory
from cbam.engine.cex.memory import MemoryState, MemoryUnsupported
from cbam.engine.cfa.ctype import IntType, PointerType

from .conftest import load_src

NODE = 16  # struct node { int v; struct node *next; } on LP64: the pointer at offset 8


def reference(m: MemoryState, pointers: list, frames: set[int]) -> z3.BoolRef:
    """Every live heap object is reachable from a pointer variable or from a pointer stored at
    an aligned offset of a named object, through pointers stored in live heap objects: the
    least fixpoint, unrolled once per heap object."""

    def slots(oid: int) -> list[z3.ExprRef]:
        size = z3.simplify(m.sizes[oid]).as_long()
        return [z3.Concat(*reversed([m.byte_term(m.base(oid) + off + i) for i in range(8)]))
                for off in range(0, size - 7, 8)]

    def live(k: int) -> z3.BoolRef:
        return z3.Select(m.live, z3.BitVecVal(k, m.id_bits))

    def kk(k: int) -> z3.BitVecRef:
        return z3.BitVecVal(k, m.id_bits)

    named = [v for oid, always in m.holders(frames) if always for v in slots(oid)]
    reached = {k: z3.Or(*[m.oid(m.term(v)) == kk(k) for v in [*pointers, *named]], z3.BoolVal(False))
               for k in m.heap}
    for _ in m.heap:
        reached = {k: z3.Or(reached[k], *[z3.And(reached[h], live(h), m.oid(v) == kk(k))
                                          for h in m.heap if h != k for v in slots(h)])
                   for k in m.heap}
    leaks = [z3.And(live(k), z3.Not(reached[k])) for k in m.heap]
    return z3.Not(z3.Or(*leaks)) if leaks else z3.BoolVal(True)


def put(m: MemoryState, addr: int, value) -> None:
    """A pointer-sized value stored at ``addr`` (an int, or a 64-bit term)."""
    for i in range(8):
        m.put(addr + i, (value >> (8 * i)) & 0xFF if isinstance(value, int) else z3.Extract(8 * i + 7, 8 * i, value))


@pytest.fixture
def memory(tmp_path: Path) -> MemoryState:
    return MemoryState(load_src("int main(void) { return 0; }\n", tmp_path))


def same(a: z3.BoolRef, b: z3.BoolRef) -> bool:
    s = z3.Solver()
    s.add(a != b)
    return s.check() == z3.unsat


def test_a_list_held_by_its_head_is_decided_without_a_term(memory: MemoryState) -> None:
    nodes = [memory.create(NODE, heap=True) for _ in range(200)]
    for a, b in zip(nodes, nodes[1:]):
        put(memory, memory.base(a) + 8, memory.base(b))  # (the int field and padding stay open)
    put(memory, memory.base(nodes[-1]) + 8, 0)
    assert z3.is_true(memory.tracked([memory.base(nodes[0])], set()))
    # The head lost: a leak, unless an open value (a node's first eight bytes) points to it.
    assert z3.is_false(memory.tracked([], set()))  # (nothing reaches the list, its open bytes included)
    # Cut after the head: the head's open bytes may point anywhere into the rest, a fixpoint
    # over 199 objects, too large to weigh.
    put(memory, memory.base(nodes[0]) + 8, 0)
    with pytest.raises(MemoryUnsupported, match="leak check"):
        memory.tracked([memory.base(nodes[0])], set())
    for n in nodes:
        put(memory, memory.base(n), 7)
    assert z3.is_false(memory.tracked([memory.base(nodes[0])], set()))


def test_a_ring_nothing_reaches_is_lost(memory: MemoryState) -> None:
    """Each object of the ring is pointed to by another: it leaks all the same (a check that
    asked only whether something points to each object answered TRUE on a leaked ring)."""
    ring = [memory.create(NODE, heap=True) for _ in range(5)]
    for a, b in zip(ring, ring[1:] + ring[:1]):
        put(memory, memory.base(a), 0)
        put(memory, memory.base(a) + 8, memory.base(b))
    assert z3.is_false(memory.tracked([], set()))
    assert z3.is_true(memory.tracked([memory.base(ring[3]) + 8], set()))
    p = z3.BitVec("p", 64)
    open_root = memory.tracked([p], set())  # held if p points into the ring
    assert same(open_root, z3.Or(*[memory.oid(p) == z3.BitVecVal(k, memory.id_bits) for k in ring]))


def test_an_object_does_not_keep_itself_and_a_freed_one_is_no_leak(memory: MemoryState) -> None:
    a = memory.create(NODE, heap=True)
    put(memory, memory.base(a), 0)
    put(memory, memory.base(a) + 8, memory.base(a))
    assert z3.is_false(memory.tracked([], set()))
    memory.release(memory.base(a), 0)
    assert z3.is_true(memory.tracked([], set()))


@pytest.mark.parametrize("seed", range(40))
def test_it_means_what_the_reference_formula_means(memory: MemoryState, seed: int) -> None:
    rnd = random.Random(seed)
    heap = [memory.create(NODE, heap=True) for _ in range(rnd.randint(1, 5))]
    named = [memory.object(name, PointerType(IntType("int", 32, True, 3), 64)) >> memory.off_bits
             for name in ("g", "p@1", "q@2")]  # a global, a local of an open call, one of a returned call
    inputs = iter(z3.BitVec(f"in{i}", 64) for i in range(100))

    def value():
        r = rnd.random()
        if r < 0.3:
            return memory.base(rnd.choice(heap)) + rnd.choice([0, 8])
        if r < 0.5:
            return 0
        if r < 0.8:
            return next(inputs)
        return z3.If(z3.Bool(f"c{rnd.random()}"), memory.base(rnd.choice(heap)), next(inputs))

    for n in named:
        if rnd.random() < 0.7:
            put(memory, memory.base(n), value())
    for n in heap:
        for off in (0, 8):
            if rnd.random() < 0.8:
                put(memory, memory.base(n) + off, value())
    for n in heap:
        if rnd.random() < 0.3:
            memory.release(memory.base(n) if rnd.random() < 0.8 else next(inputs), 0)
    pointers = [value() for _ in range(rnd.randint(0, 2))]
    assert same(memory.tracked(pointers, {1}), reference(memory, pointers, {1}))


def test_a_check_too_large_to_weigh_is_given_up(memory: MemoryState, monkeypatch) -> None:
    monkeypatch.setattr(pathmemory, "MAX_LEAK_TERMS", 3500)
    for _ in range(10):
        memory.create(NODE, heap=True)
    assert not z3.is_const(memory.tracked([z3.BitVec(f"p{i}", 64) for i in range(4)], set()))  # 10 x 10 objects x (10 + 20 open slots + 4): 3,400
    with pytest.raises(MemoryUnsupported, match="leak check"):
        memory.tracked([z3.BitVec(f"p{i}", 64) for i in range(6)], set())
