// servers[0] -> a fixed baseUrl: variables take their defaults; a relative or missing URL gets a
// placeholder origin that never resolves, so the operator must set <SERVER>_BASE_URL.
import type { Doc } from "./read.js";

export const NO_ORIGIN = "https://api.example.invalid";

// Every operation of a document usually shares one `servers` list: each list is read once.
const known = new WeakMap<object, { baseUrl: string; note?: string }>();

export function baseUrlOf(servers: unknown): { baseUrl: string; note?: string } {
  if (!servers || typeof servers !== "object") return readBaseUrl(servers);
  let found = known.get(servers);
  if (!found) known.set(servers, (found = readBaseUrl(servers)));
  return found;
}

function readBaseUrl(servers: unknown): { baseUrl: string; note?: string } {
  const first = Array.isArray(servers) ? (servers[0] as Doc | undefined) : undefined;
  if (!first || typeof first.url !== "string") return { baseUrl: NO_ORIGIN, note: "the document names no server URL" };
  const vars: Doc = first.variables ?? {};
  let url = first.url.replace(/\{([^}]+)\}/g, (_m: string, name: string) => {
    const v = vars[name];
    const value = v?.default ?? (Array.isArray(v?.enum) ? v.enum[0] : undefined);
    return value === undefined ? "" : String(value);
  });
  url = url.trim();
  let note: string | undefined;
  if (url.startsWith("//")) url = `https:${url}`;
  if (!/^https?:\/\//i.test(url)) {
    note = `the document's server URL ${JSON.stringify(first.url)} is not absolute`;
    url = `${NO_ORIGIN}${url.startsWith("/") ? url : `/${url}`}`;
  }
  try {
    const u = new URL(url);
    u.search = "";
    u.hash = "";
    u.username = "";
    u.password = "";
    const path = u.pathname.replace(/\/+$/, "").split("/").map((s) => encodeSegment(decodeSafe(s))).join("/");
    return { baseUrl: `${u.protocol}//${u.host}${path}`, ...(note ? { note } : {}) };
  } catch {
    return { baseUrl: NO_ORIGIN, note: `the document's server URL ${JSON.stringify(first.url)} is not a URL` };
  }
}

function decodeSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

export function encodeSegment(s: string): string {
  return encodeURIComponent(s).replace(/[!'()*]/g, (c) => c);
}
