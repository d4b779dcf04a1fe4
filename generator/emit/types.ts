// Emits src/types.ts: TypeScript types of every tool's input and output (json-schema-to-typescript,
// unformatted for speed, then indented by bracket depth).
import { compile } from "json-schema-to-typescript";
import type { Json } from "../../templates/runtime/types.js";
import type { ServerPlan } from "../model/plan.js";
import type { EmittedFile } from "../model/output.js";
import { header } from "./header.js";
import { indentTypes } from "./indent.js";
import { SpecRefused } from "../shared/refusal.js";
import { turns } from "../shared/turns.js";

// json-schema-to-typescript calls methods such as hasOwnProperty on every object of the schema, so
// a property named after a member of Object.prototype broke it. Such names are renamed to
// placeholders for the compiler and put back in its output (all of them are plain identifiers).
const PROTOTYPE_NAMES = new Set(Object.getOwnPropertyNames(Object.prototype));
const KEY_PLACEHOLDER = "KervanPrototypeName";

function renamePrototypeNames(schema: Json, names: string[]): void {
  const rename = (key: string) => {
    if (!PROTOTYPE_NAMES.has(key)) return key;
    if (!names.includes(key)) names.push(key);
    return `${KEY_PLACEHOLDER}${names.indexOf(key)}X`;
  };
  const visit = (node: Json): void => {
    if (!node || typeof node !== "object") return;
    if (Array.isArray(node)) return node.forEach(visit);
    for (const key of Object.keys(node)) {
      const value = node[key];
      if (key === "enum" || key === "const" || key === "default" || key === "examples") continue;
      if ((key === "properties" || key === "patternProperties" || key === "$defs" || key === "definitions" || key === "dependentSchemas") && value && typeof value === "object" && !Array.isArray(value)) {
        node[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [rename(k), v]));
      } else if (key === "required" && Array.isArray(value)) node[key] = value.map((v) => (typeof v === "string" ? rename(v) : v));
      visit(node[key]);
    }
  };
  visit(schema);
}

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
  // Defaults and examples never shape a type; dropped, no value in them can trip the compiler.
  const drop = (node: Json): void => {
    if (!node || typeof node !== "object") return;
    if (Array.isArray(node)) return node.forEach(drop);
    delete node.default;
    delete node.examples;
    for (const [k, v] of Object.entries(node)) if (k !== "enum" && k !== "const") drop(v);
  };
  drop(copy);
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
    const prepared = prepare(schema, PLACEHOLDER);
    const names: string[] = [];
    renamePrototypeNames(prepared, names);
    text = compile(prepared as object, PLACEHOLDER, {
      bannerComment: "",
      format: false,
      additionalProperties: false,
      unknownAny: true,
      ignoreMinAndMaxItems: true, // maxItems: 20 would otherwise become a union of 21 tuple types
      declareExternallyReferenced: true,
      $refOptions: { resolve: { external: false, file: false, http: false } } as object,
    }).then((out) => out.replace(new RegExp(`${KEY_PLACEHOLDER}(\\d+)X`, "g"), (_, i: string) => names[Number(i)]));
    compiledTypes.set(key, text);
  }
  return (await text).replaceAll(PLACEHOLDER, name);
}

/**
 * The types of one schema. json-schema-to-typescript cannot read every schema ajv accepts; when it
 * fails, the spec is refused at the schema's place with its reason instead of crashing the build.
 */
export async function typeAt(schema: Record<string, Json>, name: string, origin: { file: string; pointer: string }): Promise<string> {
  try {
    return await typeOf(schema, name);
  } catch (e) {
    const reason = ((e as Error)?.message ?? String(e)).split("\n")[0];
    throw new SpecRefused("KV515", `TypeScript types cannot be derived from this schema (json-schema-to-typescript: ${reason})`, origin.file, origin.pointer);
  }
}

/** Where a server's types module is emitted. */
export const typesPath = (dir: string): string => `${dir}/src/types.ts`;

export async function emitTypes(plan: ServerPlan): Promise<EmittedFile> {
  const parts: string[] = [];
  const turn = turns();
  for (const t of plan.tools) {
    // json-schema-to-typescript awaits only promises, which never let I/O in: the bundle running
    // meanwhile (pipeline.ts) would wait for this whole loop to be served its files.
    await turn();
    const { file, pointer } = t.tool.origin;
    parts.push(await typeAt(t.tool.inputSchema, t.inputType, { file, pointer: `${pointer}/input` }));
    if (t.outputType && t.tool.outputSchema) parts.push(await typeAt(t.tool.outputSchema, t.outputType, { file, pointer: `${pointer}/output/schema` }));
  }
  const body = indentTypes(parts.join("\n\n"));
  return { path: typesPath(plan.dir), contents: `${header(plan.server.origin.file)}\n\n${body}` };
}
