// Running the command: exit statuses, spawn failures, timeouts that reach grandchildren,
// cancellation, shutdown, stdin, working directory.
import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createExecHandler, type ExecToolConfig } from "../../../templates/kinds/exec/index.js";
import { ctx, fixture, NODE, sleep, waitDead } from "./helpers.js";

type V = { exitCode: number | null; stdout: string; stderr: string; timedOut: boolean };
const sh = (script: string, extra: Partial<ExecToolConfig> = {}): ExecToolConfig => ({
  tool: "sh",
  argv: [["sh"], ["-c"], [script]],
  fields: {},
  ...extra,
});
const call = (cfg: ExecToolConfig, signal?: AbortSignal) => createExecHandler(cfg)({}, ctx(signal));

describe("exit status", () => {
  it("exit 0 is a success with a readable summary", async () => {
    const out = await call(sh("echo hello; echo warn >&2"));
    expect(out.isError).toBeFalsy();
    expect(out.value).toEqual({ exitCode: 0, stdout: "hello\n", stderr: "warn\n", timedOut: false, stdoutTruncated: false, stderrTruncated: false });
    expect(out.text).toBe("sh exited with code 0\n--- stdout ---\nhello\n--- stderr ---\nwarn");
  });
  it("non-zero exit is a tool error carrying the status and stderr", async () => {
    const out = await call(sh("echo oops >&2; exit 3"));
    expect(out.isError).toBe(true);
    expect((out.value as V).exitCode).toBe(3);
    expect((out.value as V).stderr).toBe("oops\n");
    expect(out.text).toContain("sh exited with code 3");
    expect(out.text).toContain("--- stdout: (empty) ---");
  });
  it("death by signal gives exitCode null and names the signal", async () => {
    const out = await call(sh("kill -KILL $$"));
    expect(out.isError).toBe(true);
    expect((out.value as V).exitCode).toBeNull();
    expect(out.text).toContain("sh was killed by SIGKILL");
  });
  it("a missing command is 'command not found', still a schema-shaped value", async () => {
    const out = await call({ tool: "x", argv: [["kervan-no-such-command"]], fields: {} });
    expect(out.isError).toBe(true);
    expect(out.text).toBe("command not found: kervan-no-such-command");
    expect(out.value).toEqual({ exitCode: null, stdout: "", stderr: "command not found: kervan-no-such-command", timedOut: false, stdoutTruncated: false, stderrTruncated: false });
  });
  it("a non-executable file is 'permission denied'", async () => {
    const dir = mkdtempSync(join(tmpdir(), "kervan-exec-"));
    writeFileSync(join(dir, "script"), "#!/bin/sh\n", { mode: 0o644 });
    const out = await call({ tool: "x", argv: [[join(dir, "script")]], fields: {} });
    expect(out.text).toMatch(/^permission denied: /);
  });
  it("the child's stdin is closed: a reader sees EOF at once", async () => {
    const out = await call({ tool: "x", argv: [[NODE], [fixture("stdin.mjs")]], fields: {}, timeoutMs: 5000 });
    expect((out.value as V).stdout).toBe("stdin bytes: 0");
  });
  it("runs in the configured working directory, relative to the server's cwd", async () => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), "kervan-exec-")));
    const out = await call(sh("pwd", { cwd: dir }));
    expect((out.value as V).stdout).toBe(dir + "\n");
    const rel = await call(sh("pwd", { cwd: "test" }));
    expect((rel.value as V).stdout).toBe(realpathSync("test") + "\n");
  });
});

