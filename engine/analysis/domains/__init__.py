"""Abstract domains. Each implements the CPA interface in ``cpa.py``, including reduce/expand/rebuild."""
