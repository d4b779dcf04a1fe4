// The validate_json tool as data: name, description (at least as complete as the contract's
// listing), input and output schemas, annotations.

export const VALIDATE_JSON_NAME = "validate_json";
export const VALIDATE_JSON_TITLE = "Validate JSON against a schema";

export const VALIDATE_JSON_DESCRIPTION =
  "Validate candidate output text against a JSON Schema and say what is wrong. Answers {valid, feedback}: " +
  "when invalid, hand feedback back to the model and retry — it says where the document fails (JSON pointer " +
  "and keyword) and quotes the offending value, clipped to 200 characters; when valid, feedback is null. Use it " +
  "on any JSON a model produced before acting on it. output may be a bare JSON value; otherwise the first fenced " +
  "code block (json or unlabelled), else the first object or array in the text, is what gets validated; broken " +
  "JSON is never repaired, the feedback gives the parse position and a likely cause. $schema selects draft-04, " +
  "draft-06, draft-07, 2019-09 or 2020-12 (the default). $ref resolves only inside the one schema given (#, " +
  "#/..., #name): a remote reference or an embedded $id is refused with its own sentence, never fetched. format " +
  "is an annotation in 2019-09 and 2020-12. pattern is Python re syntax (not ECMA-262) without inline flags, " +
  "look-behind, backreferences, atomic, possessive or conditional groups or \\N{...}, and all of a document's " +
  "patterns share 500 ms: past that the answer is one refusal sentence naming the pattern that ran out, not a " +
  "partial validation. Refusals come back as tool errors. Reads nothing but its two arguments and writes nothing.";

export const VALIDATE_JSON_INPUT_SCHEMA = {
  type: "object",
  properties: {
    output: {
      type: "string",
      description: "The text to validate, as the model returned it: a JSON value, or prose holding a fenced code block or a JSON object/array.",
    },
    schema: {
      type: "object",
      description: "The JSON Schema object (draft-04 through 2020-12) the output must satisfy; `$ref` may only point inside it.",
    },
  },
  required: ["output", "schema"],
  additionalProperties: false,
} as const;

export const VALIDATE_JSON_OUTPUT_SCHEMA = {
  type: "object",
  properties: {
    valid: { type: "boolean", description: "True when the extracted JSON satisfies the schema." },
    feedback: {
      anyOf: [{ type: "string" }, { type: "null" }],
      description: "null when valid; otherwise where the document fails and the clipped offending value, to hand back to the model.",
    },
  },
  required: ["valid", "feedback"],
} as const;

export const VALIDATE_JSON_ANNOTATIONS = {
  title: VALIDATE_JSON_TITLE,
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
} as const;

export const validateJsonDefinition = {
  name: VALIDATE_JSON_NAME,
  title: VALIDATE_JSON_TITLE,
  description: VALIDATE_JSON_DESCRIPTION,
  inputSchema: VALIDATE_JSON_INPUT_SCHEMA,
  outputSchema: VALIDATE_JSON_OUTPUT_SCHEMA,
  annotations: VALIDATE_JSON_ANNOTATIONS,
} as const;
