// `kervan pack SERVER`: an MCP Bundle (.mcpb: a zip of manifest.json, the bundle and AUDIT.md) for
// desktop clients, and server.json for the MCP registry naming that bundle by URL and sha256.
// The zip is written with fixed timestamps, so the same server gives the same bytes and hash.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { zipSync } from "fflate";
import { MANIFEST } from "../manifest.js";
import { sha256 } from "../shared/hash.js";
import { UsageError } from "./sources.js";
import { stringOption, type Command } from "./command.js";
import { BUNDLE_ENTRY, mcpbManifest, serverJson } from "./pack-files.js";

const REGISTRY_NAME = /^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/;

/** The author of the project packing the server, from its package.json. */
function projectAuthor(): string | undefined {
  try {
    const a = JSON.parse(readFileSync("package.json", "utf8")).author;
    return typeof a === "string" ? a.replace(/\s*[<(].*$/, "") || undefined : a?.name;
  } catch {
    return undefined;
  }
}

export const packCommand: Command = {
  name: "pack",
  summary: "write an MCP Bundle (.mcpb) and a server.json for the MCP registry",
  usage: ["pack SERVER [--out DIR] [--dest DIR] [--registry-name NS/NAME] [--url URL] [--author NAME]"],
  details: `Writes DEST/SERVER/SERVER-VERSION.mcpb (manifest.json, server/server.mjs and AUDIT.md; secrets
become sensitive settings, and servers that run commands ask for a working directory) and
DEST/SERVER/server.json, which names the bundle by --url and its sha256. Publish the .mcpb at
that URL (a GitHub or GitLab release asset) before publishing server.json.`,
  options: [
    { flag: "--out DIR", help: "output folder the server was generated into (default: out)" },
    { flag: "--dest DIR", help: "where to write the bundle and server.json (default: release)" },
    { flag: "--registry-name NS/NAME", help: "the server's name in the registry, e.g. io.github.you/weather" },
    { flag: "--url URL", help: "where the .mcpb will be downloaded from (a release asset URL)" },
    { flag: "--author NAME", help: "the bundle's author (default: package.json's author)" },
  ],
  examples: ["kervan pack weather --registry-name io.github.you/weather --url https://github.com/you/weather/releases/download/v0.1.0/weather-0.1.0.mcpb"],
  run(p) {
    if (p.positional.length !== 1) throw new UsageError("pack takes one server name");
    const name = p.positional[0];
    const dir = resolve(stringOption(p, "--out") ?? "out", name);
    if (!existsSync(join(dir, MANIFEST))) throw new UsageError(`no generated server ${name} in ${dir} (run \`kervan gen\` first)`);
    const manifest = JSON.parse(readFileSync(join(dir, MANIFEST), "utf8"));
    const version: string = manifest.server.version;
    const registryName = stringOption(p, "--registry-name") ?? `io.github.OWNER/${name}`;
    if (!REGISTRY_NAME.test(registryName)) throw new UsageError(`--registry-name ${JSON.stringify(registryName)} must look like NAMESPACE/NAME (e.g. io.github.you/${name})`);
    const file = `${name}-${version}.mcpb`;
    const url = stringOption(p, "--url") ?? `https://github.com/OWNER/REPO/releases/download/v${version}/${file}`;
    if (!/^https:\/\/\S+$/.test(url)) throw new UsageError("--url must be an https URL");
    const author = stringOption(p, "--author") ?? projectAuthor() ?? "unknown";
    const input = { manifest, author, registryName, url };

    const bundleManifest = mcpbManifest(input);
    // Local-time constructor: fflate writes DOS times from local fields, so this is 1980-01-01 00:00 everywhere.
    const mtime = new Date(1980, 0, 1, 0, 0, 0);
    const zip = zipSync(
      {
        "manifest.json": new TextEncoder().encode(JSON.stringify(bundleManifest, null, 2) + "\n"),
        [BUNDLE_ENTRY]: readFileSync(join(dir, "server.mjs")),
        // A catalog's chunk files, beside the bundle as it loads them (manifest bundle.chunks).
        ...Object.fromEntries(Object.keys(manifest.bundle?.chunks ?? {}).map((c) => [`server/${c}`, readFileSync(join(dir, c))])),
        "AUDIT.md": readFileSync(join(dir, "AUDIT.md")),
      },
      { level: 9, mtime },
    );
    const dest = resolve(stringOption(p, "--dest") ?? "release", name);
    mkdirSync(dest, { recursive: true });
    writeFileSync(join(dest, file), zip);
    const registry = serverJson(input, sha256(Buffer.from(zip)));
    writeFileSync(join(dest, "server.json"), JSON.stringify(registry, null, 2) + "\n");
    const shown = (f: string) => (relative(process.cwd(), join(dest, f)).startsWith("..") ? join(dest, f) : relative(process.cwd(), join(dest, f)));
    process.stderr.write(`kervan: wrote ${shown(file)} (${zip.length} bytes) and ${shown("server.json")}\n`);
    if (!stringOption(p, "--registry-name") || !stringOption(p, "--url")) {
      process.stderr.write("kervan: server.json names OWNER placeholders: give --registry-name and --url before publishing it\n");
    }
    return 0;
  },
};
