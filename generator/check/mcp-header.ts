// `x-mcp-header` (MCP 2026-07-28, Streamable HTTP): a property whose value clients mirror into an
// Mcp-Param-{Name} header. Clients drop a tool whose declaration breaks the rules, so the build
// refuses it: a token name, unique ignoring case, on a string/integer/boolean property reached
// through `properties` alone.
import type { Json } from "../../templates/runtime/types.js";
import type { SchemaProblem } from "../shared/schema-walk.js";
import { MCP_HEADER } from "../shared/schema.js";
import { escapePointer } from "../shared/pointer.js";

export { MCP_HEADER };

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const TYPES = ["string", "integer", "boolean"];

export function checkMcpHeaders(schema: Json, problems: SchemaProblem[]): void {
  const seen = new Map<string, string>();
  const visit = (node: Json, pointer: string, reachable: boolean): void => {
    if (Array.isArray(node)) return node.forEach((n, i) => visit(n, `${pointer}/${i}`, false));
    if (!node || typeof node !== "object") return;
    if (MCP_HEADER in node) {
      const name = node[MCP_HEADER];
      const at = `${pointer}/${MCP_HEADER}`;
      if (typeof name !== "string" || !TOKEN.test(name)) problems.push({ code: "KV512", message: `${MCP_HEADER} ${JSON.stringify(name)} is not an HTTP header token`, pointer: at });
      else if (!reachable || !pointer) problems.push({ code: "KV512", message: `${MCP_HEADER} "${name}" must sit on a property reached through 'properties' alone`, pointer: at });
      else if (typeof node.type !== "string" || !TYPES.includes(node.type)) problems.push({ code: "KV512", message: `${MCP_HEADER} "${name}" needs a property of type string, integer or boolean`, pointer: at });
      else if (seen.has(name.toLowerCase())) problems.push({ code: "KV512", message: `${MCP_HEADER} "${name}" repeats ${seen.get(name.toLowerCase())} (names are case-insensitive)`, pointer: at });
      else seen.set(name.toLowerCase(), `"${name}"`);
    }
    for (const [key, value] of Object.entries(node)) {
      if (key === MCP_HEADER || key === "enum" || key === "const" || key === "default" || key === "examples") continue;
      if (key === "properties" && value && typeof value === "object" && !Array.isArray(value)) {
        for (const [k, v] of Object.entries(value)) visit(v, `${pointer}/properties/${escapePointer(k)}`, reachable);
      } else visit(value, `${pointer}/${escapePointer(key)}`, false);
    }
  };
  visit(schema, "", true);
}
