// The operating-system sandbox of an exec tool: which parts of the filesystem the command and
// every descendant see, where they may write, whether they reach the network, and the per-call
// limits. On Linux it is enforced by bubblewrap (bwrap): a fresh mount, PID, network, IPC and UTS
// namespace per call, so nothing the command does once it runs can widen what it sees. Argument
// checks (paths.ts) still run first; this is what holds when a program walks on its own.
import { existsSync, lstatSync, readlinkSync, statSync, type Stats } from "node:fs";
import { delimiter, dirname, isAbsolute, join } from "node:path";
import { currentLinks } from "./hardlinks.js";
import { within } from "./paths.js";
import { RUN_LATER } from "./run-later.js";

export { RUN_LATER };

export interface SandboxConfig {
  /** `bubblewrap`: run under the OS sandbox (Linux bwrap, macOS sandbox-exec). `none`: run directly. */
  mode: "bubblewrap" | "none";
  /** Read-only roots shown besides the tool's working directory and its path allow roots (relative to the tool's cwd). */
  visible?: string[];
  /** Roots the command may write (relative to the tool's cwd). Default: none; a private /tmp is always writable. */
  writable?: string[];
  /** Whether the command reaches the network. Default: false (a private network namespace with no interfaces but loopback). */
  network?: boolean;
  /** Processes (threads count) the call may run at once. */
  processes?: number;
  /** Largest file the call may write, in bytes. */
  fileSizeBytes?: number;
  /** CPU seconds each process of the call may use. */
  cpuSeconds?: number;
  /** Memory the call may use: its cgroup's limit (all its processes and its /tmp) where the server can make one, else each process's address space. */
  memoryBytes?: number;
  /** Size of the call's private /tmp (a tmpfs). */
  tmpBytes?: number;
  /** Run-later paths (RUN_LATER) a writable root leaves writable; by default each stays read-only. */
  writableRunLater?: string[];
}

export const SANDBOX_DEFAULTS = Object.freeze({
  processes: 256,
  fileSizeBytes: 1024 * 1024 * 1024,
  cpuSeconds: 600,
  memoryBytes: 2 * 1024 * 1024 * 1024,
  tmpBytes: 256 * 1024 * 1024,
});


export interface SandboxLimits {
  processes: number;
  fileSizeBytes: number;
  cpuSeconds: number;
  memoryBytes: number;
  tmpBytes: number;
}

/** A sandbox resolved at startup: real paths only, nested roots folded into their parents. */
export interface SandboxPlan {
  /** Read-only roots, real paths, none inside another. */
  visible: string[];
  /** Writable roots, real paths, none inside another. */
  writable: string[];
  /** Denied paths (real) that lie inside something the command sees: masked on every call. */
  masked: string[];
  /** Run-later paths (real) inside the writable roots: read-only on every call where they exist. */
  runLater: string[];
  network: boolean;
  limits: SandboxLimits;
  cwd: string;
}

/** System directories every program needs; symlinks (merged /usr) are recreated as symlinks. */
export const SYSTEM_DIRS = ["/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"];
/** The few files of /etc that programs read to run: users, the loader cache, alternatives, time zone. */
export const ETC_FILES = [
  "/etc/alternatives",
  "/etc/group",
  "/etc/hosts",
  "/etc/ld.so.cache",
  "/etc/ld.so.conf",
  "/etc/ld.so.conf.d",
  "/etc/localtime",
  "/etc/nsswitch.conf",
  "/etc/passwd",
];
/** Added with `network: true`: name resolution and the system's certificate authorities. */
export const ETC_NETWORK_FILES = ["/etc/ca-certificates", "/etc/gai.conf", "/etc/protocols", "/etc/resolv.conf", "/etc/services", "/etc/ssl"];

const LIMIT_RANGES: Record<keyof SandboxLimits, [number, number]> = {
  processes: [8, 1_000_000],
  fileSizeBytes: [1, 2 ** 50],
  cpuSeconds: [1, 10_000_000],
  memoryBytes: [16 * 1024 * 1024, 2 ** 50],
  tmpBytes: [1024 * 1024, 2 ** 50],
};

