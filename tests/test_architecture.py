"""The layering docs/architecture.md describes, checked on the source: no import cycles between
modules or packages (imports for annotations included), each layer of the engine imports only
the layers below it, no module imports another's private names, the command line (and the server) reach the engine only through engine/api.py, and
no code outside the analysis registry branches on a configuration's name."""

from __future__ import annotations

import ast
from pathlib import Path

from cbam.engine.cfa.callgraph import tarjan
from cbam.engine.cpa import registry

from .conftest import ROOT

ROOTS = {"cbam": ROOT / "cbam", "cbam.engine": ROOT / "engine", "cbam.server": ROOT / "server"}


def _modules() -> dict[str, Path]:
    mods: dict[str, Path] = {}
    for pkg, folder in ROOTS.items():
        for path in folder.rglob("*.py"):
            rel = path.relative_to(folder).with_suffix("")
            parts = [p for p in rel.parts if p != "__init__"]
            mods[".".join([pkg, *parts])] = path
    return mods


MODULES = _modules()


def _imports(name: str, path: Path, annotations: bool = True) -> set[str]:
    """Every module ``name`` imports, at the top or inside functions; with ``annotations``, also
    those imported for type annotations only (under ``if TYPE_CHECKING:``): a cycle through
    them is a cycle in the design even if not at run time."""
    tree = ast.parse(path.read_text())
    skip: set[int] = set()
    if not annotations:
        for node in ast.walk(tree):
            if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
                for stmt in node.body:
                    skip |= {id(x) for x in ast.walk(stmt)}
    out: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names if a.name in MODULES}
        elif isinstance(node, ast.ImportFrom):
            target = _target(name, path, node)
            subs = [f"{target}.{a.name}" for a in node.names if f"{target}.{a.name}" in MODULES]
            if subs and len(subs) == len(node.names):
                out |= set(subs)  # "from package import module": the package is only its namespace
            elif target in MODULES:
                out.add(target)
                out |= set(subs)
    return out - {name}


def _target(name: str, path: Path, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    base = name.split(".")
    base = base[: len(base) - node.level + (1 if path.name == "__init__.py" else 0)]
    return ".".join(base + ([node.module] if node.module else []))


GRAPH = {m: _imports(m, p) for m, p in MODULES.items()}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one member (the engine's own Tarjan)."""
    return [c for c in tarjan(graph) if len(c) > 1]


def _package(module: str) -> str:
    path = MODULES[module]
    return module if path.name == "__init__.py" else module.rpartition(".")[0]


def test_no_import_cycle_between_modules():
    assert _cycles(GRAPH) == []


def test_no_import_cycle_between_packages():
    packages: dict[str, set[str]] = {}
    for m, deps in GRAPH.items():
        packages.setdefault(_package(m), set()).update(
            _package(d) for d in deps if _package(d) != _package(m) and not _package(m).startswith(_package(d) + ".")
            and not _package(d).startswith(_package(m) + "."))
    assert _cycles(packages) == []


def test_the_graph_sees_imports():
    """The checks above would pass on an empty graph: make sure they see what is there."""
    assert "cbam.engine.api" in GRAPH["cbam.commands"]
    assert "cbam.engine.core.bam" in GRAPH["cbam.engine.pipeline.search"]
    assert _cycles({"a": {"b"}, "b": {"a"}, "c": set()}) == [["a", "b"]]


def test_the_command_line_and_the_server_reach_the_engine_only_through_its_api():
    clients = [m for m in GRAPH if not m.startswith("cbam.engine")]
    assert any(m.startswith("cbam.server") for m in clients) and "cbam.commands" in clients
    for m in clients:
        deps = GRAPH[m]
        below = sorted(d for d in deps if d.startswith("cbam.engine") and d not in ("cbam.engine", "cbam.engine.api"))
        assert below == [], f"{m} imports {below}"


def _strings_compared_with_config(tree: ast.AST) -> list[str]:
    """String constants compared with, or searched in, an expression that names a configuration."""
    def names_config(e: ast.AST) -> bool:
        return any((isinstance(x, ast.Name) and "config" in x.id.lower())
                   or (isinstance(x, ast.Attribute) and "config" in x.attr.lower()) for x in ast.walk(e))

    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            consts = [s.value for s in sides if isinstance(s, ast.Constant) and isinstance(s.value, str)]
            if consts and any(names_config(s) for s in sides if not isinstance(s, ast.Constant)):
                found += consts
    return found


def test_no_code_branches_on_a_configuration_name():
    names = set(registry.names())
    for m, path in MODULES.items():
        if m == "cbam.engine.cpa.registry":
            continue
        tree = ast.parse(path.read_text())
        hits = [s for s in _strings_compared_with_config(tree) if s in names]
        assert hits == [], f"{path} branches on configuration names {hits}"
        # A configuration that is not an analysis of its own is spelled in the registry alone.
        combined = {n for n in names if not n.isidentifier()}
        spelled = {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and n.value in combined}
        assert spelled == set(), f"{path} spells {spelled}"


def test_the_branch_check_sees_a_branch():
    tree = ast.parse('if opts.config == "value+predicate":\n    pass\nif "predicate" in self.config: pass')
    assert _strings_compared_with_config(tree) == ["value+predicate", "predicate"]


# What each of the engine's layers may import of the others (besides itself and the modules at
# the engine's top, which hold options and limits). Each package's __init__ says the same in words.
LAYERS = {
    "frontend": set(),
    "cfa": {"frontend"},
    "smt": {"cfa"},
    "core": {"cfa", "smt", "frontend"},
    "cpa": {"core", "cfa", "smt", "frontend"},
    "cex": {"core", "cpa", "cfa", "smt", "frontend"},
    "algorithms": {"core", "cpa", "cex", "cfa", "smt", "frontend"},
    "cache": {"core", "cpa", "cex", "cfa", "smt", "frontend"},
    "pipeline": {"core", "cpa", "cex", "algorithms", "cache", "cfa", "smt", "frontend"},
}


def _layer(module: str) -> str | None:
    parts = module.split(".")
    return parts[2] if module.startswith("cbam.engine.") and len(parts) > 3 and parts[2] in LAYERS else None


def test_each_layer_imports_only_the_layers_below_it():
    wrong = []
    for m, deps in GRAPH.items():
        mine = _layer(m)
        if mine is None:
            continue
        for d in deps:
            theirs = _layer(d)
            if theirs is not None and theirs != mine and theirs not in LAYERS[mine]:
                wrong.append(f"{m} -> {d}")
    assert wrong == []


def test_every_layer_says_what_it_holds_and_may_import():
    for layer in LAYERS:
        doc = ast.get_docstring(ast.parse((ROOT / "engine" / layer / "__init__.py").read_text())) or ""
        assert len(doc) > 200, f"engine/{layer}/__init__.py says too little"


def _private_imports(name: str, path: Path) -> list[str]:
    """Names starting with one underscore that ``name`` imports from another of cbam's modules."""
    out = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            target = _target(name, path, node)
            if target in MODULES and target != name:
                out += [f"{target}.{a.name}" for a in node.names
                        if a.name.startswith("_") and not a.name.startswith("__")]
    return out


def test_no_module_imports_another_modules_private_names():
    found = [f"{m}: {x}" for m, p in MODULES.items() for x in _private_imports(m, p)]
    assert found == []


def test_the_private_import_check_sees_one(tmp_path):
    probe = tmp_path / "probe.py"
    probe.write_text("from cbam.engine.cfa.cfa import _hidden, Program\n")
    assert _private_imports("cbam.probe", probe) == ["cbam.engine.cfa.cfa._hidden"]
