// What each cbam diagnostic is: its LSP `code`, as server/codes.py sets it. The status bar
// counts by these, never by a message's text (tests/test_settings.py keeps the two lists equal).

export const Code = {
  violation: "violation",
  syntaxError: "syntax-error",
  preprocessorError: "preprocessor-error",
  unknown: "unknown",
  unsupported: "unsupported",
  analysisFailed: "analysis-failed",
  cancelled: "cancelled",
  notVerified: "not-verified",
} as const;

export type CodeValue = (typeof Code)[keyof typeof Code];

// What the server says about a document (notification cbam/status, server/handlers.py DocStatus).
export type DocState = "idle" | "verifying" | "done" | "outdated";
