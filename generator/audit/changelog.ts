// Compares two manifests of one server: tools added and removed, descriptions, schemas field by
// field, annotations, kind facts, effects, server-wide capabilities and bundled packages. A change
// is breaking when it can fail a client that worked before, or widens what the server can reach
// (judged on effects alone, the same for every kind).
import { posix } from "node:path";
import type { Json } from "../../templates/runtime/types.js";
import type { Effects, Manifest, ManifestTool } from "./types.js";
import { capabilitiesOf } from "./capabilities.js";
import { effectsOf } from "./legacy.js";
import { diffSchema } from "./schema-diff.js";
import { pairByKey, same, type Change, type Changelog } from "./change.js";
import { diffPrompts } from "./prompt-changes.js";
import { diffResources } from "./resources.js";
import { diffResourceTemplates } from "./resource-templates.js";

// A hint flipping this way lets the tool do more than clients were told it would.
const WIDENING_HINTS: Record<string, boolean> = { readOnlyHint: false, destructiveHint: true, openWorldHint: true };

/** Kind facts: listed when they change; what widens reach is judged on the effects. */
function diffFacts(a: Record<string, Json>, b: Record<string, Json>, legacy: boolean, out: Change[]): void {
  for (const key of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()) {
    if (legacy && (!(key in a) || !(key in b))) continue;
    if (same(a[key], b[key])) continue;
    const change = a[key] === undefined ? "added" : b[key] === undefined ? "removed" : "changed";
    out.push({ path: ["Facts", key], change, ...(a[key] !== undefined ? { old: a[key] } : {}), ...(b[key] !== undefined ? { new: b[key] } : {}) });
  }
}

/** Whether the sandbox root `r` lies inside the root `o` (both as the spec writes them). */
function insideRoot(r: string, o: string): boolean {
  const [x, y] = [posix.normalize(r), posix.normalize(o)];
  if (y === ".") return !posix.isAbsolute(x) && x !== ".." && !x.startsWith("../");
  return x === y || x.startsWith(y.endsWith("/") ? y : y + "/");
}

/** The breaking-change rules on one tool's effects (commands, hosts and variables are judged server-wide). */
function diffEffects(a: Effects, b: Effects, out: Change[]): void {
  const widened = (path: string, old: Json, now: Json, why: string) => out.push({ path: ["Effects", path], change: "changed", old, new: now, breaking: `widened capability: ${why}` });
  if (b.shell && !a.shell) widened("shell", false, true, "now runs a shell");
  if (b.network && !a.network) widened("network", false, true, "now reaches the network");
  if (b.filesystem && !a.filesystem) widened("filesystem", false, true, "now reaches the filesystem");
  if (a.confined && !b.confined) widened("confined", a.confined, null, `the ${a.confined.by} sandbox is off`);
  if (a.confined && b.confined) {
    for (const key of ["visible", "writable"] as const) {
      const added = b.confined[key].filter((r) => !a.confined![key].some((o) => insideRoot(r, o)));
      if (added.length) widened(`confined.${key}`, a.confined[key], b.confined[key], `new ${key} sandbox root ${added.join(", ")}`);
    }
    // Run-later paths (.git, .envrc, ...) in writable roots are read-only unless the spec leaves them writable.
    const [ra, rb] = [a.confined.runLaterWritable ?? [], b.confined.runLaterWritable ?? []];
    const opened = rb.filter((n) => !ra.includes(n));
    if (opened.length && b.confined.writable.length) widened("confined.runLaterWritable", ra, rb, `run-later path ${opened.join(", ")} now writable`);
  }
  const roots = b.pathRoots.filter((r) => !a.pathRoots.includes(r));
  if (roots.length) widened("pathRoots", a.pathRoots, b.pathRoots, `new path root ${roots.join(", ")}`);
  const undenied = a.pathDenied.filter((d) => !b.pathDenied.includes(d));
  if (undenied.length) widened("pathDenied", a.pathDenied, b.pathDenied, `no longer denied ${undenied.join(", ")}`);
  if (b.changes && b.changes !== a.changes && !(a.changes && !b.changes)) {
    if (!a.changes) widened("changes", a.readsOnly ?? null, b.changes, `now ${b.changes}`);
    else out.push({ path: ["Effects", "changes"], change: "changed", old: a.changes, new: b.changes });
  }
}

function diffSchemas(label: string, a: ManifestTool, b: ManifestTool, dir: "input" | "output", out: Change[]): void {
  const [sa, sb] = dir === "input" ? [a.inputSchema, b.inputSchema] : [a.outputSchema, b.outputSchema];
  const [ha, hb] = dir === "input" ? [a.inputSchemaSha256, b.inputSchemaSha256] : [a.outputSchemaSha256, b.outputSchemaSha256];
  if (ha === hb && (same(sa, sb) || !sa || !sb)) return;
  if (dir === "output" && hb === undefined) return void out.push({ path: [label], change: "removed", ...(sa ? { old: sa } : {}), breaking: "output schema removed: clients lose structured results" });
  if (dir === "output" && ha === undefined) return void out.push({ path: [label], change: "added", ...(sb ? { new: sb } : {}) });
  // A manifest from before full schemas were recorded carries only hashes.
  if (!sa || !sb) return void out.push({ path: [label, "sha256"], change: "changed", old: ha ?? null, new: hb ?? null });
  diffSchema(sa, sb, [label], dir, out);
}

