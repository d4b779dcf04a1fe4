import type { Json } from "../../templates/runtime/types.js";

/** sha256 of the schema's JSON text and the installed ajv's version (schema-hash.mjs). */
export function schemaHash(schema: Json): string;
