"""The persistent, incremental summary cache (SQLite)."""
