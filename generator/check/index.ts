// check: the spec's shape, the rules common to every tool, and each kind's rule table.
// Every problem is collected; the pipeline stops after this stage if any is an error.
import type { Json } from "../../templates/runtime/types.js";
import type { Diagnostic } from "../model/diagnostic.js";
import type { LoadedSpec } from "../model/spec.js";
import { allKinds, kindOf } from "../kinds/index.js";
import { contextFor } from "../kinds/context.js";
import type { RawTool } from "../kinds/types.js";
import { checkShape } from "./spec-shape.js";
import { checkSchemaLimits } from "./schema-limits.js";
import type { SchemaProblem } from "../shared/schema-walk.js";
import { at } from "../shared/locate.js";
import { checkDocumentKeys } from "./document-keys.js";
import { checkTaskAndConfirm } from "./task-confirm.js";
import { addHints } from "./hints.js";
import { toolSchemas } from "./judge.js";
import { SchemaCompiler } from "../shared/schema-compiler.js";
import type { Build } from "../shared/build.js";
import { checkPrompts } from "./prompts.js";
import { checkResources } from "./resources.js";
import { checkResourceTemplates } from "./resource-templates.js";
import { isObject } from "../shared/object.js";

function checkTool(spec: LoadedSpec, tool: RawTool, pointer: string, out: Diagnostic[], compiler: SchemaCompiler): void {
  const ctx = contextFor(spec, pointer, out);
  const kinds = kindOf(tool);
  if (kinds.length !== 1) {
    const keys = allKinds().map((k) => k.key).join(", ");
    ctx.report("KV401", kinds.length ? `a tool has exactly one kind; this one has ${kinds.map((k) => k.key).join(" and ")}` : `tool '${tool.name}' has no kind: give one of ${keys}`, pointer);
    return;
  }
  const kind = kinds[0];
  if (kind.needsDescription && typeof tool.description !== "string") ctx.report("KV402", `tool '${tool.name}' needs a description`, pointer);
  // The kind's rules run first; a common rule that finds the same fault at the same place stays quiet.
  const own: Diagnostic[] = [];
  kind.check(kind.blockOf(tool), tool, contextFor(spec, pointer, own));
  checkTaskAndConfirm(tool, kind, contextFor(spec, pointer, own));
  out.push(...own);
  const reported = new Set(own.map((d) => d.location.pointer));
  const common: Diagnostic[] = [];
  const report = contextFor(spec, pointer, common).report;
  const schemas: [Json | undefined, string][] = [
    [tool.input, `${pointer}/input`],
    [isObject(tool.output) ? tool.output.schema : undefined, `${pointer}/output/schema`],
  ];
  for (const [schema, p] of schemas) {
    if (schema === undefined || typeof schema === "string") continue;
    const problems: SchemaProblem[] = [];
    checkSchemaLimits(schema, problems, compiler);
    for (const pr of problems) report(pr.code, pr.message, p + pr.pointer, { atKey: pr.atKey, ...(pr.severity ? { severity: pr.severity } : {}) });
  }
  const input = tool.input;
  const inputFaulted = own.some((d) => d.location.pointer.startsWith(`${pointer}/input`));
  if (input && typeof input === "object" && !Array.isArray(input) && input.type !== "object" && !inputFaulted) {
    report("KV403", "an input schema must have type \"object\" (MCP tools take an object of arguments)", `${pointer}/input`);
  }
  // A schema that does not compile (KV510) usually fails for the reason the kind already named.
  const under = (p: string) => own.some((d) => d.location.pointer.startsWith(`${p}/`));
  out.push(...common.filter((d) => !reported.has(d.location.pointer) && !(d.code === "KV510" && under(d.location.pointer))));
}


/** The check on this thread alone; `compiler` judges the schemas (a fresh one unless given). */
export function check(specs: LoadedSpec[], compiler = new SchemaCompiler()): Diagnostic[] {
  const out: Diagnostic[] = [];
  const servers = new Map<string, string>();
  for (const spec of specs) {
    if (spec.doc === undefined) continue;
    const start = out.length;
    checkSpec(spec, servers, out, compiler);
    addHints(spec, out.slice(start));
  }
  return out;
}

/** Whether the check compiles a schema (it breaks no limit): `kervan import` judges the same ones ahead. */
export { compileCandidate } from "./schema-limits.js";

/**
 * The check stage of a build: a large spec's tool schemas are judged on two threads first, by the
 * build's compiler; or, when the build goes on to emit them (`emitProves`), presumed to compile
 * and proved by the emit's own compile, unless the spec has errors (then they are judged here).
 */
export async function checkStage(specs: LoadedSpec[], build: Build, options: { emitProves?: boolean } = {}): Promise<Diagnostic[]> {
  const schemas = toolSchemas(specs);
  if (!options.emitProves || !build.pool.offThread(schemas.size)) {
    await build.schemas.judgeMany(schemas, build.pool);
    return check(specs, build.schemas);
  }
  // A build that goes on to emit compiles each tool schema once, in the emit (shared/schema-compiler.ts).
  build.schemas.presume(schemas);
  const found = check(specs, build.schemas);
  if (!found.some((d) => d.severity === "error")) return found;
  // A spec with errors is not emitted: its schemas are judged here, and the report is whole.
  await build.schemas.settle(build.pool).catch(() => {});
  return check(specs, build.schemas);
}

function checkSpec(spec: LoadedSpec, servers: Map<string, string>, out: Diagnostic[], compiler: SchemaCompiler): void {
  const keys = checkDocumentKeys(spec);
  const shape = checkShape(spec);
  out.push(...keys, ...shape);
  // Every problem at once: the rule tables assume the shape holds, but only where it is broken.
  // An unknown property or a long text breaks nothing (rules read only the keys they know), and
  // a fault inside one tool leaves the other tools whole.
  const broken = [...keys, ...shape].filter((d) => d.code !== "KV201" && d.code !== "KV208").map((d) => d.location.pointer);
  const whole = (p: string) => !broken.some((b) => b === p || b.startsWith(`${p}/`) || p.startsWith(`${b}/`) || b === "");
  const doc = spec.doc;
  if (!isObject<unknown>(doc)) return;
  const server = doc.server;
  if (isObject<unknown>(server) && typeof server.name === "string" && whole("/server")) {
    const first = servers.get(server.name);
    if (first) out.push(at(spec, "KV404", `server name '${server.name}' is already used by ${first}`, "/server/name"));
    else servers.set(server.name, spec.file);
  }
  checkPrompts(spec, doc.prompts, whole, out);
  checkResources(spec, doc.resources, whole, out);
  checkResourceTemplates(spec, doc.resourceTemplates, whole, out);
  if (!Array.isArray(doc.tools)) return;
  const names = new Map<string, number>();
  doc.tools.forEach((tool: unknown, i: number) => {
    if (!isObject(tool)) return;
    if (typeof tool.name === "string") {
      if (names.has(tool.name)) out.push(at(spec, "KV405", `tool name '${tool.name}' is used twice (first at /tools/${names.get(tool.name)})`, `/tools/${i}/name`));
      else names.set(tool.name, i);
    }
    if (whole(`/tools/${i}`)) checkTool(spec, tool, `/tools/${i}`, out, compiler);
  });
}
