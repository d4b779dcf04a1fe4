// Schemas and documents through validate_json (the handler with its bundled matcher worker): every
// call ends in an answer {valid, feedback} or a refusal sentence, never a thrown error or a fault.
import fc from "fast-check";
import { fileURLToPath } from "node:url";
import { bundleEntry } from "../../helpers/bundle.js";
import { createValidateJsonHandler, type ValidateJsonHandler } from "../../../templates/kinds/validate_json/handler.js";
import { documentArb, schemaArb } from "../schemas.js";
import { FuzzFailure, withinOrHang, type FuzzProperty } from "../property.js";

const HANG_MS = 15_000;

interface Input {
  output: unknown;
  schema: unknown;
}

export const property: FuzzProperty<Input, ValidateJsonHandler> = {
  name: "schemas and documents through validate_json",
  seed: 8_0500,
  numRuns: 400,
  testMs: 3000,
  arbitrary: fc.oneof(
    { weight: 9, arbitrary: fc.record({ output: documentArb as fc.Arbitrary<unknown>, schema: schemaArb }) },
    fc.record({ output: fc.jsonValue({ maxDepth: 1 }), schema: fc.jsonValue({ maxDepth: 2 }) }),
  ),
  async setup() {
    const script = await bundleEntry(fileURLToPath(new URL("../../kinds/validate_json/worker-entry.ts", import.meta.url)));
    return createValidateJsonHandler({ workerScript: script });
  },
  async check(handler, input) {
    let r;
    try {
      r = await withinOrHang(handler(input as unknown as Record<string, unknown>, { signal: new AbortController().signal, era: "2026-07-28" }), HANG_MS, "validate_json");
    } catch (e) {
      if (e instanceof FuzzFailure) throw e;
      throw new FuzzFailure("internal", `the handler threw: ${(e as Error)?.stack ?? String(e)}`);
    }
    if (r.isError) {
      if (typeof r.text !== "string" || !r.text.startsWith("Refused: ")) throw new FuzzFailure("internal", `an error that is not a refusal sentence: ${String(r.text).slice(0, 300)}`);
      if (/Maximum call stack|is not a function|Cannot read properties of/.test(r.text)) throw new FuzzFailure("internal", `a refusal quoting an internal message: ${r.text.slice(0, 300)}`);
      return;
    }
    const v = r.value as { valid?: unknown; feedback?: unknown } | undefined;
    if (!v || typeof v.valid !== "boolean" || !(v.feedback === null || typeof v.feedback === "string")) {
      throw new FuzzFailure("malformed", `not an answer: ${JSON.stringify(r).slice(0, 300)}`);
    }
    if (v.valid !== (v.feedback === null)) throw new FuzzFailure("malformed", `valid and feedback disagree: ${JSON.stringify(v).slice(0, 300)}`);
  },
  teardown: (handler) => handler.close(),
};
