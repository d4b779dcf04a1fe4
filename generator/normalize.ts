// normalize: checked specs -> ServerIR, with defaults filled and order fixed.
import type { Json } from "../templates/runtime/types.js";
import type { LoadedSpec } from "./model/spec.js";
import type { ServerIR, ToolIR, AnnotationsIR } from "./model/ir.js";
import type { Diagnostic } from "./model/diagnostic.js";
import { kindOf, toolIR } from "./kinds/index.js";
import type { RawTool } from "./kinds/types.js";
import { contextFor } from "./kinds/context.js";
import { normalizeHttp } from "./normalize-http.js";
import { resolveAsk } from "./parts/ask.js";
import { resolveConfirmFields } from "./parts/confirm-fields.js";
import { promptIR } from "./parts/prompts.js";
import { resourceIR } from "./parts/resources.js";
import { resourceTemplateIR } from "./parts/resource-templates.js";

export const DEFAULT_MAX_OUTPUT_CHARS = 20_000;

import { byCodeUnit } from "./shared/order.js";
import { isObject } from "./shared/object.js";
import { CODE_DEFAULTS, type CodeLimits } from "../templates/runtime/codemode/limits.js";

const HINTS = ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"] as const;

/** The hints a spec gives (the schema allows these four booleans and nothing else). */
function givenHints(annotations: Json | undefined): Partial<AnnotationsIR> {
  const given: Partial<AnnotationsIR> = {};
  if (isObject(annotations)) for (const hint of HINTS) if (typeof annotations[hint] === "boolean") given[hint] = annotations[hint];
  return given;
}

function normalizeTool(spec: LoadedSpec, tool: RawTool, index: number, serverMax: number, out: Diagnostic[]): ToolIR {
  const pointer = `/tools/${index}`;
  const kind = kindOf(tool)[0];
  const n = kind.normalize(kind.blockOf(tool), tool, contextFor(spec, pointer, out));
  const annotations: AnnotationsIR = { ...n.annotations, ...givenHints(tool.annotations) };
  return toolIR(kind, {
    name: String(tool.name ?? n.name),
    ...(typeof tool.title === "string" ? { title: tool.title } : n.title ? { title: n.title } : {}),
    description: typeof tool.description === "string" ? tool.description : (n.description ?? ""),
    annotations,
    inputSchema: n.inputSchema,
    ...(n.outputSchema ? { outputSchema: n.outputSchema } : {}),
    maxOutputChars: typeof tool.maxOutputChars === "number" ? tool.maxOutputChars : serverMax,
    ...(Array.isArray(tool.scopes) && tool.scopes.length ? { scopes: [...new Set(tool.scopes.map(String))].sort(byCodeUnit) } : {}),
    ...taskAndConfirm(tool, n.inputSchema, contextFor(spec, pointer, [])),
    ...askOf(tool, n.inputSchema, contextFor(spec, pointer, [])), // the check stage reported its faults
    ...(tool.expose === "always" ? { expose: "always" as const } : {}),
    ...(Array.isArray(tool.tags) && tool.tags.length ? { tags: tool.tags.map(String) } : {}),
    origin: { file: spec.file, pointer },
  }, n.config);
}

/** Asked inputs with their form schemas, and where a task asks its questions. */
function askOf(tool: RawTool, inputSchema: Record<string, Json>, ctx: ReturnType<typeof contextFor>): Pick<ToolIR, "ask" | "questions"> {
  const ask = resolveAsk(tool, inputSchema, ctx);
  return { ...(ask ? { ask } : {}), ...(tool.questions === "before-task" || tool.questions === "one-at-a-time" ? { questions: tool.questions } : {}) };
}

/** The tool's task support and confirmation, normalized (`task: forbidden` is the same as none). */
function taskAndConfirm(tool: RawTool, inputSchema: Record<string, Json>, ctx: ReturnType<typeof contextFor>): Pick<ToolIR, "task" | "confirm"> {
  const out: Pick<ToolIR, "task" | "confirm"> = {};
  if (tool.task === "optional" || tool.task === "required") out.task = tool.task;
  const c: Json | undefined = tool.confirm;
  if (typeof c === "string") out.confirm = { message: c };
  else if (c && typeof c === "object" && !Array.isArray(c) && typeof c.message === "string") {
    const fields = resolveConfirmFields(tool, inputSchema, ctx);
    out.confirm = { message: c.message, ...(typeof c.inputKey === "string" ? { inputKey: c.inputKey } : {}), ...(fields ? { fields } : {}) };
  }
  return out;
}

