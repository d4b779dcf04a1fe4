// Sending a built request: pinned origin, manual redirects, a deadline covering the whole
// exchange, and a byte cap enforced while streaming (a huge or endless body is never buffered).
import { ToolFault } from "./encode.js";

export interface OutRequest {
  url: URL;
  method: string;
  headers: Record<string, string>;
  body?: string;
}

export interface SendOptions {
  /** The only origin requests may go to (the configured one, or the operator's override). */
  origin: string;
  redirects: "none" | "same-origin";
  signal: AbortSignal;
}

const MAX_HOPS = 5;
const REDIRECT = new Set([301, 302, 303, 307, 308]);

export async function send(req: OutRequest, opts: SendOptions): Promise<Response> {
  let { url, method, body } = req;
  let headers = req.headers;
  for (let hop = 0; ; hop++) {
    // Defence in depth: whatever built the URL, nothing leaves for another origin.
    if (url.origin !== opts.origin) throw new ToolFault("refused: the request URL left the configured origin");
    const res = await fetch(url, { method, headers, body, redirect: "manual", signal: opts.signal });
    const location = REDIRECT.has(res.status) ? res.headers.get("location") : null;
    if (location === null) return res;
    await res.body?.cancel().catch(() => {});
    if (opts.redirects === "none") {
      throw new ToolFault(`the upstream answered HTTP ${res.status} (a redirect); this tool does not follow redirects`);
    }
    let next: URL;
    try {
      next = new URL(location, url);
    } catch {
      throw new ToolFault(`the upstream answered HTTP ${res.status} with an invalid Location`);
    }
    if (next.origin !== opts.origin) {
      throw new ToolFault(`the upstream redirected (HTTP ${res.status}) to another origin; not followed`);
    }
    if (hop + 1 >= MAX_HOPS) throw new ToolFault(`more than ${MAX_HOPS - 1} redirects; stopped`);
    // As fetch does: 303 (and 301/302 after POST) turn into a GET without a body.
    if ((res.status === 303 && method !== "HEAD") || ((res.status === 301 || res.status === 302) && method === "POST")) {
      method = "GET";
      body = undefined;
      headers = Object.fromEntries(Object.entries(headers).filter(([k]) => k.toLowerCase() !== "content-type"));
    }
    url = next;
  }
}

/** Reads the body, stopping (and closing the stream) as soon as it passes `max` bytes. */
export async function readCapped(res: Response, max: number): Promise<Uint8Array> {
  const declared = Number(res.headers.get("content-length") ?? NaN);
  if (declared > max) {
    await res.body?.cancel().catch(() => {});
    throw new ToolFault(overCap(max, `declared ${declared} bytes`));
  }
  if (!res.body) return new Uint8Array(0);
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > max) {
      await reader.cancel().catch(() => {});
      throw new ToolFault(overCap(max, "stopped reading"));
    }
    chunks.push(value);
  }
  if (chunks.length === 1) return chunks[0]!;
  return Buffer.concat(chunks, total);
}

function overCap(max: number, detail: string): string {
  return `the response body is larger than the ${max}-byte limit (${detail})`;
}

/** A deadline plus the caller's cancellation, with listeners removed afterwards (no leaks per call). */
export function deadline(ms: number, outer: AbortSignal): { signal: AbortSignal; timedOut: () => boolean; done: () => void } {
  const ctl = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    ctl.abort(new DOMException("timed out", "TimeoutError"));
  }, ms);
  const onAbort = () => ctl.abort(outer.reason);
  if (outer.aborted) onAbort();
  else outer.addEventListener("abort", onAbort, { once: true });
  return {
    signal: ctl.signal,
    timedOut: () => timedOut,
    done: () => {
      clearTimeout(timer);
      outer.removeEventListener("abort", onAbort);
    },
  };
}

/** A readable reason for a failed exchange, without stack or internals. */
export function failureReason(e: unknown, origin: string, timeoutMs: number, timedOut: boolean, cancelled: boolean): string {
  if (e instanceof ToolFault) return e.message;
  if (timedOut) return `the request timed out after ${timeoutMs} ms`;
  if (cancelled) return "the request was cancelled";
  const cause = (e as { cause?: { code?: string; message?: string } } | null)?.cause;
  const code = cause?.code ?? "";
  if (code === "ECONNREFUSED") return `connection refused by ${origin}`;
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return `host not found: ${origin}`;
  if (code === "ECONNRESET" || code === "UND_ERR_SOCKET") return `the connection to ${origin} was closed unexpectedly`;
  if (code === "ETIMEDOUT" || code === "UND_ERR_CONNECT_TIMEOUT") return `connecting to ${origin} timed out`;
  const detail = code || cause?.message || (e instanceof Error ? e.message : String(e));
  return `the request to ${origin} failed (${detail.slice(0, 200)})`;
}
