// A checked static resource read into its IR (normalize): its content as text or base64.
import type { Json } from "../../templates/runtime/types.js";
import type { ResourceIR } from "../model/ir.js";
import type { LoadedSpec } from "../model/spec.js";
import { sha256 } from "../shared/hash.js";

type Obj = Record<string, Json>;

/** MIME types served as text: text/*, and the JSON, XML, YAML, TOML and script types (with +json/+xml/+yaml). */
export function isTextual(mimeType: string): boolean {
  const m = mimeType.toLowerCase();
  return m.startsWith("text/") || /^application\/(json|xml|yaml|x-yaml|toml|javascript|ecmascript|sql|graphql|x-sh)$/.test(m) || /\+(json|xml|yaml)$/.test(m);
}

/** A checked resource, normalized (sorted by the caller): its content as text or base64. */
export function resourceIR(spec: LoadedSpec, r: Obj, index: number): ResourceIR {
  const mimeType = String(r.mimeType);
  const read = spec.resourceFiles?.[`/resources/${index}/file`];
  const bytes = read ? Buffer.from(read.data, "base64") : Buffer.from(String(r.text), "utf8");
  const content = read && !isTextual(mimeType) ? { blob: read.data } : { text: bytes.toString("utf8") };
  return {
    uri: String(r.uri),
    name: String(r.name),
    ...(typeof r.title === "string" ? { title: r.title } : {}),
    ...(typeof r.description === "string" ? { description: r.description } : {}),
    mimeType,
    size: bytes.length,
    ...content,
    sha256: read ? read.sha256 : sha256(bytes),
    source: read ? { file: read.path } : { inline: true },
    origin: { file: spec.file, pointer: `/resources/${index}` },
  };
}
