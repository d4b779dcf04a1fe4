// A checked resource template read into its IR (normalize), with its completions.
import type { CompletionDef, Json } from "../../templates/runtime/types.js";
import type { ResourceTemplateIR, ToolIR } from "../model/ir.js";
import type { LoadedSpec } from "../model/spec.js";
import { isObject } from "../shared/object.js";
import { kindFor } from "../kinds/index.js";
import { templateVariables } from "../shared/uri-template.js";

type Obj = Record<string, Json>;

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
