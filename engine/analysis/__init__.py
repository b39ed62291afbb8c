"""Configurable program analysis: domains, the CPA algorithm, BAM, CEGAR."""
