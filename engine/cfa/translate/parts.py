"""What the parts of the builder know of each other, declared for the type checker.

``FunctionBuilder`` (cfa/builder.py) is one class made of parts, one per module here
(``ExpressionBuilder``, ``StatementBuilder``, ...), and ``ProgramBuilder`` extends
``TypeResolver``. A part uses the state the builder sets up and the methods other parts
define; ``BuilderParts`` and ``ProgramParts`` declare them: the attributes by annotation alone
(no class attribute is made), the methods by their signatures. Every part derives from one of
them, so they come last in the builder's MRO, after every real method; their bodies never run.
The parts do not import builder.py: ``self.pb`` is a ``ProgramParts``.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any, TypeVar

from pycparser import c_ast

from ...frontend.attributes import AttributeTable
from ...frontend.errors import Range
from ...frontend.srcmap import Spans
from ..cfa import VarInfo
from ..ctype import CType, DataModel, FunctionType, StructType
from ..ir import BlankEdge, CFANode, DeclEdge, Edge, Expr, Var
from .common import Scope
from .forms import BitFieldRef, VlaPointer, VlaShape, VlaSlice

EdgeT = TypeVar("EdgeT", bound=Edge)  # emit and link give back an edge of the class they are given


class ProgramParts:
    """What ``TypeResolver`` and the function builders (``pb``) use of ``ProgramBuilder``."""

    dm: DataModel
    spans: Spans
    attrs: AttributeTable
    vars: dict[str, VarInfo]
    structs: dict[str, list[tuple[str, CType]]]  # (a struct's layout: a struct_layout.Fields)
    global_scope: Scope
    func_types: dict[str, FunctionType]
    func_defs: dict[str, c_ast.FuncDef]
    declared: dict[str, Range | None]
    static_inits: list[tuple[Var, c_ast.Decl, Scope]]
    extern_only: dict[str, DeclEdge]
    flexible_types: dict[str, StructType]
    bitfield_structs: dict[str, Range | None]
    unsupported_structs: dict[str, str]
    vla_shapes: dict[str, VlaShape]
    _anon: int
    _addressed: list[str]
    _implicit: list[tuple[str, Range | None]]

    # ProgramBuilder's
    def range(self, node: c_ast.Node | None) -> Range | None:
        raise NotImplementedError

    def source_text(self, rng: Range | None) -> str:
        raise NotImplementedError

    def new_var(self, name: str, t: CType, function: str | None, **kw: Any) -> Var:
        raise NotImplementedError

    def declare_function(self, decl: c_ast.Decl, definition: bool = False) -> None:
        raise NotImplementedError

    def address_taken_functions(self, defined: bool = True) -> list[str]:
        raise NotImplementedError

    def function_builder(self, name: str | None, scope: Scope, const_only: bool = False) -> BuilderParts:
        raise NotImplementedError

    # TypeResolver's
    def resolve_type(self, node: c_ast.Node, scope: Scope, where: c_ast.Node | None = None) -> CType:
        raise NotImplementedError

    def const_int(self, node: c_ast.Node, scope: Scope) -> int:
        raise NotImplementedError

    def probe(self, node: c_ast.Node, scope: Scope) -> tuple[Expr, bool]:
        raise NotImplementedError


class BuilderParts:
    """What the parts of ``FunctionBuilder`` use of the builder and of each other."""

    pb: ProgramParts
    dm: DataModel
    name: str
    const_only: bool
    scope: Scope
    function_scope: Scope
    nodes: list[CFANode]
    entry: CFANode
    exit: CFANode
    cur: CFANode | None
    temps: int
    labels: dict[str, CFANode]
    break_stack: list[CFANode]
    continue_stack: list[CFANode]
    break_scopes: list[Scope]
    continue_scopes: list[Scope]
    label_scopes: dict[str, Scope]
    pending_gotos: list[tuple[BlankEdge, Scope, str]]
    addressed_names: frozenset[str]
    switch_cases: list[dict[int, CFANode]]
    local_names: dict[str, int]
    return_type: CType
    result_var: Var | None
    calls: set[str]
    unsupported: tuple[str, Range | None] | None
    context_range: Range | None

    # FunctionBuilder's: nodes and edges
    def new_node(self) -> CFANode:
        raise NotImplementedError

    def link(self, edge: EdgeT) -> EdgeT:
        raise NotImplementedError

    def here(self) -> CFANode:
        raise NotImplementedError

    def emit(self, cls: type[EdgeT], node: c_ast.Node | None = None, rng: Range | None = None,
             **kw: Any) -> EdgeT:
        raise NotImplementedError

    def goto(self, target: CFANode, node: c_ast.Node | None = None, label: str = "") -> None:
        raise NotImplementedError

    def new_temp(self, t: CType, rng: Range | None = None) -> Var:
        raise NotImplementedError

    # ExpressionBuilder's
    def convert(self, e: Expr, t: CType) -> Expr:
        raise NotImplementedError

    def rvalue(self, e: Expr) -> Expr:
        raise NotImplementedError

    def promote(self, e: Expr) -> Expr:
        raise NotImplementedError

    def binary(self, op: str, lhs: Expr, rhs: Expr, node: c_ast.Node | None) -> Expr:
        raise NotImplementedError

    def fold(self, e: Expr) -> Expr:
        raise NotImplementedError

    def truth(self, e: Expr) -> Expr:
        raise NotImplementedError

    def expr(self, node: c_ast.Node, want: bool = True) -> Expr:
        raise NotImplementedError

    def field_type(self, t: CType, fieldname: str, node: c_ast.Node) -> CType:
        raise NotImplementedError

    # StatementBuilder's
    def cond(self, node: c_ast.Node, t: CFANode, f: CFANode) -> None:
        raise NotImplementedError

    def stmt(self, node: c_ast.Node | None) -> None:
        raise NotImplementedError

    # DeclarationBuilder's
    def block_scope(self) -> AbstractContextManager[None]:
        raise NotImplementedError

    def leaving(self, scope: Scope | None, stop: Callable[[Scope], bool] = lambda _: False) -> list[Var]:
        raise NotImplementedError

    def end_scopes(self, until: Scope | None, node: c_ast.Node | None = None) -> None:
        raise NotImplementedError

    def local_decl(self, decl: c_ast.Decl) -> None:
        raise NotImplementedError

    def unique_local(self, name: str) -> str:
        raise NotImplementedError

    # InitializerBuilder's
    def completed_type(self, t: CType, init: c_ast.Node | None) -> CType:
        raise NotImplementedError

    def initialise(self, lv: Expr, t: CType, init: c_ast.Node, decl: c_ast.Node) -> None:
        raise NotImplementedError

    def compound_literal(self, node: c_ast.CompoundLiteral) -> Expr:
        raise NotImplementedError

    # CallBuilder's
    def call(self, node: c_ast.FuncCall, want: bool, direct_lhs: Var | None = None,
             whole: c_ast.Node | None = None) -> Expr:
        raise NotImplementedError

    def nondet_type(self, name: str, rng: Range | None, into: CType | None = None) -> CType:
        raise NotImplementedError

    # BitFieldBuilder's
    def member(self, base: Expr, name: str, node: c_ast.Node) -> Expr:
        raise NotImplementedError

    def member_lvalue(self, base: Expr, name: str, t: CType) -> Expr:
        raise NotImplementedError

    def declared_members(self, fields: list[tuple[str, CType]]) -> list[tuple[str, CType]]:
        raise NotImplementedError

    def bitfield_load(self, ref: BitFieldRef) -> Expr:
        raise NotImplementedError

    def no_bitfield(self, e: Expr, what: str, node: c_ast.Node) -> None:
        raise NotImplementedError

    # VlaBuilder's
    def vla_declaration(self, decl: c_ast.Decl) -> bool:
        raise NotImplementedError

    def vla_variable(self, var: Var, shape: VlaShape) -> Expr:
        raise NotImplementedError

    def vla_index(self, a: VlaSlice | VlaPointer, i: Expr) -> Expr:
        raise NotImplementedError

    def vla_rvalue(self, e: VlaSlice | VlaPointer) -> Expr:
        raise NotImplementedError

    def vla_address(self, e: VlaSlice) -> Expr:
        raise NotImplementedError

    def vla_sizeof(self, e: VlaSlice) -> Expr:
        raise NotImplementedError
