// Diagnostics go to stderr only: stdout belongs to the protocol on stdio.
// Logging never takes the server down: once stderr cannot be written (its reader went away, EPIPE),
// messages are dropped. Without the error listener an EPIPE would reach the crash guard, which logs,
// which fails again: a loop that spins at full CPU and starves every request.

let prefix = "kervan";
let broken = false;
let listening = false;

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
  const stderr = process.stderr;
  if (!listening) {
    listening = true;
    stderr.on("error", markBroken);
  }
  if (stderr.destroyed || !stderr.writable) return markBroken();
  try {
    stderr.write(line);
  } catch {
    markBroken();
  }
}

export function describeError(err: unknown): string {
  if (err instanceof Error) return err.stack ?? `${err.name}: ${err.message}`;
  return String(err);
}
