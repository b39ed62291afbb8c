"""The C front end: from the user's text to pycparser's syntax tree, and back to the user's
source for every diagnostic.

Preprocessing with cbam's stand-in headers and the user's ``-I``/``-D`` (``preprocess``), GNU C
syntax pycparser does not read, rewritten into what it does (``gnu_syntax``, ``attributes``),
the tokens and chunks of a file (``tokens``, ``chunks``), parsing (``cparser``), positions
mapped back through ``#line`` markers (``srcmap``), what a source's cache key reads
(``source_key``) and the diagnostics of bad input (``errors``).

May import: nothing else of the engine.
"""
