// The process limit when the server runs as root. The kernel exempts real root from RLIMIT_NPROC
// (even inside a user namespace, which maps back to root), so a fork bomb would run unbounded.
// A pids cgroup per call bounds it instead: bwrap is started with --info-fd and --block-fd, so
// the sandbox is created but waits; its processes (bwrap and the namespace's init, nothing else
// exists yet) join the call's cgroup; only then is the sandbox released, so every descendant is
// counted from its first fork. Works with cgroup v1 (a `pids` hierarchy) and v2 (a delegated
// subtree with the pids controller).
import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ChildProcess } from "node:child_process";

export interface PidsCgroup {
  /** This server's own parent cgroup; calls get children of it. */
  dir: string;
  next: number;
}

/** Where this process's pids cgroup lives, from /proc/self/mountinfo and /proc/self/cgroup. */
function ownPidsDir(): string {
  const cgroups = readFileSync("/proc/self/cgroup", "utf8").trim().split("\n");
  const mounts = readFileSync("/proc/self/mountinfo", "utf8").trim().split("\n");
  const mountOf = (fstype: string, option?: string): string | undefined => {
    for (const line of mounts) {
      const [pre, post] = line.split(" - ");
      const [type, , superOpts] = post.split(" ");
      if (type !== fstype) continue;
      if (option && !superOpts.split(",").includes(option)) continue;
      return pre.split(" ")[4];
    }
    return undefined;
  };
  const v1 = cgroups.find((l) => l.split(":")[1].split(",").includes("pids"));
  if (v1) {
    const mount = mountOf("cgroup", "pids");
    if (mount) return join(mount, v1.split(":").slice(2).join(":"));
  }
  const v2 = cgroups.find((l) => l.startsWith("0::"));
  const mount = mountOf("cgroup2");
  if (v2 && mount) return join(mount, v2.slice(3));
  throw new Error("no pids cgroup hierarchy is mounted");
}

/** Creates this server's parent cgroup; throws with the reason when it cannot. */
export function openPidsCgroup(): PidsCgroup {
  const base = ownPidsDir();
  // Left behind by servers that were killed outright: empty by now, so they can go.
  for (const name of readdirSync(base)) {
    const m = /^kervan-(\d+)$/.exec(name);
    if (m && !existsSync(`/proc/${m[1]}`)) removeTree(join(base, name));
  }
  const dir = join(base, `kervan-${process.pid}`);
  try {
    mkdirSync(dir, { recursive: true });
  } catch (err) {
    throw new Error(`cannot create a cgroup under ${base}: ${(err as NodeJS.ErrnoException).code ?? err}`);
  }
  if (!existsSync(join(dir, "pids.max"))) {
    // cgroup v2: the pids controller must be enabled for our children.
    try {
      writeFileSync(join(dir, "cgroup.subtree_control"), "+pids");
    } catch (err) {
      rmdirQuiet(dir);
      throw new Error(`the pids controller is not available under ${base}: ${(err as NodeJS.ErrnoException).code ?? err}`);
    }
  }
  const group: PidsCgroup = { dir, next: 0 };
  // A probe call cgroup, so a problem shows at startup rather than on the first call.
  const probe = callCgroup(group, 8);
  rmdirQuiet(probe);
  // The last calls' processes may still be dying when the server exits: wait for them, briefly.
  process.on("exit", () => {
    const pause = new Int32Array(new SharedArrayBuffer(4));
    for (let i = 0; i < 50 && !removeTree(dir); i++) Atomics.wait(pause, 0, 0, 10);
  });
  return group;
}

/** Removes a server cgroup and its call cgroups; whether it is gone. */
function removeTree(dir: string): boolean {
  try {
    for (const name of readdirSync(dir)) if (name.startsWith("call-")) rmdirQuiet(join(dir, name));
  } catch {
    return true;
  }
  return rmdirQuiet(dir);
}

function rmdirQuiet(dir: string): boolean {
  try {
    rmdirSync(dir);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "ENOENT";
  }
}

/** A fresh cgroup for one call, limited to `max` tasks. */
export function callCgroup(group: PidsCgroup, max: number): string {
  const dir = join(group.dir, `call-${group.next++}`);
  mkdirSync(dir);
  writeFileSync(join(dir, "pids.max"), String(max));
  return dir;
}

/** Removes a call's cgroup once its last task is gone (the kernel frees it a moment after exit). */
export function releaseCgroup(dir: string, tries = 40): void {
  if (rmdirQuiet(dir) || tries === 0) return;
  setTimeout(() => releaseCgroup(dir, tries - 1), 25).unref();
}

function descendants(pid: number): number[] {
  let kids: number[] = [];
  try {
    const text = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim();
    kids = text === "" ? [] : text.split(/\s+/).map(Number);
  } catch {
    // gone already
  }
  return [pid, ...kids.flatMap(descendants)];
}

/**
 * Moves a blocked bwrap (spawned with fd 3 as --info-fd and fd 4 as --block-fd) into `dir` and
 * releases it. Calls `failed` (after which the caller kills the group) if that is not possible.
 */
export function gateIntoCgroup(child: ChildProcess, dir: string, failed: (why: string) => void): void {
  const info = child.stdio[3] as NodeJS.ReadableStream | null;
  const block = child.stdio[4] as NodeJS.WritableStream | null;
  if (!info || !block || child.pid === undefined) return failed("the sandbox's control pipes are missing");
  let text = "";
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    try {
      for (const pid of descendants(child.pid!)) writeFileSync(join(dir, "cgroup.procs"), String(pid));
    } catch (err) {
      return failed(`could not place the call in its process-limit cgroup: ${(err as Error).message}`);
    }
    block.end("1");
  };
  info.on("data", (b: Buffer) => {
    text += b.toString("utf8");
    try {
      JSON.parse(text); // complete once it parses: bwrap has created the namespaces
    } catch {
      return;
    }
    release();
  });
  (block as NodeJS.WritableStream & { on: (e: string, f: () => void) => void }).on("error", () => {
    // bwrap exited before reading; its exit is reported by the caller.
  });
}
