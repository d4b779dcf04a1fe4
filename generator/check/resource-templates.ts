// The spec's `resourceTemplates:` and every `complete:` (prompt arguments, template variables): rules
// beyond kervan.schema.json (the normalized forms: parts/resource-templates.ts). A uriTemplate is an RFC 6570 level 1-2 template
// of an absolute URI ({var}, {+var}, {#var}; no two expressions side by side, each variable once),
// unique in the server; it reads through an exec or http tool of the spec that runs without questions
// (no task, confirm or ask), whose inputs its variables are: each variable an input property, each
// required input a variable. A completion names a variable of its template and, when it names a tool,
// one that may serve it.
import type { Json } from "../../templates/runtime/types.js";
import type { Diagnostic } from "../model/diagnostic.js";
import type { LoadedSpec } from "../model/spec.js";
import { isObject } from "../shared/object.js";
import { at } from "../shared/locate.js";
import { checkList } from "./list-entries.js";
import { templateVariables } from "../shared/uri-template.js";
import { kindOf } from "../kinds/index.js";

type Obj = Record<string, Json>;

function toolsOf(spec: LoadedSpec): Map<string, Obj> {
  const doc = spec.doc;
  const tools = new Map<string, Obj>();
  const list: unknown = isObject<unknown>(doc) ? doc.tools : undefined;
  if (Array.isArray(list)) for (const t of list) if (isObject<Json>(t) && typeof t.name === "string" && !tools.has(t.name)) tools.set(t.name, t);
  return tools;
}

/** Why a tool cannot serve a read or a completion, if it cannot. */
function unfit(tools: Map<string, Obj>, name: string): string | undefined {
  const tool = tools.get(name);
  if (!tool) return `names tool '${name}', which this spec does not have`;
  const kind = kindOf(tool)[0];
  if (!kind?.resourceReads) return `names tool '${name}', whose kind${kind ? ` (${kind.key})` : ""} reads no content (use an exec or http tool)`;
  const asks = ["task", "confirm", "ask"].filter((k) => tool[k] !== undefined);
  if (asks.length) return `names tool '${name}', which has ${asks.join(" and ")}: a read or a completion cannot ask anyone or wait for a task`;
  return undefined;
}

/** A completion's tool, when it names one, may serve it. */
export function checkCompletion(spec: LoadedSpec, completion: Json | undefined, pointer: string, out: Diagnostic[]): void {
  if (!isObject(completion) || typeof completion.tool !== "string") return;
  const why = unfit(toolsOf(spec), completion.tool);
  if (why) out.push(at(spec, "KV727", `this completion ${why}`, `${pointer}/tool`));
}

function inputOf(tool: Obj): { props: string[]; required: string[] } | undefined {
  const input = tool.input;
  if (!isObject(input)) return undefined;
  const props = isObject(input.properties) ? Object.keys(input.properties) : [];
  const required = Array.isArray(input.required) ? input.required.filter((r): r is string => typeof r === "string") : [];
  return { props, required };
}

function checkVariables(spec: LoadedSpec, vars: string[], tool: Obj, pointer: string, out: Diagnostic[]): void {
  const input = inputOf(tool);
  if (!input) return; // no input schema: the kind's implied inputs are the argv/url placeholders, which the call validates
  for (const v of vars) {
    if (!input.props.includes(v)) out.push(at(spec, "KV728", `variable ${v} of this template is not an input of tool '${String(tool.name)}' (its inputs: ${input.props.join(", ") || "none"})`, `${pointer}/uriTemplate`));
  }
  for (const r of input.required) {
    if (!vars.includes(r)) out.push(at(spec, "KV728", `tool '${String(tool.name)}' requires input ${r}, which no variable of this template gives`, `${pointer}/uriTemplate`));
  }
}

function checkTemplate(spec: LoadedSpec, t: Obj, pointer: string, out: Diagnostic[]): void {
  if (typeof t.uriTemplate !== "string") return;
  const parsed = templateVariables(t.uriTemplate);
  if ("problem" in parsed) {
    out.push(at(spec, "KV725", `uriTemplate '${t.uriTemplate}' is not an RFC 6570 level 1-2 template of an absolute URI: ${parsed.problem}`, `${pointer}/uriTemplate`));
    return;
  }
  const tools = toolsOf(spec);
  const why = typeof t.tool === "string" ? unfit(tools, t.tool) : undefined;
  if (why) out.push(at(spec, "KV727", `this resource template ${why}`, `${pointer}/tool`));
  else if (typeof t.tool === "string") checkVariables(spec, parsed.vars, tools.get(t.tool)!, pointer, out);
  if (!isObject(t.complete)) return;
  for (const [name, completion] of Object.entries(t.complete)) {
    if (!parsed.vars.includes(name)) out.push(at(spec, "KV729", `complete names ${name}, which is not a variable of this template (its variables: ${parsed.vars.join(", ")})`, `${pointer}/complete/${name}`));
    checkCompletion(spec, completion, `${pointer}/complete/${name}`, out);
  }
}

export function checkResourceTemplates(spec: LoadedSpec, templates: unknown, whole: (pointer: string) => boolean, out: Diagnostic[]): void {
  const check = (t: Obj, pointer: string) => checkTemplate(spec, t, pointer, out);
  checkList(spec, templates, { list: "resourceTemplates", key: "uriTemplate", label: "resource template uriTemplate", code: "KV726", check }, whole, out);
}
