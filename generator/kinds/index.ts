// The registry of tool kinds. Adding a kind adds its two folders and one line here; the registry is
// typed by `KindConfigs`, so a kind that declares its config but is missing here does not compile.
import type { KindConfigs, KindName, ToolIR, ToolIRBase } from "../model/ir.js";
import { execKind } from "./exec/index.js";
import { httpKind } from "./http/index.js";
import { validateJsonKind } from "./validate_json/index.js";
import type { AnyKind, ToolKind } from "./types.js";

const REGISTRY: { [K in KindName]: ToolKind<any, KindConfigs[K], any> } = {
  exec: execKind,
  http: httpKind,
  validate_json: validateJsonKind,
};

// Kinds added at run time (a plug-in, or a test's fixture kind): same seam, checked at run time only.
const added: AnyKind[] = [];

for (const [key, kind] of Object.entries(REGISTRY)) if (kind.key !== key) throw new Error(`kind '${kind.key}' is registered as '${key}'`);

/** The kinds of this registry, without those added at run time. */
export function registeredKinds(): AnyKind[] {
  return Object.values(REGISTRY);
}

/** Every kind, registered ones first, each once. */
export function allKinds(): AnyKind[] {
  return [...Object.values(REGISTRY), ...added];
}

/** Adds a kind defined outside generator/kinds (its key must be new). */
export function addKind(kind: AnyKind): void {
  if (allKinds().some((k) => k.key === kind.key)) throw new Error(`tool kind '${kind.key}' is already defined`);
  added.push(kind);
}

/** The kinds whose key a tool entry carries (exactly one in a valid spec). */
export function kindOf(tool: Record<string, unknown>): AnyKind[] {
  return allKinds().filter((k) => k.key in tool);
}

/** The definition of a normalized tool's kind. */
export function kindFor(tool: { kind: string }): AnyKind {
  const kind = allKinds().find((k) => k.key === tool.kind);
  if (!kind) throw new Error(`unknown tool kind '${tool.kind}'`);
  return kind;
}

/** The definition of a kind by name, when it exists (older manifests may name a kind no longer known). */
export const findKind = (key: string): AnyKind | undefined => allKinds().find((k) => k.key === key);

/**
 * The modules emitted code imports and the file each resolves to (relative to the package root):
 * the runtime core and each kind's runtime. Declared here once, for the bundler and for the
 * tsconfig emitted beside every server's sources.
 */
export function runtimeModules(): Record<string, string> {
  // @kervan/telemetry is the OpenTelemetry module, imported only by servers whose spec turns telemetry on.
  const modules: Record<string, string> = { "@kervan/runtime": "templates/runtime/index.ts", "@kervan/telemetry": "templates/runtime/telemetry/otlp.ts" };
  for (const kind of allKinds()) modules[`@kervan/kinds/${kind.key}`] = `${kind.runtime.dir}/index.ts`;
  for (const kind of allKinds()) if (kind.runtime.startup) modules[`@kervan/startup/${kind.key}`] = `${kind.runtime.dir}/${kind.runtime.startup}`;
  // Tasks and confirmations, and each task store: imported only by servers that use them.
  modules["@kervan/tasks"] = "templates/runtime/tasks/entry/index.ts";
  modules["@kervan/task-store-file"] = "templates/runtime/tasks/entry/file.ts";
  modules["@kervan/task-store-redis"] = "templates/runtime/tasks/entry/redis.ts";
  // The catalog tools (server.exposure: catalog), with their search and its stemmer.
  modules["@kervan/catalog"] = "templates/runtime/catalog/index.ts";
  // Code mode (server.exposure: code): the catalog's tools plus execute, with the QuickJS engine.
  modules["@kervan/codemode"] = "templates/runtime/codemode/index.ts";
  // The URI template matcher (uri-template-lite), for servers whose spec has resource templates.
  modules["@kervan/resource-templates"] = "templates/runtime/resource-templates/index.ts";
  return modules;
}

/** A normalized tool: the one place where a kind's config joins the union typed by kind name. */
export function toolIR<C>(kind: ToolKind<any, C, any>, base: ToolIRBase, config: C): ToolIR {
  return { ...base, kind: kind.key, config } as ToolIR;
}
