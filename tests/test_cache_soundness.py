"""The reproductions of issue 22: a cache that turned a failing program into "verified", a
cache left by another program that changed a verdict, and a crash on an inconsistent entry.
Each now gives the from-scratch answer; the paths that used to fail are forced here too.
The files are the issue's, in tests/data/repro/."""

from __future__ import annotations

import json
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from cbam.engine import selfcheck
from cbam.engine.cache.blockcache import function_keys
from cbam.engine.cache.keys import digest
from cbam.engine.cache.store import CacheStore
from cbam.engine.cfa.load import load_program
from cbam.engine.core.result import UnknownReason
from cbam.engine.frontend.preprocess import PreprocessOptions
from cbam.engine.verify import VerifyOptions, run_deep, verify_program

from .conftest import REPRO, ROOT, assert_replay_reaches_error, check_error_path

EDITOR = {"max_violations": 20, "extra_search_after_violation": 5.0}


def cli(*args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "cbam", "verify", "--format", "json", *args],
                          capture_output=True, text=True, timeout=timeout, cwd=ROOT)


def verdict(run: subprocess.CompletedProcess) -> str:
    return json.loads(run.stdout)["verdict"]


def verify(path: Path, store, **opts):
    program = load_program(str(path), options=PreprocessOptions(data_model="LP64"))
    return run_deep(lambda: verify_program(program, VerifyOptions(cache=store, **opts)))


@pytest.mark.parametrize("name", ["const_edit", "wrong_true"])
def test_multi_violation_mode_after_an_edit_still_fails(name, tmp_path):
    """Repro 1: the editor's mode. Both versions fail; the second used to be served as TRUE
    from blocks that the first run's search for further violations had pruned."""
    cache = tmp_path / "D"
    first = cli("--cache-dir", str(cache), "--all-violations", str(REPRO / f"{name}_v1.c"))
    assert verdict(first) == "FALSE" and first.returncode == 1
    second = cli("--cache-dir", str(cache), "--all-violations", str(REPRO / f"{name}_v2.c"))
    scratch = cli("--no-cache", "--all-violations", str(REPRO / f"{name}_v2.c"))
    assert verdict(scratch) == "FALSE"
    assert verdict(second) == "FALSE" and second.returncode == 1
    assert [v["range"] for v in json.loads(second.stdout)["violations"]] == \
        [v["range"] for v in json.loads(scratch.stdout)["violations"]]


def test_editor_mode_edit_sequence_in_process(tmp_path):
    """The same through the engine, with the editor's options, replaying the violation."""
    store = CacheStore(tmp_path / "cache")
    work = tmp_path / "p.c"
    for version in ("const_edit_v1.c", "const_edit_v2.c", "const_edit_v1.c"):
        shutil.copy(REPRO / version, work)
        inc = verify(work, store, **EDITOR)
        fresh = verify(work, None, **EDITOR)
        assert inc.verdict == fresh.verdict == "FALSE", version
        check_error_path(inc)
        assert_replay_reaches_error(work, inc, "LP64", tmp_path)
    store.close()


def test_pruned_entries_are_kept_apart_and_not_shown_as_summaries(tmp_path):
    """An entry analysed with reported violations pruned is filed under its own key (the
    excluded locations are part of it), and hover/`cbam summary` do not show it."""
    store = CacheStore(tmp_path / "cache")
    work = tmp_path / "p.c"
    # A second error location (unreachable) keeps the search going after the first violation,
    # which excludes the one inside __VERIFIER_assert.
    work.write_text((REPRO / "const_edit_v1.c").read_text().replace(
        "  return 0;", "  if (leaf(5) == 0) reach_error();\n  return 0;"))
    result = verify(work, store, **EDITOR)
    key = result.function_keys["__VERIFIER_assert"]
    rows = store.conn.execute("SELECT pruned FROM blocks WHERE fn_key = ?", (key,)).fetchall()
    assert (1,) in rows, "the multi-violation search should have stored a pruned entry"
    assert all(b["pruned"] == 0 for b in store.blocks_for_function("", key))
    # The first-violation mode finds the violation through a lookup of the same function.
    again = verify(work, store)
    assert again.verdict == "FALSE"
    store.close()


