// Build-time rules for http tools: where each placeholder may go, which inputs and secrets exist,
// and proof that no input reaches scheme, host or port.
import { compile } from "@jmespath-community/jmespath";
import type { Json } from "../../../templates/runtime/types.js";
import type { Part } from "../../../templates/kinds/http/config.js";
import type { RawTool, RuleContext } from "../types.js";
import type { HttpBlock } from "./schema.js";
import { inputsOf, parseTemplate, secretsOf } from "./template.js";
import { isObject, messageOf, stringRecord } from "../../shared/object.js";

const SEGMENT_LITERAL = /^[A-Za-z0-9\-._~!$&'()*+,;=:@%]*$/;
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const SCALARS = ["string", "number", "integer", "boolean"];
// Framing and routing headers: a template here could pick a virtual host or split the request.
const RESERVED_HEADERS = new Set(["host", "content-length", "transfer-encoding", "connection", "keep-alive", "proxy-connection", "te", "trailer", "upgrade", "expect"]);

/** The input schema's properties (none when it declares none). */
const propertiesOf = (input: Json | undefined): Record<string, Json> => (isObject(input) && isObject(input.properties) ? input.properties : {});

function propertyType(input: Json | undefined, name: string): string | undefined {
  const prop = propertiesOf(input)[name];
  if (!prop) return undefined;
  if (!isObject(prop)) return "any";
  if (typeof prop.type === "string") return prop.type;
  if (Array.isArray(prop.enum)) return "string";
  return "any";
}

/** KV417 for a path segment with characters a URL path cannot hold as they are; `{id}` is most often a placeholder written with single braces. */
function reportEncoding(path: string, segment: string, i: number, ctx: RuleContext, pointer: string): void {
  const single = /(?<!\{)\{([A-Za-z_][A-Za-z0-9_]*)\}(?!\})/g;
  if (single.test(segment)) {
    const fixed = path.replace(single, (_, name: string) => `{{input.${name}}}`);
    ctx.report("KV417", `path segment ${i + 1} (${JSON.stringify(segment)}) has characters that need percent-encoding: a single-brace {name} is not a placeholder`, pointer, {
      suggestion: `to insert an input, write it with double braces: path: ${fixed}`,
    });
    return;
  }
  ctx.report("KV417", `path segment ${i + 1} (${JSON.stringify(segment)}) has characters that need percent-encoding in a URL path`, pointer, {
    suggestion: "percent-encode them (a space is %20), or take the value from an input with {{input.NAME}}, which is encoded when the request is made",
  });
}

export function checkHttp(http: HttpBlock, tool: RawTool, ctx: RuleContext): void {
  const at = (p: string) => `${ctx.pointer}/http${p}`;
  const input = typeof tool.input === "object" ? tool.input : undefined;
  // The input schema is the user's: its meta-schema check reports a malformed `required`; here it only counts when it is a list.
  const declaredRequired = isObject(input) ? input.required : undefined;
  const required = new Set<string>(Array.isArray(declaredRequired) ? declaredRequired.filter((r): r is string => typeof r === "string") : []);
  const usedInputs = new Set<string>();
  const usedSecrets = new Set<string>();
  const declaredSecrets = Object.keys(http.secrets ?? {});

  const parse = (text: string, pointer: string): Part[] | undefined => {
    const r = parseTemplate(text);
    if ("error" in r) {
      ctx.report("KV411", r.error, pointer);
      return undefined;
    }
    for (const name of inputsOf(r.parts)) {
      usedInputs.add(name);
      if (!propertyType(input, name)) ctx.report("KV412", `{{input.${name}}} names no property of the input schema`, pointer);
    }
    for (const name of secretsOf(r.parts)) {
      usedSecrets.add(name);
      if (!declaredSecrets.includes(name)) ctx.report("KV413", `{{secrets.${name}}} is not declared under http.secrets`, pointer);
    }
    return r.parts;
  };
  const scalarOnly = (parts: Part[], pointer: string, where: string) => {
    for (const name of inputsOf(parts)) {
      const type = propertyType(input, name);
      if (type && !SCALARS.includes(type)) ctx.report("KV414", `input '${name}' has type ${type}; a ${where} takes a string, number, integer or boolean`, pointer);
    }
  };

  // The origin is fixed: placeholders there would let input choose where the request goes.
  let base: URL | undefined;
  if (String(http.baseUrl).includes("{{")) {
    ctx.report("KV415", "baseUrl is fixed: no placeholders in scheme, host, port or prefix", at("/baseUrl"));
    const r = parseTemplate(String(http.baseUrl));
    if ("parts" in r) for (const name of inputsOf(r.parts)) usedInputs.add(name); // one fault, one report
  }
  else {
    try {
      base = new URL(http.baseUrl);
    } catch {
      ctx.report("KV416", `baseUrl ${JSON.stringify(http.baseUrl)} is not an absolute URL`, at("/baseUrl"));
    }
    if (base && (base.search || base.hash || base.username || base.password || String(http.baseUrl).endsWith("?"))) {
      ctx.report("KV416", "baseUrl takes no query, fragment or credentials", at("/baseUrl"));
    }
  }

  const segments = String(http.path).split("/").slice(1);
  segments.forEach((segment, i) => {
    if (segment === "" && i < segments.length - 1) ctx.report("KV417", "the path has an empty segment ('//'); only a trailing slash may be empty", at("/path"), { suggestion: "remove the extra '/'" });
    const parts = parse(segment, at("/path"));
    if (!parts) return;
    const literal = parts.filter((p): p is { lit: string } => "lit" in p).map((p) => p.lit);
    if (literal.some((l) => !SEGMENT_LITERAL.test(l))) reportEncoding(String(http.path), segment, i, ctx, at("/path"));
    if (parts.length === 1 && "lit" in parts[0] && (parts[0].lit === "." || parts[0].lit === "..")) ctx.report("KV417", "a path may not contain '.' or '..' segments", at("/path"), { suggestion: "write the path the server expects, without '.' or '..' segments" });
    for (const name of inputsOf(parts)) {
      if (!required.has(name)) ctx.report("KV418", `path input '${name}' must be required: a path segment cannot be left out`, at("/path"));
    }
    scalarOnly(parts, at("/path"), "path segment");
  });

  for (const [name, value] of Object.entries(http.query ?? {})) {
    const p = at(`/query/${name}`);
    if (typeof value === "string") {
      const parts = parse(value, p);
      if (parts) scalarOnly(parts, p, "query template (use {input, style} for arrays)");
    } else {
      const spread = value;
      const field = spread.input;
      const style = spread.style;
      usedInputs.add(field);
      const prop = propertiesOf(input)[field];
      const items = isObject(prop) && isObject(prop.items) ? prop.items : {};
      if (!prop) ctx.report("KV412", `query '${name}' names input '${field}', which is no property of the input schema`, p);
      else if (spread.map) checkMap(name, field, stringRecord(spread.map), isObject(prop) ? prop : {}, style, p, ctx);
      else if (!isObject(prop) || prop.type !== "array" || typeof items.type !== "string" || !SCALARS.includes(items.type)) {
        ctx.report("KV419", `query '${name}' spreads input '${field}', which must be an array of strings, numbers, integers or booleans`, p);
      }
    }
  }
  for (const [name, value] of Object.entries(stringRecord(http.headers))) {
    if (!TOKEN.test(name)) ctx.report("KV420", `'${name}' is not a valid header name`, at(`/headers/${name}`), { atKey: true });
    else if (RESERVED_HEADERS.has(name.toLowerCase())) {
      ctx.report("KV430", `header '${name}' is set by the HTTP client itself; a spec may not set it`, at(`/headers/${name}`), { atKey: true });
    }
    const parts = parse(value, at(`/headers/${name}`));
    if (parts) scalarOnly(parts, at(`/headers/${name}`), "header");
  }
  checkBody(http, ctx, parse);

  for (const name of declaredSecrets) {
    if (!usedSecrets.has(name)) ctx.report("KV421", `secret '${name}' is declared but no template uses it`, at(`/secrets/${name}`), { atKey: true });
  }
  for (const name of Object.keys(propertiesOf(input))) {
    if (!usedInputs.has(name)) ctx.report("KV422", `input '${name}' reaches no part of the request`, `${ctx.pointer}/input/properties/${name}`, { atKey: true });
  }
  checkOutput(tool, ctx);
}

/** A value map must cover exactly the values the input can take, so no call falls through it. */
function checkMap(name: string, field: string, map: Record<string, string>, prop: Record<string, Json>, style: string | undefined, p: string, ctx: RuleContext): void {
  if (style !== undefined) ctx.report("KV429", `query '${name}' takes map or style, not both`, p);
  if (!Array.isArray(prop.enum)) {
    ctx.report("KV429", `query '${name}' maps input '${field}', which needs an enum listing the values it can take`, p);
    return;
  }
  const values = prop.enum.map(String);
  const missing = values.filter((v) => !(v in map));
  const extra = Object.keys(map).filter((k) => !values.includes(k));
  if (missing.length) ctx.report("KV429", `query '${name}' does not map ${missing.map((v) => JSON.stringify(v)).join(", ")} of input '${field}'`, p);
  if (extra.length) ctx.report("KV429", `query '${name}' maps ${extra.map((v) => JSON.stringify(v)).join(", ")}, which input '${field}' cannot take`, p);
}

function checkBody(http: HttpBlock, ctx: RuleContext, parse: (t: string, p: string) => Part[] | undefined): void {
  const body = http.body;
  if (!body) return;
  const at = `${ctx.pointer}/http/body`;
  if (http.method === "GET" || http.method === "HEAD") ctx.report("KV423", `a ${http.method} request has no body`, at);
  const kinds = ["json", "form"].filter((k) => k in body);
  if (kinds.length !== 1) return ctx.report("KV424", "body takes exactly one of json or form", at);
  if (kinds[0] === "form") {
    for (const [name, value] of Object.entries(stringRecord(body.form))) parse(value, `${at}/form/${name}`);
    return;
  }
  const walk = (node: Json, pointer: string): void => {
    if (typeof node === "string") parse(node, pointer);
    else if (Array.isArray(node)) node.forEach((n, i) => walk(n, `${pointer}/${i}`));
    else if (node && typeof node === "object") {
      for (const [k, v] of Object.entries(node)) {
        if (k.includes("{{")) ctx.report("KV425", "JSON body keys are literal: no placeholders in keys", `${pointer}/${k}`, { atKey: true });
        walk(v, `${pointer}/${k}`);
      }
    }
  };
  walk(body.json ?? null, `${at}/json`);
}

function checkOutput(tool: RawTool, ctx: RuleContext): void {
  const output = isObject(tool.output) ? tool.output : {};
  const at = `${ctx.pointer}/output`;
  const ways = [output.select !== undefined && "select", output.raw && "raw: true", output.resource && "resource: true", output.link && "link: true"].filter(Boolean);
  if (ways.length > 1) ctx.report("KV426", `give one of select, raw: true, resource: true or link: true, not ${ways.join(" and ")}`, at);
  else if (!ways.length) {
    ctx.report("KV427", "an http tool needs output.select (a JMESPath expression choosing what the model sees), output.raw: true, output.resource: true or output.link: true", tool.output ? at : ctx.pointer);
  }
  if ((output.resource || output.link) && output.schema !== undefined) {
    ctx.report("KV432", `${output.link ? "a resource link" : "an embedded resource"} has no output schema; remove output.schema or use select`, `${at}/schema`, { atKey: true });
  }
  if (typeof output.select === "string") {
    try {
      compile(output.select);
    } catch (e) {
      ctx.report("KV428", `output.select is not valid JMESPath: ${messageOf(e).replace(/^Syntax error:?\s*/i, "")}`, `${at}/select`);
    }
  }
}
