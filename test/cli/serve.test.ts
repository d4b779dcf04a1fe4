// `kervan serve` as a newcomer meets it (issue 25, item 12): no argument is a usage error that says
// what to give; `--cwd` reaches the server; the build cache is this user's own folder (mode 700);
// and when the process that started `kervan serve` is killed (as `npx` is), the server goes too.
import { describe, expect, it } from "vitest";
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";

const ROOT = resolve(".");
const KERVAN = join(ROOT, "bin/kervan.mjs");
const uid = process.getuid!();
const WHERE = ["--tool", "--name", "where", "--description", "Print the working directory. Use it to see where commands run.", "--sandbox", "none", "--exec", "pwd"];

function children(pid: number): number[] {
  return readdirSync("/proc")
    .filter((d) => /^\d+$/.test(d))
    .filter((d) => {
      try {
        return Number(readFileSync(`/proc/${d}/stat`, "utf8").replace(/^.*\) /, "").split(" ")[1]) === pid;
      } catch {
        return false;
      }
    })
    .map(Number);
}
const alive = (pid: number) => existsSync(`/proc/${pid}`) && !/^\S+ \S+ Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8").replace(/^\d+ \(.*\) /, "x y "));

async function until(what: string, test: () => boolean, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!test()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe("kervan serve", () => {
  it("with no argument says what it needs, as a usage error", () => {
    const r = spawnSync(process.execPath, [KERVAN, "serve"], { encoding: "utf8", input: "" });
    expect(r.status).toBe(2);
    expect(r.stderr).not.toMatch(/found in \n/);
    expect(r.stderr).toContain("serve needs a spec file or --tool blocks");
  });

  it("passes --cwd to the server, and builds into a cache only this user can enter", async () => {
    const tmp = mkdtempSync(join(tmpdir(), "kervan-serve-test-"));
    const dir = realpathSync(mkdtempSync(join(tmpdir(), "kervan-serve-cwd-")));
    const transport = new StdioClientTransport({ command: process.execPath, args: [KERVAN, "serve", "--cwd", dir, ...WHERE], env: { ...process.env, TMPDIR: tmp } as Record<string, string>, stderr: "pipe" });
    const client = new Client({ name: "t", version: "0" });
    try {
      await client.connect(transport);
      const r = await client.callTool({ name: "where", arguments: {} });
      expect((r.structuredContent as { stdout: string }).stdout).toBe(`${dir}\n`);
      expect(readdirSync(tmp).filter((n) => n.startsWith("kervan"))).toEqual([`kervan-serve-${uid}`]);
      const st = statSync(join(tmp, `kervan-serve-${uid}`));
      expect(st.uid).toBe(uid);
      expect((st.mode & 0o777).toString(8)).toBe("700");
    } finally {
      await client.close();
      rmSync(tmp, { recursive: true, force: true });
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it("refuses a cache folder of that name that someone else owns", () => {
    if (uid !== 0) return; // only root can make a folder owned by another user
    const tmp = mkdtempSync(join(tmpdir(), "kervan-serve-test-"));
    try {
      mkdirSync(join(tmp, "kervan-serve-0"), { mode: 0o777 });
      spawnSync("chown", ["65534", join(tmp, "kervan-serve-0")]);
      const r = spawnSync(process.execPath, [KERVAN, "serve", ...WHERE], { encoding: "utf8", input: "", env: { ...process.env, TMPDIR: tmp } });
      expect(r.status).toBe(1);
      expect(r.stderr).toContain(`kervan: the cache folder ${join(tmp, "kervan-serve-0")} is not this user's own`);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  }, 60_000);

  it("stops the server when the process that started it is killed", async () => {
    // The shell stays kervan's parent, as npm exec is: killing it orphans kervan. Its stdin is a pipe
    // from `sleep`, which outlives the shell, so the server never sees its input end.
    const sh = spawn("sh", ["-c", `sleep 600 | "${process.execPath}" "${KERVAN}" serve ${WHERE.map((a) => `'${a}'`).join(" ")}; exit`], { stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    sh.stderr.on("data", (d) => (stderr += d));
    let spawned: number[] = [];
    try {
      await until("the ready line", () => stderr.includes("ready on stdio"), 60_000);
      spawned = children(sh.pid!);
      const kervan = spawned.find((p) => readFileSync(`/proc/${p}/cmdline`, "utf8").includes("kervan.mjs"))!;
      const server = children(kervan).find((p) => readFileSync(`/proc/${p}/cmdline`, "utf8").includes("server.mjs"))!;
      expect(server).toBeGreaterThan(0);
      spawned.push(server);
      sh.kill("SIGKILL");
      await until("the server to stop", () => !alive(server) && !alive(kervan));
    } finally {
      sh.kill("SIGKILL");
      for (const p of spawned) if (alive(p)) process.kill(p, "SIGKILL");
    }
  }, 90_000);

  it("forwards SIGTERM to the server and exits when it does", async () => {
    const kervan = spawn(process.execPath, [KERVAN, "serve", ...WHERE], { stdio: ["pipe", "pipe", "pipe"] });
    let stderr = "";
    kervan.stderr.on("data", (d) => (stderr += d));
    await until("the ready line", () => stderr.includes("ready on stdio"), 60_000);
    const server = children(kervan.pid!).find((p) => readFileSync(`/proc/${p}/cmdline`, "utf8").includes("server.mjs"))!;
    expect(server).toBeGreaterThan(0);
    const exited = new Promise((r) => kervan.on("exit", r));
    kervan.kill("SIGTERM");
    await exited;
    await until("the server to stop", () => !alive(server));
  }, 90_000);
});
