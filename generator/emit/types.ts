// Emits src/types.ts: TypeScript types of every tool's input and output (json-schema-to-typescript,
// unformatted for speed, then indented by bracket depth).
import { compile } from "json-schema-to-typescript";
import type { Json } from "../../templates/runtime/types.js";
import type { ServerPlan } from "../model/plan.js";
import type { EmittedFile } from "../model/output.js";
import { header } from "./header.js";
import { indentTypes } from "./indent.js";

/** A copy whose type names are ours: nested titles dropped, $defs named after the tool, so tools never collide. */
function prepare(schema: Record<string, Json>, typeName: string): Record<string, Json> {
  const copy = structuredClone(schema) as Record<string, Json>;
  const strip = (node: Json, root: boolean): void => {
    if (!node || typeof node !== "object") return;
    if (Array.isArray(node)) return node.forEach((n) => strip(n, false));
    if (!root && typeof node.title === "string") delete node.title;
    for (const [k, v] of Object.entries(node)) if (k !== "enum" && k !== "const" && k !== "default" && k !== "examples") strip(v, false);
  };
  strip(copy, true);
  delete copy.title;
  for (const key of ["$defs", "definitions"]) {
    const defs = copy[key];
    if (defs && typeof defs === "object" && !Array.isArray(defs)) {
      for (const [name, def] of Object.entries(defs)) {
        if (def && typeof def === "object" && !Array.isArray(def)) (def as Record<string, Json>).title = `${typeName}${name.replace(/[^A-Za-z0-9]/g, "")}`;
      }
    }
  }
  return copy;
}

const PLACEHOLDER = "KervanPlaceholderTypeName";
// json2ts output depends on the schema and the type name only, and the name appears only as
// itself and as the prefix of $defs names: compile each distinct schema once under a placeholder.
const compiledTypes = new Map<string, Promise<string>>();

async function typeOf(schema: Record<string, Json>, name: string): Promise<string> {
  const key = JSON.stringify(schema);
  let text = compiledTypes.get(key);
  if (!text) {
    text = compile(prepare(schema, PLACEHOLDER) as object, PLACEHOLDER, {
      bannerComment: "",
      format: false,
      additionalProperties: false,
      unknownAny: true,
      ignoreMinAndMaxItems: true, // maxItems: 20 would otherwise become a union of 21 tuple types
      declareExternallyReferenced: true,
      $refOptions: { resolve: { external: false, file: false, http: false } } as object,
    });
    compiledTypes.set(key, text);
  }
  return (await text).replaceAll(PLACEHOLDER, name);
}

export async function emitTypes(plan: ServerPlan): Promise<EmittedFile> {
  const parts: string[] = [];
  for (const t of plan.tools) {
    parts.push(await typeOf(t.tool.inputSchema, t.inputType));
    if (t.outputType && t.tool.outputSchema) parts.push(await typeOf(t.tool.outputSchema, t.outputType));
  }
  const body = indentTypes(parts.join("\n\n"));
  return { path: `${plan.dir}/src/types.ts`, contents: `${header(plan.server.origin.file)}\n\n${body}` };
}
