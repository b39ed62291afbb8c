"""A program of several translation units (frontend/link.py, cfa/linkage.py), from the command
line: --link, and -p with a compile_commands.json. External names resolve across the units,
static ones stay in theirs, what a header shares is one definition, and what the linker
rejects is an error that says where; a counterexample through both files replays with both
compiled by gcc."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import ROOT

LINKED = ROOT / "tests" / "programs" / "linked"


def cbam(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "cbam", "verify", *args], capture_output=True, text=True,
                          cwd=cwd, timeout=300)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    for f in LINKED.iterdir():
        shutil.copy(f, tmp_path / f.name)
    return tmp_path


def test_two_files_are_one_program_and_its_error_path_crosses_them(project: Path) -> None:
    r = cbam("--link", "--no-cache", "--format", "json", "stack_main.c", "stack.c", cwd=project)
    assert r.returncode == 1, r.stderr
    report = json.loads(r.stdout)
    assert report["verdict"] == "FALSE" and report["linked"] == ["stack_main.c", "stack.c"]
    [v] = report["violations"]
    files = {Path(s["range"]["file"]).name for s in v["path"] if s.get("range")}
    assert {"stack_main.c", "stack.c"} <= files  # the path steps through the library
    assert v["replay"]["status"] == "replayed", v["replay"]
    # Each file alone is another program: the library's functions are external there.
    alone = cbam("--no-cache", "--format", "json", "stack_main.c", cwd=project)
    assert json.loads(alone.stdout)["verdict"] == "UNKNOWN"


def test_a_correct_program_of_two_files_is_proved(project: Path) -> None:
    r = cbam("--link", "--no-cache", "stack.c", "stack_fixed_main.c", cwd=project)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "Verification result: TRUE" in r.stdout


def test_an_edit_in_one_file_changes_the_linked_answer_from_the_cache(project: Path, tmp_path: Path) -> None:
    cache = str(tmp_path / "cache")
    args = ("--link", "--cache-dir", cache, "--format", "json", "stack_fixed_main.c", "stack.c")
    first = json.loads(cbam(*args, cwd=project).stdout)
    again = json.loads(cbam(*args, cwd=project).stdout)
    assert first["verdict"] == again["verdict"] == "TRUE" and again["source"] == "cache"
    # The library now counts each push twice: the answer under the same command is FALSE.
    lib = project / "stack.c"
    lib.write_text(lib.read_text().replace("stack_pushes++;", "stack_pushes += 2;"))
    edited = json.loads(cbam(*args, cwd=project).stdout)
    assert edited["verdict"] == "FALSE" and edited["source"] == "fresh"


@pytest.mark.parametrize("other, message", [
    ("int stack_pop(struct stack *s, int *out) { return 0; }\n",
     r"stack2\.c:2:5: error: multiple definition of 'stack_pop'; first defined at .*stack\.c:18"),
    ("int stack_pushes = 3;\n",
     r"stack2\.c:2:5: error: multiple definition of 'stack_pushes'; first defined at .*stack\.c:3"),
    ("long stack_push(struct stack *s, long v);\nint use(struct stack *s) { return stack_push(s, 1); }\n",
     r"stack2\.c:2:6: error: 'stack_push' is declared here as 'long \(struct stack \*, long\)' and at .*stack\.h:10"),
    ("struct stack { long items[2]; };\nint use(struct stack *s) { return 0; }\n",
     r"stack2\.c:2:8: error: struct stack is defined differently here and at .*stack\.h:5"),
])
def test_what_the_linker_rejects_is_an_error_that_says_where(project: Path, other: str, message: str) -> None:
    include = '#include "stack.h"\n' if "struct stack {" not in other else "\n"
    (project / "stack2.c").write_text(include + other)
    r = cbam("--link", "--no-cache", "stack.c", "stack2.c", "stack_fixed_main.c", cwd=project)
    assert r.returncode == 2, r.stdout + r.stderr
    import re

    assert re.search(message, r.stderr), r.stderr
    assert "Traceback" not in r.stderr


def test_static_names_of_two_units_are_two_symbols(project: Path) -> None:
    # Both files have a static room(): each unit calls its own.
    r = cbam("--link", "--no-cache", "--format", "json", "stack_main.c", "stack.c", cwd=project)
    path = [(Path(s["range"]["file"]).name, s["function"]) for v in json.loads(r.stdout)["violations"]
            for s in v["path"] if s.get("range")]
    assert ("stack.c", "room__static_stack") in path, path
    assert all(f == "stack.c" for f, fn in path if fn == "room__static_stack")


def test_flags_come_from_compile_commands_per_file(project: Path) -> None:
    # The library's header moves to include/, which only stack.c's entry names; stack_main.c
    # gets it from a -I relative to its entry's directory, and a macro of its own.
    (project / "include").mkdir()
    (project / "stack.h").rename(project / "include" / "stack.h")
    main = project / "stack_fixed_main.c"
    main.write_text(main.read_text().replace("if (n < 0 || n > STACK_CAP)", "if (n < 0 || n > LIMIT)"))
    build = project / "build"
    build.mkdir()
    (build / "compile_commands.json").write_text(json.dumps([
        {"directory": str(project), "file": "stack.c", "arguments": ["cc", "-Iinclude", "-c", "stack.c"]},
        {"directory": str(project), "file": "stack_fixed_main.c",
         "command": "cc -I include -DLIMIT=STACK_CAP -c stack_fixed_main.c"},
    ]))
    r = cbam("-p", "build", "--link", "--no-cache", "stack_fixed_main.c", "stack.c", cwd=project)
    assert r.returncode == 0, r.stdout + r.stderr
    # Without the database, the header is not found, and the message says where it looked.
    r = cbam("--link", "--no-cache", "stack_fixed_main.c", "stack.c", cwd=project)
    assert r.returncode == 2 and "header stack.h not found" in r.stderr
    # One more past the capacity, from the database's macro: FALSE, and the replay uses the flags.
    (build / "compile_commands.json").write_text((build / "compile_commands.json").read_text()
                                                 .replace("-DLIMIT=STACK_CAP", "-DLIMIT=5"))
    r = cbam("-p", "build", "--link", "--no-cache", "--format", "json", "stack_fixed_main.c", "stack.c", cwd=project)
    report = json.loads(r.stdout)
    assert report["verdict"] == "FALSE", report.get("reason")
    assert report["violations"][0]["replay"]["status"] == "replayed", report["violations"][0]["replay"]


def test_a_task_file_is_not_linked(project: Path) -> None:
    (project / "t.yml").write_text("format_version: '2.0'\ninput_files: stack.c\nproperties: []\n")
    r = cbam("--link", "stack.c", "t.yml", cwd=project)
    assert r.returncode == 2 and "--link links C files" in r.stderr


def test_a_header_reached_by_two_spellings_and_its_c99_inline_functions_are_one(tmp_path: Path) -> None:
    # ringbuffer's example includes "../ringbuffer.h", the library "ringbuffer.h": one header.
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "sq.h").write_text("#ifndef SQ_H\n#define SQ_H\ninline int sq(int x) { return x * x; }\n"
                                           "int sq_sum(int a, int b);\n#endif\n")
    (tmp_path / "lib" / "sq.c").write_text('#include "sq.h"\nextern inline int sq(int x);\n'
                                           "int sq_sum(int a, int b) { return sq(a) + sq(b); }\n")
    (tmp_path / "app").mkdir()
    (tmp_path / "app" / "main.c").write_text('#include <assert.h>\n#include "../lib/sq.h"\n'
                                             "int main(void) { assert(sq_sum(3, 4) == sq(5)); return 0; }\n")
    r = cbam("--link", "--no-cache", "app/main.c", "lib/sq.c", cwd=tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr


def test_a_relative_include_folder_reaches_the_replay_of_every_unit(project: Path) -> None:
    # The header moves to include/: found through -I include, from where cbam runs; the replay
    # compiles each unit in a folder of its own, with that folder still the one meant.
    (project / "include").mkdir()
    (project / "stack.h").rename(project / "include" / "stack.h")
    r = cbam("--link", "--no-cache", "--format", "json", "-I", "include", "stack_main.c", "stack.c", cwd=project)
    report = json.loads(r.stdout)
    assert report["verdict"] == "FALSE", report.get("reason")
    assert report["violations"][0]["replay"]["status"] == "replayed", report["violations"][0]["replay"]


def test_the_cfa_of_a_linked_program_has_the_functions_of_both_files(project: Path) -> None:
    run = subprocess.run([sys.executable, "-m", "cbam", "cfa", "--link", "stack_main.c", "stack.c"],
                         capture_output=True, text=True, cwd=project, timeout=120)
    assert run.returncode == 0, run.stderr
    assert "function main" in run.stdout and "function stack_push" in run.stdout
    alone = subprocess.run([sys.executable, "-m", "cbam", "cfa", "stack_main.c", "stack.c"], capture_output=True,
                           text=True, cwd=project, timeout=120)
    assert alone.returncode == 2 and "--link" in alone.stderr