describe("timeouts and process groups", () => {
  it("a timeout kills the whole group, grandchildren included, even if they ignore SIGTERM", async () => {
    const out = await call({ tool: "trap", argv: [[fixture("trap.sh")]], fields: {}, timeoutMs: 500, killGraceMs: 300 });
    const [leader, grandchild] = (out.value as V).stdout.trim().split(" ").map(Number);
    expect(out.isError).toBe(true);
    expect((out.value as V).timedOut).toBe(true);
    expect((out.value as V).exitCode).toBeNull();
    expect(out.text).toContain("timed out after 500 ms; its process group was killed");
    expect(await waitDead(leader)).toBe(true);
    expect(await waitDead(grandchild)).toBe(true);
  });
  it("SIGTERM comes first: a program that handles it exits within the grace", async () => {
    const out = await call(sh("trap 'echo got TERM; exit 7' TERM; sleep 30 & wait", { timeoutMs: 300, killGraceMs: 5000 }));
    expect((out.value as V).stdout).toBe("got TERM\n");
    expect((out.value as V).exitCode).toBe(7);
    expect((out.value as V).timedOut).toBe(true);
  });
  it("the sleep 30 & wait style grandchild is gone after a timeout", async () => {
    const out = await call(sh("sleep 30 & echo $!; wait", { timeoutMs: 300, killGraceMs: 200 }));
    const pid = Number((out.value as V).stdout.trim());
    expect(pid).toBeGreaterThan(0);
    expect(await waitDead(pid)).toBe(true);
  });
  it("background leftovers of a command that exited are killed and do not hold the call open", async () => {
    // Held open, the call would end by its 20 s timeout: isError with timedOut, not a clean answer.
    const out = await call(sh("sleep 30 & echo $!", { timeoutMs: 20_000 }));
    expect(out.isError).toBeFalsy();
    expect((out.value as V).timedOut).toBeFalsy();
    expect(await waitDead(Number((out.value as V).stdout.trim()))).toBe(true);
  });
  it("a process that leaves the group and keeps the pipe open does not hang the call", async () => {
    // The escaped sleep holds the pipe for 30 s, past the 20 s timeout: an answer without timedOut means it did not wait.
    const script = "setsid sh -c 'sleep 30' & echo started";
    const out = await call(sh(script, { timeoutMs: 20_000 }));
    expect((out.value as V).stdout).toBe("started\n");
    expect((out.value as V).timedOut).toBeFalsy();
  });
  it("aborting the call (ctx.signal) kills the group", async () => {
    const ac = new AbortController();
    const pending = call(sh("sleep 30 & echo $!; wait", { killGraceMs: 200 }), ac.signal);
    await sleep(300);
    ac.abort();
    const out = await pending;
    expect(out.isError).toBe(true);
    expect(out.text).toContain("sh was cancelled; its process group was killed");
    expect(await waitDead(Number((out.value as V).stdout.trim()))).toBe(true);
  });
  it("an already-aborted call runs nothing", async () => {
    const ac = new AbortController();
    ac.abort();
    const out = await call(sh("echo ran"), ac.signal);
    expect(out.isError).toBe(true);
    expect(out.text).toContain("cancelled before it started");
  });
  it("the shutdown hook kills running groups and refuses new calls", async () => {
    const hooks: (() => Promise<void>)[] = [];
    const handler = createExecHandler(sh("sleep 30 & echo $!; wait", { timeoutMs: 20_000 }), { onShutdown: (fn) => hooks.push(fn) });
    expect(hooks).toHaveLength(1);
    const pending = handler({}, ctx());
    await sleep(300);
    await hooks[0]();
    const out = await pending;
    expect(out.isError).toBe(true);
    expect((out.value as V).exitCode).toBeNull();
    expect(await waitDead(Number((out.value as V).stdout.trim()))).toBe(true);
    const after = await handler({}, ctx());
    expect(after.text).toContain("the server is shutting down");
  });
  it("shutdown is graceful: SIGTERM first, SIGKILL after the grace for what ignores it", async () => {
    const polite = createExecHandler(sh("trap 'echo bye; exit 0' TERM; sleep 30 & wait", { killGraceMs: 5000 }), { onShutdown: () => {} });
    const p1 = polite({}, ctx());
    await sleep(300);
    await polite.shutdown();
    // It exited on SIGTERM with its own code: SIGKILL (after the 5 s grace) would leave exitCode null.
    expect((await p1).value).toMatchObject({ stdout: "bye\n", exitCode: 0 });

    const stubborn = createExecHandler({ tool: "trap", argv: [[fixture("trap.sh")]], fields: {}, killGraceMs: 300 }, { onShutdown: () => {} });
    const p2 = stubborn({}, ctx());
    await sleep(300);
    const t2 = Date.now();
    await stubborn.shutdown();
    expect(Date.now() - t2).toBeGreaterThanOrEqual(250);
    const out = await p2;
    const [leader, grandchild] = (out.value as V).stdout.trim().split(" ").map(Number);
    expect(await waitDead(leader)).toBe(true);
    expect(await waitDead(grandchild)).toBe(true);
  });
  it("SIGTERM to a real server process (runtime guards installed) leaves no process of the call behind", async () => {
    const dir = mkdtempSync(join(tmpdir(), "kervan-exec-"));
    const entry = join(dir, "server.ts");
    const pidFile = join(dir, "pid");
    const mod = new URL("../../../templates/kinds/exec/index.ts", import.meta.url).pathname;
    const rt = new URL("../../../templates/runtime/shutdown.ts", import.meta.url).pathname;
    const script = `trap '' TERM; sleep 30 & echo $! > ${pidFile}; wait`;
    writeFileSync(
      entry,
      `import { readFileSync } from "node:fs";
       import { createExecHandler } from ${JSON.stringify(mod)};
       import { installProcessGuards } from ${JSON.stringify(rt)};
       installProcessGuards();
       const h = createExecHandler({ tool: "s", argv: [["sh"], ["-c"], [${JSON.stringify(script)}]], fields: {}, killGraceMs: 200 });
       void h({}, { signal: new AbortController().signal, era: "2026-07-28" });
       // Once the call's grandchild has written its pid (a fixed delay raced a loaded machine).
       const ready = () => (readFileSync(${JSON.stringify(pidFile)}, { encoding: "utf8", flag: "a+" }).endsWith("\\n") ? process.kill(process.pid, "SIGTERM") : setTimeout(ready, 20));
       ready();`,
    );
    const r = spawnSync(NODE, ["--import", "tsx", entry], { encoding: "utf8", timeout: 20_000 });
    expect(r.signal).toBeNull(); // not killed by spawnSync's timeout: it exited by itself
    expect(r.status).toBe(0);
    expect(await waitDead(Number(readFileSync(pidFile, "utf8").trim()))).toBe(true);
  });
  it("a server that exits mid-call leaves no process of the call behind (exit guard)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "kervan-exec-"));
    const entry = join(dir, "server.ts");
    const pidFile = join(dir, "pid");
    const mod = new URL("../../../templates/kinds/exec/index.ts", import.meta.url).pathname;
    const script = `sleep 30 & echo $! > ${pidFile}; wait`;
    writeFileSync(
      entry,
      `import { readFileSync } from "node:fs";
       import { createExecHandler } from ${JSON.stringify(mod)};
       const h = createExecHandler({ tool: "s", argv: [["sh"], ["-c"], [${JSON.stringify(script)}]], fields: {} });
       void h({}, { signal: new AbortController().signal, era: "2026-07-28" });
       // Once the call's grandchild has written its pid (a fixed delay raced a loaded machine).
       const ready = () => (readFileSync(${JSON.stringify(pidFile)}, { encoding: "utf8", flag: "a+" }).endsWith("\\n") ? process.exit(0) : setTimeout(ready, 20));
       ready();`,
    );
    const r = spawnSync(NODE, ["--import", "tsx", entry], { encoding: "utf8", timeout: 10_000 });
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    const pid = Number(readFileSync(pidFile, "utf8").trim());
    expect(pid).toBeGreaterThan(0);
    expect(await waitDead(pid)).toBe(true);
  });
});
