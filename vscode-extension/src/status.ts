// The status bar item's states.

export type Status =
  | { kind: "idle" }
  | { kind: "verifying"; file?: string }
  | { kind: "verified" }
  | { kind: "violations"; count: number }
  | { kind: "unknown"; reason?: string }
  | { kind: "error"; message: string };

export interface StatusView {
  text: string;
  tooltip: string;
}

export function render(s: Status): StatusView {
  switch (s.kind) {
    case "idle":
      return { text: "cbam", tooltip: "cbam: no C file verified yet" };
    case "verifying":
      return { text: "$(sync~spin) verifying…", tooltip: `cbam is verifying ${s.file ?? "the file"}` };
    case "verified":
      return { text: "$(check) verified", tooltip: "cbam: every check in this file holds" };
    case "violations":
      return {
        text: `$(error) ${s.count} violation${s.count === 1 ? "" : "s"}`,
        tooltip: "cbam found counterexamples: see the Problems panel, or run 'cbam: Show Error Path'",
      };
    case "unknown":
      return { text: "$(question) unknown", tooltip: `cbam could not decide${s.reason ? `: ${s.reason}` : ""}` };
    case "error":
      return { text: "$(warning) cbam", tooltip: s.message };
  }
}

export interface DiagLike {
  source?: string;
  severity?: number; // 0 Error, 1 Warning, 2 Information, 3 Hint (vscode's numbering)
  message: string;
  code?: string | number | { value: string | number };
}

// The file's status from its cbam diagnostics (vscode DiagnosticSeverity numbering).
export function statusFromDiagnostics(diags: DiagLike[], verifying: boolean): Status {
  if (verifying) {
    return { kind: "verifying" };
  }
  const ours = diags.filter((d) => d.source === "cbam");
  const errors = ours.filter((d) => d.severity === 0);
  const violations = errors.filter((d) => !/syntax|not found|cannot read/i.test(d.message));
  if (violations.length > 0) {
    return { kind: "violations", count: violations.length };
  }
  if (errors.length > 0) {
    return { kind: "error", message: errors[0].message };
  }
  const undecided = ours.find((d) => {
    const code = typeof d.code === "object" ? d.code.value : d.code;
    return code === "unknown";
  });
  if (undecided) {
    return { kind: "unknown", reason: undecided.message.replace(/^cbam could not decide: /, "") };
  }
  return { kind: "verified" };
}
