// Running one call under the OS sandbox: the same runProcess (timeouts, caps, cancellation, group
// kill), with bwrap (Linux) or sandbox-exec (macOS) in front of the command.
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { callCgroup, gateIntoCgroup, releaseCgroup } from "./cgroup.js";
import { macosProfile } from "./macos-profile.js";
import { within } from "./paths.js";
import { bwrapArgs, limitArgs, SYSTEM_DIRS, whichProgram, type SandboxPlan } from "./sandbox.js";
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
    const args = ["-p", macosProfile(plan), "-D", `CALL_TMP=${tmp}`, o.command, ...o.args];
    return runProcess({ ...o, command: host.runner, args, env: { ...o.env, TMPDIR: tmp } }).finally(() =>
      rmSync(tmp, { recursive: true, force: true }),
    );
  }
  const [runner, ...bwrap] = bwrapCommand(plan, host, o.command, o.args);
  if (!host.cgroup) return runProcess({ ...o, command: runner, args: bwrap });
  // As root: the sandbox waits (fd 4) until its processes have joined the call's pids cgroup.
  const dir = callCgroup(host.cgroup, plan.limits.processes);
  const args = ["--info-fd", "3", "--block-fd", "4", ...bwrap];
  return runProcess({ ...o, command: host.runner, args, extraPipes: 2, onSpawn: (child, fail) => gateIntoCgroup(child, dir, fail) }).finally(() =>
    releaseCgroup(dir),
  );
}
