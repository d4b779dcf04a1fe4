// User text enters generated code only as escaped literals, identifiers made by ident(), or safe
// comment text. A spec puts hostile text in every place it can reach generated code: the spec's file
// name and an included schema's (a newline in both), server version, title and instructions, tool
// titles and descriptions, schema keys, descriptions, titles, enum values, defaults and patterns,
// exec argv, cwd and environment values, http header, query and body values. Then: every emitted
// source parses with no identifier the text carries (nothing became code), the sources type-check,
// the server starts, and it lists the text back exactly.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import ts from "typescript";
import { stringify } from "yaml";
import { generate } from "../../generator/pipeline.js";
import { connectStdio, type Connected } from "../helpers/client.js";
import { emittedTsconfig } from "../helpers/emitted-tsconfig.js";

// Each piece tries another way out of a literal or comment; each carries a call to an identifier
// starting with `pwned`, which must never appear as an identifier in any emitted file.
const ESCAPES = ["*/ pwnedA(); /*", '"); pwnedB(); ("', "'); pwnedC(); ('", "` + pwnedD() + `", "${pwnedE()}", "\u2028pwnedF();\u2029", "--> <!-- </script> pwnedG()", "\\\"); pwnedH(); //"];
const HOSTILE = ESCAPES.join(" | ");
const HOSTILE_NL = `${HOSTILE}\n pwnedI(); //\r\n pwnedJ();`;

const root = mkdtempSync(join(tmpdir(), "kervan-hostile-"));
const specDir = join(root, "spec\n pwnedK();");
const schemaFile = "schema\n pwnedL();.json";

function spec(): string {
  const hostileProperty = { type: "string", description: HOSTILE_NL, title: HOSTILE_NL, enum: [HOSTILE_NL, "plain"], default: HOSTILE_NL };
  // The http tool's output schema comes from an included file whose name holds a newline.
  const output = {
    type: "object",
    title: HOSTILE_NL,
    description: HOSTILE_NL,
    properties: {
      [HOSTILE_NL]: hostileProperty,
      text: { type: "string", description: HOSTILE_NL, pattern: "^[^*/\"'`]*$" },
      ref: { $ref: `#/$defs/${encodeURIComponent(HOSTILE).replace(/~/g, "~0")}` },
    },
    $defs: { [HOSTILE]: { type: "string", description: HOSTILE_NL } },
  };
  writeFileSync(join(specDir, schemaFile), JSON.stringify(output));
  return stringify(
    {
      server: { name: "hostile", version: HOSTILE_NL, title: HOSTILE_NL, instructions: HOSTILE_NL },
      tools: [
        {
          name: "echo",
          title: HOSTILE_NL,
          description: HOSTILE_NL,
          input: { type: "object", properties: { text: { type: "string", description: HOSTILE_NL, title: HOSTILE_NL } }, required: ["text"], additionalProperties: false },
          exec: { argv: ["echo", HOSTILE_NL.replace(/[{}]/g, (b) => b + b), "{text}"], cwd: ".", env: { set: { HOSTILE_VALUE: HOSTILE_NL } } },
        },
        {
          name: "send",
          title: HOSTILE_NL,
          description: HOSTILE_NL,
          input: {
            type: "object",
            properties: {
              q: { type: "string", description: HOSTILE_NL },
              obj: { type: "object", description: HOSTILE_NL, properties: { [HOSTILE_NL]: hostileProperty }, additionalProperties: false },
            },
            additionalProperties: false,
          },
          http: {
            method: "POST",
            baseUrl: "https://api.example.com/v1",
            path: "/items",
            query: { q: `{{input.q}}${HOSTILE}` },
            headers: { "X-Note": HOSTILE },
            body: { json: { [HOSTILE]: HOSTILE_NL, q: "{{input.q}}", data: "{{input.obj}}" } },
          },
          output: { select: "@", schema: `@${schemaFile}` },
        },
      ],
    },
    { lineWidth: 0 },
  );
}

function files(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) files(p, out);
    else out.push(p);
  }
  return out;
}

