// The loader of a document's file `$ref`s (a @scalar/json-magic bundle plugin): as the spec loader
// does for `@file`, only regular files under the document's own folder (links resolved first), each
// of at most REF_FILE_BYTES, are read; a FIFO, a device, a path out of the folder or an oversized file
// is recorded as a refusal, which readDocument reports by name.
import { realpathSync } from "node:fs";
import { dirname, isAbsolute, relative, resolve, sep } from "node:path";
import { parse as parseYaml } from "yaml";
import { readRegularFile, ReadRefused } from "../shared/read-bounded.js";
import { messageOf } from "../shared/object.js";

/** The largest document `kervan import` reads (GitHub's REST description is 13 MB of JSON). */
export const DOCUMENT_BYTES = 64 * 1024 * 1024;
/** The largest file one `$ref` may name. */
export const REF_FILE_BYTES = 16 * 1024 * 1024;

const URL_LIKE = /^(?:[a-z][a-z0-9+.-]*:|\/\/)/i;

function realOrResolved(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

const inside = (root: string, target: string) => {
  const rel = relative(root, target);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel));
};

/** Parses a referenced file as JSON or YAML. */
export function parseDocumentText(text: string): unknown {
  const body = text.replace(/^\uFEFF/, "");
  return /^\s*[{[]/.test(body) ? JSON.parse(body) : parseYaml(body, { maxAliasCount: 10000, merge: true });
}

/** A loader confined to the folder of `documentFile`; `refused` collects one sentence per file refused. */
export function confinedFileLoader(documentFile: string, refused: string[]) {
  const folder = realOrResolved(dirname(resolve(documentFile)));
  const shown = (path: string) => {
    const rel = relative(folder, resolve(path));
    return rel.startsWith("..") || isAbsolute(rel) ? resolve(path) : `./${rel.split(sep).join("/")}`;
  };
  return {
    type: "loader" as const,
    validate: (value: string) => !URL_LIKE.test(value) && !/^\s*[{[]/.test(value) && !value.includes("\n"),
    exec: async (value: string) => {
      const real = realOrResolved(value);
      if (!inside(folder, real)) {
        const via = real !== resolve(value) && inside(folder, resolve(value)) ? ` (it resolves to ${real})` : "";
        refused.push(`$ref ${shown(value)} is outside the document's folder${via}; kervan import reads only files under ${folder}`);
        return { ok: false as const };
      }
      let raw: string;
      try {
        raw = readRegularFile(real, REF_FILE_BYTES);
      } catch (e) {
        if (e instanceof ReadRefused) {
          refused.push(`$ref ${shown(value)} ${e.message}`);
          return { ok: false as const };
        }
        return { ok: false as const }; // missing or unreadable: reported as a $ref that points at nothing
      }
      try {
        return { ok: true as const, data: parseDocumentText(raw), raw };
      } catch (e) {
        refused.push(`$ref ${shown(value)} is not valid JSON or YAML: ${messageOf(e).split("\n")[0]}`);
        return { ok: false as const };
      }
    },
  };
}

