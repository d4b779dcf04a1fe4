// The startup probe's memory. Spawning bwrap to see that it can create its namespaces costs tens
// of milliseconds of every cold start, while its answer depends only on things that can be read in
// well under one: the user, the kernel and this boot, the bwrap and prlimit binaries, the
// namespaces this process lives in, its seccomp and capability state and LSM label, and the
// sysctls that govern user namespaces. A probe that succeeded is remembered under a hash of those
// in a directory only this user can write, so a later start under the same conditions skips it.
// A changed condition is a new key and a fresh probe. Were a remembered answer ever wrong, calls
// would fail with bwrap's own error: nothing ever runs unsandboxed because of it.
import { createHash } from "node:crypto";
import { lstatSync, mkdirSync, readFileSync, readlinkSync, renameSync, statSync, writeFileSync } from "node:fs";
import { release, tmpdir } from "node:os";
import { join } from "node:path";

const KEEP = 16; // keys remembered per user: enough for a few containers or binaries side by side

function read(p: string): string {
  try {
    return readFileSync(p, "utf8").trim();
  } catch {
    return "-";
  }
}

function link(p: string): string {
  try {
    return readlinkSync(p);
  } catch {
    return "-";
  }
}

function file(p: string): string {
  try {
    const s = statSync(p);
    return `${p} ${s.dev}:${s.ino} ${s.size} ${s.mtimeMs} ${s.mode} ${s.uid}`;
  } catch {
    return `${p} -`;
  }
}

/** The conditions the probe's answer depends on, hashed. */
export function probeKey(runner: string, prlimit: string, probeArgs: string[]): string {
  const status = read("/proc/self/status")
    .split("\n")
    .filter((l) => /^(Uid|Gid|Groups|CapEff|CapBnd|CapPrm|NoNewPrivs|Seccomp|Seccomp_filters):/.test(l));
  const parts = [
    release(),
    read("/proc/sys/kernel/random/boot_id"),
    file(runner),
    file(prlimit),
    probeArgs.join(" "),
    ...["user", "mnt", "pid", "net", "ipc", "uts", "cgroup"].map((ns) => link(`/proc/self/ns/${ns}`)),
    ...status,
    read("/proc/self/attr/current"),
    ...["user/max_user_namespaces", "kernel/unprivileged_userns_clone", "kernel/apparmor_restrict_unprivileged_userns"].map((s) => read(`/proc/sys/${s}`)),
  ];
  return createHash("sha256").update(parts.join("\n")).digest("hex");
}

/** This user's private directory for the remembered keys, or undefined when it is not safely ours. */
function cacheDir(): string | undefined {
  const uid = process.getuid?.();
  if (uid === undefined) return undefined;
  const dir = join(tmpdir(), `kervan-${uid}`);
  try {
    mkdirSync(dir, { mode: 0o700 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") return undefined;
  }
  try {
    const st = lstatSync(dir);
    return st.isDirectory() && st.uid === uid && (st.mode & 0o077) === 0 ? dir : undefined;
  } catch {
    return undefined;
  }
}

const FILE = "bwrap-probe-ok";

export function probeRemembered(key: string): boolean {
  const dir = cacheDir();
  return dir !== undefined && read(join(dir, FILE)).split("\n").includes(key);
}

/** Remembers a successful probe; best effort (a read-only /tmp only means probing every time). */
export function rememberProbe(key: string): void {
  const dir = cacheDir();
  if (!dir) return;
  try {
    const keys = read(join(dir, FILE)).split("\n").filter((k) => /^[0-9a-f]{64}$/.test(k) && k !== key);
    const tmp = join(dir, `${FILE}.${process.pid}`);
    writeFileSync(tmp, [...keys.slice(-(KEEP - 1)), key].join("\n") + "\n", { mode: 0o600 });
    renameSync(tmp, join(dir, FILE));
  } catch {
    // not remembered; the next start probes again
  }
}
