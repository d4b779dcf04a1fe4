// The plain-data config the generator emits for one http tool. Every template is parsed at build
// time, so the place of each placeholder (path segment, query, header, body) is fixed here and the
// runtime picks the encoder by place; nothing is parsed from strings at call time.
import type { Json } from "../../runtime/types.js";
import type { NullPlan } from "./nulls.js";

/** One piece of a pre-parsed template: literal text, an input field, or a declared secret. */
export type Part = { lit: string } | { input: string } | { secret: string };

/**
 * A JSON body, built structurally: values are inserted as JSON values, never spliced into text.
 * - `{ json }`: a literal JSON value from the spec.
 * - `{ input }`: a whole-string placeholder (`"{{input.x}}"`): the typed input value itself.
 * - `{ secret }`: a whole-string secret placeholder: the secret as a JSON string.
 * - `{ text }`: a string mixing literals and placeholders: the rendered string.
 * - `{ object }` / `{ array }`: containers; keys are literal (entries keep spec order).
 * A member or element whose value is an absent optional input (or absent optional secret) is left out.
 */
export type JsonTemplate =
  | { json: Json }
  | { input: string }
  | { secret: string }
  | { text: Part[] }
  | { object: [key: string, value: JsonTemplate][] }
  | { array: JsonTemplate[] };

/** How an array input is spread into the query (OpenAPI names in brackets). */
export type ArrayStyle =
  | "repeat" // a=1&a=2 (form, explode)
  | "comma" //  a=1,2 (form, no explode; the comma is left raw, commas inside values are %2C)
  | "pipe" //   a=1%7C2 (pipeDelimited)
  | "space"; // a=1%202 (spaceDelimited)

/**
 * A query parameter or form field. Either a template (`value`), an array input (`array`), or an
 * input whose (enum) value is translated to the API's own word (`map`: metric -> celsius).
 * A template that references an absent optional input or absent optional secret is omitted as a
 * whole, so an absent value is never sent as an empty parameter.
 */
export type FieldSpec =
  | { name: string; value: Part[] }
  | { name: string; array: { input: string; style: ArrayStyle } }
  | { name: string; map: { input: string; values: Record<string, string> } };

export interface HeaderSpec {
  /** A valid header token, checked when the handler is created. */
  name: string;
  value: Part[];
}

export type BodySpec =
  | { kind: "json"; template: JsonTemplate }
  | { kind: "form"; fields: FieldSpec[] };

export interface SecretSpec {
  /** The name used in templates: `{{secrets.NAME}}`. */
  name: string;
  /** The environment variable it is read from, once, when the server starts. */
  env: string;
  /** A missing required secret stops the server at startup; an optional one may be absent. */
  required: boolean;
}

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE" | "HEAD";

export interface HttpToolConfig {
  /** The tool name, for error text. */
  tool: string;
  method: HttpMethod;
  /** scheme://host[:port] from the spec alone; no input ever reaches it. */
  origin: string;
  /**
   * An environment variable that may replace the base URL (origin + basePath), for tests and
   * deployment. Checked at startup: an absolute http(s) URL, no credentials, query or fragment.
   */
  originEnv?: string;
  /** A fixed path prefix ("" or "/v1"), no trailing slash; replaced by the override's path. */
  basePath: string;
  /**
   * One template per path segment, after basePath. Literal parts are sent as written (the
   * generator percent-encodes them; they must be valid segment characters without `/`); input and
   * secret parts are percent-encoded so they can never add `/`, `?` or `#`.
   */
  path: Part[][];
  query: FieldSpec[];
  headers: HeaderSpec[];
  body?: BodySpec;
  secrets: SecretSpec[];
  timeoutMs: number;
  maxResponseBytes: number;
  redirects: "none" | "same-origin";
  output: {
    /** The JMESPath expression; compiled once by the generator's emitted code (see compileSelect). */
    select?: string;
    /** Return the body as text instead of parsed JSON. */
    raw?: boolean;
    /** Return the body as an embedded resource (uri: the request URL, its media type, text or blob). */
    resource?: boolean;
    /** Return a resource link to the request URL (media type, size) instead of the body. */
    link?: boolean;
    /** With a schema, the value becomes structuredContent (validated by the protocol core). */
    hasSchema: boolean;
  };
}

/** A compiled select expression: takes the parsed, redacted body and returns the tool's value. */
export type SelectFn = (data: Json) => Json;

export interface HttpDeps {
  /** Required unless output.raw is true. */
  select?: SelectFn;
  /** The null members the output schema does not allow for optional properties, dropped from the value (nulls.ts). */
  nulls?: NullPlan;
  /** Where secrets and the override are read from; process.env by default (tests pass their own). */
  env?: Record<string, string | undefined>;
}
