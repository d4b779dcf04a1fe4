// `kervan pack`: the .mcpb passes the official MCPB tooling (unpacked and validated with
// @anthropic-ai/mcpb), and its server starts as its manifest says and lists the manifest's tools;
// server.json passes the MCP registry's published schema (vendored in test/fixtures/mcp-registry)
// and names the bundle by its sha256. The same server packs to the same bytes.
import { beforeAll, describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Ajv } from "ajv";
import addFormats from "ajv-formats";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";

const MCPB = join(process.cwd(), "node_modules/@anthropic-ai/mcpb/dist/cli/cli.js");
const kervan = (...args: string[]) => spawnSync(process.execPath, ["bin/kervan.mjs", ...args], { encoding: "utf8" });
const mcpb = (...args: string[]) => spawnSync(process.execPath, [MCPB, ...args], { encoding: "utf8" });

function registryValidator() {
  const ajv = new Ajv({ strict: false, allErrors: true });
  (addFormats as unknown as (a: Ajv) => void)(ajv);
  return ajv.compile(JSON.parse(readFileSync("test/fixtures/mcp-registry/server.schema.json", "utf8")));
}

interface Packed {
  dest: string;
  bundle: string;
  unpacked: string;
  manifest: Record<string, any>;
  serverJson: Record<string, any>;
}

function pack(server: string): Packed {
  const dest = mkdtempSync(join(tmpdir(), "kervan-pack-"));
  const url = `https://github.com/example/${server}/releases/download/v0.1.0/${server}-0.1.0.mcpb`;
  const r = kervan("pack", server, "--dest", dest, "--registry-name", `io.github.example/${server}`, "--url", url, "--author", "Kervan tests");
  expect(r.status, r.stderr).toBe(0);
  const bundle = join(dest, server, `${server}-0.1.0.mcpb`);
  const unpacked = mkdtempSync(join(tmpdir(), "kervan-unpacked-"));
  const u = mcpb("unpack", bundle, unpacked);
  expect(u.status, u.stdout + u.stderr).toBe(0);
  return {
    dest,
    bundle,
    unpacked,
    manifest: JSON.parse(readFileSync(join(unpacked, "manifest.json"), "utf8")),
    serverJson: JSON.parse(readFileSync(join(dest, server, "server.json"), "utf8")),
  };
}

describe.each(["github-issues", "repo-explorer"])("kervan pack %s", (server) => {
  let packed: Packed;
  beforeAll(() => {
    packed = pack(server);
  });

  it("writes a bundle the official MCPB tooling validates", () => {
    const v = mcpb("validate", join(packed.unpacked, "manifest.json"));
    expect(v.stdout + v.stderr).toContain("validation passes");
    expect(v.status).toBe(0);
    expect(readFileSync(join(packed.unpacked, "server/server.mjs"), "utf8")).toBe(readFileSync(`out/${server}/server.mjs`, "utf8"));
    expect(readFileSync(join(packed.unpacked, "AUDIT.md"), "utf8")).toBe(readFileSync(`out/${server}/AUDIT.md`, "utf8"));
  });

  it("writes a server.json the registry's schema accepts, naming the bundle by its sha256", () => {
    const validate = registryValidator();
    expect(validate(packed.serverJson), JSON.stringify(validate.errors)).toBe(true);
    const pkg = packed.serverJson.packages[0];
    expect(pkg.fileSha256).toBe(createHash("sha256").update(readFileSync(packed.bundle)).digest("hex"));
    expect(pkg.registryType).toBe("mcpb");
    expect(packed.serverJson.name).toBe(`io.github.example/${server}`);
  });

  it("asks for secrets as sensitive settings and never holds a value", () => {
    const secrets: string[] = JSON.parse(readFileSync(`out/${server}/kervan.manifest.json`, "utf8")).capabilities.secrets;
    for (const s of secrets) {
      expect(packed.manifest.server.mcp_config.env[s]).toMatch(/^\$\{user_config\.[a-z0-9_]+\}$/);
      expect(packed.serverJson.packages[0].environmentVariables).toContainEqual(expect.objectContaining({ name: s, isSecret: true }));
    }
    const sensitive = Object.values(packed.manifest.user_config ?? {}).filter((c: any) => c.sensitive);
    expect(sensitive).toHaveLength(secrets.length);
  });

  it("starts as its manifest says and serves the manifest's tools", async () => {
    const config = packed.manifest.server.mcp_config;
    const fill = (text: string) =>
      text.replace("${__dirname}", packed.unpacked).replace(/\$\{user_config\.([a-z0-9_]+)\}/g, (_m, key) => (key === "working_directory" ? tmpdir() : "test-value"));
    const env = Object.fromEntries(Object.entries((config.env ?? {}) as Record<string, string>).map(([k, v]) => [k, fill(v)]));
    const transport = new StdioClientTransport({ command: process.execPath, args: config.args.map(fill), env: { ...(process.env as Record<string, string>), ...env }, stderr: "pipe" });
    const client = new Client({ name: "pack-test", version: "0.0.0" }, { versionNegotiation: { mode: "legacy" } });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(packed.manifest.tools.map((t: { name: string }) => t.name).sort());
    } finally {
      await client.close();
    }
  });

  it("packs the same server to the same bytes", () => {
    const again = pack(server);
    expect(readFileSync(again.bundle).equals(readFileSync(packed.bundle))).toBe(true);
  });
});

describe("kervan pack errors", () => {
  it("refuses a registry name without a namespace and a server that was not generated", () => {
    expect(kervan("pack", "repo-explorer", "--registry-name", "weather").stderr).toContain("must look like NAMESPACE/NAME");
    const missing = kervan("pack", "nope");
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain("no generated server nope");
  });
});
