// The stdio frame check shared by the frame properties: send one frame and two sentinels, then every
// stdout line must be well-formed JSON-RPC, a request with an id answered exactly once, at most one
// id-less error for an unreadable frame, and no internal error or tool fault.
import { expectedId, MODERN_META } from "./frames.js";
import { FuzzFailure, internalToolText, wellFormedResponse, withinOrHang } from "./property.js";
import type { StdioServer } from "./servers.js";

export const HANG_MS = 15_000;
let sentinels = 0;

function sentinel(): { id: string; line: string } {
  const id = `~sentinel-${++sentinels}`;
  return { id, line: JSON.stringify({ jsonrpc: "2.0", id, method: "tools/list", params: { _meta: MODERN_META } }) };
}

async function roundTrip(server: StdioServer): Promise<void> {
  const s = sentinel();
  server.send(s.line);
  await withinOrHang(server.waitFor(s.id), HANG_MS, "sentinel after the frame");
}

export async function checkStdioFrame(server: StdioServer, frame: string): Promise<void> {
  server.take();
  const want = expectedId(frame);
  server.send(frame);
  if (want !== undefined) await withinOrHang(server.waitFor(want), HANG_MS, `answer to id ${JSON.stringify(want)}`);
  await roundTrip(server);
  await roundTrip(server); // a duplicate answer would have arrived by now
  let own = 0;
  let idless = 0;
  for (const msg of server.take()) {
    if ("__notJson" in msg) throw new FuzzFailure("malformed", `stdout carried a line that is not JSON: ${msg.__notJson}`);
    if (typeof msg.method === "string" && !("id" in msg)) continue; // a progress notification
    const id = wellFormedResponse(msg, "stdout");
    if (typeof id === "string" && id.startsWith("~sentinel-")) continue;
    const tool = internalToolText(msg);
    if (tool) throw new FuzzFailure("internal", `a tool fault instead of an answer: ${tool.slice(0, 300)}`);
    if (id === undefined) idless++;
    else if (id === want) own++;
    else throw new FuzzFailure("malformed", `an answer with an id nobody sent: ${JSON.stringify(id)}`);
  }
  if (want !== undefined && own !== 1) throw new FuzzFailure("malformed", `${own} answers for id ${JSON.stringify(want)}`);
  if (idless > 1 || (want !== undefined && idless > 0)) throw new FuzzFailure("malformed", `${idless} answers with no id`);
}
