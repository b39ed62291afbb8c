"""SV-COMP task definitions (.yml): input file, data model, and the unreach-call property."""

from __future__ import annotations

import os
from dataclasses import dataclass

from .frontend.errors import Diagnostic, FrontendError

UNREACH_CALL = "unreach-call"


@dataclass
class Task:
    path: str
    input_file: str
    data_model: str
    expected: bool | None  # expected verdict for unreach-call; None when unknown
    has_unreach_call: bool
    properties: list[str]
    expected_memsafety: bool | None = None  # expected verdict for valid-memsafety; None when absent
    has_memsafety: bool = False


def load_task(path: str) -> Task:
    import yaml  # only task files need it; plain sources start faster without

    try:
        with open(path, encoding="utf-8") as fh:
            data = yaml.safe_load(fh)
    except (OSError, yaml.YAMLError) as exc:
        raise FrontendError(Diagnostic("error", f"cannot read task definition: {exc}", path)) from None
    if not isinstance(data, dict) or "input_files" not in data:
        raise FrontendError(Diagnostic("error", "not an SV-COMP task definition (no input_files)", path))
    inputs = data["input_files"]
    if isinstance(inputs, list):
        if len(inputs) != 1:
            raise FrontendError(Diagnostic("error", "tasks with several input files are not supported", path))
        inputs = inputs[0]
    base = os.path.dirname(path)
    input_file = os.path.normpath(os.path.join(base, str(inputs)))
    options = data.get("options") or {}
    data_model = str(options.get("data_model", "ILP32"))
    props = []
    expected = None
    has = False
    mem_expected: bool | None = None
    has_mem = False
    for prop in data.get("properties") or []:
        pf = str(prop.get("property_file", ""))
        props.append(os.path.basename(pf))
        if os.path.basename(pf).startswith(UNREACH_CALL):
            has = True
            if "expected_verdict" in prop:
                expected = bool(prop["expected_verdict"])
        if os.path.basename(pf).startswith("valid-memsafety"):
            has_mem = True
            if "expected_verdict" in prop:
                mem_expected = bool(prop["expected_verdict"])
    return Task(path, input_file, data_model, expected, has, props, mem_expected, has_mem)
