// A prompt that asks the user for an argument the caller left out (plan_trip in
// test/fixtures/prompts/prompts.yaml): under 2026-07-28 a multi round-trip prompts/get with a sealed
// requestState over HTTP; under 2025-11-25 an elicitation/create request over stdio. A decline, a
// replayed or foreign state, or a client that cannot be asked renders nothing. Over Streamable HTTP a
// 2025-11-25 client that declared elicitation at initialize is asked on its prompts/get event stream.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { request } from "node:http";
import { rawPost } from "../helpers/raw-http.js";
import { startHttpServer, type HttpServer } from "../helpers/client.js";
import { rpc, type RpcOptions } from "../helpers/rpc.js";
import { spawnRaw, type RawServer } from "../runtime/raw.js";
import { generatePrompts } from "./generate.js";

let bundle: string;
let http: HttpServer;
const caps: RpcOptions = { caps: { elicitation: {} } };
type Round = { resultType: string; inputRequests: Record<string, { method: string; params: Record<string, unknown> }>; requestState: string };

beforeAll(async () => {
  bundle = generatePrompts();
  http = await startHttpServer(bundle, ["--host", "127.0.0.1"]);
}, 120_000);
afterAll(async () => {
  await http?.stop();
});

const get = (params: Record<string, unknown>, opts = caps) => rpc(http.url, "prompts/get", { name: "plan_trip", ...params }, opts);
const city = (name: string) => ({ where: { action: "accept", content: { city: name } } });

describe("2026-07-28: a prompt's question as a multi round-trip request", () => {
  it("answers input_required with the form, then renders with the answer", async () => {
    const first = (await get({ arguments: { days: "3" } })).result as unknown as Round;
    expect(first).toMatchObject({
      resultType: "input_required",
      inputRequests: {
        where: {
          method: "elicitation/create",
          params: { message: "Which city should the trip go to?", requestedSchema: { type: "object", properties: { city: { type: "string", description: "The city to visit." } }, required: ["city"] } },
        },
      },
    });
    expect(typeof first.requestState).toBe("string");
    const done = await get({ arguments: { days: "3" }, inputResponses: city("Izmir"), requestState: first.requestState });
    expect(done.result).toMatchObject({ resultType: "complete", messages: [{ role: "user", content: { type: "text", text: "Plan 3 days in Izmir." } }] });
  });

  it("renders at once when the caller gives the argument, with no elicitation capability needed", async () => {
    const done = await get({ arguments: { city: "Bursa" } }, { caps: {} });
    expect(done.result).toMatchObject({ resultType: "complete", messages: [{ content: { text: "Plan  days in Bursa." } }] });
  });

  it("refuses a decline, a replayed state and a state for other arguments with -32602", async () => {
    const first = (await get({ arguments: {} })).result as unknown as Round;
    const declined = await get({ arguments: {}, inputResponses: { where: { action: "decline" } }, requestState: first.requestState });
    expect(declined.error).toMatchObject({ code: -32602, message: expect.stringContaining("prompt plan_trip was not rendered: it needs city from the user, and the user declined to give it") });
    const replay = await get({ arguments: {}, inputResponses: city("Van"), requestState: first.requestState });
    expect(replay.error).toMatchObject({ code: -32602, message: expect.stringContaining("already used") });
    const second = (await get({ arguments: {} })).result as unknown as Round;
    const other = await get({ arguments: { days: "9" }, inputResponses: city("Van"), requestState: second.requestState });
    expect(other.error).toMatchObject({ code: -32602, message: expect.stringContaining("belongs to a call with other arguments") });
  });

  it("refuses an answer that is not a string", async () => {
    const first = (await get({ arguments: {} })).result as unknown as Round;
    const bad = await get({ arguments: {}, inputResponses: { where: { action: "accept", content: { city: 42 } } }, requestState: first.requestState });
    expect(bad.error).toMatchObject({ code: -32602, message: expect.stringContaining('the answer for argument "city" of prompt "plan_trip" must be a string') });
  });

  it("lists the prompts in one page with cache hints, and refuses a cursor it never issued", async () => {
    const list = await rpc(http.url, "prompts/list", {}, { caps: {} });
    expect(list.result).toMatchObject({ resultType: "complete", ttlMs: expect.any(Number), cacheScope: "public" });
    expect(list.result?.nextCursor).toBeUndefined();
    const paged = await rpc(http.url, "prompts/list", { cursor: "page-2" }, { caps: {} });
    expect(paged.error).toMatchObject({ code: -32602, message: "Invalid cursor" });
  });

  it("answers -32021 naming elicitation when the client cannot be asked", async () => {
    const answer = await get({ arguments: {} }, { caps: {} });
    expect(answer.status).toBe(400);
    expect(answer.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { elicitation: {} } } });
  });
});

