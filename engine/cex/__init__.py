"""Counterexamples: what makes a FALSE a FALSE, and what the user sees of it.

The exact bit-vector encoding of an error path (``encoding``) with its memory model
(``memory``), the finding it gives (``feasibility``: feasible or not, with which values;
``Confirmed``), a concrete run of the path without a solver (``replay``), the test harness
(``harness``), the run of the compiled program with it under gcc (``native_replay``) and the
readable report (``report``).

May import: ``core`` (paths, results), ``cfa``, ``smt``, ``cpa.value.memory`` (the memory
model's objects). Never an engine or the pipeline.
"""
