"""SQLite storage for block abstractions, learned precisions and whole results.

The database lives in the user's cache directory (XDG) unless told otherwise. It is
opened in WAL mode and every write is one transaction, so several processes can share
it. A database written by another cbam version or schema, or one that is truncated or
garbled, is detected and rebuilt, never trusted.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
from pathlib import Path

from cbam import __version__

# typing costs a few milliseconds to import; this module is on the path that answers an
# unchanged source from the cache, where start-up time is what the user waits for.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

SCHEMA_VERSION = "6"
DB_NAME = "summaries.sqlite"

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
    created REAL NOT NULL,
    files TEXT NOT NULL DEFAULT '[]'
);
CREATE INDEX IF NOT EXISTS blocks_fn ON blocks (fn_key);
CREATE INDEX IF NOT EXISTS blocks_name ON blocks (function);
CREATE TABLE IF NOT EXISTS precisions (
    file TEXT NOT NULL, config TEXT NOT NULL, value TEXT NOT NULL, updated REAL NOT NULL,
    PRIMARY KEY (file, config)
);
CREATE TABLE IF NOT EXISTS results (
    key TEXT PRIMARY KEY, file TEXT NOT NULL, verdict TEXT NOT NULL, payload TEXT NOT NULL, created REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS results_file ON results (file);
CREATE TABLE IF NOT EXISTS sources (
    key TEXT PRIMARY KEY, result_key TEXT NOT NULL, file TEXT NOT NULL, payload TEXT NOT NULL, created REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS sources_file ON sources (file);
CREATE TABLE IF NOT EXISTS certificates (
    file TEXT NOT NULL, run TEXT NOT NULL, payload TEXT NOT NULL, created REAL NOT NULL,
    PRIMARY KEY (file, run)
);
"""


def default_cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "cbam"