def test_type_change_under_the_same_file_name(tmp_path):
    """Repro 2: unsigned int -> unsigned char makes sum(a, b) != a + b possible. A stored block
    of the start function used to be validated against main's first recursion iteration."""
    cache, work = tmp_path / "D", tmp_path / "p.c"
    shutil.copy(REPRO / "type_change_v1.c", work)
    assert verdict(cli("--cache-dir", str(cache), str(work))) == "TRUE"
    shutil.copy(REPRO / "type_change_v2.c", work)
    second = cli("--cache-dir", str(cache), str(work))
    assert verdict(second) == "FALSE" and second.returncode == 1
    assert verdict(cli("--no-cache", str(work))) == "FALSE"
    # The same in process, with the path checked and the harness replayed.
    store = CacheStore(tmp_path / "cache")
    shutil.copy(REPRO / "type_change_v1.c", work)
    assert verify(work, store).verdict == "TRUE"
    shutil.copy(REPRO / "type_change_v2.c", work)
    result = verify(work, store)
    check_error_path(result)
    assert_replay_reaches_error(work, result, "LP64", tmp_path)
    store.close()


def _old_twice_row() -> dict:
    """The row another program left (tests/data/repro/twice-cache.sqlite, an older schema)."""
    # immutable: read as it is, with no -wal or -shm file left beside it in the tree
    conn = sqlite3.connect((REPRO / "twice-cache.sqlite").as_uri() + "?immutable=1", uri=True)
    cols = [d[0] for d in conn.execute("SELECT * FROM blocks").description]
    row = dict(zip(cols, conn.execute("SELECT * FROM blocks").fetchone()))
    conn.close()
    return row


@pytest.mark.slow
def test_a_cache_left_by_another_program(tmp_path):
    """Repro 3: the row of twice() that another program stored (twice with nothing tracked:
    any result) answers this program's call under the same key. Reconstructing the error path
    through that recursive block used to loop until Python's recursion limit (UNKNOWN after 25 s);
    now the answer is a fresh run's TRUE. The row is refiled under today's key recipe."""
    src = REPRO / "twice_true.c"
    program = load_program(str(src), options=PreprocessOptions(data_model="LP64"))
    opts = VerifyOptions(timeout=120, horn=False)  # the rows are BAM's: CEGAR must read them
    old = _old_twice_row()
    store = CacheStore(tmp_path / "cache")
    from cbam.engine.cache.blockcache import PersistentBlocks
    from cbam.engine.core.blocks import build_blocks
    from cbam.engine.verify import make_cpa

    blocks = build_blocks(program, program.callgraph)
    pb = PersistentBlocks(store, program, make_cpa(program, opts.config, blocks), blocks, opts, None)
    entry = pb.state_from_json(json.loads(old["entry"]))
    key = pb.key(blocks["twice"], entry, json.loads(old["prec"]))
    store.put_blocks([{**{k: old[k] for k in ("function", "config", "digest", "states", "seconds")},
                       "key": key, "fn_key": pb.fn_keys["twice"], "entry": json.loads(old["entry"]),
                       "prec": json.loads(old["prec"]), "exits": json.loads(old["exits"]), "consumed": []}], None)
    assert store.get_block(key) is not None
    result = run_deep(lambda: verify_program(program, opts._replace(cache=store)))
    assert result.statistics.summary_hits >= 1, "the other program's row was not used"
    assert result.verdict == "TRUE", result.reason
    store.close()


