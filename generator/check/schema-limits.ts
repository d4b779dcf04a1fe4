// Limits every schema in a spec must meet, so validation stays bounded and nothing is fetched:
// JSON Schema 2020-12, same-document $ref only, no $id or dynamic references, and size caps.
import type { Json } from "../../templates/runtime/types.js";
import { DRAFT_2020_12 } from "../shared/schema.js";
import { checkMcpHeaders } from "./mcp-header.js";
import type { SchemaCompiler } from "../shared/schema-compiler.js";
import { pythonDifference } from "../shared/pattern-portability.js";
import { checkRefLoops } from "./ref-loops.js";
import { unescapePointer } from "../shared/pointer.js";
import { LIMIT_BROKEN, MANY_SUBSCHEMAS, SCHEMA_LIMITS, walkSchema, type SchemaProblem } from "../shared/schema-walk.js";

const REFUSED: Record<string, string> = {
  $id: "'$id' is refused: schemas in a spec are anonymous, so no reference can leave the document",
  $dynamicRef: "'$dynamicRef' is refused: dynamic references are not supported in spec schemas",
  $dynamicAnchor: "'$dynamicAnchor' is refused: dynamic references are not supported in spec schemas",
  $recursiveRef: "'$recursiveRef' is refused: dynamic references are not supported in spec schemas",
  $recursiveAnchor: "'$recursiveAnchor' is refused: dynamic references are not supported in spec schemas",
};

function resolveLocal(root: Json, ref: string): boolean {
  if (ref === "#") return true;
  if (!ref.startsWith("#/")) return false;
  let node: Json | undefined = root;
  for (const raw of ref.slice(2).split("/")) {
    const key = unescapePointer(decodeURIComponent(raw));
    if (!node || typeof node !== "object") return false;
    node = Array.isArray(node) ? node[Number(key)] : (node as Record<string, Json>)[key];
  }
  return node !== undefined;
}

/** Every limit, then (when none is broken) whether the schema compiles in strict mode: misspelt keywords and bad regexes are caught at build time. */
export function checkSchemaLimits(schema: Json, problems: SchemaProblem[], compiler: SchemaCompiler): void {
  limitProblems(schema, problems);
  if (problems.some((p) => p.severity !== "warning")) return;
  const error = compiler.error(schema);
  if (error) problems.push({ code: "KV510", message: `schema does not compile: ${error}`, pointer: "" });
}

/** Whether checkSchemaLimits would hand the schema to ajv: it breaks no limit, so compiling it is safe. */
export function compileCandidate(schema: Json): boolean {
  const problems: SchemaProblem[] = [];
  limitProblems(schema, problems);
  return !problems.some((p) => p.severity !== "warning");
}

/** Every limit but the compile. */
function limitProblems(schema: Json, problems: SchemaProblem[]): void {
  const bytes = Buffer.byteLength(JSON.stringify(schema));
  if (bytes > SCHEMA_LIMITS.bytes) problems.push({ ...LIMIT_BROKEN.bytes(bytes), pointer: "" });
  let nodes = 0;
  let combinators = 0;
  let tooDeep = false;
  walkSchema(schema, {
    node(node, pointer, depth) {
      if (typeof node === "boolean") return;
      if (!node || typeof node !== "object" || Array.isArray(node)) {
        problems.push({ code: "KV511", message: "a schema must be an object or a boolean", pointer });
        return;
      }
      nodes += 1;
      if (depth > SCHEMA_LIMITS.depth && !tooDeep) {
        tooDeep = true;
        problems.push({ ...LIMIT_BROKEN.depth(), pointer });
      }
    },
    key(key, value, here) {
      if (Object.hasOwn(REFUSED, key)) problems.push({ code: "KV503", message: REFUSED[key], pointer: here, atKey: true });
      // ajv takes a keyword named like a method of every object (toString, constructor) as known and ignores it;
      // Kervan refuses it as it refuses every other unknown keyword.
      else if (key in Object.prototype) problems.push({ code: "KV510", message: `schema does not compile: unknown keyword: ${JSON.stringify(key)}`, pointer: here, atKey: true });
      else if (key === "$schema" && value !== DRAFT_2020_12) problems.push({ code: "KV509", message: `'$schema' must be ${DRAFT_2020_12}: spec schemas are JSON Schema 2020-12`, pointer: here });
      else if (key === "$ref" && typeof value === "string") {
        if (!value.startsWith("#")) problems.push({ code: "KV501", message: `'$ref' ${JSON.stringify(value)} leaves the document; only same-document references (#/...) are allowed, so nothing is ever fetched`, pointer: here });
        else if (!resolveLocal(schema, value)) problems.push({ code: "KV502", message: `'$ref' ${JSON.stringify(value)} points at nothing in this schema`, pointer: here });
      } else if (key === "pattern" && typeof value === "string" && value.length > SCHEMA_LIMITS.patternLength) {
        problems.push({ code: "KV508", message: `pattern is ${value.length} characters; the limit is ${SCHEMA_LIMITS.patternLength}`, pointer: here });
      } else if (key === "pattern" && typeof value === "string") {
        portable(value, here, problems);
      }
      if (MANY_SUBSCHEMAS.includes(key) && key !== "prefixItems" && Array.isArray(value)) combinators += 1;
    },
    mapKey(keyword, name, pointer) {
      if (keyword !== "patternProperties") return;
      if (name.length > SCHEMA_LIMITS.patternLength) problems.push({ code: "KV508", message: `pattern is ${name.length} characters; the limit is ${SCHEMA_LIMITS.patternLength}`, pointer, atKey: true });
      portable(name, pointer, problems, true);
    },
  });
  if (nodes > SCHEMA_LIMITS.nodes) problems.push({ ...LIMIT_BROKEN.nodes(nodes), pointer: "" });
  if (combinators > SCHEMA_LIMITS.combinators) problems.push({ ...LIMIT_BROKEN.combinators(combinators), pointer: "" });
  checkMcpHeaders(schema, problems);
  if (!problems.some((p) => p.code === "KV502" || p.code === "KV504" || p.code === "KV505")) checkRefLoops(schema, problems);
}

function portable(pattern: string, pointer: string, problems: SchemaProblem[], atKey = false): void {
  const why = pythonDifference(pattern);
  if (why) problems.push({ code: "KV513", severity: "warning", message: `pattern ${JSON.stringify(pattern)} means something else to clients that validate with Python: ${why}`, pointer, atKey });
}
