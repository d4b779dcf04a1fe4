// The spec's `prompts:` (MCP prompts): rules beyond kervan.schema.json, and the normalized form.
// Names are unique among prompts and among a prompt's arguments; every `{placeholder}` in a message
// (or an asked question) names an argument of its prompt; a message gives exactly one of text and
// resource or image; an asked argument is one of the prompt's own, optional (a required one is never left out to
// be asked), with its own input request id. The check stage reports; normalize reads the same data.
import type { Json } from "../../templates/runtime/types.js";
import type { Diagnostic } from "../model/diagnostic.js";
import type { PromptIR, ToolIR } from "../model/ir.js";
import type { LoadedSpec } from "../model/spec.js";
import { at } from "./locate.js";
import { checkList } from "./list-entries.js";
import { placeholders } from "./task-confirm.js";
import { isObject } from "../shared/object.js";
import { checkCompletion, completionOf } from "./resource-templates.js";
import type { CompletionDef } from "../../templates/runtime/types.js";

type Obj = Record<string, Json>;

function argumentsOf(prompt: Obj): Obj[] {
  return Array.isArray(prompt.arguments) ? prompt.arguments.filter(isObject) : [];
}

function question(entry: Json | undefined): { message: string; inputKey?: string } | undefined {
  if (typeof entry === "string") return { message: entry };
  if (isObject(entry) && typeof entry.message === "string") return { message: entry.message, ...(typeof entry.inputKey === "string" ? { inputKey: entry.inputKey } : {}) };
  return undefined;
}

function checkTemplate(spec: LoadedSpec, text: Json | undefined, names: Set<string>, what: string, pointer: string, out: Diagnostic[]): void {
  if (typeof text !== "string") return;
  for (const name of new Set(placeholders(text))) {
    if (names.has(name)) continue;
    const known = [...names].sort();
    out.push(at(spec, "KV703", `${what} uses {${name}}, which is not an argument of this prompt${known.length ? ` (arguments: ${known.join(", ")})` : " (it declares none)"}; write {{ and }} for literal braces`, pointer));
  }
}

function checkPrompt(spec: LoadedSpec, prompt: Obj, pointer: string, out: Diagnostic[]): void {
  const names = new Set<string>();
  argumentsOf(prompt).forEach((arg, i) => {
    checkCompletion(spec, arg.complete, `${pointer}/arguments/${i}/complete`, out);
    if (typeof arg.name !== "string") return;
    if (names.has(arg.name)) out.push(at(spec, "KV702", `argument '${arg.name}' is declared twice in this prompt`, `${pointer}/arguments/${i}/name`));
    names.add(arg.name);
  });
  const messages = Array.isArray(prompt.messages) ? prompt.messages : [];
  messages.forEach((m, i) => {
    if (!isObject(m)) return;
    const where = `${pointer}/messages/${i}`;
    const given = ["text", "resource", "image"].filter((k) => m[k] !== undefined);
    if (given.length !== 1) out.push(at(spec, "KV704", `a message gives exactly one of text, resource and image; this one gives ${given.length ? given.join(" and ") : "none"}`, where));
    checkTemplate(spec, m.text, names, "the message text", `${where}/text`, out);
    if (isObject(m.resource)) {
      checkTemplate(spec, m.resource.uri, names, "the resource URI", `${where}/resource/uri`, out);
      checkTemplate(spec, m.resource.text, names, "the resource text", `${where}/resource/text`, out);
    }
  });
  if (!isObject(prompt.ask)) return;
  const keys = new Map<string, string>();
  for (const [field, entry] of Object.entries(prompt.ask)) {
    const where = `${pointer}/ask/${field}`;
    const q = question(entry);
    if (!q) continue; // the spec schema has said so
    const arg = argumentsOf(prompt).find((a) => a.name === field);
    if (!arg) {
      out.push(at(spec, "KV705", `'${field}' is asked for, but it is not an argument of this prompt${names.size ? ` (arguments: ${[...names].sort().join(", ")})` : ""}`, where, { atKey: true }));
      continue;
    }
    if (arg.required === true) out.push(at(spec, "KV706", `'${field}' is asked for when the caller leaves it out, but it is a required argument, so it is never left out: drop required`, where, { atKey: true }));
    const key = q.inputKey ?? field;
    const first = keys.get(key);
    if (first !== undefined) out.push(at(spec, "KV707", `'${field}' is asked with input request id '${key}', which '${first}' already uses`, where, { atKey: true }));
    else keys.set(key, field);
    checkTemplate(spec, q.message, names, "the question", where, out);
  }
}

export function checkPrompts(spec: LoadedSpec, prompts: unknown, whole: (pointer: string) => boolean, out: Diagnostic[]): void {
  const check = (prompt: Obj, pointer: string) => checkPrompt(spec, prompt, pointer, out);
  checkList(spec, prompts, { list: "prompts", key: "name", label: "prompt name", code: "KV701", check }, whole, out);
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
