// Rules over a server's whole tool set: one naming convention (KV609), no sibling that shadows
// another (KV610, linear: ../twins.ts), and a tool count an agent can still choose from (KV611).
import type { ServerRule } from "../types.js";
import { twins, twinKeys } from "../twins.js";
import { ENCODING, listingOf } from "../../catalog/listing.js";

export const MAX_TOOLS = 40;

function style(name: string): string | undefined {
  if (name.includes("-")) return "kebab-case";
  if (name.includes("_")) return /[A-Z]/.test(name) ? "mixed" : "snake_case";
  if (/^[a-z][a-z0-9]*[A-Z]/.test(name)) return "camelCase";
  if (/^[A-Z][a-z0-9]+[A-Z]/.test(name)) return "PascalCase";
  if (name.includes(".")) return "dotted";
  return undefined; // one lower-case word fits every convention
}

export const serverRules: ServerRule[] = [
  {
    code: "KV609",
    summary: "all tool names of a server follow one naming convention",
    server(s, report) {
      const styled = s.tools.map((t) => [t, style(t.name)] as const).filter(([, st]) => st !== undefined);
      const counts = new Map<string, number>();
      for (const [, st] of styled) counts.set(st!, (counts.get(st!) ?? 0) + 1);
      if (counts.size < 2) return;
      // The majority wins; on a tie, the style of the first styled tool in the spec.
      const max = Math.max(...counts.values());
      const main = styled.find(([, st]) => counts.get(st!) === max)![1]!;
      for (const [t, st] of styled) {
        if (st === main) continue;
        report(`tool name '${t.name}' is ${st} but this server's tools use ${main}`, `${t.pointer}/name`, { suggestion: "name every tool of a server the same way, e.g. verb_noun" });
      }
    },
  },
  {
    code: "KV610",
    summary: "no two tools have near-identical names or descriptions",
    server(s, report) {
      const found = twins(s.tools.map((t) => twinKeys(t.name, t.description)));
      for (const { tool, other, by } of found) {
        const [a, b] = [s.tools[other], s.tools[tool]];
        if (by === "name") report(`tool name '${b.name}' is nearly identical to '${a.name}'; an agent may call one for the other`, `${b.pointer}/name`, { suggestion: "give the tools distinct names that say how they differ" });
        else
          report(`the description of '${b.name}' is nearly identical to that of '${a.name}'; an agent cannot tell them apart`, b.raw.description !== undefined ? `${b.pointer}/description` : `${b.pointer}/name`, {
            suggestion: "say what each tool does that the other does not, and when to use which",
          });
      }
    },
  },
  {
    code: "KV611",
    summary: `a server has at most ${MAX_TOOLS} tools`,
    server(s, report) {
      // Under exposure: catalog tools/list shows the catalog tools and expose: always ones, however many tools there are.
      if (s.tools.length <= MAX_TOOLS || s.server.exposure === "catalog" || s.server.exposure === "code") return;
      report(`server '${s.server.name}' has ${s.tools.length} tools (more than ${MAX_TOOLS}); agents choose worse among many tools`, "/tools", {
        atKey: true,
        suggestion: "split the server by task, merge tools that differ only by a parameter, or set server.exposure: catalog",
      });
    },
  },
  {
    code: "KV613",
    summary: "the tools/list listing fits the server's token budget (server.budget)",
    server(s, report) {
      const budget = s.server.budget;
      if (budget === undefined) return;
      const listing = listingOf(s.server);
      if (listing.total <= budget) return;
      const top = Object.entries(listing.tools).sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1)).slice(0, 3);
      report(`server '${s.server.name}' lists ${listing.total} tokens of tools (${ENCODING}), more than its budget of ${budget}; the largest: ${top.map(([n, k]) => `${n} ${k}`).join(", ")}`, "/server/budget", {
        suggestion: s.server.exposure !== undefined ? "list fewer tools with expose: always, or shorten their descriptions and schemas" : "set server.exposure: catalog, or shorten the largest tools' descriptions and schemas",
      });
    },
  },
];
