"""The editor settings of cbam: one schema, validated in one place.

The language server validates what a client sends (``validate``) and hands its workers the
result; the VS Code extension's ``contributes.configuration`` is rendered from the same
schema (``python -m cbam.server.settings --write-package-json PATH``; a test keeps the
committed package.json in step). A value of the wrong type, out of range or not among the
allowed ones falls back to the default, and the problem is returned so the server can report
it: nothing is silently kept, nothing silently changed.

The configurations and their descriptions come from the analysis registry
(``cbam.engine.cpa.registry``), so a new configuration reaches the editor's enum from there.
"""

from __future__ import annotations

import json
import math
import os
import re
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any

from cbam.engine import api
from cbam.engine.api import DATA_MODELS, PROPERTIES, THEORIES, NativeReplay, VerifyOptions

if TYPE_CHECKING:
    from cbam.engine.api import CacheStore

SECTION = "cbam"
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
# gcc's -D: NAME, NAME=VALUE, or a function-like NAME(ARGS)=VALUE.
_DEFINE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\([A-Za-z0-9_, .]*\))?(=.*)?\Z", re.S)

THEORY_DESCRIPTIONS = {
    "bv": "Exact bit-vector formulas (C's machine integers).",
    "lia": "Unbounded integers for abstraction; a proof is re-checked with bit-vectors.",
}


@dataclass(frozen=True)
class Spec:
    """One setting: its key under the ``cbam`` section and everything needed to check it."""

    key: str
    type: str  # JSON schema type: "string", "integer", "number", "boolean" or "array" (of strings)
    default: Any
    description: str
    enum: tuple[str, ...] | None = None
    enum_descriptions: tuple[str, ...] | None = None
    minimum: float | None = None
    maximum: float | None = None
    # How a string (or each array item) is read: "path" expands ${workspaceFolder} and ~ and
    # is taken relative to the workspace folder; "identifier" and "define" are C names.
    item: str | None = None
    # Read by the VS Code extension before any server runs (which Python, which command).
    client_only: bool = False
    scope: str | None = None

    @property
    def attr(self) -> str:
        return re.sub(r"(?<!^)([A-Z])", r"_\1", self.key).lower()


SCHEMA: tuple[Spec, ...] = (
    Spec("interpreter", "string", "",
         "Python (3.11 or newer) that runs the cbam bundled with the extension. Empty: the Python "
         "extension's active environment if it is installed, else python3.",
         client_only=True, scope="machine-overridable"),
    Spec("serverCommand", "array", [],
         "Command that starts a cbam you installed yourself instead of the bundled one, for example "
         '["/path/to/.venv/bin/cbam", "lsp"]. Empty: the bundled cbam.',
         client_only=True, scope="machine-overridable"),
    Spec("trigger", "string", "save", "When to verify a C file.",
         enum=("save", "change", "manual"),
         enum_descriptions=("When it is opened and each time it is saved.",
                            "When it is opened, saved, and while typing (after debounceMs).",
                            "Only by the commands cbam: Verify File / Verify Function.")),
    Spec("debounceMs", "integer", 500, "Delay after the last change before verifying (trigger 'change'), in ms.",
         minimum=0, maximum=60_000),
    Spec("timeout", "number", 30, "Time limit per file, in seconds (its entry functions share it).", minimum=1,
         maximum=86_400),
    Spec("config", "string", VerifyOptions._field_defaults["config"], "Analysis configuration.",
         enum=tuple(api.configurations()), enum_descriptions=tuple(api.configurations().values())),
    Spec("predicateTheory", "string", VerifyOptions._field_defaults["predicate_theory"],
         "Path formulas of the predicate analysis.",
         enum=THEORIES, enum_descriptions=tuple(THEORY_DESCRIPTIONS.get(t, t) for t in THEORIES)),
    Spec("dataModel", "string", "LP64", "Integer widths: LP64 (64-bit long and pointers) or ILP32.",
         enum=DATA_MODELS),
    Spec("entryPoints", "array", [],
         "Functions to verify from. Empty: main, or every function no other function calls.", item="identifier"),
    Spec("cache", "boolean", True, "Keep summaries and results in the persistent cache."),
    Spec("cacheDir", "string", "",
         "Where the persistent cache lives (${workspaceFolder} may be used; relative paths are relative to the "
         "workspace folder). Empty: the user's cache directory ($XDG_CACHE_HOME/cbam).", item="path"),
    Spec("includePaths", "array", [],
         "Extra include directories (-I); ${workspaceFolder} may be used. compile_commands.json is read too.",
         item="path"),
    Spec("defines", "array", [], "Macro definitions (NAME or NAME=VALUE).", item="define"),
    Spec("linkProject", "boolean", True,
         "A file that compile_commands.json compiles is verified as one program with the project's other files "
         "(those that define no main of their own), linked as the linker links them."),
    Spec("maxViolations", "integer", 20, "How many different failing checks to report per file.",
         minimum=1, maximum=1000),
    Spec("extraSearchSeconds", "number", 5,
         "After the first confirmed violation, how long to look for more, in seconds.", minimum=0, maximum=3600),
    Spec("memoryLimitMb", "integer", 4096, "Memory limit of an analysis worker, in MB.",
         minimum=256, maximum=1_048_576),
    Spec("property", "string", VerifyOptions._field_defaults["property"], "What to check.",
         enum=PROPERTIES,
         enum_descriptions=("No assertion fails (assert, __VERIFIER_assert, reach_error).",
                            "No invalid dereference or free, and no leaked memory (SV-COMP valid-memsafety).")),
    Spec("allocMayFail", "boolean", False, "malloc, calloc and realloc may return NULL (by default they succeed)."),
    Spec("entryPointersMayBeNull", "boolean", False,
         "An entry function's pointer parameters may be NULL (by default each points to a fresh object)."),
    Spec("replay", "boolean", True,
         "Run each counterexample (the program compiled by gcc with its test harness, under AddressSanitizer for "
         "memory safety) and mark it replayed when the run shows the violation; one the run does not show is "
         "withdrawn. Without gcc a counterexample is shown as not replayed."),
)
BY_KEY = {s.key: s for s in SCHEMA}


