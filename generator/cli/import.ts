// `kervan import FILE [--name SERVER] [--out SPECFILE] [--include-tags T,...] [--include-ops ID,...]
// [--exclude-ops ID,...] [--profile P] [--max-tools N] [--include-deprecated] [--exposure tools|catalog] [--resource-templates] [--no-hoist] [--full-text] [--accept]`.
// Exit 0: written (or unchanged); 1: refused (a named reason) or a breaking re-import without --accept.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { importOpenApi, ImportError, shownPath, type ImportOptions } from "../import/importer.js";
import { reimportOptions, type Given } from "../import/recorded.js";
import { reimportChangelog } from "../import/reimport.js";
import { PROFILES, type Profile } from "../import/names.js";
import { UsageError } from "./sources.js";
import { optionValue, type Command } from "./command.js";
import { record, refused } from "./output.js";

type Options = Map<string, string | true>;
const list = (v: string | true | undefined) => (typeof v === "string" ? v.split(",").map((s) => s.trim()).filter(Boolean) : undefined);

/** The options the command itself gives (a re-import takes the rest from the spec's record). */
export function givenOptions(options: Options): Given {
  const maxText = options.get("--max-tools");
  const maxTools = maxText === undefined ? undefined : Number(maxText);
  if (maxTools !== undefined && (!Number.isInteger(maxTools) || maxTools < 1)) throw new UsageError("--max-tools takes a positive whole number");
  const given: Given = {};
  const put = <K extends keyof Given>(key: K, value: Given[K]) => {
    if (value !== undefined) given[key] = value;
  };
  put("name", optionValue(options, "--name"));
  put("profile", optionValue(options, "--profile"));
  put("includeTags", list(options.get("--include-tags")));
  put("includeOps", list(options.get("--include-ops")));
  put("excludeOps", list(options.get("--exclude-ops")));
  put("exposure", optionValue(options, "--exposure"));
  put("maxTools", maxTools);
  put("includeDeprecated", options.has("--include-deprecated") || undefined);
  put("resourceTemplates", options.has("--resource-templates") || undefined);
  put("hoist", options.has("--no-hoist") ? false : undefined);
  put("fullText", options.has("--full-text") || undefined);
  return given;
}

const isProfile = (p: string): p is Profile => Object.hasOwn(PROFILES, p);

function checkProfile(given: Given): Given {
  const profile = given.profile ?? "generic";
  if (!isProfile(profile)) throw new UsageError(`--profile must be one of ${Object.keys(PROFILES).join(", ")}`);
  if (given.exposure !== undefined && given.exposure !== "tools" && given.exposure !== "catalog") throw new UsageError("--exposure must be tools or catalog");
  if (given.resourceTemplates && given.exposure === "catalog") throw new UsageError("--resource-templates reads through listed tools; it does not go with --exposure catalog");
  return given;
}

/** The importer's options: the given ones, checked, with the profile and exposure typed as it takes them. */
function importOptions(file: string, given: Given, out: string | undefined): ImportOptions {
  const { profile, exposure, ...rest } = checkProfile(given);
  return {
    file,
    ...rest,
    ...(profile !== undefined && isProfile(profile) ? { profile } : {}),
    ...(exposure === "tools" || exposure === "catalog" ? { exposure } : {}),
    ...(out ? { out } : {}),
  };
}

const sameOptions = (a: Given, b: Given) => JSON.stringify(Object.entries(a).sort()) === JSON.stringify(Object.entries(b).sort());

