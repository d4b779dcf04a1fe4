// The diagnostic codes common to every spec: their severity, what each means in one line, and
// where docs/diagnostics.md explains it. Each tool kind declares its own codes beside it
// (generator/kinds/<kind>/codes.ts); generator/kinds/codes.ts assembles the whole table. A test
// fails when code emits a code missing from it, and when a code has no bad-spec fixture.

export interface CodeInfo {
  code: string;
  severity: "error" | "warning";
  /** What the code means, in one line. */
  meaning: string;
  /**
   * For a code no small spec file can produce (an input of megabytes, a failure while emitting):
   * the test that produces it instead of a bad-spec fixture.
   */
  testedBy?: string;
}

const LIMITS_TEST = "test/load/spec-limits.test.ts";
/** A group of codes: one heading of docs/diagnostics.md. */
export interface CodeGroup {
  /** The codes' span, as the heading shows it (e.g. KV3xx). */
  range: string;
  title: string;
  codes: CodeInfo[];
}

export const e = (code: string, meaning: string, testedBy?: string): CodeInfo => ({ code, severity: "error", meaning, ...(testedBy ? { testedBy } : {}) });
export const w = (code: string, meaning: string): CodeInfo => ({ code, severity: "warning", meaning });

export const COMMON_CODE_GROUPS: CodeGroup[] = [
  {
    range: "KV1xx",
    title: "Reading the spec",
    codes: [
      e("KV101", "the spec is not valid YAML or JSON (syntax, duplicate keys)"),
      e("KV102", "an `@file` reference (a schema, a prompt's image) cannot be read"),
      e("KV103", "the spec file is larger than 4 MiB", LIMITS_TEST),
      e("KV104", "an `@file` path is absolute or leads outside the spec's folder (links included)"),
      e("KV105", "an `@file` target (a schema, a prompt's image) is not a regular file, or is larger than 1 MiB", LIMITS_TEST),
      e("KV106", "an `@file` target holds no JSON Schema (an object or a boolean)"),
      e("KV107", "YAML aliases expand past the limit, refer to themselves, or have no anchor"),
      e("KV108", "a YAML key that is a list or a mapping, or a merge key (`<<`) on anything but a mapping"),
    ],
  },
  {
    range: "KV2xx",
    title: "The spec's shape (kervan.schema.json)",
    codes: [
      e("KV200", "a value breaks another rule of the spec format (a maximum, say)"),
      e("KV201", "an unknown property (with the closest known one suggested)"),
      e("KV202", "a required property is missing"),
      e("KV203", "a value has the wrong type"),
      e("KV204", "a name does not match its pattern (server and tool names)"),
      e("KV205", "a value is below its minimum, or a string or list is too short"),
      e("KV206", "a value is not one of the allowed ones"),
      e("KV207", "`__proto__` used as a name (it could not reach the server intact)"),
      e("KV208", "one text or key is longer than 64 Ki characters"),
    ],
  },
  {
    range: "KV4xx",
    title: "Tools in general",
    codes: [
      e("KV401", "a tool has no kind, or more than one"),
      e("KV402", "a tool that needs a description has none"),
      e("KV403", "an input schema's type is not `object`"),
      e("KV404", "two specs use the same server name"),
      e("KV405", "two tools of a server have the same name"),
      e("KV433", "`task`, `confirm`, `ask` or `questions` on a tool whose kind answers at once and changes nothing"),
      e("KV434", "a confirmation message or question names something that is not an input of the tool"),
      e("KV435", "an asked input is not a property of the tool's input schema"),
      e("KV436", "an asked input is required by the input schema, so it is never left out to be asked"),
      e("KV437", "an asked input is not what an elicitation form asks for (a string, number, integer or boolean, a choice among strings, a multiple choice)"),
      e("KV438", "an asked input has the confirmation's input request id, or shares its request id with another that is not in the same form (a sampled or roots input, or another message)"),
      e("KV439", "`questions` on a tool that does not run as a task or asks nothing, or one-at-a-time without `ask`"),
      e("KV440", "an input asked from sampling (`sample:`) or the client's roots (`roots: true`) is not of type string"),
      e("KV441", "a confirmation field (`confirm: {fields}`) is not an input property of the tool, is named `confirm` (the form's tick box), or is also asked (`ask:`)"),
      e("KV442", "a confirmation field is not what an elicitation form shows (a string, number, integer or boolean, a choice among strings, a multiple choice)"),
    ],
  },
  {
    range: "KV5xx",
    title: "Schema limits (every schema in a spec)",
    codes: [
      e("KV501", "a `$ref` leaves the document"),
      e("KV502", "a `$ref` points at nothing in the schema"),
      e("KV503", "`$id` or a dynamic reference keyword"),
      e("KV504", "the schema nests deeper than 32 levels"),
      e("KV505", "the schema has more than 2,000 subschemas"),
      e("KV506", "the schema uses more than 64 anyOf/oneOf/allOf keywords"),
      e("KV507", "the schema is more than 64 KiB of JSON"),
      e("KV508", "a pattern is longer than 512 characters"),
      e("KV509", "`$schema` is not JSON Schema 2020-12"),
      e("KV510", "the schema does not compile in strict mode (unknown keyword, bad regular expression)"),
      e("KV511", "a subschema is neither an object nor a boolean"),
      e("KV512", "an `x-mcp-header` declaration breaks the MCP rules"),
      w("KV513", "a pattern means something else to clients that validate with Python's `re`"),
      e("KV514", "a `$ref` loop that reads no deeper into the value"),
      e("KV515", "TypeScript types cannot be derived from the schema", LIMITS_TEST),
    ],
  },
  {
    range: "KV6xx",
    title: "Tool-definition lint (warnings; errors under `--strict`; see docs/audit.md)",
    codes: [
      w("KV601", "every tool has a description"),
      w("KV602", "the description is long enough to say what the tool does"),
      w("KV603", "the description says more than the tool's name"),
      w("KV604", "the description says when to use the tool"),
      w("KV605", "every input property has a description"),
      w("KV606", "the spec states the tool's annotations"),
      w("KV607", "the annotations agree with what the tool visibly does"),
      w("KV608", "a tool returning structured data declares an output schema"),
      w("KV609", "tool names follow one naming style"),
      w("KV610", "no two tools have near-identical names or descriptions"),
      w("KV611", "a server has a manageable number of tools"),
      w("KV612", "a tool that runs local commands runs them under the OS sandbox (not `sandbox: none`)"),
      w("KV613", "the tools/list listing fits the server's token budget (`server.budget`, o200k_base tokens)"),
    ],
  },
  {
    range: "KV7xx",
    title: "Prompts and resources",
    codes: [
      e("KV701", "a prompt name is used twice"),
      e("KV702", "a prompt declares an argument twice"),
      e("KV703", "a message template or question names something that is not an argument of its prompt"),
      e("KV704", "a prompt message gives none, or more than one, of text, resource and image"),
      e("KV705", "an asked argument is not an argument of the prompt"),
      e("KV706", "an asked argument is required, so it is never left out to be asked"),
      e("KV707", "two asked arguments of a prompt share an input request id"),
      e("KV708", "a prompt message's image file is not a PNG, JPEG, GIF or WebP image"),
      e("KV721", "a resource uri is used twice"),
      e("KV722", "a resource uri is not an absolute URI"),
      e("KV723", "a resource gives neither, or both, of file and text"),
      e("KV724", "a resource file of a textual MIME type is not UTF-8"),
      e("KV725", "a resource template's uriTemplate is not an RFC 6570 level 1-2 template of an absolute URI"),
      e("KV726", "a resource template's uriTemplate is used twice"),
      e("KV727", "a resource template or a completion names a tool that cannot serve it (missing, not exec or http, or with task, confirm or ask)"),
      e("KV728", "a resource template's variables are not its tool's inputs (a variable it does not take, or a required input no variable gives)"),
      e("KV729", "a completion names a variable its resource template does not have"),
    ],
  },
];

