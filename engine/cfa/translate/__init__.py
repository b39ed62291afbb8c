"""The parts of the CFA builder (engine/cfa/builder.py), one concern each: names and literals
(common), types, expressions, calls and the verification model, declarations and
initialisers, statements."""
