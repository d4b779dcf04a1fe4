// The three task stores against one contract, with real files and a real Redis server.
import { randomBytes, randomUUID } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FileTaskStore, RESTART_REASON, TaskStoreLockedError } from "../../templates/runtime/tasks/file-store.js";
import { MemoryTaskStore } from "../../templates/runtime/tasks/memory-store.js";
import { LOST_RUNNER_REASON, RedisTaskStore } from "../../templates/runtime/tasks/redis-store.js";
import type { TaskRecord, TaskSignal, TaskStore } from "../../templates/runtime/tasks/types.js";
import { startRedis, type RedisServer } from "../helpers/redis.js";

function record(store: TaskStore, over: Partial<TaskRecord> = {}): TaskRecord {
  const now = new Date().toISOString();
  return { taskId: randomUUID(), owner: "alice", tool: "build", status: "working", createdAt: now, lastUpdatedAt: now, ttlMs: 60_000, pollIntervalMs: 500, runner: store.replicaId, ...over };
}

let redis: RedisServer;
const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "kervan-tasks-"));
  dirs.push(dir);
  return dir;
};

beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await redis?.stop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const factories: [string, () => Promise<TaskStore>][] = [
  ["memory", async () => new MemoryTaskStore()],
  ["file", async () => new FileTaskStore(tempDir())],
  ["redis", () => RedisTaskStore.open({ url: redis.url, prefix: `t${randomUUID()}:`, leaseMs: 5000 })],
];

describe.each(factories)("%s store", (_name, open) => {
  it("keeps tasks under the caps per principal and in all, atomically, and counts only unexpired ones", async () => {
    const store = await open();
    const caps = { perPrincipal: 2, total: 3 };
    const results = await Promise.all([0, 1, 2, 3].map(() => store.create(record(store, { owner: "alice" }), caps)));
    expect(results.filter((r) => r === undefined)).toHaveLength(2);
    expect(results.filter((r) => r === "principal")).toHaveLength(2);
    expect(await store.create(record(store, { owner: "bob" }), caps)).toBeUndefined();
    expect(await store.create(record(store, { owner: "carol" }), caps)).toBe("total");
    // A task past its ttl no longer counts.
    const gone = record(store, { owner: "dave", createdAt: new Date(Date.now() - 120_000).toISOString() });
    const fresh = { perPrincipal: 1, total: 10 };
    expect(await store.create(gone, fresh)).toBeUndefined();
    expect(await store.create(record(store, { owner: "dave" }), fresh)).toBeUndefined();
    await store.close();
  });

  it("creates, reads, patches, and keeps terminal states final", async () => {
    const store = await open();
    const rec = record(store);
    await store.create(rec);
    expect(await store.get(rec.taskId)).toMatchObject({ taskId: rec.taskId, status: "working", owner: "alice", tool: "build" });
    expect(await store.get(randomUUID())).toBeUndefined();
    const done = await store.update(rec.taskId, { status: "completed", result: { content: [{ type: "text", text: "ok" }] } });
    expect(done).toMatchObject({ status: "completed", result: { content: [{ type: "text", text: "ok" }] } });
    expect(await store.update(rec.taskId, { status: "cancelled" })).toBeUndefined();
    expect((await store.get(rec.taskId))?.status).toBe("completed");
    await store.close();
  });

  it("takes partial answers, drops unknown keys, and resumes when nothing is outstanding", async () => {
    const store = await open();
    const rec = record(store);
    await store.create(rec);
    await store.update(rec.taskId, { status: "input_required", inputRequests: { a: { method: "elicitation/create" }, b: { method: "elicitation/create" } } });
    expect(await store.answer(rec.taskId, { a: { action: "accept" }, zzz: {} })).toEqual(["a"]);
    let now = await store.get(rec.taskId);
    expect(now?.status).toBe("input_required");
    expect(Object.keys(now?.inputRequests ?? {})).toEqual(["b"]);
    expect(await store.answer(rec.taskId, { a: { action: "decline" } })).toEqual([]); // already answered
    expect(await store.answer(rec.taskId, { b: { action: "accept", content: { x: 1 } } })).toEqual(["b"]);
    now = await store.get(rec.taskId);
    expect(now?.status).toBe("working");
    expect(now?.inputRequests).toBeUndefined();
    expect(await store.takeResponses(rec.taskId)).toEqual({ a: { action: "accept" }, b: { action: "accept", content: { x: 1 } } });
    expect(await store.takeResponses(rec.taskId)).toEqual({});
    await store.close();
  });

  it("forgets a task once its TTL has passed", async () => {
    const store = await open();
    const rec = record(store, { createdAt: new Date(Date.now() - 10_000).toISOString(), ttlMs: 9_000 });
    await store.create(rec);
    expect(await store.get(rec.taskId)).toBeUndefined();
    await store.close();
  });

  it("serves a requestState nonce once: a replay is refused, and a malformed nonce never counts", async () => {
    const store = await open();
    const nonce = randomBytes(16).toString("base64url");
    const exp = Date.now() + 60_000;
    expect(await store.consumeState(nonce, exp)).toBe(true);
    expect(await store.consumeState(nonce, exp)).toBe(false);
    expect(await store.consumeState(randomBytes(16).toString("base64url"), exp)).toBe(true);
    expect(await store.consumeState("../../etc/passwd", exp)).toBe(false);
    await store.close();
  });

  it("delivers signals to listeners", async () => {
    const store = await open();
    const got = new Promise<TaskSignal>((resolve) => store.onSignal(resolve));
    await store.signal({ taskId: "x", kind: "cancel" });
    expect(await got).toEqual({ taskId: "x", kind: "cancel" });
    await store.close();
  });
});