def test_type_change_sequence_never_crashes(tmp_path):
    """Repro 4: one program with its integer types changed twice, in one cache, editor's mode
    with a 10 s limit. The third run used to die on an uncaught exception with exit status 1
    (FALSE's). Each answer now equals the from-scratch one (the program is TRUE; at 10 s cbam
    may still give up, but never crashes and never answers FALSE)."""
    cache, work = tmp_path / "D", tmp_path / "p.c"
    for v in (1, 2, 3):
        shutil.copy(REPRO / f"crash_types_v{v}.c", work)
        run = cli("--cache-dir", str(cache), "--all-violations", "--timeout", "10", str(work))
        assert run.returncode in (0, 3), run.stderr
        assert verdict(run) in ("TRUE", "UNKNOWN")
        assert "Traceback" not in run.stderr


LEAF = """extern void abort(void);
void reach_error(void);
extern int __VERIFIER_nondet_int(void);
/* The nondet value keeps leaf from a parametric summary: it is analysed per entry. */
int leaf(int x) { int d = __VERIFIER_nondet_int(); if (d > 0) x = x + 0; return x + 1; }
int main(void) { if (leaf(2) == CHECK) reach_error(); return 0; }
"""


def test_a_summary_its_block_does_not_reproduce_is_evicted_and_the_run_recomputed(tmp_path):
    """A stored entry that says leaf(2) returns 7 (it returns 3): the path through it cannot be
    rebuilt. The run is answered without the cache, says so, and the entry is gone."""
    store = CacheStore(tmp_path / "cache")
    work = tmp_path / "p.c"
    work.write_text(LEAF.replace("CHECK", "9"))
    first = verify(work, store)
    assert first.verdict == "TRUE"
    leaf_key = first.function_keys["leaf"]
    rows = store.blocks_for_function("", leaf_key)
    assert rows
    tampered = []
    for r in rows:
        exits = json.loads(json.dumps(r["exits"]).replace('"leaf::__retval": 3', '"leaf::__retval": 7'))
        assert exits != r["exits"]
        tampered.append({**r, "exits": exits})
    store.put_blocks(tampered, None)
    work.write_text(LEAF.replace("CHECK", "7"))  # main changes: leaf's entry is looked up
    second = verify(work, store)
    assert second.verdict == "TRUE"
    assert any("could not be reproduced" in w for w in second.warnings)
    assert all(store.get_block(r["key"]) is None for r in tampered)
    assert verify(work, store).verdict == "TRUE"
    store.close()


def test_an_internal_error_is_an_unknown_never_a_verdict(tmp_path, monkeypatch):
    from cbam.engine.core import bam

    monkeypatch.delenv("CBAM_DEBUG", raising=False)

    def broken(*args, **kwargs):
        raise RuntimeError("planted")

    monkeypatch.setattr(bam.BAM, "run", broken)
    work = tmp_path / "p.c"
    work.write_text(LEAF.replace("CHECK", "3"))
    result = verify(work, None)
    assert result.verdict == "UNKNOWN" and result.reason_kind == UnknownReason.INTERNAL
    assert "planted" in result.reason


def test_the_command_line_never_exits_with_a_verdicts_status_on_an_internal_error(tmp_path):
    work = tmp_path / "p.c"
    work.write_text(LEAF.replace("CHECK", "3"))
    code = ("import sys, cbam.commands as v\n"
            "v._verify_all = lambda files, args: (_ for _ in ()).throw(RuntimeError('planted'))\n"
            "from cbam.cli import main\nsys.exit(main(['verify', '--no-cache', sys.argv[1]]))\n")
    run = subprocess.run([sys.executable, "-c", code, str(work)], capture_output=True, text=True, timeout=120)
    assert run.returncode == 4, (run.returncode, run.stderr)
    assert "internal error: planted" in run.stderr


def test_self_check_catches_a_cached_answer_that_differs(tmp_path):
    """The self-check mode recomputes a cached answer and fails loudly on a difference: here a
    stored result whose verdict was changed behind the cache's back."""
    store = CacheStore(tmp_path / "cache")
    work = tmp_path / "p.c"
    work.write_text(LEAF.replace("CHECK", "3"))
    first = verify(work, store)
    assert first.verdict == "FALSE"
    payload = store.get_result(first.cache_key)
    payload["verdict"], payload["violations"] = "TRUE", []
    store.put_result(first.cache_key, str(work), "TRUE", payload)
    import os

    os.environ[selfcheck.ENV] = "1"
    try:
        with pytest.raises(selfcheck.SelfCheckFailed, match="answered TRUE"):
            verify(work, store)
    finally:
        del os.environ[selfcheck.ENV]
    store.close()


