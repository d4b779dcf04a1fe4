// The exec tool kind: a fixed local command run directly, with argv templates.
import type { Json } from "../../../templates/runtime/types.js";
import { code, names } from "../../shared/markdown.js";
import { shellUse } from "../../shared/shells.js";
import { sortedUnique } from "../../shared/order.js";
import { isObject, stringsOf } from "../../shared/object.js";
import { defineKind } from "../types.js";
import { checkExec } from "./check.js";
import { emitExec } from "./emit.js";
import { mutation } from "./mutation.js";
import { normalizeExec, type ExecIRConfig } from "./normalize.js";
import { EXEC_CODES } from "./codes.js";
import { execSchema, type ExecBlock } from "./schema.js";
import { RUN_LATER } from "../../../templates/kinds/exec/run-later.js";
import { SANDBOX_DEFAULTS } from "../../../templates/kinds/exec/sandbox.js";
import { flatArgs, isGroup, parseArgTemplate, placeholderNames, type ArgEntry, type ArgPart } from "./template.js";

declare module "../../model/ir.js" {
  interface KindConfigs {
    exec: ExecIRConfig;
  }
}

export type SandboxFacts =
  | { enforcedBy: "none" }
  | {
      enforcedBy: "bubblewrap";
      visible: string[];
      writable: string[];
      masked: string[];
      /** Run-later paths left writable by the spec (`writableRunLater`); every other one stays read-only. */
      runLaterWritable: string[];
      network: boolean;
      limits: { processes: number; fileSizeBytes: number; cpuSeconds: number; memoryBytes: number; tmpBytes: number };
    };

export type ExecArgFact = string | { if: string; argv: string[] };

export type ExecFacts = {
  sandbox: SandboxFacts;
  okExitCodes: number[];
  command: string;
  argv: ExecArgFact[];
  cwd: string;
  paths: { fields: string[]; allow: string[]; deny: string[] } | null;
  env: string[];
  envSet: Record<string, string>;
  /** Present when stdout is returned as an image or audio block of this media type. */
  stdoutMedia?: string;
  /** Present when the command's declared output files are returned as embedded resources. */
  outputFiles?: { files: NonNullable<ExecIRConfig["outputFiles"]>; totalMaxBytes: number };
  limits: Record<string, Json>;
};

const argText = (arg: ArgPart[]) => arg.map((p) => (typeof p === "string" ? p : `{${p.field}}`)).join("");
const oneTemplate = (arg: ArgPart[]) => arg.map((p) => (typeof p === "string" ? p.replace(/[{}]/g, (b) => b + b) : `{${p.field}}`)).join("");
/** An argv entry in the spec's own form: a template, or `{if, argv}` for a conditional group. */
const argTemplate = (e: ArgEntry): ExecArgFact => (isGroup(e) ? { if: e.if, argv: e.argv.map(oneTemplate) } : oneTemplate(e));
/** What the operating system enforces, in the spec's own terms (roots relative to the tool's cwd). */
export function sandboxFacts(c: ExecIRConfig): SandboxFacts {
  const s = c.sandbox;
  if (s.mode === "none") return { enforcedBy: "none" };
  const writable = s.writable ?? [];
  return {
    enforcedBy: "bubblewrap",
    visible: sortedUnique([c.cwd ?? ".", ...(c.paths?.allow ?? []), ...(s.visible ?? []), ...writable]),
    writable,
    masked: c.paths?.deny ?? [],
    runLaterWritable: s.writableRunLater ?? [],
    network: s.network === true,
    limits: { processes: s.processes!, fileSizeBytes: s.fileSizeBytes!, cpuSeconds: s.cpuSeconds!, memoryBytes: s.memoryBytes!, tmpBytes: s.tmpBytes! },
  };
}

// Read from the server's environment: PATH always (the runtime passes it on), plus env.pass.
const envRead = (c: ExecIRConfig) => sortedUnique(["PATH", ...c.env.pass]);

