"""The CPA framework: what every analysis plugs into, and the algorithms that know no analysis.

The CPA interface with BAM's reduce/expand/rebuild and the composite CPA (``cpa``), the CPA
algorithm over one block (``cpa_algorithm``), the abstract reachability graph (``arg``),
procedure blocks and block-abstraction memoization with recursion (``blocks``, ``bam``), error
paths rebuilt through nested block abstractions (``path``), the refiner protocol CEGAR calls
(``refinement``), function summaries read off BAM's abstractions (``summaries``), the typed
results every engine returns (``result``) and the enums they are made of (``kinds``). This is CPAchecker's ``core`` minus its algorithms
(which are ``engine/algorithms``).

May import: ``cfa`` and ``smt``. Never a domain (``cpa``), an engine (``algorithms``) or the
counterexample check (``cex``): those build on this.
"""
