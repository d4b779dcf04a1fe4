// The escape corpus against a real server process: every case is a sandboxed exec tool run
// through the official MCP client, against a working tree with secrets in and around it. Each
// case is printed with whether the sandbox held; the suite ends with the count of escapes (0).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { linkSync, lstatSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync, existsSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { bundleEntry } from "../helpers/bundle.js";
import { ABSTRACT_CONTROL, ABSTRACT_OFFLINE, CASES, NETWORK_CONTROL, toolName, type Case } from "./corpus.js";
import { makeTree, OUTSIDE_NAMES, SECRETS, VISIBLE, type Tree } from "./tree.js";
import { markerPids, requireBubblewrap, snapshot, waitFor } from "./host.js";

type Sc = { exitCode: number | null; stdout: string; stderr: string; timedOut: boolean };

let tree: Tree;
let listener: Server;
let abstract: Server;
let abstractConnections = 0;
const ABSTRACT_NAME = `kervan-escape-${process.pid}`;
let connections = 0;
let client: Client;
let stderr = "";
const rows: string[] = [];
let escapes = 0;

function record(c: Case, held: boolean, detail: string): void {
  if (!held) escapes++;
  rows.push(`${held ? "held   " : "ESCAPED"}  ${c.name}: ${detail}`);
}

async function call(c: Case, signal?: AbortSignal): Promise<Sc> {
  const res = await client.callTool({ name: toolName(c), arguments: {} }, { signal, timeout: 120_000 });
  if (!res.structuredContent) throw new Error(`no structured result: ${JSON.stringify(res).slice(0, 2000)}`);
  return res.structuredContent as Sc;
}

/** Secret tokens in the output, and names of outside entries in listings (symlink targets aside). */
function leaks(c: Case, r: Sc): string[] {
  const text = r.stdout + r.stderr;
  const found = Object.values(SECRETS).filter((t) => text.includes(t));
  if (/^(find|ls) /.test(c.name)) {
    const listed = text.split("\n").map((l) => l.split(" -> ")[0]);
    found.push(...OUTSIDE_NAMES.filter((n) => listed.some((l) => l.includes(n))));
  }
  return found;
}

const firstLine = (t: string) => t.trim().split("\n")[0]!.slice(0, 160);

/** Files under `dir` on the host with a setuid or setgid bit, and device nodes. */
function privileged(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const st = lstatSync(join(dir, name));
    if (st.mode & 0o6000 || st.isCharacterDevice() || st.isBlockDevice()) out.push(`${name} (mode ${st.mode.toString(8)})`);
    if (st.isDirectory()) out.push(...privileged(join(dir, name)).map((x) => `${name}/${x}`));
  }
  return out;
}

beforeAll(async () => {
  requireBubblewrap();
  tree = makeTree();
  listener = createServer((s) => {
    connections++;
    s.destroy();
  });
  await new Promise<void>((r) => listener.listen(0, "127.0.0.1", r));
  abstract = createServer((s) => {
    abstractConnections++;
    s.destroy();
  });
  await new Promise<void>((r) => abstract.listen("\0" + ABSTRACT_NAME, r));
  const port = (listener.address() as { port: number }).port;
  const bundle = await bundleEntry(new URL("./escape-server.ts", import.meta.url).pathname);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [bundle],
    cwd: tree.project,
    stderr: "pipe",
    env: { PATH: "/usr/local/bin:/usr/bin:/bin", HOME: tree.home, ESCAPE_ROOT: tree.root, ESCAPE_PORT: String(port), ESCAPE_ABSTRACT: ABSTRACT_NAME, SERVER_SECRET: SECRETS.serverEnv },
  });
  transport.stderr?.on("data", (b: Buffer) => (stderr += b.toString()));
  client = new Client({ name: "escape-corpus", version: "0.0.0" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
  try {
    await client.connect(transport);
  } catch (err) {
    throw new Error(`the escape corpus server did not start: ${stderr || (err as Error).message}`);
  }
  // A denied path that did not exist when the server started.
  mkdirSync(join(tree.project, "late-secrets"));
  writeFileSync(join(tree.project, "late-secrets", "key.txt"), `${SECRETS.late}\n`);
  // New names for denied files, made after startup: one more link to .env, one into the late directory.
  linkSync(join(tree.project, ".env"), join(tree.project, "src", "late-link"));
  linkSync(join(tree.project, "late-secrets", "key.txt"), join(tree.project, "src", "late-key"));
}, 60_000);

