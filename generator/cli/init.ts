// `kervan init [NAME] [--dir specs]`: a starter spec that builds cleanly under --strict, with the
// editor schema line and one tool of each kind to adapt or delete.
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { SERVER_NAME_PATTERN } from "../check/spec-schema.js";
import { editorSchemaPath } from "../shared/editor-schema.js";
import { UsageError } from "./sources.js";
import { optionValue, type Command } from "./command.js";

export function starterSpec(name: string, schemaPath: string): string {
  return `# yaml-language-server: $schema=${schemaPath}
# A starter spec: keep the tools you need, then run \`npx kervan gen\`.
server:
  name: ${name}
  version: 0.1.0
  title: ${name}
  instructions: >-
    Describe here, for the model, what this server is for and which tool to call first.

tools:
  # exec: a fixed local command, run without a shell; {field} inserts one checked input value.
  - name: count_lines
    title: Count lines
    description: >-
      Count the lines of one text file in the working directory (wc -l). Use it to see how
      large a file is before reading it.
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false }
    input:
      type: object
      properties:
        path: { type: string, description: "File to count, relative to the working directory." }
      required: [path]
      additionalProperties: false
    exec:
      argv: [wc, -l, --, "{path}"]
      timeoutMs: 10000
      paths: { fields: [path], allow: ["."], deny: [.git, .env] }

  # http: one request per call; the origin is fixed, inputs are encoded for their place.
  - name: get_time
    title: Current time
    description: >-
      Get the current date and time in an IANA time zone from a time API. Use it when the user
      asks what time it is somewhere.
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true }
    input:
      type: object
      properties:
        zone: { type: string, description: "IANA time zone, e.g. Europe/Istanbul." }
      required: [zone]
      additionalProperties: false
    http:
      method: GET
      baseUrl: https://timeapi.io
      baseUrlEnv: TIME_API_URL
      path: /api/time/current/zone
      query: { timeZone: "{{input.zone}}" }
      timeoutMs: 10000
    output:
      select: "{dateTime: dateTime, zone: timeZone}"
      schema:
        type: object
        properties:
          dateTime: { type: string }
          zone: { type: string }
        required: [dateTime]

  # validate_json: the built-in validator for model-produced JSON.
  - name: validate_json
    validate_json: {}
`;
}

function init(positional: string[], options: Map<string, string | true>): number {
  const name = positional[0] ?? "my-server";
  if (!new RegExp(SERVER_NAME_PATTERN).test(name)) throw new UsageError(`server name ${JSON.stringify(name)} must match ${SERVER_NAME_PATTERN}`);
  const dir = optionValue(options, "--dir") ?? "specs";
  const file = join(dir, `${name}.yaml`);
  if (existsSync(file)) throw new UsageError(`${file} already exists; choose another name`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(file, starterSpec(name, editorSchemaPath(dir)));
  process.stderr.write(`kervan: wrote ${file}\nnext: edit it, then \`kervan gen ${file}\` and \`node out/${name}/server.mjs\`\n`);
  return 0;
}

export const initCommand: Command = {
  name: "init",
  summary: "write a starter spec (specs/NAME.yaml) that builds cleanly under --strict",
  usage: ["init [NAME] [--dir DIR]"],
  details: "The spec has one tool of each kind (exec, http, validate_json) to adapt or delete, and the\nline that points editors at kervan.schema.json.",
  options: [{ flag: "--dir DIR", help: "folder for the spec (default: specs)" }],
  examples: ["kervan init weather && kervan gen specs/weather.yaml"],
  run: (p) => init(p.positional, p.options),
};
