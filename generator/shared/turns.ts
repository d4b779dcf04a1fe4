// A long loop on the main thread that must let I/O in now and then: esbuild's requests for emitted
// files (bundle.ts) are answered on this thread, and promises alone never let them in.

/** How long a loop runs before it lets other work on this thread go on (ms). */
const TURN_MS = 8;

/** Returns a function to await at each step of a loop: it yields to the event loop once per TURN_MS. */
export function turns(): () => Promise<void> | undefined {
  let turn = performance.now();
  return () => {
    if (performance.now() - turn <= TURN_MS) return undefined;
    return new Promise<void>((resolve) =>
      setImmediate(() => {
        turn = performance.now();
        resolve();
      }),
    );
  };
}
