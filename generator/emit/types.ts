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
import { isObject, messageOf } from "../shared/object.js";

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
  const copy = structuredClone(schema);
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
    if (isObject(defs)) {
      for (const [name, def] of Object.entries(defs)) {
        if (isObject(def)) def.title = `${typeName}${name.replace(/[^A-Za-z0-9]/g, "")}`;
      }
    }
  }
  return copy;
}

const PLACEHOLDER = "KervanPlaceholderTypeName";

/**
 * json-schema-to-typescript's output by schema text. It depends on the schema and the type name
 * only, and the name appears only as itself and as the prefix of $defs names: each distinct schema
 * is compiled once under a placeholder. A build holds one (shared/build.ts), so its servers share
 * it and a `--watch` rebuild starts afresh; an emit given none makes its own.
 */
export type CompiledTypes = Map<string, Promise<string>>;

async function typeOf(schema: Record<string, Json>, name: string, compiled: CompiledTypes): Promise<string> {
  const key = JSON.stringify(schema);
  let text = compiled.get(key);
  if (!text) {
    const prepared = prepare(schema, PLACEHOLDER);
    const names: string[] = [];
    renamePrototypeNames(prepared, names);
    text = compile(prepared, PLACEHOLDER, {
      bannerComment: "",
      format: false,
      additionalProperties: false,
      unknownAny: true,
      ignoreMinAndMaxItems: true, // maxItems: 20 would otherwise become a union of 21 tuple types
      declareExternallyReferenced: true,
      $refOptions: { resolve: { external: false, file: false, http: false } },
    }).then((out) => out.replace(new RegExp(`${KEY_PLACEHOLDER}(\\d+)X`, "g"), (_, i: string) => names[Number(i)]));
    compiled.set(key, text);
  }
  return (await text).replaceAll(PLACEHOLDER, name);
}

/**
 * The types of one schema. json-schema-to-typescript cannot read every schema ajv accepts; when it
 * fails, the spec is refused at the schema's place with its reason instead of crashing the build.
 */
export async function typeAt(schema: Record<string, Json>, name: string, origin: { file: string; pointer: string }, compiled: CompiledTypes): Promise<string> {
  try {
    return await typeOf(schema, name, compiled);
  } catch (e) {
    const reason = messageOf(e).split("\n")[0];
    throw new SpecRefused("KV515", `TypeScript types cannot be derived from this schema (json-schema-to-typescript: ${reason})`, origin.file, origin.pointer);
  }
}

/** Where a server's types module is emitted. */
export const typesPath = (dir: string): string => `${dir}/src/types.ts`;

export async function emitTypes(plan: ServerPlan, compiled: CompiledTypes = new Map()): Promise<EmittedFile> {
  const parts: string[] = [];
  const turn = turns();
  for (const t of plan.tools) {
    // json-schema-to-typescript awaits only promises, which never let I/O in: the bundle running
    // meanwhile (pipeline.ts) would wait for this whole loop to be served its files.
    await turn();
    const { file, pointer } = t.tool.origin;
    parts.push(await typeAt(t.tool.inputSchema, t.inputType, { file, pointer: `${pointer}/input` }, compiled));
    if (t.outputType && t.tool.outputSchema) parts.push(await typeAt(t.tool.outputSchema, t.outputType, { file, pointer: `${pointer}/output/schema` }, compiled));
  }
  const body = indentTypes(parts.join("\n\n"));
  return { path: typesPath(plan.dir), contents: `${header(plan.server.origin.file)}\n\n${body}` };
}
