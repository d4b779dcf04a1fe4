// A large spec's tool schemas are compiled once per build: the check presumes they compile and the
// emit's strict compile of the validators proves it (shared/schema-compiler.ts). What a user sees
// must be what a build that judges each schema in the check gives: every KV510 at once, with the
// spec's other errors, and nothing written.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { load } from "../../generator/load.js";
import { check } from "../../generator/check/index.js";
import { toolSchemas } from "../../generator/check/judge.js";
import { generate, openBuild } from "../../generator/pipeline.js";
import { SchemaCompiler, UnprovenSchemas } from "../../generator/shared/schema-compiler.js";
import { OFF_THREAD } from "../../generator/shared/worker-pool.js";
import type { Json } from "../../templates/runtime/types.js";

const TOOLS = OFF_THREAD + 10;
const root = mkdtempSync(join(tmpdir(), "kervan-presumed-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A spec of many http tools; `output` overrides some tools' output schemas, `extra` adds lines to one tool. */
function largeSpec(output: Record<number, string>, extra: Record<number, string> = {}): string {
  const tools = Array.from({ length: TOOLS }, (_, i) =>
    [
      `  - name: tool_${String(i).padStart(3, "0")}`,
      `    description: Read item ${i} from the example API. Use it when asked for item ${i}.`,
      `    input: { type: object, properties: { q${i}: { type: string, maxLength: ${i + 1} } }, additionalProperties: false }`,
      `    http: { method: GET, baseUrl: https://api.example.com, path: /x, query: { q: "{{input.q${i}}}" } }`,
      `    output: { select: "@", schema: ${output[i] ?? `{ type: object, properties: { v${i}: { type: integer } } }`} }`,
      ...(extra[i] ? [extra[i]] : []),
    ].join("\n"),
  );
  return `server: { name: large, version: 0.1.0 }\ntools:\n${tools.join("\n")}\n`;
}

const errors = (ds: { code: string; severity: string; location: { pointer: string } }[]) => ds.filter((d) => d.severity === "error").map((d) => `${d.code} ${d.location.pointer}`);

async function generated(name: string, text: string) {
  const outRoot = join(root, name);
  const result = await generate([{ path: `${name}.yaml`, text }], { outRoot, check: false, pruneServers: false });
  return { result, written: existsSync(join(outRoot, "large")) };
}

describe("tool schemas presumed by the check and proved by the emit", () => {
  // Among them, schemas that stages before the emit read as they stand (a required that is no list,
  // $defs that are no object, an unknown format): whatever trips first, the answer is the check's.
  it("reports every schema that does not compile, as the check alone does, and writes nothing", async () => {
    const text = largeSpec({
      7: '{ type: string, pattern: "([a-z" }',
      11: "{ type: object, required: 5 }",
      12: "{ type: object, $defs: 3 }",
      13: "{ type: object, properties: { v: { type: string, format: bogus } } }",
      [TOOLS - 1]: "{ type: object, requird: [a] }",
    });
    const { result, written } = await generated("broken", text);
    expect(errors(result.diagnostics)).toEqual([7, 11, 12, 13, TOOLS - 1].map((i) => `KV510 /tools/${i}/output/schema`));
    expect(result.diagnostics).toEqual(check(load([{ path: "broken.yaml", text }], [])));
    expect(written).toBe(false);
  }, 120_000);

  it("reports a schema that does not compile beside the spec's other errors", async () => {
    const text = largeSpec({ 3: "{ type: strnig }" }, { 5: "    scopes: 7" });
    const { result, written } = await generated("both", text);
    const found = errors(result.diagnostics);
    expect(found).toContain("KV510 /tools/3/output/schema");
    expect(found.some((e) => e.includes("/tools/5/scopes"))).toBe(true);
    expect(result.diagnostics).toEqual(check(load([{ path: "both.yaml", text }], [])));
    expect(written).toBe(false);
  }, 120_000);

  it("builds a large spec whose schemas all compile", async () => {
    const { result, written } = await generated("good", largeSpec({}));
    expect(errors(result.diagnostics)).toEqual([]);
    expect(written).toBe(true);
  }, 120_000);
});

describe("the schema compiler's presumptions", () => {
  const good: Json = { type: "object", properties: { a: { type: "string" } } };
  const bad: Json = { type: "object", requird: ["a"] };
  const keyed = (...schemas: Json[]) => new Map(schemas.map((s) => [JSON.stringify(s), s]));

  it("answers a presumed schema as compiling until it is settled", async () => {
    const compiler = new SchemaCompiler();
    compiler.presume(keyed(good, bad));
    expect(compiler.error(bad)).toBeUndefined();
    expect(compiler.presuming).toBe(true);
    const build = openBuild();
    try {
      await expect(compiler.settle(build.pool)).rejects.toBeInstanceOf(UnprovenSchemas);
    } finally {
      build.close();
    }
    expect(compiler.presuming).toBe(false);
    expect(compiler.error(bad)).toMatch(/requird/);
  });

  it("takes a schema the emit compiled as proved, and settles the rest by judging them", async () => {
    const compiler = new SchemaCompiler();
    compiler.presume(keyed(good, bad));
    compiler.prove([bad]);
    expect(compiler.presuming).toBe(true);
    compiler.prove([good]);
    expect(compiler.presuming).toBe(false);
    const build = openBuild();
    try {
      await expect(compiler.settle(build.pool)).resolves.toBeUndefined();
    } finally {
      build.close();
    }
  });

  it("presumes only what it has not judged", () => {
    const compiler = new SchemaCompiler();
    expect(compiler.error(bad)).toMatch(/requird/);
    compiler.presume(keyed(bad));
    expect(compiler.presuming).toBe(false);
    expect(compiler.error(bad)).toMatch(/requird/);
    expect(toolSchemas(load([{ path: "x.yaml", text: largeSpec({}) }], [])).size).toBe(TOOLS * 2);
  });
});
