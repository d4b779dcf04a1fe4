// The http tool handler: build the request by place, send it to the pinned origin, and turn the
// answer into a redacted, selected value or a readable tool error. Never logs anything.
import type { Json, ToolHandler, ToolOutcome } from "../../runtime/types.js";
import { clipText } from "../../runtime/clip.js";
import type { HttpDeps, HttpToolConfig } from "./config.js";
import { encodeFields, headerValue, jsonBody, pathSegment, ToolFault, type Values } from "./encode.js";
import { mediaBlock, mediaOf } from "./media.js";
import { bareType, isTextual, linkBlock, resourceBlock } from "./resource.js";
import { proxySettings } from "./proxy.js";
import { resolveHttpEnv, type Resolved } from "./startup.js";
import { deadline, exchange, failureReason, type Answer, type OutRequest } from "./transport.js";
import { checkConfig } from "./validate.js";
import { dropNulls } from "./nulls.js";

export function createHttpHandler(cfg: HttpToolConfig, deps: HttpDeps = {}): ToolHandler {
  checkConfig(cfg, deps); // a malformed config is a generator bug: fail at load, not per call
  const env = deps.env ?? process.env;
  const { resolved: r, problems } = resolveHttpEnv(cfg, env);
  const { proxy, problems: proxyProblems } = proxySettings(env);
  const unconfigured = [...problems, ...proxyProblems];
  const select = deps.select;
  const nulls = deps.nulls;
  const decoder = new TextDecoder();
  return async (args, ctx) => {
    if (!r || unconfigured.length) return fail(`this tool is not configured: ${unconfigured.join("; ")}`);
    // Every error text passes the redactor: status lines and content types come from upstream too.
    const failR = (text: string) => fail(r.redactor.text(text));
    let req: OutRequest;
    try {
      req = buildRequest(cfg, r, args);
    } catch (e) {
      if (e instanceof ToolFault) return failR(e.message);
      throw e;
    }
    const dl = deadline(cfg.timeoutMs, ctx.signal);
    let res: Answer;
    try {
      res = await exchange(req, { origin: r.origin, redirects: cfg.redirects, maxBytes: cfg.maxResponseBytes, signal: dl.signal, proxy, userAgent: userAgent(ctx.server) });
    } catch (e) {
      const reason = failureReason(e, r.origin, cfg.timeoutMs, dl.timedOut(), ctx.signal.aborted);
      return failR(reason);
    } finally {
      dl.done();
    }
    // Redaction comes first, on the text, before JSON parsing or select can see anything.
    const bytes = res.body;
    const decoded = decoder.decode(bytes);
    const text = r.redactor.text(decoded);
    if (res.status >= 400) return failR(statusError(res, text));
    if (cfg.output.resource) {
      const mimeType = bareType(res.headers.get("content-type"));
      // The URL may carry a secret (a key in the query): it is redacted like the body.
      const uri = r.redactor.text(req.url.href);
      if (isTextual(mimeType)) return { content: [resourceBlock(uri, mimeType, { text })] };
      if (text !== decoded) return fail(`refused: the upstream's ${mimeType} answer contains a configured secret`);
      return { content: [resourceBlock(uri, mimeType, { bytes })] };
    }
    if (cfg.output.link) {
      // A link is for the client to follow: a URL holding a secret (a key in the query) is never handed out.
      if (r.redactor.text(req.url.href) !== req.url.href) return fail("refused: the request URL carries a configured secret, so it cannot be returned as a link");
      const link = linkBlock(req.url, bareType(res.headers.get("content-type")), bytes.byteLength);
      return { text: `${req.method} ${req.url.href} answered ${res.status}: ${link.size} bytes of ${link.mimeType}, returned as a link (the body is not included)`, content: [link] };
    }
    if (cfg.output.raw) {
      const media = bytes.byteLength > 0 ? mediaOf(res.headers.get("content-type")) : undefined;
      if (!media) return cfg.output.hasSchema ? { text, value: text } : { text };
      // The UTF-8 view shows every ASCII spelling of a secret and its raw UTF-8 bytes, whatever surrounds them.
      if (text !== decoded) return fail(`refused: the upstream's ${media.mimeType} answer contains a configured secret`);
      if (cfg.output.hasSchema) return fail(`the upstream answered ${media.mimeType}, which this tool's output schema cannot hold`);
      return { content: [mediaBlock(media, bytes)] };
    }
    if (tooDeep(text)) return failR(`the upstream's answer nests deeper than ${MAX_DEPTH} levels`);
    let data: Json;
    try {
      data = text.trim() === "" ? null : (JSON.parse(text) as Json);
    } catch {
      const type = res.headers.get("content-type") ?? "none";
      return failR(`the upstream's answer is not JSON (HTTP ${res.status}, content-type ${clipText(type, 80)}, ${bytes.byteLength} bytes)`);
    }
    // Again on the decoded strings: catches a secret nested one encoding deeper (JSON inside
    // JSON). Without a backslash no string has escapes, so the text pass already saw them all.
    if (text.includes("\\")) data = r.redactor.json(data);
    if (!select) return { value: nulls ? dropNulls(data, nulls) : data };
    try {
      const value = select(data);
      return { value: nulls ? dropNulls(value, nulls) : value };
    } catch (e) {
      return failR(`the select expression failed on the answer: ${clipText(String((e as Error)?.message ?? e), 200)}`);
    }
  };
}

