"""Control-flow automata: C types, side-effect-free expressions, edges, and the builder."""
