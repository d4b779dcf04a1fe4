// The regex-matcher worker role. It runs inside the same bundled file as the server (started with
// workerData.kervanRole); untrusted patterns only ever run here, never on the server's main thread.
import type { MessagePort } from "node:worker_threads";
import { MATCHER_ARG, MATCHER_ROLE, now, stateViews, type MatchReply, type MatchRequest } from "./protocol.js";

const MAX_CACHED = 512;

function serve(port: MessagePort, sab: SharedArrayBuffer): void {
  const state = stateViews(sab);
  const cache = new Map<string, RegExp>();
  const compile = (js: string): RegExp => {
    let re = cache.get(js);
    if (!re) {
      if (cache.size >= MAX_CACHED) cache.clear();
      re = new RegExp(js, "u");
      cache.set(js, re);
    }
    return re;
  };
  port.on("message", (req: MatchRequest) => {
    let reply: MatchReply;
    const start = now();
    const deadline = start + req.budgetMs;
    state.deadline[0] = deadline; // from here on the main thread may stop us
    try {
      const results: boolean[][] = [];
      reply = { kind: "done", results, usedMs: 0 };
      outer: for (const [id, strings] of req.jobs) {
        state.pattern[0] = id;
        const re = compile(req.patterns[id]);
        const out: boolean[] = [];
        results.push(out);
        for (const s of strings) {
          out.push(re.test(s));
          if (now() > deadline) {
            reply = { kind: "ran-out", patternId: id, usedMs: now() - start };
            break outer;
          }
        }
      }
      if (reply.kind === "done") reply.usedMs = now() - start;
    } catch (e) {
      reply = { kind: "failed", message: (e as Error).message };
    }
    state.deadline[0] = 0;
    port.postMessage(reply);
  });
  port.postMessage({ kind: "ready" });
}

/**
 * Call first in a server entry: when this thread is a regex-matcher worker it starts serving and
 * returns true (the entry must then not start a server); otherwise it returns false at once.
 */
export function runWorkerRoleIfAny(): boolean {
  if (!process.argv.includes(MATCHER_ARG)) return false; // the server itself: worker_threads stays unloaded
  const { isMainThread, parentPort, workerData } = process.getBuiltinModule("node:worker_threads");
  const data = workerData as { kervanRole?: string; state?: SharedArrayBuffer } | null;
  if (isMainThread || !parentPort || data?.kervanRole !== MATCHER_ROLE || !data.state) return false;
  serve(parentPort, data.state);
  return true;
}
