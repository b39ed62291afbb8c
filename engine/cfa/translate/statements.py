"""Statements and conditions: control flow, loops, switch, goto and return"""

from __future__ import annotations

from pycparser import c_ast

from ...frontend.errors import Unsupported
from ..ctype import (
    IntType,
    PointerType,
    VoidType,
)
from ..ir import (
    AssignEdge,
    AssumeEdge,
    Binary,
    BlankEdge,
    CFANode,
    Const,
    Expr,
    ReturnEdge,
    Var,
)
from .common import is_elvis, range_bounds
from .parts import BuilderParts


class StatementBuilder(BuilderParts):
    """Statements and conditions: control flow, loops, switch, goto and return (a part of FunctionBuilder)."""

    # ---- conditions -------------------------------------------------------
    def cond(self, node: c_ast.Node, t: CFANode, f: CFANode) -> None:
        if isinstance(node, c_ast.BinaryOp) and node.op in ("&&", "||"):
            mid = self.new_node()
            if node.op == "&&":
                self.cond(node.left, mid, f)
            else:
                self.cond(node.left, t, mid)
            self.cur = mid
            self.cond(node.right, t, f)
            return
        if isinstance(node, c_ast.UnaryOp) and node.op == "!":
            self.cond(node.expr, f, t)
            return
        if isinstance(node, c_ast.TernaryOp) and is_elvis(node):
            # ``a ?: b`` holds when ``a`` does (its value, nonzero, is the result), else as ``b``.
            b = self.new_node()
            self.cond(node.cond, t, b)
            self.cur = b
            self.cond(node.iffalse, t, f)
            return
        if isinstance(node, c_ast.TernaryOp):
            a, b = self.new_node(), self.new_node()
            self.cond(node.cond, a, b)
            self.cur = a
            self.cond(node.iftrue, t, f)
            self.cur = b
            self.cond(node.iffalse, t, f)
            return
        if isinstance(node, c_ast.ExprList) and len(node.exprs) > 1:
            for sub in node.exprs[:-1]:
                self.expr(sub, False)
            self.cond(node.exprs[-1], t, f)
            return
        e = self.truth(self.expr(node))
        rng = self.pb.range(node)
        if isinstance(e, Const):
            self.goto(t if e.value != 0 else f, node)
            return
        src = self.here()
        text = self.pb.source_text(rng)
        self.link(AssumeEdge(pred=src, succ=t, range=rng, text=text, cond=e, truth=True))
        self.link(AssumeEdge(pred=src, succ=f, range=rng, text=text, cond=e, truth=False))
        self.cur = None

    # ---- statements -------------------------------------------------------
    def stmt(self, node: c_ast.Node | None) -> None:
        if node is None:
            return
        saved = self.context_range
        self.context_range = self.pb.range(node) or saved
        try:
            self._stmt(node)
        except Unsupported as u:
            if u.where is None:
                raise Unsupported(u.what, self.pb.range(node)) from None
            raise
        finally:
            self.context_range = saved

    def _stmt(self, node: c_ast.Node) -> None:
        if isinstance(node, c_ast.Compound):
            with self.block_scope():
                for item in node.block_items or []:
                    self.stmt(item)
        elif isinstance(node, c_ast.Decl):
            self.local_decl(node)
        elif isinstance(node, c_ast.DeclList):
            for d in node.decls:
                self.local_decl(d)
        elif isinstance(node, c_ast.Typedef):
            self.scope.typedefs[node.name] = self.pb.resolve_type(node.type, self.scope, node)
        elif isinstance(node, c_ast.If):
            t, f, join = self.new_node(), self.new_node(), self.new_node()
            self.cond(node.cond, t, f)
            self.cur = t
            self.stmt(node.iftrue)
            self.goto(join)
            self.cur = f
            self.stmt(node.iffalse)
            self.goto(join)
            self.cur = join if join.inn else None
        elif isinstance(node, c_ast.While):
            head, body, done = self.new_node(), self.new_node(), self.new_node()
            head.loop_head = True
            self.goto(head, label="while")
            self.cur = head
            self.cond(node.cond, body, done)
            self.cur = body
            self.loop_body(node.stmt, done, head)
            self.goto(head)
            self.cur = done if done.inn else None
        elif isinstance(node, c_ast.DoWhile):
            body, test, done = self.new_node(), self.new_node(), self.new_node()
            body.loop_head = True
            self.goto(body, label="do")
            self.cur = body
            self.loop_body(node.stmt, done, test)
            self.goto(test)
            self.cur = test if test.inn else None
            if self.cur is not None:
                self.cond(node.cond, body, done)
            self.cur = done if done.inn else None
        elif isinstance(node, c_ast.For):
            with self.block_scope():
                if isinstance(node.init, c_ast.DeclList):
                    for d in node.init.decls:
                        self.local_decl(d)
                elif node.init is not None:
                    self.expr(node.init, False)
                head, body, nxt, done = self.new_node(), self.new_node(), self.new_node(), self.new_node()
                head.loop_head = True
                self.goto(head, label="for")
                self.cur = head
                if node.cond is not None:
                    self.cond(node.cond, body, done)
                else:
                    self.goto(body)
                self.cur = body
                self.loop_body(node.stmt, done, nxt)
                self.goto(nxt)
                self.cur = nxt if nxt.inn else None
                if self.cur is not None and node.next is not None:
                    self.expr(node.next, False)
                self.goto(head)
                self.cur = done if done.inn else None
        elif isinstance(node, c_ast.Switch):
            self.switch(node)
        elif isinstance(node, (c_ast.Case, c_ast.Default)):
            if not self.switch_cases:
                raise Unsupported("case label outside a switch", self.pb.range(node))
            target = self.switch_cases[-1].get(id(node))
            if target is None:
                raise Unsupported("case label in an unexpected place", self.pb.range(node))
            self.goto(target)
            self.cur = target
            for s in node.stmts or []:
                self.stmt(s)
        elif isinstance(node, c_ast.Break):
            if not self.break_stack:
                raise Unsupported("break outside a loop or switch", self.pb.range(node))
            self.end_scopes(self.break_scopes[-1], node)
            self.goto(self.break_stack[-1], node, "break")
        elif isinstance(node, c_ast.Continue):
            if not self.continue_stack:
                raise Unsupported("continue outside a loop", self.pb.range(node))
            self.end_scopes(self.continue_scopes[-1], node)
            self.goto(self.continue_stack[-1], node, "continue")
        elif isinstance(node, c_ast.Label):
            target = self.label_node(node.name)
            self.label_scopes[node.name] = self.scope
            self.goto(target)
            self.cur = target
            self.stmt(node.stmt)
        elif isinstance(node, c_ast.Goto):
            if not isinstance(node.name, str):
                raise Unsupported("computed goto", self.pb.range(node))
            if self.cur is not None and self.leaving(self.scope):  # (only then can a jump end lifetimes)
                # Which blocks it leaves is known once its label is: the edge's ends are filled
                # in at the function's end (see end_goto_scopes).
                edge = self.emit(BlankEdge, node, label="end of scope")
                self.pending_gotos.append((edge, self.scope, node.name))
            self.goto(self.label_node(node.name), node, f"goto {node.name}")
        elif isinstance(node, c_ast.Return):
            self.ret(node)
        elif isinstance(node, c_ast.EmptyStatement | c_ast.Pragma):
            pass
        elif isinstance(node, c_ast.StaticAssert):
            pass
        elif isinstance(node, c_ast.FuncDef):
            raise Unsupported("nested function definitions", self.pb.range(node))
        else:
            self.expr(node, False)

    def label_node(self, name: str) -> CFANode:
        if name not in self.labels:
            n = self.new_node()
            n.label = name
            self.labels[name] = n
        return self.labels[name]

    def loop_body(self, body: c_ast.Node | None, brk: CFANode, cont: CFANode) -> None:
        self.break_stack.append(brk)
        self.continue_stack.append(cont)
        self.break_scopes.append(self.scope)
        self.continue_scopes.append(self.scope)
        try:
            self.stmt(body)
        finally:
            self.break_stack.pop()
            self.continue_stack.pop()
            self.break_scopes.pop()
            self.continue_scopes.pop()

    def switch(self, node: c_ast.Switch) -> None:
        value = self.promote(self.rvalue(self.expr(node.cond)))
        if not isinstance(value, Var | Const):
            tmp = self.new_temp(value.type, self.pb.range(node.cond))
            self.emit(AssignEdge, node.cond, lhs=tmp, rhs=value)
            value = tmp
        cases: list[c_ast.Node] = []
        collect_cases(node.stmt, cases)
        targets: dict[int, CFANode] = {}
        done = self.new_node()
        default: CFANode | None = None
        for c in cases:
            n = self.new_node()
            targets[id(c)] = n
            if isinstance(c, c_ast.Default):
                default = n
        for c in cases:
            if isinstance(c, c_ast.Default):
                continue
            assert isinstance(c, c_ast.Case)
            bounds = range_bounds(c.expr)
            if bounds is not None:
                self.case_range(value, bounds, targets[id(c)], node, c)
                continue
            cv = self.pb.const_int(c.expr, self.scope)
            cond = self.fold(Binary("==", value, self.convert(Const(cv, self.dm.int), value.type), self.dm.int))
            rng = self.pb.range(c.expr)
            if isinstance(cond, Const):
                if cond.value:
                    self.goto(targets[id(c)])
                    break
                continue
            src = self.here()
            nxt = self.new_node()
            text = f"{self.pb.source_text(self.pb.range(node.cond))} == {self.pb.source_text(rng)}"
            self.link(AssumeEdge(pred=src, succ=targets[id(c)], range=rng, text=text, cond=cond, truth=True))
            self.link(AssumeEdge(pred=src, succ=nxt, range=rng, text=text, cond=cond, truth=False))
            self.cur = nxt
        self.goto(default if default is not None else done)
        self.switch_cases.append(targets)
        self.break_stack.append(done)
        self.break_scopes.append(self.scope)
        try:
            self.stmt(node.stmt)
        finally:
            self.break_stack.pop()
            self.break_scopes.pop()
            self.switch_cases.pop()
        self.goto(done)
        self.cur = done if done.inn else None

    def case_range(self, value: Expr, bounds: tuple[c_ast.Node, c_ast.Node], target: CFANode,
                   switch: c_ast.Switch, case: c_ast.Case) -> None:
        """GNU ``case lo ... hi:``: taken when ``lo <= value && value <= hi``, both bounds
        converted to the controlling expression's promoted type as a case label's constant is
        (so an empty range, ``lo > hi`` after conversion, is never taken)."""
        lo, hi = (self.convert(Const(self.pb.const_int(b, self.scope), self.dm.int), value.type) for b in bounds)
        rng = self.pb.range(case.expr)
        text = f"{self.pb.source_text(self.pb.range(switch.cond))} in {self.pb.source_text(rng)}"
        miss = self.new_node()
        for cond in (self.fold(Binary("<=", lo, value, self.dm.int)), self.fold(Binary("<=", value, hi, self.dm.int))):
            if isinstance(cond, Const):
                if not cond.value:
                    self.goto(miss)
                continue
            src = self.here()
            hit = self.new_node()
            self.link(AssumeEdge(pred=src, succ=hit, range=rng, text=text, cond=cond, truth=True))
            self.link(AssumeEdge(pred=src, succ=miss, range=rng, text=text, cond=cond, truth=False))
            self.cur = hit
        self.goto(target)
        self.cur = miss

    def ret(self, node: c_ast.Return) -> None:
        value: Expr | None = None
        if node.expr is not None:
            e = self.rvalue(self.expr(node.expr))
            if isinstance(self.return_type, VoidType):
                value = None
            else:
                value = self.convert(e, self.return_type) if isinstance(self.return_type, IntType | PointerType) else e
        src = self.here()
        self.link(ReturnEdge(pred=src, succ=self.exit, range=self.pb.range(node), value=value,
                             result_var=self.result_var))
        self.cur = None


def collect_cases(node: c_ast.Node | None, out: list[c_ast.Node]) -> None:
    """Case labels of one switch, not descending into nested switches."""
    if node is None:
        return
    if isinstance(node, (c_ast.Case, c_ast.Default)):
        out.append(node)
    if isinstance(node, c_ast.Switch):
        return
    for _, child in node.children():
        collect_cases(child, out)
