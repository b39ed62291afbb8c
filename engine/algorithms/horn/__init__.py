"""Whole-program invariants from the program's Horn clauses, checked with machine integers.

``clauses`` encodes the program as clauses (one relation per cut point, a call as its summary
relation), solves them with Spacer and checks a candidate over bit-vectors; ``cells``,
``heap`` and ``fields`` add arrays (one distinguished cell), heap objects (one per struct type)
and struct fields passed by pointer; ``templates`` finds invariants Houdini-style from
templates, ``samples`` from runs of the program.
"""
