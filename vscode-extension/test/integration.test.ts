// Starts the real cbam server from Node through vscode-jsonrpc and
// vscode-languageserver-protocol (what vscode-languageclient uses underneath), opens a C
// file with a known violation, and feeds the diagnostics through the extension's own logic.
// (tests/test_vscode.py runs the packaged extension inside VS Code itself.)
import * as assert from "assert";
import { spawn, spawnSync, ChildProcess } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { pathToFileURL } from "url";
import { StreamMessageReader, StreamMessageWriter, createMessageConnection, MessageConnection } from "vscode-jsonrpc/node";
import {
  InitializeRequest,
  InitializedNotification,
  DidOpenTextDocumentNotification,
  PublishDiagnosticsNotification,
  PublishDiagnosticsParams,
  ShutdownRequest,
  ExitNotification,
  ConfigurationRequest,
} from "vscode-languageserver-protocol";

import { Code, DocState } from "../src/codes";
import { ErrorPathStepper, stepsFromRelated } from "../src/errorPath";
import { statusFromDiagnostics } from "../src/status";

const PYTHON = process.env.CBAM_PYTHON || "python3";
const BUGGY = `extern unsigned int __VERIFIER_nondet_uint(void);
void reach_error(void);
unsigned int average(unsigned int a, unsigned int b) {
  return (a + b) / 2;
}
int main(void) {
  unsigned int lo = __VERIFIER_nondet_uint();
  unsigned int hi = __VERIFIER_nondet_uint();
  if (lo <= hi) {
    unsigned int mid = average(lo, hi);
    if (!(lo <= mid)) reach_error();
  }
  return 0;
}
`;

// LSP 3.18 lets a diagnostic message be markup; cbam sends plain strings.
function text(m: string | { value: string }): string {
  return typeof m === "string" ? m : m.value;
}

function cbamAvailable(): boolean {
  return spawnSync(PYTHON, ["-c", "import cbam"], { timeout: 30000 }).status === 0;
}

describe("the real cbam server", function () {
  let proc: ChildProcess;
  let conn: MessageConnection;
  let dir: string;
  const states: DocState[] = [];

  before(function () {
    if (!cbamAvailable()) {
      this.skip();
    }
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "cbam-ext-"));
    proc = spawn(PYTHON, ["-m", "cbam", "lsp"], { stdio: ["pipe", "pipe", "inherit"] });
    conn = createMessageConnection(new StreamMessageReader(proc.stdout!), new StreamMessageWriter(proc.stdin!));
    // What VS Code sends: the raw section, which the server validates.
    conn.onRequest(ConfigurationRequest.type, (params) =>
      params.items.map(() => ({ trigger: "save", interpreter: "", cacheDir: path.join(dir, "cache") })));
    conn.onNotification("cbam/status", (p: { uri: string; state: DocState }) => { states.push(p.state); });
    conn.listen();
  });

  after(async function () {
    if (conn) {
      await conn.sendRequest(ShutdownRequest.type);
      await conn.sendNotification(ExitNotification.type);
      conn.dispose();
    }
    proc?.kill();
  });

  it("publishes the violation with its error path, and the extension can step through it", async function () {
    const file = path.join(dir, "buggy.c");
    fs.writeFileSync(file, BUGGY);
    const uri = pathToFileURL(file).toString();
    const published = new Promise<PublishDiagnosticsParams>((resolve) => {
      conn.onNotification(PublishDiagnosticsNotification.type, (p) => {
        if (p.uri === uri) {
          resolve(p);
        }
      });
    });
    await conn.sendRequest(InitializeRequest.type, {
      processId: process.pid,
      rootUri: pathToFileURL(dir).toString(),
      capabilities: {
        workspace: { configuration: true },
        experimental: { cbamStatus: true },
        textDocument: { publishDiagnostics: { relatedInformation: true, versionSupport: true } },
      },
    });
    await conn.sendNotification(InitializedNotification.type, {});
    await conn.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri, languageId: "c", version: 1, text: BUGGY },
    });
    const p = await published;
    assert.strictEqual(p.version, 1);
    assert.strictEqual(p.diagnostics.length, 1);
    const d = p.diagnostics[0];
    assert.strictEqual(d.source, "cbam");
    assert.strictEqual(d.code, Code.violation);
    assert.strictEqual(d.range.start.line, 10);
    assert.match(text(d.message), /__VERIFIER_nondet_uint\(\) =/);
    // The status bar logic (vscode numbers severities from 0; LSP from 1).
    const status = statusFromDiagnostics(
      p.diagnostics.map((x) => ({ source: x.source, message: text(x.message), code: x.code })), "done");
    assert.deepStrictEqual(status, { kind: "violations", count: 1, outdated: false });
    // Show Error Path steps through the related information.
    const stepper = new ErrorPathStepper(stepsFromRelated(d.relatedInformation), text(d.message));
    const messages = stepper.steps.map((s) => s.message);
    assert.ok(messages.includes("branch `lo <= hi` taken"), messages.join(" | "));
    assert.ok(messages.some((m) => m.startsWith("call average(a = ")));
    while (stepper.position < stepper.steps.length - 1) {
      stepper.next();
    }
    assert.ok(stepper.decorations(uri).length >= 3);
    // The server said it was verifying, then that the published result is current.
    for (let i = 0; i < 50 && states[states.length - 1] !== "done"; i++) {
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.deepStrictEqual(states, ["verifying", "done"]);
  });
});
