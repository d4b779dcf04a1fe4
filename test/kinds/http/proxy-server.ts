// A real forward proxy on 127.0.0.1 for tests: absolute-form requests for http targets and CONNECT
// tunnels for https, recording what it was asked. It resolves every host name to 127.0.0.1, so a
// target like upstream.test:PORT reaches a local upstream with no DNS and no network.
import { createServer, request, type Server } from "node:http";
import { connect } from "node:net";
import type { AddressInfo } from "node:net";

export interface ProxySeen {
  method: string;
  /** The request target: an absolute URL, or host:port for CONNECT. */
  target: string;
  auth?: string;
}

export interface TestProxy {
  url: string;
  port: number;
  seen: ProxySeen[];
  /** When set, requests without this Proxy-Authorization value get 407. */
  requireAuth?: string;
  close(): Promise<void>;
}

export async function startProxy(): Promise<TestProxy> {
  const proxy: TestProxy = { url: "", port: 0, seen: [], close: async () => {} };
  const allowed = (auth: string | undefined) => proxy.requireAuth === undefined || auth === proxy.requireAuth;
  const server: Server = createServer((req, res) => {
    const auth = req.headers["proxy-authorization"];
    proxy.seen.push({ method: req.method!, target: req.url!, ...(auth ? { auth } : {}) });
    if (!allowed(auth)) return void res.writeHead(407, { "proxy-authenticate": 'Basic realm="test"' }).end();
    const target = new URL(req.url!);
    const headers = { ...req.headers };
    delete headers["proxy-authorization"];
    const up = request({ hostname: "127.0.0.1", port: target.port, path: target.pathname + target.search, method: req.method, headers }, (ures) => {
      res.writeHead(ures.statusCode!, ures.headers);
      ures.pipe(res);
    });
    up.on("error", () => res.writeHead(502).end());
    req.pipe(up);
  });
  const tunnels = new Set<{ destroy(): void }>();
  server.on("connect", (req, socket, head) => {
    tunnels.add(socket);
    const auth = req.headers["proxy-authorization"];
    proxy.seen.push({ method: "CONNECT", target: req.url!, ...(auth ? { auth } : {}) });
    if (!allowed(auth)) return void socket.end("HTTP/1.1 407 Proxy Authentication Required\r\n\r\n");
    const port = Number(req.url!.slice(req.url!.lastIndexOf(":") + 1));
    const up = connect(port, "127.0.0.1", () => {
      socket.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      up.write(head);
      up.pipe(socket);
      socket.pipe(up);
    });
    up.on("error", () => socket.destroy());
    socket.on("error", () => up.destroy());
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  proxy.port = (server.address() as AddressInfo).port;
  proxy.url = `http://127.0.0.1:${proxy.port}`;
  proxy.close = () =>
    new Promise<void>((resolve) => {
      for (const t of tunnels) t.destroy(); // upgraded sockets are not the server's connections any more
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return proxy;
}
