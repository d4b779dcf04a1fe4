// The manifest's, AUDIT.md's and the changelog's static resources. A resource is recorded by what it
// serves (uri, type, size, sha256, the file or inline text it comes from), never by its bytes, which
// are in the bundle. It runs nothing and reaches nothing at run time: its content was read at build.
// A removed resource is breaking (clients reading it fail); an added one, or changed content, is listed.
import type { Json } from "../../templates/runtime/types.js";
import type { ServerPlan } from "../model/plan.js";
import { code } from "../shared/markdown.js";
import { toJson } from "../shared/object.js";
import { pairByKey, same, type Change } from "./change.js";
import type { ManifestResource } from "./types.js";

export function manifestResources(plan: ServerPlan): ManifestResource[] | undefined {
  return plan.server.resources?.map((r) => ({
    uri: r.uri,
    name: r.name,
    ...(r.title !== undefined ? { title: r.title } : {}),
    ...(r.description !== undefined ? { description: r.description } : {}),
    mimeType: r.mimeType,
    encoding: r.blob !== undefined ? "blob" : "text",
    bytes: r.size,
    sha256: r.sha256,
    source: "file" in r.source ? `file ${r.source.file}` : "inline text",
  }));
}

export function renderResources(resources: ManifestResource[] | undefined): string[] {
  if (!resources?.length) return [];
  const out = [
    "## Resources",
    "",
    "Static resources: each was read (or written inline) when the server was generated and is served from the bundle;",
    "a resource runs nothing and reaches nothing, and never changes while the server runs (no subscriptions).",
    "",
  ];
  for (const r of [...resources].sort((a, b) => (a.uri < b.uri ? -1 : 1))) {
    out.push(`### ${code(r.uri)}${r.title ? ` — ${r.title}` : ""}`, "");
    if (r.description) out.push(r.description.replace(/\s+/g, " ").trim(), "");
    out.push(`- Name: ${code(r.name)}`, `- Serves: ${r.mimeType} as ${r.encoding}, ${r.bytes} bytes, sha256 ${code(r.sha256)}`, `- From: ${r.source}`, "");
  }
  return out;
}

export function diffResources(a: ManifestResource[] | undefined, b: ManifestResource[] | undefined): Change[] {
  const out: Change[] = [];
  for (const [uri, x, y] of pairByKey(a, b, (r) => r.uri)) {
    const path = ["Resource " + uri];
    if (!y) out.push({ path, change: "removed", breaking: "resource removed: clients reading it fail" });
    else if (!x) out.push({ path, change: "added", new: `${y.mimeType}, ${y.bytes} bytes` });
    else if (!same(toJson(x), toJson(y))) out.push({ path, change: "changed", old: toJson(x), new: toJson(y) });
  }
  return out;
}
