// Rules for `task:` and `confirm:` on a tool: both need a tool that does something (exec, http), and a
// confirmation message may only name the tool's own input properties.
import type { Json } from "../../templates/runtime/types.js";
import type { RawTool, RuleContext } from "../kinds/types.js";

const PLACEHOLDER = /\{\{|\}\}|\{([A-Za-z_][A-Za-z0-9_.-]*)\}/g;

/** The `{field}` names a message uses. */
export function placeholders(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(PLACEHOLDER)) if (m[1] !== undefined) out.push(m[1]);
  return out;
}

/** The tool's argument names: its input schema's properties, or (an exec tool without one) its argv placeholders. */
function argumentNames(tool: RawTool): Set<string> | undefined {
  const input = tool.input as Json | undefined;
  if (input && typeof input === "object" && !Array.isArray(input)) {
    const props = input.properties;
    return new Set(props && typeof props === "object" && !Array.isArray(props) ? Object.keys(props) : []);
  }
  const exec = tool.exec as Json | undefined;
  if (input === undefined && exec && typeof exec === "object" && !Array.isArray(exec) && Array.isArray(exec.argv)) {
    return new Set(exec.argv.flatMap((a) => (typeof a === "string" ? placeholders(a) : [])));
  }
  return undefined; // an @file input: its properties are checked where the file is read
}

export function checkTaskAndConfirm(tool: RawTool, kind: string, ctx: RuleContext): void {
  const wantsTask = tool.task !== undefined && tool.task !== "forbidden";
  for (const [key, used] of [["task", wantsTask], ["confirm", tool.confirm !== undefined]] as const) {
    if (used && kind !== "exec" && kind !== "http") {
      ctx.report("KV433", `'${key}' applies to exec and http tools; a ${kind} tool answers at once and changes nothing`, `${ctx.pointer}/${key}`);
    }
  }
  const confirm = tool.confirm as Json | undefined;
  const message = typeof confirm === "string" ? confirm : confirm && typeof confirm === "object" && !Array.isArray(confirm) && typeof confirm.message === "string" ? confirm.message : undefined;
  if (message === undefined) return;
  const names = argumentNames(tool);
  if (!names) return;
  const where = typeof confirm === "string" ? `${ctx.pointer}/confirm` : `${ctx.pointer}/confirm/message`;
  for (const field of new Set(placeholders(message))) {
    if (!names.has(field)) {
      const known = [...names].sort();
      ctx.report("KV434", `the confirmation message uses {${field}}, which is not an input property of this tool${known.length ? ` (properties: ${known.join(", ")})` : ""}`, where);
    }
  }
}
