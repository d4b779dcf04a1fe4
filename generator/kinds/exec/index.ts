// The exec tool kind: a fixed local command run directly, with argv templates.
import type { Json } from "../../../templates/runtime/types.js";
import type { ToolKind } from "../types.js";
import { checkExec } from "./check.js";
import { emitExec } from "./emit.js";
import { normalizeExec, type ExecIRConfig } from "./normalize.js";
import { execSchema } from "./schema.js";

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
    return {
      command: c.argv[0].join(""),
      argv: c.argv.map(render),
      env: [...c.env.pass, ...Object.keys(c.env.set)].sort(),
      shell: ["sh", "bash", "zsh", "dash", "cmd", "powershell", "pwsh"].includes(c.argv[0].join("").split("/").pop() ?? ""),
    } as Record<string, Json>;
  },
};