@dataclass(frozen=True)
class Settings:
    """Validated server settings (the client-only ones are not here). Build them with
    ``validate``; the defaults live in SCHEMA alone."""

    trigger: str
    debounce_ms: int
    timeout: float
    config: str
    predicate_theory: str
    data_model: str
    entry_points: tuple[str, ...]
    cache: bool
    cache_dir: str | None  # absolute, or None for the user's cache directory
    include_paths: tuple[str, ...]
    defines: tuple[str, ...]
    link_project: bool
    max_violations: int
    extra_search_seconds: float
    memory_limit_mb: int
    property: str
    alloc_may_fail: bool
    entry_pointers_may_be_null: bool
    replay: bool

    def verify_options(self, cache: CacheStore | None, cancel: object) -> VerifyOptions:
        """What a worker verifies with: every result-relevant setting, in one place."""
        return VerifyOptions(config=self.config, predicate_theory=self.predicate_theory, timeout=float(self.timeout),
                             max_violations=self.max_violations, cache=cache, harness=False, cancel=cancel,
                             extra_search_after_violation=float(self.extra_search_seconds),
                             property=self.property, alloc_may_fail=self.alloc_may_fail,
                             entry_null=self.entry_pointers_may_be_null,
                             # The file's path, text and flags are filled in by the engine (report_file.py).
                             replay=NativeReplay() if self.replay else None)


if {f.name for f in fields(Settings)} != {s.attr for s in SCHEMA if not s.client_only}:  # pragma: no cover
    raise ImportError("server/settings.py: Settings and SCHEMA name different settings")


def _expand_path(value: str, folder: str | None) -> tuple[str | None, str | None]:
    """(absolute path, problem)."""
    if "${workspaceFolder}" in value:
        if folder is None:
            return None, "uses ${workspaceFolder}, but no folder is open"
        value = value.replace("${workspaceFolder}", folder)
    value = os.path.expanduser(value)
    if not os.path.isabs(value):
        if folder is None:
            return None, "is a relative path, but no folder is open to be relative to"
        value = os.path.join(folder, value)
    return os.path.normpath(value), None


def _item(spec: Spec, value: object, folder: str | None) -> tuple[Any, str | None]:
    """One string (a setting or an array item): (converted value, problem)."""
    if not isinstance(value, str):
        return None, f"{json.dumps(value)} is not a string"
    text = value.strip()
    if text == "":
        return None, "is empty"
    if spec.item == "path":
        return _expand_path(text, folder)
    if spec.item == "identifier" and not _IDENTIFIER.match(text):
        return None, f"{json.dumps(value)} is not a C identifier"
    if spec.item == "define" and not _DEFINE.match(text):
        return None, f"{json.dumps(value)} is not NAME or NAME=VALUE"
    return text, None


def _number(spec: Spec, value: object) -> tuple[Any, str | None]:
    # JSON has one number type; bool is an int in Python but never a number here.
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        return None, f"{json.dumps(value)} is not a number"
    if spec.type == "integer":
        if value != int(value):
            return None, f"{value} is not a whole number"
        value = int(value)
    if spec.minimum is not None and value < spec.minimum:
        return None, f"{value} is below the minimum {spec.minimum:g}"
    if spec.maximum is not None and value > spec.maximum:
        return None, f"{value} is above the maximum {spec.maximum:g}"
    return value, None


