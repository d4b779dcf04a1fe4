// Process lifetime: shutdown hooks (tool kinds kill child process groups here), in-flight call aborts,
// signal handling, and crash guards so no single call can take the server down.
import { describeError, log } from "./log.js";

type Hook = () => void | Promise<void>;

const hooks = new Set<Hook>();
/** Calls in flight, newest first: a list through the handles themselves (no hash table churning per request). */
let newest: CallHandle | undefined;
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
  /** Who asked (HTTP: the principal) and the request's id, so a notifications/cancelled can find it. */
  readonly principal: string | undefined;
  readonly requestId: string | number | undefined;
  private controller: AbortController | undefined = undefined;
  /** @internal links of the in-flight list */
  older: CallHandle | undefined = undefined;
  /** @internal */
  newer: CallHandle | undefined = undefined;
  /** @internal */
  tracked = false;

  constructor(principal?: string, requestId?: string | number) {
    this.principal = principal;
    this.requestId = requestId;
  }

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
export function trackCall(principal?: string, requestId?: string | number): CallHandle {
  const call = new CallHandle(principal, requestId);
  if (exiting) call.abort();
  call.tracked = true;
  call.older = newest;
  if (newest) newest.newer = call;
  newest = call;
  return call;
}

export function releaseCall(call: CallHandle): void {
  if (!call.tracked) return;
  call.tracked = false;
  if (call.newer) call.newer.older = call.older;
  else newest = call.older;
  if (call.older) call.older.newer = call.newer;
  call.older = call.newer = undefined;
}

/** The calls in flight now (a copy: aborting or releasing while walking it is safe). */
export function callsInFlight(): CallHandle[] {
  const calls: CallHandle[] = [];
  for (let c = newest; c; c = c.older) calls.push(c);
  return calls;
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
  for (const call of callsInFlight()) call.abort();
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
