// The cbam VS Code client: starts `cbam lsp`, shows status, and steps through error paths.

import { execFile } from "child_process";
import * as vscode from "vscode";
import {
  LanguageClient,
  LanguageClientOptions,
  ServerOptions,
  State,
} from "vscode-languageclient/node";

import { ErrorPathStepper, stepsFromRelated } from "./errorPath";
import { installAdvice, resolveInterpreter } from "./interpreter";
import { toServerSettings } from "./settings";
import { render, Status, statusFromDiagnostics } from "./status";

let client: LanguageClient | undefined;
let output: vscode.LogOutputChannel;
let statusItem: vscode.StatusBarItem;
let stepper: ErrorPathStepper | undefined;
const verifying = new Set<string>();
const stepDecoration = vscode.window.createTextEditorDecorationType({
  after: { color: new vscode.ThemeColor("editorCodeLens.foreground"), margin: "0 0 0 1em" },
});
const currentDecoration = vscode.window.createTextEditorDecorationType({
  backgroundColor: new vscode.ThemeColor("editor.rangeHighlightBackground"),
  after: { color: new vscode.ThemeColor("editorError.foreground"), margin: "0 0 0 1em" },
});

function readSettings() {
  const cfg = vscode.workspace.getConfiguration("cbam");
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  return toServerSettings(
    {
      trigger: cfg.get("trigger"),
      debounceMs: cfg.get("debounceMs"),
      timeout: cfg.get("timeout"),
      config: cfg.get("config"),
      dataModel: cfg.get("dataModel"),
      entryPoints: cfg.get("entryPoints"),
      cacheDir: cfg.get("cacheDir"),
      includePaths: cfg.get("includePaths"),
      defines: cfg.get("defines"),
      maxViolations: cfg.get("maxViolations"),
    },
    folder,
  );
}

async function pythonFromExtension(): Promise<string | undefined> {
  const ext = vscode.extensions.getExtension("ms-python.python");
  if (!ext) {
    return undefined;
  }
  const api: any = ext.isActive ? ext.exports : await ext.activate();
  const env = api?.environments?.getActiveEnvironmentPath?.();
  if (env?.path) {
    const resolved = await api.environments.resolveEnvironment?.(env);
    return resolved?.executable?.uri?.fsPath ?? env.path;
  }
  return undefined;
}

function canImportCbam(python: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile(python, ["-c", "import cbam, sys; print(cbam.__version__)"], { timeout: 20000 }, (err, stdout) => {
      resolve(err ? undefined : stdout.trim());
    });
  });
}

function setStatus(s: Status): void {
  const v = render(s);
  statusItem.text = v.text;
  statusItem.tooltip = v.tooltip;
  statusItem.show();
}

function refreshStatus(): void {
  const editor = vscode.window.activeTextEditor;
  if (!editor || editor.document.languageId !== "c") {
    return;
  }
  const uri = editor.document.uri.toString();
  const diags = vscode.languages.getDiagnostics(editor.document.uri).map((d) => ({
    source: d.source,
    severity: d.severity as number,
    message: d.message,
    code: d.code as any,
  }));
  setStatus(statusFromDiagnostics(diags, verifying.has(uri)));
}

async function startClient(context: vscode.ExtensionContext): Promise<void> {
  const resolved = await resolveInterpreter({
    setting: () => vscode.workspace.getConfiguration("cbam").get<string>("interpreter"),
    pythonExtension: pythonFromExtension,
    fallback: "python3",
  });
  output.appendLine(`cbam: using ${resolved.command} (${resolved.source})`);
  const version = await canImportCbam(resolved.command);
  if (!version) {
    const advice = installAdvice(resolved.command);
    output.appendLine(advice);
    setStatus({ kind: "error", message: advice });
    const choice = await vscode.window.showErrorMessage(
      `cbam is not installed for ${resolved.command}.`, "Install with pip", "Show instructions");
    if (choice === "Install with pip") {
      const term = vscode.window.createTerminal("cbam install");
      term.show();
      term.sendText(`${resolved.command} -m pip install cbam`);
    } else if (choice === "Show instructions") {
      output.show();
    }
    return;
  }
  const serverOptions: ServerOptions = { command: resolved.command, args: ["-m", "cbam", "lsp"] };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [{ scheme: "file", language: "c" }],
    outputChannel: output,
    initializationOptions: { cbam: readSettings() },
    synchronize: { configurationSection: "cbam" },
    middleware: {
      workspace: {
        configuration: async (params, token, next) => {
          const result = await next(params, token);
          return (params.items ?? []).map((item, i) =>
            item.section === "cbam" ? readSettings() : Array.isArray(result) ? result[i] : null);
        },
      },
      handleDiagnostics: (uri, diagnostics, next) => {
        verifying.delete(uri.toString());
        next(uri, diagnostics);
        refreshStatus();
      },
    },
  };
  client = new LanguageClient("cbam", "cbam", serverOptions, clientOptions);
  client.onDidChangeState((e) => {
    if (e.newState === State.Stopped) {
      setStatus({ kind: "error", message: "the cbam server stopped; run 'cbam: Restart Server'" });
    }
  });
  await client.start();
  output.appendLine(`cbam ${version} language server started`);
  setStatus({ kind: "idle" });
}

