"""Reusing a function's built CFA across loads of an edited file.

A function whose text, source layout and surroundings (declarations, typedefs, the other
functions' signatures) are unchanged builds to the same CFA; only its place in the file may
differ, and then every range moves by the same number of lines. The front end decides
what "unchanged" means (cfa.incremental); this module keeps the builds, redoes what a
build did to the program besides its CFA, and moves ranges.
"""

from __future__ import annotations

import binascii
import copy
import os
import sys
import zlib
from collections import OrderedDict
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Protocol

from ..frontend.errors import Diagnostic, Range
from ..sha import code_files, sha256
from .cfa import FunctionCFA, VarInfo
from .ir import CFANode

if TYPE_CHECKING:
    from pycparser import c_ast


@dataclass
class FunctionEffects:
    """What building one function did outside its CFA."""

    vars: list[VarInfo]  # its parameters, locals, temporaries and result
    addressed: list[str]  # variables of the program whose address it takes
    implicit: list[tuple[str, Range | None]]  # implicitly declared functions it calls
    diagnostics: list[Diagnostic]
    # The names its body uses other than by calling them: a function named there may be the
    # target of a call through a pointer anywhere in the program (builder.address_taken_functions),
    # and a reused build has no body to find them in.
    named: list[str] = field(default_factory=list)


@dataclass
class _Built:
    """A function's build as the memo and the persistent cache keep it."""

    cfa: FunctionCFA
    effects: FunctionEffects
    file: str
    base: int  # the original line the function starts at
    # The definition's declarator as a body-less FuncDef (what chunks.parse_declarator makes of
    # it), at physical line ``stub_line``, and what it declared at file scope: a new process that
    # reuses the build takes these instead of parsing the declarator. Only a stored build has
    # them (the AST is then its own), and hands them out once (see stub).
    stub: c_ast.FuncDef | None = None
    stub_line: int = 0
    stub_scope: tuple[tuple[str, bool], ...] = ()


class FunctionStore(Protocol):
    """Where builds outlive the process (cache.store.CacheStore)."""

    def get_cfas(self, keys: list[str]) -> dict[str, tuple[str, int, str]]: ...

    def put_cfas(self, rows: list[tuple[str, str, int, str]]) -> None: ...


class FunctionReuse:
    """One load's view of the memo: ``keys`` names each reusable definition (by the id of
    its FuncDef) with its memo key, file and first original line. Builds made by the load are
    also written to ``store`` (at ``flush``), for the next process."""

    def __init__(self, keys: dict[int, tuple[str, str, int]], hits: dict[int, tuple[FunctionCFA, FunctionEffects]],
                 store: FunctionStore | None = None,
                 declared: dict[int, tuple[int, tuple[tuple[str, bool], ...]]] | None = None):
        self.keys = keys
        # Per definition built (by the id of its FuncDef): its chunk's physical line and what
        # its parse declared at file scope, stored with the build for the stub.
        self.declared = declared or {}
        self.hits = hits
        self.reused = 0
        self.built_count = 0
        self.store = store
        self._pending: list[tuple[str, str, int, str]] = []

    def flush(self) -> None:
        if self.store is not None and self._pending:
            try:
                self.store.put_cfas(self._pending)
            except Exception:  # noqa: BLE001 - a cache that cannot be written only costs speed
                pass
        self._pending = []

    def prebuilt(self, fd: c_ast.FuncDef) -> tuple[FunctionCFA, FunctionEffects] | None:
        hit = self.hits.get(id(fd))
        if hit is not None:
            self.reused += 1
        return hit

    def built(self, fd: c_ast.FuncDef, cfa: FunctionCFA, effects: FunctionEffects) -> None:
        self.built_count += 1
        k = self.keys.get(id(fd))
        if k is not None and remember(k[0], k[1], k[2], cfa, effects) and self.store is not None:
            payload = _serialize(_with_stub(_MEMO[k[0]], fd, self.declared.get(id(fd))))
            if payload is not None:
                self._pending.append((persistent_key(k[0]), k[1], k[2], payload))


