"""The persistent summary cache: storage, robustness, concurrency, incremental re-verification."""

from __future__ import annotations

import json
import multiprocessing
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from cbam.engine.cache import keys
from cbam.engine.cache.store import SCHEMA_VERSION, CacheStore
from cbam.engine.cfa.load import load_program
from cbam.engine.frontend.preprocess import PreprocessOptions
from cbam.engine.verify import VerifyOptions, run_deep, verify_program

from .conftest import ROOT

PROGRAM = """
extern int __VERIFIER_nondet_int(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error(void) { __assert_fail("0", "p.c", 3, "reach_error"); }
int leaf(int x) { if (x > 10) return 10; return x; }
int mid(int x) { return leaf(x) + 1; }
int other(int y) { return y * 2; }
int main(void) {
  int a = mid(5);
  int b = other(a);
  if (b != 12) reach_error();
  return 0;
}
"""


def run(src: str, path: Path, store: CacheStore | None, **kw):
    path.write_text(src)
    program = load_program(str(path), options=PreprocessOptions(data_model="LP64"))
    # CEGAR's cache is what these tests are about: the Horn-clause engine keeps no summaries.
    opts = VerifyOptions(cache=store, **{"timeout": 30, "horn": False, **kw})
    return run_deep(lambda: verify_program(program, opts))



@pytest.fixture
def store(tmp_path) -> CacheStore:
    return CacheStore(tmp_path / "cache")


def test_warm_rerun_comes_from_the_cache(tmp_path, store):
    p = tmp_path / "p.c"
    cold = run(PROGRAM, p, store)
    assert cold.verdict == "TRUE" and cold.source == "fresh"
    warm = run(PROGRAM, p, store)
    assert warm.verdict == "TRUE" and warm.source == "cache"


def _blocks_analysed(src, p, store, **kw):
    from cbam.engine.core import bam as bam_mod

    seen: list[str] = []
    orig = bam_mod.BAM._fresh

    def spy(self, block, *a, **k):
        seen.append(block.name)
        return orig(self, block, *a, **k)

    bam_mod.BAM._fresh = spy
    try:
        result = run(src, p, store, **kw)
    finally:
        bam_mod.BAM._fresh = orig
    return result, seen


def test_another_program_with_the_same_functions_reuses_their_summaries(tmp_path, store):
    """The cache is keyed by content, not by file: a different program in another file that
    contains leaf and mid unchanged (and calls them with the same argument) analyses only its own code."""
    run(PROGRAM, tmp_path / "p.c", store)
    second = PROGRAM.replace("int other(int y) { return y * 2; }", "int twice(int y) { return y + y; }") \
        .replace("int b = other(a);", "int b = twice(a) + 0;").replace('"p.c", 3', '"q.c", 3')
    result, seen = _blocks_analysed(second, tmp_path / "q.c", store)
    assert result.verdict == "TRUE" and result.source == "fresh"
    assert result.statistics.summary_hits >= 1
    assert "leaf" not in seen and "mid" not in seen
    assert "twice" in seen and "main" in seen
    broken = second.replace("b != 12", "b != 13")
    result, seen = _blocks_analysed(broken, tmp_path / "r.c", store)
    assert result.verdict == "FALSE" and "leaf" not in seen and "mid" not in seen
    steps = [s.message for s in result.violations[0].steps]
    assert steps[:2] == ["call mid(x = 5)", "mid returns 6"]  # through the reused summary
    assert steps[-2:] == ["branch `b != 13` taken", "reach_error() is reachable"]


def test_leaf_edit_with_unchanged_summary_reexplores_only_the_leaf(tmp_path, store):
    p = tmp_path / "p.c"
    run(PROGRAM, p, store)
    # Same summary for the entry mid uses (x = 5): only leaf is analysed again.
    edited = PROGRAM.replace("if (x > 10) return 10;", "if (x > 20) return 20;")
    result, seen = _blocks_analysed(edited, p, store)
    assert result.verdict == "TRUE" and result.source == "fresh"
    assert set(seen) <= {"leaf", "__cbam_start"}, seen
    assert "leaf" in seen and "mid" not in seen and "other" not in seen


