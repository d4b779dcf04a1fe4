// The manifest's audit facts for one server, built from the plan: per tool its definition (full
// schemas, so the changelog can compare versions), its effects, kind facts and limits;
// server-wide capabilities.
import type { ServerPlan } from "../model/plan.js";
import { kindFor } from "../kinds/index.js";
import { sha256 } from "../shared/hash.js";
import { toJson } from "../shared/object.js";
import { capabilitiesOf } from "./capabilities.js";
import type { ManifestPrompt, ManifestTool, Capabilities } from "./types.js";
import type { AuthDef } from "../../templates/runtime/auth/types.js";
import type { Json } from "../../templates/runtime/types.js";
import { descriptorTokens, type Counter } from "../catalog/listing.js";

/** `count`: the tokens of a descriptor's text (catalog/listing.ts; a build's counts come from its worker); without it, no sizes. */
export function manifestTools(plan: ServerPlan, count?: Counter): ManifestTool[] {
  const via = reachOf(plan.server.exposure);
  return plan.tools.map(({ tool: t }) => {
    const kind = kindFor(t);
    return {
      name: t.name,
      ...(t.title !== undefined ? { title: t.title } : {}),
      kind: t.kind,
      description: t.description,
      annotations: { ...t.annotations },
      inputSchema: t.inputSchema,
      inputSchemaSha256: sha256(JSON.stringify(t.inputSchema)),
      ...(t.outputSchema ? { outputSchema: t.outputSchema, outputSchemaSha256: sha256(JSON.stringify(t.outputSchema)) } : {}),
      maxOutputChars: t.maxOutputChars,
      ...(t.scopes ? { scopes: t.scopes } : {}),
      ...(t.task ? { task: t.task } : {}),
      ...(t.confirm ? { confirm: { message: t.confirm.message, ...(t.confirm.inputKey ? { inputKey: t.confirm.inputKey } : {}), ...(t.confirm.fields ? { fields: t.confirm.fields.map((f) => f.field) } : {}) } } : {}),
      ...(t.ask ? { ask: t.ask.map((a) => ({ ...a })) } : {}),
      ...(t.questions ? { questions: t.questions } : {}),
      config: t.config,
      effects: kind.effects(t),
      facts: kind.facts(t),
      // Under exposure: catalog a tool is reached through call_operation, under code through execute
      // (a program's api), listed only with expose: always.
      ...(via ? { reachedThrough: t.expose === "always" ? (`tools/list and ${via}` as const) : via } : {}),
      // Counted only for a manifest to write: a changelog between specs compares no sizes.
      ...(count ? { descriptorTokens: descriptorTokens(t, count) } : {}),
    };
  });
}

/** The server's capabilities: its tools' reach, plus the bearer token variables its spec names (server.http.auth). */
export function serverCapabilities(tools: ManifestTool[], server?: { http?: { auth?: AuthDef } }): Capabilities {
  return capabilitiesOf(tools, server?.http?.auth?.bearer?.tokens.map((t) => t.env) ?? []);
}

/** The server's prompts as the manifest records them (absent when it has none). */
export function manifestPrompts(plan: ServerPlan): ManifestPrompt[] | undefined {
  return plan.server.prompts?.map((p) => ({
    name: p.name,
    ...(p.title !== undefined ? { title: p.title } : {}),
    ...(p.description !== undefined ? { description: p.description } : {}),
    arguments: p.arguments.map((a) => ({ ...a })),
    ...(p.ask ? { ask: p.ask.map(({ field, message, inputKey }) => ({ field, message, ...(inputKey !== undefined ? { inputKey } : {}) })) } : {}),
    // An image is recorded by its type, size and hash: its bytes are in the bundle.
    messages: p.messages.map((m) => ({
      role: m.role,
      content: toJson(m.content.type === "image"
        ? { type: "image", mimeType: m.content.mimeType, bytes: Buffer.from(m.content.data, "base64").length, sha256: sha256(Buffer.from(m.content.data, "base64")) }
        : { ...m.content }),
    })),
  }));
}

/** The tool a catalog or code-mode server reaches its operations through; none for a flat server. */
function reachOf(exposure: string | undefined): "call_operation" | "execute" | undefined {
  return exposure === "catalog" ? "call_operation" : exposure === "code" ? "execute" : undefined;
}
