// The cbam VS Code client: starts the bundled `cbam lsp`, shows each file's status, and steps
// through error paths.
//
// The server's commands (cbam.verifyFile, cbam.verifyFunction, cbam.reverifyFromScratch,
// cbam.clearCache) are registered by vscode-languageclient from the server's
// executeCommandProvider; this extension registers only its own, so no id is registered
// twice. Invoked from the palette, a server command gets the active document (and the
// function at the cursor) through the executeCommand middleware. Settings are sent to the
// server as they are; the server validates them (server/settings.py) and reports problems
// in this output channel.

import { ChildProcess, execFile, spawn } from "child_process";
import * as fs from "fs";
import * as path from "path";
import * as vscode from "vscode";
import {
  CloseAction,
  ErrorAction,
  ErrorHandler,
  LanguageClient,
  LanguageClientOptions,
  State,
  StaticFeature,
} from "vscode-languageclient/node";

import { DocState } from "./codes";
import { diagnosticKey, ErrorPathStepper, stepsFromRelated } from "./errorPath";
import {
  bundledPythonPath, candidates, choosePython, noPythonAdvice, parseProbe, Probe, PROBE_SCRIPT,
} from "./interpreter";
import { render, Status, statusFromDiagnostics } from "./status";

const SERVER_COMMANDS = new Set(["cbam.verifyFile", "cbam.verifyFunction", "cbam.reverifyFromScratch", "cbam.clearCache"]);

let client: LanguageClient | undefined;
let serverProcess: ChildProcess | undefined; // started here, so stopped here if it does not exit
let output: vscode.LogOutputChannel;
let statusItem: vscode.StatusBarItem;
let serverProblem: string | undefined;
let starting = false;
const docStates = new Map<string, DocState>();
let stepper: ErrorPathStepper | undefined;
let stepperUri = ""; // the document whose diagnostic the stepper belongs to
let stepMessage: vscode.Disposable | undefined; // "cbam: step 3/8: ..." in the status bar
let stepDecoration: vscode.TextEditorDecorationType;
let currentDecoration: vscode.TextEditorDecorationType;

// The server tells whether a document is being verified and whether its results are for its
// current text (cbam/status); it sends that only to clients that ask for it.
const statusCapability: StaticFeature = {
  fillClientCapabilities(caps) {
    caps.experimental = { ...(caps.experimental ?? {}), cbamStatus: true };
  },
  initialize() {},
  getState() {
    return { kind: "static" };
  },
  clear() {},
};

function seconds(since: number): string {
  return ((Date.now() - since) / 1000).toFixed(2);
}

function rawSettings(): unknown {
  return JSON.parse(JSON.stringify(vscode.workspace.getConfiguration("cbam")));
}

async function pythonFromExtension(): Promise<string | undefined> {
  const ext = vscode.extensions.getExtension("ms-python.python");
  if (!ext) {
    return undefined;
  }
  const lookup = (async () => {
    const api: any = ext.isActive ? ext.exports : await ext.activate();
    const env = api?.environments?.getActiveEnvironmentPath?.();
    if (!env?.path) {
      return undefined;
    }
    const resolved = await api.environments.resolveEnvironment?.(env);
    return (resolved?.executable?.uri?.fsPath ?? env.path) as string;
  })();
  // The Python extension may take long to activate; cbam does not wait for it forever.
  const timeout = new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 5000));
  return Promise.race([lookup, timeout]);
}

// The server's working directory: the workspace folder. The probe runs there too, since what
// "python3" means can depend on it (a pyenv .python-version file, say).
function serverCwd(root: string): string {
  return vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? root;
}

const probeIn = (cwd: string): Probe => (command) =>
  new Promise((resolve) => {
    execFile(command, ["-c", PROBE_SCRIPT], { timeout: 20000, cwd },
      (err, stdout) => resolve(err ? { error: err.message.split("\n")[0] } : parseProbe(stdout)));
  });

