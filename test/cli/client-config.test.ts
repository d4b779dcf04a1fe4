// `kervan client-config` for each client: the snippet parses, names absolute paths, carries the
// working directory and the server's secrets as that client's placeholders (never their values),
// and the command it describes really starts the server in that folder for the official client.
import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { isAbsolute, join } from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";

const kervan = (args: string[], env: Record<string, string> = {}) =>
  spawnSync(process.execPath, ["bin/kervan.mjs", ...args], { encoding: "utf8", env: { ...process.env, ...env } });

interface Entry {
  type?: string;
  command: string;
  args: string[];
  env?: Record<string, string>;
}

const PLACEHOLDER: Record<string, string> = {
  "claude-desktop": "<GITHUB_TOKEN>",
  "claude-code": "${GITHUB_TOKEN}",
  cursor: "${env:GITHUB_TOKEN}",
  vscode: "${input:github-token}",
};

function entryOf(client: string, config: Record<string, any>, name: string): Entry {
  return client === "vscode" ? config.servers[name] : config.mcpServers[name];
}

describe.each(Object.keys(PLACEHOLDER))("kervan client-config --client %s", (client) => {
  it("gives absolute paths, the working directory and the secrets as placeholders", () => {
    const cwd = mkdtempSync(join(tmpdir(), "kervan-client-"));
    const r = kervan(["client-config", "github-issues", "--client", client, "--cwd", cwd], { GITHUB_TOKEN: "ghp_real_value_never_printed" });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).not.toContain("ghp_real_value_never_printed");
    const config = JSON.parse(r.stdout);
    const entry = entryOf(client, config, "github-issues");
    expect(isAbsolute(entry.command)).toBe(true);
    expect(entry.args).toEqual([join(process.cwd(), "out/github-issues/server.mjs"), "--cwd", cwd]);
    expect(entry.env).toEqual({ GITHUB_TOKEN: PLACEHOLDER[client] });
    if (client === "vscode") {
      expect(config.inputs).toEqual([{ type: "promptString", id: "github-token", description: "GITHUB_TOKEN for github-issues", password: true }]);
      expect(entry.type).toBe("stdio");
    }
    expect(r.stderr).toMatch(/^kervan: for /);
  });

  it("describes a command that starts the server in that folder", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "kervan-client-"));
    writeFileSync(join(cwd, "only-here.txt"), "hello\n");
    const r = kervan(["client-config", "repo-explorer", "--client", client, "--cwd", cwd]);
    const entry = entryOf(client, JSON.parse(r.stdout), "repo-explorer");
    expect(entry.env).toBeUndefined(); // no secrets, no env block
    // Started as the client would: the command and args, from some other folder.
    const transport = new StdioClientTransport({ command: entry.command, args: entry.args, cwd: tmpdir(), stderr: "pipe" });
    const mcp = new Client({ name: "client-config-test", version: "0.0.0" }, { versionNegotiation: { mode: "legacy" } });
    await mcp.connect(transport);
    try {
      const result = await mcp.callTool({ name: "read_file", arguments: { path: "only-here.txt" } });
      expect(result.isError).toBeFalsy();
      expect(JSON.stringify(result.content)).toContain("hello");
    } finally {
      await mcp.close();
    }
  });
});

describe("kervan client-config errors", () => {
  it("names the clients when --client is missing or unknown, and a missing server", () => {
    const missing = kervan(["client-config", "repo-explorer"]);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain("--client must be one of claude-desktop, claude-code, cursor, vscode");
    const unknown = kervan(["client-config", "nope", "--client", "cursor"]);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain("no generated server nope");
  });
});
