// Running one call under the OS sandbox: the same runProcess (timeouts, caps, cancellation, group
// kill), with bwrap (Linux) or sandbox-exec (macOS) in front of the command.
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { callCgroup, gateIntoCgroup, releaseCgroup, spawnInside } from "./cgroup.js";
import { macosProfile } from "./macos-profile.js";
import { within } from "./paths.js";
import { bwrapArgs, currentMasks, limitArgs, SYSTEM_DIRS, whichProgram, type SandboxPlan } from "./sandbox.js";
import type { SandboxHost } from "./sandbox-host.js";
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
export function bwrapCommand(plan: SandboxPlan, host: SandboxHost, command: string, args: string[]): string[] {
  const wrapped = [...limitArgs(plan.limits, host.prlimit), command, ...args];
  return [host.runner, ...bwrapArgs(plan, plan.network ? host.system.online : host.system.offline, host.empty, wrapped)];
}

export function sandboxedRun(o: RunOptions, plan: SandboxPlan, host: SandboxHost): Promise<RunResult> {
  if (host.platform === "darwin") {
    const tmp = realpathSync(mkdtempSync(join(tmpdir(), "kervan-call-")));
    // Denied paths by name (a later one is denied too), and hard links to denied files found now.
    const masked = [...new Set([...plan.masked, ...currentMasks(plan).map(([m]) => m)])];
    const args = ["-p", macosProfile({ ...plan, masked }), "-D", `CALL_TMP=${tmp}`, o.command, ...o.args];
    return runProcess({ ...o, command: host.runner, args, env: { ...o.env, TMPDIR: tmp } }).finally(() =>
      rmSync(tmp, { recursive: true, force: true }),
    );
  }
  const [runner, ...bwrap] = bwrapCommand(plan, host, o.command, o.args);
  const { done, ...steps } = cgroupSteps(host, plan.limits.processes, bwrap);
  return runProcess({ ...o, command: runner, ...steps }).finally(done);
}

export interface CgroupSteps {
  args: string[];
  extraPipes?: number;
  aroundSpawn?: RunOptions["aroundSpawn"];
  onSpawn?: RunOptions["onSpawn"];
  /** Once the call has ended: the call's cgroup goes when its last task is gone. */
  done: () => void;
}

/**
 * What a root server does around one bwrap spawn so the call's processes are bounded (cgroup.ts):
 * cgroup v1, bwrap is born in the call's cgroup; v2, it starts blocked (fd 4) until it has been
 * moved in. Unprivileged servers need none of it (RLIMIT_NPROC holds). Exported so the bench's
 * bare bwrap spawn does the same OS work.
 */
export function cgroupSteps(host: SandboxHost, processes: number, bwrap: string[]): CgroupSteps {
  const group = host.cgroup;
  if (!group) return { args: bwrap, done: () => {} };
  const dir = callCgroup(group, processes);
  const done = () => releaseCgroup(dir);
  if (group.home) return { args: bwrap, aroundSpawn: (start) => spawnInside(group, dir, start), done };
  return { args: ["--info-fd", "3", "--block-fd", "4", ...bwrap], extraPipes: 2, onSpawn: (child, fail) => gateIntoCgroup(child, dir, fail), done };
}
