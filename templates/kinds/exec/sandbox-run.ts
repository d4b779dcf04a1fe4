// Running one call under the OS sandbox: the same runProcess (timeouts, caps, cancellation, group
// kill), with bwrap (Linux) or sandbox-exec (macOS) in front of the command.
import { closeSync, lstatSync, mkdtempSync, openSync, realpathSync, rmSync, type Stats } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { callCgroup, gateIntoCgroup, releaseCgroup, spawnInside } from "./cgroup.js";
import { macosProfile } from "./macos-profile.js";
import { within } from "./paths.js";
import { bwrapArgs, callMounts, currentMasks, limitArgs, SYSTEM_DIRS, whichProgram, type CallMounts, type SandboxPlan } from "./sandbox.js";
import { SECCOMP_FD, type SandboxHost } from "./sandbox-host.js";
import { runProcess, type RunOptions, type RunResult } from "./spawn.js";

/** Startup: the program must exist and lie somewhere the sandbox shows, or no call could run. */
export function checkCommandVisible(command: string, plan: SandboxPlan, host: SandboxHost, pathVar: string | undefined, fail: (why: string) => never): void {
  if (host.platform !== "linux") return;
  const found = whichProgram(command, plan.cwd, pathVar);
  if (!found) fail(`command ${command} was not found on the tool's PATH`);
  let real: string;
  try {
    real = realpathSync(found);
  } catch (err) {
    return fail(`cannot resolve command ${found}: ${(err as Error).message}`);
  }
  const shown = [...plan.visible, ...SYSTEM_DIRS.map((d) => safeReal(d))];
  if (!shown.some((root) => root !== undefined && within(root, real))) {
    fail(`command ${command} is ${real}, which the sandbox does not show; add its directory to sandbox.visible`);
  }
  if (plan.masked.some((m) => within(m, real))) fail(`command ${command} is ${real}, inside a denied path`);
}

function safeReal(p: string): string | undefined {
  try {
    return realpathSync(p);
  } catch {
    return undefined;
  }
}

/** bwrap's full command line for one call, without the process-limit gate a root server adds. */
export function bwrapCommand(plan: SandboxPlan, host: SandboxHost, command: string, args: string[], mounts?: CallMounts): string[] {
  const wrapped = [...limitArgs(plan.limits, host.prlimit, host.memoryBy === "address-space"), command, ...args];
  const system = plan.network ? host.system.online : host.system.offline;
  return [host.runner, ...bwrapArgs(plan, system, host.empty, wrapped, { root: host.root, seccompFd: SECCOMP_FD, mounts })];
}

/** One call under the sandbox; `outputDir`, the call's own output directory (output-files.ts), is writable in it. */
export function sandboxedRun(o: RunOptions, planned: SandboxPlan, host: SandboxHost, outputDir?: string): Promise<RunResult> {
  const plan = outputDir ? { ...planned, writable: [...planned.writable, outputDir] } : planned;
  if (host.platform === "darwin") {
    const tmp = realpathSync(mkdtempSync(join(tmpdir(), "kervan-call-")));
    // Denied paths by name (a later one is denied too), and hard links to denied files found now.
    const masked = [...new Set([...plan.masked, ...currentMasks(plan).map(([m]) => m)])];
    const args = ["-p", macosProfile({ ...plan, masked }), "-D", `CALL_TMP=${tmp}`, o.command, ...o.args];
    return runProcess({ ...o, command: host.runner, args, env: { ...o.env, TMPDIR: tmp } }).finally(() =>
      rmSync(tmp, { recursive: true, force: true }),
    );
  }
  const mounts = callMounts(plan);
  const unguarded = unguardedRunLater(plan, mounts);
  const [runner, ...bwrap] = bwrapCommand(plan, host, o.command, o.args, mounts);
  const { done, spawned, ...steps } = cgroupSteps(host, plan.limits, bwrap);
  const run = runProcess({ ...o, command: runner, ...steps });
  spawned();
  return run.then((r) => sweepRunLater(r, unguarded, plan.writable)).finally(done);
}