def test_leaf_edit_that_changes_the_summary_reexplores_callers(tmp_path, store):
    p = tmp_path / "p.c"
    run(PROGRAM, p, store)
    edited = PROGRAM.replace("return x; }", "return x + 1; }")
    result, seen = _blocks_analysed(edited, p, store)
    assert result.verdict == "FALSE"  # b is now 14
    assert {"leaf", "mid"} <= set(seen)
    # other's entry (a = 7) is new, but other is a function of its parameter alone: its
    # parametric summary, unchanged, is instantiated instead of analysing it again.
    assert "other" not in seen
    assert any("b == 14" in s.text or s.values.get("b") == 14 for s in result.violations[0].steps) or \
        "14" in json.dumps(result.violations[0].to_json())


def test_verdicts_and_paths_survive_moving_code(tmp_path, store):
    p = tmp_path / "p.c"
    buggy = PROGRAM.replace("b != 12", "b == 12")
    first = run(buggy, p, store, harness=False)
    assert first.verdict == "FALSE"
    line0 = first.violations[0].range.line
    moved = "\n\n\n/* moved */\n" + buggy
    second = run(moved, p, store, harness=False)
    assert second.source == "cache" and second.verdict == "FALSE"
    assert second.violations[0].range.line == line0 + 4
    for a, b in zip(first.violations[0].steps, second.violations[0].steps):
        assert a.message == b.message
        if a.range is not None:
            assert b.range.line == a.range.line + 4 and b.range.col == a.range.col
    fresh = run(moved, tmp_path / "q.c", None, harness=False)
    assert [s.message for s in fresh.violations[0].steps] == [s.message for s in second.violations[0].steps]


def test_precision_is_reused(tmp_path, store):
    p = tmp_path / "p.c"
    src = """
    extern int __VERIFIER_nondet_int(void);
    void reach_error(void);
    int main(void) { int flag = 0, t = 0; while (__VERIFIER_nondet_int()) { t++; }
      if (flag) reach_error(); return 0; }
    """
    first = run(src, p, store)
    assert first.verdict == "TRUE"
    saved = store.get_precision(str(p.resolve()), keys.precision_slot("value+predicate", "main"))  # the default configuration
    assert saved is not None and "value" in saved and "predicate" in saved
    second = run(src.replace("t++", "t += 2"), p, store)
    assert second.verdict == "TRUE" and second.statistics.refinements == 0


def test_version_and_schema_mismatch_rebuild(tmp_path):
    d = tmp_path / "c"
    s = CacheStore(d)
    s.put_precision("f.c", "value", {"globals": ["g"]})
    s.conn.execute("UPDATE meta SET value = '0.0.1' WHERE key = 'cbam_version'")
    s.close()
    s2 = CacheStore(d)
    assert s2.rebuilt_reason and "written by cbam 0.0.1" in s2.rebuilt_reason
    assert s2.get_precision("f.c", "value") is None
    s2.conn.execute("UPDATE meta SET value = 'old' WHERE key = 'schema'")
    s2.close()
    s3 = CacheStore(d)
    assert s3.rebuilt_reason and "schema old" in s3.rebuilt_reason
    assert s3.stats()["schema"] == SCHEMA_VERSION


