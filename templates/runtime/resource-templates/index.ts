// @kervan/resource-templates: matching a URI against an RFC 6570 level 1-2 URI template (uri-template-lite),
// bundled only into servers whose spec has resource templates. A match counts only when expanding the
// template with the decoded variables gives the URI back exactly: a simple `{var}` never takes a `/`
// or `?` (those need `{+var}`), no URI matches in two ways, and no variable is empty.
import UriTemplate from "uri-template-lite";

const compiled = new Map<string, UriTemplate>();

function templateOf(uriTemplate: string): UriTemplate {
  let t = compiled.get(uriTemplate);
  if (!t) {
    t = new UriTemplate(uriTemplate);
    compiled.set(uriTemplate, t);
  }
  return t;
}

/** The template's variables when `uri` is exactly one it expands to, decoded; undefined otherwise. */
export function matchTemplate(uriTemplate: string, uri: string): Record<string, string> | undefined {
  const t = templateOf(uriTemplate);
  let vars: Record<string, unknown> | null;
  try {
    vars = t.match(uri);
  } catch {
    return undefined;
  }
  if (!vars) return undefined;
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(vars)) {
    if (typeof value !== "string" || value === "") return undefined; // a resource names something
    out[key] = value;
  }
  return t.expand(out) === uri ? out : undefined;
}
