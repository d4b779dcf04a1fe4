// The diagnostic codes of http tools (docs/diagnostics.md renders them under their own heading).
import { type CodeGroup, e } from "../../shared/codes.js";

export const HTTP_CODES: CodeGroup = {
  range: "KV411–KV432",
  title: "http tools",
  codes: [
    e("KV411", "an http template is malformed"),
    e("KV412", "a query parameter names an input that is no property"),
    e("KV413", "a `{{secrets.X}}` placeholder names an undeclared secret"),
    e("KV414", "an input placed in a template has a type that place cannot take"),
    e("KV415", "`baseUrl` holds a placeholder (scheme, host, port and prefix are fixed)"),
    e("KV416", "`baseUrl` has a query, fragment or credentials"),
    e("KV417", "the path has an empty segment (`//`), a `.` or `..` segment, or characters that need percent-encoding (a single-brace `{id}` among them: an input is `{{input.id}}`)"),
    e("KV418", "an input in the path is optional"),
    e("KV419", "a spread query parameter's input is not an array of scalars"),
    e("KV420", "a header name is not a valid token"),
    e("KV421", "a declared secret is used by no template"),
    e("KV422", "an input reaches no part of the request"),
    e("KV423", "a GET, HEAD or DELETE request has a body"),
    e("KV424", "a body gives both (or neither of) `json` and `form`"),
    e("KV425", "a JSON body key holds a placeholder"),
    e("KV426", "`output` gives more than one of select, raw, resource and link"),
    e("KV427", "`output` gives none of select, raw, resource and link"),
    e("KV428", "`output.select` is not valid JMESPath"),
    e("KV429", "a mapped query parameter does not map every value of its input's enum"),
    e("KV430", "a header the HTTP client sets itself (Host, Content-Length, ...)"),
    e("KV432", "an embedded resource or resource link output has an output schema"),
  ],
};