def test_self_check_through_the_command_line_on_an_unchanged_source(tmp_path):
    """The answer of an unchanged source (before parsing) is checked too: --self-check."""
    cache, work = tmp_path / "D", tmp_path / "p.c"
    work.write_text(LEAF.replace("CHECK", "3"))
    assert cli("--cache-dir", str(cache), str(work)).returncode == 1
    conn = sqlite3.connect(cache / "summaries.sqlite")
    from cbam.engine.cache.store import _checksum

    # Every address of the source (preprocessed, and unpreprocessed: it has no directive).
    rows = conn.execute("SELECT key, result_key, payload FROM sources").fetchall()
    assert len(rows) == 2
    for key, result_key, payload in rows:
        data = json.loads(payload)
        data["report"]["verdict"], data["report"]["violations"], data["harnesses"] = "TRUE", [], []
        values = (key, result_key, str(work), json.dumps(data))
        conn.execute("UPDATE sources SET payload = ?, checksum = ? WHERE key = ?", (values[3], _checksum(values), key))
    conn.commit()
    conn.close()
    plain = cli("--cache-dir", str(cache), str(work))
    assert verdict(plain) == "TRUE"  # what the tampered row says: the self-check is what catches it
    checked = cli("--cache-dir", str(cache), "--self-check", str(work))
    assert checked.returncode == 4 and "self-check" in checked.stderr


def test_key_recipe_is_one_digest():
    assert digest("a", [1, 2]) == digest("a", [1, 2]) != digest("a", [2, 1])
    assert len(digest("x", length=64)) == 64


def test_function_keys_follow_the_options_that_decide_summaries(tmp_path):
    work = tmp_path / "p.c"
    work.write_text(LEAF.replace("CHECK", "3"))
    program = load_program(str(work), options=PreprocessOptions(data_model="LP64"))
    base = function_keys(program, VerifyOptions())
    assert function_keys(program, VerifyOptions(timeout=5, harness=False, max_violations=9)) == base
    for changed in (VerifyOptions(config="value"), VerifyOptions(predicate_theory="lia"), VerifyOptions(order="bfs")):
        assert function_keys(program, changed)["leaf"] != base["leaf"]


def test_what_the_cache_may_keep_as_final():
    """One rule, on the result: a verdict, or an UNKNOWN no time would change."""
    from cbam.engine.core.result import Statistics, VerificationResult

    cut = Statistics(phases_cut_by_time=1)
    assert VerificationResult("TRUE", statistics=cut).final and VerificationResult("TRUE", statistics=cut).cut_by_time
    assert VerificationResult("UNKNOWN", reason_kind=UnknownReason.NO_PROGRESS).final
    assert not VerificationResult("UNKNOWN", reason_kind=UnknownReason.NO_PROGRESS, statistics=cut).final
    assert not VerificationResult("UNKNOWN", reason_kind=UnknownReason.TIMEOUT).final


