// Process lifetime: shutdown hooks (tool kinds kill child process groups here), in-flight call aborts,
// signal handling, and crash guards so no single call can take the server down.
import { describeError, log } from "./log.js";

type Hook = () => void | Promise<void>;

const hooks = new Set<Hook>();
const inflight = new Set<AbortController>();
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

/** A controller for one call: aborted on shutdown. Call the returned release when the call is done. */
export function trackCall(): { controller: AbortController; release: () => void } {
  const controller = new AbortController();
  if (exiting) controller.abort();
  inflight.add(controller);
  return { controller, release: () => inflight.delete(controller) };
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
  for (const controller of inflight) controller.abort();
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
