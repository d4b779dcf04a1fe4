// kervan: init | gen | serve | audit | deploy | changelog | import | schema | help. Exit codes: 0 ok, 1 drift or diagnostics, 2 usage errors.
import { spawn } from "node:child_process";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { generate } from "./pipeline.js";
import type { SourceFile } from "./model/spec.js";
import { formatAll } from "./cli/diagnostics.js";
import { readSources, UsageError } from "./cli/sources.js";
import { toolFlagsSource } from "./cli/tool-flags.js";
import { specSchema } from "./check/spec-schema.js";
import { generatorVersion } from "./manifest.js";
import { sha256 } from "./shared/hash.js";
import { auditCommand, changelogCommand } from "./cli/audit.js";
import { initCommand } from "./cli/init.js";
import { deployCommand, DEPLOY_OPTIONS } from "./cli/deploy.js";
import { importCommand } from "./cli/import.js";
import { SERVING_SWITCHES, SERVING_VALUE_FLAGS } from "../templates/runtime/serving-flags.js";

const USAGE = `kervan ${"<version>"}: MCP servers from YAML tool specs

Usage:
  kervan init [NAME] [--dir DIR]             write a starter spec (specs/NAME.yaml)
  kervan gen [SPEC|DIR ...] [--out DIR] [--check] [--strict] [--verbose]
  kervan gen [--out DIR] [--server-name NAME] [--server-version V] --tool --name N [OPTIONS] --exec CMD [ARG ...] [--tool ...]
  kervan serve SPEC [--http PORT] [--host HOST] [--auth none|oauth|bearer ...]   (serving flags: see a server's --help)
  kervan [serve] [--http PORT] [--server-name NAME] --tool --name N [OPTIONS] --exec CMD [ARG ...] [--tool ...]
  kervan audit [SERVER] [--out DIR]          print AUDIT.md of a generated server
  kervan changelog OLD NEW [--server NAME] [--out DIR]
                           compare two versions of a server (manifest files, server folders or git
                           revisions of DIR); exit 1 when a change is breaking
  kervan deploy SERVER --target docker|kubernetes|nginx [--out DIR] [--dest DIR] [--replicas N]
                           [--port P] [--drain-ms MS] [--drain-grace-ms MS] [--image NAME]
                           [--upstreams HOST:PORT,...] [--listen ADDR]
                           deployment artifacts (Dockerfile, Kubernetes manifests, nginx upstream)
  kervan schema            print kervan.schema.json (the spec format, for editors)
  kervan import FILE [--name SERVER] [--out SPECFILE] [--include-tags T,...] [--include-ops ID,...]
                [--exclude-ops ID,...] [--profile generic|claude|openai|vscode|cursor] [--max-tools N]
                [--include-deprecated] [--accept]
                           write a spec from an OpenAPI 3.0/3.1 or Swagger 2.0 description (nothing
                           fetched); on an existing --out, print the changelog and exit 1 when it
                           breaks clients, unless --accept

Tool options (CLI form, per --tool block):
  --name NAME  --title TEXT  --description TEXT  --input-schema JSON|@FILE  --cwd DIR
  --fs-path-field FIELD  --fs-root DIR  --fs-deny-path PATH        (repeatable)
  --env-pass NAME  --env-set NAME=VALUE                             (repeatable)
  --process-timeout-ms MS  --process-kill-grace-ms MS  --process-output-limit-bytes N
  --process-max-concurrency N  --process-queue N  --process-rate-limit-count N  --process-rate-limit-window-ms MS
  --process-progress-interval-ms MS
  --exec CMD [ARG ...]   argv until the next exact --tool; {field} inserts an input value
`;

interface Parsed {
  positional: string[];
  options: Map<string, string | true>;
  toolArgs: string[];
}

const VALUE_OPTIONS = new Set(["--out", "--server", "--http", "--host", "--server-name", "--server-version", "--dir", ...DEPLOY_OPTIONS, "--name", "--include-tags", "--include-ops", "--exclude-ops", "--profile", "--max-tools", ...SERVING_VALUE_FLAGS]);
const FLAG_OPTIONS = new Set(["--check", "--strict", "--verbose", "--help", "-h", "--accept", "--include-deprecated", ...SERVING_SWITCHES]);

function parseArgs(args: string[]): Parsed {
  const first = args.indexOf("--tool");
  const head = first < 0 ? args : args.slice(0, first);
  const parsed: Parsed = { positional: [], options: new Map(), toolArgs: first < 0 ? [] : args.slice(first) };
  for (let i = 0; i < head.length; i++) {
    const a = head[i];
    if (VALUE_OPTIONS.has(a)) {
      if (head[i + 1] === undefined) throw new UsageError(`${a} requires a value`);
      parsed.options.set(a, head[++i]);
    } else if (FLAG_OPTIONS.has(a)) parsed.options.set(a, true);
    else if (a.startsWith("--")) throw new UsageError(`unknown option ${a}`);
    else parsed.positional.push(a);
  }
  return parsed;
}

function sourcesFrom(p: Parsed, defaultSpecs: string[]): SourceFile[] {
  if (p.toolArgs.length) {
    if (p.positional.length) throw new UsageError("give either spec files or --tool blocks, not both");
    const name = (p.options.get("--server-name") as string) ?? "kervan-cli";
    const version = (p.options.get("--server-version") as string) ?? "0.1.0";
    return [toolFlagsSource(p.toolArgs, { name, version })];
  }
  return readSources(p.positional.length ? p.positional : defaultSpecs);
}

