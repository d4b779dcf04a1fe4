// Large specs share the check's schema compiles and the emit's validators with a worker thread
// (check/compile-pool.ts, emit/off-thread.ts). What a worker computes must be exactly what this
// thread computes: the same diagnostics, the same validators module, byte for byte.
import { describe, expect, it } from "vitest";
import { load } from "../../generator/load.js";
import { check, checkShared } from "../../generator/check/index.js";
import { judgeSchemas, POOL_SCHEMAS } from "../../generator/check/compile-pool.js";
import { OFF_THREAD_SCHEMAS, validatorsModule } from "../../generator/emit/off-thread.js";
import { emitValidatorsModule, type ValidatorsInput } from "../../generator/emit/validators.js";

const TOOLS = Math.max(POOL_SCHEMAS, OFF_THREAD_SCHEMAS) + 40;

/** A spec of many http tools, each with its own input and output schema; `broken` tools get a schema that does not compile. */
function largeSpec(broken: Record<number, string>): string {
  const tools = Array.from({ length: TOOLS }, (_, i) => {
    const output = broken[i] ?? `{ type: object, properties: { v${i}: { type: integer, minimum: ${i} } } }`;
    return [
      `  - name: tool_${String(i).padStart(3, "0")}`,
      `    description: Read item ${i} from the example API. Use it when asked for item ${i}.`,
      `    input: { type: object, properties: { q${i}: { type: string, maxLength: ${i + 1} } }, additionalProperties: false }`,
      "    http: { method: GET, baseUrl: https://api.example.com, path: /x }",
      `    output: { select: "@", schema: ${output} }`,
    ].join("\n");
  });
  return `server: { name: large, version: 0.1.0 }\ntools:\n${tools.join("\n")}\n`;
}

const kv510 = (ds: { code: string; message: string; location: { pointer: string } }[]) => ds.filter((d) => d.code === "KV510").map((d) => `${d.location.pointer}: ${d.message}`);

describe("worker threads for large specs", () => {
  it("judges schemas on two threads with the same diagnostics as the check alone", async () => {
    const text = largeSpec({ 7: '{ type: string, pattern: "([a-z" }', [TOOLS - 3]: "{ type: strnig }", [TOOLS - 1]: "{ type: object, requird: [a] }" });
    // Judged by the worker alone first (nothing is cached yet), so the check below reads only
    // the worker's judgements: they must name exactly the three broken schemas, as the check would.
    const specs = load([{ path: "large.yaml", text }], []);
    expect(await judgeSchemas(specs, true)).toBe(TOOLS * 2);
    const shared = await checkShared(specs);
    expect(kv510(shared)).toEqual([
      "/tools/7/output/schema: schema does not compile: Invalid regular expression: /([a-z/u: Unterminated character class",
      expect.stringMatching(new RegExp(`^/tools/${TOOLS - 3}/output/schema: schema does not compile: .*type`)),
      expect.stringMatching(new RegExp(`^/tools/${TOOLS - 1}/output/schema: schema does not compile: unknown keyword: "requird"`)),
    ]);
    expect(check(load([{ path: "large.yaml", text }], []))).toEqual(shared);
  });

  it("compiles a large server's validators on a worker into the same bytes as on this thread", async () => {
    const schemas = Array.from({ length: OFF_THREAD_SCHEMAS + 10 }, (_, i) => ({
      name: `validate_t${i}`,
      schema: i % 50 === 49 ? { type: "object" } : { type: "object", properties: { [`p${i}`]: { type: "string", pattern: `^a{${i}}$`, format: "email" } }, required: [`p${i}`] },
    }));
    const input: ValidatorsInput = { dir: "large", specFile: "specs/large.yaml", schemas };
    const here = emitValidatorsModule(input);
    const there = await validatorsModule(input).result;
    expect(there.contents.length).toBeGreaterThan(100_000);
    expect(there).toEqual(here);
  });
});
