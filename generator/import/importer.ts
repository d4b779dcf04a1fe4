// `kervan import`: an API description -> one reviewable Kervan spec (YAML text) and a report.
// Operations are taken in a stable order (path, then method), filtered, named, built and then
// checked by the generator's own check stage: a tool the build would refuse is skipped with the
// check's reason, so the written spec always builds.
import { basename, isAbsolute } from "node:path";
import { compileCandidate, openBuild } from "../pipeline.js";
import type { Build } from "../shared/build.js";
import type { SchemaStream } from "../shared/schema-compiler.js";
import { readDocument, ImportError, type Doc } from "./read.js";
import { OperationSkip } from "./refs.js";
import { NAME_LIMIT, PROFILES, toolNames, type Profile } from "./names.js";
import { buildTool, type ImportedTool, type Operation } from "./tool.js";
import { limitBroken } from "./limits.js";
import { renderSpec, serverWarnings, specData } from "./yaml.js";
import { READ_LIMITS, sizeText } from "../shared/read-bounded.js";
import { verify } from "./verify.js";
import { newImportRun } from "./run.js";
import { recordOf } from "./recorded.js";
import { unsatisfiable } from "./examples.js";
import type { Json } from "../../templates/runtime/types.js";
import { isObject } from "../shared/object.js";

export { ImportError };

export interface ImportOptions {
  file: string;
  name?: string;
  includeTags?: string[];
  includeOps?: string[];
  excludeOps?: string[];
  profile?: Profile;
  maxTools?: number;
  includeDeprecated?: boolean;
  /** catalog: the spec sets server.exposure: catalog, and the tool budget does not apply (docs/catalog.md); recorded (recorded.ts). */
  exposure?: "tools" | "catalog";
  /** Also serve each GET whose inputs are all path parameters as a resource template (resources.ts). */
  resourceTemplates?: boolean;
  /** false: repeated subschemas stay where they are instead of going into `$defs` (hoist.ts); recorded (recorded.ts). */
  hoist?: boolean;
  /** Keep the API's texts whole: pointer sentences, media type lists and output schemas' descriptions (lean.ts); recorded (recorded.ts). */
  fullText?: boolean;
  /** Where the spec will be written (for the re-import hint in its header). */
  out?: string;
}

export interface Skipped {
  operation: string;
  reason: string;
}

export interface ImportResult {
  server: string;
  text: string;
  /** What `text` reads back as (the spec as data). */
  data: Json;
  tools: string[];
  skipped: Skipped[];
  /** Sentences a reviewer should read (a server URL on a loopback, link-local or metadata address). */
  warnings: string[];
}

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];
const byCodeUnit = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export function serverName(doc: Doc, file: string): string {
  const from = (s: string) => s.toLowerCase().replace(/[^a-z0-9._-]+/g, "-").replace(/^[^a-z0-9]+|[-._]+$/g, "").slice(0, 40).replace(/[-._]+$/, "");
  return from(String(doc.info?.title ?? "")) || from(basename(file).replace(/\.(ya?ml|json)$/i, "")) || "api";
}

function operations(doc: Doc): Operation[] {
  const ops: Operation[] = [];
  for (const path of Object.keys(doc.paths).sort(byCodeUnit)) {
    const item = doc.paths[path];
    if (!item || typeof item !== "object") continue;
    for (const method of METHODS) {
      const op = item[method];
      if (!op || typeof op !== "object") continue;
      const operationId = typeof op.operationId === "string" && op.operationId.trim() ? op.operationId.trim() : undefined;
      ops.push({ method, path, op, pathItem: item, raw: operationId ?? `${method} ${path}`, tags: Array.isArray(op.tags) ? op.tags.filter((t: unknown) => typeof t === "string") : [], ...(operationId ? { operationId } : {}) });
    }
  }
  return ops;
}

/** How the spec names its source document and its own path: as given, or the file name of an absolute path. */
export const shownPath = (file: string) => (isAbsolute(file) ? basename(file) : file.split("\\").join("/"));

const label = (o: Operation) => `${o.method.toUpperCase()} ${o.path}${o.operationId ? ` (${o.operationId})` : ""}`;

