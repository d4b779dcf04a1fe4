// The http tool kind: one endpoint per tool, requests built from templates encoded by place.
import type { Json } from "../../../templates/runtime/types.js";
import type { HttpToolConfig, Part } from "../../../templates/kinds/http/config.js";
import { PROXY_ENV } from "../../../templates/kinds/http/proxy.js";
import type { ToolKind } from "../types.js";
import { checkHttp } from "./check.js";
import { emitHttp } from "./emit.js";
import { normalizeHttp } from "./normalize.js";
import { httpSchema, outputSchema } from "./schema.js";

const show = (parts: Part[]) => parts.map((p) => ("lit" in p ? p.lit : "input" in p ? `{{input.${p.input}}}` : `{{secrets.${p.secret}}}`)).join("");

export const httpKind: ToolKind = {
  key: "http",
  schema: httpSchema,
  toolProperties: { output: outputSchema },
  needsDescription: true,
  check: checkHttp,
  normalize: normalizeHttp,
  emit: emitHttp,
  facts(tool) {
    const c = tool.config as unknown as HttpToolConfig;
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
      // The operator's proxy settings are read too (templates/kinds/http/proxy.ts).
      env: [...c.secrets.map((s) => s.env), ...(c.originEnv ? [c.originEnv] : []), ...PROXY_ENV].sort(),
      limits: { timeoutMs: c.timeoutMs, maxResponseBytes: c.maxResponseBytes, redirects: c.redirects },
      output: { select: c.output.select ?? null, raw: !!c.output.raw, resource: !!c.output.resource },
    } as Record<string, Json>;
  },
};