/**
 * Task support and confirmation. Removing a confirmation is breaking (the tool now runs without asking);
 * adding one, or making tasks required, fails clients that could call the tool before.
 */
function diffTaskAndConfirm(a: ManifestTool, b: ManifestTool, legacy: boolean, out: Change[]): void {
  if (legacy) return;
  if (a.task !== b.task) {
    const why = b.task === "required" ? "tasks now required: clients without the tasks extension are refused (-32021)" : undefined;
    out.push({ path: ["Task"], change: a.task === undefined ? "added" : b.task === undefined ? "removed" : "changed", ...(a.task ? { old: a.task } : {}), ...(b.task ? { new: b.task } : {}), ...(why ? { breaking: why } : {}) });
  }
  diffAsk(a, b, out);
  const [fa, fb] = [a.confirm?.fields ?? [], b.confirm?.fields ?? []];
  if (a.confirm && b.confirm && fa.join() !== fb.join()) {
    out.push({ path: ["Confirmation fields"], change: "changed", ...(fa.length ? { old: fa.join(", ") } : {}), ...(fb.length ? { new: fb.join(", ") } : {}) });
  }
  const [x, y] = [a.confirm?.message, b.confirm?.message];
  if (x === y && a.confirm?.inputKey === b.confirm?.inputKey) return;
  const why = y === undefined ? "confirmation removed: the tool now runs without asking the user" : x === undefined ? "confirmation added: clients that cannot show one (no elicitation) can no longer call it" : undefined;
  out.push({ path: ["Confirmation"], change: x === undefined ? "added" : y === undefined ? "removed" : "changed", ...(x !== undefined ? { old: x } : {}), ...(y !== undefined ? { new: y } : {}), ...(why ? { breaking: why } : {}) });
}

/**
 * Asked inputs. Adding one is breaking (a caller that leaves the field out, from a client without the
 * capability it is asked through, is now refused instead of served), and so is making an optional one
 * needed or asking it through another capability; adding an `optional: true` one is not (such a client
 * is still served), nor is removing one (the tool runs as it did before it asked).
 */
function diffAsk(a: ManifestTool, b: ManifestTool, out: Change[]): void {
  const before = new Map((a.ask ?? []).map((q) => [q.field, q]));
  const after = new Map((b.ask ?? []).map((q) => [q.field, q]));
  for (const field of [...new Set([...before.keys(), ...after.keys()])].sort()) {
    const [x, y] = [before.get(field), after.get(field)];
    if (x && y && JSON.stringify(x) === JSON.stringify(y)) continue;
    const capability = y?.from ?? "elicitation";
    const why =
      y && !y.optional && (x === undefined || x.optional || (x.from ?? "elicitation") !== capability)
        ? `asks for ${field} ${x === undefined ? "now" : (x.from ?? "elicitation") !== capability ? `through ${capability} now` : "from every client now"}: callers that leave it out from clients without ${capability} are refused`
        : undefined;
    out.push({ path: ["Asks for", field], change: x === undefined ? "added" : y === undefined ? "removed" : "changed", ...(x ? { old: x.message } : {}), ...(y ? { new: y.message } : {}), ...(why ? { breaking: why } : {}) });
  }
}

/** `legacy`: one side predates full definitions in the manifest; a field it lacks is unknown, not absent. */
function diffTool(a: ManifestTool, b: ManifestTool, legacy: boolean): Change[] {
  const out: Change[] = [];
  for (const key of ["kind", "title", "description", "maxOutputChars"] as const) {
    if (same(a[key], b[key]) || (legacy && (a[key] === undefined || b[key] === undefined))) continue;
    const label = key === "maxOutputChars" ? "Output cap" : key[0].toUpperCase() + key.slice(1);
    out.push({ path: [label], change: a[key] === undefined ? "added" : b[key] === undefined ? "removed" : "changed", ...(a[key] !== undefined ? { old: a[key] } : {}), ...(b[key] !== undefined ? { new: b[key] } : {}) });
  }
  for (const hint of [...new Set([...Object.keys(a.annotations), ...Object.keys(b.annotations)])].sort()) {
    const [x, y] = [a.annotations[hint], b.annotations[hint]];
    if (x === y) continue;
    const why = hint in WIDENING_HINTS && y === WIDENING_HINTS[hint] ? `widened capability: ${hint} ${x} -> ${y}` : undefined;
    out.push({ path: ["Annotations", hint], change: "changed", old: x ?? null, new: y ?? null, ...(why ? { breaking: why } : {}) });
  }
  diffTaskAndConfirm(a, b, legacy, out);
  diffSchemas("Input schema", a, b, "input", out);
  diffSchemas("Output schema", a, b, "output", out);
  diffFacts(a.facts ?? {}, b.facts ?? {}, legacy, out);
  diffEffects(effectsOf(a), effectsOf(b), out);
  return out.map((c) => ({ tool: b.name, ...c }));
}

