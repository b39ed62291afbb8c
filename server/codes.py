"""What each diagnostic the server publishes is: its LSP ``code``.

Clients decide by these codes, never by a message's text: the VS Code extension counts
violations and errors for its status bar by them (vscode-extension/src/codes.ts holds the
same strings; tests/test_settings.py keeps the two in step).
"""

from __future__ import annotations

from enum import StrEnum


class Code(StrEnum):
    VIOLATION = "violation"  # a counterexample confirmed with concrete inputs
    SYNTAX_ERROR = "syntax-error"  # the file does not parse
    PREPROCESSOR_ERROR = "preprocessor-error"  # the preprocessor failed: a missing header, #error, ...
    UNKNOWN = "unknown"  # no verdict (timeout, unsupported construct reached, ...): the reason is the message
    UNSUPPORTED = "unsupported"  # a construct cbam does not model, in a function it then cannot analyse
    ANALYSIS_FAILED = "analysis-failed"  # the analysis worker crashed or overran; it was replaced
    CANCELLED = "cancelled"  # the user cancelled the verification
    NOT_VERIFIED = "not-verified"  # a document cbam does not verify: not C, too large, binary, unreadable
