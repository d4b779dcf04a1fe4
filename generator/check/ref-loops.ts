// A `$ref` that leads back to a schema it started from without reading any deeper into the value
// (`allOf: [{$ref: "#"}]`) makes validation recurse forever: ajv compiles it, and the generated
// server would overflow its stack on the first call. Such loops are refused at build time.
// Only keywords that apply to the same value ("in place") continue a loop; properties, items and
// the like move to a smaller value, so recursion through them ends.
import type { Json } from "../../templates/runtime/types.js";
import type { SchemaProblem } from "../shared/schema-walk.js";
import { escapePointer, unescapePointer } from "../shared/pointer.js";

const IN_PLACE_ONE = ["not", "if", "then", "else"];
const IN_PLACE_MANY = ["allOf", "anyOf", "oneOf"];
const DEEPER_ONE = ["additionalProperties", "contains", "propertyNames", "unevaluatedItems", "unevaluatedProperties", "additionalItems", "items"];
const DEEPER_MANY = ["prefixItems"];
const MAPS = ["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"];

export function checkRefLoops(schema: Json, problems: SchemaProblem[]): void {
  const nodes = new Map<string, Record<string, Json>>();
  const anchors = new Map<string, string>();
  const collect = (node: Json, pointer: string): void => {
    if (!node || typeof node !== "object" || Array.isArray(node)) return;
    nodes.set(pointer, node);
    if (typeof node.$anchor === "string") anchors.set(node.$anchor, pointer);
    for (const [key, value] of Object.entries(node)) {
      const here = `${pointer}/${escapePointer(key)}`;
      if (IN_PLACE_ONE.includes(key) || DEEPER_ONE.includes(key)) {
        if (Array.isArray(value)) value.forEach((v, i) => collect(v, `${here}/${i}`));
        else collect(value, here);
      } else if ((IN_PLACE_MANY.includes(key) || DEEPER_MANY.includes(key)) && Array.isArray(value)) value.forEach((v, i) => collect(v, `${here}/${i}`));
      else if (MAPS.includes(key) && value && typeof value === "object" && !Array.isArray(value)) {
        for (const [k, v] of Object.entries(value)) collect(v, `${here}/${escapePointer(k)}`);
      }
    }
  };
  collect(schema, "");
  const target = (ref: string): string | undefined => {
    if (ref === "#") return "";
    if (ref.startsWith("#/")) {
      try {
        return "/" + ref.slice(2).split("/").map((s) => escapePointer(unescapePointer(decodeURIComponent(s)))).join("/");
      } catch {
        return undefined;
      }
    }
    return ref.startsWith("#") ? anchors.get(ref.slice(1)) : undefined;
  };
  /** Schemas applied to the same value as the one at `pointer`, each with the pointer of the keyword that leads there. */
  const inPlace = (pointer: string): [string, string][] => {
    const node = nodes.get(pointer);
    if (!node) return [];
    const next: [string, string][] = [];
    for (const key of IN_PLACE_ONE) if (node[key] && typeof node[key] === "object") next.push([`${pointer}/${key}`, `${pointer}/${key}`]);
    for (const key of IN_PLACE_MANY) {
      const list = node[key];
      if (Array.isArray(list)) list.forEach((_, i) => next.push([`${pointer}/${key}/${i}`, `${pointer}/${key}/${i}`]));
    }
    const deps = node.dependentSchemas;
    if (deps && typeof deps === "object" && !Array.isArray(deps)) for (const k of Object.keys(deps)) next.push([`${pointer}/dependentSchemas/${escapePointer(k)}`, `${pointer}/dependentSchemas/${escapePointer(k)}`]);
    if (typeof node.$ref === "string") {
      const t = target(node.$ref);
      if (t !== undefined && nodes.has(t)) next.push([t, `${pointer}/$ref`]);
    }
    return next;
  };
  const done = new Set<string>();
  // The current path: each schema with the keyword pointer that led to it.
  const path: [string, string][] = [];
  const reported = new Set<string>();
  const visit = (pointer: string, via: string): void => {
    if (done.has(pointer)) return;
    path.push([pointer, via]);
    for (const [next, step] of inPlace(pointer)) {
      const start = path.findIndex(([p]) => p === next);
      if (start >= 0) {
        // A loop: name the first $ref on it (every loop has one; the other keywords only go down).
        const steps = [...path.slice(start + 1).map(([, v]) => v), step];
        const ref = steps.find((v) => v.endsWith("/$ref")) ?? step;
        if (!reported.has(ref)) {
          reported.add(ref);
          const value = nodes.get(ref.slice(0, -"/$ref".length))?.$ref;
          problems.push({ code: "KV514", message: `'$ref' ${JSON.stringify(value)} leads back to a schema it came from without reading any deeper into the value; validation would never end`, pointer: ref });
        }
        continue;
      }
      visit(next, step);
    }
    path.pop();
    done.add(pointer);
  };
  for (const pointer of nodes.keys()) visit(pointer, pointer);
}
