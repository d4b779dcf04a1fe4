// The runtime over stdio, driven by the official client in each version mode and by a raw line driver.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fileURLToPath } from "node:url";
import { bundleEntry } from "../helpers/bundle.js";
import { connectStdio, VERSION_MODES, type Connected } from "../helpers/client.js";
import { call, META, spawnRaw } from "./raw.js";

const entry = fileURLToPath(new URL("./fixtures/server.ts", import.meta.url));
let bundle: string;
beforeAll(async () => {
  bundle = await bundleEntry(entry);
});

type Text = { type: string; text: string };

describe.each(VERSION_MODES)("official client over stdio, %s", (mode) => {
  let conn: Connected;
  beforeAll(async () => {
    conn = await connectStdio(bundle, mode);
  });
  afterAll(async () => {
    await conn?.close();
  });

  it("negotiates the expected era", () => {
    expect(conn.client.getNegotiatedProtocolVersion()).toBe(mode === "2025-11-25" ? "2025-11-25" : "2026-07-28");
    expect(conn.client.getServerVersion()).toMatchObject({ name: "runtime-fixture", version: "1.2.3" });
  });

  it("lists tools in a stable order, object output schemas only for 2025", async () => {
    const { tools } = await conn.client.listTools();
    expect(tools.map((t) => t.name)).toEqual(["add", "bad_output", "big", "crash", "echo", "fail", "late_throw", "list_items", "progress", "reject", "slow"]);
    const add = tools.find((t) => t.name === "add")!;
    if (mode === "2025-11-25") expect(add.outputSchema).toEqual({ type: "object", properties: { result: { type: "number" } }, required: ["result"] });
    else expect(add.outputSchema).toEqual({ type: "number" });
  });

  it("calls a tool with structured output and its JSON text", async () => {
    const res = await conn.client.callTool({ name: "echo", arguments: { text: "hi" } });
    expect(res.isError).toBeFalsy();
    expect(res.structuredContent).toEqual({ text: "hi" });
    expect((res.content as Text[])[0].text).toBe('{"text":"hi"}');
  });

  it("wraps non-object structured values only for 2025 clients", async () => {
    const res = await conn.client.callTool({ name: "list_items", arguments: {} });
    expect(res.structuredContent).toEqual(mode === "2025-11-25" ? { result: ["alpha", "beta"] } : ["alpha", "beta"]);
    expect((res.content as Text[])[0].text).toBe("alpha, beta");
  });

  it("answers invalid arguments with a readable tool error, without running the handler", async () => {
    const res = await conn.client.callTool({ name: "add", arguments: { a: "one", c: 3 } });
    expect(res.isError).toBe(true);
    const text = (res.content as Text[])[0].text;
    expect(text).toContain('tool "add"');
    expect(text).toContain('- /a: must be number (type); got "one"');
    expect(text).toContain("- /b: is required but missing (required)");
    expect(text).toContain("- /c: is not an allowed property (additionalProperties); got 3");
  });

  it("rejects an unknown tool with -32602", async () => {
    await expect(conn.client.callTool({ name: "nope", arguments: {} })).rejects.toMatchObject({ code: -32602, message: expect.stringContaining("Unknown tool: nope") });
  });

  it("reports output that fails the tool's own schema", async () => {
    const res = await conn.client.callTool({ name: "bad_output", arguments: {} });
    expect(res.isError).toBe(true);
    expect((res.content as Text[])[0].text).toMatch(/failed its own output schema[\s\S]*\/n: must be integer/);
  });

  it("survives throwing and rejecting handlers", async () => {
    for (const name of ["crash", "reject"]) {
      const res = await conn.client.callTool({ name, arguments: {} });
      expect(res.isError).toBe(true);
      expect((res.content as Text[])[0].text).toMatch(new RegExp(`Tool "${name}" failed: (boom|rejected on purpose)`));
    }
    await conn.client.callTool({ name: "late_throw", arguments: {} });
    await new Promise((r) => setTimeout(r, 20));
    const after = await conn.client.callTool({ name: "echo", arguments: { text: "still here" } });
    expect(after.structuredContent).toEqual({ text: "still here" });
  });

  it("passes tool errors through without output validation, and caps long text", async () => {
    const fail = await conn.client.callTool({ name: "fail", arguments: {} });
    expect(fail).toMatchObject({ isError: true, content: [{ type: "text", text: "nope: the thing is missing" }] });
    const big = await conn.client.callTool({ name: "big", arguments: {} });
    expect((big.content as Text[])[0].text).toBe(`${"x".repeat(100)}\n[output cut at 100 of 5000 characters]`);
  });
});

