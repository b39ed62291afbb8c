"""The persistent, incremental cache (SQLite): what makes an edit re-verify only what it
changed.

Whole results of unchanged sources (``results``, ``unchanged``), block abstractions with
their validity across edits (``blockcache``), counterexample certificates (``certificate``),
the store itself (``store``) and, in one place, what identifies each cached result
(``keys``): a result is found again only under exactly the key that decided it.

May import: ``core``, ``cpa``, ``cex``, ``cfa``, ``smt``, ``frontend``. Never an engine or the
pipeline, which decide what to file here.
"""
