"""SQLite storage for block abstractions, learned precisions and whole results.

The database lives in the user's cache directory (XDG) unless told otherwise. It is
opened in WAL mode and every write is one transaction, so several processes can share
it. A database written by another cbam version or schema, or one that is truncated or
garbled, is detected and rebuilt, never trusted.

Damage is found where it is read, not by scanning the whole database on opening (SQLite's
quick_check costs about a millisecond per megabyte, on every start of every process):
SQLite reports a damaged page it reads, and every row carries a checksum of its columns,
which catches what page structure cannot show, a changed byte inside a stored summary.
Either rebuilds the cache.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
from collections import OrderedDict

from cbam import __version__

from ..sha import sha256

# typing costs a few milliseconds to import; this module is on the path that answers an
# unchanged source from the cache, where start-up time is what the user waits for.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    Statements = list[tuple[str, tuple]] | Callable[[], list[tuple[str, tuple]]]

SCHEMA_VERSION = "11"  # 11: blocks.validity (blockcache.PersistentBlocks.validity)
DB_NAME = "summaries.sqlite"

# Each table's columns, in the order they are written and checksummed. Every table also has
# `checksum` (over these columns) and `created` (when the row was written).
_COLUMNS: dict[str, tuple[str, ...]] = {
    "blocks": ("key", "function", "fn_key", "config", "entry", "prec", "exits", "consumed", "digest", "states",
               "seconds", "files", "pruned", "rendered", "validity"),
    "precisions": ("file", "config", "value"),
    "results": ("key", "file", "verdict", "payload"),
    "sources": ("key", "result_key", "file", "payload"),
    "certificates": ("file", "run", "payload"),
    "cfas": ("key", "file", "base", "payload"),
}

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS blocks (
    key TEXT PRIMARY KEY,
    function TEXT NOT NULL,
    fn_key TEXT NOT NULL,
    config TEXT NOT NULL,
    entry TEXT NOT NULL,
    prec TEXT NOT NULL,
    exits TEXT NOT NULL,
    consumed TEXT NOT NULL,
    digest TEXT NOT NULL,
    states INTEGER NOT NULL,
    seconds REAL NOT NULL,
    files TEXT NOT NULL,
    pruned INTEGER NOT NULL,
    rendered TEXT NOT NULL,
    validity TEXT,
    checksum TEXT NOT NULL,
    created REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS blocks_fn ON blocks (fn_key);
CREATE INDEX IF NOT EXISTS blocks_name ON blocks (function);
CREATE TABLE IF NOT EXISTS precisions (
    file TEXT NOT NULL, config TEXT NOT NULL, value TEXT NOT NULL, checksum TEXT NOT NULL, created REAL NOT NULL,
    PRIMARY KEY (file, config)
);
CREATE TABLE IF NOT EXISTS results (
    key TEXT PRIMARY KEY, file TEXT NOT NULL, verdict TEXT NOT NULL, payload TEXT NOT NULL,
    checksum TEXT NOT NULL, created REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS results_file ON results (file);
CREATE TABLE IF NOT EXISTS sources (
    key TEXT PRIMARY KEY, result_key TEXT NOT NULL, file TEXT NOT NULL, payload TEXT NOT NULL,
    checksum TEXT NOT NULL, created REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS sources_file ON sources (file);
CREATE TABLE IF NOT EXISTS certificates (
    file TEXT NOT NULL, run TEXT NOT NULL, payload TEXT NOT NULL, checksum TEXT NOT NULL, created REAL NOT NULL,
    PRIMARY KEY (file, run)
);
CREATE TABLE IF NOT EXISTS cfas (
    key TEXT PRIMARY KEY, file TEXT NOT NULL, base INTEGER NOT NULL, payload TEXT NOT NULL,
    checksum TEXT NOT NULL, created REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS cfas_file ON cfas (file);
"""


def _checksum(values: tuple) -> str:
    # The columns are strings (JSON text, which holds no NUL), integers and floats (whose str
    # round-trips exactly), so NUL-joined text identifies them.
    return sha256("\0".join(map(str, values)).encode()).hexdigest()[:32]


class _Damaged(Exception):
    """A row whose checksum does not match its columns."""


def default_cache_dir() -> str:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "cbam")


