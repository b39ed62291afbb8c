// The status bar item: what cbam knows about the active C file. Derived from the diagnostics'
// codes and the server's cbam/status for the document; free of the vscode module, so it is
// unit-tested.

import { Code, DocState } from "./codes";

export type Status =
  | { kind: "starting" }
  | { kind: "idle" }
  | { kind: "verifying" }
  | { kind: "verified"; outdated: boolean }
  | { kind: "violations"; count: number; outdated: boolean }
  | { kind: "inputErrors"; count: number; what: "syntax" | "preprocessor"; outdated: boolean }
  | { kind: "unknown"; message: string; outdated: boolean }
  | { kind: "notVerified"; message: string }
  | { kind: "error"; message: string };

export interface StatusView {
  text: string;
  tooltip: string;
}

const OUTDATED_NOTE = "\nThese results are for the text before your last edits: save to verify again.";

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

export function render(s: Status): StatusView {
  const edited = "outdated" in s && s.outdated;
  const mark = edited ? " (edited)" : "";
  const note = edited ? OUTDATED_NOTE : "";
  switch (s.kind) {
    case "starting":
      return { text: "$(sync~spin) cbam: starting…", tooltip: "cbam's language server is starting" };
    case "idle":
      return { text: "cbam", tooltip: "cbam has not verified this file yet (cbam: Verify File)" };
    case "verifying":
      return { text: "$(sync~spin) cbam: verifying…", tooltip: "cbam is verifying this file" };
    case "verified":
      return { text: `$(check) verified${mark}`, tooltip: `cbam: every check in this file holds${note}` };
    case "violations":
      return {
        text: `$(error) ${plural(s.count, "violation")}${mark}`,
        tooltip: `cbam found counterexamples: see the Problems panel, or run 'cbam: Show Error Path'${note}`,
      };
    case "inputErrors":
      return {
        text: `$(error) ${plural(s.count, `${s.what} error`)}${mark}`,
        tooltip: `cbam cannot verify this file until it compiles: see the Problems panel${note}`,
      };
    case "unknown":
      return { text: `$(question) unknown${mark}`, tooltip: `${s.message}${note}` };
    case "notVerified":
      return { text: "$(circle-slash) cbam", tooltip: s.message };
    case "error":
      return { text: "$(warning) cbam", tooltip: s.message };
  }
}

export interface DiagLike {
  source?: string;
  message: string;
  code?: string | number | { value: string | number };
}

function codeOf(d: DiagLike): string | number | undefined {
  return typeof d.code === "object" ? d.code.value : d.code;
}

// The file's status from its cbam diagnostics and what the server last said about it
// (undefined: the server has said nothing yet about this document).
export function statusFromDiagnostics(diags: DiagLike[], state: DocState | undefined): Status {
  if (state === "verifying") {
    return { kind: "verifying" };
  }
  if (state === "idle" || state === undefined) {
    return { kind: "idle" };
  }
  const outdated = state === "outdated";
  const ours = diags.filter((d) => d.source === "cbam");
  const having = (code: string) => ours.filter((d) => codeOf(d) === code);
  const violations = having(Code.violation);
  if (violations.length > 0) {
    return { kind: "violations", count: violations.length, outdated };
  }
  for (const [code, what] of [[Code.syntaxError, "syntax"], [Code.preprocessorError, "preprocessor"]] as const) {
    const errors = having(code);
    if (errors.length > 0) {
      return { kind: "inputErrors", count: errors.length, what, outdated };
    }
  }
  const failed = [...having(Code.analysisFailed), ...having(Code.unknown), ...having(Code.cancelled)];
  if (failed.length > 0) {
    return { kind: "unknown", message: failed[0].message, outdated };
  }
  const skipped = having(Code.notVerified);
  if (skipped.length > 0) {
    return { kind: "notVerified", message: skipped[0].message };
  }
  return { kind: "verified", outdated };
}
