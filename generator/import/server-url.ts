// servers[0] -> a fixed baseUrl: variables take their defaults; a relative or missing URL gets a
// placeholder origin that never resolves, so the operator must set <SERVER>_BASE_URL.
import { BlockList, isIP } from "node:net";
import { isDoc, type Doc } from "./read.js";

export const NO_ORIGIN = "https://api.example.invalid";

export interface BaseUrl {
  baseUrl: string;
  note?: string;
}

/**
 * The base URL a `servers` list names. Every operation of a document usually shares one list:
 * `known` (one import's, importer.ts) holds each list's reading, so each is read once.
 */
export function baseUrlOf(servers: unknown, known?: WeakMap<object, BaseUrl>): BaseUrl {
  if (!known || !servers || typeof servers !== "object") return readBaseUrl(servers);
  let found = known.get(servers);
  if (!found) known.set(servers, (found = readBaseUrl(servers)));
  return found;
}

function readBaseUrl(servers: unknown): BaseUrl {
  const first: unknown = Array.isArray(servers) ? servers[0] : undefined;
  if (!isDoc(first) || typeof first.url !== "string") return { baseUrl: NO_ORIGIN, note: "the document names no server URL" };
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

// Addresses a server URL should not name without a reviewer noticing: the server's requests would
// reach the machine it runs on, its link, or the cloud's metadata endpoint (which hands out credentials).
const METADATA = new BlockList();
for (const a of ["169.254.169.254", "169.254.170.2", "100.100.100.200"]) METADATA.addAddress(a, "ipv4");
METADATA.addAddress("fd00:ec2::254", "ipv6");
const LOOPBACK = new BlockList();
LOOPBACK.addSubnet("127.0.0.0", 8, "ipv4");
LOOPBACK.addSubnet("0.0.0.0", 32, "ipv4");
LOOPBACK.addAddress("::1", "ipv6");
LOOPBACK.addAddress("::", "ipv6");
const LINK_LOCAL = new BlockList();
LINK_LOCAL.addSubnet("169.254.0.0", 16, "ipv4");
LINK_LOCAL.addSubnet("fe80::", 10, "ipv6");
const METADATA_NAMES = /^(?:metadata|metadata\.google\.internal|metadata\.azure\.com|instance-data(?:\.ec2\.internal)?)\.?$/i;

function addressKind(host: string): string | undefined {
  const name = host.replace(/^\[|\]$/g, "").toLowerCase();
  if (METADATA_NAMES.test(name)) return "a cloud metadata address";
  if (name === "localhost" || name.endsWith(".localhost")) return "a loopback address";
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(name)?.[1];
  const ip = mapped ?? name;
  const family = isIP(ip) === 4 ? "ipv4" : isIP(ip) === 6 ? "ipv6" : undefined;
  if (!family) return undefined;
  if (METADATA.check(ip, family)) return "a cloud metadata address";
  if (LOOPBACK.check(ip, family)) return "a loopback address";
  if (LINK_LOCAL.check(ip, family)) return "a link-local address";
  return undefined;
}

/** A warning sentence for a base URL on a loopback, link-local or cloud metadata address, if it is on one. */
export function addressWarning(baseUrl: string): string | undefined {
  let host: string;
  try {
    host = new URL(baseUrl).hostname;
  } catch {
    return undefined;
  }
  const kind = addressKind(host);
  return kind ? `the document's server URL ${baseUrl} is ${kind}: the server's requests would reach ${kind === "a loopback address" ? "the machine it runs on" : kind === "a link-local address" ? "its local network link" : "the cloud's credentials endpoint"}; check the document before deploying` : undefined;
}