export const DEFAULT_TASK_TTL_MS = 3_600_000;
export const DEFAULT_POLL_INTERVAL_MS = 1000;

function tasksOf(s: Record<string, Json>, tools: ToolIR[]): Pick<ServerIR, "tasks"> {
  if (!tools.some((t) => t.task)) return {};
  const t = isObject(s.tasks) ? s.tasks : {};
  const store = t.store === "file" || t.store === "redis" ? t.store : "memory";
  return {
    tasks: {
      store,
      ttlMs: typeof t.ttlMs === "number" ? t.ttlMs : DEFAULT_TASK_TTL_MS,
      pollIntervalMs: typeof t.pollIntervalMs === "number" ? t.pollIntervalMs : DEFAULT_POLL_INTERVAL_MS,
      ...(typeof t.maxPerPrincipal === "number" ? { maxPerPrincipal: t.maxPerPrincipal } : {}),
      ...(typeof t.maxTasks === "number" ? { maxTasks: t.maxTasks } : {}),
      ...(typeof t.maxResultBytes === "number" ? { maxResultBytes: t.maxResultBytes } : {}),
    },
  };
}

/** The spec file and the files it includes, with their sha256, sorted. */
function specInputs(spec: LoadedSpec): Record<string, string> {
  const inputs: Record<string, string> = { [spec.file]: spec.hash, ...spec.includes };
  return Object.fromEntries(Object.entries(inputs).sort(([a], [b]) => byCodeUnit(a, b)));
}

const objects = (list: Json | undefined): Record<string, Json>[] => (Array.isArray(list) ? list.filter(isObject) : []);
/** server.code's limits over their defaults (the spec schema has checked each is a number in range). */
function codeLimits(given: Json | undefined): CodeLimits {
  const limits: CodeLimits = { ...CODE_DEFAULTS };
  if (!isObject(given)) return limits;
  for (const [key, value] of Object.entries(given)) if (isLimit(key) && typeof value === "number") limits[key] = value;
  return limits;
}

const isLimit = (key: string): key is keyof CodeLimits => Object.hasOwn(CODE_DEFAULTS, key);

export function normalize(specs: LoadedSpec[], out: Diagnostic[] = []): ServerIR[] {
  const servers = specs.map((spec): ServerIR => {
    // The check has proved the shape: a server object and lists of objects.
    const doc = isObject(spec.doc) ? spec.doc : {};
    const s = isObject(doc.server) ? doc.server : {};
    const max = typeof s.maxOutputChars === "number" ? s.maxOutputChars : DEFAULT_MAX_OUTPUT_CHARS;
    const tools = objects(doc.tools).map((t, i) => normalizeTool(spec, t, i, max, out)).sort((a, b) => byCodeUnit(a.name, b.name));
    const prompts = objects(doc.prompts).map((p, i) => promptIR(spec, p, i, tools)).sort((a, b) => byCodeUnit(a.name, b.name));
    const resources = objects(doc.resources).map((r, i) => resourceIR(spec, r, i)).sort((a, b) => byCodeUnit(a.uri, b.uri));
    const templates = objects(doc.resourceTemplates).map((t, i) => resourceTemplateIR(spec, t, i, tools)).sort((a, b) => byCodeUnit(a.uriTemplate, b.uriTemplate));
    const inputs = specInputs(spec);
    return {
      name: String(s.name),
      version: String(s.version),
      ...(typeof s.title === "string" ? { title: s.title } : {}),
      ...(typeof s.instructions === "string" ? { instructions: s.instructions } : {}),
      maxOutputChars: max,
      ...normalizeHttp(s.http),
      ...(s.telemetry === "otlp" ? { telemetry: "otlp" as const } : {}),
      ...tasksOf(s, tools),
      ...(s.exposure === "catalog" || s.exposure === "code" ? { exposure: s.exposure } : {}),
      ...(s.exposure === "code" ? { code: codeLimits(s.code) } : {}),
      ...(typeof s.budget === "number" ? { budget: s.budget } : {}),
      tools,
      ...(prompts.length ? { prompts } : {}),
      ...(resources.length ? { resources } : {}),
      ...(templates.length ? { resourceTemplates: templates } : {}),
      origin: { file: spec.file, pointer: "" },
      inputs,
    };
  });
  return servers.sort((a, b) => byCodeUnit(a.name, b.name));
}