describe("file store", () => {
  it("writes each task as an append-only file with mode 0600", async () => {
    const dir = tempDir();
    const store = new FileTaskStore(dir);
    const rec = record(store);
    await store.create(rec);
    await store.update(rec.taskId, { statusMessage: "half way" });
    await store.update(rec.taskId, { status: "completed", result: { content: [] } });
    const file = readdirSync(dir).find((n) => n.startsWith(rec.taskId))!;
    expect(statSync(join(dir, file)).mode & 0o777).toBe(0o600);
    const lines = readFileSync(join(dir, file), "utf8").trim().split("\n").map((l) => JSON.parse(l));
    expect(lines.map((l) => l.status)).toEqual(["working", "working", "completed"]);
    await store.close();
  });

  it("refuses a directory another live process holds", async () => {
    const dir = tempDir();
    const first = new FileTaskStore(dir);
    // The lock names this process; pretend it is another live one (our parent).
    await first.close();
    const { writeFileSync } = await import("node:fs");
    writeFileSync(join(dir, "store.lock"), `${process.ppid}\n`);
    expect(() => new FileTaskStore(dir)).toThrow(TaskStoreLockedError);
    writeFileSync(join(dir, "store.lock"), "999999999\n"); // a dead process: taken over
    const second = new FileTaskStore(dir);
    await second.close();
  });

  it("marks unfinished tasks failed with the reason after a restart, and skips a torn last line", async () => {
    const dir = tempDir();
    const before = new FileTaskStore(dir);
    const running = record(before);
    const finished = record(before);
    await before.create(running);
    await before.create(finished);
    await before.update(finished.taskId, { status: "completed", result: { content: [] } });
    await before.close();
    const { appendFileSync } = await import("node:fs");
    appendFileSync(join(dir, `${running.taskId}.task`), '{"taskId":"torn');
    const after = new FileTaskStore(dir);
    expect(await after.recover()).toBe(1);
    const failed = await after.get(running.taskId);
    expect(failed).toMatchObject({ status: "failed", statusMessage: RESTART_REASON, error: { code: -32603, message: RESTART_REASON } });
    expect((await after.get(finished.taskId))?.status).toBe("completed");
    await after.close();
  });

  it("remembers a used requestState across a restart, and forgets it once expired", async () => {
    const dir = tempDir();
    const before = new FileTaskStore(dir);
    const nonce = randomBytes(16).toString("base64url");
    const stale = randomBytes(16).toString("base64url");
    expect(await before.consumeState(nonce, Date.now() + 60_000)).toBe(true);
    expect(await before.consumeState(stale, Date.now() - 1)).toBe(true);
    await before.close();
    const after = new FileTaskStore(dir);
    expect(await after.consumeState(nonce, Date.now() + 60_000)).toBe(false);
    expect(readdirSync(join(dir, "used-states")).sort()).toEqual([nonce, stale].sort());
    await (after as unknown as { sweep(): Promise<void> }).sweep();
    expect(readdirSync(join(dir, "used-states"))).toEqual([nonce]);
    await after.close();
  });
});

describe("redis store across replicas", () => {
  it("shows one replica's task to another and routes signals through Redis", async () => {
    const prefix = `t${randomUUID()}:`;
    const a = await RedisTaskStore.open({ url: redis.url, prefix, leaseMs: 5000 });
    const b = await RedisTaskStore.open({ url: redis.url, prefix, leaseMs: 5000 });
    const rec = record(a);
    await a.create(rec);
    expect(await b.get(rec.taskId)).toMatchObject({ taskId: rec.taskId, runner: a.replicaId, status: "working" });
    const got = new Promise<TaskSignal>((resolve) => a.onSignal(resolve));
    await b.signal({ taskId: rec.taskId, kind: "cancel" });
    expect(await got).toEqual({ taskId: rec.taskId, kind: "cancel" });
    await a.close();
    await b.close();
  });

  it("lets exactly one of several replicas consume a requestState nonce, racing", async () => {
    const prefix = `t${randomUUID()}:`;
    const replicas = await Promise.all([0, 1, 2].map(() => RedisTaskStore.open({ url: redis.url, prefix, leaseMs: 5000 })));
    const nonce = randomBytes(16).toString("base64url");
    const won = await Promise.all(replicas.map((r) => r.consumeState(nonce, Date.now() + 60_000)));
    expect(won.filter(Boolean)).toHaveLength(1);
    await Promise.all(replicas.map((r) => r.close()));
  });

  it("reports a task failed once its runner's lease has lapsed", async () => {
    const prefix = `t${randomUUID()}:`;
    const reader = await RedisTaskStore.open({ url: redis.url, prefix, leaseMs: 5000 });
    const rec = record(reader, { runner: "a-replica-that-never-renewed" });
    await reader.create(rec);
    expect(await reader.get(rec.taskId)).toMatchObject({ status: "failed", statusMessage: LOST_RUNNER_REASON, error: { code: -32603 } });
    await reader.close();
  });
});
