// Rules for every key and text in a spec (and the schema files it includes), whatever its place:
// - `__proto__` is refused by name. JavaScript objects treat that key as their prototype: object
//   literals, assignments and most client libraries drop it or turn it into something else, so a
//   property, header, query parameter or variable of that name could never be carried faithfully
//   from the spec to the generated server and from a client to the tool.
// - one text value is at most TEXT_LIMIT characters, so no single description or argument can make
//   the build (and every client that lists the tools) process megabytes.
import type { Diagnostic } from "../model/diagnostic.js";
import type { LoadedSpec } from "../model/spec.js";
import { escapePointer } from "../shared/pointer.js";
import { at } from "../shared/locate.js";

export const TEXT_LIMIT = 64 * 1024;

export function checkDocumentKeys(spec: LoadedSpec): Diagnostic[] {
  const out: Diagnostic[] = [];
  const text = (value: string, pointer: string, what: string) => {
    if (value.length > TEXT_LIMIT) out.push(at(spec, "KV208", `${what} is ${value.length} characters long; the limit for one text is ${TEXT_LIMIT}`, pointer, { atKey: what === "a key" }));
  };
  const visit = (node: unknown, pointer: string): void => {
    if (typeof node === "string") return text(node, pointer, "this text");
    if (Array.isArray(node)) return node.forEach((v, i) => visit(v, `${pointer}/${i}`));
    if (!node || typeof node !== "object") return;
    for (const [key, value] of Object.entries(node)) {
      const here = `${pointer}/${escapePointer(key)}`;
      if (key === "__proto__") {
        out.push(at(spec, "KV207", "'__proto__' cannot be used as a name: JavaScript objects treat it as their prototype, so it would not reach the server or the tool intact", here, { atKey: true, suggestion: "choose another name" }));
        continue;
      }
      text(key, here, "a key");
      visit(value, here);
    }
  };
  visit(spec.doc, "");
  return out;
}
