import * as assert from "assert";

import { Code } from "../src/codes";
import { diagnosticKey, ErrorPathStepper, stepsFromRelated } from "../src/errorPath";
import { bundledPythonPath, candidates, choosePython, noPythonAdvice, parseVersion, Probe } from "../src/interpreter";
import { render, statusFromDiagnostics } from "../src/status";

describe("interpreter resolution", () => {
  const none = async () => undefined;
  it("uses the cbam.interpreter setting alone when it is set", async () => {
    const c = await candidates({ setting: () => "/venv/bin/python", pythonExtension: async () => "/other/python", fallback: "python3" });
    assert.deepStrictEqual(c, [{ command: "/venv/bin/python", source: "setting" }]);
  });
  it("else the Python extension's active environment, then python3", async () => {
    const c = await candidates({ setting: () => "  ", pythonExtension: async () => "/env/python", fallback: "python3" });
    assert.deepStrictEqual(c.map((x) => x.source), ["python-extension", "default"]);
    const d = await candidates({ setting: () => undefined, pythonExtension: none, fallback: "python3" });
    assert.deepStrictEqual(d, [{ command: "python3", source: "default" }]);
  });
  it("falls back to python3 when the Python extension fails", async () => {
    const c = await candidates({
      setting: () => undefined,
      pythonExtension: async () => { throw new Error("no extension"); },
      fallback: "python3",
    });
    assert.deepStrictEqual(c, [{ command: "python3", source: "default" }]);
  });
  it("parses versions", () => {
    assert.deepStrictEqual(parseVersion("3.12\n"), [3, 12]);
    assert.strictEqual(parseVersion("Python 3.12"), undefined);
  });
  it("passes over a Python older than 3.11 or one that does not run, and says why", async () => {
    const probe: Probe = async (cmd) => ({ "/old": { version: "3.8" }, "/broken": { error: "ENOENT" } }[cmd] ?? { version: "3.11" });
    const c = await choosePython([
      { command: "/old", source: "python-extension" }, { command: "/broken", source: "default" },
      { command: "/good", source: "default" }], probe);
    assert.ok(c.ok);
    assert.strictEqual(c.python.command, "/good");
    assert.strictEqual(c.rejected.length, 2);
    assert.match(c.rejected[0], /3\.8 is older than 3\.11/);
    const none = await choosePython([{ command: "/old", source: "setting" }], probe);
    assert.ok(!none.ok);
    const advice = noPythonAdvice(none.rejected);
    assert.match(advice, /cbam\.interpreter/);
    assert.doesNotMatch(advice, /pip install/);
  });
  it("starts each candidate's server while probing it, and stops the rejected ones", async () => {
    const probe: Probe = async (cmd) => (cmd === "/old" ? { version: "3.10" } : { version: "3.12", executable: "/real/python3.12" });
    const started: string[] = [];
    const discarded: string[] = [];
    const c = await choosePython([{ command: "/old", source: "python-extension" }, { command: "python3", source: "default" }],
      probe, { start: (cand) => { started.push(cand.command); return `server of ${cand.command}`; }, discard: (s) => { discarded.push(s); } });
    assert.ok(c.ok);
    assert.strictEqual(c.started, "server of python3");
    assert.strictEqual(c.executable, "/real/python3.12");
    assert.deepStrictEqual(started, ["/old", "python3"]);
    assert.deepStrictEqual(discarded, ["server of /old"]);
  });
  it("puts the bundled libraries first on PYTHONPATH", () => {
    assert.strictEqual(bundledPythonPath("/ext/bundled/libs", undefined, ":"), "/ext/bundled/libs");
    assert.strictEqual(bundledPythonPath("/ext/bundled/libs", "/mine", ":"), "/ext/bundled/libs:/mine");
  });
});