describe("raw stdio", () => {
  it("answers malformed JSON and oversize lines with errors and keeps serving", async () => {
    const s = spawnRaw(bundle);
    s.send("{not json");
    expect(await s.next()).toEqual({ jsonrpc: "2.0", error: { code: -32700, message: "Parse error: Invalid JSON" } });
    s.send("x".repeat(5 * 1024 * 1024));
    expect(await s.next()).toEqual({ jsonrpc: "2.0", error: { code: -32600, message: expect.stringContaining("too large") } });
    s.send(call(1, "echo", { text: "after" }));
    expect(await s.next()).toMatchObject({ id: 1, result: { resultType: "complete", structuredContent: { text: "after" } } });
    s.proc.stdin!.end();
    expect(await s.exited).toBe(0);
  });

  it("checks _meta on every request: -32602 when missing, -32022 for unknown versions", async () => {
    const s = spawnRaw(bundle);
    s.send(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }));
    expect(await s.next()).toMatchObject({ id: 1, error: { code: -32602 } });
    s.send(JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list", params: { _meta: { ...META, "io.modelcontextprotocol/protocolVersion": "1900-01-01" } } }));
    expect(await s.next()).toEqual({ jsonrpc: "2.0", id: 2, error: { code: -32022, message: "Unsupported protocol version", data: { supported: ["2026-07-28", "2025-11-25"], requested: "1900-01-01" } } });
    s.send(JSON.stringify({ jsonrpc: "2.0", id: 3, method: "tools/list", params: { cursor: "abc", _meta: META } }));
    expect(await s.next()).toMatchObject({ id: 3, error: { code: -32602, message: "Invalid cursor" } });
    s.send(JSON.stringify({ jsonrpc: "2.0", id: 4, method: "ping", params: { _meta: META } }));
    expect(await s.next()).toMatchObject({ id: 4, error: { code: -32601 } });
    s.proc.kill("SIGTERM");
    await s.exited;
  });

  it("aborts a call on notifications/cancelled and does not answer it", async () => {
    const s = spawnRaw(bundle);
    s.send(call(1, "slow"));
    // No wait: lines are handled in order, so call 1 is pending when the cancellation is read, and the
    // handler sees an aborted signal whether it had started or not.
    s.send(JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1 } }));
    s.send(call(2, "echo", { text: "next" }));
    expect(await s.next()).toMatchObject({ id: 2 });
    await expect.poll(() => s.stderr(), { timeout: 5000 }).toContain("slow: aborted");
    s.proc.stdin!.end();
    expect(await s.exited).toBe(0);
  });

  it("sends increasing progress notifications before the result when asked", async () => {
    const s = spawnRaw(bundle);
    s.send(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "progress", arguments: {}, _meta: { ...META, progressToken: "p1" } } }));
    const seen = [await s.next(), await s.next(), await s.next(), await s.next()];
    expect(seen.slice(0, 3).map((m) => (m.params as { progress: number }).progress)).toEqual([1, 2, 3]);
    expect(seen[0]).toEqual({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: "p1", progress: 1, total: 3, message: "step 1" } });
    expect(seen[3]).toMatchObject({ id: 1, result: { content: [{ text: "done" }] } });
    s.send(call(2, "progress"));
    expect(await s.next()).toMatchObject({ id: 2 }); // no token, no notifications
    s.proc.stdin!.end();
    await s.exited;
  });

  it("answers in-flight calls after stdin EOF, then exits running shutdown hooks", async () => {
    const s = spawnRaw(bundle);
    s.send(call(1, "slow", { ms: 200 }));
    s.proc.stdin!.end();
    expect(await s.next()).toMatchObject({ id: 1, result: { content: [{ text: "finished" }] } });
    expect(await s.exited).toBe(0);
    expect(s.stderr()).toContain("shutdown hook ran");
  });

  it("exits on SIGTERM, aborting calls and running shutdown hooks", async () => {
    const s = spawnRaw(bundle);
    // Lines are handled in order, so once echo is answered the guards are installed and slow is running;
    // a fixed sleep raced a loaded machine's startup (SIGTERM before the handler means death by signal).
    s.send(call(1, "slow"));
    s.send(call(2, "echo", { text: "ready" }));
    expect(await s.next()).toMatchObject({ id: 2 });
    s.proc.kill("SIGTERM");
    expect(await s.exited).toBe(0); // slow would run for 60 s: exiting at all means it was aborted
    expect(s.stderr()).toContain("slow: aborted");
    expect(s.stderr()).toContain("shutdown hook ran");
  });

  it("reports a StartupError as one line and exit code 2", async () => {
    const s = spawnRaw(bundle, { FIXTURE_STARTUP_FAIL: "1" });
    expect(await s.exited).toBe(2);
    expect(s.stderr()).toBe("runtime-fixture: FIXTURE_TOKEN is not set\n");
  });

  it("rejects unknown command-line arguments with exit code 2", async () => {
    const { spawnSync } = await import("node:child_process");
    const r = spawnSync(process.execPath, [bundle, "--bogus"], { encoding: "utf8" });
    expect(r.status).toBe(2);
    expect(r.stderr).toBe('runtime-fixture: unknown argument "--bogus" (try --help)\n');
    expect(r.stdout).toBe("");
  });
});
