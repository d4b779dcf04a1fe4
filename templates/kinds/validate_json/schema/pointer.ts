// $ref resolution confined to the one schema given: #, #/json/pointer, #anchor, or a URI that
// resolves (against a root $id) to the root document itself.
import { refusals, SchemaRefusal } from "./refusal.js";

export interface Target {
  schema: unknown;
  /** Location as a URI fragment, for feedback. */
  ptr: string;
}

export function escapeToken(key: string): string {
  return key.replace(/~/g, "~0").replace(/\//g, "~1");
}

/** The fragment (without '#') that `ref` names inside the root, or null when it points elsewhere. */
export function localFragment(ref: string, rootId: string | null): string | null {
  if (ref === "") return "";
  if (ref.startsWith("#")) return ref.slice(1);
  if (rootId === null) return null;
  try {
    const base = new URL(rootId);
    const url = new URL(ref, base);
    const strip = (u: URL) => u.href.replace(/#.*$/, "");
    return strip(url) === strip(base) ? url.hash.slice(1) : null;
  } catch {
    return null; // rootId is not an absolute URI: nothing but #... can be local
  }
}

export function resolveRef(
  root: unknown,
  ref: string,
  at: string,
  rootId: string | null,
  anchors: Map<string, Target>,
): Target {
  const frag = localFragment(ref, rootId);
  if (frag === null) throw new SchemaRefusal(refusals.remoteRef(ref, at));
  let decoded: string;
  try {
    decoded = decodeURIComponent(frag);
  } catch {
    throw new SchemaRefusal(refusals.unresolvedRef(ref, at));
  }
  if (decoded === "") return { schema: root, ptr: "#" };
  if (!decoded.startsWith("/")) {
    const hit = anchors.get(decoded);
    if (!hit) throw new SchemaRefusal(refusals.unresolvedRef(ref, at));
    return hit;
  }
  let node: unknown = root;
  const tokens = decoded.slice(1).split("/").map((t) => t.replace(/~1/g, "/").replace(/~0/g, "~"));
  for (const t of tokens) {
    if (Array.isArray(node) && /^(0|[1-9][0-9]*)$/.test(t) && Number(t) < node.length) node = node[Number(t)];
    else if (typeof node === "object" && node !== null && !Array.isArray(node) && Object.hasOwn(node, t)) {
      node = (node as Record<string, unknown>)[t];
    } else throw new SchemaRefusal(refusals.unresolvedRef(ref, at));
  }
  if (typeof node !== "boolean" && (typeof node !== "object" || node === null || Array.isArray(node))) {
    throw new SchemaRefusal(refusals.unresolvedRef(ref, at));
  }
  return { schema: node, ptr: "#" + tokens.map((t) => "/" + escapeToken(t)).join("") };
}
