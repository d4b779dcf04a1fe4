// The CLI form (`kervan serve|gen --tool ... --exec ...`): served to the official client, and every
// startup error of the placeholder contract refused before anything is served.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";

const KERVAN = "bin/kervan.mjs";
const kervan = (...args: string[]) => spawnSync(process.execPath, [KERVAN, ...args], { encoding: "utf8", input: "" });
type Text = { type: string; text: string };

describe("kervan serve from flags", () => {
  let client: Client;
  beforeAll(async () => {
    const schema = JSON.stringify({
      type: "object",
      properties: { count: { type: "integer", description: "How many" } },
      required: ["count"],
      additionalProperties: false,
    });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [KERVAN, "serve", "--server-name", "flags",
        "--tool", "--name", "say", "--description", "Print a message.", "--exec", "printf", "%s|", "{message}", "{{literal}}",
        "--tool", "--name", "repeat", "--input-schema", schema, "--exec", "seq", "{count}"],
    });
    client = new Client({ name: "t", version: "0" }, { versionNegotiation: { mode: "auto" } });
    await client.connect(transport);
  }, 60_000);
  afterAll(() => client?.close());

  it("infers a required string per placeholder when no schema is given", async () => {
    const { tools } = await client.listTools();
    const say = tools.find((t) => t.name === "say")!;
    expect(say.inputSchema).toEqual({ type: "object", properties: { message: { type: "string" } }, required: ["message"], additionalProperties: false });
    expect(say.description).toBe("Print a message.");
  });

  it("renders the value as one argument and literal braces from {{ }}", async () => {
    const res = await client.callTool({ name: "say", arguments: { message: "a b; $(id)" } });
    expect((res.structuredContent as { stdout: string }).stdout).toBe("a b; $(id)|{literal}|");
  });

  it("normalizes numbers and refuses a wrong scalar type", async () => {
    const ok = await client.callTool({ name: "repeat", arguments: { count: 3 } });
    expect((ok.structuredContent as { stdout: string }).stdout).toBe("1\n2\n3\n");
    const bad = await client.callTool({ name: "repeat", arguments: { count: "3" } });
    expect(bad.isError).toBe(true);
    expect((bad.content as Text[])[0].text).toMatch(/\/count.*integer/s);
  });
});

describe("kervan --tool ... with no command", () => {
  it("serves the tools on stdio, as the seed's CLI form does", () => {
    const list = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} } } });
    const r = spawnSync(process.execPath, [KERVAN, "--tool", "--name", "say", "--exec", "echo", "{msg}"], { encoding: "utf8", input: list + "\n" });
    expect(r.status).toBe(0);
    const reply = JSON.parse(r.stdout.trim());
    expect(reply.result.tools.map((t: { name: string }) => t.name)).toEqual(["say"]);
  });
});

describe("CLI form startup errors", () => {
  const schema = (props: object, required: string[]) => JSON.stringify({ type: "object", properties: props, required, additionalProperties: false });
  const cases: [string, string[], RegExp][] = [
    ["placeholder missing from properties", ["--input-schema", schema({ a: { type: "string" } }, ["a"]), "--exec", "echo", "{a}", "{b}"], /KV323: placeholder \{b\} has no property/],
    ["property no argument uses", ["--input-schema", schema({ a: { type: "string" }, b: { type: "string" } }, ["a", "b"]), "--exec", "echo", "{a}"], /KV324: property 'b' is not used/],
    ["property missing from required", ["--input-schema", schema({ a: { type: "string" } }, []), "--exec", "echo", "{a}"], /KV320: property 'a' is optional \(not in 'required'\), but no \{if: a\} argument group/],
    ["nested property type", ["--input-schema", schema({ a: { type: "array" } }, ["a"]), "--exec", "echo", "{a}"], /KV319/],
    ["invalid JSON schema text", ["--input-schema", "{nope", "--exec", "echo"], /--input-schema must be a JSON object/],
    ["missing --exec", [], /needs --exec/],
    ["bad integer flag", ["--process-timeout-ms", "soon", "--exec", "echo"], /requires a positive integer/],
    ["unknown flag", ["--frob", "x", "--exec", "echo"], /unknown tool option/],
    ["bad --sandbox value", ["--sandbox", "off", "--exec", "echo"], /--sandbox takes none or bubblewrap, got "off"/],
  ];
  for (const [name, flags, expected] of cases) {
    it(name, () => {
      const r = kervan("serve", "--tool", "--name", "t", ...flags);
      expect(r.status).not.toBe(0);
      expect(r.stderr).toMatch(expected);
      expect(r.stdout).toBe("");
    });
  }

  it("runs under the OS sandbox by default; --sandbox none opts out, and the manifest says which", () => {
    const dir = mkdtempSync(join(tmpdir(), "kervan-cli-"));
    const gen = (name: string, ...flags: string[]) => kervan("gen", "--out", dir, "--server-name", name, "--tool", "--name", "t", "--description", "Print the date. Use it to see the time.", ...flags, "--exec", "date");
    expect(gen("boxed").status).toBe(0);
    expect(gen("open", "--sandbox", "none").status).toBe(0);
    const facts = (name: string) => JSON.parse(readFileSync(join(dir, name, "kervan.manifest.json"), "utf8")).tools[0].facts.sandbox;
    expect(facts("boxed")).toMatchObject({ enforcedBy: "bubblewrap", visible: ["."], writable: [], network: false });
    expect(facts("open")).toEqual({ enforcedBy: "none" });
    expect(readFileSync(join(dir, "open", "AUDIT.md"), "utf8")).toContain("**none**: the command and its descendants reach whatever the server's user can");
  });

  it("reads --input-schema @file and generates with `kervan gen`", () => {
    const dir = mkdtempSync(join(tmpdir(), "kervan-cli-"));
    writeFileSync(join(dir, "s.json"), schema({ path: { type: "string", description: "File" } }, ["path"]));
    const r = kervan("gen", "--out", dir, "--server-name", "cat-server", "--tool", "--name", "cat", "--input-schema", `@${join(dir, "s.json")}`, "--fs-path-field", "path", "--exec", "cat", "--", "{path}");
    expect(r.stderr).toMatch(/cat-server generated/);
    expect(r.status).toBe(0);
    expect(existsSync(join(dir, "cat-server/server.mjs"))).toBe(true);
  });
});