function tagHint(ops: Operation[]): string {
  const counts = new Map<string, number>();
  for (const o of ops) for (const t of o.tags.length ? o.tags : ["(untagged)"]) counts.set(t, (counts.get(t) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || byCodeUnit(a[0], b[0])).map(([t, n]) => `  ${t} (${n})`).join("\n");
}

interface Built {
  server: string;
  built: ImportedTool[];
  skipped: Skipped[];
  labels: Map<string, string>;
  /** What the spec's header and server entry take from the document (all that is kept of it). */
  api: Doc;
  meta: Parameters<typeof renderSpec>[4];
}

/** Reads the document and builds one tool per wanted operation. Returns only what the spec needs: the document itself can go. */
async function buildTools(opts: ImportOptions, judging: SchemaStream): Promise<Built> {
  const { doc, version } = await readDocument(opts.file);
  const server = opts.name ?? serverName(doc, opts.file);
  if (!/^[a-z0-9][a-z0-9._-]{0,63}$/.test(server)) throw new ImportError("bad-name", `server name ${JSON.stringify(server)} must be lower-case letters, digits, '.', '_' or '-' (at most 64)`);
  const profile = PROFILES[opts.profile ?? "generic"];
  const skipped: Skipped[] = [];
  const wanted: Operation[] = [];
  const matches = (o: Operation, list: string[]) => list.includes(o.operationId ?? "") || list.includes(o.raw);
  for (const o of operations(doc)) {
    if (opts.includeOps?.length && !matches(o, opts.includeOps)) continue;
    if (opts.excludeOps?.length && matches(o, opts.excludeOps)) continue;
    if (opts.includeTags?.length && !o.tags.some((t) => opts.includeTags!.includes(t))) continue;
    if (o.method === "options" || o.method === "trace") skipped.push({ operation: label(o), reason: `${o.method.toUpperCase()} is not a method http tools send` });
    else if (o.op.deprecated === true && !opts.includeDeprecated) skipped.push({ operation: label(o), reason: "deprecated (--include-deprecated imports it)" });
    else wanted.push(o);
  }
  const budget = opts.maxTools ?? profile.maxTools;
  if (wanted.length > budget && opts.exposure !== "catalog") {
    throw new ImportError(
      "too-many-tools",
      `${wanted.length} operations would become tools; the limit is ${budget} (${opts.maxTools ? "--max-tools" : `profile ${opts.profile ?? "generic"}: ${profile.note}`}).\nServe them all as a catalog with --exposure catalog (three listed tools that search, describe and call them), or narrow it with --include-tags, --include-ops or --exclude-ops, or raise --max-tools. Tags:\n${tagHint(wanted)}`,
    );
  }
  const nameBudget = Math.max(8, NAME_LIMIT - profile.prefix(server).length);
  const names = toolNames(wanted.map((o) => ({ raw: o.raw, key: `${o.method} ${o.path}` })), nameBudget);
  let built: ImportedTool[] = [];
  const labels = new Map<string, string>();
  // What this import computes as it goes (cleaned texts, found references, ...): one for the document, dropped with it.
  const run = newImportRun(!opts.fullText);
  wanted.forEach((o, i) => {
    labels.set(names[i], label(o));
    try {
      const t = buildTool(doc, o, names[i], server, { hoist: opts.hoist, run });
      if (opts.exposure === "catalog" && o.tags.length) t.tool.tags = o.tags.slice(0, 20); // words search_operations finds it by
      const broken = limitBroken(t.tool.input);
      if (broken) throw new OperationSkip(`its input schema breaks Kervan's schema limits: ${broken}`);
      const impossible = unsatisfiable(t.tool.input);
      if (impossible) throw new OperationSkip(`its input schema cannot be satisfied: ${impossible}`);
      built.push(t);
      // The schemas the check compiles (verify.ts): judged on the worker while the rest converts.
      judging.add([t.tool.input, isObject(t.tool.output) ? t.tool.output.schema : undefined], compileCandidate);
    } catch (e) {
      if (e instanceof OperationSkip) skipped.push({ operation: label(o), reason: e.message });
      else if (e instanceof RangeError) skipped.push({ operation: label(o), reason: `its schemas nest too deeply to convert (${e.message})` });
      else throw e;
    }
  });
  const file = shownPath(opts.file);
  const record = recordOf(file, { ...opts, name: server });
  const meta = { file, out: opts.out ? shownPath(opts.out) : `specs/${server}.yaml`, title: String(doc.info?.title ?? server), apiVersion: String(doc.info?.version ?? ""), version, profile: opts.profile ?? "generic", record };
  return { server, built, skipped, labels, api: { info: { title: doc.info?.title, description: doc.info?.description }, ...(opts.exposure === "catalog" ? { exposure: "catalog" } : {}), ...(opts.resourceTemplates ? { resourceTemplates: true } : {}) }, meta };
}

export async function importOpenApi(opts: ImportOptions): Promise<ImportResult> {
  const build = openBuild();
  // The check's schemas, judged on a worker while the operations are converted.
  const judging = build.schemas.stream(build.pool);
  try {
    return await importJudged(opts, build, judging);
  } finally {
    judging.stop();
    build.close();
  }
}

async function importJudged(opts: ImportOptions, build: Build, judging: SchemaStream): Promise<ImportResult> {
  // The parsed document (the largest thing in memory) is not referenced past this line.
  const { server, skipped, labels, api, meta, ...rest } = await buildTools(opts, judging);
  let { built } = rest;
  const render = () => renderSpec(api, server, built, [...skipped].sort((a, b) => byCodeUnit(a.operation, b.operation)), meta);
  // While the worker judges the last schemas streamed to it, this thread writes the spec as it is
  // if nothing is refused.
  let text = built.length ? render() : undefined;
  await judging.finish();
  for (let round = 0; round < 4 && built.length; round++) {
    const refused = await verify(specData(api, server, built), built.length, build);
    if (refused.spec) throw new ImportError("spec-invalid", `the imported spec does not pass kervan's checks: ${refused.spec}`);
    if (!refused.tools.size) break;
    text = undefined;
    built = built.filter((t, i) => {
      const why = refused.tools.get(i);
      if (why) skipped.push({ operation: labels.get(t.name)!, reason: why });
      return !why;
    });
  }
  if (!built.length) {
    const reasons = [...new Set(skipped.map((s) => s.reason))].slice(0, 3).join("; ");
    if (!reasons) throw new ImportError("no-operations", `${opts.file} describes no operations to import (webhooks and callbacks are not imported)`);
    throw new ImportError("no-operations", `no operation of ${opts.file} could be imported: ${reasons}`);
  }
  skipped.sort((a, b) => byCodeUnit(a.operation, b.operation));
  text ??= render();
  const bytes = Buffer.byteLength(text);
  if (bytes > READ_LIMITS.specBytes) throw new ImportError("spec-too-large", `the imported spec would be ${bytes} bytes; kervan reads specs of at most ${sizeText(READ_LIMITS.specBytes)}: narrow it with --include-tags, --include-ops or --exclude-ops`);
  return { server, text, data: specData(api, server, built), tools: built.map((t) => t.name), skipped, warnings: serverWarnings(built) };
}
