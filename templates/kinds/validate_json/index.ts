// The validate_json tool kind: definition, handler, the worker role the server entry must run first,
// and the pieces the generator reuses at build time (pattern translation, schema interpretation).
export { validateJsonDefinition, VALIDATE_JSON_DESCRIPTION, VALIDATE_JSON_INPUT_SCHEMA, VALIDATE_JSON_OUTPUT_SCHEMA, VALIDATE_JSON_ANNOTATIONS, VALIDATE_JSON_NAME, VALIDATE_JSON_TITLE } from "./definition.js";
export { createValidateJsonHandler, type ValidateJsonOptions, type ValidateJsonHandler } from "./handler.js";
export { runWorkerRoleIfAny } from "./matcher/worker.js";
export { translatePythonPattern, type PyRegexTranslation, type PyRegexRefusal, type PyRegexRefusalKind } from "./pyregex/translate.js";
export { patternRefusalSentence } from "./pyregex/sentences.js";
export { prepareSchema, type Prepared } from "./schema/prepare.js";
export { validateInstance, directRegex, type ValidationResult } from "./schema/validate.js";
export { formatFeedback, pointerOf } from "./schema/feedback.js";
export { SchemaRefusal } from "./schema/refusal.js";
export { extractJson, type Extraction } from "./extract.js";