function setStatus(s: Status): void {
  const v = render(s);
  statusItem.text = v.text;
  statusItem.tooltip = v.tooltip;
  statusItem.show();
}

function refreshStatus(): void {
  if (serverProblem !== undefined) {
    setStatus({ kind: "error", message: serverProblem });
    return;
  }
  if (starting) {
    setStatus({ kind: "starting" });
    return;
  }
  const editor = vscode.window.activeTextEditor;
  if (!editor || editor.document.languageId !== "c") {
    statusItem.hide();
    return;
  }
  const uri = editor.document.uri;
  setStatus(statusFromDiagnostics(vscode.languages.getDiagnostics(uri), docStates.get(uri.toString())));
}

function failed(message: string): void {
  serverProblem = message;
  output.error(message);
  refreshStatus();
  void vscode.window.showErrorMessage(message.split("\n")[0], "Show Output", "Open Settings").then((choice) => {
    if (choice === "Show Output") {
      output.show();
    } else if (choice === "Open Settings") {
      void vscode.commands.executeCommand("workbench.action.openSettings", "cbam");
    }
  });
}

type Note = { level: "info" | "warn"; text: string };
// A started server process, or why there is none; and whether its Python was checked first
// (if it was not, a failure is a reason to check, not yet to give up).
type Launch = ({ proc: ChildProcess } | { failure: string }) & { notes: Note[]; checked: boolean };

// Find the server and start its process: cbam.serverCommand, else the bundled cbam with a
// Python >= 3.11. Needs nothing of activate()'s, so that it can begin when the module loads.
// Unchecked (the usual path), the first candidate is started at once: its start-up is the
// check, and the server reports its Python in the output. Only if that fails are the
// candidates probed, each one's server starting while its version is checked.
async function launch(root: string, check: boolean): Promise<Launch> {
  const notes: Note[] = [];
  const cfg = vscode.workspace.getConfiguration("cbam");
  const own = (cfg.get<string[]>("serverCommand") ?? []).filter((a) => typeof a === "string" && a !== "");
  if (own.length > 0) {
    notes.push({ level: "info", text: `starting your cbam server: ${own.join(" ")} (cbam.serverCommand)` });
    return spawnServer(own[0], own.slice(1), process.env, root, notes, true);
  }
  const libs = path.join(root, "bundled", "libs");
  if (!fs.existsSync(path.join(libs, "cbam"))) {
    return { notes, checked: true, failure: `this build of the cbam extension carries no cbam (${libs} is ` +
      `missing): install a packaged .vsix, or set "cbam.serverCommand" to a cbam you installed, for example ` +
      `["/path/to/.venv/bin/cbam", "lsp"].` };
  }
  const cands = await candidates({
    setting: () => cfg.get<string>("interpreter"),
    pythonExtension: pythonFromExtension,
    fallback: "python3",
  });
  const env = { ...process.env, PYTHONPATH: bundledPythonPath(libs, process.env.PYTHONPATH, path.delimiter) };
  // -S: none of the interpreter's own site-packages (nor .pth hooks such as an editable
  // install's), so the bundled libraries are the ones imported; -P: the server's working
  // directory (the workspace folder) is not on sys.path either, so nothing there can shadow them.
  const args = ["-S", "-P", "-m", "cbam.server.lsp"];
  if (!check) {
    notes.push({ level: "info", text: `starting the bundled cbam with ${cands[0].command} (${cands[0].source})` });
    return spawnServer(cands[0].command, args, env, root, notes, false);
  }
  const choice = await choosePython(cands, probeIn(serverCwd(root)), {
    start: (c) => spawnServer(c.command, args, env, root, notes, true),
    discard: (started) => void started.then((l) => ("proc" in l ? l.proc.kill() : undefined)),
  });
  notes.push(...choice.rejected.map((r): Note => ({ level: "warn", text: `not using ${r}` })));
  if (!choice.ok) {
    return { notes, checked: true, failure: noPythonAdvice(choice.rejected) };
  }
  notes.push({ level: "info", text: `started the bundled cbam with ${choice.executable} (Python ${choice.version}, ` +
    `${choice.python.command} from ${choice.python.source})` });
  return choice.started;
}

