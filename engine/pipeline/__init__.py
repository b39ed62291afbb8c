"""A verification run, stage by stage: the engines behind one protocol and what they share
(``engines``: Engine, Outcome, RunContext, the program's Situation), the schedule that orders them
as a table of stages (``schedule``), the driver that walks it around CEGAR (``portfolio``), the
engines that run beside it in a child process (``beside``), the precision phases a configuration
tries (``phases``), the search that drives CEGAR over BAM through them (``search``), and everything
the run reads from and files in the persistent cache (``cachepolicy``). engine/verify.py puts
them together.

May import every engine layer (core, cpa, algorithms, cex, smt, cfa, cache); nothing below
imports this.
"""
