// A checked resource template read into its IR (normalize), with its completions, and the reading
// of a URI template (its variables) the check shares.
import type { CompletionDef, Json } from "../../templates/runtime/types.js";
import type { ResourceTemplateIR, ToolIR } from "../model/ir.js";
import type { LoadedSpec } from "../model/spec.js";
import { isObject } from "../shared/object.js";
import { kindFor } from "../kinds/index.js";

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
