// Admission: concurrency with a bounded FIFO queue whose wait counts against the timeout, and a
// sliding-window rate limit; both refuse with readable tool errors.
import { describe, expect, it } from "vitest";
import { createExecHandler, type ExecToolConfig } from "../../../templates/kinds/exec/index.js";
import { RateLimiter } from "../../../templates/kinds/exec/limits.js";
import { ctx } from "./helpers.js";

type V = { exitCode: number | null; stdout: string; stderr: string; timedOut: boolean };
const sleeper = (extra: Partial<ExecToolConfig>): ExecToolConfig => ({
  tool: "nap",
  argv: [["sh"], ["-c"], ["sleep $0; echo done"], [{ field: "s" }]],
  fields: { s: "string" },
  ...extra,
});

describe("concurrency", () => {
  it("runs `concurrency` calls at once and queues the rest in order", async () => {
    // Each command prints when it started and ended (ns clock): overlap and order are read from the
    // commands themselves, so a loaded machine cannot fail this.
    const timed = sleeper({ concurrency: 2, queue: 4 });
    timed.argv[2] = ["date +%s%N; sleep $0; date +%s%N"];
    const h = createExecHandler(timed);
    const order: number[] = [];
    const calls = [0, 1, 2, 3].map((i) => h({ s: "0.3" }, ctx()).then((o) => (order.push(i), o)));
    const outs = await Promise.all(calls);
    expect(outs.every((o) => !o.isError)).toBe(true);
    const spans = outs.map((o) => (o.value as V).stdout.trim().split("\n").map(BigInt));
    const [a, b, c, d] = spans;
    expect(a[0] < b[1] && b[0] < a[1]).toBe(true); // the first two overlapped: two at once
    const firstEnd = a[1] < b[1] ? a[1] : b[1];
    expect(c[0] >= firstEnd && d[0] >= firstEnd).toBe(true); // the rest waited for a slot
    expect(order.slice(0, 2).sort()).toEqual([0, 1]);
  });
  it("refuses when every slot is busy and the queue is full", async () => {
    const h = createExecHandler(sleeper({ concurrency: 1, queue: 1 }));
    const a = h({ s: "0.4" }, ctx());
    const b = h({ s: "0" }, ctx());
    const c = await h({ s: "0" }, ctx());
    expect(c.isError).toBe(true);
    expect(c.text).toBe("nap: busy: 1 calls are running and 1 are waiting; retry after one completes");
    expect((c.value as V).exitCode).toBeNull();
    expect((await a).isError).toBeFalsy();
    expect((await b).isError).toBeFalsy();
    expect((await h({ s: "0" }, ctx())).isError).toBeFalsy(); // free again
  });
  it("queue 0 refuses at once when busy (the reference server's behaviour)", async () => {
    const h = createExecHandler(sleeper({ concurrency: 1, queue: 0 }));
    const a = h({ s: "0.3" }, ctx());
    expect((await h({ s: "0" }, ctx())).text).toMatch(/busy/);
    await a;
  });
  it("time spent waiting counts against the timeout", async () => {
    // The running call ignores SIGTERM, so its slot stays taken well past the waiter's deadline.
    const stubborn = sleeper({ concurrency: 1, queue: 1, timeoutMs: 300, killGraceMs: 400 });
    stubborn.argv[2] = ["trap '' TERM; sleep $0; echo done"];
    const h = createExecHandler(stubborn);
    const a = h({ s: "5" }, ctx());
    const b = await h({ s: "0" }, ctx());
    expect(b.isError).toBe(true);
    expect((b.value as V).timedOut).toBe(true);
    expect(b.text).toContain("timed out after 300 ms waiting for a free slot (1 running)");
    expect((await a).isError).toBe(true);
  });
  it("a call whose wait partly used its budget runs with what is left", async () => {
    // b's command prints when it started and when its SIGTERM came. b waits ~1 s for a's slot out of a
    // 1.5 s budget, so it is stopped ~0.5 s after it started: well before a whole budget, which is
    // what it would get if waiting were free. Both times are read by the command itself.
    const cfg = sleeper({ concurrency: 1, queue: 1, timeoutMs: 1500, killGraceMs: 100 });
    cfg.argv[2] = ["trap 'date +%s%N; exit 143' TERM; date +%s%N; sleep $0 & wait"];
    const h = createExecHandler(cfg);
    const a = h({ s: "1" }, ctx());
    const b = await h({ s: "5" }, ctx());
    expect((b.value as V).timedOut).toBe(true);
    const [started, stopped] = (b.value as V).stdout.trim().split("\n").map(BigInt);
    expect(stopped - started < 1_500_000_000n).toBe(true);
    await a;
  });
  it("a queued call can be cancelled and frees its queue place", async () => {
    const h = createExecHandler(sleeper({ concurrency: 1, queue: 1 }));
    const a = h({ s: "0.3" }, ctx());
    const ac = new AbortController();
    const b = h({ s: "0" }, ctx(ac.signal));
    ac.abort();
    expect((await b).text).toContain("cancelled while waiting for a free slot");
    expect((await h({ s: "0" }, ctx())).isError).toBeFalsy(); // queued behind a, then ran
    await a;
  });
});

describe("rate limit", () => {
  it("admits `calls` per window and refuses the next with a retry hint", async () => {
    // Admission is decided when a call arrives, so three calls sent together meet one window whatever
    // the machine's load; the retry hint is then honoured to the letter.
    const h = createExecHandler(sleeper({ rateLimit: { calls: 2, windowMs: 1500 } }));
    const [first, second, third] = await Promise.all([0, 1, 2].map(() => h({ s: "0" }, ctx())));
    expect(first.isError).toBeFalsy();
    expect(second.isError).toBeFalsy();
    expect(third.isError).toBe(true);
    expect(third.text).toMatch(/^nap: rate limit reached \(2 calls per 1500 ms\); retry in about \d+ ms$/);
    const retryMs = Number(/retry in about (\d+) ms/.exec(third.text!)![1]);
    await new Promise((r) => setTimeout(r, retryMs + 50));
    expect((await h({ s: "0" }, ctx())).isError).toBeFalsy();
  });
  it("refused and invalid calls do not use up the budget", async () => {
    const h = createExecHandler(sleeper({ rateLimit: { calls: 1, windowMs: 60_000 } }));
    expect((await h({ s: 1 }, ctx())).text).toMatch(/must be a JSON string/);
    expect((await h({ s: "0" }, ctx())).isError).toBeFalsy();
    expect((await h({ s: "0" }, ctx())).text).toMatch(/rate limit/);
  });
  it("is a sliding window: no double burst across a window edge", () => {
    let now = 0;
    const r = new RateLimiter(2, 1000, () => now);
    now = 900;
    expect(r.admit()).toBe(0);
    expect(r.admit()).toBe(0);
    now = 1100; // a fixed window would reset here and admit two more
    expect(r.admit()).toBe(800);
    now = 1900;
    expect(r.admit()).toBe(0);
  });
  it("no rate limit unless configured", async () => {
    const h = createExecHandler(sleeper({}));
    const outs = await Promise.all(Array.from({ length: 12 }, () => h({ s: "0" }, ctx())));
    expect(outs.filter((o) => o.isError)).toEqual([]);
  });
});
