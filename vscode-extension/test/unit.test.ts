import * as assert from "assert";

import { ErrorPathStepper, stepsFromRelated } from "../src/errorPath";
import { installAdvice, resolveInterpreter } from "../src/interpreter";
import { toServerSettings } from "../src/settings";
import { render, statusFromDiagnostics } from "../src/status";

describe("interpreter resolution", () => {
  it("prefers the cbam.interpreter setting", async () => {
    const r = await resolveInterpreter({
      setting: () => "/venv/bin/python",
      pythonExtension: async () => "/other/python",
      fallback: "python3",
    });
    assert.deepStrictEqual(r, { command: "/venv/bin/python", source: "setting" });
  });
  it("then the Python extension's active environment", async () => {
    const r = await resolveInterpreter({ setting: () => "  ", pythonExtension: async () => "/env/python", fallback: "python3" });
    assert.deepStrictEqual(r, { command: "/env/python", source: "python-extension" });
  });
  it("then python3, also when the Python extension fails", async () => {
    const r = await resolveInterpreter({
      setting: () => undefined,
      pythonExtension: async () => { throw new Error("no extension"); },
      fallback: "python3",
    });
    assert.deepStrictEqual(r, { command: "python3", source: "default" });
  });
  it("gives exact install instructions", () => {
    const text = installAdvice("/usr/bin/python3");
    assert.match(text, /\/usr\/bin\/python3 -m pip install cbam/);
    assert.match(text, /cbam\.interpreter/);
  });
});

describe("settings to server configuration", () => {
  it("maps triggers and fills defaults", () => {
    const s = toServerSettings({});
    assert.strictEqual(s.trigger, "save");
    assert.strictEqual(s.timeout, 30);
    assert.strictEqual(s.dataModel, "LP64");
    assert.strictEqual(s.cacheDir, null);
    assert.strictEqual(toServerSettings({ trigger: "change" }).trigger, "change");
    assert.strictEqual(toServerSettings({ trigger: "manual" }).trigger, "manual");
  });
  it("rejects nonsense and expands ${workspaceFolder}", () => {
    const s = toServerSettings({ timeout: -3, dataModel: "weird", cacheDir: "${workspaceFolder}/.cbam",
      includePaths: ["${workspaceFolder}/include"], entryPoints: ["", "f"], maxViolations: 2.6 }, "/ws");
    assert.strictEqual(s.timeout, 30);
    assert.strictEqual(s.dataModel, "LP64");
    assert.strictEqual(s.cacheDir, "/ws/.cbam");
    assert.deepStrictEqual(s.includePaths, ["/ws/include"]);
    assert.deepStrictEqual(s.entryPoints, ["f"]);
    assert.strictEqual(s.maxViolations, 3);
  });
});

describe("status bar", () => {
  it("renders every state", () => {
    assert.match(render({ kind: "verifying" }).text, /verifying…/);
    assert.strictEqual(render({ kind: "verified" }).text, "$(check) verified");
    assert.strictEqual(render({ kind: "violations", count: 2 }).text, "$(error) 2 violations");
    assert.strictEqual(render({ kind: "violations", count: 1 }).text, "$(error) 1 violation");
    assert.strictEqual(render({ kind: "unknown" }).text, "$(question) unknown");
  });
  it("derives the state from cbam's diagnostics", () => {
    assert.deepStrictEqual(statusFromDiagnostics([], true), { kind: "verifying" });
    assert.deepStrictEqual(statusFromDiagnostics([], false), { kind: "verified" });
    const v = [{ source: "cbam", severity: 0, message: "assertion `x` may fail" },
      { source: "clang", severity: 0, message: "other tool" }];
    assert.deepStrictEqual(statusFromDiagnostics(v, false), { kind: "violations", count: 1 });
    const u = [{ source: "cbam", severity: 1, message: "cbam could not decide: timeout", code: "unknown" }];
    assert.deepStrictEqual(statusFromDiagnostics(u, false), { kind: "unknown", reason: "timeout" });
    const e = [{ source: "cbam", severity: 0, message: "syntax cbam cannot parse: before: }" }];
    assert.strictEqual(statusFromDiagnostics(e, false).kind, "error");
  });
});

describe("error path stepping", () => {
  const related = [
    { location: { uri: "file:///a.c", range: { start: { line: 7, character: 2 }, end: { line: 7, character: 30 } } },
      message: "lo = 1 (nondet)" },
    { location: { uri: "file:///a.c", range: { start: { line: 9, character: 6 }, end: { line: 9, character: 14 } } },
      message: "branch `lo <= hi` taken" },
    { location: { uri: "file:///b.c", range: { start: { line: 3, character: 2 }, end: { line: 3, character: 20 } } },
      message: "return 0" },
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
  it("refuses a violation without a path", () => {
    assert.throws(() => new ErrorPathStepper([], "x"));
  });
});
