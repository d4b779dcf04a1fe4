// The check's schema compiles for a large spec, ahead of the rules: every tool schema the check
// would compile, judged on two threads at once by the build's compiler (shared/schema-compiler.ts).
// The rules then read the judgements; a small spec's schemas are judged as the rules reach them.
import type { Json } from "../../templates/runtime/types.js";
import type { LoadedSpec } from "../model/spec.js";
import type { Build } from "../shared/build.js";
import { isObject } from "../shared/object.js";
import { compileCandidate } from "./schema-limits.js";

/** The distinct tool schemas the check will compile, by JSON text. */
export function toolSchemas(specs: LoadedSpec[]): Map<string, Json> {
  const found = new Map<string, Json>();
  for (const spec of specs) {
    const tools = isObject<unknown>(spec.doc) ? spec.doc.tools : undefined;
    if (!Array.isArray(tools)) continue;
    for (const tool of tools) {
      if (!isObject<unknown>(tool)) continue;
      const output = tool.output;
      for (const schema of [tool.input, isObject<unknown>(output) ? output.schema : undefined]) {
        if (schema === null || (typeof schema !== "object" && typeof schema !== "boolean")) continue;
        const key = JSON.stringify(schema);
        if (!found.has(key) && compileCandidate(schema as Json)) found.set(key, schema as Json);
      }
    }
  }
  return found;
}

/** Judges a large spec's tool schemas on two threads; a small spec's are left to the rules. */
export async function judgeToolSchemas(specs: LoadedSpec[], build: Build): Promise<void> {
  await build.schemas.judgeMany(toolSchemas(specs), build.pool);
}
