// The spec's `resources:` (MCP static resources): rules beyond kervan.schema.json (the normalized
// form: parts/resources.ts). A uri is an absolute URI (RFC 3986: a scheme, then only URI characters, `%` only as an escape)
// and unique in the server; a resource gives exactly one of `file` and `text`; a file of a textual
// MIME type is UTF-8 (it is served as text), any other type is served as a base64 blob. The file
// itself was read by the load stage (bounded, inside the spec's folder), which reports its problems.
import type { Json } from "../../templates/runtime/types.js";
import type { Diagnostic } from "../model/diagnostic.js";
import type { LoadedSpec } from "../model/spec.js";
import { at } from "../shared/locate.js";
import { checkList } from "./list-entries.js";
import { isTextual } from "../parts/resources.js";

type Obj = Record<string, Json>;

const URI = /^[A-Za-z][A-Za-z0-9+.-]*:(?:[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=]|%[0-9A-Fa-f]{2})+$/;

const utf8 = new TextDecoder("utf-8", { fatal: true });

function decodes(bytes: Buffer): boolean {
  try {
    utf8.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

function checkResource(spec: LoadedSpec, r: Obj, pointer: string, out: Diagnostic[]): void {
  if (typeof r.uri === "string" && !URI.test(r.uri)) {
    out.push(at(spec, "KV722", `resource uri '${r.uri}' is not an absolute URI: it needs a scheme (as in file:///notes.md or docs://guide) and only URI characters (escape others as %XX)`, `${pointer}/uri`));
  }
  const given = ["file", "text"].filter((k) => r[k] !== undefined);
  if (given.length !== 1) out.push(at(spec, "KV723", `a resource gives exactly one of file and text; this one gives ${given.length ? given.join(" and ") : "neither"}`, pointer));
  const read = spec.resourceFiles?.[`${pointer}/file`];
  if (read && typeof r.mimeType === "string" && isTextual(r.mimeType) && !decodes(Buffer.from(read.data, "base64"))) {
    out.push(at(spec, "KV724", `resource file ${read.path} is not UTF-8 text, but its mimeType ${r.mimeType} is served as text: give its binary type (such as application/octet-stream) to serve it as a blob`, `${pointer}/file`));
  }
}

export function checkResources(spec: LoadedSpec, resources: unknown, whole: (pointer: string) => boolean, out: Diagnostic[]): void {
  const check = (r: Obj, pointer: string) => checkResource(spec, r, pointer, out);
  checkList(spec, resources, { list: "resources", key: "uri", label: "resource uri", code: "KV721", check }, whole, out);
}
