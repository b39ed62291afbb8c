"""The verifier: C front end, control-flow automata, CPA algorithms with BAM."""
