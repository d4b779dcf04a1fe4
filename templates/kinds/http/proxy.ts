// The operator's outbound proxy, from the conventional environment variables, read once at startup.
// Which origin a request goes to never changes: the proxy only carries it (CONNECT tunnels for https,
// so the proxy sees the host and port but not the request; absolute-form requests for http).
import { isIP } from "node:net";

/** Read in this order: the lowercase spelling wins when both are set (curl's and wget's rule). */
export const PROXY_ENV = ["https_proxy", "HTTPS_PROXY", "http_proxy", "HTTP_PROXY", "no_proxy", "NO_PROXY"] as const;

export interface ProxyConfig {
  /** Proxy for http: and https: targets (an http:// proxy URL, possibly with credentials). */
  "http:"?: URL;
  "https:"?: URL;
  /** NO_PROXY entries: "*", or a host that also covers its subdomains ("example.com", ".example.com" and "*.example.com" alike), optionally with :port. */
  bypass: { host: string; port?: string }[];
}

type Env = Record<string, string | undefined>;

const first = (env: Env, a: string, b: string): [string, string] | undefined => {
  for (const name of [a, b]) {
    const v = env[name]?.trim();
    if (v) return [name, v];
  }
  return undefined;
};

type ProxySettings = { proxy?: ProxyConfig; problems: string[] };
const settings = new WeakMap<Env, ProxySettings>();

/** The proxy settings of an environment, read once for all of a server's tools. */
export function proxySettings(env: Env): ProxySettings {
  let s = settings.get(env);
  if (!s) settings.set(env, (s = readProxyEnv(env)));
  return s;
}

/** Problems never quote the value: a proxy URL may carry credentials. */
export function readProxyEnv(env: Env): ProxySettings {
  const problems: string[] = [];
  const proxy: ProxyConfig = { bypass: [] };
  const [httpsLower, httpsUpper, httpLower, httpUpper, noLower, noUpper] = PROXY_ENV;
  for (const [scheme, lower, upper] of [["https:", httpsLower, httpsUpper], ["http:", httpLower, httpUpper]] as const) {
    const found = first(env, lower, upper);
    if (!found) continue;
    // A bare host:port is common in the wild; it means an http:// proxy.
    const text = /^[a-z][a-z0-9+.-]*:\/\//i.test(found[1]) ? found[1] : `http://${found[1]}`;
    let u: URL | undefined;
    try {
      u = new URL(text);
    } catch {
      // reported below
    }
    if (!u || u.protocol !== "http:" || (u.pathname !== "/" && u.pathname !== "") || u.search || u.hash) {
      problems.push(`${found[0]} must be an http:// proxy URL (host, port, optional credentials; nothing else)`);
    } else proxy[scheme] = u;
  }
  const list = first(env, noLower, noUpper)?.[1] ?? "";
  for (const entry of list.split(/[\s,]+/)) {
    if (!entry) continue;
    const m = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(entry.toLowerCase());
    if (m) proxy.bypass.push({ host: m[1]!.replace(/^\*?\./, "").replace(/^\[|\]$/g, ""), ...(m[2] ? { port: m[2] } : {}) });
  }
  if (problems.length) return { problems };
  return proxy["http:"] || proxy["https:"] ? { proxy, problems } : { problems };
}

function isLoopback(host: string): boolean {
  if (host === "localhost" || host.endsWith(".localhost")) return true;
  if (isIP(host) === 4) return host.startsWith("127.");
  return host === "::1";
}

/** The proxy for this URL, or undefined to connect directly (no proxy set, loopback, or NO_PROXY). */
export function proxyFor(cfg: ProxyConfig | undefined, url: URL): URL | undefined {
  const proxy = cfg?.[url.protocol as "http:" | "https:"];
  if (!proxy) return undefined;
  const host = url.hostname.toLowerCase().replace(/^\[|\]$/g, "");
  // Loopback never goes through a proxy: a local upstream (a test server, a sidecar) stays local.
  if (isLoopback(host)) return undefined;
  const port = url.port || (url.protocol === "https:" ? "443" : "80");
  for (const rule of cfg!.bypass) {
    if (rule.port && rule.port !== port) continue;
    if (rule.host === "*") return undefined;
    if (host === rule.host || host.endsWith(`.${rule.host}`)) return undefined;
  }
  return proxy;
}

/** The Proxy-Authorization value for a proxy URL with credentials. */
export function proxyAuthorization(proxy: URL): string | undefined {
  if (!proxy.username && !proxy.password) return undefined;
  const pair = `${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`;
  return `Basic ${Buffer.from(pair, "utf8").toString("base64")}`;
}

/** How a proxy is named in error text: its origin, never its credentials. */
export const proxyName = (proxy: URL): string => proxy.origin;
