// Constants of the JSON Schema dialect and the MCP schema extensions the generator understands.

/** The only dialect a spec's schemas may declare. */
export const DRAFT_2020_12 = "https://json-schema.org/draft/2020-12/schema";

/**
 * `x-mcp-header` (MCP 2026-07-28, Streamable HTTP): a property whose value clients mirror into an
 * `Mcp-Param-{Name}` header. An annotation for clients: nothing for a validator to check.
 */
export const MCP_HEADER = "x-mcp-header";

/**
 * `enumNames` (MCP elicitation, LegacyTitledEnumSchema, deprecated in favour of oneOf with titles):
 * display names of a string enum's values in a form. An annotation: nothing for a validator to check.
 */
export const ENUM_NAMES = "enumNames";
