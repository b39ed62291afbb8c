"""Whole engines: each takes a program and a time budget and decides it, or says why not.

CEGAR over BAM with the configuration's domains (``cegar``), whole-program invariants from Horn
clauses (``horn``: Spacer, templates, guessed summaries, with arrays, heap and fields),
k-induction (``kinduction``), bounded model checking (``bmc``: merged paths, through
recursion), bounded path exploration (``paths``), random tests (``testing``, over ``runs``) and
CPArec (``cparec``); ``scope`` says cheaply which programs the clause-based engines try. This
is CPAchecker's ``core/algorithm``. The order in which they run is the schedule in
``pipeline/schedule.py``; no engine knows another one's results except through what it is
given.

May import: ``core``, ``cpa``, ``cex``, ``smt``, ``cfa``. Never ``pipeline`` or ``cache``.
"""
