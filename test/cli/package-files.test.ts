// What the npm package ships and where Kervan writes by default (issue 25, items 6 and 7): every
// docs/*.md page the README links is in the package, `engines` is true of every runtime dependency,
// `kervan pack` does not write into dist/ (the prebuilt CLI folder this package ships), and a deleted
// spec leaves no empty folders of its server behind.
import { describe, expect, it } from "vitest";
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import semver from "semver";

const ROOT = resolve(".");
const kervan = (cwd: string, ...args: string[]) => spawnSync(process.execPath, [join(ROOT, "bin/kervan.mjs"), ...args], { cwd, encoding: "utf8", input: "" });

const SPEC = (tools: string[]) => `server:
  name: leftovers
  version: 0.1.0
  sandbox: none
tools:
${tools.map((t) => `  - name: ${t}
    description: Print the date. Use it to see the time.
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false }
    exec:
      argv: [date]
`).join("")}`;

describe("the npm package", () => {
  it("ships every docs/*.md page the README links", () => {
    const out = execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
    const shipped = new Set<string>(JSON.parse(out)[0].files.map((f: { path: string }) => f.path));
    const linked = [...new Set(readFileSync(join(ROOT, "README.md"), "utf8").match(/\bdocs\/[\w-]+\.md\b/g) ?? [])];
    expect(linked.length).toBeGreaterThan(3);
    expect(linked.filter((p) => !shipped.has(p))).toEqual([]);
  }, 60_000);

  it("claims in `engines` no Node older than a runtime dependency accepts", () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
    const lock = JSON.parse(readFileSync(join(ROOT, "package-lock.json"), "utf8"));
    const refused = Object.entries<any>(lock.packages)
      .filter(([path, p]) => path && !p.dev && !p.devOptional && p.engines?.node)
      .filter(([, p]) => !semver.subset(pkg.engines.node, p.engines.node))
      .map(([path, p]) => `${path.replace(/^.*node_modules\//, "")}@${p.version} needs node ${p.engines.node}`);
    expect(refused, `package.json says node ${pkg.engines.node}`).toEqual([]);
  });
});

describe("default output places", () => {
  it("`kervan pack` writes outside dist/ by default", () => {
    const dir = mkdtempSync(join(tmpdir(), "kervan-pack-default-"));
    try {
      writeFileSync(join(dir, "leftovers.yaml"), SPEC(["now"]));
      expect(kervan(dir, "gen", "leftovers.yaml").status).toBe(0);
      const r = kervan(dir, "pack", "leftovers");
      expect(r.status, r.stderr).toBe(0);
      expect(existsSync(join(dir, "dist"))).toBe(false);
      expect(readdirSync(join(dir, "release/leftovers")).sort()).toEqual(["leftovers-0.1.0.mcpb", "server.json"]);
      expect(r.stderr).toContain("release/leftovers/leftovers-0.1.0.mcpb");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it("a deleted spec leaves no folders of its server behind", () => {
    const dir = mkdtempSync(join(tmpdir(), "kervan-leftovers-"));
    try {
      writeFileSync(join(dir, "package.json"), "{}");
      const specs = join(dir, "specs");
      execFileSync("mkdir", ["-p", specs]);
      writeFileSync(join(specs, "leftovers.yaml"), SPEC(["now", "today"]));
      expect(kervan(dir, "gen").status).toBe(0);
      expect(existsSync(join(dir, "out/leftovers/src/tools"))).toBe(true);
      rmSync(join(specs, "leftovers.yaml"));
      writeFileSync(join(specs, "other.yaml"), SPEC(["now"]).replace("leftovers", "other"));
      const r = kervan(dir, "gen");
      expect(r.status, r.stderr).toBe(0);
      expect(readdirSync(join(dir, "out"))).toEqual(["other"]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
