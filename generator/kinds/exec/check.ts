// Build-time rules for exec tools. Every problem is reported with its place; nothing stops early.
import type { Json } from "../../../templates/runtime/types.js";
import type { RawTool, RuleContext } from "../types.js";
import { checkInputSchema, checkPlaceholders, type ContractProblem, type ScalarType } from "./input-contract.js";
import { flatArgs, isGroup, parseArgTemplate, placeholderNames, type ArgEntry, type ArgPart } from "./template.js";
import { checkGroups, groupFields } from "./groups.js";
import { alwaysAsked } from "../../shared/asked.js";
import { outputPathProblem } from "../../../templates/kinds/exec/output-files.js";
import { isObject, stringsOf } from "../../shared/object.js";
import { serverSandbox } from "./normalize.js";
import type { ExecBlock } from "./schema.js";

/** Parses argv (plain templates and `{if, argv}` groups), reporting malformed templates; undefined when any is malformed. */
export function parseArgv(argv: readonly Json[], report: (message: string, pointer: string) => void): ArgEntry[] | undefined {
  let ok = true;
  const one = (arg: string, pointer: string): ArgPart[] => {
    const r = parseArgTemplate(arg);
    if ("error" in r) {
      report(r.error, pointer);
      ok = false;
      return [];
    }
    return r.parts;
  };
  const parsed = argv.map((entry, i): ArgEntry => {
    if (typeof entry === "string") return one(entry, `/${i}`);
    // The spec schema has checked the group's shape.
    const group = isObject(entry) ? entry : {};
    const args = Array.isArray(group.argv) ? group.argv : [];
    return { if: String(group.if), argv: args.map((a, j) => one(String(a), `/${i}/argv/${j}`)) };
  });
  return ok ? parsed : undefined;
}

export function checkExec(exec: ExecBlock, tool: RawTool, ctx: RuleContext): void {
  const at = (p: string) => `${ctx.pointer}${p}`;
  if (tool.output !== undefined) {
    ctx.report("KV309", "exec tools have a fixed output ({exitCode, stdout, stderr, ...}); 'output' is for http tools", `${ctx.pointer}/output`, { atKey: true });
  }
  const entries = parseArgv(exec.argv, (message, p) => ctx.report("KV301", message, at(`/exec/argv${p}`)));
  if (!entries) return;
  const command = entries[0];
  if (isGroup(command)) {
    ctx.report("KV302", "the command (argv[0]) must be fixed text, not a conditional group", at("/exec/argv/0"));
    return;
  }
  if (command.some((p) => typeof p !== "string") ) {
    ctx.report("KV302", "the command (argv[0]) must be fixed: a placeholder there would let input choose what runs", at("/exec/argv/0"));
  } else if (command.join("") === "") {
    ctx.report("KV303", "the command (argv[0]) must not be empty", at("/exec/argv/0"));
  }
  const argv = flatArgs(entries);
  const guards = groupFields(entries);
  const names = placeholderNames(argv.slice(1));
  const problems: ContractProblem[] = [];
  const inputPointer = at("/input");
  // Each argument with its place in the spec (inside a group: /argv/i/argv/j).
  const placed = entries.flatMap((e, i): [ArgPart[], string][] => (isGroup(e) ? e.argv.map((a, j): [ArgPart[], string] => [a, `/${i}/argv/${j}`]) : [[e, `/${i}`]]));
  let fields: Record<string, ScalarType> | undefined;
  if (typeof tool.input === "string") return; // an @file that could not be read; load reported it
  if (tool.input === undefined) {
    fields = Object.fromEntries(names.map((n) => [n, "string" as const]));
  } else {
    // An asked input (ask:) may be optional too: the user gives it before the command runs.
    const asked = alwaysAsked(tool.ask); // an optional: true one may be left out, like any optional input
    fields = checkInputSchema(tool.input, problems, new Set([...guards, ...asked]));
    const named = (name: string) => placed.find(([arg]) => arg.some((p) => typeof p !== "string" && p.field === name))?.[1];
    if (fields) checkPlaceholders(names, tool.input, problems, guards, (name) => (named(name) === undefined ? undefined : `/exec/argv${named(name)}`));
  }
  if (guards.length) checkGroups(entries, tool.input, fields, ctx);
  for (const p of problems) {
    ctx.report(p.code, p.message, (p.inTool ? ctx.pointer : inputPointer) + p.pointer, { atKey: p.atKey, ...(p.suggestion ? { suggestion: p.suggestion } : {}) });
  }
  if (fields && isObject(exec.paths)) checkPathFields(placed, fields, exec.paths, ctx);
  checkSandbox(exec, ctx);
  checkOutputFiles(exec, ctx);
  const envSet = isObject(exec.env) && isObject(exec.env.set) ? exec.env.set : undefined;
  if (envSet) {
    for (const name of Object.keys(envSet)) {
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) ctx.report("KV308", `'${name}' is not a valid environment variable name`, at(`/exec/env/set/${name}`), { atKey: true });
    }
  }
}

