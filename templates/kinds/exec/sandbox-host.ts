// The startup probe of the OS sandbox: run once per server, before the first sandboxed tool is
// served. It refuses to start, naming the package and the reason, when the sandbox cannot hold;
// it never falls back to running unsandboxed. A success is remembered for later starts under the
// same conditions (probe-cache.ts), so a cold start need not spawn bwrap.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openMemoryCgroup, openPidsCgroup, type PidsCgroup } from "./cgroup.js";
import { seccompProgram } from "./seccomp.js";
import { probeKey, probeRemembered, rememberProbe } from "./probe-cache.js";
import { privilegeArgs, systemMounts, whichProgram } from "./sandbox.js";
import { log } from "../../runtime/log.js";

/** The descriptor a sandboxed spawn gets its system-call filter on (fds 3 and 4 are the cgroup gate's). */
export const SECCOMP_FD = 5;

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
  /** The system-call filter (seccomp.ts), a file opened afresh for each call. */
  seccomp: string;
  /** The server runs as root: the command gets an unprivileged uid and gid inside its namespace. */
  root: boolean;
  /** How a call's memory is bounded: its cgroup's limit, or RLIMIT_AS per process. */
  memoryBy: "cgroup" | "address-space";
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
    return { platform: "darwin", runner, prlimit: "", empty: "", seccomp: "", root: false, memoryBy: "address-space", system: { offline: [], online: [] } };
  }
  if (process.platform !== "linux") {
    throw new Error(`the OS sandbox runs on Linux (bubblewrap) and macOS (sandbox-exec), not on ${process.platform}; ${OPT_OUT}`);
  }
  const runner = whichProgram("bwrap", "/", pathVar);
  if (!runner) throw new Error(`bwrap was not found on PATH: install the Debian package bubblewrap (apt-get install bubblewrap); ${OPT_OUT}`);
  const prlimit = whichProgram("prlimit", "/", pathVar);
  if (!prlimit) throw new Error(`prlimit was not found on PATH: install the Debian package util-linux; ${OPT_OUT}`);
  let filter: Buffer;
  try {
    filter = seccompProgram();
  } catch (err) {
    throw new Error(`${(err as Error).message}; ${OPT_OUT}`);
  }
  const root = process.getuid?.() === 0;
  // The probe reads the filter on its stdin: nothing is written before the probe has passed.
  const probeArgs = [...PROBE_ARGS, ...privilegeArgs(root), "--seccomp", "0", "--", prlimit, "--nproc=64", "--", "true"];
  const key = probeKey(runner, prlimit, probeArgs);
  if (!probeRemembered(key)) {
    const r = spawnSync(runner, probeArgs, { input: filter, encoding: "utf8", timeout: 10_000 });
    if (r.error || r.status !== 0) {
      // bwrap's own reason first: when it fails before reading the filter, the write to its stdin fails too (EPIPE).
      const why = (r.stderr?.trim().split("\n")[0] || r.error?.message) || `exit status ${r.status}`;
      throw new Error(
        `bwrap (package bubblewrap) cannot create its namespaces here: ${why}. ${/mount proc/i.test(why) ? "The container masks parts of /proc: run it with --security-opt unmask=/proc/* (podman), --security-opt systempaths=unconfined (Docker) or procMount: Unmasked with hostUsers: false (Kubernetes). " : ""}Inside a container, allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1, user.max_user_namespaces > 0, and a seccomp/AppArmor profile that permits them); ${OPT_OUT}`,
      );
    }
    rememberProbe(key);
  }
  const dir = scratchDir();
  const seccomp = writeScratch(dir, "seccomp.bpf", filter);
  const host: SandboxHost = {
    platform: "linux",
    runner,
    prlimit,
    empty: writeScratch(dir, "empty", ""),
    seccomp,
    root,
    memoryBy: "address-space",
    system: { offline: systemMounts(false), online: systemMounts(true) },
  };
  if (root) {
    try {
      host.cgroup = openPidsCgroup();
    } catch (err) {
      throw new Error(
        `the server runs as root, whom the kernel exempts from the per-call process limit (RLIMIT_NPROC), and no pids cgroup is writable (${(err as Error).message}); run the server as an unprivileged user or give it a delegated cgroup; ${OPT_OUT}`,
      );
    }
    // Memory by cgroup where one can be made (the call's processes and its /tmp together), else RLIMIT_AS.
    if (openMemoryCgroup(host.cgroup)) host.memoryBy = "cgroup";
  }
  return host;
}

/** The server's scratch folder for the sandbox's files, removed when the server exits. */
function scratchDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "kervan-sandbox-"));
  process.on("exit", () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A file readable by all and writable by none. */
function writeScratch(dir: string, name: string, data: string | Buffer): string {
  const file = join(dir, name);
  writeFileSync(file, data, { mode: 0o444 });
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
  return `isolation: bubblewrap (${host.runner}) with user, mount, pid, net, ipc, uts and cgroup namespaces and a fresh /proc${inContainer ? ", inside a container" : ""}; ${host.root ? "commands run as an unprivileged uid inside, " : ""}no capabilities, a seccomp filter against setuid files and device nodes; processes bounded by ${host.cgroup ? "a pids cgroup per call" : "RLIMIT_NPROC"}, memory by ${host.memoryBy === "cgroup" ? "a memory cgroup per call" : "RLIMIT_AS"}`;
}

function readText(p: string): string {
  try {
    return readFileSync(p, "utf8");
  } catch {
    return "";
  }
}
