// AUDIT.md and the manifest's audit facts. The checked-in out/<server>/AUDIT.md is the golden file
// (regenerated here and compared byte for byte; `kervan gen --check` compares it too), and the
// facts a reviewer relies on are asserted by content.
import { beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generate } from "../../generator/pipeline.js";
import { readSources } from "../../generator/cli/sources.js";
import { renderAudit } from "../../generator/audit/render.js";
import type { Manifest } from "../../generator/audit/types.js";

const SERVERS = ["github-issues", "open-meteo", "project-checks", "repo-explorer", "validator"];
const manifest = (s: string): Manifest => JSON.parse(readFileSync(`out/${s}/kervan.manifest.json`, "utf8"));
const audit = (s: string) => readFileSync(`out/${s}/AUDIT.md`, "utf8");
const tool = (s: string, name: string) => manifest(s).tools.find((t) => t.name === name)!;

describe("AUDIT.md golden files", () => {
  let fresh: string;
  beforeAll(async () => {
    fresh = mkdtempSync(join(tmpdir(), "kervan-audit-"));
    const r = await generate(readSources(["specs"]), { outRoot: fresh, check: false, pruneServers: false });
    expect(r.diagnostics).toEqual([]);
  }, 120_000);

  for (const s of SERVERS) {
    it(`${s}: regenerates byte for byte, and renders from the manifest alone`, () => {
      expect(readFileSync(join(fresh, s, "AUDIT.md"), "utf8")).toBe(audit(s));
      const m = manifest(s);
      expect(renderAudit(m, Object.keys(m.inputs)[0])).toBe(audit(s));
    });

    it(`${s}: is listed in the manifest's outputs and stamps no time`, () => {
      const m = manifest(s);
      expect(Object.keys(m.outputs!)).toContain("AUDIT.md");
      expect(audit(s)).not.toMatch(/\b20\d\d-\d\d-\d\d|T\d\d:\d\d/);
      expect(audit(s)).toContain(`Generator: kervan ${m.generator.version}`);
      expect(audit(s)).toContain(m.inputHash);
    });
  }
});