// A server that cannot run (an old Python, a broken installation) exits at once. It is given
// half a second to do so before the language client gets it, which delays nothing: a server
// takes longer than that to import its libraries and answer. What it said on stderr meanwhile
// goes to the output channel.
const GRACE_MS = 500;

function spawnServer(command: string, args: string[], env: NodeJS.ProcessEnv, root: string,
  notes: Note[], checked: boolean): Promise<Launch> {
  const proc = spawn(command, args, { cwd: serverCwd(root), env, stdio: "pipe" });
  const said: string[] = [];
  const onStderr = (chunk: Buffer) => said.push(chunk.toString());
  proc.stderr.on("data", onStderr);
  return new Promise((resolve) => {
    let timer: NodeJS.Timeout | undefined;
    let settled = false;
    const settle = (l: Launch) => {
      if (settled) {
        return;
      }
      settled = true;
      clearTimeout(timer);
      proc.stderr.off("data", onStderr);
      notes.push(...said.join("").split("\n").filter((line) => line.trim() !== "")
        .map((line): Note => ({ level: "warn", text: `server: ${line}` })));
      resolve(l);
    };
    proc.once("error", (e) => settle({ notes, checked, failure: `cannot start ${command}: ${e.message}` }));
    proc.once("exit", (code, signal) => settle({ notes, checked,
      failure: `${command} ${args.join(" ")} exited at once (${signal ?? `exit status ${code}`})` }));
    proc.once("spawn", () => { timer = setTimeout(() => settle({ proc, notes, checked }), GRACE_MS); });
  });
}

// Loading this module is the first sign of an activation. VS Code then prepares the
// extension's context before it calls activate() (up to a second on a busy machine); the
// server is found and started meanwhile, so that it has imported its libraries sooner.
let early: Promise<Launch> | undefined = launch(path.dirname(__dirname), false);

function functionAtCursor(): string | undefined {
  const editor = vscode.window.activeTextEditor;
  if (!editor) {
    return undefined;
  }
  const range = editor.document.getWordRangeAtPosition(editor.selection.active);
  return range ? editor.document.getText(range) : undefined;
}

// A server command from the palette has no arguments: it applies to the active C file.
function commandArguments(command: string, args: unknown[]): unknown[] | undefined {
  if (args.length > 0 || command === "cbam.clearCache") {
    return args;
  }
  const editor = vscode.window.activeTextEditor;
  if (!editor || editor.document.languageId !== "c") {
    void vscode.window.showWarningMessage("cbam: open a C file first.");
    return undefined;
  }
  const uri = editor.document.uri.toString();
  return command === "cbam.verifyFunction" ? [uri, functionAtCursor() ?? "main"] : [uri];
}