/** Identifiers in a parsed source that came from the hostile text. */
function injected(path: string): string[] {
  const kind = path.endsWith(".ts") || path.endsWith(".mts") ? ts.ScriptKind.TS : ts.ScriptKind.JS;
  const source = ts.createSourceFile(path, readFileSync(path, "utf8"), ts.ScriptTarget.ES2022, true, kind);
  const found: string[] = [];
  const problems = (source as unknown as { parseDiagnostics: ts.Diagnostic[] }).parseDiagnostics.map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
  const visit = (n: ts.Node) => {
    if (ts.isIdentifier(n) && n.text.startsWith("pwned")) found.push(n.text);
    n.forEachChild(visit);
  };
  visit(source);
  return [...problems.map((p) => `parse error: ${p}`), ...found];
}

let out: string;
let client: Connected | undefined;
beforeAll(async () => {
  mkdirSync(specDir, { recursive: true });
  const specPath = join(specDir, "hostile\n pwnedM();.yaml");
  writeFileSync(specPath, spec());
  out = join(root, "out");
  const r = await generate([{ path: relative(process.cwd(), specPath), text: readFileSync(specPath, "utf8") }], { outRoot: out, check: false, pruneServers: false });
  expect(r.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
}, 120_000);
afterAll(async () => client?.close());

describe("hostile text in every place it reaches generated code", () => {
  it("stays text: no emitted file gains an identifier from it", () => {
    const emitted = files(join(out, "hostile")).filter((f) => /\.(ts|mts|mjs)$/.test(f));
    expect(emitted.length).toBeGreaterThanOrEqual(6);
    for (const f of emitted) expect(injected(f), relative(out, f)).toEqual([]);
  });

  it("AUDIT.md keeps it on its lines: its header comment is not ended early", () => {
    const audit = readFileSync(join(out, "hostile", "AUDIT.md"), "utf8");
    const header = audit.split("\n")[0];
    expect(header).toMatch(/^<!-- Generated by Kervan from .*pwnedM.* -->$/);
    expect(header.slice(4, -3)).not.toContain("--");
    expect(audit).toContain("`schema\\n pwnedL();.json`");
  });

  it("the emitted sources type-check", () => {
    const config = emittedTsconfig(join(out, "hostile"));
    const r = spawnSync(process.execPath, ["node_modules/typescript/bin/tsc", "-p", config], { encoding: "utf8" });
    expect(r.stdout + r.stderr).toBe("");
  }, 120_000);

  it("server and tool names cannot carry it: the spec format refuses them by pattern", async () => {
    const doc = (server: string, tool: string) => stringify({ server: { name: server, version: "1" }, tools: [{ name: tool, exec: { argv: ["date"] } }] });
    for (const [server, tool] of [[HOSTILE_NL, "ok"], ["ok", HOSTILE_NL]]) {
      const r = await generate([{ path: "hostile-names.yaml", text: doc(server, tool) }], { outRoot: join(root, "names"), check: false, pruneServers: false });
      expect(r.report).toBeUndefined();
      expect(r.diagnostics.map((d) => d.code)).toContain("KV204");
    }
  });

  it("the server starts and lists the text back exactly", async () => {
    client = await connectStdio(join(out, "hostile", "server.mjs"), "2025-11-25");
    const info = client.client.getServerVersion();
    expect(info?.version).toBe(HOSTILE_NL);
    expect(client.client.getInstructions()).toBe(HOSTILE_NL);
    const { tools } = await client.client.listTools();
    for (const t of tools) {
      expect(t.description).toBe(HOSTILE_NL);
      expect(t.title).toBe(HOSTILE_NL);
    }
    const send = tools.find((t) => t.name === "send")!;
    expect(Object.keys((send.inputSchema.properties!.obj as { properties: object }).properties)).toEqual([HOSTILE_NL]);
    expect(Object.keys(send.outputSchema!.properties!)).toEqual([HOSTILE_NL, "text", "ref"]);
    const r = await client.client.callTool({ name: "echo", arguments: { text: "ok" } });
    expect((r.content as { text: string }[])[0].text).toContain(`${HOSTILE_NL} ok`);
  });
});