/** Structural check of a sandbox config; returns the filled limits or throws via `fail`. */
export function checkSandboxConfig(s: SandboxConfig, fail: (why: string) => never): SandboxLimits {
  if (s.mode !== "bubblewrap" && s.mode !== "none") fail(`sandbox.mode must be "bubblewrap" or "none", not ${JSON.stringify(s.mode)}`);
  for (const key of ["visible", "writable"] as const) {
    for (const p of s[key] ?? []) if (typeof p !== "string" || p === "" || p.includes("\0")) fail(`sandbox.${key} has an invalid path ${JSON.stringify(p)}`);
  }
  if (s.network !== undefined && typeof s.network !== "boolean") fail("sandbox.network must be a boolean");
  for (const p of s.writableRunLater ?? []) if (!RUN_LATER.includes(p)) fail(`sandbox.writableRunLater names ${JSON.stringify(p)}, which is none of ${RUN_LATER.join(", ")}`);
  const limits = {} as SandboxLimits;
  for (const key of Object.keys(LIMIT_RANGES) as (keyof SandboxLimits)[]) {
    const [min, max] = LIMIT_RANGES[key];
    const v = s[key] ?? SANDBOX_DEFAULTS[key];
    if (!Number.isInteger(v) || v < min || v > max) fail(`sandbox.${key} must be an integer from ${min} to ${max}, not ${v}`);
    limits[key] = v;
  }
  return limits;
}

/** Drops roots that lie inside another root of the list; sorted, so parents come first. */
export function outermost(roots: string[]): string[] {
  const sorted = [...new Set(roots)].sort();
  return sorted.filter((r) => !sorted.some((o) => o !== r && within(o, r)));
}

const isDir = (p: string) => existsSync(p) && statSync(p).isDirectory();

export interface PlanInput {
  sandbox: SandboxConfig;
  limits: SandboxLimits;
  cwd: string;
  /** The path policy's allow roots (real), or none when no argument is a path. */
  allow: string[];
  /** The path policy's denied paths (real). */
  deny: string[];
  /** Resolves a configured path against the tool's cwd, symlinks followed; throws on failure. */
  real: (p: string) => string;
  fail: (why: string) => never;
}

/** Resolves the sandbox at startup: every root must exist; writable roots are also visible. */
export function planSandbox(i: PlanInput): SandboxPlan {
  const root = (kind: string, p: string): string => {
    const r = i.real(p);
    if (!isDir(r)) i.fail(`sandbox ${kind} root ${p} (${r}) is not an existing directory`);
    if (r === "/") i.fail(`sandbox ${kind} root ${p} is the whole filesystem; name the directories the command needs`);
    return r;
  };
  const writable = outermost((i.sandbox.writable ?? []).map((p) => root("writable", p)));
  const visible = outermost([i.cwd, ...i.allow, ...(i.sandbox.visible ?? []).map((p) => root("visible", p)), ...writable]);
  const seen = [...visible, ...SYSTEM_DIRS];
  const masked = [...new Set(i.deny)].filter((d) => seen.some((v) => within(v, d))).sort();
  const open = new Set(i.sandbox.writableRunLater ?? []);
  const tops = [...writable, ...(writable.some((w) => within(w, i.cwd)) ? [i.cwd] : [])];
  const runLater = [...new Set(tops.flatMap((t) => RUN_LATER.filter((n) => !open.has(n)).map((n) => join(t, n))))].sort();
  return { visible, writable, masked, runLater, network: i.sandbox.network === true, limits: i.limits, cwd: i.cwd };
}

function lstatQuiet(p: string): Stats | undefined {
  try {
    return lstatSync(p);
  } catch {
    return undefined;
  }
}

/**
 * What a call masks, with what is there now: every denied path that exists, and every other name
 * (hard link) of a denied file under the visible roots, rescanned when a denied file's links changed.
 */
export function currentMasks(plan: SandboxPlan): Array<[string, Stats]> {
  const stats = new Map(plan.masked.map((m) => [m, lstatQuiet(m)] as const));
  const out: Array<[string, Stats]> = [];
  for (const [m, st] of stats) if (st) out.push([m, st]);
  for (const a of currentLinks(plan.visible, plan.masked, stats).aliases) {
    const st = lstatQuiet(a);
    if (st?.isFile()) out.push([a, st]);
  }
  return out;
}

/** Finds a program the way execvp does: a name with a slash as given (against cwd), else each PATH entry. */
export function whichProgram(command: string, cwd: string, pathVar: string | undefined): string | undefined {
  if (command.includes("/")) {
    const p = isAbsolute(command) ? command : join(cwd, command);
    return existsSync(p) ? p : undefined;
  }
  for (const dir of (pathVar ?? "").split(delimiter)) {
    if (dir === "") continue;
    const p = join(dir, command);
    try {
      if (statSync(p).isFile()) return p;
    } catch {
      // not in this directory
    }
  }
  return undefined;
}

/** The system part of the mount table: merged-/usr symlinks as symlinks, directories read-only. */
export function systemMounts(network: boolean): string[] {
  const args: string[] = [];
  for (const dir of SYSTEM_DIRS) {
    let st;
    try {
      st = lstatSync(dir);
    } catch {
      continue;
    }
    if (st.isSymbolicLink()) {
      if (statSafe(dir)) args.push("--symlink", readlinkSync(dir), dir);
    } else if (st.isDirectory()) args.push("--ro-bind", dir, dir);
  }
  for (const f of network ? [...ETC_FILES, ...ETC_NETWORK_FILES].sort() : ETC_FILES) {
    if (statSafe(f)) args.push("--ro-bind", f, f);
  }
  return args;
}

