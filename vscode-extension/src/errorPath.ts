// Stepping through a violation's error path, in the manner of Dafny's counterexample view.

export interface PathStep {
  uri: string;
  line: number; // 0-based
  character: number;
  endLine: number;
  endCharacter: number;
  message: string;
}

export interface RelatedLike {
  location: {
    uri: string | { toString(): string };
    range: { start: { line: number; character: number }; end: { line: number; character: number } };
  };
  message: string;
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

export class ErrorPathStepper {
  private index = 0;

  constructor(readonly steps: PathStep[], readonly title: string) {
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
  decorations(uri: string): { line: number; text: string; current: boolean }[] {
    const out: { line: number; text: string; current: boolean }[] = [];
    for (let i = 0; i <= this.index; i++) {
      const s = this.steps[i];
      if (s.uri === uri) {
        out.push({ line: s.line, text: `  ⟵ ${i + 1}. ${s.message}`, current: i === this.index });
      }
    }
    return out;
  }
}
