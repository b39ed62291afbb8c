"""The symbols of linked translation units, checked as the linker (and gcc's -flto) checks them.

frontend/link.py joins the units' texts, each after a ``#pragma cbam unit`` node, with what
two units share through a header kept once. The file-scope declarations are read unit by
unit, and what a build would reject, or what the joined text could not mean as the separate
units do, is reported:

- two definitions of one external function or variable (gcc since 10 puts tentative
  definitions in one unit each too: ``-fno-common``);
- an external name declared with different types in two units;
- a type name (typedef, struct, union or enum tag, enumerator) that two units define
  differently: the joined text has one scope for types, so cbam cannot keep them apart yet.

A name with internal linkage (``static``) that another unit uses too is renamed in its own
unit first (``internal_names``, then frontend.link.rename_internal): two symbols, as the
linker keeps them.

Each message says where both are, as the linker does."""

from __future__ import annotations

import copy
import os
import re
from dataclasses import dataclass

from pycparser import c_ast, c_generator

from ..frontend.errors import Diagnostic, Range
from ..frontend.link import unit_of_pragma

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator, Sequence


@dataclass
class _Symbol:
    unit: str
    where: Range | None
    static: bool
    defines: bool  # a function body, an initialiser or a tentative definition
    type_text: str  # the declared type without parameter names ('' where it says too little)


def units_of(ext: Sequence[c_ast.Node]) -> Iterator[tuple[str, c_ast.Node]]:
    """Each file-scope node with the unit it is in (nothing for an unlinked program)."""
    unit: str | None = None
    for node in ext:
        if isinstance(node, c_ast.Pragma):
            opened = unit_of_pragma(node.string or "")
            if opened is not None:
                unit = opened
                continue
        if unit is not None and node is not None:
            yield unit, node


def is_linked(ext: Sequence[c_ast.Node]) -> bool:
    return any(isinstance(n, c_ast.Pragma) and unit_of_pragma(n.string or "") is not None for n in ext[:1])


def internal_name(name: str, unit: str) -> str:
    """What a ``static`` name of ``unit`` is called in the linked program where another unit
    uses the same name: still a C identifier (harnesses and dumps print names), and one that
    says whose it is."""
    stem = re.sub(r"\W", "_", os.path.splitext(os.path.basename(unit))[0])
    return f"{name}__static_{stem}"


class InternalNames(Exception):
    """A ``static`` name of one unit is used by another too: the linked text is to be read
    again with it renamed in its own unit (frontend.link.rename_internal), as ``names`` says
    (unit -> name -> its name in the program)."""

    def __init__(self, names: dict[str, dict[str, str]]):
        super().__init__(names)
        self.names = names


def internal_names(ext: Sequence[c_ast.Node]) -> dict[str, dict[str, str]]:
    """For each unit, its ``static`` file-scope names another unit also uses, and what to call
    them (internal_name); {} when the units' names do not clash."""
    statics: dict[str, set[str]] = {}
    users: dict[str, set[str]] = {}
    for unit, node in units_of(ext):
        for name, static in _file_scope_names(node):
            users.setdefault(name, set()).add(unit)
            if static:
                statics.setdefault(name, set()).add(unit)
    out: dict[str, dict[str, str]] = {}
    for name, units in statics.items():
        if len(users[name]) > 1:
            for unit in units:
                out.setdefault(unit, {})[name] = internal_name(name, unit)
    return out


def _file_scope_names(node: c_ast.Node) -> Iterator[tuple[str, bool]]:
    """The function or variable names a file-scope node declares, each with whether it is static."""
    decl = node.decl if isinstance(node, c_ast.FuncDef) else node
    if isinstance(decl, c_ast.Decl) and decl.name and "typedef" not in (decl.storage or []):
        yield decl.name, "static" in (decl.storage or [])


