// The variables of an RFC 6570 level 1-2 URI template, or why it is not one: read alike by the
// check (KV7xx), normalize and `kervan import --resource-templates`.
const EXPRESSION = /\{([^{}]*)\}/g;
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;
const LITERAL = /^(?:[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=]|%[0-9A-Fa-f]{2})*$/;

/** The variables of a level 1-2 template, or why it is not one. */
export function templateVariables(uriTemplate: string): { vars: string[] } | { problem: string } {
  if (!SCHEME.test(uriTemplate)) return { problem: "it needs a scheme first, as in file:///{+path} or docs://{name}" };
  const vars: string[] = [];
  let last = -1;
  for (const m of uriTemplate.matchAll(EXPRESSION)) {
    const body = m[1]!;
    if (!/^[+#]?[A-Za-z0-9_]{1,64}$/.test(body)) return { problem: `{${body}} is not a level 1-2 expression ({name}, {+name} or {#name}; no lists, prefixes or other operators)` };
    if (m.index === last) return { problem: `two expressions side by side before {${body}}: a URI could not show where one value ends` };
    const name = body.replace(/^[+#]/, "");
    if (vars.includes(name)) return { problem: `variable ${name} appears twice` };
    vars.push(name);
    last = m.index + m[0].length;
  }
  const literal = uriTemplate.replace(EXPRESSION, "");
  if (/[{}]/.test(literal)) return { problem: "a { or } stands outside an expression" };
  if (!LITERAL.test(literal)) return { problem: "its literal parts hold characters a URI does not (escape them as %XX)" };
  if (vars.length === 0) return { problem: "it has no {variable}: a fixed URI is a static resource (resources:)" };
  return { vars };
}
