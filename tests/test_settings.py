"""The editor settings' one schema (server/settings.py), and the places that must agree with it:
the VS Code extension's package.json, its diagnostic codes and its command ids."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from cbam.engine.cpa import registry
from cbam.engine.options import DATA_MODELS, THEORIES
from cbam.server import handlers
from cbam.server.codes import Code
from cbam.server.settings import SCHEMA, Settings, defaults, package_json_configuration, validate

ROOT = Path(__file__).resolve().parents[1]
EXT = ROOT / "vscode-extension"


def test_package_json_is_rendered_from_the_schema() -> None:
    pkg = json.loads((EXT / "package.json").read_text())
    assert pkg["contributes"]["configuration"] == package_json_configuration(), (
        "vscode-extension/package.json is out of date: run "
        "`.venv/bin/python -m cbam.server.settings --write-package-json vscode-extension/package.json`")


def test_the_analysis_names_come_from_the_engine() -> None:
    props = package_json_configuration()["properties"]
    assert props["cbam.config"]["enum"] == list(registry.names())
    assert props["cbam.predicateTheory"]["enum"] == list(THEORIES)
    assert props["cbam.dataModel"]["enum"] == list(DATA_MODELS)
    assert all(props["cbam.config"]["enumDescriptions"])


def test_defaults_are_the_schemas() -> None:
    s = defaults()
    assert isinstance(s, Settings)
    assert (s.trigger, s.timeout, s.config, s.data_model, s.cache_dir, s.max_violations) == \
        ("save", 30, "value+predicate", "LP64", None, 20)
    assert validate(None) == (s, [])
    assert validate({}) == (s, [])


def test_what_vscode_sends_unchanged_is_valid() -> None:
    """VS Code sends every key of the section, defaults included: no complaint about any."""
    raw = {key.removeprefix("cbam."): p["default"] for key, p in package_json_configuration()["properties"].items()}
    settings, problems = validate(raw, "/ws")
    assert problems == []
    assert settings == defaults()


@pytest.mark.parametrize(("raw", "field", "expected", "complaint"), [
    ({"trigger": "open/save"}, "trigger", "save", 'cbam.trigger: "open/save" is not one of save, change, manual'),
    ({"trigger": ""}, "trigger", "save", 'cbam.trigger: "" is not one of'),
    ({"config": "fast"}, "config", "value+predicate", "cbam.config: \"fast\" is not one of value, interval"),
    ({"timeout": -3}, "timeout", 30, "cbam.timeout: -3 is below the minimum 1"),
    ({"timeout": "30"}, "timeout", 30, 'cbam.timeout: "30" is not a number'),
    ({"timeout": True}, "timeout", 30, "cbam.timeout: true is not a number"),
    ({"maxViolations": 2.5}, "max_violations", 20, "cbam.maxViolations: 2.5 is not a whole number"),
    ({"dataModel": "weird"}, "data_model", "LP64", 'cbam.dataModel: "weird" is not one of LP64, ILP32'),
    ({"cache": "yes"}, "cache", True, 'cbam.cache: "yes" is not true or false'),
    ({"entryPoints": "main"}, "entry_points", (), 'cbam.entryPoints: "main" is not a list'),
    ({"cacheDir": 7}, "cache_dir", None, "cbam.cacheDir: 7 is not a string"),
])
def test_a_bad_value_falls_back_to_the_default_and_is_reported(raw, field, expected, complaint) -> None:
    settings, problems = validate(raw, "/ws")
    assert getattr(settings, field) == expected
    assert len(problems) == 1 and problems[0].startswith(complaint), problems
    assert "using the default" in problems[0]


def test_lists_keep_their_good_items_and_report_the_others() -> None:
    settings, problems = validate({"entryPoints": ["f", "", "not an id", "g"], "defines": ["N=1", "9X", "F(x)=x"]})
    assert settings.entry_points == ("f", "g")
    assert settings.defines == ("N=1", "F(x)=x")
    assert problems == ["cbam.entryPoints: item 2 is empty; it is left out",
                        'cbam.entryPoints: item 3 "not an id" is not a C identifier; it is left out',
                        'cbam.defines: item 2 "9X" is not NAME or NAME=VALUE; it is left out']


def test_paths_are_absolute_and_relative_to_the_workspace_folder() -> None:
    settings, problems = validate({"cacheDir": "${workspaceFolder}/.cbam", "includePaths": ["inc", "/usr/x", "~/h"]},
                                  "/ws")
    assert problems == []
    assert settings.cache_dir == "/ws/.cbam"
    assert settings.include_paths == ("/ws/inc", "/usr/x", str(Path("~/h").expanduser()))
    # The empty cacheDir is the user's cache directory, never the server's working directory.
    assert validate({"cacheDir": ""}, "/ws")[0].cache_dir is None
    settings, problems = validate({"cacheDir": "rel"}, None)
    assert settings.cache_dir is None and "no folder is open" in problems[0]


def test_unknown_keys_are_reported_and_client_only_keys_are_not() -> None:
    settings, problems = validate({"interpreter": "/usr/bin/python3", "serverCommand": ["cbam", "lsp"],
                                   "timout": 5})
    assert problems == ["cbam.timout: unknown setting, ignored"]
    assert validate([1, 2])[1] == ["the cbam settings are [1, 2], not an object; using the defaults"]


def test_every_setting_is_documented() -> None:
    assert all(s.description for s in SCHEMA)
    client_only = {s.key for s in SCHEMA if s.client_only}
    assert client_only == {"interpreter", "serverCommand"}


def _ts_constants(path: Path) -> dict[str, str]:
    block = re.search(r"export const Code = \{(.*?)\} as const;", path.read_text(), re.S)
    assert block is not None
    return dict(re.findall(r"(\w+): \"([^\"]+)\"", block.group(1)))


def test_the_extension_knows_every_diagnostic_code() -> None:
    assert set(_ts_constants(EXT / "src" / "codes.ts").values()) == {c.value for c in Code}


def test_the_extension_registers_no_command_the_server_owns() -> None:
    """vscode-languageclient registers the server's commands itself; registering one of them in
    the extension too made activation fail ("command 'cbam.verifyFile' already exists")."""
    server_commands = set(handlers.server.protocol.fm.commands)
    assert {"cbam.verifyFile", "cbam.verifyFunction", "cbam.reverifyFromScratch", "cbam.clearCache"} <= server_commands
    source = (EXT / "src" / "extension.ts").read_text()
    registered = set(re.findall(r"\breg\(\"(cbam\.[A-Za-z]+)\"", source))
    assert registered and not registered & server_commands
    assert "registerCommand(" in source and source.count("registerCommand(") == 1  # only inside reg()
    server_set = re.search(r"const SERVER_COMMANDS = new Set\(\[(.*?)\]\)", source)
    assert server_set is not None
    assert set(re.findall(r"\"(cbam\.\w+)\"", server_set.group(1))) == server_commands
    contributed = {c["command"] for c in json.loads((EXT / "package.json").read_text())["contributes"]["commands"]}
    assert contributed == registered | server_commands
