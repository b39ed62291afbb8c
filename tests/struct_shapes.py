"""Random struct and union shapes as gcc lays them out: packed and aligned attributes (both
placements, on types and members), ``#pragma pack``, bit-fields of every kind (signed,
unsigned, _Bool, enum, unnamed, zero-width, packed), nested structs and unions.

``measure`` compiles many shapes into one program and reads gcc's layout of each: sizeof,
alignment, every ordinary member's offset and every bit-field's bits (found by setting the
field to all ones in a zeroed object and reading the bytes back). ``value_program`` writes
a snippet whose CHECKs gcc computes (gcc_oracle.py): writes, compound assignments, ++ and
whole-struct copies of the fields, and every byte of the object afterwards."""

from __future__ import annotations

import random
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

# (spelling, bits in ILP32, bits in LP64, signed)
INT_TYPES = [
    ("char", 8, 8, True), ("signed char", 8, 8, True), ("unsigned char", 8, 8, False),
    ("short", 16, 16, True), ("unsigned short", 16, 16, False), ("int", 32, 32, True),
    ("unsigned int", 32, 32, False), ("long", 32, 64, True), ("unsigned long", 32, 64, False),
    ("long long", 64, 64, True), ("unsigned long long", 64, 64, False), ("_Bool", 8, 8, False),
    ("enum color", 32, 32, False),
]
PRELUDE = "enum color { RED, GREEN, BLUE = 7 };\n"


@dataclass
class Member:
    name: str | None
    type: str  # a C type spelling, or the name of an earlier shape ("struct s3")
    bits: int | None = None
    array: int | None = None
    attrs: list[str] = field(default_factory=list)
    int_bits: int | None = None  # for integer members: the width in the model
    signed: bool = False

    def decl(self) -> str:
        name = self.name or ""
        arr = f"[{self.array}]" if self.array else ""
        bits = f" : {self.bits}" if self.bits is not None else ""
        attrs = "".join(f" __attribute__(({a}))" for a in self.attrs)
        return f"{self.type} {name}{arr}{bits}{attrs};"


@dataclass
class Shape:
    tag: str
    union: bool
    members: list[Member]
    head_attrs: list[str] = field(default_factory=list)  # struct __attribute__((x)) tag { ... }
    tail_attrs: list[str] = field(default_factory=list)  # struct tag { ... } __attribute__((x))
    pack: int | None = None  # #pragma pack(push, N) around the definition

    @property
    def ctype(self) -> str:
        return f"{'union' if self.union else 'struct'} {self.tag}"

    def definition(self) -> str:
        kw = "union" if self.union else "struct"
        head = "".join(f"__attribute__(({a})) " for a in self.head_attrs)
        tail = "".join(f" __attribute__(({a}))" for a in self.tail_attrs)
        body = " ".join(m.decl() for m in self.members)
        text = f"{kw} {head}{self.tag} {{ {body} }}{tail};\n"
        if self.pack is not None:
            text = f"#pragma pack(push, {self.pack})\n{text}#pragma pack(pop)\n"
        return text

    def bitfields(self) -> list[Member]:
        return [m for m in self.members if m.bits and m.name]

    def scalars(self) -> list[Member]:
        """Named members a value can be written to and read from (integers and bit-fields)."""
        return [m for m in self.members if m.name and m.int_bits is not None and not m.array]


