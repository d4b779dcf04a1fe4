// One tool's section of AUDIT.md, from its manifest entry. Kind facts are rendered generically:
// known keys get a label and a readable form, any other key is listed as JSON, so a new kind
// shows up in the audit without a change here.
import type { Json } from "../../templates/runtime/types.js";
import type { ManifestTool } from "./types.js";
import { code, names, plain } from "./markdown.js";

const LABELS: Record<string, string> = {
  command: "Command",
  argv: "Argument template (argv)",
  shell: "Runs a shell",
  cwd: "Working directory",
  paths: "Filesystem policy",
  method: "HTTP method",
  host: "Host",
  origin: "Origin",
  originEnv: "Origin override variable",
  path: "Path template",
  query: "Query parameters",
  headers: "Request headers",
  body: "Request body",
  env: "Environment variables read",
  envSet: "Environment variables set",
  secrets: "Secrets read (environment)",
  limits: "Limits",
  output: "Output",
  reads: "Reads",
  network: "Network access",
  filesystem: "Filesystem access",
};

function fact(key: string, v: Json): string {
  if (key === "argv" && Array.isArray(v)) return code(JSON.stringify(v));
  if (key === "reads" && typeof v === "string") return v;
  if (key === "shell" || key === "network" || key === "filesystem") return v === true ? "**yes**" : "no";
  if (key === "paths") {
    if (v === null) return "none (no argument is a path)";
    const p = v as Record<string, string[]>;
    return `path fields ${names(p.fields ?? [])}; allowed roots ${names(p.allow ?? [])}; denied ${names(p.deny ?? [])}`;
  }
  if (key === "envSet" && v && typeof v === "object" && !Array.isArray(v)) {
    const entries = Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return entries.length ? entries.map(([k, x]) => code(`${k}=${String(x)}`)).join(", ") : "none";
  }
  if ((key === "limits" || key === "output") && v && typeof v === "object" && !Array.isArray(v)) {
    const entries = Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return entries.map(([k, x]) => `${k} ${x === null ? "none" : typeof x === "object" ? code(JSON.stringify(x)) : typeof x === "string" ? code(x) : String(x)}`).join(", ");
  }
  return plain(v);
}

function fields(schema: Record<string, Json> | undefined): string {
  const props = (schema?.properties ?? {}) as Record<string, Record<string, Json>>;
  const required = new Set((schema?.required ?? []) as string[]);
  const keys = Object.keys(props).sort();
  if (!keys.length) return "none";
  return keys
    .map((k) => {
      const t = props[k]?.type;
      const type = Array.isArray(t) ? t.join(" | ") : typeof t === "string" ? t : "any";
      return `${code(k)} (${type}${required.has(k) ? ", required" : ""})`;
    })
    .join(", ");
}

export function renderTool(t: ManifestTool): string[] {
  const out = [`### ${t.name}${t.title ? ` — ${t.title}` : ""}`, ""];
  if (t.description) out.push(t.description.replace(/\s+/g, " ").trim(), "");
  const a = t.annotations;
  out.push(
    `- Kind: ${code(t.kind)}`,
    `- Annotations: ${["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"].map((k) => `${k} ${a[k]}`).join(", ")}`,
    `- Input fields: ${fields(t.inputSchema)}`,
    `- Input schema sha256: ${code(t.inputSchemaSha256)}`,
    `- Output schema sha256: ${t.outputSchemaSha256 ? code(t.outputSchemaSha256) : "none (text output)"}`,
    `- Output cap: ${t.maxOutputChars} characters of text`,
  );
  const facts = t.facts ?? {};
  // Known keys in the order a reviewer reads them, then any other key sorted.
  const order = Object.keys(LABELS);
  const keys = Object.keys(facts).sort((x, y) => (order.includes(x) ? order.indexOf(x) : order.length) - (order.includes(y) ? order.indexOf(y) : order.length) || (x < y ? -1 : x > y ? 1 : 0));
  for (const key of keys) out.push(`- ${LABELS[key] ?? key}: ${fact(key, facts[key])}`);
  out.push("");
  return out;
}
