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
  /**
   * The memory controller, when one could be used: on v2 the same folders (`dir` unset); on v1 a
   * parallel tree in the memory hierarchy, `home` the main thread's own memory cgroup.
   */
  memory?: { dir?: string; home?: string };
}

/** A call's cgroups: the pids one, and on cgroup v1 its memory twin. */
export interface CallCgroup {
  dir: string;
  memory?: string;
}

/** Where this thread's cgroup of `controller` lives, from /proc/self/mountinfo and /proc/thread-self/cgroup. */
function ownDir(controller: string): { dir: string; v1: boolean } {
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
  const v1 = cgroups.find((l) => l.split(":")[1].split(",").includes(controller));
  if (v1) {
    const mount = mountOf("cgroup", controller);
    if (mount) return { dir: join(mount, v1.split(":").slice(2).join(":")), v1: true };
  }
  const v2 = cgroups.find((l) => l.startsWith("0::"));
  const mount = mountOf("cgroup2");
  if (v2 && mount) return { dir: join(mount, v2.slice(3)), v1: false };
  throw new Error(`no ${controller} cgroup hierarchy is mounted`);
}

/** Creates this server's parent cgroup; throws with the reason when it cannot. */
export function openPidsCgroup(): PidsCgroup {
  const { dir: base, v1 } = ownDir("pids");
  const dir = serverDir(base);
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
    rmdirQuiet(probe.dir);
  }
  removeOnExit(dir);
  return group;
}

/** This server's own cgroup under `base`, after removing those of servers that are gone. */
function serverDir(base: string): string {
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
  return dir;
}

function removeOnExit(dir: string): void {
  // The last calls' processes may still be dying when the server exits: wait for them, briefly.
  process.on("exit", () => {
    const pause = new Int32Array(new SharedArrayBuffer(4));
    for (let i = 0; i < 50 && !removeTree(dir); i++) Atomics.wait(pause, 0, 0, 10);
  });
}

/**
 * Adds the memory controller to a server's pids cgroup when the host lets it: v2 enables it for
 * the call cgroups; v1 makes the parallel tree. Whether it could (else memory is bounded by RLIMIT_AS).
 */
export function openMemoryCgroup(group: PidsCgroup): boolean {
  try {
    if (!group.home) {
      writeFileSync(join(group.dir, "cgroup.subtree_control"), "+memory");
      group.memory = {};
    } else {
      const { dir: base, v1 } = ownDir("memory");
      if (!v1) return false;
      const dir = serverDir(base);
      removeOnExit(dir);
      group.memory = { dir, home: base };
    }
    const probe = callCgroup(group, 8, 16 * 1024 * 1024);
    releaseCgroup(probe, 0);
    return true;
  } catch {
    delete group.memory;
    return false;
  }
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

/** A fresh cgroup for one call, limited to `max` tasks and, with the memory controller, `memoryBytes`. */
export function callCgroup(group: PidsCgroup, max: number, memoryBytes?: number): CallCgroup {
  if (group.broken) throw new Error(group.broken);
  const name = `call-${group.next++}`;
  const dir = join(group.dir, name);
  mkdirSync(dir);
  writeFileSync(join(dir, "pids.max"), String(max));
  if (!group.memory || memoryBytes === undefined) return { dir };
  if (!group.memory.dir) {
    writeFileSync(join(dir, "memory.max"), String(memoryBytes));
    writeFileSync(join(dir, "memory.swap.max"), "0");
    return { dir };
  }
  const memory = join(group.memory.dir, name);
  mkdirSync(memory);
  writeFileSync(join(memory, "memory.limit_in_bytes"), String(memoryBytes));
  return { dir, memory };
}

/**
 * cgroup v1: runs `start` (a synchronous spawn) with the calling thread inside `dir`, so the process
 * it creates is born there, then steps back home. Should stepping back ever fail, the thread would
 * count against a call's limit: the group is marked broken and later calls refuse.
 */
export function spawnInside<T>(group: PidsCgroup, call: CallCgroup, start: () => T): T {
  writeFileSync(join(call.dir, "tasks"), "0");
  try {
    if (call.memory) writeFileSync(join(call.memory, "tasks"), "0");
    return start();
  } finally {
    try {
      writeFileSync(join(group.home!, "tasks"), "0");
      if (call.memory) writeFileSync(join(group.memory!.home!, "tasks"), "0");
    } catch (err) {
      group.broken = `the server could not leave a call's process-limit cgroup: ${(err as Error).message}`;
    }
  }
}

/** Removes a call's cgroups once their last task is gone (the kernel frees them a moment after exit). */
export function releaseCgroup(call: CallCgroup, tries = 40): void {
  const left = [call.dir, ...(call.memory ? [call.memory] : [])].filter((d) => !rmdirQuiet(d));
  if (left.length === 0 || tries === 0) return;
  setTimeout(() => releaseCgroup({ dir: left[0]!, ...(left[1] ? { memory: left[1] } : {}) }, tries - 1), 25).unref();
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
export function gateIntoCgroup(child: ChildProcess, call: CallCgroup, failed: (why: string) => void): void {
  const dir = call.dir;
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
