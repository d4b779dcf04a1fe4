// 2025-11-25 notifications/cancelled over HTTP stops only the caller's own request: the token's subject
// with auth, the client address without. The cancelled request gets no JSON-RPC answer (its event stream
// ends with no message); its process group is gone.
// The request log has one line per request and never an argument value or a token.
import { afterAll, describe, expect, it } from "vitest";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startHttpServer, type HttpServer } from "../helpers/client.js";
import { alive, waitDead } from "../kinds/exec/helpers.js";
import { generateFixture } from "./generate.js";
import { bearer, httpRequest, rpc, rpcRequest } from "./wire.js";

const FIXTURE_ENV = { SERVING_API_KEY: "k", SERVING_UPSTREAM_URL: "http://127.0.0.1:9" };
const TOKEN_A = "cancel-token-a-0123456789";
const TOKEN_B = "cancel-token-b-9876543210";
const started: HttpServer[] = [];
afterAll(async () => {
  for (const s of started) await s.stop();
});

async function pidOf(file: string): Promise<number> {
  for (;;) {
    if (existsSync(file) && readFileSync(file, "utf8").endsWith("\n")) return Number(readFileSync(file, "utf8").trim());
    await new Promise((r) => setTimeout(r, 10));
  }
}
/** Log lines are written when a response closes, just after the client has its answer: wait for them. */
async function logLines(s: HttpServer, pick: (line: string) => boolean, count: number): Promise<string[]> {
  for (;;) {
    const lines = s.stderr().split("\n").filter(pick);
    if (lines.length >= count) return lines;
    await new Promise((r) => setTimeout(r, 10));
  }
}
const pidFile = () => join(mkdtempSync(join(tmpdir(), "kervan-cancel-")), "pid");

function cancel(url: string, requestId: number, headers: Record<string, string>, localAddress?: string) {
  const body = JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId, reason: "test" } });
  return httpRequest(url, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-11-25", ...headers }, body, localAddress });
}

function slowCall(url: string, id: number, ms: number, file: string, headers: Record<string, string>, localAddress?: string) {
  const r = rpcRequest("2025-11-25", id, "tools/call", { name: "slow", arguments: { ms, pidFile: file } });
  return httpRequest(url, { method: "POST", headers: { ...r.headers, ...headers }, body: r.body, localAddress });
}

describe("cancellation over HTTP with two principals (bearer tokens)", () => {
  it("one principal cannot cancel the other's call; the owner can", async () => {
    const s = await startHttpServer(generateFixture("serving"), ["--auth", "bearer", "--bearer-env", "TOKEN_A,TOKEN_B"], { ...FIXTURE_ENV, TOKEN_A, TOKEN_B });
    started.push(s);
    // B tries to cancel A's request 5: accepted (a notification), but A's call runs on and is answered.
    const fileA = pidFile();
    const callA = slowCall(s.url, 5, 1500, fileA, bearer(TOKEN_A));
    const pidA = await pidOf(fileA);
    const byB = await cancel(s.url, 5, bearer(TOKEN_B));
    expect(byB.status).toBe(202);
    const answerA = await callA;
    expect(answerA.json.id).toBe(5);
    expect(answerA.json.result.content[0].text).toContain("done");
    expect(await waitDead(pidA)).toBe(true);

    // A cancels its own request 6: no JSON-RPC answer, and the command's process group is gone.
    const file6 = pidFile();
    const call6 = slowCall(s.url, 6, 600000, file6, bearer(TOKEN_A));
    const pid6 = await pidOf(file6);
    expect(alive(pid6)).toBe(true);
    expect((await cancel(s.url, 6, bearer(TOKEN_A))).status).toBe(202);
    const answer6 = await call6;
    // A POSTed request is answered with an event stream (never a bare 202), which ends with no message.
    expect([answer6.status, answer6.headers["content-type"], answer6.body]).toEqual([200, "text/event-stream", ""]);
    expect(await waitDead(pid6)).toBe(true);

    // The request log: one line per request, principals hashed, no argument values, no tokens.
    const lines = await logLines(s, (l) => / POST \/mcp /.test(l), 4);
    expect(lines).toHaveLength(4);
    expect(lines.filter((l) => l.includes("outcome=cancelled_0"))).toHaveLength(1);
    expect(lines.filter((l) => l.includes("outcome=cancelled_1"))).toHaveLength(1);
    expect(lines.find((l) => l.includes("id=6"))).toMatch(/method=tools\/call tool=slow id=6 era=2025-11-25 outcome=cancelled ms=[\d.]+ principal=[0-9a-f]{12}$/);
    expect(lines.find((l) => l.includes("id=5"))).toMatch(/tool=slow id=5 era=2025-11-25 outcome=ok /);
    const log = s.stderr();
    for (const secret of [TOKEN_A, TOKEN_B, fileA, file6, "1500", "600000"]) expect(log).not.toContain(secret);
  });
});

describe("cancellation with the same id in flight for two principals", () => {
  it("stops only the canceller's own call", async () => {
    const s = await startHttpServer(generateFixture("serving"), ["--auth", "bearer", "--bearer-env", "TOKEN_A,TOKEN_B"], { ...FIXTURE_ENV, TOKEN_A, TOKEN_B });
    started.push(s);
    const [fileA, fileB] = [pidFile(), pidFile()];
    const callA = slowCall(s.url, 7, 1500, fileA, bearer(TOKEN_A));
    const callB = slowCall(s.url, 7, 600000, fileB, bearer(TOKEN_B));
    const pidB = await pidOf(fileB);
    await pidOf(fileA);
    expect((await cancel(s.url, 7, bearer(TOKEN_B))).status).toBe(202);
    const answerB = await callB;
    expect([answerB.status, answerB.body]).toEqual([200, ""]);
    expect(await waitDead(pidB)).toBe(true);
    const answerA = await callA;
    expect(answerA.json.id).toBe(7);
    expect(answerA.json.result.content[0].text).toContain("done");
  });
});

describe("cancellation without auth: the client address is the principal", () => {
  it("a call from 127.0.0.2 cannot be cancelled from 127.0.0.1", async () => {
    const s = await startHttpServer(generateFixture("serving"), ["--auth", "none", "--log-format", "json"], FIXTURE_ENV);
    started.push(s);
    const file = pidFile();
    const call = slowCall(s.url, 9, 1500, file, {}, "127.0.0.2");
    await pidOf(file);
    expect((await cancel(s.url, 9, {}, "127.0.0.1")).status).toBe(202);
    const answer = await call;
    expect(answer.json.result.content[0].text).toContain("done");
    const entries = (await logLines(s, (l) => l.startsWith("{"), 2)).map((l) => JSON.parse(l));
    expect(entries.map((e) => [e.method, e.outcome])).toEqual([
      ["notifications/cancelled", "cancelled_0"],
      ["tools/call", "ok"],
    ]);
    expect(entries[0].principal).not.toBe(entries[1].principal);
    expect(entries[1]).toMatchObject({ level: "info", server: "serving-fixture", http: "POST /mcp", status: 200, tool: "slow", id: 9, era: "2025-11-25" });
  });
});