/** Names the server to the API (providers use it to tell callers apart); plain "kervan" outside one. */
function userAgent(server: { name: string; version: string } | undefined): string {
  return server ? `${server.name}/${server.version} kervan` : "kervan";
}

// Recursive walks (redaction, JMESPath, the core's JSON.stringify) must not overflow the stack.
const MAX_DEPTH = 512;

/** Bracket depth outside strings; a short text cannot be deep, so it skips the scan. */
function tooDeep(text: string): boolean {
  if (text.length <= 2 * MAX_DEPTH) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 || c === 123) {
      if (++depth > MAX_DEPTH) return true;
    } else if (c === 93 || c === 125) depth--;
  }
  return false;
}

function fail(text: string): ToolOutcome {
  return { isError: true, text };
}

/** Status plus a short excerpt, tags stripped, already redacted. */
function statusError(res: Answer, text: string): string {
  const html = /html/i.test(res.headers.get("content-type") ?? "");
  const head64k = text.slice(0, 65536); // the excerpt is short; bound the work on hostile pages
  const plain = (html ? stripTags(head64k) : head64k).replace(/\s+/g, " ").trim();
  const head = `the upstream answered HTTP ${res.status}${res.statusText ? " " + clipText(res.statusText, 80) : ""}`;
  return plain ? `${head}: ${clipText(plain, 300)}` : head;
}

/** Text outside tags, script and style; linear (a regex here could backtrack on hostile pages). */
function stripTags(html: string): string {
  const lower = html.toLowerCase();
  let out = "";
  let i = 0;
  while (i < html.length) {
    const lt = html.indexOf("<", i);
    if (lt < 0) return out + html.slice(i);
    out += html.slice(i, lt) + " ";
    const name = /^<(script|style)\b/.exec(lower.slice(lt, lt + 8));
    const close = name ? lower.indexOf(`</${name[1]}`, lt) : lt;
    const gt = close < 0 ? -1 : html.indexOf(">", close);
    if (gt < 0) return out;
    i = gt + 1;
  }
  return out;
}

function buildRequest(cfg: HttpToolConfig, r: Resolved, args: Record<string, unknown>): OutRequest {
  const vals: Values = { input: args, secrets: r.secrets };
  let path = r.basePath;
  for (const seg of cfg.path) path += "/" + pathSegment(seg, vals);
  if (path === "") path = "/";
  const qs = encodeFields(cfg.query, vals);
  const url = new URL(r.origin + path + (qs ? "?" + qs : ""));
  // The parser must not have moved anything: same origin, same path (no dot-segment folding).
  if (url.origin !== r.origin || url.pathname !== path || url.hash !== "") {
    throw new ToolFault("refused: the rendered URL does not keep the configured origin and path");
  }
  const headers: Record<string, string> = {};
  if (!cfg.output.raw && !cfg.output.resource && !cfg.output.link) headers["accept"] = "application/json";
  for (const h of cfg.headers) {
    const v = headerValue(h.name, h.value, vals);
    if (v === undefined) continue;
    const key = h.name.toLowerCase();
    headers[key] = key in headers && key !== "accept" ? `${headers[key]}, ${v}` : v;
  }
  let body: string | undefined;
  if (cfg.body?.kind === "json") {
    const v = jsonBody(cfg.body.template, vals);
    if (v !== undefined) {
      body = JSON.stringify(v);
      headers["content-type"] ??= "application/json";
    }
  } else if (cfg.body?.kind === "form") {
    body = encodeFields(cfg.body.fields, vals);
    headers["content-type"] ??= "application/x-www-form-urlencoded";
  }
  return { url, method: cfg.method, headers, body };
}
