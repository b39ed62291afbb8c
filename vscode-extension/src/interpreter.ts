// Which Python runs `cbam lsp`: the cbam.interpreter setting, then the Python extension's
// active environment, then python3. Kept free of the vscode module so it is unit-tested.

export interface InterpreterSources {
  setting(): string | undefined;
  pythonExtension(): Promise<string | undefined>;
  fallback: string;
}

export interface Resolved {
  command: string;
  source: "setting" | "python-extension" | "default";
}

export async function resolveInterpreter(src: InterpreterSources): Promise<Resolved> {
  const configured = (src.setting() ?? "").trim();
  if (configured !== "") {
    return { command: configured, source: "setting" };
  }
  try {
    const fromExt = await src.pythonExtension();
    if (fromExt && fromExt.trim() !== "") {
      return { command: fromExt, source: "python-extension" };
    }
  } catch {
    // The Python extension is optional; when it fails we fall back.
  }
  return { command: src.fallback, source: "default" };
}

export function installAdvice(python: string): string {
  return [
    `cbam is not installed for ${python}.`,
    `Install it with:  ${python} -m pip install cbam`,
    `or, from a checkout of cbam:  ${python} -m pip install -e /path/to/cbam`,
    `or point the setting "cbam.interpreter" at a virtual environment's python that has cbam,`,
    `for example /path/to/project/.venv/bin/python.`,
  ].join("\n");
}
