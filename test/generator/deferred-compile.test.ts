// `kervan gen` does not compile a tool schema in the check when the emit compiles it anyway
// (check/deferred-compile.ts): the check presumes it compiles and the emit proves it. A schema that
// does not compile must still give exactly the diagnostics of the full check, on every way out of
// the build: a build that reaches the emit, one stopped by another error, one with many servers,
// a large one whose schemas are judged on two threads, and one under --strict.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { checkSources, generate } from "../../generator/pipeline.js";
import type { SourceFile } from "../../generator/model/spec.js";
import { POOL_SCHEMAS } from "../../generator/check/compile-pool.js";
import { OFF_THREAD_SCHEMAS, prestartValidatorsWorker, startValidatorsEarly, validatorsModule } from "../../generator/emit/off-thread.js";
import { emitValidatorsModule, type ValidatorsInput } from "../../generator/emit/validators.js";

const root = mkdtempSync(join(tmpdir(), "kervan-deferred-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

// Every test uses schemas of its own (`seed`): a judgement made once is remembered for the process.
let seed = 0;
function spec(server: string, tools: number, broken: Record<number, string>, extra = ""): SourceFile {
  const s = ++seed;
  const lines = Array.from({ length: tools }, (_, i) => {
    const output = broken[i] ?? `{ type: object, properties: { v${i}: { type: integer, minimum: ${i}, maximum: ${1000 * s + i} } } }`;
    return [
      `  - name: tool_${String(i).padStart(3, "0")}`,
      `    description: Read item ${i} from the example API. Use it when asked for item ${i}.`,
      `    input: { type: object, properties: { q${i}: { type: string, maxLength: ${s * 1000 + i} } }, additionalProperties: false }`,
      `    http: { method: GET, baseUrl: https://api.example.com, path: /x, query: { q: "{{input.q${i}}}" } }`,
      `    output: { select: "@", schema: ${output} }`,
    ].join("\n");
  });
  return { path: `${server}.yaml`, text: `server: { name: ${server}, version: 0.1.0 }\ntools:\n${lines.join("\n")}\n${extra}` };
}

const build = (sources: SourceFile[], strict = false) => generate(sources, { outRoot: join(root, "out"), check: true, pruneServers: false, strict });
const codes = (ds: { code: string; severity: string }[]) => ds.filter((d) => d.severity === "error").map((d) => d.code);

describe("the check's schema compiles deferred to the emit", () => {
  it("a spec whose schemas all compile builds", async () => {
    const result = await build([spec("fine", 3, {})]);
    expect(codes(result.diagnostics)).toEqual([]);
    expect(result.servers).toEqual(["fine"]);
  });

  it("a schema that does not compile gives the full check's diagnostics, and nothing is built", async () => {
    const source = spec("one", 3, { 1: '{ type: string, pattern: "([a-z" }' });
    const result = await build([source]);
    expect(result.servers).toEqual([]);
    expect(codes(result.diagnostics)).toEqual(["KV510"]);
    expect(result.diagnostics).toEqual(checkSources([source]).diagnostics);
  });

  it("alongside another error, the diagnostics are the full check's", async () => {
    const source = spec("two", 3, { 2: "{ type: object, requird: [a] }" }, "  - name: tool_000\n    description: The same name again.\n    http: { method: GET, baseUrl: https://api.example.com, path: /y }\n");
    const result = await build([source]);
    expect(codes(result.diagnostics)).toEqual(expect.arrayContaining(["KV405", "KV510"]));
    expect(result.diagnostics).toEqual(checkSources([source]).diagnostics);
  });

  it("with several servers, one schema that does not compile stops them all with the full check's diagnostics", async () => {
    const sources = [spec("three_a", 2, {}), spec("three_b", 2, { 0: "{ type: strnig }" })];
    const result = await build(sources);
    expect(result.servers).toEqual([]);
    expect(codes(result.diagnostics)).toEqual(["KV510"]);
    expect(result.diagnostics).toEqual(checkSources(sources).diagnostics);
  });

  it("a large spec (judged on two threads when it fails) gives the full check's diagnostics", async () => {
    const source = spec("large", POOL_SCHEMAS + 20, { 5: '{ type: string, pattern: "(" }', [POOL_SCHEMAS + 10]: "{ type: object, propertis: {} }" });
    const result = await build([source]);
    expect(codes(result.diagnostics)).toEqual(["KV510", "KV510"]);
    expect(result.diagnostics).toEqual(checkSources([source]).diagnostics);
  });

  it("under --strict, a schema that does not compile is reported as the check reports it, not the warnings", async () => {
    // A tool with no output schema that selects JSON is a lint warning (KV608): --strict stops there.
    const source = spec("strict", 2, { 0: "{ type: object, requird: [a] }" }, '  - name: plain\n    description: Read the plain item from the example API. Use it when asked for it.\n    http: { method: GET, baseUrl: https://api.example.com, path: /p }\n    output: { select: "@" }\n');
    const result = await build([source], true);
    expect(codes(result.diagnostics)).toEqual(["KV510"]);
    expect(result.diagnostics).toEqual(checkSources([source]).diagnostics);
  });
});

// A large spec's validators start compiling from the loaded spec, on a guess made before the check
// (pipeline.ts, emit/off-thread.ts); the worker waiting for them is what generate() starts for a
// large spec text, started here by hand so the specs can stay small.
describe("validators started early", () => {
  it("give the same server as validators compiled at the emit", async () => {
    const source = spec("early", OFF_THREAD_SCHEMAS / 2 + 5, {});
    const write = (out: string) => generate([source], { outRoot: join(root, out), check: false, pruneServers: false });
    expect(codes((await write("late")).diagnostics)).toEqual([]);
    prestartValidatorsWorker();
    expect(codes((await write("early")).diagnostics)).toEqual([]);
    for (const file of ["src/validators.mjs", "server.mjs"]) {
      expect(readFileSync(join(root, "early/early", file), "utf8")).toBe(readFileSync(join(root, "late/early", file), "utf8"));
    }
  });

  it("of a schema that does not compile end in the full check's diagnostics", async () => {
    const source = spec("early_bad", OFF_THREAD_SCHEMAS / 2 + 5, { 3: "{ type: object, requird: [a] }" });
    prestartValidatorsWorker();
    const result = await build([source]);
    expect(codes(result.diagnostics)).toEqual(["KV510"]);
    expect(result.diagnostics).toEqual(checkSources([source]).diagnostics);
  });

  it("from a guess on a spec the check refuses end in the check's diagnostics", async () => {
    for (const extra of ["  - name: broken\n    description: 7\n    exec: { argv: [/bin/true] }\n", "prompts: 3\n"]) {
      const source = spec("guess_bad", OFF_THREAD_SCHEMAS / 2 + 5, {}, extra);
      prestartValidatorsWorker();
      const result = await build([source]);
      expect(codes(result.diagnostics).length).toBeGreaterThan(0);
      expect(result.diagnostics).toEqual(checkSources([source]).diagnostics);
    }
  });

  it("are taken only for the same input, else compiled again", async () => {
    const input = (n: number): ValidatorsInput => ({
      dir: "x",
      specFile: "specs/x.yaml",
      schemas: Array.from({ length: OFF_THREAD_SCHEMAS }, (_, i) => ({ name: `validate_t${i}`, schema: { type: "object", properties: { [`p${i}`]: { type: "string", maxLength: n + i } } } })),
    });
    const one = input(1);
    startValidatorsEarly(one);
    expect(await validatorsModule(one).result).toEqual(emitValidatorsModule(one));
    // Equal schemas in other objects (the guess's normalize made them): the same bytes.
    startValidatorsEarly(one);
    expect(await validatorsModule(input(1)).result).toEqual(emitValidatorsModule(one));
    startValidatorsEarly(one);
    expect(await validatorsModule(input(2)).result).toEqual(emitValidatorsModule(input(2)));
  });

  it("that fail and are never taken do not take the process down", async () => {
    const bad: ValidatorsInput = { dir: "x", specFile: "specs/x.yaml", schemas: Array.from({ length: OFF_THREAD_SCHEMAS }, (_, i) => ({ name: `v${i}`, schema: { type: "object", requird: [`a${i}`] } })) };
    const failed = new Promise<unknown>((resolve) => process.once("unhandledRejection", resolve));
    startValidatorsEarly(bad);
    // Asked for another input: the early one is dropped, and this small one is compiled on this thread.
    expect(() => validatorsModule({ ...bad, schemas: bad.schemas.slice(0, 3) })).toThrow(/requird/);
    const outcome = await Promise.race([failed, new Promise((resolve) => setTimeout(() => resolve("none"), 500))]);
    expect(outcome).toBe("none");
  });
});
