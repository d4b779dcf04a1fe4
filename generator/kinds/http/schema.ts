// The http block and the tool-level `output` block, as fragments of kervan.schema.json.
import type { Json } from "../../../templates/runtime/types.js";

const template: Json = { type: "string", description: "Text with {{input.FIELD}} and {{secrets.NAME}} placeholders." };
const positiveInt = (description: string): Json => ({ type: "integer", minimum: 1, description });

export const httpSchema: Record<string, Json> = {
  type: "object",
  description: "Call one HTTP endpoint. Scheme, host and port come from baseUrl alone; inputs reach the request only through templates encoded for their place.",
  additionalProperties: false,
  required: ["method", "baseUrl", "path"],
  properties: {
    method: { enum: ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD"] },
    baseUrl: { type: "string", pattern: "^https?://", description: "scheme://host[:port][/prefix], fixed: no placeholders." },
    baseUrlEnv: { type: "string", pattern: "^[A-Za-z_][A-Za-z0-9_]*$", description: "Environment variable that may replace baseUrl (tests, deployment)." },
    path: { type: "string", pattern: "^/", description: "Path template after baseUrl; a placeholder fills part of one segment and can never add '/', '?' or '#'." },
    query: {
      type: "object",
      description: "Query parameters: a template, {input, style} for an array input, or {input, map} to translate an enum value. A parameter whose optional input is absent is left out.",
      additionalProperties: {
        anyOf: [
          template,
          {
            type: "object",
            additionalProperties: false,
            required: ["input"],
            properties: {
              input: { type: "string", description: "The input field this parameter comes from." },
              style: { enum: ["repeat", "comma", "pipe", "space"], description: "How an array input is spread (default repeat)." },
              map: { type: "object", additionalProperties: { type: "string" }, description: "Input value -> the API's own value (e.g. metric: celsius)." },
            },
          },
        ],
      },
    },
    headers: { type: "object", additionalProperties: template, description: "Header templates; a value with CR, LF or NUL is refused at call time." },
    body: {
      type: "object",
      additionalProperties: false,
      description: "Either json (any JSON; a string that is exactly one placeholder inserts the typed value) or form (field templates).",
      properties: {
        json: { description: "The JSON body, built structurally." },
        form: { type: "object", additionalProperties: template },
      },
    },
    secrets: {
      type: "object",
      description: "Secrets by template name: read from `env` at startup, redacted from everything the tool returns.",
      additionalProperties: {
        type: "object",
        additionalProperties: false,
        required: ["env"],
        properties: { env: { type: "string", pattern: "^[A-Za-z_][A-Za-z0-9_]*$" }, required: { type: "boolean" } },
      },
    },
    timeoutMs: positiveInt("Whole-request budget in milliseconds (default 30000)."),
    maxResponseBytes: positiveInt("Response bodies larger than this are a tool error (default 1 MiB)."),
    redirects: { enum: ["none", "same-origin"], description: "Redirects are not followed unless same-origin ones are allowed." },
  },
};

export const outputSchema: Record<string, Json> = {
  type: "object",
  additionalProperties: false,
  description: "What the model sees: a JMESPath `select` over the JSON body (or `raw: true`), optionally checked by `schema`.",
  properties: {
    select: { type: "string", description: "JMESPath expression applied to the parsed, redacted body." },
    raw: { type: "boolean", description: "Return the body as text instead (image/* and audio/* answers become image or audio content)." },
    resource: { type: "boolean", description: "Return the body as an embedded resource: the request URL, its media type and the text (or base64 blob)." },
    link: { type: "boolean", description: "Return a resource link to the request URL (its media type and size) instead of the body, for a document the client fetches itself (a PDF, a page); refused when the URL carries a secret." },
    schema: { type: ["object", "string"], pattern: "^@", description: "JSON Schema of the selected value (or @file); it becomes structuredContent and the tool's outputSchema." },
  },
};

/** One query parameter as the schema accepts it: a template, or an input spread or mapped. */
export type HttpQueryBlock = string | { input: string; style?: "repeat" | "comma" | "pipe" | "space"; map?: Record<string, string> };

/** The spec's `http:` block, as `httpSchema` accepts it. */
export type HttpBlock = {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE" | "HEAD";
  baseUrl: string;
  baseUrlEnv?: string;
  path: string;
  query?: Record<string, HttpQueryBlock>;
  headers?: Record<string, string>;
  body?: { json?: Json; form?: Record<string, string> };
  secrets?: Record<string, { env: string; required?: boolean }>;
  timeoutMs?: number;
  maxResponseBytes?: number;
  redirects?: "none" | "same-origin";
};