class CacheStore:
    def __init__(self, directory: str | os.PathLike | None = None):
        self.dir = Path(directory) if directory is not None else default_cache_dir()
        self.path = self.dir / DB_NAME
        self.rebuilt_reason: str | None = None
        self._lock = threading.Lock()
        self.dir.mkdir(parents=True, exist_ok=True)
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
        ok = conn.execute("PRAGMA quick_check").fetchone()
        if not ok or ok[0] != "ok":
            return f"corrupt database ({ok[0] if ok else 'no answer'})"
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
        self.conn.close()

    def _recover(self, exc: sqlite3.DatabaseError) -> None:
        """The database went bad under us: rebuild rather than trust it."""
        try:
            self.conn.close()
        except sqlite3.Error:
            pass
        self.rebuilt_reason = f"corrupt database ({exc})"
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

    def _write(self, statements: list[tuple[str, tuple]]) -> None:
        with self._lock:
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
    def get_block(self, key: str) -> dict[str, Any] | None:
        rows = self._read("SELECT function, fn_key, entry, prec, exits, consumed, digest, states, seconds, created "
                          "FROM blocks WHERE key = ?", (key,))
        if not rows:
            return None
        r = rows[0]
        try:
            return {"function": r[0], "fn_key": r[1], "entry": json.loads(r[2]), "prec": json.loads(r[3]),
                    "exits": json.loads(r[4]), "consumed": json.loads(r[5]), "digest": r[6], "states": r[7],
                    "seconds": r[8], "created": r[9]}
        except (json.JSONDecodeError, TypeError):
            return None

    def put_blocks(self, rows: list[dict[str, Any]], file: str | None) -> None:
        if not rows:
            return
        now = time.time()
        stmts = []
        for r in rows:
            stmts.append((
                "INSERT OR REPLACE INTO blocks (key, function, fn_key, config, entry, prec, exits, consumed, digest,"
                " states, seconds, created, files) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
                (r["key"], r["function"], r["fn_key"], r["config"], json.dumps(r["entry"]), json.dumps(r["prec"]),
                 json.dumps(r["exits"]), json.dumps(r["consumed"]), r["digest"], r["states"], r["seconds"], now,
                 json.dumps([file] if file else []))))
        self._write(stmts)

    def blocks_for_function(self, name: str, fn_key: str | None = None) -> list[dict[str, Any]]:
        if fn_key is not None:
            rows = self._read("SELECT entry, exits, states, seconds, created, prec FROM blocks WHERE fn_key = ? "
                              "ORDER BY created DESC LIMIT 50", (fn_key,))
        else:
            rows = self._read("SELECT entry, exits, states, seconds, created, prec FROM blocks WHERE function = ? "
                              "ORDER BY created DESC LIMIT 50", (name,))
        out = []
        for r in rows:
            try:
                out.append({"entry": json.loads(r[0]), "exits": json.loads(r[1]), "states": r[2], "seconds": r[3],
                            "created": r[4], "prec": json.loads(r[5])})
            except json.JSONDecodeError:
                continue
        return out

    # ---- precisions --------------------------------------------------------------------
    def _read_json(self, sql: str, args: tuple) -> Any:
        """The JSON in the first column of the first row, or None (no row, or not JSON)."""
        rows = self._read(sql, args)
        if not rows:
            return None
        try:
            return json.loads(rows[0][0])
        except json.JSONDecodeError:
            return None

    def get_precision(self, file: str, config: str) -> dict | None:
        return self._read_json("SELECT value FROM precisions WHERE file = ? AND config = ?", (file, config))

    def put_precision(self, file: str, config: str, value: dict) -> None:
        self._write([("INSERT OR REPLACE INTO precisions VALUES (?,?,?,?)",
                      (file, config, json.dumps(value), time.time()))])

    # ---- whole results -----------------------------------------------------------------
    def get_result(self, key: str) -> dict | None:
        return self._read_json("SELECT payload FROM results WHERE key = ?", (key,))

    def put_result(self, key: str, file: str, verdict: str, payload: dict) -> None:
        self._write([("INSERT OR REPLACE INTO results VALUES (?,?,?,?,?)",
                      (key, file, verdict, json.dumps(payload), time.time()))])

    # ---- unchanged sources (see unchanged.py) -----------------------------------------
    def get_source(self, key: str) -> tuple[str, dict] | None:
        """The rendered result for a source key, while the results row it came from exists."""
        rows = self._read("SELECT s.result_key, s.payload FROM sources s JOIN results r ON r.key = s.result_key "
                          "WHERE s.key = ?", (key,))
        if not rows:
            return None
        try:
            return rows[0][0], json.loads(rows[0][1])
        except json.JSONDecodeError:
            return None

    def put_source(self, key: str, result_key: str, file: str, payload: dict) -> None:
        self._write([("INSERT OR REPLACE INTO sources VALUES (?,?,?,?,?)",
                      (key, result_key, file, json.dumps(payload), time.time()))])

    # ---- counterexample certificates (see certificate.py) -----------------------------
    def get_certificate(self, file: str, run: str) -> dict | None:
        return self._read_json("SELECT payload FROM certificates WHERE file = ? AND run = ?", (file, run))

    def put_certificate(self, file: str, run: str, payload: dict | None) -> None:
        """Store the file's certificate for a kind of run, or drop it (payload None)."""
        if payload is None:
            self._write([("DELETE FROM certificates WHERE file = ? AND run = ?", (file, run))])
        else:
            self._write([("INSERT OR REPLACE INTO certificates VALUES (?,?,?,?)",
                          (file, run, json.dumps(payload), time.time()))])

    # ---- maintenance -------------------------------------------------------------------
    def stats(self) -> dict[str, Any]:
        counts = {}
        for table in ("blocks", "precisions", "results", "sources", "certificates"):
            rows = self._read(f"SELECT COUNT(*) FROM {table}")
            counts[table] = rows[0][0] if rows else 0
        functions = self._read("SELECT COUNT(DISTINCT fn_key) FROM blocks")
        size = sum(os.path.getsize(str(self.path) + s) for s in ("", "-wal") if os.path.exists(str(self.path) + s))
        return {"path": str(self.path), "bytes": size, "blocks": counts["blocks"],
                "functions": functions[0][0] if functions else 0, "precisions": counts["precisions"],
                "results": counts["results"], "sources": counts["sources"], "certificates": counts["certificates"], "schema": SCHEMA_VERSION, "cbam_version": __version__}

    def clear(self, file: str | None = None) -> int:
        if file is None:
            n = sum(self._read(f"SELECT COUNT(*) FROM {t}")[0][0] for t in ("blocks", "precisions", "results"))
            self._write([("DELETE FROM blocks", ()), ("DELETE FROM precisions", ()), ("DELETE FROM results", ()),
                         ("DELETE FROM sources", ()), ("DELETE FROM certificates", ())])
            return n
        rows = self._read("SELECT COUNT(*) FROM results WHERE file = ?", (file,))
        n = rows[0][0] if rows else 0
        pattern = json.dumps([file])
        self._write([("DELETE FROM results WHERE file = ?", (file,)),
                     ("DELETE FROM sources WHERE file = ?", (file,)),
                     ("DELETE FROM precisions WHERE file = ?", (file,)),
                     ("DELETE FROM certificates WHERE file = ?", (file,)),
                     ("DELETE FROM blocks WHERE files = ?", (pattern,))])
        return n
