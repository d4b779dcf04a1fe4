// Large specs share the check's schema compiles, the emit's validators and the bundle with the
// build's worker pool (shared/worker-pool.ts, build-thread.ts). What a worker computes must be
// exactly what this thread computes: the same diagnostics, the same validators module, byte for
// byte; and a build's workers end with the build.
import { describe, expect, it } from "vitest";
import { load } from "../../generator/load.js";
import { check, checkStage } from "../../generator/check/index.js";
import { toolSchemas } from "../../generator/check/judge.js";
import { openBuild } from "../../generator/pipeline.js";
import { OFF_THREAD } from "../../generator/shared/worker-pool.js";
import { emitValidatorsModule, validatorsModule, type ValidatorsInput } from "../../generator/emit/validators.js";

const TOOLS = OFF_THREAD + 40;

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

describe("the build's worker pool", () => {
  it("judges schemas on two threads with the same diagnostics as the check alone", async () => {
    const text = largeSpec({ 7: '{ type: string, pattern: "([a-z" }', [TOOLS - 3]: "{ type: strnig }", [TOOLS - 1]: "{ type: object, requird: [a] }" });
    const specs = load([{ path: "large.yaml", text }], []);
    expect(toolSchemas(specs).size).toBe(TOOLS * 2);
    const build = openBuild();
    try {
      const shared = await checkStage(specs, build);
      expect(kv510(shared)).toEqual([
        "/tools/7/output/schema: schema does not compile: Invalid regular expression: /([a-z/u: Unterminated character class",
        expect.stringMatching(new RegExp(`^/tools/${TOOLS - 3}/output/schema: schema does not compile: .*type`)),
        expect.stringMatching(new RegExp(`^/tools/${TOOLS - 1}/output/schema: schema does not compile: unknown keyword: "requird"`)),
      ]);
      expect(check(load([{ path: "large.yaml", text }], []))).toEqual(shared);
    } finally {
      build.close();
    }
  });

  it("judges on the worker exactly as this thread does", async () => {
    const text = largeSpec({ 3: '{ type: string, pattern: "(" }', 9: "{ type: object, propertis: {} }" });
    const schemas = toolSchemas(load([{ path: "large.yaml", text }], []));
    const build = openBuild();
    try {
      const job = build.pool.run("judge", { schemas: [...schemas.values()], next: new SharedArrayBuffer(4) });
      const there = await job.result;
      expect(there).toHaveLength(schemas.size);
      const here = openBuild().schemas;
      expect(there.map(([i, error]) => [i, error])).toEqual(there.map(([i]) => [i, here.error([...schemas.values()][i]!)]));
      expect(there.filter(([, error]) => error)).toHaveLength(2);
    } finally {
      build.close();
    }
  });

  it("compiles a large server's validators on a worker into the same bytes as on this thread", async () => {
    const schemas = Array.from({ length: OFF_THREAD + 10 }, (_, i) => ({
      name: `validate_t${i}`,
      schema: i % 50 === 49 ? { type: "object" } : { type: "object", properties: { [`p${i}`]: { type: "string", pattern: `^a{${i}}$`, format: "email" } }, required: [`p${i}`] },
    }));
    const input: ValidatorsInput = { dir: "large", specFile: "specs/large.yaml", schemas };
    const here = emitValidatorsModule(input);
    const build = openBuild();
    try {
      const there = await validatorsModule(input, build.pool).result;
      expect(there.contents.length).toBeGreaterThan(100_000);
      expect(there).toEqual(here);
    } finally {
      build.close();
    }
  });

  it("ends with its build: a job under way rejects, and a closed pool takes no job", async () => {
    const build = openBuild({ offThread: 0 });
    const job = build.pool.run("judgeStream", {});
    job.feed({ schemas: [{ type: "object" }] });
    build.close();
    await expect(job.result).rejects.toThrow(/closed/);
    expect(() => build.pool.run("judgeStream", {})).toThrow(/closed/);
  });

  it("a job that fails on the worker rejects with the worker's error", async () => {
    const build = openBuild({ offThread: 0 });
    try {
      const bad: ValidatorsInput = { dir: "x", specFile: "specs/x.yaml", schemas: [{ name: "v", schema: { type: "object", requird: ["a"] } }] };
      await expect(validatorsModule(bad, build.pool).result).rejects.toThrow(/requird/);
      // The worker stays for the next job.
      const good: ValidatorsInput = { ...bad, schemas: [{ name: "v", schema: { type: "object" } }] };
      expect(await validatorsModule(good, build.pool).result).toEqual(emitValidatorsModule(good));
    } finally {
      build.close();
    }
  });
});
