// The request log over stdio: one stderr line per message with the fields HTTP logs (time, method, tool,
// duration, outcome, request id), in text or JSON, filtered by --log-level; never argument values.
import { beforeAll, describe, expect, it } from "vitest";
import { fileURLToPath } from "node:url";
import { bundleEntry } from "../helpers/bundle.js";
import { call, META, spawnRaw, type RawServer } from "./raw.js";

const entry = fileURLToPath(new URL("./fixtures/server.ts", import.meta.url));
let bundle: string;
beforeAll(async () => {
  bundle = await bundleEntry(entry);
});

const SECRET_ARGUMENT = "argument-value-7f3a9c";

/** Request lines written so far (the startup line and the tools' own lines are not request lines). */
function requestLines(s: RawServer, json: boolean): string[] {
  return s
    .stderr()
    .split("\n")
    .filter((l) => (json ? l.startsWith("{") : / (debug|info|error) stdio /.test(l)));
}

async function finished(s: RawServer): Promise<void> {
  s.proc.stdin!.end();
  expect(await s.exited).toBe(0); // lines still pending are written before the process exits
}

describe("stdio request log", () => {
  it("writes one JSON line per message with method, tool, id, era, outcome and duration, never arguments", async () => {
    const s = spawnRaw(bundle, {}, ["--log-format", "json"]);
    s.send(call(1, "echo", { text: SECRET_ARGUMENT }));
    expect(await s.next()).toMatchObject({ id: 1 });
    s.send(call("two", "fail"));
    expect(await s.next()).toMatchObject({ id: "two", result: { isError: true } });
    s.send(JSON.stringify({ jsonrpc: "2.0", id: 3, method: "tools/list", params: {} })); // no _meta: -32602
    expect(await s.next()).toMatchObject({ id: 3, error: { code: -32602 } });
    s.send(call(4, "slow"));
    s.send(JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 4 } }));
    s.send("{not json");
    expect(await s.next()).toEqual({ jsonrpc: "2.0", error: expect.objectContaining({ code: -32700 }) });
    await finished(s);

    const entries = requestLines(s, true).map((l) => JSON.parse(l) as Record<string, unknown>);
    const byId = (id: unknown) => entries.find((e) => e.id === id);
    expect(byId(1)).toMatchObject({ level: "info", server: "runtime-fixture", transport: "stdio", method: "tools/call", tool: "echo", era: "2026-07-28", outcome: "ok" });
    expect(typeof byId(1)!.ms).toBe("number");
    expect(Date.parse(String(byId(1)!.time))).not.toBeNaN();
    expect(byId("two")).toMatchObject({ method: "tools/call", tool: "fail", outcome: "tool_error" });
    expect(byId(3)).toMatchObject({ method: "tools/list", outcome: "error_-32602" });
    expect(byId(4)).toMatchObject({ method: "tools/call", tool: "slow", outcome: "cancelled" });
    expect(entries.find((e) => e.method === "notifications/cancelled")).toMatchObject({ outcome: "cancelled_1" });
    expect(entries.find((e) => e.outcome === "error_-32700")).toMatchObject({ level: "info", transport: "stdio" });
    expect(entries).toHaveLength(6);
    expect(s.stderr()).not.toContain(SECRET_ARGUMENT);
  });

  it("writes text lines in the HTTP log's field order, and an unknown tool is not named", async () => {
    const s = spawnRaw(bundle);
    s.send(JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "echo", arguments: { text: SECRET_ARGUMENT }, _meta: META } }));
    expect(await s.next()).toMatchObject({ id: 7 });
    s.send(call(8, `no such tool ${SECRET_ARGUMENT}`));
    expect(await s.next()).toMatchObject({ id: 8 });
    await finished(s);
    const lines = requestLines(s, false);
    expect(lines[0]).toMatch(/^runtime-fixture: \d{4}-\d\d-\d\dT[\d:.]+Z info stdio method=tools\/call tool=echo id=7 era=2026-07-28 outcome=ok ms=[\d.]+$/);
    expect(lines[1]).toMatch(/ info stdio method=tools\/call id=8 era=2026-07-28 outcome=error_-32602 ms=[\d.]+$/);
    expect(lines).toHaveLength(2);
    expect(s.stderr()).not.toContain(SECRET_ARGUMENT);
  });

  it("writes no request line below --log-level", async () => {
    const s = spawnRaw(bundle, {}, ["--log-level", "warn"]);
    s.send(call(1, "echo", { text: "hi" }));
    expect(await s.next()).toMatchObject({ id: 1 });
    await finished(s);
    expect(requestLines(s, false)).toEqual([]);
    expect(s.stderr()).toContain("ready on stdio"); // the server's own lines are not request lines
  });
});
