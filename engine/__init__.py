"""The verifier: C front end, control-flow automata, CPA algorithms with BAM."""

from .smt.lazy_z3 import install as _install_lazy_z3

_install_lazy_z3()
