// A checked prompt read into its IR (normalize), and the readers of a prompt the check shares.
import type { CompletionDef, Json } from "../../templates/runtime/types.js";
import type { PromptIR, ToolIR } from "../model/ir.js";
import type { LoadedSpec } from "../model/spec.js";
import { isObject } from "../shared/object.js";
import { completionOf } from "./resource-templates.js";

type Obj = Record<string, Json>;

export function argumentsOf(prompt: Obj): Obj[] {
  return Array.isArray(prompt.arguments) ? prompt.arguments.filter(isObject) : [];
}

export function question(entry: Json | undefined): { message: string; inputKey?: string } | undefined {
  if (typeof entry === "string") return { message: entry };
  if (isObject(entry) && typeof entry.message === "string") return { message: entry.message, ...(typeof entry.inputKey === "string" ? { inputKey: entry.inputKey } : {}) };
  return undefined;
}

/** The checked prompts, normalized (sorted by the caller). */
export function promptIR(spec: LoadedSpec, prompt: Obj, index: number, tools: ToolIR[] = []): PromptIR {
  const args = argumentsOf(prompt).map((a) => ({
    name: String(a.name),
    ...(typeof a.description === "string" ? { description: a.description } : {}),
    required: a.required === true,
  }));
  const complete: Record<string, CompletionDef> = {};
  for (const a of argumentsOf(prompt)) {
    const c = completionOf(a.complete, tools);
    if (c && typeof a.name === "string") complete[a.name] = c;
  }
  const ask: NonNullable<PromptIR["ask"]> = [];
  for (const [field, entry] of Object.entries(isObject(prompt.ask) ? prompt.ask : {})) {
    const q = question(entry);
    const arg = args.find((a) => a.name === field);
    if (!q || !arg) continue;
    ask.push({ field, message: q.message, schema: { type: "string", ...(arg.description !== undefined ? { description: arg.description } : {}) }, ...(q.inputKey !== undefined ? { inputKey: q.inputKey } : {}) });
  }
  const messages = (Array.isArray(prompt.messages) ? prompt.messages : []).map((m, j): PromptIR["messages"][number] => {
    if (!isObject(m)) throw new Error("a checked prompt message is an object");
    const role = m.role === "assistant" ? "assistant" : "user";
    const image = spec.images?.[`/prompts/${index}/messages/${j}/image`];
    if (image) return { role, content: { type: "image", data: image.data, mimeType: image.mimeType } };
    if (isObject(m.resource)) {
      const r = m.resource;
      return { role, content: { type: "resource", resource: { uri: String(r.uri), ...(typeof r.mimeType === "string" ? { mimeType: r.mimeType } : {}), text: String(r.text) } } };
    }
    return { role, content: { type: "text", text: String(m.text) } };
  });
  return {
    name: String(prompt.name),
    ...(typeof prompt.title === "string" ? { title: prompt.title } : {}),
    ...(typeof prompt.description === "string" ? { description: prompt.description } : {}),
    arguments: args,
    messages,
    ...(ask.length ? { ask } : {}),
    ...(Object.keys(complete).length ? { complete } : {}),
    origin: { file: spec.file, pointer: `/prompts/${index}` },
  };
}