function diffSet(label: string, a: string[], b: string[], why: (x: string) => string | undefined): Change[] {
  const out: Change[] = [];
  for (const x of b.filter((v) => !a.includes(v))) out.push({ path: [label], change: "added", new: x, ...(why(x) ? { breaking: why(x) } : {}) });
  for (const x of a.filter((v) => !b.includes(v))) out.push({ path: [label], change: "removed", old: x });
  return out;
}

function packages(m: Manifest): Record<string, { version: string; license?: string }> {
  const out: Record<string, { version: string; license?: string }> = {};
  for (const [name, p] of Object.entries(m.bundle?.packages ?? {})) out[name] = typeof p === "string" ? { version: p } : { ...p };
  return out;
}

/**
 * server.exposure: a change is always reported, and breaking either way: to catalog, tools/list stops
 * listing the tools (a client choosing from it sees only the catalog tools); back to tools, the
 * catalog tools a client calls are gone. A tool added under a catalog is an added tool like any other.
 */
function diffExposure(a: Manifest, b: Manifest): Change[] {
  const [x, y] = [a.server.exposure ?? "tools", b.server.exposure ?? "tools"];
  if (x === y) return x === "code" ? diffCodeLimits(a, b) : [];
  // Code mode runs caller-supplied programs: turning it on widens what a caller can make the server do.
  if (y === "code") return [{ path: ["Server", "exposure"], change: "changed", old: x, new: y, breaking: "widened capability: the server now runs caller-supplied JavaScript (execute, in a QuickJS sandbox) that calls its operations" }];
  const breaking = y === "catalog" ? "tools/list now lists only the catalog tools: a client that picks tools from it no longer sees them" : "the catalog tools (search_operations, describe_operation, call_operation) are removed: clients calling them fail";
  return [{ path: ["Server", "exposure"], change: "changed", old: x, new: y, breaking }];
}

/** Under code mode, a raised program limit lets a caller make the server do more: a widening. */
function diffCodeLimits(a: Manifest, b: Manifest): Change[] {
  const [la, lb] = [a.server.code?.limits ?? {}, b.server.code?.limits ?? {}];
  const out: Change[] = [];
  for (const key of Object.keys(lb).sort()) {
    if (la[key] === lb[key]) continue;
    const raised = la[key] === undefined || lb[key] > la[key];
    out.push({ path: ["Server", "code", key], change: "changed", old: la[key] ?? null, new: lb[key], ...(raised ? { breaking: `widened capability: execute's ${key} limit raised` } : {}) });
  }
  return out;
}

export function changelog(a: Manifest, b: Manifest): Changelog {
  const changes: Change[] = [];
  const [ca, cb] = [a.capabilities ?? capabilitiesOf(a.tools), b.capabilities ?? capabilitiesOf(b.tools)];
  changes.push(...diffSet("Commands", ca.commands, cb.commands, (x) => `widened capability: a new command is run (${x})`));
  changes.push(...diffSet("Hosts", ca.hosts, cb.hosts, (x) => `widened capability: a new host is contacted (${x})`));
  // A secret is listed once, as a secret, not again as an environment variable.
  changes.push(...diffSet("Secrets", ca.secrets, cb.secrets, (x) => `widened capability: a new secret is read (${x})`));
  changes.push(...diffSet("Environment variables", ca.env.filter((e) => !ca.secrets.includes(e)), cb.env.filter((e) => !cb.secrets.includes(e)), (x) => `widened capability: a new environment variable is read (${x})`));
  const [pa, pb] = [packages(a), packages(b)];
  for (const name of [...new Set([...Object.keys(pa), ...Object.keys(pb)])].sort()) {
    const [x, y] = [pa[name], pb[name]];
    if (!x || !y) {
      changes.push({ path: ["Bundled packages", name], change: x ? "removed" : "added", ...(x ? { old: x } : {}), ...(y ? { new: y } : {}) });
      continue;
    }
    // Older manifests list versions only; a license missing on one side is unknown, not changed.
    for (const key of ["version", "license"] as const) {
      if (x[key] !== undefined && y[key] !== undefined && x[key] !== y[key]) changes.push({ path: ["Bundled packages", name, key], change: "changed", old: x[key]!, new: y[key]! });
    }
  }
  changes.push(...diffPrompts(a.prompts, b.prompts));
  changes.push(...diffResources(a.resources, b.resources));
  changes.push(...diffResourceTemplates(a.resourceTemplates, b.resourceTemplates));
  changes.push(...diffExposure(a, b));
  for (const [name, x, y] of pairByKey(a.tools, b.tools, (t) => t.name)) {
    if (!y) changes.push({ tool: name, path: ["Tool"], change: "removed", breaking: "tool removed: clients calling it fail" });
    else if (!x) changes.push({ tool: name, path: ["Tool"], change: "added", ...(y.description ? { new: y.description } : {}) });
    else changes.push(...diffTool(x, y, !a.capabilities || !b.capabilities));
  }
  return { server: b.server.name, from: a.server.version, to: b.server.version, changes };
}
