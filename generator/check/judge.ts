// The tool schemas the check compiles, ahead of the rules: a large spec's are judged on two threads
// at once by the build's compiler (shared/schema-compiler.ts), or presumed and proved by the emit
// (check/index.ts checkStage). The rules then read the judgements; a small spec's schemas are
// judged as the rules reach them.
import type { Json } from "../../templates/runtime/types.js";
import type { LoadedSpec } from "../model/spec.js";
import { isObject } from "../shared/object.js";
import { compileCandidate } from "./schema-limits.js";

/** The distinct tool schemas the check will compile, by JSON text. */
export function toolSchemas(specs: LoadedSpec[]): Map<string, Json> {
  const found = new Map<string, Json>();
  for (const spec of specs) {
    const tools = isObject<unknown>(spec.doc) ? spec.doc.tools : undefined;
    if (!Array.isArray(tools)) continue;
    for (const tool of tools) {
      if (!isObject(tool)) continue;
      const output = tool.output;
      for (const schema of [tool.input, isObject(output) ? output.schema : undefined]) {
        if (schema === null || (typeof schema !== "object" && typeof schema !== "boolean")) continue;
        const key = JSON.stringify(schema);
        if (!found.has(key) && compileCandidate(schema)) found.set(key, schema);
      }
    }
  }
  return found;
}
