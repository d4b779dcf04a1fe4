// The process limit when the server runs as root. The kernel exempts real root from RLIMIT_NPROC
// (even inside a user namespace, which maps back to root), so a fork bomb would run unbounded.
// A pids cgroup per call bounds it instead, and bwrap is born inside it, so every descendant is
// counted from its first fork.
//
// How bwrap gets in decides what this costs. Moving another process into a cgroup (a pid written
// to cgroup.procs) takes the kernel's global thread-group lock, whose write side waits for an RCU
// grace period: several milliseconds per call, whatever else happens. Moving the calling thread
// itself ("0" written to a cgroup v1 `tasks` file) skips that lock. So with cgroup v1 the server's
// main thread steps into the call's cgroup, spawns bwrap (a child starts in its forking thread's
// cgroup) and steps back: two small writes, no lock, no waiting on the child. cgroup v2 keeps all
// threads of a process together, so there bwrap is started blocked (--info-fd, --block-fd), moved
// in by pid, and only then released.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ChildProcess } from "node:child_process";

export interface PidsCgroup {
  /** This server's own parent cgroup; calls get children of it. */
  dir: string;
  next: number;
  /** cgroup v1: the main thread's own cgroup, where it returns after each spawn. Unset on v2. */
  home?: string;
  /** Why the main thread could not step back home; every later sandboxed call refuses with it. */
  broken?: string;
}

/** Where this thread's pids cgroup lives, from /proc/self/mountinfo and /proc/thread-self/cgroup. */
function ownPidsDir(): { dir: string; v1: boolean } {
  const cgroups = readFileSync("/proc/thread-self/cgroup", "utf8").trim().split("\n");
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
    if (mount) return { dir: join(mount, v1.split(":").slice(2).join(":")), v1: true };
  }
  const v2 = cgroups.find((l) => l.startsWith("0::"));
  const mount = mountOf("cgroup2");
  if (v2 && mount) return { dir: join(mount, v2.slice(3)), v1: false };
  throw new Error("no pids cgroup hierarchy is mounted");
}

/** Creates this server's parent cgroup; throws with the reason when it cannot. */
export function openPidsCgroup(): PidsCgroup {
  const { dir: base, v1 } = ownPidsDir();
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
  const group: PidsCgroup = { dir, next: 0, home: v1 ? base : undefined };
  // A probe call cgroup (and on v1 a step in and out), so a problem shows at startup rather than on the first call.
  const probe = callCgroup(group, 8);
  try {
    if (group.home) spawnInside(group, probe, () => undefined);
    if (group.broken) throw new Error(group.broken);
  } finally {
    rmdirQuiet(probe);
  }
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
  if (group.broken) throw new Error(group.broken);
  const dir = join(group.dir, `call-${group.next++}`);
  mkdirSync(dir);
  writeFileSync(join(dir, "pids.max"), String(max));
  return dir;
}

/**
 * cgroup v1: runs `start` (a synchronous spawn) with the calling thread inside `dir`, so the process
 * it creates is born there, then steps back home. Should stepping back ever fail, the thread would
 * count against a call's limit: the group is marked broken and later calls refuse.
 */
export function spawnInside<T>(group: PidsCgroup, dir: string, start: () => T): T {
  writeFileSync(join(dir, "tasks"), "0");
  try {
    return start();
  } finally {
    try {
      writeFileSync(join(group.home!, "tasks"), "0");
    } catch (err) {
      group.broken = `the server could not leave a call's process-limit cgroup: ${(err as Error).message}`;
    }
  }
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
 * cgroup v2: moves a blocked bwrap (spawned with fd 3 as --info-fd and fd 4 as --block-fd) into `dir` and
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
