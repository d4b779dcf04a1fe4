// The spec's `resourceTemplates:` and every `complete:` (prompt arguments, template variables): rules
// beyond kervan.schema.json, and the normalized forms. A uriTemplate is an RFC 6570 level 1-2 template
// of an absolute URI ({var}, {+var}, {#var}; no two expressions side by side, each variable once),
// unique in the server; it reads through an exec or http tool of the spec that runs without questions
// (no task, confirm or ask), whose inputs its variables are: each variable an input property, each
// required input a variable. A completion names a variable of its template and, when it names a tool,
// one that may serve it.
import type { CompletionDef, Json } from "../../templates/runtime/types.js";
import type { Diagnostic } from "../model/diagnostic.js";
import type { ResourceTemplateIR, ToolIR } from "../model/ir.js";
import type { LoadedSpec } from "../model/spec.js";
import { isObject } from "../shared/object.js";
import { at } from "./locate.js";
import { checkList } from "./list-entries.js";
import { kindFor, kindOf } from "../kinds/index.js";

type Obj = Record<string, Json>;

const EXPRESSION = /\{([^{}]*)\}/g;
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;
const LITERAL = /^(?:[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=]|%[0-9A-Fa-f]{2})*$/;

/** The variables of a level 1-2 template, or why it is not one. */
export function templateVariables(uriTemplate: string): { vars: string[] } | { problem: string } {
  if (!SCHEME.test(uriTemplate)) return { problem: "it needs a scheme first, as in file:///{+path} or docs://{name}" };
  const vars: string[] = [];
  let last = -1;
  for (const m of uriTemplate.matchAll(EXPRESSION)) {
    const body = m[1]!;
    if (!/^[+#]?[A-Za-z0-9_]{1,64}$/.test(body)) return { problem: `{${body}} is not a level 1-2 expression ({name}, {+name} or {#name}; no lists, prefixes or other operators)` };
    if (m.index === last) return { problem: `two expressions side by side before {${body}}: a URI could not show where one value ends` };
    const name = body.replace(/^[+#]/, "");
    if (vars.includes(name)) return { problem: `variable ${name} appears twice` };
    vars.push(name);
    last = m.index + m[0].length;
  }
  const literal = uriTemplate.replace(EXPRESSION, "");
  if (/[{}]/.test(literal)) return { problem: "a { or } stands outside an expression" };
  if (!LITERAL.test(literal)) return { problem: "its literal parts hold characters a URI does not (escape them as %XX)" };
  if (vars.length === 0) return { problem: "it has no {variable}: a fixed URI is a static resource (resources:)" };
  return { vars };
}

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

/** A checked completion, normalized; tools are the server's normalized tools. */
export function completionOf(c: Json | undefined, tools: ToolIR[]): CompletionDef | undefined {
  if (Array.isArray(c)) return { values: c.map(String) };
  if (isObject(c) && typeof c.tool === "string") return { tool: c.tool, ...textFrom(tools.find((x) => x.name === c.tool)) };
  return undefined;
}

/** A variable whose tool input has a string enum completes from it when the spec gives nothing else. */
function enumOf(tool: ToolIR | undefined, name: string): CompletionDef | undefined {
  const props = tool?.inputSchema.properties;
  const prop = isObject(props) ? props[name] : undefined;
  const values = isObject(prop) && Array.isArray(prop.enum) ? prop.enum.filter((v): v is string => typeof v === "string") : [];
  return values.length ? { values } : undefined;
}

function textFrom(tool: ToolIR | undefined): { textFrom?: string } {
  const from = tool ? kindFor(tool).resourceReads?.textFrom : undefined;
  return from ? { textFrom: from } : {};
}

/** A checked template, normalized (sorted by the caller); tools are the server's normalized tools. */
export function resourceTemplateIR(spec: LoadedSpec, t: Obj, index: number, tools: ToolIR[]): ResourceTemplateIR {
  const uriTemplate = String(t.uriTemplate);
  const parsed = templateVariables(uriTemplate);
  const vars = "vars" in parsed ? parsed.vars : [];
  const tool = tools.find((x) => x.name === t.tool);
  const given = isObject(t.complete) ? t.complete : {};
  const complete: Record<string, CompletionDef> = {};
  for (const v of vars) {
    const c = completionOf(given[v], tools) ?? enumOf(tool, v);
    if (c) complete[v] = c;
  }
  return {
    uriTemplate,
    name: String(t.name),
    ...(typeof t.title === "string" ? { title: t.title } : {}),
    ...(typeof t.description === "string" ? { description: t.description } : {}),
    mimeType: String(t.mimeType),
    tool: String(t.tool),
    ...textFrom(tool),
    ...(Object.keys(complete).length ? { complete } : {}),
    variables: vars,
    origin: { file: spec.file, pointer: `/resourceTemplates/${index}` },
  };
}