def _check(spec: Spec, value: object, folder: str | None) -> tuple[Any, list[str]]:
    """(converted value or None for the default, problems)."""
    if spec.type in ("integer", "number"):
        v, p = _number(spec, value)
        return v, [p] if p else []
    if spec.type == "boolean":
        return (value, []) if isinstance(value, bool) else (None, [f"{json.dumps(value)} is not true or false"])
    if spec.type == "array":
        if not isinstance(value, list):
            return None, [f"{json.dumps(value)} is not a list"]
        out, problems = [], []
        for i, x in enumerate(value):
            v, p = _item(spec, x, folder)
            if p:
                problems.append(f"item {i + 1} {p}; it is left out")
            else:
                out.append(v)
        return tuple(out), problems
    # A string. The empty string is how VS Code shows "not set" for a string without an enum.
    if spec.enum is None and value == "" and spec.default == "":
        return None, []
    if spec.enum is not None:
        if value not in spec.enum:
            return None, [f"{json.dumps(value)} is not one of {', '.join(spec.enum)}"]
        return value, []
    v, p = _item(spec, value, folder)
    return v, [p] if p else []


def _default(spec: Spec) -> Any:
    if spec.key == "cacheDir":
        return None
    return tuple(spec.default) if isinstance(spec.default, list) else spec.default


def validate(raw: Mapping[str, Any] | None, workspace_folder: str | None = None) -> tuple[Settings, list[str]]:
    """Settings from a client's ``cbam`` section, and a message for every value not taken.

    A key set to null (or absent) is the default without comment; a client-only key is
    accepted and not used; an unknown key is reported."""
    problems: list[str] = []
    values: dict[str, Any] = {}
    if raw is not None and not isinstance(raw, Mapping):
        problems.append(f"the {SECTION} settings are {json.dumps(raw)}, not an object; using the defaults")
        raw = None
    given = dict(raw or {})
    for key in sorted(set(given) - set(BY_KEY)):
        problems.append(f"{SECTION}.{key}: unknown setting, ignored")
    for spec in SCHEMA:
        if spec.client_only:
            continue
        value = given.get(spec.key)
        converted, issues = (None, []) if value is None else _check(spec, value, workspace_folder)
        fallback = converted is None
        for issue in issues:
            using = f"; using the default {json.dumps(spec.default)}" if fallback else ""
            problems.append(f"{SECTION}.{spec.key}: {issue}{using}")
        values[spec.attr] = _default(spec) if fallback else converted
    return Settings(**values), problems


def defaults() -> Settings:
    return validate({})[0]


# ---- the VS Code extension's package.json ---------------------------------------------------
def package_json_configuration() -> dict[str, Any]:
    """``contributes.configuration`` of the VS Code extension, rendered from SCHEMA."""
    props: dict[str, Any] = {}
    for order, spec in enumerate(SCHEMA):
        p: dict[str, Any] = {"type": spec.type}
        if spec.type == "array":
            p["items"] = {"type": "string"}
        if spec.enum is not None:
            p["enum"] = list(spec.enum)
            if spec.enum_descriptions is not None:
                p["enumDescriptions"] = list(spec.enum_descriptions)
        if spec.minimum is not None:
            p["minimum"] = spec.minimum
        if spec.maximum is not None:
            p["maximum"] = spec.maximum
        p["default"] = spec.default
        p["description"] = spec.description
        if spec.scope is not None:
            p["scope"] = spec.scope
        p["order"] = order
        props[f"{SECTION}.{spec.key}"] = p
    return {"title": "cbam", "properties": props}


def write_package_json(path: str) -> bool:
    """Put the rendered section into the package.json at ``path``; True if it changed."""
    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    pkg = json.loads(text)
    pkg["contributes"]["configuration"] = package_json_configuration()
    new = json.dumps(pkg, indent=2, ensure_ascii=False) + "\n"
    if new == text:
        return False
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(new)
    return True


def main(argv: list[str] | None = None, out: Callable[[str], object] = print) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) == 2 and args[0] == "--write-package-json":
        out(f"{args[1]}: {'updated' if write_package_json(args[1]) else 'already up to date'}")
        return 0
    if args == ["--json"]:
        out(json.dumps(package_json_configuration(), indent=2, ensure_ascii=False))
        return 0
    out("usage: python -m cbam.server.settings --write-package-json PATH | --json")
    return 2


if __name__ == "__main__":
    raise SystemExit(main())
