// What the generator refuses to read, and what it must still build: regular files only, sizes
// capped, @file references inside the spec's folder, aliases bounded but usable, and property names
// that happen to be Object.prototype members built like any other.
import { describe, expect, it } from "vitest";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { checkSources, generate } from "../../generator/pipeline.js";
import { readSources, UsageError } from "../../generator/cli/sources.js";
import { emitTypes } from "../../generator/emit/types.js";
import { SpecRefused } from "../../generator/shared/refusal.js";
import { READ_LIMITS } from "../../generator/shared/read-bounded.js";
import { TEXT_LIMIT } from "../../generator/check/document-keys.js";
import type { ServerPlan } from "../../generator/model/plan.js";
import { connectStdio } from "../helpers/client.js";

const folder = () => mkdtempSync(join(tmpdir(), "kervan-limits-"));
const rel = (p: string) => relative(process.cwd(), p);

const spec = (input: string, description = "Print a greeting.") =>
  `server: { name: limits, version: 0.1.0 }\ntools:\n  - name: a\n    description: ${JSON.stringify(description)}\n    input: ${input}\n    exec: { argv: [echo, "{name}"] }\n`;
const schema = JSON.stringify({ type: "object", additionalProperties: false, required: ["name"], properties: { name: { type: "string", description: "Who." } } });

function errorsOf(path: string, text: string) {
  return checkSources([{ path: rel(path), text }]).diagnostics.filter((d) => d.severity === "error");
}

/** Builds in memory: check mode against an empty folder, so nothing is written anywhere. */
async function build(path: string, text: string) {
  const result = await generate([{ path: rel(path), text }], { outRoot: join(folder(), "out"), check: true, pruneServers: false });
  return { errors: result.diagnostics.filter((d) => d.severity === "error"), built: result.report !== undefined };
}

describe("@file schema references", () => {
  it("read a schema file inside the spec's folder", () => {
    const dir = folder();
    mkdirSync(join(dir, "schemas"));
    writeFileSync(join(dir, "schemas/a.json"), schema);
    expect(errorsOf(join(dir, "s.yaml"), spec('"@schemas/a.json"'))).toEqual([]);
  });

  it("refuse a FIFO inside the folder without blocking on it", () => {
    const dir = folder();
    execFileSync("mkfifo", [join(dir, "pipe.json")]);
    const [e] = errorsOf(join(dir, "s.yaml"), spec('"@pipe.json"'));
    expect(e.code).toBe("KV105");
    expect(e.message).toBe("schema file pipe.json is a FIFO, not a regular file");
  });

  it("refuse a folder and a file over the size limit", () => {
    const dir = folder();
    mkdirSync(join(dir, "sub"));
    writeFileSync(join(dir, "big.json"), " ".repeat(READ_LIMITS.schemaFileBytes + 1));
    expect(errorsOf(join(dir, "s.yaml"), spec('"@sub"')).map((e) => e.message)).toEqual(["schema file sub is a folder, not a regular file"]);
    expect(errorsOf(join(dir, "s.yaml"), spec('"@big.json"')).map((e) => e.message)).toEqual([`schema file big.json is ${READ_LIMITS.schemaFileBytes + 1} bytes; the limit is 1 MiB`]);
  });

  it("refuse a symbolic link inside the folder that leads outside it", () => {
    const dir = folder();
    const outside = folder();
    writeFileSync(join(outside, "s.json"), schema);
    symlinkSync(join(outside, "s.json"), join(dir, "link.json"));
    const [e] = errorsOf(join(dir, "s.yaml"), spec('"@link.json"'));
    expect(e.code).toBe("KV104");
    expect(e.message).toBe("schema file link.json links to a file outside the spec's folder; @file paths stay inside it");
  });
});

