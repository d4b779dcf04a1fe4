// Diagnostics go to stderr only: stdout belongs to the protocol on stdio.

let prefix = "kervan";

export function setLogName(name: string): void {
  prefix = name;
}

export function log(message: string): void {
  process.stderr.write(`${prefix}: ${message}\n`);
}

export function describeError(err: unknown): string {
  if (err instanceof Error) return err.stack ?? `${err.name}: ${err.message}`;
  return String(err);
}
