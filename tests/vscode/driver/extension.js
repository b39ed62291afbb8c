// The test's hands inside VS Code: answers JSON requests from tests/test_vscode.py over HTTP on
// 127.0.0.1 and reports what VS Code itself holds (diagnostics, hovers, code lenses), never
// what an extension's own code believes. Plain JavaScript, so the test needs no build step.
"use strict";

const fs = require("fs");
const http = require("http");
const vscode = require("vscode");

// Every change of any document's diagnostics, with the time it reached VS Code: the test
// measures "open to first squiggle" and "save to error gone" from these.
const diagnosticEvents = [];
let ownProblems;

function range(r) {
  return { start: [r.start.line, r.start.character], end: [r.end.line, r.end.character] };
}

function diagnostic(d) {
  return {
    message: d.message,
    severity: d.severity,
    source: d.source,
    code: d.code !== null && typeof d.code === "object" ? d.code.value : d.code,
    range: range(d.range),
    related: (d.relatedInformation || []).map((ri) => ({
      uri: ri.location.uri.toString(),
      range: range(ri.location.range),
      message: ri.message,
    })),
  };
}

function hoverText(h) {
  return h.contents.map((c) => (typeof c === "string" ? c : c.value)).join("\n");
}

async function editorFor(path) {
  const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(path));
  return vscode.window.showTextDocument(doc, { preview: false, preserveFocus: false });
}

const ops = {
  async ping() {
    return {
      extensions: vscode.extensions.all
        .filter((e) => !e.id.startsWith("vscode."))
        .map((e) => ({ id: e.id, active: e.isActive })),
    };
  },
  async open({ path }) {
    const t = Date.now();
    await editorFor(path);
    return { t };
  },
  async diagnostics({ path }) {
    return vscode.languages.getDiagnostics(vscode.Uri.file(path)).map(diagnostic);
  },
  async events() {
    return diagnosticEvents;
  },
  async hover({ path, line, character }) {
    const hovers = await vscode.commands.executeCommand(
      "vscode.executeHoverProvider", vscode.Uri.file(path), new vscode.Position(line, character));
    return (hovers || []).map(hoverText);
  },
  async lenses({ path }) {
    const lenses = await vscode.commands.executeCommand("vscode.executeCodeLensProvider", vscode.Uri.file(path), 100);
    return (lenses || []).map((l) => ({
      line: l.range.start.line,
      title: l.command ? l.command.title : null,
      command: l.command ? l.command.command : null,
    }));
  },
  async command({ id, args }) {
    const result = await vscode.commands.executeCommand(id, ...(args || []));
    return result === undefined ? null : result;
  },
  async commands() {
    return (await vscode.commands.getCommands(true)).filter((c) => c.startsWith("cbam."));
  },
  async edit({ path, text }) {
    const editor = await editorFor(path);
    const doc = editor.document;
    const all = new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length));
    const edit = new vscode.WorkspaceEdit();
    edit.replace(doc.uri, all, text);
    if (!(await vscode.workspace.applyEdit(edit))) {
      throw new Error("the edit was not applied");
    }
    return { version: doc.version };
  },
  async save({ path }) {
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(path));
    const t = Date.now();
    if (!(await doc.save())) {
      throw new Error("the document was not saved");
    }
    return { t };
  },
  async configure({ key, value }) {
    await vscode.workspace.getConfiguration("cbam").update(key, value, vscode.ConfigurationTarget.Global);
    return { t: Date.now() };
  },
  async cursor({ path, line, character }) {
    const editor = await editorFor(path);
    const p = new vscode.Position(line, character);
    editor.selection = new vscode.Selection(p, p);
    return null;
  },
  async selection() {
    const e = vscode.window.activeTextEditor;
    return e ? { path: e.document.uri.fsPath, line: e.selection.active.line } : null;
  },
  // A problem from another source, so that F8 ("Go to Next Problem") has somewhere to go.
  async addProblem({ path, line, message }) {
    const r = new vscode.Range(line, 0, line, 1);
    ownProblems.set(vscode.Uri.file(path), [new vscode.Diagnostic(r, message, vscode.DiagnosticSeverity.Warning)]);
    return null;
  },
  async closeAll() {
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
    return null;
  },
};

function activate(context) {
  ownProblems = vscode.languages.createDiagnosticCollection("cbam-test-driver");
  context.subscriptions.push(ownProblems);
  context.subscriptions.push(vscode.languages.onDidChangeDiagnostics((e) => {
    const t = Date.now();
    for (const uri of e.uris) {
      if (uri.scheme === "file") {
        diagnosticEvents.push({
          t,
          path: uri.fsPath,
          diagnostics: vscode.languages.getDiagnostics(uri).map(diagnostic),
        });
      }
    }
  }));
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => { body += chunk; });
    req.on("end", async () => {
      let reply;
      try {
        const request = JSON.parse(body);
        const op = ops[request.op];
        if (!op) {
          throw new Error(`unknown op ${request.op}`);
        }
        reply = { ok: true, value: await op(request) };
      } catch (e) {
        reply = { ok: false, error: String((e && e.stack) || e) };
      }
      res.writeHead(200, { "Content-Type": "application/json" });
      res.end(JSON.stringify(reply));
    });
  });
  server.listen(0, "127.0.0.1", () => {
    fs.writeFileSync(process.env.CBAM_DRIVER_PORT_FILE, String(server.address().port));
  });
  context.subscriptions.push({ dispose: () => server.close() });
}

module.exports = { activate, deactivate() {} };
