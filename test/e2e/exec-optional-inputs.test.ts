// Optional exec inputs end to end: a spec with an optional boolean (fixed flag when true) and an
// optional integer (its arguments left out when absent) is generated, bundled, started as a real
// server, and called with the official MCP client; printf shows the exact argv each call ran.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { stringify } from "yaml";
import { generate } from "../../generator/pipeline.js";
import { connectStdio, type Connected } from "../helpers/client.js";

const root = mkdtempSync(join(tmpdir(), "kervan-optional-"));
const SPEC = stringify({
  server: { name: "optional-inputs", version: "0.1.0" },
  tools: [
    {
      name: "search",
      description: "Shows the arguments a search would get.",
      input: {
        type: "object",
        properties: { query: { type: "string" }, ignore_case: { type: "boolean" }, max: { type: "integer" } },
        required: ["query"],
        additionalProperties: false,
      },
      exec: {
        argv: ["printf", "[%s]", { if: "ignore_case", argv: ["--ignore-case"] }, { if: "max", argv: ["--max-count", "{max}"] }, "--", "{query}"],
      },
    },
  ],
});

type Text = { type: string; text: string };
let conn: Connected;

beforeAll(async () => {
  const r = await generate([{ path: "optional-inputs.yaml", text: SPEC }], { outRoot: root, check: false, pruneServers: false });
  expect(r.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  conn = await connectStdio(join(root, "optional-inputs", "server.mjs"), "2025-11-25");
}, 120_000);
afterAll(async () => {
  await conn?.close();
  rmSync(root, { recursive: true, force: true });
});

const call = (args: Record<string, unknown>) => conn.client.callTool({ name: "search", arguments: args });

describe("optional exec inputs through a generated server", () => {
  it("lists a closed schema in which only the unguarded field is required", async () => {
    const { tools } = await conn.client.listTools();
    expect(tools[0].inputSchema).toMatchObject({ required: ["query"], additionalProperties: false });
    expect(Object.keys(tools[0].inputSchema.properties ?? {}).sort()).toEqual(["ignore_case", "max", "query"]);
  });

  it.each([
    [{ query: "a b" }, "[--][a b]"],
    [{ query: "x", ignore_case: false }, "[--][x]"],
    [{ query: "x", ignore_case: true }, "[--ignore-case][--][x]"],
    [{ query: "x", max: 3 }, "[--max-count][3][--][x]"],
    [{ query: "-x", ignore_case: true, max: 0 }, "[--ignore-case][--max-count][0][--][-x]"],
  ])("%j runs exactly %s", async (args, argv) => {
    const res = await call(args);
    expect(res.isError).toBeFalsy();
    expect((res.structuredContent as { stdout: string }).stdout).toBe(argv);
  });

  it.each([
    [{ query: "x", ignore_case: "yes" }, /ignore_case/],
    [{ query: "x", max: "3" }, /max/],
    [{ ignore_case: true }, /query/],
    [{ query: "x", other: 1 }, /other/],
  ])("refuses %j before anything runs", async (args, why) => {
    const res = await call(args);
    expect(res.isError).toBe(true);
    expect((res.content as Text[])[0].text).toMatch(why);
    expect((res.structuredContent as { stdout?: string } | undefined)?.stdout ?? "").toBe("");
  });
});