function statSafe(p: string): boolean {
  try {
    statSync(p);
    return true;
  } catch {
    return false;
  }
}

/**
 * Directories between a writable root and a path inside it (the root itself excluded), parents
 * first. Each is bound onto itself, writable as before: a mount point cannot be renamed or
 * removed (EBUSY), so a mask or a read-only run-later path stays where it was checked.
 */
export function ancestorsIn(writable: string[], p: string): string[] {
  const w = writable.find((r) => r !== p && within(r, p));
  if (!w) return [];
  const out: string[] = [];
  for (let d = dirname(p); d !== w && within(w, d); d = dirname(d)) out.unshift(d);
  return out;
}

/** What a call must hold read-only or immovable, with what is there now. */
export interface CallMounts {
  masks: Array<[string, Stats]>;
  /** Run-later paths that exist now as a directory or a file: bound read-only. */
  readOnly: string[];
  /** Ancestors of masks and run-later paths inside writable roots: bound onto themselves. */
  pinned: string[];
}

export function callMounts(plan: SandboxPlan): CallMounts {
  const masks = currentMasks(plan);
  const readOnly = plan.runLater.filter((p) => {
    const st = lstatQuiet(p);
    return st !== undefined && (st.isDirectory() || st.isFile());
  });
  const pinned = new Set<string>();
  for (const p of [...masks.map(([m]) => m), ...plan.runLater]) {
    for (const a of ancestorsIn(plan.writable, p)) {
      const st = lstatQuiet(a);
      if (st?.isDirectory()) pinned.add(a);
      // A folder of a run-later path that is a file (a linked worktree's `.git`, "gitdir: ...") says where it lives.
      else if (st?.isFile() && plan.runLater.includes(p) && !readOnly.includes(a)) readOnly.push(a);
    }
  }
  return { masks, readOnly: readOnly.sort(), pinned: [...pinned].sort() };
}

/** bwrap's options that take privilege away: when the server is root, an unprivileged uid and gid inside; always no capabilities. */
export const SANDBOX_UID = 1000;
export function privilegeArgs(root: boolean): string[] {
  return [...(root ? ["--uid", String(SANDBOX_UID), "--gid", String(SANDBOX_UID)] : []), "--cap-drop", "ALL"];
}

/**
 * bwrap's arguments for one call. Masks are decided per call, so a denied path created after
 * startup is hidden as well: a directory gets an empty read-only tmpfs, anything else an empty
 * read-only file (`empty`), so a reader sees no content rather than an error. A denied path that
 * does not exist has nothing to read; the argument check still refuses it.
 * Mounts apply in order, so later ones cover earlier ones: system, /tmp, roots, writable, the
 * pinned ancestors, run-later paths read-only, masks. `seccompFd` is the descriptor holding the
 * system-call filter (seccomp.ts); bwrap applies it last, after the mounts.
 */
export function bwrapArgs(plan: SandboxPlan, system: string[], empty: string, wrapped: string[], opts: { root: boolean; seccompFd: number; mounts?: CallMounts }): string[] {
  const a = ["--unshare-all", "--unshare-user", "--disable-userns", "--die-with-parent", ...privilegeArgs(opts.root)];
  if (plan.network) a.push("--share-net");
  a.push(...system, "--dev", "/dev", "--proc", "/proc", "--size", String(plan.limits.tmpBytes), "--tmpfs", "/tmp");
  for (const v of plan.visible) a.push("--ro-bind", v, v);
  for (const w of plan.writable) a.push("--bind", w, w);
  const m = opts.mounts ?? callMounts(plan);
  for (const p of m.pinned) a.push("--bind", p, p);
  for (const p of m.readOnly) a.push("--ro-bind", p, p);
  for (const [p, st] of m.masks) {
    if (st.isDirectory()) a.push("--tmpfs", p, "--remount-ro", p);
    else a.push("--ro-bind", empty, p);
  }
  a.push("--seccomp", String(opts.seccompFd), "--chdir", plan.cwd, "--", ...wrapped);
  return a;
}

/** prlimit (util-linux) in front of the command: the limits hold for it and every descendant. */
/** Without a memory cgroup (`addressSpace`), memory is bounded per process by RLIMIT_AS. */
export function limitArgs(limits: SandboxLimits, prlimit: string, addressSpace: boolean): string[] {
  const { processes, fileSizeBytes, cpuSeconds, memoryBytes } = limits;
  return [prlimit, `--nproc=${processes}`, `--fsize=${fileSizeBytes}`, `--cpu=${cpuSeconds}`, ...(addressSpace ? [`--as=${memoryBytes}`] : []), "--"];
}
