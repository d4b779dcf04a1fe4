// Sanity checks on an emitted config, run once when a handler is created. The generator should
// never emit a config that fails these; they keep the runtime's guarantees independent of it.
import type { FieldSpec, HttpDeps, HttpToolConfig, JsonTemplate, Part } from "./config.js";

// RFC 3986 pchar (percent-escapes checked separately) and the RFC 9110 header-name token.
const PCHAR = /^(?:[A-Za-z0-9\-._~!$&'()*+,;=:@]|%[0-9A-Fa-f]{2})*$/;
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const CONTROL = /[\0-\x08\x0A-\x1F\x7F]/;
const METHODS = new Set(["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD"]);
// Set by the runtime or the HTTP layer; Host would let a value pick a virtual host.
const RESERVED = new Set(["host", "content-length", "transfer-encoding", "connection", "keep-alive", "upgrade", "te", "trailer", "expect", "proxy-connection", "proxy-authorization"]);

export function checkConfig(cfg: HttpToolConfig, deps: HttpDeps): void {
  const bad = (why: string): never => {
    throw new Error(`invalid http tool config for ${cfg.tool}: ${why}`);
  };
  if (!METHODS.has(cfg.method)) bad(`method ${cfg.method}`);
  let origin: URL | undefined;
  try {
    origin = new URL(cfg.origin);
  } catch {
    bad(`origin ${cfg.origin} is not a URL`);
  }
  if (!origin || (origin.protocol !== "http:" && origin.protocol !== "https:") || origin.origin !== cfg.origin.replace(/\/$/, "")) {
    bad(`origin ${cfg.origin} must be scheme://host[:port] only`);
  }
  if (cfg.basePath !== "" && !cfg.basePath.split("/").slice(1).every((s) => s !== "" && PCHAR.test(s) && !isDots(s))) {
    bad(`basePath ${cfg.basePath} must be "" or /segments without a trailing slash`);
  }
  if (cfg.basePath !== "" && !cfg.basePath.startsWith("/")) bad("basePath must start with /");
  const declared = new Set(cfg.secrets.map((s) => s.name));
  const checkParts = (parts: Part[], where: string) => {
    for (const p of parts) if ("secret" in p && !declared.has(p.secret)) bad(`${where} uses undeclared secret ${p.secret}`);
  };
  cfg.path.forEach((seg, i) => {
    if (seg.length === 0 && i !== cfg.path.length - 1) bad(`path segment ${i} is empty (only a trailing slash may be)`);
    for (const p of seg) if ("lit" in p && !PCHAR.test(p.lit)) bad(`path literal ${JSON.stringify(p.lit)} is not percent-encoded segment text`);
    if (seg.every((p) => "lit" in p) && isDots(seg.map((p) => (p as { lit: string }).lit).join(""))) bad("a path segment is a dot segment");
    checkParts(seg, "path");
  });
  const checkFields = (fields: FieldSpec[], where: string) => {
    for (const f of fields) if ("value" in f) checkParts(f.value, where);
  };
  checkFields(cfg.query, "query");
  for (const h of cfg.headers) {
    if (!TOKEN.test(h.name)) bad(`header name ${JSON.stringify(h.name)}`);
    if (RESERVED.has(h.name.toLowerCase())) bad(`header ${h.name} is set by the HTTP layer, not by a spec`);
    for (const p of h.value) if ("lit" in p && CONTROL.test(p.lit)) bad(`header ${h.name} has a control character`);
    checkParts(h.value, `header ${h.name}`);
  }
  if (cfg.body) {
    if (cfg.method === "GET" || cfg.method === "HEAD") bad(`${cfg.method} cannot have a body`);
    if (cfg.body.kind === "form") checkFields(cfg.body.fields, "body");
    else checkJson(cfg.body.template, checkParts);
  }
  if (!(cfg.timeoutMs > 0) || !(cfg.maxResponseBytes > 0)) bad("timeoutMs and maxResponseBytes must be positive");
  if (cfg.redirects !== "none" && cfg.redirects !== "same-origin") bad(`redirects ${cfg.redirects}`);
  if (cfg.output.select !== undefined && !cfg.output.raw && !deps.select) bad("output.select is set but no compiled select was passed");
  if (cfg.output.resource && (cfg.output.raw || cfg.output.select !== undefined || cfg.output.hasSchema)) bad("output.resource stands alone: no select, raw or schema");
  if (cfg.output.link && (cfg.output.raw || cfg.output.resource || cfg.output.select !== undefined || cfg.output.hasSchema)) bad("output.link stands alone: no select, raw, resource or schema");
}

function checkJson(t: JsonTemplate, checkParts: (p: Part[], where: string) => void): void {
  if ("secret" in t) checkParts([t], "body");
  else if ("text" in t) checkParts(t.text, "body");
  else if ("array" in t) for (const el of t.array) checkJson(el, checkParts);
  else if ("object" in t) for (const [, el] of t.object) checkJson(el, checkParts);
}

function isDots(s: string): boolean {
  const d = s.replace(/%2e/gi, ".");
  return d === "." || d === "..";
}