export const execKind = defineKind<ExecBlock, ExecIRConfig, ExecFacts>({
  key: "exec",
  schema: execSchema,
  codes: EXEC_CODES,
  docs: "README.md#exec-tools",
  needsDescription: false,
  tasks: true,
  impliedInputs(tool) {
    const argv: unknown = isObject(tool.exec) ? tool.exec.argv : undefined;
    if (!Array.isArray(argv)) return undefined;
    // Malformed templates are reported by the exec rules (KV301); the rest name the arguments.
    const parsed = argv.map((a) => (typeof a === "string" ? parseArgTemplate(a) : { error: "" }));
    const groups = argv.filter((a): a is { if: string; argv: unknown } => !!a && typeof a === "object" && typeof a.if === "string");
    const inner = groups.flatMap((g) => (Array.isArray(g.argv) ? g.argv.map((a) => (typeof a === "string" ? parseArgTemplate(a) : { error: "" })) : []));
    const names = placeholderNames([...parsed, ...inner].flatMap((r): ArgPart[][] => ("parts" in r ? [r.parts] : [])));
    return [...new Set([...names, ...groups.map((g) => g.if)])];
  },
  runtime: { dir: "templates/kinds/exec" },
  // A resource read or a completion serves what the command printed, not the run's report.
  resourceReads: { textFrom: "stdout" },
  serverProperties: {
    sandbox: { enum: ["bubblewrap", "none"], description: "Default OS sandbox of the server's exec tools (bubblewrap when absent); a tool's own `exec.sandbox` wins." },
  },
  check: checkExec,
  normalize: normalizeExec,
  emit: emitExec,
  effects({ config: c }) {
    const argv = flatArgs(c.argv).map(argText);
    const changes = mutation(argv, c.outputFiles !== undefined);
    const sandbox = sandboxFacts(c);
    return {
      commands: [argv[0]],
      hosts: [],
      env: envRead(c),
      secrets: [],
      shell: shellUse(argv) !== undefined,
      // A local command reads and may write files; outside the sandbox wherever the server may, and
      // it connects wherever the server may unless the sandbox keeps it off the network.
      filesystem: true,
      network: sandbox.enforcedBy === "none" || sandbox.network,
      ...(sandbox.enforcedBy === "none"
        ? {}
        : { confined: { by: sandbox.enforcedBy, visible: sandbox.visible, writable: sandbox.writable, ...(sandbox.runLaterWritable.length ? { runLaterWritable: sandbox.runLaterWritable } : {}) } }),
      pathRoots: c.paths?.allow ?? [],
      pathDenied: c.paths?.deny ?? [],
      ...(changes ? { changes } : {}),
    };
  },
  facts({ config: c }) {
    return {
      sandbox: sandboxFacts(c),
      okExitCodes: c.okExitCodes,
      command: flatArgs(c.argv)[0].join(""),
      argv: c.argv.map(argTemplate),
      cwd: c.cwd ?? ".",
      // null: no argument is a path, so no filesystem policy applies to this tool.
      paths: c.paths ?? null,
      env: envRead(c),
      envSet: c.env.set,
      ...(c.stdoutMedia ? { stdoutMedia: c.stdoutMedia } : {}),
      ...(c.outputFiles ? { outputFiles: { files: c.outputFiles, totalMaxBytes: c.outputFilesMaxBytes! } } : {}),
      limits: {
        timeoutMs: c.timeoutMs,
        killGraceMs: c.killGraceMs,
        maxOutputBytes: c.maxOutputBytes,
        concurrency: c.concurrency,
        queue: c.queue,
        rateLimit: c.rateLimit ?? null,
      },
    };
  },
  factLabels: {
    sandbox: "Enforced by the operating system (sandbox)",
    okExitCodes: "Exit statuses that are results",
    command: "Command",
    argv: "Argument template (argv)",
    cwd: "Working directory",
    paths: "Enforced by argument checks (path arguments)",
    env: "Environment variables read",
    envSet: "Environment variables set",
    stdoutMedia: "Returns stdout as (base64 content block)",
    outputFiles: "Returns files it writes (embedded resources)",
    limits: "Limits",
  },
  renderFact(key, v) {
    if (key === "argv") return code(JSON.stringify(v));
    if (key === "okExitCodes") return (Array.isArray(v) ? v : []).map(String).join(", ");
    if (key === "sandbox") {
      const f = v as SandboxFacts;
      if (f.enforcedBy === "none") return "**none**: the command and its descendants reach whatever the server's user can, and a SIGKILL of the server leaves them running (`sandbox: none`)";
      const l = f.limits;
      const kept = RUN_LATER.filter((n) => !(f.runLaterWritable ?? []).includes(n));
      return [
        `bubblewrap, for the command and every descendant: visible read-only ${names(f.visible)} plus /usr, /bin, /lib* and a few /etc files`,
        `writable ${f.writable.length ? names(f.writable) + " and " : ""}a private /tmp of ${l.tmpBytes ?? SANDBOX_DEFAULTS.tmpBytes} bytes`,
        ...(f.writable.length ? [`read-only in the writable roots: ${names(kept)}${f.runLaterWritable?.length ? `; **left writable** ${names(f.runLaterWritable)}` : ""} (run-later paths)`] : []),
        `masked ${f.masked.length ? names(f.masked) + " (their folders in writable roots cannot be renamed)" : "none"}`,
        `network ${f.network ? "**on** (the host's loopback services, this server's own HTTP endpoint and abstract unix sockets included)" : "off"}`,
        `own PID namespace (descendants die with the call)`,
        `no privilege on Linux: an unprivileged uid, no capabilities, no-new-privileges, no setuid/setgid file or device node can be made`,
        `limits on Linux: ${l.processes} processes, ${l.fileSizeBytes} bytes per file, ${l.cpuSeconds} CPU seconds per process, ${l.memoryBytes ?? SANDBOX_DEFAULTS.memoryBytes} bytes of memory (per call as root with a memory cgroup, else per process)`,
      ].join("; ");
    }
    if (key === "paths") {
      if (v === null) return "none (no argument is a path)";
      const p = isObject(v) ? v : {};
      return `path fields ${names(stringsOf(p.fields) ?? [])}; allowed roots ${names(stringsOf(p.allow) ?? [])}; denied ${names(stringsOf(p.deny) ?? [])}`;
    }
    if (key === "outputFiles") {
      const o = v as NonNullable<ExecFacts["outputFiles"]>;
      const each = o.files.map((f) => `${code(f.path)} (${f.mimeType}, at most ${f.maxBytes} bytes, ${f.missing === "omit" ? "left out when missing" : "a tool error when missing"})`);
      return `${each.join(", ")}; at most ${o.totalMaxBytes} bytes together; read after a successful run from the call's own fresh directory ${code("$KERVAN_OUTPUT_DIR")} (writable in the sandbox, removed after the call); a symbolic link or anything but a regular file there is a tool error, never followed`;
    }
    if (key === "envSet" && v && typeof v === "object" && !Array.isArray(v)) {
      const entries = Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      return entries.length ? entries.map(([k, x]) => code(`${k}=${String(x)}`)).join(", ") : "none";
    }
    return undefined;
  },
});
