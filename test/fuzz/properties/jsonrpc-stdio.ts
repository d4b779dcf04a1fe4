// JSON-RPC frames over stdio against a real generated server (out/validator): every request with an
// id gets exactly one well-formed answer, nothing else on stdout is malformed, no internal errors,
// and the server keeps answering (a sentinel request after each frame).
import { frameArb, expectedId, MODERN_META } from "../frames.js";
import { FuzzFailure, internalToolText, wellFormedResponse, withinOrHang, type FuzzProperty } from "../property.js";
import { startStdio, type StdioServer } from "../servers.js";

const HANG_MS = 15_000;
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

export const property: FuzzProperty<string, StdioServer> = {
  name: "JSON-RPC frames over stdio (out/validator)",
  seed: 8_2026_07,
  numRuns: 300,
  testMs: 6000,
  arbitrary: frameArb,
  setup: async () => startStdio(),
  async check(server, frame) {
    server.take();
    const want = expectedId(frame);
    server.send(frame);
    if (want !== undefined) await withinOrHang(server.waitFor(want), HANG_MS, `answer to id ${JSON.stringify(want)}`);
    await roundTrip(server);
    await roundTrip(server); // a duplicate answer would have arrived by now
    let own = 0;
    let nulls = 0;
    for (const msg of server.take()) {
      if ("__notJson" in msg) throw new FuzzFailure("malformed", `stdout carried a line that is not JSON: ${msg.__notJson}`);
      if (typeof msg.method === "string" && !("id" in msg)) continue; // a progress notification
      const id = wellFormedResponse(msg, "stdout");
      if (typeof id === "string" && id.startsWith("~sentinel-")) continue;
      const tool = internalToolText(msg);
      if (tool) throw new FuzzFailure("internal", `a tool fault instead of an answer: ${tool.slice(0, 300)}`);
      if (id === null) nulls++;
      else if (id === want) own++;
      else throw new FuzzFailure("malformed", `an answer with an id nobody sent: ${JSON.stringify(id)}`);
    }
    if (want !== undefined && own !== 1) throw new FuzzFailure("malformed", `${own} answers for id ${JSON.stringify(want)}`);
    if (nulls > 1 || (want !== undefined && nulls > 0)) throw new FuzzFailure("malformed", `${nulls} answers with id null`);
  },
  teardown: (server) => server.stop(),
  pids: (server) => (server.proc.pid ? [server.proc.pid] : []),
};
