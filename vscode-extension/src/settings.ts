// VS Code settings -> the server's configuration section (see server/lsp.py DEFAULTS).

export interface ExtensionSettings {
  trigger?: string;
  debounceMs?: number;
  timeout?: number;
  config?: string;
  dataModel?: string;
  entryPoints?: string[];
  cacheDir?: string;
  includePaths?: string[];
  defines?: string[];
  maxViolations?: number;
}

export interface ServerSettings {
  trigger: "save" | "change" | "manual";
  debounceMs: number;
  timeout: number;
  config: string;
  dataModel: "LP64" | "ILP32";
  entryPoints: string[];
  cacheDir: string | null;
  includePaths: string[];
  defines: string[];
  maxViolations: number;
}

const TRIGGERS: Record<string, ServerSettings["trigger"]> = {
  "open/save": "save",
  save: "save",
  change: "change",
  manual: "manual",
};

function positive(n: number | undefined, dflt: number): number {
  return typeof n === "number" && Number.isFinite(n) && n > 0 ? n : dflt;
}

export function toServerSettings(s: ExtensionSettings, workspaceFolder?: string): ServerSettings {
  const expand = (p: string) =>
    workspaceFolder ? p.replace(/\$\{workspaceFolder\}/g, workspaceFolder) : p;
  return {
    trigger: TRIGGERS[s.trigger ?? "open/save"] ?? "save",
    debounceMs: positive(s.debounceMs, 500),
    timeout: positive(s.timeout, 30),
    config: s.config && s.config !== "" ? s.config : "value+predicate",
    dataModel: s.dataModel === "ILP32" ? "ILP32" : "LP64",
    entryPoints: (s.entryPoints ?? []).filter((e) => e.trim() !== ""),
    cacheDir: s.cacheDir && s.cacheDir.trim() !== "" ? expand(s.cacheDir) : null,
    includePaths: (s.includePaths ?? []).map(expand),
    defines: s.defines ?? [],
    maxViolations: Math.round(positive(s.maxViolations, 20)),
  };
}