def test_self_check_comparison_rules():
    """The definition of "the same answer" the property tests and the self-check share."""
    def report(verdict, violations=(), reused=False, kind="", stopped="", cut=0, engine="cegar"):
        return {"verdict": verdict, "reason": kind, "reason_kind": kind, "search_stopped": stopped,
                "cut_by_time": cut > 0,
                "statistics": {"precision_reused": reused, "phases_cut_by_time": cut, "decided_by": engine},
                "violations": list(violations)}

    def violation(line, value, branch="taken"):
        rng = {"file": "F", "start": {"line": line, "column": 1}, "end": {"line": line, "column": 5}}
        return {"kind": "reach_error", "function": "main", "range": rng, "message": f"reach_error() (n = {value})",
                "inputs": [{"source": "n", "type": "int", "value": value}],
                "path": [{"kind": "input", "function": "main", "range": None, "text": "", "message": f"n = {value}"},
                         {"kind": "branch", "function": "main", "range": rng, "text": "n > 2",
                          "message": f"branch `n > 2` {branch}"}]}

    assert selfcheck.compare(report("TRUE"), report("FALSE", [violation(3, 1)]), False) is not None
    assert selfcheck.compare(report("UNKNOWN", kind="no-progress"), report("TRUE"), False) is not None
    assert selfcheck.compare(report("TRUE"), report("UNKNOWN", kind="no-progress"), False) is not None
    # A reused precision may decide what a fresh run gives up on; timing makes runs incomparable.
    assert selfcheck.compare(report("TRUE", reused=True), report("UNKNOWN", kind="no-progress"), False) is None
    assert selfcheck.compare(report("UNKNOWN", kind="timeout"), report("TRUE"), False) is None
    assert selfcheck.compare(report("TRUE", cut=1), report("UNKNOWN", kind="no-progress"), False) is None
    # The same path with other example values is the same violation; another branch is not.
    assert selfcheck.compare(report("FALSE", [violation(3, 1)]), report("FALSE", [violation(3, 2)]), True) is None
    assert selfcheck.compare(report("FALSE", [violation(3, 1)]),
                             report("FALSE", [violation(3, 1, "not taken")]), True) is not None
    # With a reused precision: any real violation first, but the same set when both searched everything.
    assert selfcheck.compare(report("FALSE", [violation(3, 1)], reused=True),
                             report("FALSE", [violation(4, 1)]), False) is None
    assert selfcheck.compare(report("FALSE", [violation(3, 1)], reused=True),
                             report("FALSE", [violation(4, 1)]), True) is not None
    assert selfcheck.compare(report("FALSE", [violation(3, 1)], reused=True, stopped="no-progress"),
                             report("FALSE", [violation(4, 1)]), True) is None
    # Another engine decided (the portfolio went another way): its own path, the same checks.
    assert selfcheck.compare(report("FALSE", [violation(3, 1)], engine="merged-bmc"),
                             report("FALSE", [violation(3, 1, "not taken")]), True) is None
    assert selfcheck.compare(report("FALSE", [violation(3, 1)], engine="merged-bmc"),
                             report("FALSE", [violation(4, 1)]), True) is not None
    assert selfcheck.compare(report("FALSE", [violation(3, 1)], engine="merged-bmc"),
                             report("FALSE", [violation(3, 1, "not taken")], engine="merged-bmc"), True) is None
    assert selfcheck.compare(report("FALSE", [violation(3, 1)], engine="cegar"),
                             report("FALSE", [violation(3, 1, "not taken")], engine="cegar"), True) is not None
    assert selfcheck.compare(report("TRUE", engine="merged-bmc"), report("FALSE", [violation(3, 1)]), False) \
        is not None


FP_CALL = (REPRO / "callback_edit.c").read_text()


def test_an_edit_of_a_function_that_calls_through_a_pointer_is_not_answered_true_from_the_cache(tmp_path):
    """Found on inih (its reader callback): after an edit of ``go`` alone, the new process
    reused main's build, whose body names ``mine``; the call ``r(b, 4)`` lost its one target
    and the failing program was TRUE (cfa/builder.address_taken_functions)."""
    cache, path = tmp_path / "D", tmp_path / "fp.c"
    path.write_text(FP_CALL)
    assert verdict(cli("--cache-dir", str(cache), str(path))) == "TRUE"
    path.write_text(FP_CALL.replace("b[0] == 'x'", "b[0] == 'y'"))
    second = cli("--cache-dir", str(cache), str(path))
    assert verdict(second) == "FALSE" and second.returncode == 1
    out = json.loads(second.stdout)
    assert out["violations"][0]["range"]["start"]["line"] == FP_CALL.splitlines().index("  if (!go(mine)) reach_error();") + 1
    assert out["violations"][0]["replay"]["status"] == "replayed"  # gcc's build of it fails when run