class CacheStore:
    def __init__(self, directory: str | os.PathLike | None = None):
        # Plain strings: pathlib (with urllib.parse and ipaddress) is 3 ms of a new process.
        self.dir = os.fspath(directory) if directory is not None else default_cache_dir()
        self.path = os.path.join(self.dir, DB_NAME)
        self.rebuilt_reason: str | None = None
        self._lock = threading.Lock()
        # Decoded block rows by key, for as long as no other connection has written (a long-lived
        # process, the language server's worker, looks up the same blocks edit after edit; JSON
        # decoding is 90 % of a lookup).
        self._decoded: OrderedDict[str, dict[str, Any]] = OrderedDict()
        self._decoded_bytes = 0  # their stored JSON's length, as a measure of their memory
        self._decoded_version: int | None = None
        # Block keys put and not decoded since, with what the writer had decoded of each row
        # (its "_" entries: the run that wrote it holds its exit states already).
        self._written: OrderedDict[str, dict[str, Any]] = OrderedDict()
        # Write-behind (the language server's worker): writes wait, in order, for write_pending,
        # which the worker calls once the job's answer is sent. Encoding and committing a run's
        # rows took 12-15 ms of an edit's 100 ms before its answer; a missed write costs speed only.
        self.write_behind = False
        self._pending: list[tuple[Statements, tuple[str, ...]]] = []
        self._pending_rows = 0
        os.makedirs(self.dir, exist_ok=True)
        self.conn = self._open()

    # ---- opening, validation, rebuilding ----------------------------------------------
    def _connect(self) -> sqlite3.Connection:
        conn = sqlite3.connect(self.path, timeout=30, isolation_level=None, check_same_thread=False)
        conn.execute("PRAGMA busy_timeout = 30000")
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("PRAGMA synchronous = NORMAL")
        return conn

    def _open(self) -> sqlite3.Connection:
        try:
            conn = self._connect()
            problem = self._check(conn)
            if problem is None:
                return conn
            conn.close()
        except sqlite3.DatabaseError as exc:
            problem = f"unreadable database ({exc})"
        self.rebuilt_reason = problem
        self._delete_files()
        conn = self._connect()
        self._init(conn)
        return conn

    def _check(self, conn: sqlite3.Connection) -> str | None:
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if not tables:
            self._init(conn)
            return None
        if "meta" not in tables:
            return "not a cbam cache"
        meta = dict(conn.execute("SELECT key, value FROM meta").fetchall())
        if meta.get("schema") != SCHEMA_VERSION:
            return f"schema {meta.get('schema')} (expected {SCHEMA_VERSION})"
        if meta.get("cbam_version") != __version__:
            return f"written by cbam {meta.get('cbam_version')} (this is {__version__})"
        return None

    def _init(self, conn: sqlite3.Connection) -> None:
        conn.execute("BEGIN IMMEDIATE")
        try:
            for stmt in _SCHEMA.strip().split(";"):
                if stmt.strip():
                    conn.execute(stmt)
            conn.execute("INSERT OR REPLACE INTO meta VALUES ('schema', ?)", (SCHEMA_VERSION,))
            conn.execute("INSERT OR REPLACE INTO meta VALUES ('cbam_version', ?)", (__version__,))
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise

    def _delete_files(self) -> None:
        for suffix in ("", "-wal", "-shm"):
            try:
                os.unlink(str(self.path) + suffix)
            except FileNotFoundError:
                pass

    def close(self) -> None:
        self.write_pending()
        self.conn.close()

    def _recover(self, exc: sqlite3.DatabaseError | _Damaged) -> None:
        """The database went bad under us: rebuild rather than trust it."""
        try:
            self.conn.close()
        except sqlite3.Error:
            pass
        self.rebuilt_reason = f"corrupt database ({exc})"
        self._forget_decoded()
        self._delete_files()
        self.conn = self._connect()
        self._init(self.conn)

    def _read(self, sql: str, args: tuple = ()) -> list[tuple]:
        with self._lock:
            try:
                return self.conn.execute(sql, args).fetchall()
            except sqlite3.DatabaseError as exc:
                if isinstance(exc, sqlite3.OperationalError) and "locked" in str(exc):
                    raise
                self._recover(exc)
                return []

    def _rows(self, table: str, where: str, args: tuple, tail: str = "") -> list[dict[str, Any]]:
        """The rows of table that match, as column -> value, each checked against its checksum
        (one that fails rebuilds the cache, and nothing is returned)."""
        cols = _COLUMNS[table]
        rows = self._read(f"SELECT {', '.join(cols)}, checksum, created FROM {table} WHERE {where}{tail}", args)
        n = len(cols)
        for r in rows:
            if _checksum(r[:n]) != r[n]:
                with self._lock:
                    self._recover(_Damaged(f"a row of {table} does not match its checksum"))
                return []
        return [{**dict(zip(cols, r)), "created": r[n + 1]} for r in rows]

    @staticmethod
    def _insert(table: str, values: tuple) -> tuple[str, tuple]:
        cols = _COLUMNS[table]
        return (f"INSERT OR REPLACE INTO {table} ({', '.join(cols)}, checksum, created) "
                f"VALUES ({', '.join('?' * (len(cols) + 2))})", (*values, _checksum(values), time.time()))

    # Write-behind keeps back this many block rows at most: an edit's run writes a few dozen, which
    # then cost its answer nothing; a cold run writes hundreds, which would make the next job (an
    # edit saved right after the answer) wait for them, as a cold run's own time they are small.
    WRITE_BEHIND_ROWS = 100

    def _write(self, statements: Statements, forget: tuple[str, ...] = ()) -> None:
        """One transaction, now or (write_behind) at write_pending. ``statements``: a list, or
        what makes it when it is written; ``forget``: block keys whose decoded rows go then."""
        with self._lock:
            self._pending.append((statements, forget))
            self._pending_rows += len(forget)
            if self.write_behind and self._pending_rows <= self.WRITE_BEHIND_ROWS:
                return
            pending, self._pending, self._pending_rows = self._pending, [], 0
        self._execute(pending)

    def write_pending(self) -> None:
        """What write_behind kept back, in the order it was written, as one transaction."""
        with self._lock:
            pending, self._pending = self._pending, []
            self._pending_rows = 0
        if pending:
            try:
                self._execute(pending)
            except sqlite3.OperationalError:
                pass  # locked by another process for 30 s: the cache goes without these rows

    def _execute(self, items: list[tuple[Statements, tuple[str, ...]]]) -> None:
        statements = [st for made, _ in items for st in (made() if callable(made) else made)]
        with self._lock:
            for _, forget in items:
                for key in forget:  # decoded (get_block) between the put and the write
                    self._forget_decoded(key)
            if any(sql.startswith(("DELETE FROM blocks", "UPDATE blocks")) for sql, _ in statements):
                self._forget_decoded()  # this connection's own writes leave data_version alone
            try:
                self.conn.execute("BEGIN IMMEDIATE")
                try:
                    for sql, args in statements:
                        self.conn.execute(sql, args)
                    self.conn.execute("COMMIT")
                except BaseException:
                    self.conn.execute("ROLLBACK")
                    raise
            except sqlite3.DatabaseError as exc:
                if isinstance(exc, sqlite3.OperationalError) and "locked" in str(exc):
                    raise
                self._recover(exc)

    # ---- blocks ------------------------------------------------------------------------
    @staticmethod
    def _block(r: dict[str, Any]) -> dict[str, Any] | None:
        try:
            return {**r, "entry": json.loads(r["entry"]), "prec": json.loads(r["prec"]),
                    "exits": json.loads(r["exits"]), "consumed": json.loads(r["consumed"]),
                    "rendered": json.loads(r["rendered"])}
        except (json.JSONDecodeError, TypeError):
            return None

    DECODED_MAX = 4096  # rows
    DECODED_MAX_BYTES = 16_000_000  # of their JSON (a leaf's generalized summary is 33 KB)

    def get_block(self, key: str) -> dict[str, Any] | None:
        """The block row of ``key``, decoded. It may be shared: callers must not change it, except
        to keep what they decode from it under a key of their own starting with "_"."""
        with self._lock:
            try:
                version = self.conn.execute("PRAGMA data_version").fetchone()[0]
            except sqlite3.DatabaseError:
                version = None
            if version is None or version != self._decoded_version:
                self._forget_decoded()  # another process wrote: what it wrote or deleted counts
                self._decoded_version = version
            hit = self._decoded.get(key)
        if hit is not None:
            return hit
        rows = self._rows("blocks", "key = ?", (key,))
        block = self._block(rows[0]) if rows else None
        if block is not None:
            with self._lock:
                block.update(self._written.pop(key, {}))  # decoded now: predecode need not
            block["_bytes"] = sum(len(rows[0][c]) for c in ("entry", "exits", "consumed", "rendered"))
            with self._lock:
                old = self._decoded.pop(key, None)
                self._decoded_bytes += block["_bytes"] - (old["_bytes"] if old is not None else 0)
                self._decoded[key] = block
                while self._decoded and (len(self._decoded) > self.DECODED_MAX
                                         or self._decoded_bytes > self.DECODED_MAX_BYTES):
                    self._decoded_bytes -= self._decoded.popitem(last=False)[1]["_bytes"]
        return block

    def _forget_decoded(self, key: str | None = None) -> None:
        """(Called with the lock held.)"""
        if key is None:
            self._decoded.clear()
            self._decoded_bytes = 0
        else:
            old = self._decoded.pop(key, None)
            if old is not None:
                self._decoded_bytes -= old["_bytes"]

    def put_blocks(self, rows: list[dict[str, Any]], file: str | None) -> None:
        self.put_blocks_made({r["key"]: {k: v for k, v in r.items() if k.startswith("_")} for r in rows},
                             lambda: rows, file)

    def put_blocks_made(self, kept: dict[str, dict[str, Any]], make: Callable[[], list[dict[str, Any]]],
                        file: str | None) -> None:
        """Block rows made by ``make`` when they are written (write_behind: after the answer);
        ``kept``: per key, what the writer holds decoded of its row (its "_" entries)."""
        if not kept:
            return
        with self._lock:
            for key, held in kept.items():
                self._forget_decoded(key)
                self._written[key] = held
            while len(self._written) > self.DECODED_MAX:
                self._written.popitem(last=False)
        files = json.dumps([file] if file else [])

        def statements() -> list[tuple[str, tuple]]:
            return [self._insert("blocks", (
                r["key"], r["function"], r["fn_key"], r["config"], json.dumps(r["entry"]), json.dumps(r["prec"]),
                json.dumps(r["exits"]), json.dumps(r["consumed"]), r["digest"], r["states"], r["seconds"], files,
                int(r.get("pruned", False)), json.dumps(r.get("rendered", {})), r.get("validity")))
                for r in make()]

        self._write(statements, tuple(kept))

    def predecode(self, stop: Callable[[], bool]) -> bool:
        """Decode the block rows written since the last call, for the lookups of the next run
        (the language server's worker calls this between jobs); stops as soon as ``stop()``
        says so, and tells whether it got through."""
        while True:
            with self._lock:
                if not self._written:
                    return True
                key = next(iter(self._written))
            self.get_block(key)
            with self._lock:
                self._written.pop(key, None)
            if stop():
                return False

    def delete_block(self, key: str) -> None:
        with self._lock:
            self._forget_decoded(key)
            self._written.pop(key, None)
        self._write([("DELETE FROM blocks WHERE key = ?", (key,))])

    def blocks_for_function(self, name: str, fn_key: str | None = None) -> list[dict[str, Any]]:
        """The summaries of a function (entries analysed with reported violations pruned are not)."""
        where, arg = ("fn_key = ? AND pruned = 0", fn_key) if fn_key is not None else ("function = ? AND pruned = 0", name)
        blocks = (self._block(r) for r in self._rows("blocks", where, (arg,), " ORDER BY created DESC LIMIT 50"))
        return [b for b in blocks if b is not None]

    # ---- precisions --------------------------------------------------------------------
    def _json(self, table: str, column: str, where: str, args: tuple) -> Any:
        """The JSON in column of the first matching row, or None (no row, or not JSON)."""
        rows = self._rows(table, where, args)
        if not rows:
            return None
        try:
            return json.loads(rows[0][column])
        except json.JSONDecodeError:
            return None

    def get_precision(self, file: str, config: str) -> dict | None:
        return self._json("precisions", "value", "file = ? AND config = ?", (file, config))

    def put_precision(self, file: str, config: str, value: dict) -> None:
        self._write([self._insert("precisions", (file, config, json.dumps(value)))])

    # ---- whole results -----------------------------------------------------------------
    def get_result(self, key: str) -> dict | None:
        return self._json("results", "payload", "key = ?", (key,))

    def put_result(self, key: str, file: str, verdict: str, payload: dict) -> None:
        self._write([self._insert("results", (key, file, verdict, json.dumps(payload)))])

    # ---- unchanged sources (see unchanged.py) -----------------------------------------
    def get_source(self, key: str) -> tuple[str, dict] | None:
        """The rendered result for a source key, while the results row it came from exists."""
        rows = self._rows("sources", "key = ? AND result_key IN (SELECT key FROM results)", (key,))
        if not rows:
            return None
        try:
            return rows[0]["result_key"], json.loads(rows[0]["payload"])
        except json.JSONDecodeError:
            return None

    def put_source(self, key: str, result_key: str, file: str, payload: dict) -> None:
        self._write([self._insert("sources", (key, result_key, file, json.dumps(payload)))])

    # ---- counterexample certificates (see certificate.py) -----------------------------
    def get_cfas(self, keys: list[str]) -> dict[str, tuple[str, int, str]]:
        """Built function CFAs (cfa/reuse.py's serialized builds) by key: key -> (file, first
        line, payload)."""
        out: dict[str, tuple[str, int, str]] = {}
        for i in range(0, len(keys), 500):
            chunk = keys[i:i + 500]
            for r in self._rows("cfas", f"key IN ({', '.join('?' * len(chunk))})", tuple(chunk)):
                out[r["key"]] = (r["file"], r["base"], r["payload"])
        return out

    def put_cfas(self, rows: list[tuple[str, str, int, str]]) -> None:
        """(key, file, first line, payload) of function builds, one transaction."""
        self._write([self._insert("cfas", row) for row in rows])

    def get_certificate(self, file: str, run: str) -> dict | None:
        return self._json("certificates", "payload", "file = ? AND run = ?", (file, run))

    def put_certificate(self, file: str, run: str, payload: dict | None) -> None:
        """Store the file's certificate for a kind of run, or drop it (payload None)."""
        if payload is None:
            self._write([("DELETE FROM certificates WHERE file = ? AND run = ?", (file, run))])
        else:
            self._write([self._insert("certificates", (file, run, json.dumps(payload)))])

    # ---- maintenance -------------------------------------------------------------------
    def stats(self) -> dict[str, Any]:
        counts = {}
        for table in ("blocks", "precisions", "results", "sources", "certificates", "cfas"):
            rows = self._read(f"SELECT COUNT(*) FROM {table}")
            counts[table] = rows[0][0] if rows else 0
        functions = self._read("SELECT COUNT(DISTINCT fn_key) FROM blocks")
        size = sum(os.path.getsize(str(self.path) + s) for s in ("", "-wal") if os.path.exists(str(self.path) + s))
        return {"path": str(self.path), "bytes": size, "blocks": counts["blocks"],
                "functions": functions[0][0] if functions else 0, "precisions": counts["precisions"],
                "results": counts["results"], "sources": counts["sources"], "certificates": counts["certificates"], "cfas": counts["cfas"], "schema": SCHEMA_VERSION, "cbam_version": __version__}

    def clear(self, file: str | None = None) -> int:
        if file is None:
            n = sum(self._read(f"SELECT COUNT(*) FROM {t}")[0][0] for t in ("blocks", "precisions", "results"))
            self._write([("DELETE FROM blocks", ()), ("DELETE FROM precisions", ()), ("DELETE FROM results", ()),
                         ("DELETE FROM sources", ()), ("DELETE FROM certificates", ()), ("DELETE FROM cfas", ())])
            return n
        rows = self._read("SELECT COUNT(*) FROM results WHERE file = ?", (file,))
        n = rows[0][0] if rows else 0
        pattern = json.dumps([file])
        self._write([("DELETE FROM results WHERE file = ?", (file,)),
                     ("DELETE FROM sources WHERE file = ?", (file,)),
                     ("DELETE FROM precisions WHERE file = ?", (file,)),
                     ("DELETE FROM certificates WHERE file = ?", (file,)),
                     ("DELETE FROM cfas WHERE file = ?", (file,)),
                     ("DELETE FROM blocks WHERE files = ?", (pattern,))])
        return n
