"""Control-flow automata: the program every analysis reads, built from the syntax tree.

C types and the data models ILP32/LP64 (``ctype``), struct layouts as gcc lays them out
(``layout``, ``struct_layout``), side-effect-free expressions, nodes and edges (``ir``), one
automaton per function and the whole program (``cfa``), the builder and its parts, one C
concern each (``builder``, ``translate/``), the call graph, fingerprints and reuse of stored
CFAs across edits, the memory-safety instrumentation (``memsafety``), the linker's checks of a
program of several units (``linkage``), what the C library's output functions read
(``output_calls``) and the program's traits the engines and the schedule ask (``traits``:
memory, recursion, error locations).

May import: ``frontend``. Never an analysis or an engine.
"""
