// How the server is started. The extension carries cbam and its Python libraries in
// bundled/libs; it needs a Python >= 3.11 to run them: the cbam.interpreter setting if set
// (an explicit choice is never second-guessed), else the Python extension's active
// environment, else python3. cbam.serverCommand replaces all of this with a cbam the user
// installed. Kept free of the vscode module, so it is unit-tested.

export const MIN_PYTHON: [number, number] = [3, 11];

export interface Candidate {
  command: string;
  source: "setting" | "python-extension" | "default";
}

export interface InterpreterSources {
  setting(): string | undefined;
  pythonExtension(): Promise<string | undefined>;
  fallback: string;
}

// The interpreters to try, in order. An explicit setting is the only one tried.
export async function candidates(src: InterpreterSources): Promise<Candidate[]> {
  const configured = (src.setting() ?? "").trim();
  if (configured !== "") {
    return [{ command: configured, source: "setting" }];
  }
  const out: Candidate[] = [];
  try {
    const fromExt = (await src.pythonExtension())?.trim();
    if (fromExt) {
      out.push({ command: fromExt, source: "python-extension" });
    }
  } catch {
    // The Python extension is optional; when it fails, python3 is next.
  }
  out.push({ command: src.fallback, source: "default" });
  return out;
}

// "3.12" -> [3, 12]; anything else -> undefined.
export function parseVersion(text: string): [number, number] | undefined {
  const m = /^(\d+)\.(\d+)\s*$/.exec(text.trim());
  return m ? [Number(m[1]), Number(m[2])] : undefined;
}

export function recentEnough(v: [number, number]): boolean {
  return v[0] > MIN_PYTHON[0] || (v[0] === MIN_PYTHON[0] && v[1] >= MIN_PYTHON[1]);
}

// What running a candidate printed: its version, and the interpreter's real path (a shim such as
// pyenv's costs a few hundred milliseconds per start; the server is started without it).
export type Probe = (command: string) => Promise<{ version?: string; executable?: string; error?: string }>;

// The probe's program: prints "3.12 /usr/bin/python3.12".
export const PROBE_SCRIPT = "import sys; print('%d.%d' % sys.version_info[:2], sys.executable)";

export function parseProbe(stdout: string): { version?: string; executable?: string } {
  const text = stdout.trim();
  const space = text.indexOf(" ");
  return space < 0 ? { version: text } : { version: text.slice(0, space), executable: text.slice(space + 1) };
}

export type PythonChoice<T = undefined> =
  | { ok: true; python: Candidate; executable: string; version: string; rejected: string[]; started: T }
  | { ok: false; rejected: string[] };

// Work that may begin with a candidate before its probe has answered (the server itself: the
// probe and the server's start-up then overlap), and is undone if the probe rejects it.
export interface Speculation<T> {
  start(c: Candidate): T;
  discard(started: T): void;
}

// The first candidate that runs and is recent enough; why each earlier one was passed over.
export async function choosePython<T = undefined>(cands: Candidate[], probe: Probe,
  speculation?: Speculation<T>): Promise<PythonChoice<T>> {
  const rejected: string[] = [];
  for (const c of cands) {
    const started = speculation ? speculation.start(c) : (undefined as T);
    const r = await probe(c.command);
    const v = r.version === undefined ? undefined : parseVersion(r.version);
    if (v !== undefined && recentEnough(v)) {
      return { ok: true, python: c, executable: r.executable || c.command, version: v.join("."), rejected, started };
    }
    speculation?.discard(started);
    rejected.push(`${c.command} (${c.source}): ` + (v === undefined
      ? r.error ?? `unexpected version output ${JSON.stringify(r.version)}`
      : `Python ${v.join(".")} is older than ${MIN_PYTHON.join(".")}`));
  }
  return { ok: false, rejected };
}

export function noPythonAdvice(rejected: string[]): string {
  return [
    `cbam needs Python ${MIN_PYTHON.join(".")} or newer to run its bundled language server. Tried:`,
    ...rejected.map((r) => `  - ${r}`),
    `Install Python ${MIN_PYTHON.join(".")}+ (for example from python.org or your system's packages), or point`,
    `the setting "cbam.interpreter" at one, for example /usr/bin/python3.12.`,
  ].join("\n");
}

// PYTHONPATH for the bundled libraries: first, so that they win over whatever else the
// interpreter has installed, and the user's own entries after them.
export function bundledPythonPath(libs: string, existing: string | undefined, delimiter: string): string {
  return existing ? `${libs}${delimiter}${existing}` : libs;
}