/** Run-later paths this call could not bind read-only (missing, or a symbolic link), with what was there. */
function unguardedRunLater(plan: SandboxPlan, mounts: CallMounts): Map<string, string> {
  const out = new Map<string, string>();
  for (const p of plan.runLater) if (!mounts.readOnly.includes(p)) out.set(p, identity(lstatQuiet(p)));
  return out;
}

const identity = (st: Stats | undefined) => (st ? `${st.dev}:${st.ino}:${st.mode}` : "");

function lstatQuiet(p: string): Stats | undefined {
  try {
    return lstatSync(p);
  } catch {
    return undefined;
  }
}

/**
 * After the call (its PID namespace, and so every process of it, is gone): a run-later path it
 * created or replaced is removed, and the result says so. Only when the path's folder is a real
 * directory inside a writable root, so a symbolic link planted by the call never aims the removal
 * elsewhere.
 */
function sweepRunLater(r: RunResult, unguarded: Map<string, string>, writable: string[]): RunResult {
  const removed: string[] = [];
  for (const [p, before] of unguarded) {
    const st = lstatQuiet(p);
    if (identity(st) === before || !st) continue;
    let parent: string;
    try {
      parent = realpathSync(dirname(p));
    } catch {
      continue;
    }
    if (parent !== dirname(p) || !writable.some((w) => within(w, parent))) continue;
    rmSync(p, { recursive: true, force: true });
    removed.push(p);
  }
  if (removed.length === 0) return r;
  const note = `kervan: removed ${removed.join(", ")}: the call created ${removed.length === 1 ? "it" : "them"}, and run-later paths stay read-only (sandbox.writableRunLater)\n`;
  return { ...r, stderr: r.stderr + (r.stderr === "" || r.stderr.endsWith("\n") ? "" : "\n") + note };
}

export interface CgroupSteps {
  args: string[];
  /** Descriptors after stdio (fd 3 on): the cgroup gate's pipes, the system-call filter. */
  extraStdio: Array<"pipe" | "ignore" | number>;
  aroundSpawn?: RunOptions["aroundSpawn"];
  onSpawn?: RunOptions["onSpawn"];
  /** Once bwrap has been spawned: its copy of the filter's descriptor is its own, ours is closed. */
  spawned: () => void;
  /** Once the call has ended: the call's cgroup goes when its last task is gone. */
  done: () => void;
}

/**
 * What a call does around one bwrap spawn: the system-call filter on fd 5 (opened afresh, as
 * bwrap reads it to the end), and, when the server is root, the call's cgroups (cgroup.ts) so its
 * processes and memory are bounded: cgroup v1, bwrap is born in them; v2, it starts blocked (fd 4)
 * until it has been moved in. Unprivileged servers need no cgroup (RLIMIT_NPROC and RLIMIT_AS
 * hold). Exported so the bench's bare bwrap spawn does the same OS work.
 */
export function cgroupSteps(host: SandboxHost, limits: SandboxPlan["limits"], bwrap: string[], withCgroup = true): CgroupSteps {
  const fd = openSync(host.seccomp, "r");
  let open = true;
  const spawned = () => {
    if (open) closeSync(fd);
    open = false;
  };
  const stdio = (gate: boolean): CgroupSteps["extraStdio"] => [gate ? "pipe" : "ignore", gate ? "pipe" : "ignore", fd];
  const group = withCgroup ? host.cgroup : undefined;
  if (!group) return { args: bwrap, extraStdio: stdio(false), spawned, done: spawned };
  let call;
  try {
    call = callCgroup(group, limits.processes, group.memory ? limits.memoryBytes : undefined);
  } catch (err) {
    spawned();
    throw err;
  }
  const done = () => {
    spawned();
    releaseCgroup(call);
  };
  if (group.home) return { args: bwrap, extraStdio: stdio(false), aroundSpawn: (start) => spawnInside(group, call, start), spawned, done };
  return { args: ["--info-fd", "3", "--block-fd", "4", ...bwrap], extraStdio: stdio(true), onSpawn: (child, fail) => gateIntoCgroup(child, call, fail), spawned, done };
}