describe("status bar", () => {
  const cbam = (code: string, message = "m") => ({ source: "cbam", code, message });
  it("renders every state", () => {
    assert.match(render({ kind: "verifying" }).text, /verifying…/);
    assert.strictEqual(render({ kind: "verified", outdated: false }).text, "$(check) verified");
    assert.strictEqual(render({ kind: "violations", count: 2, outdated: false }).text, "$(error) 2 violations");
    assert.strictEqual(render({ kind: "violations", count: 1, outdated: true }).text, "$(error) 1 violation (edited)");
    assert.match(render({ kind: "violations", count: 1, outdated: true }).tooltip, /save to verify again/);
    assert.strictEqual(render({ kind: "inputErrors", count: 1, what: "syntax", outdated: false }).text,
      "$(error) 1 syntax error");
    assert.strictEqual(render({ kind: "unknown", message: "x", outdated: false }).text, "$(question) unknown");
  });
  it("follows the server's word on the document", () => {
    assert.deepStrictEqual(statusFromDiagnostics([cbam(Code.violation)], "verifying"), { kind: "verifying" });
    assert.deepStrictEqual(statusFromDiagnostics([], "idle"), { kind: "idle" });
    assert.deepStrictEqual(statusFromDiagnostics([], undefined), { kind: "idle" });
    assert.deepStrictEqual(statusFromDiagnostics([], "done"), { kind: "verified", outdated: false });
    assert.deepStrictEqual(statusFromDiagnostics([cbam(Code.violation)], "outdated"),
      { kind: "violations", count: 1, outdated: true });
  });
  it("counts by code, whatever the messages say", () => {
    const v = [cbam(Code.violation, "a syntax error cannot read this"), { source: "clang", code: Code.violation, message: "other" },
      cbam(Code.unsupported, "unsupported: floating point")];
    assert.deepStrictEqual(statusFromDiagnostics(v, "done"), { kind: "violations", count: 1, outdated: false });
    const s = [cbam(Code.syntaxError, "expected ';' before 'assert' (not a violation)")];
    assert.deepStrictEqual(statusFromDiagnostics(s, "done"), { kind: "inputErrors", count: 1, what: "syntax", outdated: false });
    const p = [{ source: "cbam", code: { value: Code.preprocessorError }, message: "header x.h not found" }];
    assert.strictEqual((statusFromDiagnostics(p, "done") as any).what, "preprocessor");
    const u = [cbam(Code.unknown, "cbam could not decide: timeout")];
    assert.deepStrictEqual(statusFromDiagnostics(u, "done"),
      { kind: "unknown", message: "cbam could not decide: timeout", outdated: false });
    assert.strictEqual(statusFromDiagnostics([cbam(Code.notVerified, "not C")], "done").kind, "notVerified");
    assert.strictEqual(statusFromDiagnostics([cbam(Code.unsupported)], "done").kind, "verified");
  });
});

describe("error path stepping", () => {
  const at = (uri: string, line: number, character: number, message: string) =>
    ({ location: { uri, range: { start: { line, character }, end: { line, character: character + 5 } } }, message });
  const related = [
    at("file:///a.c", 7, 2, "lo = 1 (nondet)"),
    at("file:///a.c", 9, 6, "branch `lo <= hi` taken"),
    at("file:///b.c", 3, 2, "return 0"),
  ];
  it("walks forward and back, clamped at the ends", () => {
    const s = new ErrorPathStepper(stepsFromRelated(related), "assertion");
    assert.strictEqual(s.current.message, "lo = 1 (nondet)");
    assert.strictEqual(s.previous().line, 7);
    assert.strictEqual(s.next().message, "branch `lo <= hi` taken");
    assert.strictEqual(s.next().uri, "file:///b.c");
    assert.strictEqual(s.next().uri, "file:///b.c");
    assert.strictEqual(s.label(), "step 3/3: return 0");
  });
  it("annotates the steps seen so far, per document", () => {
    const s = new ErrorPathStepper(stepsFromRelated(related), "assertion");
    s.next();
    const decos = s.decorations("file:///a.c");
    assert.deepStrictEqual(decos.map((d) => [d.line, d.current]), [[7, false], [9, true]]);
    assert.match(decos[1].text, /2\. branch `lo <= hi` taken/);
    assert.deepStrictEqual(s.decorations("file:///b.c"), []);
  });
  it("puts the steps on one line into one annotation, in path order", () => {
    // buggy.c: the call to average (step 4), its return (6) and the assignment (7) share a line.
    const path = [at("file:///a.c", 13, 4, "call average(a = 1, b = 4294967295)"), at("file:///a.c", 6, 2, "return 0"),
      at("file:///a.c", 13, 4, "average returns 0"), at("file:///a.c", 13, 4, "mid = 0")];
    const s = new ErrorPathStepper(stepsFromRelated(path), "assertion");
    s.next();
    s.next();
    s.next();
    const decos = s.decorations("file:///a.c");
    assert.deepStrictEqual(decos.map((d) => [d.line, d.current]), [[6, false], [13, true]]);
    assert.strictEqual(decos[1].text, "  ⟵ 1. call average(a = 1, b = 4294967295)  ·  3. average returns 0  ·  4. mid = 0");
  });
  it("belongs to one diagnostic: the same violation has the same key, a changed one another", () => {
    const d = { message: "assertion `lo <= mid` may fail", code: "violation",
      range: { start: { line: 14, character: 4 }, end: { line: 14, character: 21 } }, relatedInformation: related };
    assert.strictEqual(diagnosticKey(d), diagnosticKey({ ...d, relatedInformation: [...related] }));
    assert.notStrictEqual(diagnosticKey(d), diagnosticKey({ ...d, message: d.message + " [cached]" }));
    assert.notStrictEqual(diagnosticKey(d), diagnosticKey({ ...d, relatedInformation: related.slice(1) }));
  });
  it("refuses a violation without a path", () => {
    assert.throws(() => new ErrorPathStepper([], "x"));
  });
});
