"""The abstract domains, one package each (state, transfer, reduce/expand/rebuild, refiner,
precision), plus location and callstack, and the registry that names them and the
configurations that combine them (``registry``).

An analysis is a package that exports ``ANALYSIS`` (``registry.Analysis``); nothing outside
``registry`` names one. A new domain is a new package here and one line in the registry (or,
outside cbam, one ``registry.register`` call: ``tests/sign_analysis`` is such a package).

May import: ``core``, ``cfa``, ``smt``. Never an engine (``algorithms``), the counterexample
check (``cex``) or the pipeline.
"""
