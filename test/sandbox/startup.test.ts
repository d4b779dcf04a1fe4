// A sandboxed server refuses to start when the sandbox cannot hold, naming the package and the
// reason, and never falls back to running commands unsandboxed; sandbox configs are checked.
import { beforeAll, describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { bundleEntry } from "../helpers/bundle.js";
import { checkExecStartup, createExecHandler, type ExecToolConfig } from "../../templates/kinds/exec/index.js";
import { StartupError } from "../../templates/runtime/types.js";
import { requireBubblewrap } from "./host.js";
import { makeTree, type Tree } from "./tree.js";

let bundle: string;
let tree: Tree;
let bwrap: string;

beforeAll(async () => {
  bwrap = requireBubblewrap();
  tree = makeTree();
  bundle = await bundleEntry(new URL("./escape-server.ts", import.meta.url).pathname);
}, 60_000);

/** Starts the corpus server, optionally inside a wrapper, and returns how it ended. */
function start(env: Record<string, string>, wrapper: string[] = []) {
  const [cmd, ...args] = [...wrapper, process.execPath, bundle];
  return spawnSync(cmd, args, { cwd: tree.project, env, input: "", encoding: "utf8", timeout: 30_000 });
}

describe("the startup probe", () => {
  it("bwrap missing: exit 2 naming the Debian package and the opt-out, nothing served", () => {
    const r = start({ PATH: join(tree.root, "empty-bin") });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/bwrap was not found on PATH: install the Debian package bubblewrap/);
    expect(r.stderr).toContain("sandbox: none");
    expect(r.stdout).toBe("");
  });

  it("namespaces unavailable (a sandbox that forbids user namespaces): exit 2 with bwrap's reason", () => {
    const r = start({ PATH: "/usr/bin:/bin" }, [bwrap, "--unshare-user", "--disable-userns", "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--"]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/bwrap \(package bubblewrap\) cannot create its namespaces here: bwrap: Creating new namespace failed/);
    expect(r.stdout).toBe("");
  });
});

describe("the remembered probe", () => {
  it("a start under the same conditions skips the probe; a fresh cache probes again", () => {
    // bwrap behind a wrapper that logs each run, so the probe's runs can be counted.
    const bin = join(tree.root, "probe-bin");
    const log = join(tree.root, "probe.log");
    mkdirSync(bin, { recursive: true });
    writeFileSync(join(bin, "bwrap"), `#!/bin/sh\necho "$*" >> "$PROBE_LOG"\nexec ${bwrap} "$@"\n`, { mode: 0o755 });
    const probes = () => (existsSync(log) ? readFileSync(log, "utf8").split("\n").filter((l) => l.endsWith("--nproc=64 -- true")).length : 0);
    const env = (tmp: string) => ({ PATH: `${bin}:/usr/local/bin:/usr/bin:/bin`, PROBE_LOG: log, TMPDIR: tmp });
    const tmpA = mkdtempSync(join(tree.root, "tmp-a-"));
    expect(start(env(tmpA)).status).toBe(0);
    expect(probes()).toBe(1);
    expect(readFileSync(join(tmpA, `kervan-${process.getuid!()}`, "bwrap-probe-ok"), "utf8")).toMatch(/^[0-9a-f]{64}\n$/);
    expect(start(env(tmpA)).status).toBe(0);
    expect(probes()).toBe(1);
    const tmpB = mkdtempSync(join(tree.root, "tmp-b-"));
    expect(start(env(tmpB)).status).toBe(0);
    expect(probes()).toBe(2);
  });
});

describe("sandbox configuration at startup", () => {
  const cfg = (sandbox: ExecToolConfig["sandbox"], extra: Partial<ExecToolConfig> = {}): ExecToolConfig => ({
    tool: "t",
    argv: [["cat"], ["x"]],
    fields: {},
    cwd: tree.project,
    sandbox,
    ...extra,
  });
  it.each<[string, ExecToolConfig["sandbox"], RegExp]>([
    ["an unknown mode", { mode: "chroot" as never }, /sandbox.mode must be "bubblewrap" or "none"/],
    ["too few processes", { mode: "bubblewrap", processes: 2 }, /sandbox.processes must be an integer from 8/],
    ["a fractional file size", { mode: "bubblewrap", fileSizeBytes: 1.5 }, /sandbox.fileSizeBytes/],
    ["zero CPU seconds", { mode: "bubblewrap", cpuSeconds: 0 }, /sandbox.cpuSeconds/],
    ["a non-boolean network", { mode: "bubblewrap", network: "yes" as never }, /sandbox.network must be a boolean/],
  ])("%s is refused by name", (_n, sandbox, why) => {
    expect(() => createExecHandler(cfg(sandbox))).toThrow(StartupError);
    expect(() => createExecHandler(cfg(sandbox))).toThrow(why);
  });

  it("a missing writable root stops startup", () => {
    expect(() => checkExecStartup(cfg({ mode: "bubblewrap", writable: ["no-such-dir"] }))).toThrow(/sandbox writable root no-such-dir .* is not an existing directory/);
  });
  it("the whole filesystem as a visible root is refused", () => {
    expect(() => checkExecStartup(cfg({ mode: "bubblewrap", visible: ["/"] }))).toThrow(/is the whole filesystem/);
  });
  it("a command the sandbox would not show stops startup, naming the fix", () => {
    const bin = join(tree.root, "tools-bin");
    mkdirSync(bin, { recursive: true });
    writeFileSync(join(bin, "tool.sh"), "#!/bin/sh\necho hi\n", { mode: 0o755 });
    expect(() => checkExecStartup(cfg({ mode: "bubblewrap" }, { argv: [[join(bin, "tool.sh")]] }))).toThrow(/which the sandbox does not show; add its directory to sandbox.visible/);
    // Shown once its directory is visible.
    expect(() => checkExecStartup(cfg({ mode: "bubblewrap", visible: [bin] }, { argv: [[join(bin, "tool.sh")]] }))).not.toThrow();
  });
  it("mode none runs without the sandbox and needs no probe", () => {
    expect(() => checkExecStartup(cfg({ mode: "none", processes: 1 }))).not.toThrow();
  });
});
