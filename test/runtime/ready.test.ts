// A stdio server says it is up: one line on stderr once it reads requests, so a person who started
// it by hand does not take it for hung. stdout stays protocol only; stderr then has one line per request.
import { describe, expect, it } from "vitest";
import { spawn } from "node:child_process";

describe("stdio server start", () => {
  it("writes one ready line on stderr, then answers on stdout", async () => {
    const child = spawn(process.execPath, ["out/validator/server.mjs"], { stdio: ["pipe", "pipe", "pipe"] });
    let err = "";
    let out = "";
    child.stderr.on("data", (c) => (err += c));
    child.stdout.on("data", (c) => (out += c));
    await expect.poll(() => err, { timeout: 10_000 }).toContain("\n");
    expect(err).toBe("validator: ready on stdio (1 tool); waiting for a client\n");
    child.stdin.write(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } } }) + "\n");
    await expect.poll(() => out, { timeout: 10_000 }).toContain("\n");
    expect(JSON.parse(out.split("\n")[0]).id).toBe(1);
    child.stdin.end();
    await new Promise((done) => child.on("exit", done));
    // After it, only the request log's line for the one request (docs/deploy.md, Logs).
    const lines = err.split("\n").filter(Boolean);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(/^validator: \S+ info stdio method=initialize id=1 era=2025-11-25 outcome=ok ms=[\d.]+$/);
  });
});
