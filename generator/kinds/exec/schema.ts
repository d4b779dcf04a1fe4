// The exec block of a tool entry, as a fragment of kervan.schema.json.
import type { Json } from "../../../templates/runtime/types.js";
import { RUN_LATER } from "../../../templates/kinds/exec/run-later.js";

const positiveInt = (description: string): Record<string, Json> => ({ type: "integer", minimum: 1, description });

export const execSchema: Record<string, Json> = {
  type: "object",
  description: "Run a fixed local command directly (no shell). Placeholders {field} render one validated input value inside one argument.",
  additionalProperties: false,
  required: ["argv"],
  properties: {
    argv: {
      type: "array",
      minItems: 1,
      // One type list rather than anyOf: a stray number gets one diagnostic (with its YAML hint), not three.
      items: {
        type: ["string", "object"],
        additionalProperties: false,
        required: ["if", "argv"],
        properties: {
          if: { type: "string", minLength: 1, description: "An optional input field: a boolean, or a scalar the group's arguments render." },
          argv: { type: "array", minItems: 1, items: { type: "string" }, description: "The arguments the group adds, in order." },
        },
      },
      description: "The command, then its argument templates. `{field}` inserts an input field; `{{` and `}}` are literal braces. An entry `{if: field, argv: [...]}` adds its arguments only when the optional field is true (boolean) or present.",
    },
    okExitCodes: {
      type: "array",
      minItems: 1,
      uniqueItems: true,
      items: { type: "integer", minimum: 0, maximum: 255 },
      description: "Exit statuses that are normal results, not tool errors (default [0]; grep's 1 means no match).",
    },
    sandbox: {
      enum: ["bubblewrap", "none"],
      description: "The OS sandbox for the command and every descendant (default: the server's `sandbox`, else bubblewrap). `none` must be written out; the lint warns about it.",
    },
    visible: { type: "array", items: { type: "string", minLength: 1 }, description: "Read-only roots the sandbox shows besides the working directory and path allow roots." },
    writable: { type: "array", items: { type: "string", minLength: 1 }, description: "Roots the sandboxed command may write (default: none; a private /tmp always)." },
    network: { type: "boolean", description: "Whether the sandboxed command reaches the network (default false)." },
    processes: { type: "integer", minimum: 8, maximum: 1000000, description: "Processes and threads a sandboxed call may run at once (default 256)." },
    fileSizeBytes: positiveInt("Largest file a sandboxed call may write, in bytes (default 1 GiB)."),
    cpuSeconds: positiveInt("CPU seconds each process of a sandboxed call may use (default 600)."),
    memoryBytes: {
      type: "integer",
      minimum: 16777216,
      description: "Memory a sandboxed call may use, in bytes (default 2 GiB): the call's cgroup limit (all its processes and its /tmp) where the server can make one (as root), else each process's address space (RLIMIT_AS).",
    },
    tmpBytes: { type: "integer", minimum: 1048576, description: "Size of a sandboxed call's private /tmp, in bytes (default 256 MiB)." },
    writableRunLater: {
      type: "array",
      uniqueItems: true,
      items: { enum: [...RUN_LATER] },
      description: "Run-later paths (.git, .envrc, .vscode, node_modules/.bin, ...) the writable roots leave writable; by default each stays read-only, since what is planted there runs later outside the sandbox. The lint warns (KV332).",
    },
    cwd: { type: "string", description: "Working directory; relative paths resolve against the server's working directory at startup." },
    env: {
      type: "object",
      additionalProperties: false,
      description: "The child's environment: nothing is inherited but PATH and the variables named in pass.",
      properties: {
        pass: { type: "array", items: { type: "string", pattern: "^[A-Za-z_][A-Za-z0-9_]*$" }, description: "Variables copied from the server's environment." },
        set: { type: "object", additionalProperties: { type: "string" }, description: "Variables set to fixed values." },
      },
    },
    timeoutMs: positiveInt("Kill the whole process group after this many milliseconds (SIGTERM, then SIGKILL)."),
    killGraceMs: positiveInt("Milliseconds between SIGTERM and SIGKILL."),
    maxOutputBytes: positiveInt("Bytes kept from each of stdout and stderr; the rest is read and discarded."),
    stdoutMedia: {
      type: "string",
      pattern: "^(image|audio)/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}$",
      description: "stdout is an image or audio of this media type (image/png, audio/wav ...): a successful run returns its bytes as one base64 image or audio content block, at most maxOutputBytes (more is a tool error), and structuredContent's stdout is empty.",
    },
    outputFiles: {
      type: "array",
      minItems: 1,
      maxItems: 20,
      description: "Files the command writes into its per-call output directory ($KERVAN_OUTPUT_DIR: a fresh directory, writable inside the sandbox, removed after the call): after a successful run each is returned, in this order, as an embedded resource (kervan-output:///<tool>/<path>) of its media type, as text for textual types that are UTF-8, else as a base64 blob. A symbolic link or anything but a regular file there is a tool error, never followed.",
      items: {
        type: "object",
        additionalProperties: false,
        required: ["path", "mimeType"],
        properties: {
          path: { type: "string", minLength: 1, maxLength: 512, description: "The file's path relative to the output directory (report.md, charts/a.png): no absolute path, no `..`." },
          mimeType: { type: "string", pattern: "^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,63}/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}$", description: "Its media type (text/markdown, image/png, application/pdf ...)." },
          missing: { enum: ["error", "omit"], description: "When the command did not write it: `error` (default) makes the call a tool error, `omit` leaves it out of the result." },
          maxBytes: { type: "integer", minimum: 0, maximum: 1073741824, description: "Largest size of this file (default maxOutputBytes); a larger one is a tool error." },
        },
      },
    },
    outputFilesMaxBytes: { type: "integer", minimum: 0, maximum: 2147483648, description: "Largest size of all output files of one call together (default 8 MiB); more is a tool error." },
    concurrency: positiveInt("Calls of this tool running at once."),
    progressIntervalMs: { type: "integer", minimum: 0, description: "While the command runs, report progress this often to callers that ask for it (default 1000; 0 never)." },
    queue: { type: "integer", minimum: 0, description: "Calls that may wait for a free slot (within their timeout); past it a call is refused as busy. 0 refuses at once." },
    rateLimit: {
      type: "object",
      additionalProperties: false,
      required: ["calls", "windowMs"],
      description: "At most `calls` invocations per `windowMs`.",
      properties: { calls: positiveInt("Calls admitted per window."), windowMs: positiveInt("Window length in milliseconds.") },
    },
    paths: {
      type: "object",
      additionalProperties: false,
      required: ["fields"],
      description: "Filesystem policy: the named fields are paths that must resolve (symlinks followed) inside an allowed root and outside every denied path.",
      properties: {
        fields: { type: "array", minItems: 1, items: { type: "string" }, description: "Input fields that are paths; each must be a whole argument." },
        allow: { type: "array", items: { type: "string" }, description: "Allowed roots (default: the working directory)." },
        deny: { type: "array", items: { type: "string" }, description: "Denied paths and everything under them; they win over roots." },
      },
    },
  },
};

/** An argument group as the schema accepts it. */
export type ArgGroupBlock = { if: string; argv: string[] };

/** The spec's `exec:` block, as `execSchema` accepts it. */
export type ExecBlock = {
  argv: (string | ArgGroupBlock)[];
  okExitCodes?: number[];
  sandbox?: "bubblewrap" | "none";
  visible?: string[];
  writable?: string[];
  network?: boolean;
  processes?: number;
  fileSizeBytes?: number;
  cpuSeconds?: number;
  memoryBytes?: number;
  tmpBytes?: number;
  writableRunLater?: string[];
  cwd?: string;
  env?: { pass?: string[]; set?: Record<string, string> };
  timeoutMs?: number;
  killGraceMs?: number;
  maxOutputBytes?: number;
  stdoutMedia?: string;
  outputFiles?: { path: string; mimeType: string; missing?: "error" | "omit"; maxBytes?: number }[];
  outputFilesMaxBytes?: number;
  concurrency?: number;
  progressIntervalMs?: number;
  queue?: number;
  rateLimit?: { calls: number; windowMs: number };
  paths?: { fields: string[]; allow?: string[]; deny?: string[] };
};
