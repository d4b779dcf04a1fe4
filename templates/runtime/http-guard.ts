// Who may send requests to the Streamable HTTP endpoint. Host must name this server (DNS rebinding);
// a browser's Origin must be one the operator listed, compared whole (scheme, host and port), and the
// list is empty by default: this server serves no web pages, so no page has a reason to call it. The one
// origin accepted without listing is the server's own (http://<the Host it was reached by>): no page can
// live there, since this server serves none, and the conformance suite's DNS-rebinding check sends it. A body
// must be declared application/json, which a page cannot send cross-origin without a CORS preflight.
import { StartupError } from "./types.js";

const LOOPBACK = ["localhost", "127.0.0.1", "[::1]"];

export function bracket(host: string): string {
  return host.includes(":") && !host.startsWith("[") ? `[${host}]` : host.toLowerCase();
}

/** Host names a client may legitimately send for this server; everything else is DNS rebinding. */
export function hostAllowList(bindHost: string, extra: readonly string[]): Set<string> {
  const names = new Set([...LOOPBACK, ...extra.map(bracket)]);
  if (bindHost !== "0.0.0.0" && bindHost !== "::") names.add(bracket(bindHost));
  return names;
}

export function hostnameOf(hostHeader: string): string {
  const host = hostHeader.trim().toLowerCase();
  if (host.startsWith("[")) return host.slice(0, host.indexOf("]") + 1);
  const colon = host.indexOf(":");
  return colon === -1 ? host : host.slice(0, colon);
}

/** The serialized origin (scheme://host[:port], default port dropped) of an http(s) URL, or null. */
function serializedOrigin(text: string): string | null {
  try {
    const url = new URL(text);
    return url.protocol === "http:" || url.protocol === "https:" ? url.origin : null;
  } catch {
    return null; // includes the opaque "null" origin
  }
}

/** Normalizes --allowed-origins entries; anything that is not a bare http(s) origin is a startup error. */
export function parseOrigins(entries: readonly string[]): string[] {
  return entries.map((entry) => {
    let bare = false;
    try {
      const url = new URL(entry);
      bare = /^[a-z]+:\/\//i.test(entry) && url.pathname === "/" && !url.search && !url.hash && !url.username && !url.password;
    } catch {}
    const origin = serializedOrigin(entry);
    if (origin === null || !bare) {
      throw new StartupError(`--allowed-origins: "${entry}" is not an origin (expected scheme://host[:port], e.g. http://localhost:5173)`);
    }
    return origin;
  });
}

/** True when the request may proceed: no Origin (not a browser), the server's own, or exactly a listed one. */
export function originAllowed(origin: string | undefined, hostHeader: string, allowed: ReadonlySet<string>): boolean {
  if (origin === undefined) return true;
  const normalized = serializedOrigin(origin);
  if (normalized === null) return false;
  return allowed.has(normalized) || normalized === serializedOrigin(`http://${hostHeader.trim()}`);
}

/** application/json, any letter case, with or without parameters (charset=utf-8). */
export function isJsonContentType(header: string | undefined): boolean {
  if (header === undefined) return false;
  if (header === "application/json") return true;
  const essence = header.split(";")[0].trim().toLowerCase();
  return essence === "application/json";
}