def check(ext: Sequence[c_ast.Node], range_of: Callable[[c_ast.Node], Range | None]) -> list[Diagnostic]:
    symbols: dict[str, list[_Symbol]] = {}
    types: dict[tuple[str, str], tuple[str, str, Range | None]] = {}  # (kind, name) -> (unit, text, where)
    out: list[Diagnostic] = []
    gen = c_generator.CGenerator()

    def note_type(kind: str, name: str, text: str, unit: str, where: Range | None) -> None:
        first = types.get((kind, name))
        if first is None:
            types[(kind, name)] = (unit, text, where)
        elif first[0] != unit and first[1] != text:
            out.append(_diag(where, unit, f"{kind} {name} is defined differently here and at {_at(first[2], first[0])}: "
                                        "cbam cannot yet link units that give one name two meanings"))

    for unit, node in units_of(ext):
        where = range_of(node)
        if isinstance(node, c_ast.FuncDef):
            d = node.decl
            # C99's inline definition (inline, neither static nor extern) may be in every unit
            # that includes its header: no external definition, so no second one either.
            inline_only = "inline" in (d.funcspec or []) and not {"static", "extern"} & set(d.storage or [])
            symbols.setdefault(d.name, []).append(
                _Symbol(unit, range_of(d) or where, "static" in (d.storage or []), not inline_only,
                        _type_text(gen, d.type)))
            continue
        if isinstance(node, c_ast.Typedef):
            note_type("type", node.name, gen.visit(node), unit, where)
            continue
        if not isinstance(node, c_ast.Decl):
            continue
        for kind, name, text in _tags(gen, node.type):
            note_type(kind, name, text, unit, where)
        if node.name is None:
            continue
        storage = node.storage or []
        if "typedef" in storage:
            continue
        is_function = isinstance(node.type, c_ast.FuncDecl)
        defines = not is_function and "extern" not in storage
        symbols.setdefault(node.name, []).append(
            _Symbol(unit, where, "static" in storage, defines, _type_text(gen, node.type)))

    for name, seen in symbols.items():
        units = {s.unit for s in seen}
        if len(units) < 2:
            continue
        if any(s.static for s in seen):
            continue  # renamed apart before this check (internal_names): two symbols
        defs = [s for s in seen if s.defines]
        by_unit: dict[str, _Symbol] = {}
        for s in defs:
            by_unit.setdefault(s.unit, s)
        if len(by_unit) > 1:
            first, second = list(by_unit.values())[:2]
            out.append(_diag(second.where, second.unit,
                             f"multiple definition of '{name}'; first defined at {_at(first.where, first.unit)}"))
            continue
        typed = [s for s in seen if s.type_text]
        for s in typed[1:]:
            if s.unit != typed[0].unit and not _compatible(s.type_text, typed[0].type_text):
                out.append(_diag(s.where, s.unit,
                                 f"'{name}' is declared here as {s.type_text!r} and at {_at(typed[0].where, typed[0].unit)} "
                                 f"as {typed[0].type_text!r}: the units disagree on its type"))
                break
    return out


def _tags(gen: c_generator.CGenerator, t: c_ast.Node) -> Iterator[tuple[str, str, str]]:
    """The struct, union and enum definitions (with their members) a declaration's type holds."""
    while isinstance(t, c_ast.TypeDecl | c_ast.PtrDecl | c_ast.ArrayDecl | c_ast.FuncDecl):
        t = t.type
    if isinstance(t, c_ast.Struct | c_ast.Union) and t.name and t.decls is not None:
        yield ("struct" if isinstance(t, c_ast.Struct) else "union"), t.name, gen.visit(t)
    elif isinstance(t, c_ast.Enum) and t.values is not None:
        text = gen.visit(t)
        if t.name:
            yield "enum", t.name, text
        for e in t.values.enumerators:
            yield "enumerator", e.name, text


def _type_text(gen: c_generator.CGenerator, t: c_ast.Node) -> str:
    """The type as C without the declared name and the parameters' names; '' for a function
    declared without a prototype (``int f()``), which agrees with any."""
    if isinstance(t, c_ast.FuncDecl):
        if t.args is None:
            return ""
        params = []
        for p in t.args.params:
            params.append("..." if isinstance(p, c_ast.EllipsisParam) else _nameless(gen, p.type if hasattr(p, "type") else p))
        return f"{_nameless(gen, t.type)} ({', '.join(params)})"
    return _nameless(gen, t)


def _nameless(gen: c_generator.CGenerator, t: c_ast.Node) -> str:
    t = copy.deepcopy(t)
    for node in _walk(t):
        if isinstance(node, c_ast.TypeDecl):
            node.declname = None
    return " ".join(gen.visit(t).split())


def _walk(node: c_ast.Node) -> Iterator[c_ast.Node]:
    yield node
    for _, child in node.children():
        yield from _walk(child)


def _compatible(a: str, b: str) -> bool:
    # ``char buf[]`` declares what ``char buf[16]`` defines.
    strip = re.compile(r"\[[^\]]*\]")
    return a == b or strip.sub("[]", a) == strip.sub("[]", b)


def _at(where: Range | None, unit: str) -> str:
    return f"{where.file}:{where.line}" if where is not None else unit


def _diag(where: Range | None, unit: str, message: str) -> Diagnostic:
    if where is None:
        return Diagnostic("error", message, unit)
    return Diagnostic("error", message, where.file, where.line, where.col)
