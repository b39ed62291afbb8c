"""An unchanged source is answered from the cache before parsing; any change that could
alter the result or its ranges is recomputed."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import ROOT

HEADER = "#define LIMIT 10\n"
PROGRAM = """#include "lim.h"
extern int __VERIFIER_nondet_int(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error(void) { __assert_fail("0", "p.c", 4, "reach_error"); }
int clamp(int x) { if (x > LIMIT) return LIMIT; return x; }
int main(void) {
  int v = clamp(__VERIFIER_nondet_int());
  if (v > 10) reach_error();
  if (v == 7) { int w = v + 1; if (w/*c*/== 8) reach_error(); }
  return 0;
}
"""

# Runs the CLI in a fresh interpreter and reports which heavy modules it imported: the engine's,
# and standard modules that cost milliseconds of a start-up measured in tens of them (shutil
# through argparse's help formatter, typing, hashlib's OpenSSL, dataclasses and the inspect module it loads).
# "z3.z3" is the real z3: the name "z3" alone may be the engine's stand-in (engine/smt/lazy_z3.py).
_PROBE = """
import json, sys
from cbam.cli import main
rc = main(sys.argv[1:])
heavy = ("pycparser", "z3.z3", "cbam.engine.cfa.builder", "shutil", "typing", "hashlib", "dataclasses", "inspect")
print(json.dumps({"rc": rc, "heavy": sorted(m for m in heavy if m in sys.modules)}), file=sys.stderr)
"""


def verify(path: Path, cache: Path, *extra: str) -> tuple[dict, list[str]]:
    p = subprocess.run([sys.executable, "-c", _PROBE, "verify", str(path), "--format", "json", "--cache-dir",
                        str(cache), *extra], capture_output=True, text=True, cwd=ROOT, timeout=120,
                       env={**os.environ, "CBAM_IN_PROCESS": "1"})  # an analysis's imports are this process's
    probe = json.loads(p.stderr.strip().splitlines()[-1])
    return json.loads(p.stdout), probe["heavy"]


def project(tmp_path: Path, program: str = PROGRAM) -> tuple[Path, Path]:
    """p.c including lim.h, and where its cache goes."""
    (tmp_path / "lim.h").write_text(HEADER)
    src = tmp_path / "p.c"
    src.write_text(program)
    return src, tmp_path / "cache"


def strip(data: dict) -> dict:
    return {k: v for k, v in data.items() if k not in ("statistics", "source")}


def error_lines(data: dict) -> list[tuple[int, int]]:
    return [(v["range"]["start"]["line"], v["range"]["start"]["column"]) for v in data["violations"]]


def test_unchanged_source_is_answered_without_parsing(tmp_path):
    src, cache = project(tmp_path)
    cold, heavy_cold = verify(src, cache)
    assert cold["verdict"] == "FALSE" and cold["source"] == "fresh" and "pycparser" in heavy_cold
    # The error path is the one through v == 7, w == 8 (line 9), with the input 7.
    assert error_lines(cold) == [(9, 48)]
    assert [i["value"] for i in cold["violations"][0]["inputs"]] == [7]
    src.write_text(PROGRAM)  # saved again, unchanged: a new timestamp must not matter
    warm, heavy_warm = verify(src, cache)
    assert warm["source"] == "cache" and heavy_warm == []
    assert strip(warm) == strip(cold)
    assert warm["statistics"]["blocks_analysed"] == 0


def test_changes_that_keep_the_preprocessed_text_still_move_ranges(tmp_path):
    src, cache = project(tmp_path)
    verify(src, cache)
    # A longer comment: the preprocessor's output is the same, the column of the check is not.
    src.write_text(PROGRAM.replace("/*c*/", "/* a longer comment */"))
    moved, _ = verify(src, cache)
    assert moved["verdict"] == "FALSE" and error_lines(moved) == [(9, 65)]


def test_header_edit_is_recomputed(tmp_path):
    src, cache = project(tmp_path, PROGRAM.replace("if (v == 7) { int w = v + 1; if (w/*c*/== 8) reach_error(); }", ""))
    first, _ = verify(src, cache)
    assert first["verdict"] == "TRUE"
    again, heavy = verify(src, cache)
    assert again["verdict"] == "TRUE" and again["source"] == "cache" and heavy == []
    (tmp_path / "lim.h").write_text("#define LIMIT 11\n")
    changed, heavy = verify(src, cache)
    assert changed["verdict"] == "FALSE" and changed["source"] == "fresh" and "pycparser" in heavy
    (value,) = [i["value"] for i in changed["violations"][0]["inputs"]]
    assert value >= 11  # clamp returns min(x, 11) > 10


def test_options_and_clearing_retire_the_shortcut(tmp_path):
    src, cache = project(tmp_path)
    verify(src, cache)
    other, heavy = verify(src, cache, "--config", "value")
    assert other["source"] == "fresh" and other["config"] == "value" and heavy
    ilp, heavy = verify(src, cache, "--data-model", "ILP32")
    assert ilp["source"] == "fresh" and ilp["data_model"] == "ILP32" and heavy
    assert sources(cache) == 3  # one per configuration, data model and source
    subprocess.run([sys.executable, "-m", "cbam", "cache", "clear", str(src), "--cache-dir", str(cache)],
                   check=True, capture_output=True, cwd=ROOT)
    assert sources(cache) == 0
    cleared, heavy = verify(src, cache)
    assert cleared["source"] == "fresh" and heavy
    assert sources(cache) == 1


def sources(cache: Path) -> int:
    stats = subprocess.run([sys.executable, "-m", "cbam", "cache", "stats", "--cache-dir", str(cache), "--format",
                            "json"], capture_output=True, text=True, cwd=ROOT, check=True)
    return json.loads(stats.stdout)["sources"]


def test_headers_are_named_absolutely_wherever_cbam_runs(tmp_path, monkeypatch):
    from cbam.engine.frontend.preprocess import PreprocessOptions, preprocess

    src, _ = project(tmp_path)
    monkeypatch.chdir(ROOT)
    pp = preprocess(str(src), None, PreprocessOptions())
    assert f'"{tmp_path}/lim.h"' in pp and '"lim.h"' not in pp
    monkeypatch.chdir(tmp_path)
    pp = preprocess("p.c", None, PreprocessOptions())
    assert '# 1 "p.c"' in pp and f'"{tmp_path}/lim.h"' in pp


def test_an_engine_run_lets_a_new_process_skip_parsing(tmp_path):
    """The CLI and the engine compute the same key: a result the engine stored (as the
    editor does, its violation replayed) is served to a later `cbam verify` before parsing."""
    from cbam.engine.cache.store import CacheStore
    from cbam.engine.cfa.load import load_program
    from cbam.engine.frontend.preprocess import PreprocessOptions
    from cbam.engine.options import NativeReplay
    from cbam.engine.verify import VerifyOptions, run_deep, verify_program

    if shutil.which("gcc") is None:
        pytest.skip("gcc is not installed: a violation that was not replayed is replayed again, after parsing")
    src, cache = project(tmp_path)
    store = CacheStore(cache)
    program = load_program(str(src), options=PreprocessOptions(data_model="LP64"))
    opts = VerifyOptions(cache=store, replay=NativeReplay(source=str(src), preprocess=PreprocessOptions()))
    engine = run_deep(lambda: verify_program(program, opts))
    store.close()
    assert engine.verdict == "FALSE" and engine.cache_key is not None
    cli, heavy = verify(src, cache)
    assert cli["source"] == "cache" and heavy == []
    assert strip(cli) == strip({**engine.to_json(), "source": "cache"})


def test_a_result_without_harnesses_does_not_answer_a_run_that_wants_one(tmp_path):
    from cbam.engine.cache.store import CacheStore
    from cbam.engine.cfa.load import load_program
    from cbam.engine.frontend.preprocess import PreprocessOptions
    from cbam.engine.verify import VerifyOptions, run_deep, verify_program

    src, cache = project(tmp_path)
    store = CacheStore(cache)
    program = load_program(str(src), options=PreprocessOptions(data_model="LP64"))
    editor = run_deep(lambda: verify_program(program, VerifyOptions(cache=store, harness=False)))
    store.close()
    assert editor.verdict == "FALSE" and editor.violations[0].harness is None
    harness = tmp_path / "h.c"
    p = subprocess.run([sys.executable, "-m", "cbam", "verify", str(src), "--cache-dir", str(cache),
                        "--harness", str(harness)], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert "FALSE" in p.stdout and harness.exists() and "__VERIFIER_nondet_int" in harness.read_text()


# ---- a file without directives: answered before its preprocessing ends ------------------------
PLAIN = PROGRAM.replace('#include "lim.h"\n', "").replace("LIMIT", "10")

# A preprocessor that fails while CBAM_TEST_CPP_FAILS is set (a variable the preprocessor's key
# leaves out): a run that still answers did not wait for it.
_CPP = """#!/bin/sh
if [ -n "$CBAM_TEST_CPP_FAILS" ]; then echo "cpp: out of order" >&2; exit 1; fi
exec {gcc} "$@"
"""


def with_cpp(tmp_path: Path) -> dict[str, str]:
    import shutil

    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    gcc = bin_dir / "gcc"
    gcc.write_text(_CPP.format(gcc=shutil.which("gcc")))
    gcc.chmod(0o755)
    return {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}"}


def run_cli(src: Path, cache: Path, env: dict[str, str], *extra: str) -> tuple[dict | None, str]:
    p = subprocess.run([sys.executable, "-m", "cbam", "verify", str(src), "--format", "json", "--cache-dir",
                        str(cache), *extra], capture_output=True, text=True, cwd=ROOT, timeout=120, env=env)
    return (json.loads(p.stdout) if p.stdout.strip() else None), p.stderr


def test_a_file_without_directives_is_answered_without_its_preprocessor(tmp_path):
    src, cache = project(tmp_path, PLAIN)
    env = with_cpp(tmp_path)
    cold, _ = run_cli(src, cache, env)
    assert cold["verdict"] == "FALSE" and cold["source"] == "fresh" and error_lines(cold) == [(8, 48)]
    broken = {**env, "CBAM_TEST_CPP_FAILS": "1"}
    warm, _ = run_cli(src, cache, broken)
    assert warm is not None and warm["source"] == "cache" and strip(warm) == strip(cold)
    # Anything else still goes through the preprocessor: an edit, another option, a directive.
    src.write_text(PLAIN.replace("v == 7", "v == 6"))
    edited, err = run_cli(src, cache, broken)
    assert edited["verdict"] == "ERROR" and "out of order" in err
    src.write_text(PLAIN)
    defined, err = run_cli(src, cache, broken, "-D", "UNUSED=1")
    assert defined["verdict"] == "ERROR" and "out of order" in err
    with_header, _ = project(tmp_path)
    run_cli(with_header, cache, env)
    again, err = run_cli(with_header, cache, broken)
    assert again["verdict"] == "ERROR" and "out of order" in err


def test_another_preprocessor_program_is_run_again(tmp_path):
    src, cache = project(tmp_path, PLAIN)
    env = with_cpp(tmp_path)
    run_cli(src, cache, env)
    gcc = tmp_path / "bin" / "gcc"
    gcc.write_text(gcc.read_text() + "\n")  # an upgrade, as far as the key can tell
    again, err = run_cli(src, cache, {**env, "CBAM_TEST_CPP_FAILS": "1"})
    assert again["verdict"] == "ERROR" and "out of order" in err


def test_what_the_preprocessor_could_read_or_vary_has_no_unpreprocessed_key(tmp_path, monkeypatch):
    from cbam.engine.frontend.preprocess import Preprocessing, PreprocessOptions
    from cbam.engine.frontend.source_key import unpreprocessed_key

    src = tmp_path / "p.c"
    opts = PreprocessOptions(data_model="LP64")

    def key(text: str, options: PreprocessOptions = opts, entry: str = "main") -> str | None:
        src.write_text(text)
        run = Preprocessing(str(src), None, options)
        run.stop()
        return unpreprocessed_key(str(src), run.raw, run.cmd, options, entry)

    base = key(PLAIN)
    assert base is not None and key(PLAIN) == base
    for reads_more in ('#include "lim.h"\n', "%:include <x.h>\n", "??=define X 1\n", '_Pragma("once")\n',
                       "char *d = __DATE__;\n", "char *t = __TIME__;\n", "char *s = __TIMESTAMP__;\n"):
        assert key(reads_more + PLAIN) is None, reads_more
    assert key(PLAIN + " ") != base
    assert key(PLAIN, opts._replace(defines=("N=1",))) != base
    assert key(PLAIN, opts._replace(data_model="ILP32")) != base
    assert key(PLAIN, entry="clamp") != base
    forced = tmp_path / "forced.h"
    forced.write_text("int forced;\n")
    with_forced = key(PLAIN, opts._replace(force_includes=(str(forced),)))
    assert with_forced not in (None, base)
    forced.write_text("int forced2;\n")
    assert key(PLAIN, opts._replace(force_includes=(str(forced),))) not in (None, with_forced)
    forced.write_text('#include "lim.h"\n')
    assert key(PLAIN, opts._replace(force_includes=(str(forced),))) is None
    monkeypatch.setenv("CPATH", str(tmp_path))
    assert key(PLAIN) != base


def test_an_answer_found_by_its_preprocessed_text_is_filed_for_the_next_process(tmp_path):
    """An engine run that was handed the preprocessed text (as the editor's worker is) files no
    unpreprocessed address; the first command-line run that finds its answer files it."""
    from cbam.engine.cache.store import CacheStore
    from cbam.engine.cfa.load import load_program
    from cbam.engine.frontend.preprocess import PreprocessOptions, preprocess
    from cbam.engine.verify import VerifyOptions, run_deep, verify_program

    src, cache = project(tmp_path, PLAIN)
    env = with_cpp(tmp_path)
    opts = PreprocessOptions(data_model="LP64")
    store = CacheStore(cache)
    program = load_program(str(src), options=opts, preprocessed=preprocess(str(src), None, opts))
    assert program.unpreprocessed_key is None
    engine = run_deep(lambda: verify_program(program, VerifyOptions(cache=store)))
    store.close()
    broken = {**env, "CBAM_TEST_CPP_FAILS": "1"}
    _, err = run_cli(src, cache, broken)
    assert "out of order" in err  # nothing under the unpreprocessed address yet
    first, _ = run_cli(src, cache, env)
    assert first["source"] == "cache" and first["verdict"] == engine.verdict == "FALSE"
    again, _ = run_cli(src, cache, broken)
    assert again is not None and again["source"] == "cache" and strip(again) == strip(first)


@pytest.mark.parametrize("text,pure", [
    (b"#if __SIZEOF_POINTER__ == 8\n#define A(x) ((x) + 1)\n#else\n#define A(x) (x)\n#endif\n", True),
    (b"#include <stdio.h>\n", False),
    (b"/* a comment first */ #include \"other.h\"\n", False),
    (b"#if __has_include(<stdio.h>)\n#endif\n", False),
    (b"#pragma GCC dependency \"other.h\"\n", False),
    (b"#define NOW __TIME__\n", False),
    (b"%:include <stdio.h>\n", False),
])
def test_a_force_included_file_is_self_contained_with_definitions_only(text: bytes, pure: bool):
    """cbam's prelude defines va_arg's macros under #if and still lets an unchanged file be answered
    before its preprocessing; a file that can read another, or the time, does not."""
    from cbam.engine.frontend.source_key import _only_pure_directives

    assert _only_pure_directives(text) is pure
