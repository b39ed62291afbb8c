"""cbam: a verifier for C programs that lives in the editor."""

__version__ = "0.1.0"