async function initialized(capabilities: Record<string, unknown>): Promise<RawServer> {
  const s = spawnRaw(bundle);
  s.send(JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities, clientInfo: { name: "t", version: "0" } } }));
  expect(await s.next()).toMatchObject({ id: 0, result: { capabilities: { tools: {}, prompts: {} } } });
  s.send(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }));
  return s;
}

const getLegacy = (id: number, args: Record<string, string>) => JSON.stringify({ jsonrpc: "2.0", id, method: "prompts/get", params: { name: "plan_trip", arguments: args } });

describe("2025-11-25 over stdio: a prompt's question as an elicitation request", () => {
  it("asks through elicitation/create and renders with the answer", async () => {
    const s = await initialized({ elicitation: {} });
    s.send(getLegacy(1, { days: "2" }));
    const ask = await s.next();
    expect(ask).toMatchObject({ method: "elicitation/create", params: { message: "Which city should the trip go to?", requestedSchema: { properties: { city: { type: "string" } }, required: ["city"] } } });
    s.send(JSON.stringify({ jsonrpc: "2.0", id: ask.id, result: { action: "accept", content: { city: "Mardin" } } }));
    expect(await s.next()).toMatchObject({ id: 1, result: { messages: [{ role: "user", content: { type: "text", text: "Plan 2 days in Mardin." } }] } });
    s.proc.stdin!.end();
    await s.exited;
  });

  it("answers -32602 when the user declines", async () => {
    const s = await initialized({ elicitation: {} });
    s.send(getLegacy(1, {}));
    const ask = await s.next();
    s.send(JSON.stringify({ jsonrpc: "2.0", id: ask.id, result: { action: "cancel" } }));
    expect(await s.next()).toMatchObject({ id: 1, error: { code: -32602, message: expect.stringContaining("the user dismissed the question") } });
    s.proc.stdin!.end();
    await s.exited;
  });

  it("answers -32602 saying to give the argument when the client declared no elicitation", async () => {
    const s = await initialized({});
    s.send(getLegacy(1, {}));
    expect(await s.next()).toMatchObject({ id: 1, error: { code: -32602, message: expect.stringContaining('prompt "plan_trip" needs city') } });
    s.send(getLegacy(2, { city: "Kars" }));
    expect(await s.next()).toMatchObject({ id: 2, result: { messages: [{ content: { text: "Plan  days in Kars." } }] } });
    s.proc.stdin!.end();
    await s.exited;
  });
});

/** One raw POST whose answer is read as it streams: each SSE message is handed to `onMessage` as it arrives. */
function streamingPost(url: string, body: unknown, headers: Record<string, string>, onMessage: (msg: Record<string, any>) => void): Promise<{ status: number; type: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers } }, (res) => {
      let buffer = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf("\n\n")) !== -1) {
          const event = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = event.split("\n").find((l) => l.startsWith("data: "));
          if (data) onMessage(JSON.parse(data.slice(6)));
        }
      });
      res.on("end", () => {
        if (buffer.trim().startsWith("{")) onMessage(JSON.parse(buffer));
        resolve({ status: res.statusCode ?? 0, type: res.headers["content-type"] });
      });
    });
    req.on("error", reject);
    req.end(JSON.stringify(body));
  });
}

describe("2025-11-25 over Streamable HTTP, raw: a prompt's question", () => {
  const legacy = { "mcp-protocol-version": "2025-11-25" };

  it("declares prompts (and only what it serves) in both eras", async () => {
    const init = await rawPost(http.url, { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } } });
    const discover = await rpc(http.url, "server/discover", {}, { caps: {} });
    expect(init.json.result.capabilities).toEqual({ tools: {}, prompts: {} });
    expect(discover.result?.capabilities).toEqual(init.json.result.capabilities);
  });

  it("is asked on the prompts/get stream of a client that declared elicitation, and renders with the answer", async () => {
    const init = await rawPost(http.url, { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: { elicitation: {} }, clientInfo: { name: "raw", version: "1" } } });
    expect(init.status).toBe(200);
    const seen: Record<string, any>[] = [];
    const answered: Promise<unknown>[] = [];
    const done = await streamingPost(http.url, { jsonrpc: "2.0", id: 2, method: "prompts/get", params: { name: "plan_trip", arguments: { days: "4" } } }, legacy, (msg) => {
      seen.push(msg);
      if (msg.method === "elicitation/create") answered.push(rawPost(http.url, { jsonrpc: "2.0", id: msg.id, result: { action: "accept", content: { city: "Sinop" } } }, legacy));
    });
    expect(done).toEqual({ status: 200, type: "text/event-stream" });
    expect(seen[0]).toMatchObject({ method: "elicitation/create", params: { message: "Which city should the trip go to?" } });
    expect(seen.at(-1)).toMatchObject({ id: 2, result: { messages: [{ role: "user", content: { type: "text", text: "Plan 4 days in Sinop." } }] } });
    expect(((await answered[0]) as { status: number }).status).toBe(202);
  });
});
