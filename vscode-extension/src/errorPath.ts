// Stepping through a violation's error path, in the manner of Dafny's counterexample view.
// Free of the vscode module, so it is unit-tested; extension.ts draws what this computes.

export interface PathStep {
  uri: string;
  line: number; // 0-based
  character: number;
  endLine: number;
  endCharacter: number;
  message: string;
}

interface RangeLike {
  start: { line: number; character: number };
  end: { line: number; character: number };
}

export interface RelatedLike {
  location: { uri: string | { toString(): string }; range: RangeLike };
  message: string;
}

export interface DiagnosticLike {
  message: string;
  range: RangeLike;
  code?: string | number | { value: string | number };
  relatedInformation?: RelatedLike[];
}

export function stepsFromRelated(related: RelatedLike[] | undefined): PathStep[] {
  return (related ?? []).map((r) => ({
    uri: typeof r.location.uri === "string" ? r.location.uri : r.location.uri.toString(),
    line: r.location.range.start.line,
    character: r.location.range.start.character,
    endLine: r.location.range.end.line,
    endCharacter: r.location.range.end.character,
    message: r.message,
  }));
}

function rangeKey(r: RangeLike): string {
  return `${r.start.line}:${r.start.character}-${r.end.line}:${r.end.character}`;
}

// What makes a published violation the same one: the stepper belongs to exactly this
// diagnostic, and ends when a publication no longer contains it.
export function diagnosticKey(d: DiagnosticLike): string {
  const code = typeof d.code === "object" ? d.code.value : d.code;
  const steps = stepsFromRelated(d.relatedInformation).map((s) =>
    `${s.uri}@${s.line}:${s.character}-${s.endLine}:${s.endCharacter}:${s.message}`);
  return JSON.stringify([code, d.message, rangeKey(d.range), steps]);
}

export interface LineDecoration {
  line: number;
  text: string;
  current: boolean; // the line of the current step
}

export class ErrorPathStepper {
  private index = 0;

  constructor(readonly steps: PathStep[], readonly title: string, readonly key: string = "") {
    if (steps.length === 0) {
      throw new Error("this violation has no error path to show");
    }
  }

  get current(): PathStep {
    return this.steps[this.index];
  }

  get position(): number {
    return this.index;
  }

  next(): PathStep {
    if (this.index < this.steps.length - 1) {
      this.index++;
    }
    return this.current;
  }

  previous(): PathStep {
    if (this.index > 0) {
      this.index--;
    }
    return this.current;
  }

  label(): string {
    return `step ${this.index + 1}/${this.steps.length}: ${this.current.message}`;
  }

  // Inline annotations for the steps seen so far in one document: the values at each step.
  // Several steps on one line share one annotation, in path order (VS Code would order
  // separate decorations on a line arbitrarily).
  decorations(uri: string): LineDecoration[] {
    const byLine = new Map<number, { parts: string[]; current: boolean }>();
    for (let i = 0; i <= this.index; i++) {
      const s = this.steps[i];
      if (s.uri !== uri) {
        continue;
      }
      const entry = byLine.get(s.line) ?? { parts: [], current: false };
      entry.parts.push(`${i + 1}. ${s.message}`);
      entry.current ||= i === this.index;
      byLine.set(s.line, entry);
    }
    return [...byLine.entries()]
      .sort(([a], [b]) => a - b)
      .map(([line, e]) => ({ line, text: `  ⟵ ${e.parts.join("  ·  ")}`, current: e.current }));
  }
}
