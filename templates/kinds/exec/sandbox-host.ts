// The startup probe of the OS sandbox: run once per server, before the first sandboxed tool is
// served. It refuses to start, naming the package and the reason, when the sandbox cannot hold;
// it never falls back to running unsandboxed. A success is remembered for later starts under the
// same conditions (probe-cache.ts), so a cold start need not spawn bwrap.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openPidsCgroup, type PidsCgroup } from "./cgroup.js";
import { probeKey, probeRemembered, rememberProbe } from "./probe-cache.js";
import { systemMounts, whichProgram } from "./sandbox.js";
import { log } from "../../runtime/log.js";

export interface SandboxHost {
  platform: "linux" | "darwin";
  /** Absolute path of bwrap (Linux) or sandbox-exec (macOS). */
  runner: string;
  /** Absolute path of prlimit (Linux). */
  prlimit: string;
  /** The system part of the mount table, without and with network files. */
  system: { offline: string[]; online: string[] };
  /** An empty read-only file, bound over denied files. */
  empty: string;
  /** Set when the server runs as root: processes are bounded by a pids cgroup per call. */
  cgroup?: PidsCgroup;
}

let HOST: SandboxHost | undefined;
let FAILURE: string | undefined;

const OPT_OUT = "or set `sandbox: none` on the tool (`--sandbox none` in the CLI form) to run it without the OS sandbox";

/** Flags the probe shares with every call, so a host that passes the probe can run calls. */
export const PROBE_ARGS = ["--unshare-all", "--unshare-user", "--disable-userns", "--die-with-parent", "--ro-bind", "/", "/", "--proc", "/proc", "--dev", "/dev"];

function probe(pathVar: string | undefined): SandboxHost {
  if (process.platform === "darwin") {
    const runner = whichProgram("sandbox-exec", "/", "/usr/bin:" + (pathVar ?? ""));
    if (!runner) throw new Error(`sandbox-exec is missing (it ships with macOS in /usr/bin); ${OPT_OUT}`);
    return { platform: "darwin", runner, prlimit: "", empty: "", system: { offline: [], online: [] } };
  }
  if (process.platform !== "linux") {
    throw new Error(`the OS sandbox runs on Linux (bubblewrap) and macOS (sandbox-exec), not on ${process.platform}; ${OPT_OUT}`);
  }
  const runner = whichProgram("bwrap", "/", pathVar);
  if (!runner) throw new Error(`bwrap was not found on PATH: install the Debian package bubblewrap (apt-get install bubblewrap); ${OPT_OUT}`);
  const prlimit = whichProgram("prlimit", "/", pathVar);
  if (!prlimit) throw new Error(`prlimit was not found on PATH: install the Debian package util-linux; ${OPT_OUT}`);
  const probeArgs = [...PROBE_ARGS, "--", prlimit, "--nproc=64", "--", "true"];
  const key = probeKey(runner, prlimit, probeArgs);
  if (!probeRemembered(key)) {
    const r = spawnSync(runner, probeArgs, { encoding: "utf8", timeout: 10_000 });
    if (r.error || r.status !== 0) {
      const why = (r.error?.message ?? r.stderr.trim().split("\n")[0]) || `exit status ${r.status}`;
      throw new Error(
        `bwrap (package bubblewrap) cannot create its namespaces here: ${why}. ${/mount proc/i.test(why) ? "The container masks parts of /proc: run it with --security-opt unmask=/proc/* (podman), --security-opt systempaths=unconfined (Docker) or procMount: Unmasked with hostUsers: false (Kubernetes). " : ""}Inside a container, allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1, user.max_user_namespaces > 0, and a seccomp/AppArmor profile that permits them); ${OPT_OUT}`,
      );
    }
    rememberProbe(key);
  }
  const host: SandboxHost = { platform: "linux", runner, prlimit, empty: emptyFile(), system: { offline: systemMounts(false), online: systemMounts(true) } };
  if (process.getuid?.() === 0) {
    try {
      host.cgroup = openPidsCgroup();
    } catch (err) {
      throw new Error(
        `the server runs as root, whom the kernel exempts from the per-call process limit (RLIMIT_NPROC), and no pids cgroup is writable (${(err as Error).message}); run the server as an unprivileged user or give it a delegated cgroup; ${OPT_OUT}`,
      );
    }
  }
  return host;
}

/** An empty file readable by all and writable by none, removed when the server exits. */
function emptyFile(): string {
  const dir = mkdtempSync(join(tmpdir(), "kervan-sandbox-"));
  const file = join(dir, "empty");
  writeFileSync(file, "", { mode: 0o444 });
  process.on("exit", () => rmSync(dir, { recursive: true, force: true }));
  return file;
}

/**
 * The probed host, probing on first use; throws an Error whose message is the refusal. `pathVar`
 * is the PATH the tools' children get (the server's own): bwrap and prlimit are found on it.
 */
export function sandboxHost(pathVar: string | undefined): SandboxHost {
  if (HOST) return HOST;
  if (FAILURE !== undefined) throw new Error(FAILURE);
  try {
    HOST = probe(pathVar);
    log(isolationLine(HOST));
    return HOST;
  } catch (err) {
    FAILURE = (err as Error).message;
    throw err;
  }
}

/** The one startup line that says which isolation the sandboxed exec tools run under. */
function isolationLine(host: SandboxHost): string {
  if (host.platform === "darwin") return `isolation: sandbox-exec (${host.runner}) for sandboxed exec tools`;
  const inContainer = /\b(docker|containerd|kubepods|libpod|podman)\b/.test(readText("/proc/1/cgroup")) || existsSync("/run/.containerenv") || existsSync("/.dockerenv");
  return `isolation: bubblewrap (${host.runner}) with user, mount, pid, net, ipc, uts and cgroup namespaces and a fresh /proc${inContainer ? ", inside a container" : ""}; processes bounded by ${host.cgroup ? "a pids cgroup per call" : "RLIMIT_NPROC"}`;
}

function readText(p: string): string {
  try {
    return readFileSync(p, "utf8");
  } catch {
    return "";
  }
}
