// Process lifetime: shutdown hooks (tool kinds kill child process groups here), in-flight call aborts,
// signal handling, and crash guards so no single call can take the server down.
import { describeError, log } from "./log.js";

type Hook = () => void | Promise<void>;

const hooks = new Set<Hook>();
const inflight = new Set<CallHandle>();
let exiting = false;
/** Set by the HTTP transport: the first SIGTERM/SIGINT drains instead of cutting calls off. */
let drainHandler: (() => Promise<void>) | undefined;
let signalled = false;
/** Upper bound for hooks, so a stuck hook cannot keep a dying server alive. */
const HOOK_TIMEOUT_MS = 3000;

/** Registers a hook run once on SIGTERM/SIGINT or stdin EOF (stdio); returns an unregister function. */
export function onShutdown(fn: Hook): () => void {
  hooks.add(fn);
  return () => hooks.delete(fn);
}

/**
 * One call's cancellation state. Its AbortSignal is made the first time something reads `signal` (a tool
 * that spawns, fetches or waits): most cheap calls never look, and an AbortController per request was a
 * measurable share of serving one. Aborting before then marks it, and the signal is born aborted.
 */
export class CallHandle {
  /** Aborted: the client went away, cancelled it, or the server is shutting down. */
  aborted = false;
  /** Cancelled by the client (notifications/cancelled): the spec says such a request gets no answer. */
  cancelled = false;
  private controller: AbortController | undefined = undefined;

  get signal(): AbortSignal {
    let controller = this.controller;
    if (controller === undefined) {
      controller = this.controller = new AbortController();
      if (this.aborted) controller.abort();
    }
    return controller.signal;
  }

  abort(): void {
    if (this.aborted) return;
    this.aborted = true;
    this.controller?.abort();
  }

  cancel(): void {
    this.cancelled = true;
    this.abort();
  }
}

/** A handle for one call: aborted on shutdown. Pass it to releaseCall when the call is done. */
export function trackCall(): CallHandle {
  const call = new CallHandle();
  if (exiting) call.abort();
  inflight.add(call);
  return call;
}

export function releaseCall(call: CallHandle): void {
  inflight.delete(call);
}

export function setDrainHandler(fn: () => Promise<void>): void {
  drainHandler = fn;
}

export function isShuttingDown(): boolean {
  return exiting;
}

async function runHooks(): Promise<void> {
  const runs = [...hooks].map(async (hook) => {
    try {
      await hook();
    } catch (err) {
      log(`shutdown hook failed: ${describeError(err)}`);
    }
  });
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, HOOK_TIMEOUT_MS);
    timer.unref();
  });
  await Promise.race([Promise.all(runs), timeout]);
  clearTimeout(timer);
}

/** Aborts in-flight calls, runs hooks, flushes stdout, exits. Idempotent. */
export async function shutdown(code = 0): Promise<void> {
  if (exiting) return;
  exiting = true;
  for (const call of inflight) call.abort();
  await runHooks();
  // An empty write's callback runs after everything queued before it has been handed to the OS.
  if (process.stdout.writable) process.stdout.write("", () => process.exit(code));
  else process.exit(code);
}

export function installProcessGuards(): void {
  const onSignal = () => {
    if (exiting) process.exit(1); // a second signal means "now"
    if (drainHandler && !signalled) {
      signalled = true;
      return void drainHandler().catch((err) => {
        log(`drain failed: ${describeError(err)}`);
        void shutdown(0);
      });
    }
    void shutdown(0);
  };
  process.on("SIGTERM", onSignal);
  process.on("SIGINT", onSignal);
  process.on("uncaughtException", (err) => log(`uncaught exception (still serving): ${describeError(err)}`));
  process.on("unhandledRejection", (err) => log(`unhandled rejection (still serving): ${describeError(err)}`));
}