function clientFor(proc: ChildProcess, root: string): LanguageClient {
  let running = false;
  let first: ChildProcess | undefined = proc;
  // The language client calls this again to restart a server that crashed: a new process then.
  const serverOptions = async (): Promise<ChildProcess> => {
    if (first !== undefined) {
      const p = first;
      first = undefined;
      return p;
    }
    const l = await launch(root, true);
    for (const note of l.notes) {
      output[note.level](note.text);
    }
    if ("failure" in l) {
      throw new Error(l.failure);
    }
    serverProcess = l.proc;
    return l.proc;
  };
  let crashes: ErrorHandler | undefined;
  const clientOptions: LanguageClientOptions = {
    documentSelector: [{ scheme: "file", language: "c" }],
    outputChannel: output,
    initializationOptions: { cbam: rawSettings() },
    synchronize: { configurationSection: "cbam" },
    // A server that never started is dealt with here (see startClient); one that ran and
    // crashed is restarted as vscode-languageclient does by default.
    initializationFailedHandler: () => false,
    errorHandler: {
      error: (error, message, count) => running ? crashes!.error(error, message, count)
        : { action: ErrorAction.Shutdown, handled: true },
      closed: () => running ? crashes!.closed() : { action: CloseAction.DoNotRestart, handled: true },
    },
    middleware: {
      executeCommand: async (command, args, next) => {
        const full = commandArguments(command, args);
        return full === undefined ? undefined : next(command, full);
      },
      handleDiagnostics: (uri, diagnostics, next) => {
        next(uri, diagnostics);
        refreshStatus();
      },
    },
  };
  const c = new LanguageClient("cbam", "cbam", serverOptions, clientOptions);
  crashes = c.createDefaultErrorHandler();
  c.registerFeature(statusCapability);
  c.onNotification("cbam/status", (p: { uri: string; state: DocState }) => {
    docStates.set(p.uri, p.state);
    refreshStatus();
  });
  c.onDidChangeState((e) => {
    running ||= e.newState === State.Running;
    void vscode.commands.executeCommand("setContext", "cbam.serverRunning", e.newState === State.Running);
    if (client !== c) {
      return;
    }
    if (e.newState === State.Stopped) {
      serverProblem = "the cbam server stopped; run 'cbam: Restart Server' (details in the cbam output)";
    } else if (e.newState === State.Running) {
      serverProblem = undefined;  // restarted after a crash
    }
    docStates.clear();  // a new server says again what it knows
    refreshStatus();
  });
  return c;
}

async function startClient(context: vscode.ExtensionContext): Promise<void> {
  serverProblem = undefined;
  starting = true;
  refreshStatus();
  try {
    let launched = await (early ?? launch(context.extensionPath, false));
    early = undefined;
    for (;;) {
      for (const note of launched.notes) {
        output[note.level](note.text);
      }
      if ("failure" in launched) {
        if (launched.checked) {
          failed(launched.failure);
          return;
        }
        launched = await launch(context.extensionPath, true);
        continue;
      }
      const c = clientFor(launched.proc, context.extensionPath);
      const t0 = Date.now();
      try {
        await c.start();
      } catch (e) {
        launched.proc.kill();
        const why = e instanceof Error ? e.message : String(e);
        if (launched.checked) {
          failed(`the cbam server did not start: ${why}`);
          return;
        }
        output.warn(`the cbam server did not start (${why}); checking which Python to use`);
        launched = await launch(context.extensionPath, true);
        continue;
      }
      client = c;
      serverProcess = launched.proc;
      output.info(`cbam language server started in ${seconds(t0)} s`);
      return;
    }
  } finally {
    starting = false;
    refreshStatus();
  }
}