describe("audit facts", () => {
  it("repo-explorer: four read-only commands, no host, PATH only, paths confined", () => {
    const m = manifest("repo-explorer");
    expect(m.capabilities).toEqual({ commands: ["cat", "find", "grep", "ls"], hosts: [], env: ["PATH"], secrets: [], pathRoots: ["."], shellTools: [] });
    const read = tool("repo-explorer", "read_file");
    expect(read.facts).toMatchObject({ argv: ["cat", "--", "{path}"], paths: { fields: ["path"], allow: ["."], deny: [".env", ".git"] } });
    expect(read.effects).toMatchObject({ commands: ["cat"], shell: false, pathRoots: ["."], pathDenied: [".env", ".git"] });
    expect(read.effects!.changes).toBeUndefined();
    expect(read.description).toMatch(/^Print the contents/);
    expect((read.inputSchema!.properties as Record<string, unknown>).path).toBeDefined();
    expect(audit("repo-explorer")).toContain('- Argument template (argv): `["cat","--","{path}"]`');
    expect(audit("repo-explorer")).toContain("- Enforced by argument checks (path arguments): path fields `path`; allowed roots `.`; denied `.env`, `.git`");
    // What the operating system enforces, apart from the argument checks: the whole process tree.
    expect(read.facts!.sandbox).toEqual({
      enforcedBy: "bubblewrap",
      visible: ["."],
      writable: [],
      masked: [".env", ".git"],
      runLaterWritable: [],
      network: false,
      limits: { processes: 256, fileSizeBytes: 1073741824, cpuSeconds: 600, memoryBytes: 2147483648, tmpBytes: 268435456 },
    });
    expect(read.effects).toMatchObject({ network: false, confined: { by: "bubblewrap", visible: ["."], writable: [] } });
    expect(audit("repo-explorer")).toContain("- Enforced by the operating system (sandbox): bubblewrap, for the command and every descendant: visible read-only `.` plus /usr, /bin, /lib* and a few /etc files; writable a private /tmp of 268435456 bytes; masked `.env`, `.git` (their folders in writable roots cannot be renamed); network off;");
    expect(tool("repo-explorer", "search_text").facts!.okExitCodes).toEqual([0, 1]);
    expect(audit("repo-explorer")).toContain("| Not read-only | none |");
    // Its files as a resource template: a read is a read_file call, so it reaches what that tool reaches.
    expect(m.resourceTemplates).toEqual([
      expect.objectContaining({ uriTemplate: "repo://files/{+path}", tool: "read_file", variables: ["path"], commands: ["cat"], hosts: [], complete: { path: "output lines of tool list_paths" } }),
    ]);
    expect(audit("repo-explorer")).toContain("- Reads through tool `read_file` (variables `path`): commands `cat`; hosts none");
    expect(audit("repo-explorer")).toContain("| Completes | `explain_file.path`, `repo://files/{+path} path` |");
  });

  it("project-checks: environment passed and set, limits, no filesystem policy where no path", () => {
    const tests = tool("project-checks", "run_tests");
    expect(tests.facts).toMatchObject({ command: "npm", env: ["HOME", "NODE_OPTIONS", "PATH"], envSet: { CI: "1", FORCE_COLOR: "0" }, paths: null });
    expect(tests.facts!.limits).toMatchObject({ timeoutMs: 900000, concurrency: 1, maxOutputBytes: 2097152 });
    expect(audit("project-checks")).toContain("- Environment variables set: `CI=1`, `FORCE_COLOR=0`");
    expect(audit("project-checks")).toContain("| Not read-only | `git_restore`, `run_test_file`, `run_tests` |");
    expect(audit("project-checks")).toContain("| Runs as tasks | `run_test_file`, `run_tests`, `typecheck` |");
    expect(audit("project-checks")).toContain("| Asks to confirm first | `git_restore` |");
    // The test run writes in the tree; the sandbox is on for every tool.
    expect(tests.facts!.sandbox).toMatchObject({ enforcedBy: "bubblewrap", writable: ["."], network: false, limits: { processes: 4096 } });
    expect(tool("project-checks", "git_status").facts!.sandbox).toMatchObject({ enforcedBy: "bubblewrap", writable: [] });
  });

  it("github-issues: one host, the token as a secret, methods and path templates, bundled licenses", () => {
    const m = manifest("github-issues");
    expect(m.capabilities).toMatchObject({ commands: [], hosts: ["api.github.com"], env: ["GITHUB_API_URL", "GITHUB_TOKEN", "HTTPS_PROXY", "HTTP_PROXY", "NO_PROXY", "http_proxy", "https_proxy", "no_proxy"], secrets: ["GITHUB_TOKEN"] });
    expect(tool("github-issues", "create_issue").facts).toMatchObject({ method: "POST", host: "api.github.com", path: "/repos/{{input.owner}}/{{input.repo}}/issues", secrets: ["GITHUB_TOKEN"] });
    expect(m.bundle.packages).toMatchObject({ ajv: { license: "MIT" }, "@jmespath-community/jmespath": { license: "MPL-2.0" } });
    expect(audit("github-issues")).toContain("| Secrets among them | `GITHUB_TOKEN` |");
    expect(audit("github-issues")).toMatch(/\| @jmespath-community\/jmespath \| 1\.3\.0 \| MPL-2\.0 \|/);
    expect(audit("github-issues")).toContain("- Origin override variable: `GITHUB_API_URL`");
  });

  it("open-meteo: a GET to one host, output schema and caps listed", () => {
    const t = tool("open-meteo", "get_current_weather");
    expect(t.facts).toMatchObject({ method: "GET", host: "api.open-meteo.com", secrets: [], env: ["HTTPS_PROXY", "HTTP_PROXY", "NO_PROXY", "OPEN_METEO_BASE_URL", "http_proxy", "https_proxy", "no_proxy"] });
    expect(t.facts!.limits).toMatchObject({ maxResponseBytes: 262144, timeoutMs: 10000 });
    expect(t.outputSchema).toBeDefined();
    expect(audit("open-meteo")).toContain(`- Output schema sha256: \`${t.outputSchemaSha256}\``);
    // The current weather as a resource template: a read is a get_current_weather call, to the same host.
    expect(manifest("open-meteo").resourceTemplates).toEqual([
      expect.objectContaining({ uriTemplate: "weather://current/{latitude}/{longitude}", tool: "get_current_weather", variables: ["latitude", "longitude"], commands: [], hosts: ["api.open-meteo.com"] }),
    ]);
    expect(audit("open-meteo")).toContain("- Reads through tool `get_current_weather` (variables `latitude`, `longitude`): commands none; hosts `api.open-meteo.com`");
  });

  it("validator: nothing outside its arguments", () => {
    const m = manifest("validator");
    expect(m.capabilities).toEqual({ commands: [], hosts: [], env: [], secrets: [], pathRoots: [], shellTools: [] });
    expect(audit("validator")).toContain("- Network access: no");
    // jose is the one bundled package: any server can be started as an OAuth resource server.
    expect(m.bundle.packages).toEqual({ jose: { version: "6.2.17", license: "MIT" } });
  });
});

describe("kervan audit", () => {
  const kervan = (...args: string[]) => spawnSync(process.execPath, ["bin/kervan.mjs", ...args], { encoding: "utf8" });

  it("prints one server's AUDIT.md", () => {
    const r = kervan("audit", "repo-explorer");
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(audit("repo-explorer"));
  });

  it("prints every server's AUDIT.md without a name", () => {
    const r = kervan("audit");
    expect(r.status).toBe(0);
    for (const s of SERVERS) expect(r.stdout).toContain(`# Audit: ${s} `);
  });

  it("exits 2 for an unknown server", () => {
    const r = kervan("audit", "no-such-server");
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/no generated server no-such-server/);
  });
});
