// The http tool kind: one endpoint per tool, requests built from templates encoded by place.
import type { Json } from "../../../templates/runtime/types.js";
import type { HttpToolConfig, Part } from "../../../templates/kinds/http/config.js";
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
      path: `${c.basePath}/${c.path.map(show).join("/")}`,
      secrets: c.secrets.map((s) => s.env),
      env: [...c.secrets.map((s) => s.env), ...(c.originEnv ? [c.originEnv] : [])].sort(),
    } as Record<string, Json>;
  },
};
