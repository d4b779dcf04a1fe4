// Tool and input names: snake_case from operationId (else method and path), within 64 characters
// including the prefix the chosen client puts before a tool name, with a short stable hash on
// truncation or collision.
import { createHash } from "node:crypto";

export type Profile = "generic" | "claude" | "openai" | "vscode" | "cursor";
export const PROFILES: Record<Profile, { prefix: (server: string) => string; maxTools: number; note: string }> = {
  // No prefix; a tool list past 128 overwhelms most clients.
  generic: { prefix: () => "", maxTools: 128, note: "no name prefix, 128 tools" },
  // Claude clients name a tool mcp__<server>__<tool>.
  claude: { prefix: (s) => `mcp__${s}__`, maxTools: 128, note: "names as mcp__<server>__<tool>, 128 tools" },
  // Function names are at most 64 characters; at most 128 functions per request.
  openai: { prefix: () => "", maxTools: 128, note: "no name prefix, 128 functions per request" },
  // VS Code names a tool mcp_<server>_<tool> and caps a request at 128 tools.
  vscode: { prefix: (s) => `mcp_${s}_`, maxTools: 128, note: "names as mcp_<server>_<tool>, 128 tools" },
  // Cursor counts the server name into a tool's name and degrades past about 40 tools.
  cursor: { prefix: (s) => `${s}_`, maxTools: 40, note: "names as <server>_<tool>, 40 tools" },
};

export const NAME_LIMIT = 64;

export function shortHash(text: string): string {
  return createHash("sha256").update(text).digest("hex").slice(0, 6);
}

/** `getPetById` -> `get_pet_by_id`, `GET /pets/{id}` -> `get_pets_id`. */
export function snakeCase(text: string): string {
  return text
    .replace(/([A-Z]{2,})s(?![a-z])/g, "$1S") // listAPIs -> list_apis, not list_ap_is
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1_$2")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .replace(/_+/g, "_");
}

/** Fits a name into `budget` characters; a cut name ends in `_` + a hash of the whole, so it stays unique and stable. */
export function fit(name: string, budget: number, key: string): string {
  if (name.length <= budget) return name;
  const hash = shortHash(key);
  return `${name.slice(0, Math.max(1, budget - hash.length - 1)).replace(/_+$/, "")}_${hash}`;
}

/** Tool names for operations (in document order), unique, each within the budget. */
export function toolNames(ops: Array<{ raw: string; key: string }>, budget: number): string[] {
  const first = ops.map((o) => {
    let base = snakeCase(o.raw) || "operation";
    if (!/^[a-z]/.test(base)) base = `op_${base}`;
    return fit(base, budget, o.key);
  });
  const count = new Map<string, number>();
  for (const n of first) count.set(n, (count.get(n) ?? 0) + 1);
  const out = first.map((n, i) => (count.get(n)! > 1 ? fit(`${n}_${shortHash(ops[i].key)}`, budget, ops[i].key) : n));
  return out;
}

const INPUT_NAME = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

/** An input name a template can name: the parameter's own name when it fits, else a snake_case form. */
export function inputName(name: string): string {
  if (INPUT_NAME.test(name) && name.length <= 64) return name;
  const s = snakeCase(name) || "param";
  return (/^[a-z_]/.test(s) ? s : `p_${s}`).slice(0, 64);
}
