// A kind defined only in test/ (test/fixtures/kinds/echo) goes through the whole generator by its
// definition alone: the spec schema takes its fragment, check and normalize run, its module is
// emitted and bundled with its runtime, the lint reads its effects, AUDIT.md shows its facts and
// effects, and the changelog judges a widened effect as breaking. The server it builds answers.
import { afterAll, describe, expect, it } from "vitest";
import { existsSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { addKind } from "../../generator/kinds/index.js";
import { allCodes, codesDoc } from "../../generator/kinds/codes.js";
import { generate } from "../../generator/pipeline.js";
import { specSchema } from "../../generator/check/spec-schema.js";
import { changelog } from "../../generator/audit/changelog.js";
import type { Manifest } from "../../generator/audit/types.js";
import { echoKind } from "../fixtures/kinds/echo/kind.js";
import { connectStdio, type Connected } from "../helpers/client.js";

addKind(echoKind);

const spec = (env: string) => `server: { name: echo-fixture, version: 1.0.0 }
tools:
  - name: echo
    description: Echo the given text back with a prefix. Use it to check that the server answers.
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false }
    echo: { prefix: ">> "${env} }
  - name: shout
    description: Echo the given text back in capitals, marked as destructive by mistake. Use it when the user wants to be heard.
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false }
    echo: { prefix: "!! " }
`;

async function build(env: string) {
  const out = mkdtempSync(join(tmpdir(), "kervan-echo-"));
  const result = await generate([{ path: "specs/echo-fixture.yaml", text: spec(env) }], { outRoot: out, check: false, pruneServers: false });
  const dir = join(out, "echo-fixture");
  return { result, dir, manifest: JSON.parse(readFileSync(join(dir, "kervan.manifest.json"), "utf8")) as Manifest, audit: readFileSync(join(dir, "AUDIT.md"), "utf8") };
}

const open: Connected[] = [];
afterAll(async () => {
  for (const c of open) await c.close();
});

describe("a kind defined outside generator/kinds", () => {
  it("is its folder (with its runtime folder) and this one addKind line, and owns its codes, docs and goldens", () => {
    const own = "test/fixtures/kinds/echo";
    expect(readdirSync(own).sort()).toEqual(["README.md", "bad-specs", "codes.ts", "emit", "kind.ts", "runtime"]);
    expect(echoKind.runtime.dir).toBe(`${own}/runtime`);
    expect(readFileSync(new URL(import.meta.url), "utf8").match(/^addKind\(/gm)).toHaveLength(1);
    // Its codes join the table, and nothing outside its folder knows them.
    expect(echoKind.codes.codes.map((c) => c.code)).toEqual(["KV901"]);
    expect(allCodes().find((c) => c.code === "KV901")).toEqual(echoKind.codes.codes[0]);
    expect(codesDoc()).not.toContain("KV901");
    // Its docs, its bad spec and its emit golden are in its folder.
    expect(echoKind.docs).toBe(`${own}/README.md`);
    expect(readFileSync(`${own}/bad-specs/01-nul-prefix.expected.txt`, "utf8")).toContain("error KV901:");
    expect(existsSync(`${own}/emit/prefix/expected/tools/echo.ts`)).toBe(true);
  });


  it("is part of the spec schema", () => {
    const tool = (specSchema().$defs as Record<string, { properties: Record<string, unknown> }>).tool;
    expect(tool.properties.echo).toEqual(echoKind.schema);
  });

  it("builds, lints, audits and runs", async () => {
    const v1 = await build("");
    expect(v1.result.diagnostics.map((d) => `${d.code} ${d.message}`)).toEqual([
      "KV607 annotations of 'shout' contradict the tool: the tool only echoes its input but is marked destructiveHint: true",
    ]);
    const tool = v1.manifest.tools.find((t) => t.name === "echo")!;
    expect(tool.kind).toBe("echo");
    expect(tool.facts).toEqual({ prefix: ">> ", suffixFrom: null });
    expect(tool.effects).toMatchObject({ commands: [], hosts: [], env: [], shell: false, network: false, readsOnly: "only echoes its input" });
    expect(v1.audit).toContain("- Echo prefix: `>> `");
    expect(v1.audit).toContain("- Suffix read from: none");
    expect(v1.audit).toContain("| Tools | 2 (2 echo) |");
    const c = await connectStdio(join(v1.dir, "server.mjs"), "2026-07-28");
    open.push(c);
    const r = await c.client.callTool({ name: "echo", arguments: { text: "hi" } });
    expect(r.content).toEqual([{ type: "text", text: ">> hi" }]);
  });

  it("changelogs a widened effect as breaking", async () => {
    const [v1, v2] = [await build(""), await build(", env: ECHO_SUFFIX")];
    const log = changelog(v1.manifest, v2.manifest);
    expect(log.changes.filter((ch) => ch.breaking).map((ch) => ch.breaking)).toEqual(["widened capability: a new environment variable is read (ECHO_SUFFIX)"]);
    expect(v2.audit).toContain("| Environment variables read | `ECHO_SUFFIX` |");
    const c = await connectStdio(join(v2.dir, "server.mjs"), "2026-07-28", [], { ECHO_SUFFIX: "!" });
    open.push(c);
    const r = await c.client.callTool({ name: "echo", arguments: { text: "hi" } });
    expect(r.content).toEqual([{ type: "text", text: ">> hi!" }]);
  });
});
