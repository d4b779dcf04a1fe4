// `ask:` on a tool: inputs asked for when the caller leaves them out: from the user (one form
// elicitation each, the default), from the client's model (`sample:`, a sampling/createMessage prompt)
// or from the client's roots (`roots: true`). Each asked field must be an optional property of the
// input schema (inline or read from its @file) that an elicitation form can carry (form-schema.ts); the
// form's schema is that property's, cut to what forms know. Asked inputs sharing an inputKey are asked
// in one form (task-confirm.ts checks they are all forms with one message). A sampled or roots input is
// a string (the model's text; the first root's path). `optional: true`: a client that cannot be asked
// (it did not declare the capability) is served without it. The check stage reports; normalize keeps
// the result.
import type { Json } from "../../templates/runtime/types.js";
import type { RawTool, RuleContext } from "../kinds/types.js";
import type { ToolIR } from "../model/ir.js";
import { isObject } from "../shared/object.js";
import { formSchema } from "./form-schema.js";

/** Where an ask entry's answer comes from, and its text (the question or the sampling prompt). */
function source(entry: Json | undefined): { from?: "sampling" | "roots"; message: string } | undefined {
  if (typeof entry === "string") return { message: entry };
  if (!isObject(entry)) return undefined;
  if (typeof entry.message === "string") return { message: entry.message };
  if (typeof entry.sample === "string") return { from: "sampling", message: entry.sample };
  if (entry.roots === true) return { from: "roots", message: "" };
  return undefined;
}

/** The text an ask entry shows with `{field}` placeholders: its question or sampling prompt. */
export function askText(entry: Json | undefined): string | undefined {
  const src = source(entry);
  return src && src.from !== "roots" ? src.message : undefined;
}

export function resolveAsk(tool: RawTool, inputSchema: Record<string, Json>, ctx: RuleContext): ToolIR["ask"] {
  const raw: Json | undefined = tool.ask;
  if (!isObject(raw)) return undefined;
  const props = isObject(inputSchema.properties) ? inputSchema.properties : {};
  const required = Array.isArray(inputSchema.required) ? inputSchema.required : [];
  const out: NonNullable<ToolIR["ask"]> = [];
  for (const [field, entry] of Object.entries(raw)) {
    const where = `${ctx.pointer}/ask/${field}`;
    const src = source(entry);
    if (src === undefined) continue; // the spec schema has said so
    if (!Object.hasOwn(props, field)) {
      const known = Object.keys(props).sort();
      ctx.report("KV435", `'${field}' is asked for, but it is not an input property of this tool${known.length ? ` (properties: ${known.join(", ")})` : ""}`, where);
      continue;
    }
    if (required.includes(field)) {
      ctx.report("KV436", `'${field}' is asked for when the caller leaves it out, but the input schema requires it, so it is never left out: drop it from required`, where);
      continue;
    }
    const prop = props[field];
    if (src.from && !(isObject(prop) && prop.type === "string")) {
      const what = src.from === "sampling" ? "the text the client's model answers" : "the path (or file:// URI) of the client's first root";
      ctx.report("KV440", `'${field}' is asked from ${src.from === "sampling" ? "sampling" : "roots"}, which gives ${what}, so the input must be of type string`, where);
      continue;
    }
    const form = formSchema(prop);
    if ("why" in form) {
      ctx.report("KV437", `'${field}' cannot be asked with a form: ${form.why}; a form asks for a string, number, integer or boolean, a choice among strings or a multiple choice`, where);
      continue;
    }
    const e = isObject(entry) ? entry : {};
    out.push({
      field,
      message: src.message,
      schema: form.schema,
      ...(typeof e.inputKey === "string" ? { inputKey: e.inputKey } : {}),
      ...(src.from ? { from: src.from } : {}),
      ...(src.from === "sampling" && typeof e.maxTokens === "number" ? { maxTokens: e.maxTokens } : {}),
      ...(src.from === "sampling" && typeof e.systemPrompt === "string" ? { systemPrompt: e.systemPrompt } : {}),
      ...(e.optional === true ? { optional: true as const } : {}),
    });
  }
  return out.length ? out : undefined;
}