// The server verifies on open and save; the status shows it until the diagnostics arrive.
function markVerifying(d: vscode.TextDocument): void {
  const trigger = vscode.workspace.getConfiguration("cbam").get<string>("trigger");
  if (d.languageId === "c" && trigger !== "manual") {
    verifying.add(d.uri.toString());
    refreshStatus();
  }
}

function activeUri(): string | undefined {
  return vscode.window.activeTextEditor?.document.uri.toString();
}

async function runServerCommand(command: string, args: unknown[]): Promise<void> {
  if (!client) {
    vscode.window.showWarningMessage("cbam's language server is not running.");
    return;
  }
  const uri = args[0] as string | undefined;
  if (uri) {
    verifying.add(uri);
    refreshStatus();
  }
  try {
    await client.sendRequest("workspace/executeCommand", { command, arguments: args });
  } finally {
    if (uri) {
      verifying.delete(uri);
      refreshStatus();
    }
  }
}

function functionAtCursor(): string | undefined {
  const editor = vscode.window.activeTextEditor;
  if (!editor) {
    return undefined;
  }
  const range = editor.document.getWordRangeAtPosition(editor.selection.active);
  return range ? editor.document.getText(range) : undefined;
}

async function showStep(): Promise<void> {
  if (!stepper) {
    return;
  }
  const step = stepper.current;
  const doc = await vscode.workspace.openTextDocument(vscode.Uri.parse(step.uri));
  const editor = await vscode.window.showTextDocument(doc, { preserveFocus: false });
  const range = new vscode.Range(step.line, step.character, step.endLine, step.endCharacter);
  editor.selection = new vscode.Selection(range.start, range.start);
  editor.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  const decos = stepper.decorations(step.uri);
  editor.setDecorations(stepDecoration, decos.filter((d) => !d.current).map((d) => ({
    range: doc.lineAt(d.line).range, renderOptions: { after: { contentText: d.text } },
  })));
  editor.setDecorations(currentDecoration, decos.filter((d) => d.current).map((d) => ({
    range: doc.lineAt(d.line).range, renderOptions: { after: { contentText: d.text } },
  })));
  vscode.window.setStatusBarMessage(`cbam: ${stepper.label()}`, 5000);
}

function startStepping(): void {
  const editor = vscode.window.activeTextEditor;
  if (!editor) {
    return;
  }
  const diags = vscode.languages.getDiagnostics(editor.document.uri)
    .filter((d) => d.source === "cbam" && d.severity === vscode.DiagnosticSeverity.Error && d.relatedInformation?.length);
  if (diags.length === 0) {
    vscode.window.showInformationMessage("cbam: no violation with an error path in this file.");
    return;
  }
  const pos = editor.selection.active;
  const chosen = diags.find((d) => d.range.contains(pos)) ?? diags[0];
  stepper = new ErrorPathStepper(stepsFromRelated(chosen.relatedInformation as any), chosen.message);
  vscode.commands.executeCommand("setContext", "cbam.steppingErrorPath", true);
  void showStep();
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  output = vscode.window.createOutputChannel("cbam", { log: true });
  statusItem = vscode.window.createStatusBarItem(vscode.StatusBarAlignment.Left, 50);
  statusItem.command = "cbam.showOutput";
  context.subscriptions.push(output, statusItem);
  const reg = (name: string, fn: (...args: any[]) => unknown) =>
    context.subscriptions.push(vscode.commands.registerCommand(name, fn));
  reg("cbam.verifyFile", () => runServerCommand("cbam.verifyFile", [activeUri()]));
  reg("cbam.verifyFunction", (uri?: string, name?: string) =>
    runServerCommand("cbam.verifyFunction", [uri ?? activeUri(), name ?? functionAtCursor() ?? "main"]));
  reg("cbam.reverifyFromScratch", () => runServerCommand("cbam.reverifyFromScratch", [activeUri()]));
  reg("cbam.clearCache", () => runServerCommand("cbam.clearCache", []));
  reg("cbam.restartServer", async () => {
    if (client) {
      await client.stop();
      client = undefined;
    }
    await startClient(context);
  });
  reg("cbam.showOutput", () => output.show());
  reg("cbam.showErrorPath", startStepping);
  reg("cbam.nextStep", () => { stepper?.next(); void showStep(); });
  reg("cbam.previousStep", () => { stepper?.previous(); void showStep(); });
  context.subscriptions.push(
    vscode.window.onDidChangeActiveTextEditor(refreshStatus),
    vscode.workspace.onDidOpenTextDocument(markVerifying),
    vscode.workspace.onDidSaveTextDocument(markVerifying),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration("cbam.interpreter")) {
        void vscode.commands.executeCommand("cbam.restartServer");
      }
    }),
  );
  await startClient(context);
}

export async function deactivate(): Promise<void> {
  if (client) {
    await client.stop();
  }
}
