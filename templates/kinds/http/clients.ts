// The clients a request goes out through: straight to the upstream, or through the operator's
// proxy (absolute-form requests for http targets, CONNECT tunnels for https, so TLS stays end to
// end). Node's modules load on the first request, not at start-up: node:https brings TLS, a few ms
// of every start. Sockets are kept alive per route: a tool calling the same API again skips the TCP
// and TLS handshakes; idle sockets close after 4 s, or sooner when the server's Keep-Alive hint says so.
import type { Agent, ClientRequest, IncomingMessage } from "node:http";
import type { Socket } from "node:net";
import { isIP } from "node:net";
import { ToolFault } from "./encode.js";
import { proxyAuthorization, proxyName } from "./proxy.js";

export interface SendArgs {
  method: string;
  headers: Record<string, string>;
  signal: AbortSignal;
}
export type Send = (args: SendArgs, onResponse: (res: IncomingMessage) => void) => ClientRequest;

type Modules = { http: typeof import("node:http"); https: typeof import("node:https"); tls: typeof import("node:tls") };
let modules: Promise<Modules> | undefined;
const load = () => (modules ??= Promise.all([import("node:http"), import("node:https"), import("node:tls")]).then(([http, https, tls]) => ({ http, https, tls })));

const KEEP_ALIVE = { keepAlive: true, timeout: 4000 };
const agents = new Map<string, Agent>();
const agent = (key: string, make: () => Agent): Agent => {
  let a = agents.get(key);
  if (!a) agents.set(key, (a = make()));
  return a;
};
const bare = (hostname: string) => hostname.replace(/^\[|\]$/g, "");

/** How to send to `url`: directly, or through `via` (a proxy from proxyFor). */
export async function sender(url: URL, via: URL | undefined): Promise<Send> {
  const m = await load();
  const https = url.protocol === "https:";
  if (!via) {
    const a = agent(url.protocol, () => (https ? new m.https.Agent(KEEP_ALIVE) : new m.http.Agent(KEEP_ALIVE)));
    const request = https ? m.https.request : m.http.request;
    return (o, onResponse) => request(url, { ...o, agent: a }, onResponse);
  }
  const auth = proxyAuthorization(via);
  if (!https) {
    // The proxy gets the whole URL as the request target and forwards it.
    const a = agent(`proxy ${via.href}`, () => new m.http.Agent(KEEP_ALIVE));
    const headers = { host: url.host, ...(auth ? { "proxy-authorization": auth } : {}) };
    return (o, onResponse) =>
      m.http.request({ hostname: bare(via.hostname), port: via.port || 80, path: url.href, method: o.method, signal: o.signal, agent: a, headers: { ...o.headers, ...headers } }, onResponse);
  }
  const a = agent(`tunnel ${via.href}`, () => tunnelAgent(m, via, auth));
  return (o, onResponse) => m.https.request(url, { ...o, agent: a }, onResponse);
}

/** An https agent whose connections are TLS over a CONNECT tunnel through the proxy. */
function tunnelAgent(m: Modules, proxy: URL, auth: string | undefined): Agent {
  const a = new m.https.Agent(KEEP_ALIVE);
  // Node's agents accept an asynchronous createConnection (the callback form).
  (a as unknown as { createConnection: unknown }).createConnection = (options: { host: string; port: number; servername?: string }, done: (err: Error | null, socket?: Socket) => void) => {
    const target = `${isIP(options.host) === 6 ? `[${options.host}]` : options.host}:${options.port}`;
    const connect = m.http.request({
      hostname: bare(proxy.hostname),
      port: proxy.port || 80,
      method: "CONNECT",
      path: target,
      headers: { host: target, ...(auth ? { "proxy-authorization": auth } : {}) },
      agent: false,
    });
    connect.once("connect", (res, socket, head) => {
      if (res.statusCode !== 200) {
        socket.destroy();
        done(new ToolFault(`the proxy ${proxyName(proxy)} refused the tunnel to ${target} (HTTP ${res.statusCode}${res.statusCode === 407 ? ": it wants credentials" : ""})`));
        return;
      }
      if (head.length) socket.unshift(head);
      done(null, m.tls.connect({ ...options, socket, servername: options.servername ?? (isIP(options.host) ? undefined : options.host) }));
    });
    connect.once("error", (e) => done(unreachable(proxy, e)));
    connect.end();
    return undefined;
  };
  return a;
}

/** A failure to reach the proxy itself, named as such (the upstream was never contacted). */
export function unreachable(proxy: URL, e: unknown): ToolFault {
  const err = e as { code?: string; message?: string };
  return new ToolFault(`could not reach the proxy ${proxyName(proxy)} (${(err.code ?? err.message ?? String(e)).slice(0, 100)})`);
}
