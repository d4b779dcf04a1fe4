// Slow clients over real sockets: slow-loris headers and slow bodies must not keep new requests out.
// The server closes sockets that do not finish their headers or body in time, caps open connections
// (making room by closing the oldest connection that is not being served), and logs an aborted request
// as one line without a stack. Assertions wait on events (answers, socket closes), never on durations.
import { afterEach, describe, expect, it } from "vitest";
import { connect, type Socket } from "node:net";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { bundleEntry } from "../helpers/bundle.js";
import { startHttpServer, type HttpServer } from "../helpers/client.js";
import { modernRequest, rawPost } from "../helpers/raw-http.js";

const entry = fileURLToPath(new URL("./fixtures/server.ts", import.meta.url));
const servers: HttpServer[] = [];
const sockets: Socket[] = [];

afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  await Promise.all(servers.splice(0).map((s) => s.stop()));
});

async function start(args: string[]): Promise<HttpServer> {
  const server = await startHttpServer(await bundleEntry(entry), args);
  servers.push(server);
  return server;
}

interface Slow {
  socket: Socket;
  closed: Promise<string>;
  isClosed(): boolean;
}

/** Connects and sends `text` (an unfinished request); `closed` resolves with whatever the server sent. */
async function slow(server: HttpServer, text: string): Promise<Slow> {
  const url = new URL(server.url);
  const socket = connect(Number(url.port), url.hostname);
  sockets.push(socket);
  socket.on("error", () => {});
  let received = "";
  let isClosed = false;
  socket.on("data", (c) => (received += c.toString()));
  const closed = once(socket, "close").then(() => {
    isClosed = true;
    return received;
  });
  await once(socket, "connect");
  socket.write(text);
  return { socket, closed, isClosed: () => isClosed };
}

const echo = modernRequest("tools/call", { name: "echo", arguments: { text: "served" } });
const PARTIAL_HEADERS = "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: a";

describe("slow clients", () => {
  it("serves new requests while slow-loris sockets fill the connection cap", async () => {
    const server = await start(["--max-connections", "16"]);
    const loris: Slow[] = [];
    for (let i = 0; i < 40; i++) loris.push(await slow(server, PARTIAL_HEADERS));
    // Past the cap the oldest unfinished connections were closed to make room, never the newest.
    await Promise.all(loris.slice(0, 24).map((l) => l.closed));
    for (let i = 0; i < 5; i++) {
      const res = await rawPost(server.url, echo.body, echo.headers);
      expect(res.status).toBe(200);
      expect(res.json.result.structuredContent).toEqual({ text: "served" });
    }
    // Slow sockets are still there (the header timeout is the default, far away): new requests got in anyway.
    expect(loris.filter((l) => !l.isClosed()).length).toBeGreaterThan(0);
  });

  it("closes a socket that does not finish its headers within --headers-timeout", async () => {
    const server = await start(["--headers-timeout", "0.5"]);
    const loris = await slow(server, PARTIAL_HEADERS);
    const tick = setInterval(() => loris.socket.write("a"), 100); // one byte at a time keeps no socket alive
    try {
      expect(await loris.closed).toMatch(/^HTTP\/1\.1 408 /);
    } finally {
      clearInterval(tick);
    }
    expect((await rawPost(server.url, echo.body, echo.headers)).status).toBe(200);
  });

  it("closes a socket whose body does not arrive within --request-timeout, logging one line", async () => {
    const server = await start(["--headers-timeout", "0.5", "--request-timeout", "1"]);
    const head = `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 4000000\r\n\r\n{"jsonrpc":`;
    const body = await slow(server, head);
    await body.closed;
    await expect.poll(() => server.stderr()).toMatch(/request (aborted|timed out)/);
    const lines = server.stderr().split("\n").filter((l) => /abort|timed out|timeout/i.test(l));
    expect(lines).toHaveLength(1);
    expect(server.stderr()).not.toMatch(/\n\s+at /); // no stack trace
    expect((await rawPost(server.url, echo.body, echo.headers)).status).toBe(200);
  });

  it("logs a client that disconnects mid-body as one line, not a stack", async () => {
    const server = await start([]);
    const head = `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"jsonrpc":`;
    const body = await slow(server, head);
    // Make sure the request reached the handler before hanging up: a second request on another socket answers after it.
    expect((await rawPost(server.url, echo.body, echo.headers)).status).toBe(200);
    body.socket.destroy();
    await expect.poll(() => server.stderr()).toMatch(/request aborted/);
    expect(server.stderr()).not.toMatch(/\n\s+at /);
    expect((await rawPost(server.url, echo.body, echo.headers)).status).toBe(200);
  });

  it("refuses bad values for the flags at startup", async () => {
    await expect(start(["--max-connections", "0"])).rejects.toThrow(/--max-connections/);
    await expect(start(["--headers-timeout", "soon"])).rejects.toThrow(/--headers-timeout/);
  });
});
