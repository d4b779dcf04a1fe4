// @kervan/resource-templates: matching a URI against an RFC 6570 level 1-2 URI template
// (uri-template-matcher), bundled only into servers whose spec has resource templates. A match counts
// only when expanding the template with the decoded variables gives the URI back exactly: a simple
// `{var}` never takes a `/` or `?` (those need `{+var}`), no URI matches in two ways, and no variable
// is empty. Non-ASCII text compares as its UTF-8 escapes, as an IRI maps to a URI.
import { UriTemplateExpander, UriTemplateMatcher } from "uri-template-matcher";

interface Compiled {
  matcher: UriTemplateMatcher;
  expander: UriTemplateExpander;
}

const compiled = new Map<string, Compiled>();

function compiledOf(uriTemplate: string): Compiled {
  let c = compiled.get(uriTemplate);
  if (!c) {
    const matcher = new UriTemplateMatcher();
    matcher.add(uriTemplate);
    c = { matcher, expander: new UriTemplateExpander(uriTemplate) };
    compiled.set(uriTemplate, c);
  }
  return c;
}

/**
 * Non-ASCII characters as their UTF-8 %XX escapes (RFC 3987 section 3.1): the expander leaves them
 * raw in a `{+var}`, so `notes://caf%C3%A9` and `notes://café` name the same resource.
 */
const asciiOnly = (s: string) => s.replace(/[^\x00-\x7f]+/gu, (c) => encodeURIComponent(c));

/** The template's variables when `uri` is exactly one it expands to, decoded; undefined otherwise. */
export function matchTemplate(uriTemplate: string, uri: string): Record<string, string> | undefined {
  const { matcher, expander } = compiledOf(uriTemplate);
  let params: Record<string, unknown>;
  try {
    const found = matcher.match(uri);
    if (!found) return undefined;
    params = found.params;
  } catch {
    return undefined; // a malformed escape (%ZZ) names no resource
  }
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(params)) {
    if (typeof value !== "string" || value === "") return undefined;
    out[key] = value;
  }
  try {
    return asciiOnly(expander.expand(out)) === asciiOnly(uri) ? out : undefined;
  } catch {
    return undefined;
  }
}