def random_shapes(rng: random.Random, count: int, data_model: str) -> list[Shape]:
    shapes: list[Shape] = []
    lp64 = data_model == "LP64"
    for k in range(count):
        union = rng.random() < 0.2
        members: list[Member] = []
        bitfield_heavy = rng.random() < 0.6
        for j in range(rng.randint(1, 7)):
            name = f"m{j}"
            if bitfield_heavy and rng.random() < 0.7:
                spelling, b32, b64, signed = rng.choice(INT_TYPES)
                tbits = b64 if lp64 else b32
                if spelling == "_Bool":
                    width = 1
                elif rng.random() < 0.1 and not union:
                    members.append(Member(None, spelling, 0))
                    continue
                else:
                    width = rng.choice([1, 2, 3, tbits // 2, tbits - 1, tbits, rng.randint(1, tbits)])
                unnamed = rng.random() < 0.1
                attrs = ["packed"] if rng.random() < 0.1 else []
                members.append(Member(None if unnamed else name, spelling, width, attrs=attrs,
                                      int_bits=min(width, tbits), signed=signed and spelling != "_Bool"))
                continue
            r = rng.random()
            attrs = []
            if rng.random() < 0.15:
                attrs.append("packed")
            if rng.random() < 0.15:
                attrs.append(f"aligned({rng.choice([1, 2, 4, 8, 16])})")
            if r < 0.7 or not shapes:
                spelling, b32, b64, signed = rng.choice(INT_TYPES)
                arr = rng.choice([2, 3, 5]) if rng.random() < 0.15 else None
                tbits = b64 if lp64 else b32
                members.append(Member(name, spelling, None, arr, attrs, tbits if spelling != "_Bool" else 1,
                                      signed))
            elif r < 0.8:
                members.append(Member(name, "void *", None, None, attrs))
            else:
                inner = rng.choice(shapes)
                members.append(Member(name, inner.ctype, None, rng.choice([None, None, 2]), attrs))
        if not any(m.name for m in members):
            members.append(Member("last", "int", None, None, [], 32, True))
        shape = Shape(f"s{k}", union, members)
        if rng.random() < 0.25:
            (shape.head_attrs if rng.random() < 0.5 else shape.tail_attrs).append(
                rng.choice(["packed", "__packed__"]))
        if rng.random() < 0.15:
            shape.tail_attrs.append(rng.choice(["aligned", "aligned(2)", "aligned(8)", "aligned(16)", "__aligned__(4)"]))
        if rng.random() < 0.15:
            shape.pack = rng.choice([1, 2, 4])
        shapes.append(shape)
    return shapes


def definitions(shapes: list[Shape]) -> str:
    return PRELUDE + "".join(s.definition() for s in shapes)


@dataclass
class Measured:
    size: int
    align: int
    offsets: dict[str, int]
    bits: dict[str, tuple[int, int]]  # bit-field -> (first bit, width)


def measure(shapes: list[Shape], tmp_path: Path, data_model: str) -> list[Measured]:
    """gcc's layout of every shape (one compilation for all of them)."""
    assert shutil.which("gcc") is not None
    lines = ["#include <stdio.h>", "#include <string.h>", "#include <stddef.h>", definitions(shapes),
             "static void bytes(const void *p, size_t n) { const unsigned char *b = p;"
             " for (size_t i = 0; i < n; i++) printf(\" %u\", b[i]); printf(\"\\n\"); }",
             "int main(void) {"]
    for s in shapes:
        lines.append(f'  printf("S {s.tag} %zu %zu\\n", sizeof({s.ctype}), _Alignof({s.ctype}));')
        for m in s.members:
            if m.name and not m.bits:
                lines.append(f'  printf("O {m.name} %zu\\n", offsetof({s.ctype}, {m.name}));')
        for m in s.bitfields():
            ones = "1" if m.type == "_Bool" else "-1"
            lines.append(f"  {{ {s.ctype} x; memset(&x, 0, sizeof x); x.{m.name} = {ones};"
                         f' printf("B {m.name}"); bytes(&x, sizeof x); }}')
    lines.append("  return 0;\n}\n")
    src = tmp_path / f"measure_{data_model}.c"
    src.write_text("\n".join(lines))
    exe = tmp_path / f"measure_{data_model}"
    flags = ["-m32"] if data_model == "ILP32" else []
    cc = subprocess.run(["gcc", "-w", *flags, str(src), "-o", str(exe)], capture_output=True, text=True)
    assert cc.returncode == 0, cc.stderr
    out = subprocess.run([str(exe)], capture_output=True, text=True, check=True).stdout
    result: list[Measured] = []
    for line in out.splitlines():
        kind, rest = line.split(" ", 1)
        if kind == "S":
            _, size, align = rest.split()
            result.append(Measured(int(size), int(align), {}, {}))
        elif kind == "O":
            name, off = rest.split()
            result[-1].offsets[name] = int(off)
        else:
            name, *bs = rest.split()
            value = sum(int(b) << (8 * i) for i, b in enumerate(bs))
            lo = (value & -value).bit_length() - 1
            result[-1].bits[name] = (lo, value.bit_length() - lo)
    assert len(result) == len(shapes)
    return result


def value_program(shape: Shape, rng: random.Random, others: list[Shape], size: int) -> str:
    """A snippet of CHECKs (gcc_oracle.py) on one shape's scalar members and its ``size`` bytes."""
    ctype = shape.ctype
    body = ["  " + ctype + " s, t;", "  memset(&s, 0, sizeof s);"]
    scalars = shape.scalars()
    for m in scalars:
        body.append(f"  s.{m.name} = {_literal(rng, m)};")
    for m in scalars:
        body.append(f"  CHECK(s.{m.name});")
    # Arithmetic only where C defines every result: a signed value of int's width or more could
    # overflow (undefined, and gcc -O0 wraps where cbam need not); narrower ones promote to int.
    for m in [m for m in scalars if not m.signed or (m.int_bits or 64) < 32][:3]:
        op = rng.choice(["+=", "-=", "|=", "^=", "++", "--"])
        if op in ("++", "--"):
            body.append(f"  CHECK(s.{m.name}{op});" if rng.random() < 0.5 else f"  {op}s.{m.name};")
        else:
            body.append(f"  s.{m.name} {op} {rng.choice([1, 3, 100, -5])};")
        body.append(f"  CHECK(s.{m.name});")
        body.append(f"  CHECK(s.{m.name} - 1 < 0);")  # the type of the field's value
    body.append("  t = s;")
    for m in scalars:
        body.append(f"  CHECK(t.{m.name});")
    body += [f"  CHECK(((unsigned char *)&t)[{i}]);" for i in range(size)]
    body.append(f"  CHECK(sizeof({ctype})); CHECK(_Alignof({ctype}));")
    for m in shape.members:
        if m.name and not m.bits:
            body.append(f"  CHECK(offsetof({ctype}, {m.name}));")
    return "#include <string.h>\n#include <stddef.h>\n" + definitions(others + [shape]) + \
        "int main(void) {\n" + "\n".join(body) + "\n  return 0;\n}\n"


def _literal(rng: random.Random, m: Member) -> str:
    bits = m.int_bits or 8
    if m.type == "_Bool":
        return rng.choice(["0", "1", "2", "-1"])
    choices = [0, 1, -1, (1 << (bits - 1)) - 1, 1 << (bits - 1), (1 << bits) - 1, (1 << bits) + 1,
               rng.randint(0, (1 << bits) - 1), -rng.randint(1, 1 << max(bits - 1, 0))]
    v = rng.choice(choices)
    v = max(min(v, (1 << 64) - 1), -(1 << 63))  # a constant some C type holds
    if v < 0:
        return f"({v}LL)"
    return f"{v}ULL"
