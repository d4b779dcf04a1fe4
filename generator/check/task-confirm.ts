// Rules for `task:` and `confirm:` on a tool: both need a kind whose tools do work (its definition
// says `tasks: true`), and a confirmation message may only name the tool's own input properties.
import type { Json } from "../../templates/runtime/types.js";
import { allKinds } from "../kinds/index.js";
import type { AnyKind, RawTool, RuleContext } from "../kinds/types.js";

const PLACEHOLDER = /\{\{|\}\}|\{([A-Za-z_][A-Za-z0-9_.-]*)\}/g;

/** The `{field}` names a message uses. */
export function placeholders(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(PLACEHOLDER)) if (m[1] !== undefined) out.push(m[1]);
  return out;
}

/** The tool's argument names: its input schema's properties, or (without one) what its kind implies. */
function argumentNames(tool: RawTool, kind: AnyKind): Set<string> | undefined {
  const input = tool.input as Json | undefined;
  if (input && typeof input === "object" && !Array.isArray(input)) {
    const props = input.properties;
    return new Set(props && typeof props === "object" && !Array.isArray(props) ? Object.keys(props) : []);
  }
  const implied = input === undefined ? kind.impliedInputs?.(tool) : undefined;
  return implied ? new Set(implied) : undefined; // an @file input: its properties are checked where the file is read
}

export function checkTaskAndConfirm(tool: RawTool, kind: AnyKind, ctx: RuleContext): void {
  const wantsTask = tool.task !== undefined && tool.task !== "forbidden";
  const able = allKinds().filter((k) => k.tasks).map((k) => k.key);
  for (const [key, used] of [["task", wantsTask], ["confirm", tool.confirm !== undefined]] as const) {
    if (used && !kind.tasks) {
      ctx.report("KV433", `'${key}' applies to ${able.join(" and ")} tools; a ${kind.key} tool answers at once and changes nothing`, `${ctx.pointer}/${key}`);
    }
  }
  const confirm = tool.confirm as Json | undefined;
  const message = typeof confirm === "string" ? confirm : confirm && typeof confirm === "object" && !Array.isArray(confirm) && typeof confirm.message === "string" ? confirm.message : undefined;
  if (message === undefined) return;
  const names = argumentNames(tool, kind);
  if (!names) return;
  const where = typeof confirm === "string" ? `${ctx.pointer}/confirm` : `${ctx.pointer}/confirm/message`;
  for (const field of new Set(placeholders(message))) {
    if (!names.has(field)) {
      const known = [...names].sort();
      ctx.report("KV434", `the confirmation message uses {${field}}, which is not an input property of this tool${known.length ? ` (properties: ${known.join(", ")})` : ""}`, where);
    }
  }
}
