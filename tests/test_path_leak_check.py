"""The path encoding's leak check (pathmemory.MemoryState.tracked): what the path decides is
decided in Python, what it leaves open stays a term, and together they mean what the check's
plain formula means (written out here as the reference)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
import z3
from cbam.engine.analysis import pathmemory
from cbam.engine.analysis.pathmemory import MemoryState, MemoryUnsupported
from cbam.engine.cfa.ctype import IntType, PointerType

from .conftest import load_src

NODE = 16  # struct node { int v; struct node *next; } on LP64: the pointer at offset 8


def reference(m: MemoryState, pointers: list, frames: set[int]) -> z3.BoolRef:
    """Every live heap object is pointed to by a pointer variable, or by a pointer stored at an
    aligned offset of a named object or of another live heap object."""
    leaks = []
    for k in m.heap:
        kk = z3.BitVecVal(k, m.id_bits)
        conds = [z3.Select(m.live, kk)] + [m.oid(g) != kk for g in pointers]
        for oid, always in m.holders(frames):
            if oid == k:
                continue
            size = z3.simplify(m.sizes[oid]).as_long()
            for off in range(0, size - 7, 8):
                stored = z3.Concat(*reversed([m.byte_term(m.base(oid) + off + i) for i in range(8)]))
                live = z3.BoolVal(True) if always else z3.Select(m.live, z3.BitVecVal(oid, m.id_bits))
                conds.append(z3.Not(z3.And(live, m.oid(stored) == kk)))
        leaks.append(z3.And(*conds))
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
    lost = memory.tracked([], set())
    assert not z3.is_const(lost) and same(lost, reference(memory, [], set()))
    for n in nodes:
        put(memory, memory.base(n), 7)
    assert z3.is_false(memory.tracked([], set()))


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
    monkeypatch.setattr(pathmemory, "MAX_LEAK_TERMS", 250)
    for _ in range(10):
        memory.create(NODE, heap=True)
    assert not z3.is_const(memory.tracked([z3.BitVec(f"p{i}", 64) for i in range(4)], set()))  # 10 objects x (20 open slots + 4): 240
    with pytest.raises(MemoryUnsupported, match="leak check"):
        memory.tracked([z3.BitVec(f"p{i}", 64) for i in range(6)], set())