function checkPathFields(argv: [ArgPart[], string][], fields: Record<string, string>, paths: Record<string, Json>, ctx: RuleContext): void {
  const at = (p: string) => `${ctx.pointer}/exec/paths${p}`;
  (stringsOf(paths.fields) ?? []).forEach((field, i) => {
    if (!(field in fields)) {
      ctx.report("KV304", `path field '${field}' is not an input field used by argv`, at(`/fields/${i}`));
      return;
    }
    if (fields[field] !== "string") ctx.report("KV305", `path field '${field}' must have type string`, at(`/fields/${i}`));
    // The policy checks the decoded value, so the value must be the whole argument:
    // in `--file={path}` the command would see a different string than the one checked.
    argv.forEach(([arg, j]) => {
      const uses = arg.some((p) => typeof p !== "string" && p.field === field);
      if (uses && arg.length !== 1) {
        ctx.report("KV306", `path field '${field}' must be a whole argument, not part of ${JSON.stringify(arg.map((p) => (typeof p === "string" ? p : `{${p.field}}`)).join(""))}; split the option (e.g. "--file", "{${field}}")`, `${ctx.pointer}/exec/argv${j}`);
      }
    });
  });
  for (const key of ["allow", "deny"] as const) {
    const listed = paths[key];
    (Array.isArray(listed) ? listed : []).forEach((p, i) => {
      if (p === "") ctx.report("KV307", `an empty path in '${key}'`, at(`/${key}/${i}`));
    });
  }
}

const SANDBOX_KEYS = ["visible", "writable", "network", "processes", "fileSizeBytes", "cpuSeconds", "memoryBytes", "tmpBytes", "writableRunLater"];

/** The sandbox block: settings that mean nothing without it, and roots that would show everything. */
function checkSandbox(exec: Record<string, Json>, ctx: RuleContext): void {
  const at = (p: string) => `${ctx.pointer}/exec${p}`;
  const serverMode = serverSandbox(ctx.spec.doc);
  const mode = exec.sandbox ?? (serverMode === "none" ? "none" : "bubblewrap");
  if (mode === "none") {
    for (const key of SANDBOX_KEYS.filter((k) => exec[k] !== undefined)) {
      const where = exec.sandbox === "none" ? "this tool's `sandbox: none`" : "the server's `sandbox: none`";
      ctx.report("KV325", `'${key}' is a sandbox setting, but ${where} turns the sandbox off: nothing would enforce it`, at(`/${key}`), { atKey: true, suggestion: "remove it, or run the tool under the sandbox (`sandbox: bubblewrap`)" });
    }
  }
  if (mode !== "none" && Array.isArray(exec.writableRunLater)) {
    const names = exec.writableRunLater.filter((n): n is string => typeof n === "string");
    if (names.length) {
      const why = Array.isArray(exec.writable) && exec.writable.length ? "" : "; this tool has no writable root, so it changes nothing";
      ctx.report("KV332", `writableRunLater leaves ${names.join(", ")} writable: what the command plants there runs later outside the sandbox (a git hook, an editor task, a command on PATH)${why}`, at("/writableRunLater"), {
        atKey: true,
        severity: "warning",
        suggestion: "remove it unless the command must write there (a commit, an install)",
      });
    }
  }
  for (const key of ["visible", "writable"] as const) {
    const value = exec[key];
    const roots = Array.isArray(value) ? value : [];
    roots.forEach((r, i) => {
      if (typeof r === "string" && /^\/+$/.test(r)) {
        ctx.report("KV326", `the ${key} root '${r}' is the whole filesystem: the sandbox would confine nothing`, at(`/${key}/${i}`), { suggestion: "name the directories the command needs" });
      }
    });
  }
}

/** Declared output files: each a plain relative path inside the call's output directory, each once. */
function checkOutputFiles(exec: Record<string, Json>, ctx: RuleContext): void {
  if (!Array.isArray(exec.outputFiles)) return;
  const seen = new Set<string>();
  exec.outputFiles.forEach((f, i) => {
    const path = (f as { path?: Json } | null)?.path;
    if (typeof path !== "string") return; // the spec schema reported it
    const where = `${ctx.pointer}/exec/outputFiles/${i}/path`;
    const problem = outputPathProblem(path);
    if (problem) ctx.report("KV333", `the output file '${path}' ${problem}: a declared file must lie inside the call's output directory ($KERVAN_OUTPUT_DIR)`, where, { suggestion: "name it relative to the output directory, e.g. report.md or charts/a.png" });
    else if (seen.has(path)) ctx.report("KV333", `the output file '${path}' is declared twice`, where);
    seen.add(path);
  });
}
