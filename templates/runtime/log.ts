// Diagnostics go to stderr only: stdout belongs to the protocol on stdio.
// Logging never takes the server down: once stderr cannot be written (its reader went away, EPIPE),
// messages are dropped. Without the error listener an EPIPE would reach the crash guard, which logs,
// which fails again: a loop that spins at full CPU and starves every request.

// Lines are gathered and written once per event-loop turn: process.stderr is synchronous on pipes and
// files, so one write per request line stalled every request behind the log reader. Each line is still
// written whole and in order; what is pending is written before the process exits.

let prefix = "kervan";
let broken = false;
let listening = false;
let pending = "";
let scheduled = false;

export function setLogName(name: string): void {
  prefix = name;
}

function markBroken(): void {
  broken = true;
}

export function log(message: string): void {
  writeStderr(`${prefix}: ${message}\n`);
}

/** One already-formatted line (request logs), with the same EPIPE safety. */
export function writeStderr(line: string): void {
  if (broken) return;
  pending += line;
  if (scheduled) return;
  scheduled = true;
  if (!listening) {
    listening = true;
    process.stderr.on("error", markBroken);
    process.on("exit", flushLog);
  }
  setImmediate(flushLog);
}

/** Writes what is pending now (also run when the process exits). */
export function flushLog(): void {
  scheduled = false;
  const text = pending;
  pending = "";
  if (broken || text === "") return;
  const stderr = process.stderr;
  if (stderr.destroyed || !stderr.writable) return markBroken();
  try {
    stderr.write(text);
  } catch {
    markBroken();
  }
}

export function describeError(err: unknown): string {
  if (err instanceof Error) return err.stack ?? `${err.name}: ${err.message}`;
  return String(err);
}