async function gen(p: Parsed): Promise<number> {
  const sources = sourcesFrom(p, ["specs"]);
  const outRoot = resolve((p.options.get("--out") as string) ?? "out");
  const check = p.options.has("--check");
  const result = await generate(sources, {
    outRoot,
    check,
    strict: p.options.has("--strict"),
    // Whole-folder runs own the output root; a run over some specs never deletes other servers.
    pruneServers: !p.toolArgs.length && p.positional.length === 0,
    progress: (server, ms, cached) => process.stderr.write(`kervan: ${server} ${cached ? "unchanged" : "generated"} in ${Math.round(ms)} ms\n`),
    ...(p.options.has("--verbose") ? { stageTime: (stage: string, ms: number) => process.stderr.write(`kervan: stage ${stage} ${ms.toFixed(1)} ms\n`) } : {}),
  });
  if (result.diagnostics.length) {
    const lines = new Map(sources.map((s) => [s.path, s.text.split(/\r?\n/)]));
    process.stderr.write(formatAll(result.diagnostics, lines));
  }
  if (!result.report) return 1;
  const r = result.report;
  if (check) {
    if (r.differing.length) {
      process.stderr.write(`kervan: generated output differs from what is checked in:\n${r.differing.map((f) => `  ${f}`).join("\n")}\nrun \`npm run gen\` and commit the result\n`);
      return 1;
    }
    process.stderr.write(`kervan: ${r.unchanged.length} files up to date, no drift\n`);
    return 0;
  }
  process.stderr.write(`kervan: ${r.written.length} written, ${r.unchanged.length} unchanged, ${r.deleted.length} deleted\n`);
  return 0;
}

async function serve(p: Parsed): Promise<number> {
  const sources = sourcesFrom(p, []);
  // Built into a cache folder named by the sources' hash: the next start with the same spec or
  // flags finds its manifest and skips every stage (the generator's fingerprint guards staleness).
  const key = sha256(JSON.stringify(sources.map((s) => [s.path, s.text])));
  const dir = join(tmpdir(), "kervan-serve", key.slice(0, 32));
  const result = await generate(sources, { outRoot: dir, check: false, pruneServers: false });
  if (result.diagnostics.length) process.stderr.write(formatAll(result.diagnostics, new Map(sources.map((s) => [s.path, s.text.split(/\r?\n/)]))));
  if (!result.report) return 1;
  if (result.servers.length !== 1) throw new UsageError(`serve runs one server; the specs describe ${result.servers.length}`);
  const args = [join(dir, result.servers[0], "server.mjs")];
  if (p.options.has("--http")) args.push("--http", p.options.get("--http") as string);
  if (p.options.has("--host")) args.push("--host", p.options.get("--host") as string);
  // Authorization, drain and log flags go to the server as they were given.
  for (const flag of SERVING_VALUE_FLAGS) if (p.options.has(flag)) args.push(flag, p.options.get(flag) as string);
  for (const flag of SERVING_SWITCHES) if (p.options.has(flag)) args.push(flag);
  const child = spawn(process.execPath, args, { stdio: "inherit" });
  for (const sig of ["SIGINT", "SIGTERM"] as const) process.on(sig, () => child.kill(sig));
  return await new Promise<number>((done) => child.on("exit", (code, signal) => done(code ?? (signal ? 1 : 0))));
}

async function main(argv: string[]): Promise<number> {
  // `kervan --tool ... --exec ...` with no command serves, as the seed's CLI form does.
  if (argv[0] === "--tool") argv = ["serve", ...argv];
  const [command, ...rest] = argv;
  const usage = USAGE.replace("<version>", generatorVersion());
  if (!command || command === "help" || command === "--help" || command === "-h") {
    process.stdout.write(usage);
    return command ? 0 : 2;
  }
  if (command === "--version" || command === "-V") {
    process.stdout.write(`${generatorVersion()}\n`);
    return 0;
  }
  const p = parseArgs(rest);
  if (p.options.has("--help") || p.options.has("-h")) {
    process.stdout.write(usage);
    return 0;
  }
  if (command === "init") return initCommand(p.positional, p.options);
  if (command === "gen") return gen(p);
  if (command === "serve") return serve(p);
  if (command === "audit") return auditCommand(p.positional, p.options);
  if (command === "deploy") return deployCommand(p.positional, p.options);
  if (command === "changelog") return changelogCommand(p.positional, p.options);
  if (command === "import") return importCommand(p.positional, p.options);
  if (command === "schema") {
    process.stdout.write(JSON.stringify(specSchema(), null, 2) + "\n");
    return 0;
  }
  throw new UsageError(`unknown command ${JSON.stringify(command)}`);
}

main(process.argv.slice(2)).then(
  (code) => (process.exitCode = code),
  (e: unknown) => {
    if (e instanceof UsageError) {
      process.stderr.write(`kervan: ${e.message}\n(run \`kervan help\` for usage)\n`);
      process.exitCode = 2;
    } else {
      // An internal failure, not a bad spec: keep the stack, it is a bug report.
      process.stderr.write(`kervan: internal error: ${(e as Error)?.stack ?? e}\n`);
      process.exitCode = 70;
    }
  },
);
