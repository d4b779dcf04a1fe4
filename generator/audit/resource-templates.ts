// The manifest's, AUDIT.md's and the changelog's resource templates and completions. A template is
// recorded by its URI template, type and the tool a read runs, with what that tool reaches (its
// commands and hosts, from the tool's effects): a template reaches exactly what its tool reaches,
// under the same sandbox, path rules and secrets. A completion by tool runs that tool too. A new
// template widens what clients can read without calling a tool (a widening); a removed one is
// breaking; a changed one is listed.
import type { CompletionDef, Json } from "../../templates/runtime/types.js";
import type { ServerPlan } from "../model/plan.js";
import { code } from "../shared/markdown.js";
import { toJson } from "../shared/object.js";
import { pairByKey, same, type Change } from "./change.js";
import type { Manifest, ManifestResourceTemplate, ManifestTool } from "./types.js";

function completionFact(c: CompletionDef): string {
  return "values" in c ? `${c.values.length} fixed values` : `output lines of tool ${c.tool}`;
}

function completionsOf(complete: Record<string, CompletionDef> | undefined): Record<string, string> | undefined {
  if (!complete) return undefined;
  return Object.fromEntries(Object.entries(complete).map(([k, c]) => [k, completionFact(c)]));
}

export function manifestResourceTemplates(plan: ServerPlan, tools: ManifestTool[]): ManifestResourceTemplate[] | undefined {
  return plan.server.resourceTemplates?.map((t) => {
    const effects = tools.find((x) => x.name === t.tool)?.effects;
    const complete = completionsOf(t.complete);
    return {
      uriTemplate: t.uriTemplate,
      name: t.name,
      ...(t.title !== undefined ? { title: t.title } : {}),
      ...(t.description !== undefined ? { description: t.description } : {}),
      mimeType: t.mimeType,
      variables: t.variables,
      tool: t.tool,
      commands: effects?.commands ?? [],
      hosts: effects?.hosts ?? [],
      ...(complete ? { complete } : {}),
    };
  });
}

/** Prompt argument completions, by prompt then argument, for AUDIT.md's completion lines. */
export function promptCompletions(plan: ServerPlan): Record<string, Record<string, string>> | undefined {
  const out: Record<string, Record<string, string>> = {};
  for (const p of plan.server.prompts ?? []) {
    const c = completionsOf(p.complete);
    if (c) out[p.name] = c;
  }
  return Object.keys(out).length ? out : undefined;
}

const list = (xs: string[]) => (xs.length ? xs.map(code).join(", ") : "none");

export function renderResourceTemplates(templates: ManifestResourceTemplate[] | undefined): string[] {
  if (!templates?.length) return [];
  const out = [
    "## Resource templates",
    "",
    "Each read runs the named tool with the URI's variables as its arguments, through the same validation,",
    "sandbox, path rules, secrets, redaction and caps as a call of that tool; nothing is watched (no subscriptions).",
    "",
  ];
  for (const t of [...templates].sort((a, b) => (a.uriTemplate < b.uriTemplate ? -1 : 1))) {
    out.push(`### ${code(t.uriTemplate)}${t.title ? ` — ${t.title}` : ""}`, "");
    if (t.description) out.push(t.description.replace(/\s+/g, " ").trim(), "");
    out.push(`- Name: ${code(t.name)}; serves ${t.mimeType}`, `- Reads through tool ${code(t.tool)} (variables ${list(t.variables)}): commands ${list(t.commands)}; hosts ${list(t.hosts)}`);
    for (const [v, c] of Object.entries(t.complete ?? {})) out.push(`- Completes ${code(v)} from ${c}`);
    out.push("");
  }
  return out;
}

export function diffResourceTemplates(a: ManifestResourceTemplate[] | undefined, b: ManifestResourceTemplate[] | undefined): Change[] {
  const out: Change[] = [];
  for (const [uri, x, y] of pairByKey(a, b, (t) => t.uriTemplate)) {
    const path = ["Resource template " + uri];
    if (!y) out.push({ path, change: "removed", breaking: "resource template removed: clients reading its URIs fail" });
    else if (!x) out.push({ path, change: "added", new: `reads through tool ${y.tool}`, breaking: `widened capability: a new resource template reads through tool ${y.tool}` });
    else if (!same(toJson(x), toJson(y))) out.push({ path, change: "changed", old: toJson(x), new: toJson(y) });
  }
  return out;
}

/** What completes (completion/complete): `prompt.argument` and `uriTemplate variable`, sorted. */
export function completing(m: Manifest): string[] {
  const prompts = Object.entries(m.promptCompletions ?? {}).flatMap(([p, args]) => Object.keys(args).map((a) => `${p}.${a}`));
  const templates = (m.resourceTemplates ?? []).flatMap((t) => Object.keys(t.complete ?? {}).map((v) => `${t.uriTemplate} ${v}`));
  return [...prompts, ...templates].sort();
}

export function renderPromptCompletions(completions: Record<string, Record<string, string>> | undefined): string[] {
  if (!completions) return [];
  const out = ["## Prompt argument completions", "", "completion/complete offers the values below that start with what the user typed (at most 100).", ""];
  for (const p of Object.keys(completions).sort()) {
    for (const [a, c] of Object.entries(completions[p]!)) out.push(`- ${code(p)} argument ${code(a)}: ${c}`);
  }
  out.push("");
  return out;
}
