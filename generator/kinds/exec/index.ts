// The exec tool kind: a fixed local command run directly, with argv templates.
import type { Json } from "../../../templates/runtime/types.js";
import type { ToolKind } from "../types.js";
import { checkExec } from "./check.js";
import { emitExec } from "./emit.js";
import { normalizeExec, type ExecIRConfig } from "./normalize.js";
import { execSchema } from "./schema.js";

const SHELLS = ["sh", "bash", "zsh", "dash", "ksh", "fish", "cmd", "powershell", "pwsh"];

export const execKind: ToolKind = {
  key: "exec",
  schema: execSchema,
  needsDescription: false,
  check: checkExec,
  normalize: normalizeExec,
  emit: emitExec,
  facts(tool) {
    const c = tool.config as unknown as ExecIRConfig;
    const render = (arg: ExecIRConfig["argv"][number]) => arg.map((p) => (typeof p === "string" ? p.replace(/[{}]/g, (b) => b + b) : `{${p.field}}`)).join("");
    const command = c.argv[0].join("");
    return {
      command,
      argv: c.argv.map(render),
      shell: SHELLS.includes(command.split("/").pop() ?? ""),
      cwd: c.cwd ?? ".",
      // null: no argument is a path, so no filesystem policy applies to this tool.
      paths: c.paths ?? null,
      // Read from the server's environment: PATH always (the runtime passes it on), plus env.pass.
      env: [...new Set(["PATH", ...c.env.pass])].sort(),
      envSet: c.env.set,
      limits: {
        timeoutMs: c.timeoutMs,
        killGraceMs: c.killGraceMs,
        maxOutputBytes: c.maxOutputBytes,
        concurrency: c.concurrency,
        queue: c.queue,
        rateLimit: c.rateLimit ?? null,
      },
    } as Record<string, Json>;
  },
};
