// Concurrent clients through the load balancer: each sends tools/call requests one after another on its
// own kept-alive connection, alternating protocol eras, every request with a unique id and payload, and
// records exactly what came back for each.
import { Agent, request } from "node:http";

export interface CallResult {
  id: string;
  era: string;
  status: number;
  ok: boolean;
  detail?: string;
}

const MODERN_META = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };

function body(id: string, era: string): { text: string; headers: Record<string, string> } {
  const args = { output: JSON.stringify({ call: id }), schema: { type: "object", properties: { call: { type: "string", const: id } }, required: ["call"] } };
  const modern = era === "2026-07-28";
  const params = modern ? { name: "validate_json", arguments: args, _meta: MODERN_META } : { name: "validate_json", arguments: args };
  const headers: Record<string, string> = { "content-type": "application/json", accept: "application/json, text/event-stream", "x-call-id": id, "mcp-protocol-version": era };
  if (modern) Object.assign(headers, { "mcp-method": "tools/call", "mcp-name": "validate_json" });
  return { text: JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params }), headers };
}

function once(agent: Agent, port: number, id: string, era: string): Promise<CallResult> {
  const { text, headers } = body(id, era);
  return new Promise((resolve) => {
    const req = request({ host: "127.0.0.1", port, path: "/mcp", method: "POST", headers, agent }, (res) => {
      let data = "";
      res.setEncoding("utf8");
      res.on("data", (c) => (data += c));
      res.on("end", () => {
        const status = res.statusCode ?? 0;
        let json: { id?: unknown; result?: { structuredContent?: { valid?: boolean }; isError?: boolean } } | undefined;
        try {
          json = JSON.parse(data);
        } catch {
          // not JSON: a load-balancer error page
        }
        const ok = status === 200 && json?.id === id && json.result?.structuredContent?.valid === true && !json.result.isError;
        resolve({ id, era, status, ok, ...(ok ? {} : { detail: data.slice(0, 200) }) });
      });
      res.on("error", (e) => resolve({ id, era, status: res.statusCode ?? 0, ok: false, detail: e.message }));
    });
    req.on("error", (e) => resolve({ id, era, status: 0, ok: false, detail: e.message }));
    req.end(text);
  });
}

export interface LoadRun {
  results: CallResult[];
  /** Resolves when every client has finished. */
  done: Promise<void>;
  /** How many calls have completed so far. */
  completed(): number;
}

export function runLoad(port: number, clients: number, total: number, tag: string): LoadRun {
  const results: CallResult[] = [];
  let next = 0;
  const workers = Array.from({ length: clients }, async (_, c) => {
    // One connection per call: a load balancer's graceful reload closes idle client connections, and a
    // POST sent on one at that instant would be lost in a way no server could prevent.
    const agent = new Agent({ keepAlive: false, maxSockets: 1 });
    for (;;) {
      const n = next++;
      if (n >= total) break;
      const era = (n + c) % 2 === 0 ? "2026-07-28" : "2025-11-25";
      results.push(await once(agent, port, `${tag}-${c}-${n}`, era));
    }
    agent.destroy();
  });
  return { results, done: Promise.all(workers).then(() => undefined), completed: () => results.length };
}
