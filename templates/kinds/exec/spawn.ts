// Runs one command in its own process group with a byte cap per stream, a timeout and
// cancellation, all driven by events (exit/close/timers), never by polling.
import { spawn, type ChildProcess } from "node:child_process";

export interface RunOptions {
  command: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  timeoutMs: number;
  killGraceMs: number;
  maxOutputBytes: number;
  signal?: AbortSignal;
  /** The caller's set of live process-group ids, for its shutdown hook. */
  live: Set<number>;
  /** Descriptors beyond stdio (fd 3 on): pipes (a sandbox's control descriptors), or open descriptors passed on. */
  extraStdio?: Array<"pipe" | "ignore" | number>;
  /** Wraps the synchronous spawn, e.g. to have the child born in a cgroup. */
  aroundSpawn?: (start: () => ChildProcess) => ChildProcess;
  /** Runs once the child exists; `fail` ends the call with that reason and kills its group. */
  onSpawn?: (child: ChildProcess, fail: (why: string) => void) => void;
}

export interface RunResult {
  exitCode: number | null;
  /** The signal that ended the command, when it was killed. */
  exitSignal: string | null;
  stdout: string;
  /** stdout's bytes as kept (for a tool whose stdout is media: `stdoutMedia`). */
  stdoutBytes: Buffer;
  stderr: string;
  timedOut: boolean;
  stdoutTruncated: boolean;
  stderrTruncated: boolean;
  cancelled: boolean;
  /** Set when the command could not be started at all. */
  spawnError?: string;
}

// After the command exits, members of its group are killed at once; a process that left the
// group (setsid) may still hold our pipes, so stop waiting for them after this long.
const DRAIN_MS = 500;

// Every live group of every tool, killed if the server process exits by any path.
const ALL_GROUPS = new Set<number>();
let exitGuard = false;

export function killGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // ESRCH: the group is already gone.
  }
}

function installExitGuard(): void {
  if (exitGuard) return;
  exitGuard = true;
  // process.kill is synchronous, so it is allowed in an 'exit' listener.
  process.on("exit", () => {
    for (const pgid of ALL_GROUPS) killGroup(pgid, "SIGKILL");
  });
}

/** Keeps the first `max` bytes of a stream and counts (but drops) the rest. */
class Capture {
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  truncated = false;
  constructor(private readonly max: number) {}

  push(chunk: Buffer): void {
    const room = this.max - this.kept;
    if (chunk.length <= room) {
      this.chunks.push(chunk);
      this.kept += chunk.length;
    } else {
      if (room > 0) this.chunks.push(chunk.subarray(0, room));
      this.kept = this.max;
      this.truncated = true;
    }
  }

  bytes(): Buffer {
    return Buffer.concat(this.chunks, this.kept);
  }

  text(): string {
    let buf = this.bytes();
    if (this.truncated) buf = buf.subarray(0, utf8Cut(buf));
    return buf.toString("utf8"); // invalid sequences from the program become U+FFFD
  }
}

/** Length of `buf` without a trailing partial UTF-8 sequence (one our cut created). */
export function utf8Cut(buf: Buffer): number {
  const len = buf.length;
  let i = len - 1;
  while (i >= 0 && len - i <= 4 && (buf[i] & 0xc0) === 0x80) i--;
  if (i < 0 || len - i > 4) return len;
  const lead = buf[i];
  const need = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  return len - i < need ? i : len;
}

function describeSpawnError(command: string, err: NodeJS.ErrnoException): string {
  if (err.code === "ENOENT") return `command not found: ${command}`;
  if (err.code === "EACCES") return `permission denied: ${command}`;
  if (err.code === "E2BIG") return `cannot start ${command}: the arguments exceed the operating system's limit (E2BIG)`;
  return `cannot start ${command}: ${err.message}`;
}

export function runProcess(o: RunOptions): Promise<RunResult> {
  installExitGuard();
  return new Promise((resolve) => {
    const out = new Capture(o.maxOutputBytes);
    const err = new Capture(o.maxOutputBytes);
    let timedOut = false;
    let cancelled = false;
    let exitCode: number | null = null;
    let exitSignal: string | null = null;
    let spawnError: string | undefined;
    let done = false;
    let graceTimer: NodeJS.Timeout | undefined;
    let drainTimer: NodeJS.Timeout | undefined;
    let child: ChildProcess;

    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      clearTimeout(graceTimer);
      clearTimeout(drainTimer);
      o.signal?.removeEventListener("abort", onAbort);
      resolve({
        exitCode,
        exitSignal,
        stdout: out.text(),
        stdoutBytes: out.bytes(),
        stderr: err.text(),
        timedOut,
        stdoutTruncated: out.truncated,
        stderrTruncated: err.truncated,
        cancelled,
        spawnError,
      });
    };
    // SIGTERM first so the program can clean up, SIGKILL for whatever is left after the grace.
    const stop = () => {
      if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
      const pgid = child.pid;
      killGroup(pgid, "SIGTERM");
      graceTimer ??= setTimeout(() => killGroup(pgid, "SIGKILL"), o.killGraceMs);
    };
    const onAbort = () => {
      cancelled = true;
      stop();
    };
    const timer = setTimeout(() => {
      timedOut = true;
      stop();
    }, o.timeoutMs);

    try {
      const start = () =>
        spawn(o.command, o.args, {
          cwd: o.cwd,
          env: o.env,
          // the child never waits on our stdin
          stdio: ["ignore", "pipe", "pipe", ...(o.extraStdio ?? [])],
          detached: true, // its own process group, so a timeout reaches grandchildren too
          shell: false,
          windowsHide: true,
        });
      child = o.aroundSpawn ? o.aroundSpawn(start) : start();
    } catch (e) {
      spawnError = describeSpawnError(o.command, e as NodeJS.ErrnoException);
      finish();
      return;
    }
    const pgid = child.pid;
    if (pgid !== undefined) {
      o.live.add(pgid);
      ALL_GROUPS.add(pgid);
    }
    child.stdout!.on("data", (b: Buffer) => out.push(b));
    child.stderr!.on("data", (b: Buffer) => err.push(b));
    child.on("error", (e: NodeJS.ErrnoException) => {
      if (pgid === undefined) {
        spawnError = describeSpawnError(o.command, e);
        finish();
      }
    });
    child.on("exit", (code, signal) => {
      exitCode = code;
      exitSignal = signal;
      clearTimeout(timer);
      if (pgid === undefined) return;
      // The call owns its whole subtree: background leftovers die with the command, which also
      // closes the pipes they inherited so collection ends now rather than at their leisure.
      killGroup(pgid, "SIGKILL");
      o.live.delete(pgid);
      ALL_GROUPS.delete(pgid);
      drainTimer = setTimeout(() => {
        child.stdout!.destroy();
        child.stderr!.destroy();
        finish();
      }, DRAIN_MS);
    });
    child.on("close", finish);
    o.onSpawn?.(child, (why) => {
      spawnError ??= why;
      if (pgid !== undefined) killGroup(pgid, "SIGKILL");
    });
    if (o.signal?.aborted) onAbort();
    else o.signal?.addEventListener("abort", onAbort, { once: true });
  });
}
