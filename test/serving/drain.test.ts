// SIGTERM drains: /readyz turns 503 while the listener stays open for the grace, a call in flight
// finishes and is answered, a call past --drain-ms is cancelled with its process group, exit code 0.
import { describe, expect, it } from "vitest";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { once } from "node:events";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startHttpServer } from "../helpers/client.js";
import { alive, waitDead } from "../kinds/exec/helpers.js";
import { generateFixture } from "./generate.js";
import { httpRequest, rpc } from "./wire.js";

const FIXTURE_ENV = { SERVING_API_KEY: "k", SERVING_UPSTREAM_URL: "http://127.0.0.1:9" };
const start = (args: string[]) => startHttpServer(generateFixture("serving"), ["--auth", "none", ...args], FIXTURE_ENV);

/** Waits until the call's process has written its pid (an event we can observe), then returns it. */
async function pidOf(file: string): Promise<number> {
  for (;;) {
    if (existsSync(file)) {
      const text = readFileSync(file, "utf8");
      if (text.endsWith("\n")) return Number(text.trim());
    }
    await new Promise((r) => setTimeout(r, 10));
  }
}

const pidFile = () => join(mkdtempSync(join(tmpdir(), "kervan-drain-")), "pid");

describe("drain on SIGTERM", () => {
  it("turns /readyz 503 at once and keeps serving during the grace", async () => {
    const s = await start(["--drain-grace-ms", "600000"]);
    const base = new URL(s.url);
    expect((await httpRequest(new URL("/healthz", base).href)).status).toBe(200);
    expect((await httpRequest(new URL("/readyz", base).href)).status).toBe(200);
    s.proc.kill("SIGTERM");
    let ready = 200;
    while (ready === 200) ready = (await httpRequest(new URL("/readyz", base).href)).status;
    expect(ready).toBe(503);
    expect((await httpRequest(new URL("/healthz", base).href)).status).toBe(200);
    // New work during the grace is still served, and told to close its connection.
    const call = await rpc(s.url, "2026-07-28", 1, "tools/call", { name: "echo", arguments: { text: "late" } });
    expect(call.status).toBe(200);
    expect(call.json.result.content[0].text).toContain("late");
    expect(call.headers.connection).toBe("close");
    expect(await s.stop("SIGTERM")).toBe(0); // a second signal ends the drain now, still cleanly
  });

  it("answers a long call in flight at SIGTERM, then exits 0", async () => {
    const s = await start(["--drain-ms", "60000"]);
    const file = pidFile();
    const pending = rpc(s.url, "2025-11-25", 7, "tools/call", { name: "slow", arguments: { ms: 1500, pidFile: file } });
    const pid = await pidOf(file);
    const exited = once(s.proc, "exit");
    s.proc.kill("SIGTERM");
    const answer = await pending;
    expect(answer.status).toBe(200);
    expect(answer.json.id).toBe(7);
    expect(answer.json.result.isError).toBeUndefined();
    expect(answer.json.result.content[0].text).toContain("done");
    expect((await exited)[0]).toBe(0);
    expect(await waitDead(pid)).toBe(true);
    expect(s.stderr()).toContain("drained: no request in flight");
  });

  it("cancels a call still running at --drain-ms, kills its process group, exits 0", async () => {
    const s = await start(["--drain-ms", "300"]);
    const file = pidFile();
    const pending = rpc(s.url, "2026-07-28", 8, "tools/call", { name: "slow", arguments: { ms: 600000, pidFile: file } }).catch((e: Error) => e);
    const pid = await pidOf(file);
    expect(alive(pid)).toBe(true);
    const exited = once(s.proc, "exit");
    s.proc.kill("SIGTERM");
    expect((await exited)[0]).toBe(0);
    expect(await waitDead(pid)).toBe(true);
    const answer = await pending;
    // Cancelled calls get no answer: the connection ends without a JSON-RPC reply.
    expect(answer instanceof Error || (answer as { json?: unknown }).json === undefined).toBe(true);
    expect(s.stderr()).toContain("drain deadline (300 ms) reached: cancelling 1 request(s) still in flight");
  });
});
