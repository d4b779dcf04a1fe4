// What the transport does on the wire beyond building the request: the headers it adds, decoding
// compressed answers (the cap counting decoded bytes), and kept-alive sockets the server closed.
import { describe, expect, it } from "vitest";
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from "node:zlib";
import { compileSelect, createHttpHandler, type HttpToolConfig } from "../../../templates/kinds/http/index.js";
import { ctx, echo, lit, useUpstream, toolConfig } from "./upstream.js";

const up = useUpstream();

const handler = (over: Partial<HttpToolConfig> = {}) =>
  createHttpHandler(toolConfig({ path: [[lit("p")]], ...over }), { env: { T_BASE_URL: up.origin }, select: compileSelect("@") });

const DOC = { city: "Ankara", temperatureC: 21.1, note: "ş ğ ü — ".repeat(50) };
const encoded = (encoding: string, bytes: Buffer) => (_q: unknown, res: import("node:http").ServerResponse) =>
  res.writeHead(200, { "content-type": "application/json", "content-encoding": encoding, "content-length": String(bytes.length) }).end(bytes);

describe("request headers", () => {
  it("asks for JSON and compressed answers and names the server; the spec's headers win", async () => {
    const seen = (await handler()({}, ctx())).value as { headers: Record<string, string> };
    expect(seen.headers).toMatchObject({ accept: "application/json", "accept-encoding": "gzip, deflate, br", "user-agent": "kervan" });
    const named = (await handler()({}, { ...ctx(), server: { name: "weather", version: "2.1.0" } })).value as { headers: Record<string, string> };
    expect(named.headers["user-agent"]).toBe("weather/2.1.0 kervan");
    const own = (await handler({ headers: [{ name: "User-Agent", value: [lit("my-app/1.0")] }] })({}, ctx())).value as { headers: Record<string, string> };
    expect(own.headers["user-agent"]).toBe("my-app/1.0");
  });

  it("a POST without a body says so with content-length 0", async () => {
    await handler({ method: "POST" })({}, ctx());
    expect(up.seen[0]!.headers["content-length"]).toBe("0");
    expect(up.seen[0]!.headers["transfer-encoding"]).toBeUndefined();
  });
});

describe("compressed answers", () => {
  const raw = Buffer.from(JSON.stringify(DOC));
  it.each([
    ["gzip", gzipSync(raw)],
    ["x-gzip", gzipSync(raw)],
    ["deflate", deflateSync(raw)],
    ["deflate", deflateRawSync(raw)], // raw deflate, as some servers send it
    ["br", brotliCompressSync(raw)],
    ["deflate, gzip", gzipSync(deflateSync(raw))],
    ["identity", raw],
  ])("%s is decoded", async (encoding, bytes) => {
    up.route = encoded(encoding, bytes);
    expect(await handler()({}, ctx())).toEqual({ value: DOC });
  });

  it("a truncated gzip body yields what was decoded, which then fails as JSON", async () => {
    const gz = gzipSync(raw);
    up.route = encoded("gzip", gz.subarray(0, gz.length - 30));
    expect((await handler()({}, ctx())).text).toMatch(/^the upstream's answer is not JSON/);
  });

  it("a corrupt body and an unknown coding are readable tool errors", async () => {
    up.route = encoded("gzip", Buffer.from("this is not gzip at all"));
    expect(await handler()({}, ctx())).toEqual({ isError: true, text: "the upstream's gzip body could not be decoded" });
    up.route = encoded("zstd", raw);
    expect(await handler()({}, ctx())).toEqual({ isError: true, text: "the upstream answered with content-encoding zstd, which this tool cannot decode" });
  });

  it("the cap counts decoded bytes for br too", async () => {
    const bomb = brotliCompressSync(Buffer.alloc(1 << 20, 0x20));
    up.route = encoded("br", bomb);
    expect(await handler({ maxResponseBytes: 4096 })({}, ctx())).toEqual({ isError: true, text: "the response body is larger than the 4096-byte limit (stopped reading)" });
  });
});

describe("kept-alive sockets", () => {
  // The second request arrives on the first one's socket, which the server then drops unanswered:
  // what a client meets when a server's idle timeout races its next request.
  const dropSecond = () => {
    let n = 0;
    return (q: Parameters<typeof echo>[0], res: import("node:http").ServerResponse) => (n++ === 1 ? res.socket!.destroy() : echo(q, res));
  };

  it("reuse the connection across calls", async () => {
    const h = handler();
    await h({}, ctx());
    await h({}, ctx());
    expect(up.seen).toHaveLength(2);
    expect(up.connections).toBeLessThanOrEqual(1); // 0 when a socket from an earlier test was reused
  });

  it("an idempotent request on a socket the server dropped is sent again, once", async () => {
    up.route = dropSecond();
    const h = handler();
    expect((await h({}, ctx())).isError).toBeUndefined();
    expect((await h({}, ctx())).isError).toBeUndefined();
    expect(up.seen).toHaveLength(3);
  });

  it("a POST is never sent twice: the drop is a tool error", async () => {
    up.route = dropSecond();
    const h = handler({ method: "POST" });
    await h({}, ctx());
    expect(await h({}, ctx())).toEqual({ isError: true, text: `the connection to ${up.origin} was closed unexpectedly` });
    expect(up.seen).toHaveLength(2);
  });
});
