"""What every engine that talks to z3 shares: z3 loaded on first use (``lazy_z3``), solver calls
whose time limit holds (``solving``, ``time_limit``), C's integer conversions on bit-vectors,
terms and Horn rules (``terms``), signed ranges of terms (``bvrange``) and integer formulas with
the same models as bit-vector ones (``intblast``).

May import: ``cfa`` (C types) and nothing else of the engine. Importing this package loads
neither z3 nor any module here.
"""
