"""A verification run, stage by stage: the precision phases a configuration tries (phases), the
search that drives CEGAR over BAM through them (search), and everything the run reads from and
files in the persistent cache (cachepolicy). engine/verify.py puts them together."""