afterAll(async () => {
  await client?.close();
  listener?.close();
  abstract?.close();
  console.log(["escape corpus (bubblewrap):", ...rows, `${rows.length} cases, ${escapes} escapes`].join("\n  "));
});

describe("escape corpus", () => {
  for (const c of CASES) {
    it(c.name, async () => {
      switch (c.check) {
        case "reads-nothing":
        case "reads-nothing-sees-visible": {
          const r = await call(c);
          const leaked = leaks(c, r);
          const saw = r.stdout.includes(VISIBLE);
          const ok = leaked.length === 0 && (c.check === "reads-nothing" || saw);
          record(c, ok, leaked.length ? `read ${leaked.join(", ")}` : saw ? "read the project, nothing denied or outside" : "read nothing denied or outside");
          expect(leaked).toEqual([]);
          if (c.check === "reads-nothing-sees-visible") expect(saw).toBe(true);
          break;
        }
        case "writes-nothing": {
          const before = snapshot(tree.root, join(tree.project, "out"));
          const r = await call(c);
          const after = snapshot(tree.root, join(tree.project, "out"));
          const stray = ["/usr/new", join(tree.home, "new"), join(tree.root, "new")].filter((p) => existsSync(p));
          const ok = after === before && stray.length === 0;
          record(c, ok, ok ? "nothing outside out/ changed; out/ and /tmp were writable" : `changed: ${stray.join(", ") || "the tree"}`);
          expect(after).toBe(before);
          expect(stray).toEqual([]);
          expect(existsSync(join(tree.project, "out", "ok.txt"))).toBe(true);
          expect(r.stdout).toContain("ok");
          break;
        }
        case "no-connection": {
          const seen = connections;
          const r = await call(c);
          const ok = connections === seen && !r.stdout.includes("CONNECTED");
          record(c, ok, ok ? r.stdout.trim() : "connected to the host's loopback");
          expect(connections).toBe(seen);
          expect(r.stdout).not.toContain("CONNECTED");
          break;
        }
        case "gone-after-timeout":
        case "gone-after-cancel":
        case "gone-after-exit": {
          const ac = new AbortController();
          const pending = call(c, ac.signal).catch((err: Error) => err);
          if (c.check !== "gone-after-exit") expect(await waitFor(() => markerPids(c.marker!).length > 0, 15_000)).toBe(true);
          if (c.check === "gone-after-cancel") ac.abort();
          const r = await pending;
          if (c.check === "gone-after-timeout") expect((r as Sc).timedOut).toBe(true);
          if (c.check === "gone-after-exit") expect((r as Sc).stdout).toContain("done");
          const gone = await waitFor(() => markerPids(c.marker!).length === 0, 10_000);
          record(c, gone, gone ? "the descendant died with the call" : `still running: pids ${markerPids(c.marker!).join(", ")}`);
          expect(gone).toBe(true);
          break;
        }
        case "fork-bomb": {
          const r = await call(c);
          const answer = await client.callTool({ name: "echo", arguments: {} });
          const stopped = /fork|resource temporarily unavailable/i.test(r.stderr);
          const gone = await waitFor(() => markerPids("bomb()").length === 0, 10_000);
          const alive = (answer.structuredContent as Sc).stdout === "alive\n";
          record(c, stopped && gone && alive, `stopped at the process limit: ${stopped}; server answers: ${alive}; nothing left: ${gone}`);
          expect(stopped).toBe(true);
          expect(alive).toBe(true);
          expect(gone).toBe(true);
          break;
        }
        case "file-size": {
          await call(c);
          const size = statSync(join(tree.project, "out", "big")).size;
          record(c, size <= 1_000_000, `wrote ${size} of 3000000 bytes (limit 1000000)`);
          expect(size).toBeLessThanOrEqual(1_000_000);
          break;
        }
        case "stays-put": {
          const r = await call(c);
          const secret = join(tree.project, "config", "secrets.env");
          // mv copies when a rename crosses mounts: a copy of the mask is empty.
          const moved = join(tree.project, "moved.env");
          const put = existsSync(secret) && readFileSync(secret, "utf8").includes(SECRETS.config) && !existsSync(join(tree.project, "config.old")) && (!existsSync(moved) || !readFileSync(moved, "utf8").includes(SECRETS.config));
          record(c, put, put ? `the folder and the file stayed (${r.stderr.trim().split("\n").join("; ")})` : "the denied file or its folder was moved");
          expect(put).toBe(true);
          break;
        }
        case "no-privileged-files": {
          const r = await call(c);
          const bad = privileged(join(tree.project, "out"));
          record(c, bad.length === 0, bad.length ? `left ${bad.join(", ")}` : `none left (${r.stdout.split("\n").filter((l) => /^[-cbp]/.test(l)).map((l) => l.split(/\s+/)[0]).join(" ")})`);
          expect(bad).toEqual([]);
          break;
        }
        case "unprivileged": {
          const r = await call(c);
          const [uid, ...status] = r.stdout.trim().split("\n");
          const field = (k: string) => status.find((l) => l.startsWith(k + ":"))?.split(/\s+/)[1];
          const caps = ["CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb"].map(field);
          const ok = uid !== "0" && caps.every((v) => v === "0000000000000000") && field("NoNewPrivs") === "1";
          record(c, ok, `uid ${uid} (server uid ${process.getuid?.()}), CapEff ${field("CapEff")}, CapBnd ${field("CapBnd")}, NoNewPrivs ${field("NoNewPrivs")}`);
          expect(uid).not.toBe("0");
          expect(caps).toEqual(Array(5).fill("0000000000000000"));
          expect(field("NoNewPrivs")).toBe("1");
          break;
        }
        case "run-later-untouched": {
          const r = await call(c);
          const p = (...x: string[]) => join(tree.project, ...x);
          const same = readFileSync(p(".vscode", "tasks.json"), "utf8") === "{}\n" && readFileSync(p("node_modules", ".bin", "tool"), "utf8") === "#!/bin/sh\necho tool\n";
          const left = [".envrc", ".husky", "vs", "nm", "node_modules/.bin/new"].filter((x) => existsSync(p(x)));
          record(c, same && left.length === 0, same && !left.length ? `unchanged, nothing planted (${firstLine(r.stderr.split("\n").filter((l) => l.startsWith("kervan:")).join(" "))})` : `changed: ${same ? "" : "existing run-later files; "}${left.join(", ")}`);
          expect(same).toBe(true);
          expect(left).toEqual([]);
          expect(r.stderr).toMatch(/kervan: removed .*\.envrc/);
          break;
        }
        case "memory-bounded": {
          const r = await call(c);
          const answer = await client.callTool({ name: "echo", arguments: {} });
          const alive = (answer.structuredContent as Sc).stdout === "alive\n";
          const held = !r.stdout.includes("allocated") && r.exitCode !== 0 && !r.timedOut;
          record(c, held && alive, `the 1.5 GiB allocation failed under 768 MiB (exit ${r.exitCode}: ${firstLine(r.stderr.split("\n").find((l) => /Error|Killed/.test(l)) ?? "")}); server answers: ${alive}`);
          expect(held).toBe(true);
          expect(alive).toBe(true);
          break;
        }
        case "tmp-bounded": {
          const r = await call(c);
          const size = Number(r.stdout.trim());
          const ok = size <= 64 * 1024 * 1024 && /No space left/.test(r.stderr);
          record(c, ok, `wrote ${size} of 200000000 bytes to /tmp (size 67108864)`);
          expect(size).toBeLessThanOrEqual(64 * 1024 * 1024);
          expect(r.stderr).toMatch(/No space left/);
          break;
        }
        case "cpu-time": {
          const r = await call(c);
          record(c, !r.timedOut && r.exitCode !== 0, `ended by the CPU limit (exit ${r.exitCode}), not the timeout`);
          expect(r.timedOut).toBe(false);
          expect(r.exitCode).not.toBe(0);
          break;
        }
      }
    }, 60_000);
  }

  it("control: with network: true the same connection gets through (the harness sees connections)", async () => {
    const seen = connections;
    const r = await call(NETWORK_CONTROL);
    expect(r.stdout).toContain("CONNECTED");
    expect(connections).toBe(seen + 1);
  });

  // What the README says of network: true: the host's abstract unix sockets are reachable with it, not without it.
  it("an abstract unix socket of the host: unreachable offline, reachable with network: true (documented)", async () => {
    const seen = abstractConnections;
    const off = await call(ABSTRACT_OFFLINE);
    expect(off.stdout).toMatch(/refused: ECONNREFUSED/);
    expect(abstractConnections).toBe(seen);
    const on = await call(ABSTRACT_CONTROL);
    expect(on.stdout).toContain("CONNECTED");
    expect(abstractConnections).toBe(seen + 1);
  });
});