async function importSpec(positional: string[], options: Options): Promise<number> {
  if (positional.length !== 1) throw new UsageError("import takes one API description file (OpenAPI 3.0/3.1 or Swagger 2.0, YAML or JSON)");
  const file = positional[0];
  const command = checkProfile(givenOptions(options));
  const outOption = optionValue(options, "--out");
  const run = (given: Given) => importOpenApi(importOptions(file, given, outOption));
  let result;
  try {
    // A re-import reuses the options recorded in the spec it rewrites (recorded.ts).
    let given = outOption && existsSync(outOption) ? reimportOptions(outOption, readFileSync(outOption, "utf8"), shownPath(file), command) : command;
    result = await run(given);
    const out = outOption ?? `specs/${result.server}.yaml`;
    if (!outOption && existsSync(out)) {
      const merged = reimportOptions(out, readFileSync(out, "utf8"), shownPath(file), command);
      if (!sameOptions(merged, given)) result = await run((given = merged));
    }
  } catch (e) {
    if (!(e instanceof ImportError)) throw e;
    refused("import", e.reason, e.message);
    return 1;
  }
  const out = outOption ?? `specs/${result.server}.yaml`;
  record({ spec: out, server: result.server, tools: result.tools.length, skipped: result.skipped });
  const report = [`kervan import: ${result.tools.length} tool${result.tools.length === 1 ? "" : "s"} written to ${out}`];
  if (result.skipped.length) report.push(`${result.skipped.length} operation${result.skipped.length === 1 ? "" : "s"} skipped:`, ...result.skipped.map((s) => `  ${s.operation}: ${s.reason}`));
  for (const w of result.warnings) process.stderr.write(`kervan import: warning: ${w}\n`);
  if (existsSync(out)) {
    const before = readFileSync(out, "utf8");
    if (before === result.text) {
      process.stderr.write(`kervan import: ${out} is unchanged (${result.tools.length} tools)\n`);
      return 0;
    }
    let diff;
    try {
      diff = reimportChangelog(out, before, result.text);
    } catch (e) {
      if (!(e instanceof ImportError)) throw e;
      refused("import", e.reason, e.message);
      return 1;
    }
    record({ breaking: diff.breaking, changes: diff.log.changes });
    process.stdout.write(diff.text);
    if (diff.breaking && !options.has("--accept")) {
      process.stderr.write(`kervan import: the new import breaks clients of ${out} (see BREAKING above); nothing written. Re-run with --accept to write it.\n`);
      return 1;
    }
  }
  mkdirSync(dirname(out) || ".", { recursive: true });
  writeFileSync(out, result.text);
  process.stderr.write(report.join("\n") + "\n");
  return 0;
}

export const importCommand: Command = {
  name: "import",
  summary: "write a spec from an OpenAPI 3.0/3.1 or Swagger 2.0 description (nothing fetched)",
  usage: ["import FILE [--name SERVER] [--out SPECFILE] [--include-tags T,...] [--include-ops ID,...] [--exclude-ops ID,...] [--profile generic|claude|openai|vscode|cursor] [--max-tools N] [--include-deprecated] [--exposure tools|catalog] [--resource-templates] [--no-hoist] [--full-text] [--accept]"],
  details: "On an existing --out, reuses the options recorded in it (those the command gives win), refuses a spec\nimported from another document, prints the changelog and exits 1 when the re-import breaks clients, unless --accept.",
  options: [
    { flag: "--name SERVER", help: "the server's name (default: from the description's title)" },
    { flag: "--out SPECFILE", help: "the spec to write (default: specs/SERVER.yaml)" },
    { flag: "--include-tags T,...", help: "only operations with one of these tags" },
    { flag: "--include-ops ID,...", help: "only these operationIds" },
    { flag: "--exclude-ops ID,...", help: "leave these operationIds out" },
    { flag: "--profile NAME", help: "tool-name rules of a client: generic, claude, openai, vscode or cursor" },
    { flag: "--max-tools N", help: "refuse a description with more operations than N" },
    { flag: "--include-deprecated", help: "keep deprecated operations" },
    { flag: "--exposure catalog", help: "serve every operation through three catalog tools (search, describe, call); no tool budget" },
    { flag: "--resource-templates", help: "also serve each GET whose inputs are all path parameters as a resource template" },
    { flag: "--no-hoist", help: "leave repeated subschemas in place instead of in each schema's $defs" },
    { flag: "--full-text", help: "keep the API's texts whole: sentences that only point to another page, media type lists, output schemas' descriptions" },
    { flag: "--accept", help: "write a re-import even when it breaks clients" },
  ],
  examples: ["kervan import petstore.yaml --name petstore --include-tags pets", "kervan import api.github.com.json --name github --exposure catalog"],
  run: (p) => importSpec(p.positional, p.options),
};
