// `kervan audit [SERVER] [--out DIR]` and `kervan changelog OLD NEW [--server NAME] [--out DIR]`.
// OLD and NEW are manifest files, server folders, or git revisions of the output folder.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { generatedServers, MANIFEST } from "../manifest.js";
import { AUDIT, renderAudit } from "../audit/render.js";
import { changelog } from "../audit/changelog.js";
import { renderChangelog } from "../audit/changelog-render.js";
import type { Manifest } from "../audit/types.js";
import { UsageError } from "./sources.js";
import { optionValue, type Command } from "./command.js";
import { isObject } from "../shared/object.js";
import { record } from "./output.js";

type Options = Map<string, string | true>;

function servers(outDir: string): string[] {
  if (!existsSync(outDir)) throw new UsageError(`no output folder ${outDir} (run \`kervan gen\` first)`);
  return generatedServers(outDir);
}

function parseManifest(text: string, from: string): Manifest {
  try {
    const m = JSON.parse(text);
    if (m && Array.isArray(m.tools) && m.server) return m;
  } catch {
    // reported below
  }
  throw new UsageError(`${from} is not a kervan.manifest.json`);
}

/** Prints AUDIT.md of one server, or of every server under the output folder. */
function audit(positional: string[], options: Options): number {
  const outDir = optionValue(options, "--out") ?? "out";
  if (positional.length > 1) throw new UsageError("audit takes at most one server name");
  const names = positional.length ? positional : servers(outDir);
  const texts = names.map((name) => {
    const dir = join(outDir, name);
    if (!existsSync(join(dir, MANIFEST))) throw new UsageError(`no generated server ${name} under ${outDir} (have: ${servers(outDir).join(", ") || "none"})`);
    if (existsSync(join(dir, AUDIT))) return readFileSync(join(dir, AUDIT), "utf8");
    // Generated before AUDIT.md existed: render it from the manifest.
    const m = parseManifest(readFileSync(join(dir, MANIFEST), "utf8"), join(dir, MANIFEST));
    return renderAudit(m, Object.keys(m.inputs ?? {})[0] ?? "its spec");
  });
  record({ servers: names });
  process.stdout.write(texts.join("\n"));
  return 0;
}

function load(ref: string, server: string | undefined, outDir: string): Manifest {
  if (existsSync(ref)) {
    const path = statSync(ref).isDirectory() ? join(ref, MANIFEST) : ref;
    if (!existsSync(path)) throw new UsageError(`${ref} holds no ${MANIFEST}`);
    return parseManifest(readFileSync(path, "utf8"), path);
  }
  if (!server) throw new UsageError(`${ref} is not a file; to read a git revision, name the server with --server`);
  // `git show REV:./path` resolves the path from the working directory, wherever the repository root is.
  const path = `./${relative(process.cwd(), join(outDir, server, MANIFEST)).split("\\").join("/")}`;
  let text: string;
  try {
    text = execFileSync("git", ["show", `${ref}:${path}`], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], maxBuffer: 64 * 1024 * 1024 });
  } catch (e) {
    const why = String((isObject<unknown>(e) ? e.stderr : undefined) ?? "").trim().split("\n")[0];
    throw new UsageError(`cannot read ${path} at revision ${ref}${why ? `: ${why}` : ""}`);
  }
  return parseManifest(text, `${ref}:${path}`);
}

/** Exit 0: no breaking change; 1: breaking changes; usage errors throw (exit 2). */
function changelogOf(positional: string[], options: Options): number {
  if (positional.length !== 2) throw new UsageError("changelog takes two arguments: OLD NEW (manifest files, server folders or git revisions)");
  const outDir = optionValue(options, "--out") ?? "out";
  const server = optionValue(options, "--server");
  const [a, b] = positional.map((ref) => load(ref, server, outDir));
  if (a.server.name !== b.server.name) throw new UsageError(`the manifests describe different servers: ${a.server.name} and ${b.server.name}`);
  const log = changelog(a, b);
  record({ server: a.server.name, breaking: log.changes.some((c) => c.breaking), changes: log.changes });
  process.stdout.write(renderChangelog(log));
  return log.changes.some((c) => c.breaking) ? 1 : 0;
}

export const auditCommand: Command = {
  name: "audit",
  summary: "print AUDIT.md of a generated server (or of every server)",
  usage: ["audit [SERVER] [--out DIR]"],
  options: [{ flag: "--out DIR", help: "output folder the servers were generated into (default: out)" }],
  examples: ["kervan audit weather"],
  run: (p) => audit(p.positional, p.options),
};

export const changelogCommand: Command = {
  name: "changelog",
  summary: "compare two versions of a server; exit 1 when a change is breaking",
  usage: ["changelog OLD NEW [--server NAME] [--out DIR]"],
  details: `OLD and NEW are kervan.manifest.json files, server folders, or git revisions of the output
folder (then --server names the server). Exit 0: no breaking change; 1: breaking changes.`,
  options: [
    { flag: "--server NAME", help: "the server to compare when OLD or NEW is a git revision" },
    { flag: "--out DIR", help: "output folder inside the repository (default: out)" },
  ],
  examples: ["kervan changelog origin/main HEAD --server weather", "kervan changelog old/weather out/weather"],
  run: (p) => changelogOf(p.positional, p.options),
};
