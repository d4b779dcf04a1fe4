// Progress for long commands: when the caller asked for progress (a progressToken), a running call
// reports its elapsed time every interval. Clients that reset their request timeout on progress
// (the official SDKs can) then wait out a ten-minute test run instead of giving up at their default.
import type { CallContext } from "../../runtime/types.js";

/** Starts the heartbeat; the returned function stops it (call it when the process has exited). */
export function heartbeat(ctx: CallContext, command: string, intervalMs: number): () => void {
  const report = ctx.progress;
  if (!report || intervalMs <= 0) return () => {};
  const started = performance.now();
  let last = 0;
  // Progress is elapsed milliseconds: meaningful without a known total, and kept strictly
  // increasing (two reports in the same millisecond would otherwise tie).
  const tick = (what: string) => {
    last = Math.max(last + 1, Math.round(performance.now() - started));
    report(last, undefined, what);
  };
  report(0, undefined, `started ${command}`);
  const timer = setInterval(() => tick(`${command} running for ${((performance.now() - started) / 1000).toFixed(1)} s`), intervalMs);
  timer.unref?.();
  return () => {
    clearInterval(timer);
    tick(`${command} finished`);
  };
}