_MEMO: OrderedDict[str, _Built] = OrderedDict()
_MEMO_SIZE = 5000


def lookup(key: str, file: str, base: int, store: FunctionStore | None = None
           ) -> tuple[FunctionCFA, FunctionEffects] | None:
    """The build of the function with this key, moved to ``base``: from this process's memo,
    else from ``store``."""
    hit = _MEMO.get(key)
    if hit is None and store is not None:
        preload([key], store)
        hit = _MEMO.get(key)
    if hit is None or hit.file != file:
        return None
    return _placed(key, hit, base)


def preload(keys: list[str], store: FunctionStore) -> None:
    """Bring the builds ``store`` holds for these keys (not already in memory) into the memo:
    a new process then builds only what changed since any process built it."""
    missing = [k for k in keys if k not in _MEMO]
    if not missing:
        return
    try:
        rows = store.get_cfas([persistent_key(k) for k in missing])
    except Exception:  # noqa: BLE001 - an unreadable cache only costs speed
        return
    by_pkey = {persistent_key(k): k for k in missing}
    for pkey, (file, base, payload) in rows.items():
        built = _deserialize(payload)
        if built is not None and built.file == file and built.base == base:
            _MEMO[by_pkey[pkey]] = built


def stub(key: str, line: int) -> tuple[c_ast.FuncDef, tuple[tuple[str, bool], ...]] | None:
    """The stored declarator of the build with this key, for its chunk now at physical line
    ``line``, and what it declares at file scope; once: the program's AST takes it, and the
    builder may annotate it, so a later load parses the declarator again."""
    hit = _MEMO.get(key)
    if hit is None or hit.stub is None:
        return None
    fd, d = hit.stub, line - hit.stub_line
    hit.stub = None
    if d:
        _move_coords(fd, d)
    return fd, hit.stub_scope


def _move_coords(node: c_ast.Node, d: int) -> None:
    from pycparser.c_parser import Coord

    stack = [node]
    while stack:
        n = stack.pop()
        c = n.coord
        if c is not None:
            n.coord = Coord(c.file, c.line + d, c.column)
        stack.extend(child for _, child in n.children())


def _with_stub(built: _Built, fd: c_ast.FuncDef, declared: tuple[int, tuple[tuple[str, bool], ...]] | None
               ) -> _Built:
    """The build to store: with its declarator, which a definition's full parse gives as parsing
    the declarator alone does (tests/test_incremental_frontend.py checks it over the SV-COMP
    tasks). K&R parameters are left to the parser."""
    if declared is None or fd.param_decls is not None:
        return built
    from pycparser import c_ast

    return replace(built, stub=c_ast.FuncDef(fd.decl, None, c_ast.Compound([]), fd.decl.coord),
                   stub_line=declared[0], stub_scope=declared[1])


def _placed(key: str, hit: _Built, base: int) -> tuple[FunctionCFA, FunctionEffects]:
    _MEMO.move_to_end(key)
    if hit.base != base:
        hit = _shifted(hit, base - hit.base)
        _MEMO[key] = hit
    return hit.cfa, hit.effects


def remember(key: str, file: str, base: int, cfa: FunctionCFA, effects: FunctionEffects) -> bool:
    # Only a function whose every range lies in its own file moves as one piece.
    if not all(r.file == file for r in _ranges(cfa, effects)):
        return False
    _MEMO[key] = _Built(cfa, effects, file, base)
    while len(_MEMO) > _MEMO_SIZE:
        _MEMO.popitem(last=False)
    return True


# ---- builds in the persistent cache ---------------------------------------------------------
# A build is stored as a pickle: the CFA is a graph of the front end's own objects (nodes,
# edges, IR expressions, C types, ranges), which pickle reproduces exactly. The cache
# directory is the user's own, like __pycache__ (whose files are code too); a row's checksum
# catches damage (cache/store.py), and the key names the front end's code, so a build is
# never loaded by a front end that would build it differently.
def persistent_key(key: str) -> str:
    return sha256(f"{_code_digest()}|{key}".encode()).hexdigest()


