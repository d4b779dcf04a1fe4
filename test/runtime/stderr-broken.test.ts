// A server whose stderr reader has gone away (broken pipe) keeps serving: logging drops what it cannot
// write instead of raising EPIPE into the crash guard, which would log again and spin.
import { afterEach, describe, expect, it } from "vitest";
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { bundleEntry } from "../helpers/bundle.js";
import { call } from "./raw.js";

const entry = fileURLToPath(new URL("./fixtures/server.ts", import.meta.url));
let proc: ChildProcess | undefined;

afterEach(() => {
  if (proc && proc.exitCode === null && proc.signalCode === null) proc.kill("SIGKILL");
});

function replies(child: ChildProcess): () => Promise<Record<string, unknown>> {
  let out = "";
  const queue: Record<string, unknown>[] = [];
  const waiters: ((msg: Record<string, unknown>) => void)[] = [];
  child.stdout!.on("data", (chunk: Buffer) => {
    out += chunk.toString();
    let nl: number;
    while ((nl = out.indexOf("\n")) !== -1) {
      const msg = JSON.parse(out.slice(0, nl));
      out = out.slice(nl + 1);
      const waiter = waiters.shift();
      if (waiter) waiter(msg);
      else queue.push(msg);
    }
  });
  return () => (queue.length ? Promise.resolve(queue.shift()!) : new Promise((resolve) => waiters.push(resolve)));
}

describe("stderr as a broken pipe", () => {
  it("keeps answering after logged failures, then exits on stdin EOF", async () => {
    const bundle = await bundleEntry(entry);
    proc = spawn(process.execPath, [bundle], { stdio: ["pipe", "pipe", "pipe"] });
    const next = replies(proc);
    // Wait until the server is up, then break its stderr: our end of the pipe goes away.
    proc.stdin!.write(call(1, "echo", { text: "up" }) + "\n");
    expect(await next()).toMatchObject({ id: 1, result: { structuredContent: { text: "up" } } });
    proc.stderr!.destroy();
    // Each of these logs on the server (a handler that throws, an uncaught exception after answering).
    proc.stdin!.write(call(2, "crash") + "\n");
    expect(await next()).toMatchObject({ id: 2, result: { isError: true } });
    proc.stdin!.write(call(3, "late_throw") + "\n");
    expect(await next()).toMatchObject({ id: 3, result: { content: [{ text: "ok" }] } });
    for (let id = 4; id < 14; id++) proc.stdin!.write(call(id, "crash") + "\n");
    for (let id = 4; id < 14; id++) expect(await next()).toMatchObject({ id, result: { isError: true } });
    proc.stdin!.write(call(20, "echo", { text: "still here" }) + "\n");
    expect(await next()).toMatchObject({ id: 20, result: { structuredContent: { text: "still here" } } });
    const exited = once(proc, "exit");
    proc.stdin!.end();
    const [code] = await exited;
    expect(code).toBe(0);
  });

  it("still stops on SIGTERM once stderr is broken", async () => {
    const bundle = await bundleEntry(entry);
    proc = spawn(process.execPath, [bundle], { stdio: ["pipe", "pipe", "pipe"] });
    const next = replies(proc);
    proc.stdin!.write(call(1, "echo", { text: "up" }) + "\n");
    await next();
    proc.stderr!.destroy();
    proc.stdin!.write(call(2, "late_throw") + "\n");
    await next();
    const exited = once(proc, "exit");
    proc.kill("SIGTERM");
    const [code] = await exited;
    expect(code).toBe(0);
  });
});
