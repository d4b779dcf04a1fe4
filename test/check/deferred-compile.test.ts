// `kervan gen` judges every tool schema in its check stage with the build's compiler (on two
// threads for a large spec): a schema that does not compile gives exactly the diagnostics of the
// check alone (checkSources, on this thread), on every way out of the build: a build that reaches
// the emit, one stopped by another error, one with many servers, a large one, and one under --strict.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { checkSources, generate } from "../../generator/pipeline.js";
import type { SourceFile } from "../../generator/model/spec.js";
import { OFF_THREAD } from "../../generator/shared/worker-pool.js";

const root = mkdtempSync(join(tmpdir(), "kervan-deferred-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

// Every test uses schemas of its own (`seed`).
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

describe("the build's schema compiles", () => {
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
    const source = spec("large", OFF_THREAD + 20, { 5: '{ type: string, pattern: "(" }', [OFF_THREAD + 10]: "{ type: object, propertis: {} }" });
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