@pytest.mark.parametrize("damage", ["truncate", "garble", "foreign"])
def test_corrupt_database_is_rebuilt_not_trusted(tmp_path, damage):
    d = tmp_path / "c"
    s = CacheStore(d)
    rows = [{"key": f"k{i}", "function": "f", "fn_key": "x", "config": "value", "entry": [], "prec": [],
             "exits": [[1] * 50], "consumed": [], "digest": "d", "states": 1, "seconds": 0.1} for i in range(200)]
    s.put_blocks(rows, "f.c")
    s.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    s.close()
    db = d / "summaries.sqlite"
    data = db.read_bytes()
    if damage == "truncate":
        db.write_bytes(data[: len(data) // 3])
    elif damage == "garble":
        db.write_bytes(data[:100] + bytes(b ^ 0x5A for b in data[100:4096]) + data[4096:])
    else:
        db.unlink()
        conn = sqlite3.connect(db)
        conn.execute("CREATE TABLE other (x)")
        conn.commit()
        conn.close()
    s2 = CacheStore(d)
    assert s2.rebuilt_reason
    assert s2.get_block("k1") is None
    s2.put_precision("f.c", "value", {"globals": []})
    assert s2.get_precision("f.c", "value") == {"globals": []}


@pytest.mark.parametrize("table", ["blocks", "results", "sources"])
def test_a_changed_byte_inside_a_row_is_caught_by_its_checksum(tmp_path, table):
    """Damage that leaves the pages well-formed (one digit of a stored summary or verdict): SQLite
    cannot see it, the row's checksum does, and the cache is rebuilt rather than trusted."""
    d = tmp_path / "c"
    s = CacheStore(d)
    s.put_blocks([{"key": "k", "function": "f", "fn_key": "x", "config": "value", "entry": [["x", 5]],
                   "prec": [], "exits": [[["y", 987654321]]], "consumed": [], "digest": "d", "states": 1,
                   "seconds": 0.1}], "f.c")
    s.put_result("r", "f.c", "TRUE", {"verdict": "TRUE", "n": 887654321})
    s.put_source("src", "r", "f.c", {"report": {"verdict": "TRUE", "n": 787654321}})
    assert s.get_block("k")["exits"] == [[["y", 987654321]]]
    s.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    s.close()
    db = d / "summaries.sqlite"
    data = db.read_bytes()
    target = {"blocks": b"987654321", "results": b"887654321", "sources": b"787654321"}[table]
    assert data.count(target) == 1
    db.write_bytes(data.replace(target, target[:-1] + b"2"))
    s2 = CacheStore(d)
    assert s2.rebuilt_reason is None  # the pages are intact: nothing to see on opening
    read = {"blocks": lambda: s2.get_block("k"), "results": lambda: s2.get_result("r"),
            "sources": lambda: s2.get_source("src")}[table]
    assert read() is None
    assert s2.rebuilt_reason == f"corrupt database (a row of {table} does not match its checksum)"
    assert s2.get_block("k") is None and s2.get_result("r") is None  # rebuilt: nothing of it is trusted
    s2.put_precision("f.c", "value", {"globals": []})
    assert s2.get_precision("f.c", "value") == {"globals": []}


def _row(key: str, y: int) -> dict:
    return {"key": key, "function": "f", "fn_key": "x", "config": "value", "entry": [["x", 5]], "prec": [],
            "exits": [[["y", y]]], "consumed": [], "digest": "d", "states": 1, "seconds": 0.1}


def test_a_decoded_block_is_forgotten_when_any_connection_deletes_it(tmp_path):
    """A long-lived process keeps decoded rows; a `cbam cache clear` from another process, or its
    own eviction, must be seen at once (a cleared cache that still answers would lie)."""
    d = tmp_path / "c"
    s = CacheStore(d)
    s.put_blocks([_row("k", 1), _row("j", 2)], "f.c")
    assert s.get_block("k")["exits"] == [[["y", 1]]]
    assert s.get_block("k") is s.get_block("k")  # decoded once
    CacheStore(d).clear()  # another connection, as another process would
    assert s.get_block("k") is None
    s.put_blocks([_row("k", 1), _row("j", 2)], "f.c")
    assert s.get_block("j")["exits"] == [[["y", 2]]]
    s.delete_block("j")
    assert s.get_block("j") is None
    s.put_blocks([_row("k", 3)], "f.c")  # replaced by this connection
    assert s.get_block("k")["exits"] == [[["y", 3]]]


def test_decoded_blocks_are_bounded_by_their_size(tmp_path, monkeypatch):
    s = CacheStore(tmp_path / "c")
    monkeypatch.setattr(CacheStore, "DECODED_MAX_BYTES", 100)
    s.put_blocks([_row(k, 10 ** 20) for k in "abcdef"], "f.c")  # about 40 bytes of JSON each
    for k in "abcdef":
        assert s.get_block(k)["exits"] == [[["y", 10 ** 20]]]
    assert 0 < len(s._decoded) < 6 and s._decoded_bytes <= 100
    assert s._decoded_bytes == sum(b["_bytes"] for b in s._decoded.values())
    assert list(s._decoded)[-1] == "f"  # the oldest went first


def test_predecode_decodes_what_was_written_and_stops_when_asked(tmp_path):
    s = CacheStore(tmp_path / "c")
    s.put_blocks([_row("a", 1), _row("b", 2), _row("c", 3)], "f.c")
    assert s.predecode(stop=lambda: True) is False  # one row, then a job arrived
    assert set(s._decoded) == {"a"}
    assert s.predecode(stop=lambda: False) is True
    assert set(s._decoded) == {"a", "b", "c"}
    assert s.get_block("c")["exits"] == [[["y", 3]]]
    assert s.predecode(stop=lambda: False) is True  # nothing new


def test_what_the_writer_decoded_is_kept_with_the_decoded_row_only(tmp_path):
    """The run that stores a block holds its exit states already: the store keeps them (a row's
    "_" entries) with the row it decodes, in this process; they are never written."""
    s = CacheStore(tmp_path / "c")
    held = object()
    s.put_blocks([_row("a", 1) | {"_states": held}, _row("b", 2) | {"_states": held}], "f.c")
    assert s.get_block("a")["_states"] is held  # looked up before the worker predecoded it
    assert s.predecode(stop=lambda: False) is True
    assert s.get_block("b")["_states"] is held and s.get_block("b")["exits"] == [[["y", 2]]]
    assert "_states" not in CacheStore(tmp_path / "c").get_block("a")  # another process decodes


def _writer(directory: str, worker: int, n: int) -> None:
    s = CacheStore(directory)
    for i in range(n):
        s.put_blocks([{"key": f"w{worker}-{i}", "function": "f", "fn_key": "x", "config": "value", "entry": [i],
                       "prec": [], "exits": [[worker, i]], "consumed": [], "digest": "d", "states": 1,
                       "seconds": 0.0}], f"f{worker}.c")
        s.put_result(f"r{worker}-{i}", f"f{worker}.c", "TRUE", {"i": i})
        assert s.get_block(f"w{worker}-{i}")["exits"] == [[worker, i]]
    s.close()


def test_two_processes_share_the_cache(tmp_path):
    d = str(tmp_path / "shared")
    CacheStore(d).close()
    ctx = multiprocessing.get_context("spawn")
    procs = [ctx.Process(target=_writer, args=(d, w, 60)) for w in range(2)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(120)
        assert p.exitcode == 0
    s = CacheStore(d)
    assert s.rebuilt_reason is None
    st = s.stats()
    assert st["blocks"] == 120 and st["results"] == 120
    assert s.conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


def test_two_cli_processes_verify_concurrently(tmp_path):
    cache = tmp_path / "cli-cache"
    cmd = [sys.executable, "-m", "cbam", "verify", "--cache-dir", str(cache), "--format", "json"]
    procs = [subprocess.Popen(cmd + [str(ROOT / "examples" / f)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True) for f in ("safe.c", "buggy.c", "safe.c", "buggy.c")]
    outs = [p.communicate(timeout=120) for p in procs]
    verdicts = [json.loads(o)["verdict"] for o, _ in outs]
    assert verdicts == ["TRUE", "FALSE", "TRUE", "FALSE"]
    s = CacheStore(cache)
    assert s.rebuilt_reason is None and s.stats()["results"] == 2


def test_cli_cache_commands(tmp_path):
    cache = tmp_path / "cc"
    base = [sys.executable, "-m", "cbam"]
    r = subprocess.run(base + ["verify", "examples/safe.c", "--cache-dir", str(cache)], cwd=ROOT,
                       capture_output=True, text=True)
    assert "Computed fresh" in r.stdout
    r = subprocess.run(base + ["verify", "examples/safe.c", "--cache-dir", str(cache)], cwd=ROOT,
                       capture_output=True, text=True)
    assert "Result from the summary cache" in r.stdout
    r = subprocess.run(base + ["verify", "examples/safe.c", "--cache-dir", str(cache), "--format", "json"],
                       cwd=ROOT, capture_output=True, text=True)
    assert json.loads(r.stdout)["source"] == "cache"
    r = subprocess.run(base + ["cache", "stats", "--cache-dir", str(cache), "--format", "json"], cwd=ROOT,
                       capture_output=True, text=True)
    st = json.loads(r.stdout)
    assert st["results"] == 1 and st["blocks"] > 0
    r = subprocess.run(base + ["cache", "clear", "examples/safe.c", "--cache-dir", str(cache)], cwd=ROOT,
                       capture_output=True, text=True)
    assert r.returncode == 0
    r = subprocess.run(base + ["verify", "examples/safe.c", "--cache-dir", str(cache)], cwd=ROOT,
                       capture_output=True, text=True)
    assert "Result from the summary cache" not in r.stdout
    r = subprocess.run(base + ["verify", "examples/safe.c", "--no-cache"], cwd=ROOT, capture_output=True, text=True)
    assert "Computed fresh." in r.stdout


TIMES_OUT = """
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error(void) { __assert_fail("0", "t.c", 3, "reach_error"); }
int leaf(int x) { int s = 0; for (int i = 0; i < 50; i++) s += x; return s; }
int main(void) {
  int a = leaf(2);
  unsigned k = 0, stop = 4000000000u;  /* a variable bound: a constant one is accelerated away */
  while (k < stop) k++;
  if (k != 4000000000u || a != 100) reach_error();
  return 0;
}
"""


def test_blocks_finished_before_a_timeout_are_kept(tmp_path, store):
    p = tmp_path / "t.c"
    first, seen = _blocks_analysed(TIMES_OUT, p, store, timeout=3, config="value")
    assert first.verdict == "UNKNOWN" and "timeout" in first.reason and "leaf" in seen
    assert first.statistics.summary_hits == 0
    assert store.blocks_for_function("leaf")
    assert store.stats()["results"] == 0  # a timeout is never a cached result
    # The next run reuses leaf's summaries (full and refined precision) instead of unrolling its
    # loop again; in the full-precision phase no error path needs leaf's ARG, so it is not rebuilt.
    second, seen = _blocks_analysed(TIMES_OUT, p, store, timeout=3, config="value")
    assert second.verdict == "UNKNOWN" and second.statistics.summary_hits >= 2
    assert seen[:2] == ["__cbam_start", "main"] and seen[2] != "leaf"


@contextmanager
def _looked_up() -> Iterator[list[str]]:
    """The blocks the persistent cache is asked for, in order, while the context lasts."""
    from cbam.engine.cache import blockcache

    names: list[str] = []
    orig = blockcache.PersistentBlocks.lookup

    def spy(self, bam, block, *a, **k):
        names.append(block.name)
        return orig(self, bam, block, *a, **k)

    blockcache.PersistentBlocks.lookup = spy  # type: ignore[method-assign]
    try:
        yield names
    finally:
        blockcache.PersistentBlocks.lookup = orig  # type: ignore[method-assign]


def test_an_entry_whose_reachable_code_is_unchanged_is_reused_without_revalidating_below_it(tmp_path, store):
    """Early cutoff checks a stored entry's callee summaries one by one; when nothing the entry's
    block can reach has changed (code, precision, excluded targets: its validity), they are what
    they were, and the edit re-validates nothing below it."""
    p = tmp_path / "p.c"
    run(PROGRAM, p, store)
    edited = PROGRAM.replace("return y * 2;", "return y * 2 + 1;")  # other's summary changes: main is analysed
    with _looked_up() as looked_up:
        result, seen = _blocks_analysed(edited, p, store)
    assert result.verdict == "FALSE" and result.verdict == run(edited, tmp_path / "q.c", None).verdict
    assert "main" in seen and "mid" not in seen and "leaf" not in seen
    assert "mid" in looked_up and "leaf" not in looked_up  # mid's entry holds as it is
    # leaf changes below mid: mid's entry is validated callee by callee again, and mid re-analysed.
    deeper = edited.replace("return x; }", "return x + 1; }")
    with _looked_up() as looked_up:
        result, seen = _blocks_analysed(deeper, p, store)
    assert "leaf" in looked_up and {"leaf", "mid"} <= set(seen)
    assert result.verdict == "FALSE" and result.violations[0].to_json()["inputs"] == \
        run(deeper, tmp_path / "r.c", None).violations[0].to_json()["inputs"]


def test_validity_names_the_code_precision_and_excluded_targets_below_the_block(tmp_path, store):
    """What lets a stored entry skip validating its callees must change with anything its
    callees' results depend on, and with nothing else."""
    from cbam.engine.cache.blockcache import PersistentBlocks
    from cbam.engine.cfa.callgraph import CallGraph
    from cbam.engine.core.blocks import build_blocks
    from cbam.engine.cpa.value.precision import ValuePrecision
    from cbam.engine.verify import make_cpa

    def validity(src: str, prec: ValuePrecision, excluded: list[str] = ()) -> str:
        p = tmp_path / "p.c"
        p.write_text(src)
        program = load_program(str(p), options=PreprocessOptions(data_model="LP64"))
        blocks = build_blocks(program, CallGraph.of(program))
        cpa = make_cpa(program, "value", blocks)
        pb = PersistentBlocks(store, program, cpa, blocks, VerifyOptions(config="value"), str(p))
        nodes = {id(n): n for f in excluded for n in program.function_of_name(f).canonical_nodes() if n.error}
        nodes |= {id(n): n for f in excluded for n in program.function_of_name(f).canonical_nodes()[:1]}
        return pb.validity(blocks["mid"], {"value": prec}, nodes)

    none = ValuePrecision()
    base = validity(PROGRAM, none)
    assert validity(PROGRAM, ValuePrecision()) == base  # the same precision, another object
    assert validity(PROGRAM.replace("return x; }", "return x + 0; }"), none) != base  # leaf, below mid
    assert validity(PROGRAM.replace("return y * 2;", "return y + y;"), none) == base  # other: not below mid
    assert validity(PROGRAM, ValuePrecision(scoped={"leaf": frozenset({"leaf::x"})})) != base
    assert validity(PROGRAM, ValuePrecision(scoped={"other": frozenset({"other::y"})})) == base
    assert validity(PROGRAM, none, ["leaf"]) != base
    assert validity(PROGRAM, none, ["other"]) == base


SHIFTED = """
extern int __VERIFIER_nondet_int(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error(void) { __assert_fail("0", "p.c", 3, "reach_error"); }
int leaf(int x) { if (x > 10) return 10; return x; }
int mid(int x) { int r = leaf(x); if (x < 0) r = -r; return r + 1; }
int other(int y) { return y * FACTOR; }
int main(void) {
  int n = __VERIFIER_nondet_int();
  int a = mid(n);
  int b = other(a);
  if (b > 6) reach_error();
  return 0;
}
"""


@pytest.mark.parametrize("editor", [False, True])
def test_summaries_kept_decoded_follow_an_edit_that_moves_their_function(tmp_path, store, editor):
    """A long-lived process keeps stored exits decoded, and their locations are nodes of the
    build they were decoded for. A line added above a function rebuilds it with new nodes; an
    error path rebuilt through its cached summary must then find its exits (it once reported
    the summary as not reproducible, dropped it and answered without the cache)."""
    kw = {"max_violations": 20, "extra_search_after_violation": 1.0} if editor else {}
    p = tmp_path / "p.c"
    steps = [SHIFTED.replace("FACTOR", "2"), SHIFTED.replace("FACTOR", "3"),
             "/* moved */\n" + SHIFTED.replace("FACTOR", "4"), SHIFTED.replace("FACTOR", "5")]
    for i, src in enumerate(steps):
        cached = run(src, p, store, **kw)
        scratch = run(src, tmp_path / "scratch.c", None, **kw)
        assert not cached.statistics.cache_inconsistency, (i, cached.warnings)
        assert cached.verdict == scratch.verdict == "FALSE"
        assert [v.range.line for v in cached.violations] == [v.range.line for v in scratch.violations]
        if i:
            assert cached.statistics.summary_hits > 0  # mid's summary came from the cache


TWO_SUBTREES = """
extern int __VERIFIER_nondet_int(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error(void) { __assert_fail("0", "p.c", 3, "reach_error"); }
int leaf1(int x) { if (x > 10) return 10; return x; }
int leaf2(int x) { if (x > 20) return 20; return x; }
int a(int x) { return leaf1(x) + 1; }
int b(int x) { return leaf2(x) + leaf2(x + 1); }
int main(void) {
  int n = __VERIFIER_nondet_int();
  int r = a(3) + b(4);
  if (r == 13 && n == 7) reach_error();
  return 0;
}
"""


@pytest.mark.parametrize("editor", [False, True])
def test_consumed_callees_whose_reachable_code_is_unchanged_are_not_called_again(tmp_path, store, editor):
    """A stored entry (or a certificate level) whose own validity changed checks the callee
    results it consumed; those whose validity is unchanged are what they were, so only the
    subtree the edit is in is looked up again."""
    kw = {"max_violations": 20, "extra_search_after_violation": 1.0} if editor else {}
    p = tmp_path / "p.c"
    cold = run(TWO_SUBTREES, p, store, **kw)
    assert cold.verdict == "FALSE"
    edited = TWO_SUBTREES.replace("return 20; return x;", "return 20; return x + 0;")  # leaf2, same summary
    with _looked_up() as looked_up:
        result = run(edited, p, store, **kw)
    scratch = run(edited, tmp_path / "q.c", None, **kw)
    assert "leaf2" in looked_up and "a" not in looked_up and "leaf1" not in looked_up, looked_up
    assert [v.to_json()["inputs"] for v in result.violations] == [v.to_json()["inputs"] for v in scratch.violations]
    assert [v.range.line for v in result.violations] == [v.range.line for v in scratch.violations]


THROUGH_A_CALLEE = """
extern int __VERIFIER_nondet_int(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error(void) { __assert_fail("0", "p.c", 3, "reach_error"); }
int inc(int x) { if (x > 100) return 100; return x + 1; }
int main(void) {
  int n = __VERIFIER_nondet_int();
  int r = inc(n);
  if (r == %d) reach_error();
  return 0;
}
"""


@pytest.mark.parametrize("why", ["entry differs", "solver gave up", "time is up"])
def test_an_error_path_through_a_stored_exit_that_its_block_does_not_rebuild(tmp_path, store, monkeypatch, why):
    """The second run's error path goes through inc's stored exit, which the block's re-analysis
    (made to fall short here) must rebuild. Only a re-analysis as precise as the one that made
    the entry convicts it: the entry goes, and the run is answered without the cache. One whose
    solver gave up proves nothing (the run is answered without the cache, the entry stays); one
    cut by the time limit ends the run as a timeout, as a fresh run would end (seed 15094 of the
    differential campaign: a valid entry was deleted that way)."""
    from dataclasses import replace

    from cbam.engine.core import bam
    from cbam.engine.smt.time_limit import solver_gave_up

    p = tmp_path / "p.c"
    assert run(THROUGH_A_CALLEE % 5, p, store, config="predicate").verdict == "FALSE"
    stored = len(store.blocks_for_function("inc"))
    assert stored >= 1
    solve = bam.BAM._solve

    def short(self, block, *a):
        result = solve(self, block, *a)
        if block.name != "inc":
            return result
        if why == "solver gave up":
            solver_gave_up()
        return replace(result, exits=[])

    monkeypatch.setattr(bam.BAM, "_solve", short)
    if why == "time is up":
        monkeypatch.setattr(bam, "past_deadline", lambda: True)
    second = run(THROUGH_A_CALLEE % 6, p, store, config="predicate")
    notes = [w for w in second.warnings if "cached summary of inc" in w]
    if why == "entry differs":
        assert second.verdict == "FALSE" and second.statistics.cache_inconsistency
        assert notes and "could not be reproduced" in notes[0] and "the entry was removed" in notes[0]
        assert len(store.blocks_for_function("inc")) == stored - 1
    elif why == "solver gave up":
        assert second.verdict == "FALSE" and not second.statistics.cache_inconsistency
        assert notes and "a solver gave up" in notes[0] and "removed" not in notes[0]
        assert len(store.blocks_for_function("inc")) == stored
    else:
        assert second.verdict == "UNKNOWN" and "timeout" in second.reason, second.reason
        assert not second.statistics.cache_inconsistency and not notes
        assert len(store.blocks_for_function("inc")) >= stored


def test_a_stored_exit_its_re_analysis_joins_with_another_goes_unblamed(tmp_path, store, monkeypatch):
    """Differential seed 16021 (interval, editor): an entry kept two exits of a recursive
    function apart that its block's re-analysis, its paths arriving in another order, joins
    into one. The stored exit then has no path of its own, but the entry covers all the block
    reaches: it goes (its paths cannot be rebuilt) without being counted as the cache's fault,
    and the run is answered without the cache."""
    from cbam.engine.core import bam
    from cbam.engine.core.arg import ARGState

    p = tmp_path / "p.c"
    first = run(THROUGH_A_CALLEE % 5, p, store, config="interval")
    stored = len(store.blocks_for_function("inc"))
    assert first.verdict in ("FALSE", "UNKNOWN")
    assert stored >= 1
    solve = bam.BAM._solve

    def joined(self, block, *a):
        result = solve(self, block, *a)
        if block.name != "inc" or len(result.exits) < 2:
            return result
        whole = result.exits[0].state
        for e in result.exits[1:]:
            whole = self.cpa.join(whole, e.state)
        result.exits = [ARGState(whole)]
        return result

    monkeypatch.setattr(bam.BAM, "_solve", joined)
    second = run(THROUGH_A_CALLEE % 6, p, store, config="interval")
    notes = [w for w in second.warnings if "cached summary of inc" in w]
    assert notes and "joins exits that the entry keeps apart" in notes[0] and "the entry was removed" in notes[0]
    assert not second.statistics.cache_inconsistency
    assert len(store.blocks_for_function("inc")) == stored - 1
    scratch = run(THROUGH_A_CALLEE % 6, tmp_path / "q.c", None, config="interval")
    assert second.verdict == scratch.verdict


def test_write_behind_writes_nothing_until_asked_then_everything_in_order(tmp_path):
    """The language server's worker writes what a run learned once the answer is sent: encoding
    and committing the rows took a tenth of an edit's time before its answer."""
    d = tmp_path / "c"
    s = CacheStore(d)
    s.write_behind = True
    made = []
    s.put_blocks_made({"a": {}, "b": {}}, lambda: made.append(1) or [_row("a", 1), _row("b", 2)], "f.c")
    s.put_result("r", "f.c", "TRUE", {"x": 1})
    s.delete_block("b")  # an eviction after the put: the row must not come back
    other = CacheStore(d)
    assert made == [] and other.get_block("a") is None and other.get_result("r") is None
    assert s.get_block("a") is None  # a lookup before the write: a miss, never a wrong row
    s.write_pending()
    assert made == [1]
    assert other.get_block("a")["exits"] == [[["y", 1]]] and other.get_block("b") is None
    assert other.get_result("r") == {"x": 1}
    assert s.get_block("a")["exits"] == [[["y", 1]]]  # the miss above was not kept
    s.write_pending()  # nothing left
    assert made == [1]


def test_write_behind_gives_the_same_rows_and_a_files_later_entries_see_the_earlier_ones(tmp_path):
    from cbam.engine import api

    src = ("int leaf(int x) { int s = 0; for (int i = 0; i < 20; i++) s += x; return s; }\n"
           "int a(int x) { return leaf(x) + 1; }\n"
           "int b(int x) { return leaf(x) - 1; }\n")
    path = tmp_path / "lib.c"
    path.write_text(src)
    dumps = []
    for behind in (False, True):
        store = api.open_cache(str(tmp_path / f"cache{behind}"), write_behind=behind)
        opts = VerifyOptions(cache=store, timeout=30, horn=False)
        report = api.verify_entries(str(path), options=opts)
        assert report.result.verdict == "TRUE"
        if behind:
            # Entry b looked up what entry a wrote, before the answer (leaf with b's argument
            # is another entry, but a's own blocks were there to be found).
            assert store.stats()["blocks"] > 0
            store.write_pending()
        rows = store.conn.execute("SELECT key, function, entry, exits, consumed, digest, rendered, validity "
                                  "FROM blocks ORDER BY key").fetchall()
        dumps.append(rows)
    assert dumps[0] and dumps[0] == dumps[1]


def test_write_behind_keeps_back_only_a_few_rows(tmp_path, monkeypatch):
    """A cold run's hundreds of rows are written as they come: kept back, they would make the
    job saved right after its answer wait for them."""
    monkeypatch.setattr(CacheStore, "WRITE_BEHIND_ROWS", 2)
    d = tmp_path / "c"
    s = CacheStore(d)
    s.write_behind = True
    s.put_blocks([_row("a", 1), _row("b", 2)], "f.c")
    assert CacheStore(d).get_block("a") is None
    s.put_blocks([_row("c", 3)], "f.c")
    assert [CacheStore(d).get_block(k)["exits"] for k in "abc"] == [[[["y", 1]]], [[["y", 2]]], [[["y", 3]]]]


def test_every_key_depends_on_the_engines_code(tmp_path, monkeypatch):
    """An engine whose code changed since a result was filed (an upgrade, a fix, an edit of a
    checkout, all of which keep cbam's version) never reads that result as its own."""
    import os

    from cbam.engine.cache import keys

    (tmp_path / "analysis").mkdir()
    (tmp_path / "analysis" / "x.py").write_text("A = 1\n")
    (tmp_path / "notes.txt").write_text("not code\n")
    first = keys.engine_code(str(tmp_path))
    monkeypatch.setattr(keys, "_engine_code", {})
    assert keys.engine_code(str(tmp_path)) == first  # the same code: the same stamp
    (tmp_path / "notes.txt").write_text("still not code\n")
    monkeypatch.setattr(keys, "_engine_code", {})
    assert keys.engine_code(str(tmp_path)) == first
    (tmp_path / "analysis" / "x.py").write_text("A = 2\n")
    os.utime(tmp_path / "analysis" / "x.py", ns=(1, 1))
    monkeypatch.setattr(keys, "_engine_code", {})
    assert keys.engine_code(str(tmp_path)) != first
    from cbam.engine.options import VerifyOptions

    opts = VerifyOptions()
    before = keys.source_run_key("src", opts)
    monkeypatch.setattr(keys, "engine_code", lambda root=None: "another engine")
    assert keys.source_run_key("src", opts) != before
