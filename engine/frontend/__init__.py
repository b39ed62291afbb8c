"""The C front end: from the user's text to pycparser's syntax tree, and back to the user's
source for every diagnostic.

Preprocessing over the system's headers, with cbam's own few and the user's ``-I``/``-D``
(``preprocess``; the machine's description for them in ``target``), compile_commands.json and
translation units (``compile_db``), several units as one program's text (``link``), the C
library functions read as C, linked in as an archive's members (``libc``, ``libc_src/``), GNU C
syntax pycparser does not read, rewritten into what it does (``gnu_syntax``, ``attributes``),
the tokens and chunks of a file (``tokens``, ``chunks``), parsing (``cparser``), positions
mapped back through ``#line`` markers (``srcmap``), what a source's cache key reads
(``source_key``) and the diagnostics of bad input (``errors``).

May import: nothing else of the engine.
"""
