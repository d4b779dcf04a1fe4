// The http tool kind: one endpoint per tool, requests built from templates encoded by place.
import type { HttpToolConfig, Part } from "../../../templates/kinds/http/config.js";
import { PROXY_ENV } from "../../../templates/kinds/http/proxy.js";
import type { Json } from "../../../templates/runtime/types.js";
import { sortedUnique } from "../../shared/order.js";
import { defineKind } from "../types.js";
import { checkHttp } from "./check.js";
import { emitHttp } from "./emit.js";
import { normalizeHttp, type HttpIRConfig } from "./normalize.js";
import { HTTP_CODES } from "./codes.js";
import { httpSchema, outputSchema, type HttpBlock } from "./schema.js";

declare module "../../model/ir.js" {
  interface KindConfigs {
    http: HttpIRConfig;
  }
}

export type HttpFacts = {
  method: HttpToolConfig["method"];
  host: string;
  origin: string;
  originEnv: string | null;
  path: string;
  query: string[];
  headers: string[];
  body: "json" | "form" | null;
  env: string[];
  secrets: string[];
  limits: Record<string, Json>;
  output: Record<string, Json>;
};

const show = (parts: Part[]) => parts.map((p) => ("lit" in p ? p.lit : "input" in p ? `{{input.${p.input}}}` : `{{secrets.${p.secret}}}`)).join("");
const WRITES = new Set(["POST", "PUT", "PATCH", "DELETE"]);
// The operator's proxy settings are read too (templates/kinds/http/proxy.ts).
const envRead = (c: HttpIRConfig) => sortedUnique([...c.secrets.map((s) => s.env), ...(c.originEnv ? [c.originEnv] : []), ...PROXY_ENV]);

export const httpKind = defineKind<HttpBlock, HttpIRConfig, HttpFacts>({
  key: "http",
  schema: httpSchema,
  codes: HTTP_CODES,
  docs: "docs/http-tools.md",
  toolProperties: { output: outputSchema },
  needsDescription: true,
  tasks: true,
  runtime: { dir: "templates/kinds/http", packages: ["@jmespath-community/jmespath"], startup: "startup.ts" },
  // A resource read or a completion serves the response as the call's text shows it (body, or JSON).
  resourceReads: {},
  check: checkHttp,
  normalize: normalizeHttp,
  emit: emitHttp,
  effects({ config: c }) {
    return {
      commands: [],
      hosts: [new URL(c.origin).host],
      env: envRead(c),
      secrets: sortedUnique(c.secrets.map((s) => s.env)),
      shell: false,
      filesystem: false,
      network: true,
      pathRoots: [],
      pathDenied: [],
      ...(WRITES.has(c.method) ? { changes: `sends ${c.method}` } : { readsOnly: `only sends ${c.method}` }),
    };
  },
  facts({ config: c }) {
    return {
      method: c.method,
      host: new URL(c.origin).host,
      origin: c.origin,
      // The variable that may point the tool at another origin at startup (null: none).
      originEnv: c.originEnv ?? null,
      path: `${c.basePath}/${c.path.map(show).join("/")}`,
      query: c.query.map((q) => q.name),
      headers: c.headers.map((h) => h.name),
      body: c.body?.kind ?? null,
      secrets: c.secrets.map((s) => s.env),
      env: envRead(c),
      limits: { timeoutMs: c.timeoutMs, maxResponseBytes: c.maxResponseBytes, redirects: c.redirects },
      output: { select: c.output.select ?? null, raw: !!c.output.raw, resource: !!c.output.resource, ...(c.output.link ? { link: true } : {}) },
    };
  },
  factLabels: {
    method: "HTTP method",
    host: "Host",
    origin: "Origin",
    originEnv: "Origin override variable",
    path: "Path template",
    query: "Query parameters",
    headers: "Request headers",
    body: "Request body",
    env: "Environment variables read",
    secrets: "Secrets read (environment)",
    limits: "Limits",
    output: "Output",
  },
});