_CODE: list[str] = []


def _code_digest() -> str:
    """The source of every module that decides what a function builds to."""
    if not _CODE:
        root = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
        h = sha256()
        for f in code_files(root, ("cfa", "frontend")):
            with open(f, "rb") as fh:
                h.update(os.path.relpath(f, root).replace(os.sep, "/").encode() + b"\0" + fh.read() + b"\0")
        _CODE.append(h.hexdigest())
    return _CODE[0]


def _serialize(built: _Built) -> str | None:
    import pickle

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 100_000))  # a long chain of nodes pickles recursively
    try:
        return binascii.b2a_base64(zlib.compress(pickle.dumps(built, protocol=pickle.HIGHEST_PROTOCOL), 1), newline=False).decode()
    except (RecursionError, pickle.PicklingError, TypeError, AttributeError):
        return None
    finally:
        sys.setrecursionlimit(limit)


def _deserialize(payload: str) -> _Built | None:
    import pickle

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 100_000))
    try:
        built = pickle.loads(zlib.decompress(binascii.a2b_base64(payload)))
    except Exception:  # noqa: BLE001 - written by an incompatible version: build it again
        return None
    finally:
        sys.setrecursionlimit(limit)
    return built if isinstance(built, _Built) else None


def clear() -> None:
    _MEMO.clear()


def _ranges(cfa: FunctionCFA, effects: FunctionEffects):
    for r in (cfa.range, cfa.name_range, cfa.unsupported[1] if cfa.unsupported else None):
        if r is not None:
            yield r
    for n in cfa.nodes:
        if n.error is not None and n.error.range is not None:
            yield n.error.range
        for e in n.out:
            if e.range is not None:
                yield e.range
    for v in effects.vars:
        if v.range is not None:
            yield v.range
    for _, r in effects.implicit:
        if r is not None:
            yield r
    for d in effects.diagnostics:
        if d.range is not None:
            yield d.range


def _shift(r: Range | None, d: int) -> Range | None:
    return r.shifted(d) if r is not None else None


def _shifted(b: _Built, d: int) -> _Built:
    """A copy of the build with every range ``d`` lines further down."""
    cfa = b.cfa
    nodes: dict[int, CFANode] = {}
    for n in cfa.nodes:
        m = CFANode(n.function, n.id)
        m.loop_head = n.loop_head
        m.label = n.label
        m.canon = n.canon
        m.error = replace(n.error, range=_shift(n.error.range, d)) if n.error is not None else None
        nodes[id(n)] = m
    edges: dict[int, object] = {}
    for n in cfa.nodes:
        m = nodes[id(n)]
        for e in n.out:
            e2 = copy.copy(e)
            e2.pred = m
            e2.succ = nodes[id(e.succ)]
            e2.range = _shift(e.range, d)
            edges[id(e)] = e2
            m.out.append(e2)
    for n in cfa.nodes:
        nodes[id(n)].inn = [edges[id(e)] for e in n.inn]  # type: ignore[misc]
    unsupported = (cfa.unsupported[0], _shift(cfa.unsupported[1], d)) if cfa.unsupported else None
    new_cfa = replace(cfa, entry=nodes[id(cfa.entry)], exit=nodes[id(cfa.exit)], nodes=[nodes[id(n)] for n in cfa.nodes],
                      range=_shift(cfa.range, d), name_range=_shift(cfa.name_range, d), unsupported=unsupported,
                      calls=set(cfa.calls))
    eff = b.effects
    diags = [x._replace(line=x.line + d, range=x.range.shifted(d)) if x.range is not None else x  # (a named tuple)
             for x in eff.diagnostics]
    effects = replace(eff, vars=[replace(v, range=_shift(v.range, d)) for v in eff.vars], addressed=list(eff.addressed),
                      implicit=[(name, _shift(r, d)) for name, r in eff.implicit], diagnostics=diags)
    return _Built(new_cfa, effects, b.file, b.base + d, b.stub, b.stub_line, b.stub_scope)