describe("spec files", () => {
  it("a spec over the size limit is one diagnostic at line 1, not parsed", () => {
    const text = spec("{}") + "#".repeat(READ_LIMITS.specBytes);
    const [e, ...rest] = errorsOf("big.yaml", text);
    expect(rest).toEqual([]);
    expect(e.code).toBe("KV103");
    expect(e.location.line).toBe(1);
  });

  it("the CLI refuses a device, a FIFO and a folder's non-files as spec files, without reading them", () => {
    const dir = folder();
    execFileSync("mkfifo", [join(dir, "pipe.yaml")]);
    expect(() => readSources(["/dev/zero"])).toThrow(new UsageError("spec file /dev/zero is a device, not a regular file"));
    expect(() => readSources([join(dir, "pipe.yaml")])).toThrow(UsageError);
    expect(() => readSources([dir])).toThrow(/is a FIFO, not a regular file/);
  });

  it("a text longer than the limit is refused where it is", () => {
    const [e] = errorsOf("long.yaml", spec(schema, "d".repeat(TEXT_LIMIT + 1)));
    expect(e.code).toBe("KV208");
    expect(e.location.pointer).toBe("/tools/0/description");
    expect(e.location.line).toBe(4);
  });
});

describe("aliases", () => {
  it("a spec that uses one anchor 120 times builds", async () => {
    const props = Array.from({ length: 120 }, (_, i) => `        p${i}: ${i ? "*p" : "&p { type: string, description: A word. }"}`).join("\n");
    const argv = Array.from({ length: 120 }, (_, i) => `"{p${i}}"`).join(", ");
    const required = Array.from({ length: 120 }, (_, i) => `p${i}`).join(", ");
    const text = `server: { name: aliases, version: 0.1.0 }\ntools:\n  - name: a\n    description: Print words.\n    input:\n      type: object\n      additionalProperties: false\n      required: [${required}]\n      properties:\n${props}\n    exec: { argv: [echo, ${argv}] }\n`;
    const result = await build("aliases.yaml", text);
    expect(result.errors).toEqual([]);
    expect(result.built).toBe(true);
  });
});

describe("property names that are Object.prototype members", () => {
  it("build and serve: each value reaches the command under its own name", async () => {
    const names = ["hasOwnProperty", "constructor", "toString", "valueOf", "isPrototypeOf"];
    const input = { type: "object", additionalProperties: false, required: names, properties: Object.fromEntries(names.map((n) => [n, { type: "string", description: "A word." }])) };
    const text = `server: { name: protonames, version: 0.1.0 }\ntools:\n  - name: a\n    description: Print words.\n    input: ${JSON.stringify(input)}\n    exec: { argv: [echo, ${names.map((n) => `"{${n}}"`).join(", ")}] }\n`;
    const out = join(folder(), "out");
    const result = await generate([{ path: "protonames.yaml", text }], { outRoot: out, check: false, pruneServers: false });
    expect(result.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    const server = await connectStdio(join(out, "protonames/server.mjs"), "2026-07-28");
    try {
      const args = Object.fromEntries(names.map((n, i) => [n, `v${i}`]));
      const res = await server.client.callTool({ name: "a", arguments: args });
      expect((res.structuredContent as { stdout: string }).stdout).toBe("v0 v1 v2 v3 v4\n");
      const missing = await server.client.callTool({ name: "a", arguments: { ...args, constructor: undefined } });
      expect(missing.isError).toBe(true);
    } finally {
      await server.close();
    }
  }, 60_000);

  it("a schema the type compiler cannot read is a diagnostic at the schema, not a crash", async () => {
    const loop = { type: "object", allOf: [{ $ref: "#" }], properties: { q: { type: "string" } } };
    const plan = {
      server: { origin: { file: "s.yaml", pointer: "" } },
      dir: "s",
      tools: [{ tool: { inputSchema: loop, origin: { file: "s.yaml", pointer: "/tools/0" } }, inputType: "AInput" }],
    } as unknown as ServerPlan;
    const refused = await emitTypes(plan).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(SpecRefused);
    expect(refused).toMatchObject({ code: "KV515", file: "s.yaml", pointer: "/tools/0/input" });
  });
});
