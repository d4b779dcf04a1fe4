// Reads an API description: a local YAML or JSON file and the local files its `$ref`s name, bundled
// into one document by @scalar/json-magic (a document whose references all point inside it needs no
// bundling and is taken as parsed), then upgraded (Swagger 2.0, OpenAPI 3.0) to OpenAPI 3.1 by
// @scalar/openapi-upgrader. Nothing is fetched: a URL `$ref` is refused by name, and a file `$ref`
// reads only a regular file under the document's folder (file-refs.ts).
import { resolve } from "node:path";
import { parse as parseYaml } from "yaml";
import { upgrade } from "@scalar/openapi-upgrader";
import { readRegularFile, ReadRefused } from "../shared/read-bounded.js";
import { confinedFileLoader, DOCUMENT_BYTES } from "./file-refs.js";
import { isObject, messageOf } from "../shared/object.js";

/** A document the importer cannot take, with a stable reason name (shown and counted by the corpus test). */
export class ImportError extends Error {
  constructor(readonly reason: string, message: string) {
    super(message);
  }
}

export type Doc = Record<string, any>;

/** Whether `v` is a mapping of the document (not null, not a list). */
export function isDoc(v: unknown): v is Doc {
  return isObject(v);
}

const URL_REF = /^(?:[a-z][a-z0-9+.-]*:|\/\/)/i;

function versionOf(doc: Record<string, unknown>, file: string): string {
  const v = doc.openapi ?? doc.swagger;
  if (typeof v !== "string" && typeof v !== "number") throw new ImportError("not-openapi", `${file} is not an OpenAPI or Swagger document (no 'openapi' or 'swagger' version field)`);
  const s = String(v);
  if (/^2\.0$/.test(s) || /^3\.[01]\.\d+$/.test(s) || /^3\.[01]$/.test(s)) return s;
  throw new ImportError("unsupported-version", `${file} is ${doc.openapi !== undefined ? "OpenAPI" : "Swagger"} ${s}; kervan import reads Swagger 2.0 and OpenAPI 3.0 and 3.1`);
}

/** Reads, bundles and upgrades one document; throws ImportError with a named reason. */
export async function readDocument(file: string): Promise<{ doc: Doc; version: string }> {
  let text: string;
  try {
    text = readRegularFile(file, DOCUMENT_BYTES);
  } catch (e) {
    throw new ImportError("unreadable", `cannot read ${file}${e instanceof ReadRefused ? `: it ${e.message}` : ""}`);
  }
  let top: unknown;
  try {
    top = /^\s*[{[]/.test(text) ? JSON.parse(text) : parseYaml(text, { maxAliasCount: 10000, merge: true });
  } catch (e) {
    const why = messageOf(e).split("\n")[0].replace(/:\s*$/, "");
    throw new ImportError("invalid-syntax", `${file} is not valid ${/^\s*[{[]/.test(text) ? "JSON" : "YAML"}: ${why}`);
  }
  if (!isObject<unknown>(top)) throw new ImportError("not-openapi", `${file} is not an OpenAPI or Swagger document (its top level is not a mapping)`);
  const version = versionOf(top, file);

  const bundled = onlyLocalRefs(top) ? top : await bundleFiles(file);
  let doc: unknown;
  try {
    doc = upgrade(bundled, "3.1");
  } catch (e) {
    throw new ImportError("upgrade-failed", `cannot read ${file} as OpenAPI 3.1: ${messageOf(e).split("\n")[0]}`);
  }
  if (!isDoc(doc) || typeof doc.paths !== "object" || doc.paths === null) {
    throw new ImportError("no-paths", `${file} describes no paths (operations)`);
  }
  return { doc, version };
}

/**
 * Whether every `$ref` in the document points inside it (`#...`): then there is nothing to bundle
 * (a same-document reference that points at nothing skips its operation, see refs.ts).
 */
function onlyLocalRefs(root: unknown): boolean {
  const stack: unknown[] = [root];
  while (stack.length) {
    const node = stack.pop();
    if (Array.isArray(node)) {
      for (const v of node) if (typeof v === "object" && v !== null) stack.push(v);
    } else if (isObject<unknown>(node)) {
      for (const k in node) {
        const v = node[k];
        if (typeof v === "object" && v !== null) stack.push(v);
        else if (k === "$ref" && typeof v === "string" && !v.startsWith("#")) return false;
      }
    }
  }
  return true;
}

/** Bundles a document and the local files its `$ref`s name into one; a URL or a missing file is refused by name. */
async function bundleFiles(file: string): Promise<Doc> {
  // Loaded only here: most documents have no file references, and their imports need not load it.
  const { bundle } = await import("@scalar/json-magic/bundle");
  const { parseJson, parseYaml: parseYamlPlugin } = await import("@scalar/json-magic/bundle/plugins/node");
  const urlRefs: string[] = [];
  const refused: string[] = [];
  const broken: string[] = [];
  // The bundler reports unresolvable references on the console as well; they are reported here instead.
  const quiet = { error: console.error, warn: console.warn };
  console.error = console.warn = () => undefined;
  let bundled: object;
  try {
    const refuseUrls = {
      type: "loader" as const,
      validate: (value: string) => URL_REF.test(value),
      exec: async (value: string) => {
        urlRefs.push(value);
        return { ok: false as const };
      },
    };
    bundled = await bundle(resolve(file), {
      plugins: [refuseUrls, confinedFileLoader(file, refused), parseJson(), parseYamlPlugin()],
      treeShake: false,
      hooks: { onResolveError: (node) => void broken.push(String(node.$ref)) },
    });
  } catch (e) {
    throw new ImportError("unreadable", `cannot bundle ${file}: ${messageOf(e).split("\n")[0]}`);
  } finally {
    console.error = quiet.error;
    console.warn = quiet.warn;
  }
  if (urlRefs.length) {
    const list = [...new Set(urlRefs)].sort();
    throw new ImportError("url-ref", `${file} has a $ref to a URL (${list.slice(0, 3).join(", ")}${list.length > 3 ? `, and ${list.length - 3} more` : ""}); kervan import never fetches anything: download it and refer to the local file`);
  }
  if (refused.length) {
    const list = [...new Set(refused)].sort();
    throw new ImportError("file-ref", `${file}: ${list.slice(0, 3).join("; ")}${list.length > 3 ? `; and ${list.length - 3} more` : ""}`);
  }
  const missing = [...new Set(broken.filter((r) => !URL_REF.test(r)))].sort();
  if (missing.length) throw new ImportError("broken-ref", `${file} has a $ref that points at nothing: ${missing.slice(0, 3).join(", ")}${missing.length > 3 ? `, and ${missing.length - 3} more` : ""}`);
  if (!isDoc(bundled)) throw new ImportError("unreadable", `cannot bundle ${file}: its top level is not a mapping`);
  return bundled;
}