async function stopClient(): Promise<void> {
  const c = client;
  const proc = serverProcess;
  client = undefined;
  serverProcess = undefined;
  docStates.clear();
  if (c) {
    try {
      await c.stop();
    } catch (e) {
      output.warn(`stopping the cbam server: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  if (proc && proc.exitCode === null && proc.signalCode === null) {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => { proc.kill(); resolve(); }, 2000);
      proc.once("exit", () => { clearTimeout(timer); resolve(); });
    });
  }
}

// ---- the error-path stepper ------------------------------------------------------------
// Its decorations and its F8 / Shift+F8 / Escape bindings (context cbam.steppingErrorPath)
// exist exactly as long as the diagnostic it steps through is published.

function drawSteps(): void {
  for (const editor of vscode.window.visibleTextEditors) {
    const decos = stepper ? stepper.decorations(editor.document.uri.toString()) : [];
    const lineCount = editor.document.lineCount;
    const toOptions = (current: boolean) => decos
      .filter((d) => d.current === current && d.line < lineCount)
      .map((d) => ({ range: editor.document.lineAt(d.line).range, renderOptions: { after: { contentText: d.text } } }));
    editor.setDecorations(stepDecoration, toOptions(false));
    editor.setDecorations(currentDecoration, toOptions(true));
  }
}

function stopStepping(): void {
  if (stepper === undefined) {
    return;
  }
  stepMessage?.dispose();
  stepMessage = undefined;
  stepper = undefined;
  drawSteps();
  void vscode.commands.executeCommand("setContext", "cbam.steppingErrorPath", false);
}

function stepperStillValid(): void {
  if (stepper === undefined) {
    return;
  }
  const key = stepper.key;
  const present = vscode.languages.getDiagnostics(vscode.Uri.parse(stepperUri))
    .some((d) => d.source === "cbam" && diagnosticKey(d) === key);
  if (!present) {
    stopStepping();
  }
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
  drawSteps();
  stepMessage?.dispose();
  stepMessage = vscode.window.setStatusBarMessage(`cbam: ${stepper.label()}`, 5000);
}

function startStepping(): void {
  const editor = vscode.window.activeTextEditor;
  if (!editor) {
    return;
  }
  const diags = vscode.languages.getDiagnostics(editor.document.uri)
    .filter((d) => d.source === "cbam" && d.relatedInformation?.length);
  if (diags.length === 0) {
    vscode.window.showInformationMessage("cbam: no violation with an error path in this file.");
    return;
  }
  const pos = editor.selection.active;
  const chosen = diags.find((d) => d.range.contains(pos)) ?? diags[0];
  stepper = new ErrorPathStepper(stepsFromRelated(chosen.relatedInformation), chosen.message, diagnosticKey(chosen));
  stepperUri = editor.document.uri.toString();
  void vscode.commands.executeCommand("setContext", "cbam.steppingErrorPath", true);
  void showStep();
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  output = vscode.window.createOutputChannel("cbam", { log: true });
  output.info(`activating cbam ${context.extension.packageJSON.version}`);
  statusItem = vscode.window.createStatusBarItem("cbam.status", vscode.StatusBarAlignment.Left, 50);
  statusItem.name = "cbam";
  statusItem.command = "cbam.showOutput";
  stepDecoration = vscode.window.createTextEditorDecorationType({
    after: { color: new vscode.ThemeColor("editorCodeLens.foreground"), margin: "0 0 0 1em" },
  });
  currentDecoration = vscode.window.createTextEditorDecorationType({
    backgroundColor: new vscode.ThemeColor("editor.rangeHighlightBackground"),
    after: { color: new vscode.ThemeColor("editorError.foreground"), margin: "0 0 0 1em" },
  });
  context.subscriptions.push(output, statusItem, stepDecoration, currentDecoration);
  const reg = (name: string, fn: (...args: any[]) => unknown) => {
    if (SERVER_COMMANDS.has(name)) {
      throw new Error(`${name} belongs to the server`);
    }
    context.subscriptions.push(vscode.commands.registerCommand(name, fn));
  };
  reg("cbam.restartServer", async () => {
    stopStepping();
    await stopClient();
    await startClient(context);
  });
  reg("cbam.showOutput", () => output.show());
  reg("cbam.showErrorPath", startStepping);
  reg("cbam.nextStep", () => { stepper?.next(); void showStep(); });
  reg("cbam.previousStep", () => { stepper?.previous(); void showStep(); });
  reg("cbam.stopErrorPath", stopStepping);
  context.subscriptions.push(
    vscode.window.onDidChangeActiveTextEditor(refreshStatus),
    vscode.window.onDidChangeVisibleTextEditors(drawSteps),
    vscode.languages.onDidChangeDiagnostics(() => {
      stepperStillValid();
      refreshStatus();
    }),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration("cbam.interpreter") || e.affectsConfiguration("cbam.serverCommand")) {
        void vscode.commands.executeCommand("cbam.restartServer");
      }
    }),
  );
  void vscode.commands.executeCommand("setContext", "cbam.serverRunning", false);
  await startClient(context);
}

export async function deactivate(): Promise<void> {
  await stopClient();
}