/** The heading anchor of a code in docs/diagnostics.md. */
export const anchorOf = (code: string): string => `docs/diagnostics.md#${code.toLowerCase()}`;

/** docs/diagnostics.md, rendered from a table of groups. */
export function renderCodesDoc(groups: CodeGroup[]): string {
  const out = [
    "<!-- Rendered from generator/shared/codes.ts and each kind's codes.ts by `npm run update-goldens`; a test keeps them equal. -->",
    "# Diagnostic codes",
    "",
    "Every problem `kervan gen` reports carries a code, its place in the spec (file:line:col and the",
    "JSON pointer) and a reason. Errors stop the build; warnings do not, unless `--strict` is given.",
    "Each code below has a spec under test/fixtures/bad-specs (or test/fixtures/lint) that produces it,",
    "or, where the input would be megabytes or the fault appears while emitting, a named test.",
    "",
  ];
  for (const group of groups) {
    out.push(`## ${group.range}: ${group.title}`, "", "| Code | Severity | Meaning |", "|---|---|---|");
    for (const c of group.codes) out.push(`| <a id="${c.code.toLowerCase()}"></a>${c.code} | ${c.severity} | ${c.meaning.replace(/\|/g, "\\|")}${c.testedBy ? ` (tested by ${c.testedBy})` : ""} |`);
    out.push("");
  }
  return out.join("\n");
}
