// `--json` for CI (issue 25, item 9): gen, import, audit, changelog and deploy print one JSON object on
// stdout (results, one object per diagnostic with code, severity, file, line, column, pointer,
// message, suggestion) and nothing else; docs/ci.md documents that shape (its example has the same
// keys as a real report). Text diagnostics are coloured on a terminal only: not when piped, not
// under NO_COLOR.
import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const ROOT = resolve(".");
const KERVAN = join(ROOT, "bin/kervan.mjs");
const kervan = (args: string[], env: NodeJS.ProcessEnv = {}, cwd = ROOT) => spawnSync(process.execPath, [KERVAN, ...args], { cwd, encoding: "utf8", input: "", env: { ...process.env, ...env } });
const BAD = "test/fixtures/bad-specs/14-placeholder-not-in-schema.yaml";
const DIAGNOSTIC_KEYS = ["code", "severity", "file", "line", "column", "pointer", "message", "suggestion", "notes"].sort();
const REPORT_KEYS = ["kervan", "command", "ok", "exitCode", "result", "diagnostics", "messages", "output"].sort();

function json(args: string[], env: NodeJS.ProcessEnv = {}, cwd = ROOT) {
  const r = kervan([args[0], "--json", ...args.slice(1)], env, cwd);
  expect(r.stderr, "nothing on stderr under --json").toBe("");
  return { status: r.status, report: JSON.parse(r.stdout) };
}

describe("--json", () => {
  it("gen: a refused spec is one object per diagnostic, at the argv entry", () => {
    const { status, report } = json(["gen", BAD, "--out", "test/.tmp/never"]);
    expect(status).toBe(1);
    expect(Object.keys(report).sort()).toEqual(REPORT_KEYS);
    expect(report).toMatchObject({ kervan: 1, command: "gen", ok: false, exitCode: 1 });
    expect(report.diagnostics).toHaveLength(1);
    const [d] = report.diagnostics;
    expect(Object.keys(d).sort()).toEqual(DIAGNOSTIC_KEYS);
    expect(d).toMatchObject({ code: "KV323", severity: "error", file: BAD, line: 12, column: 36, pointer: "/tools/0/exec/argv/2" });
    expect(d.message).toContain("{greeting}");
    expect(d.suggestion).toContain("input.properties");
  });

  it("gen: a build lists what it wrote; lint warnings are diagnostics too", () => {
    const out = mkdtempSync(join(tmpdir(), "kervan-json-"));
    try {
      const { status, report } = json(["gen", "--out", out, "--tool", "--name", "uptime", "--exec", "uptime"]);
      expect(status).toBe(0);
      expect(report.ok).toBe(true);
      expect(report.result.servers).toEqual(["kervan-cli"]);
      expect(report.result.written).toContain("kervan-cli/server.mjs");
      expect(report.diagnostics.map((d: { code: string }) => d.code)).toContain("KV606");
      expect(report.messages.some((m: string) => /written/.test(m))).toBe(true);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }, 60_000);

  it("a usage error is an error object, exit 2", () => {
    const { status, report } = json(["gen", "--no-such-option"]);
    expect(status).toBe(2);
    expect(report).toMatchObject({ ok: false, exitCode: 2, error: { kind: "usage" } });
    expect(report.error.message).toContain("--no-such-option");
  });

  it("audit, changelog and deploy", () => {
    const audit = json(["audit", "validator"]);
    expect(audit.report.result.servers).toEqual(["validator"]);
    expect(audit.report.output).toBe(readFileSync("out/validator/AUDIT.md", "utf8"));
    const log = json(["changelog", "out/validator", "out/validator"]);
    expect(log.status).toBe(0);
    expect(log.report.result).toEqual({ server: "validator", breaking: false, changes: [] });
    const dest = mkdtempSync(join(tmpdir(), "kervan-json-deploy-"));
    try {
      const deploy = json(["deploy", "validator", "--target", "docker", "--auth", "none-behind-proxy", "--dest", dest]);
      expect(deploy.report.result.files).toEqual([join(dest, "Dockerfile")]);
    } finally {
      rmSync(dest, { recursive: true, force: true });
    }
  });

  it("import: what it wrote, or why it refused", () => {
    const dir = mkdtempSync(join(tmpdir(), "kervan-json-import-"));
    try {
      const ok = json(["import", join(ROOT, "specs/openapi/apis-guru.json"), "--out", "guru.yaml"], {}, dir);
      expect(ok.status).toBe(0);
      expect(ok.report.result).toMatchObject({ spec: "guru.yaml" });
      expect(ok.report.result.tools).toBeGreaterThan(0);
      writeFileSync(join(dir, "not-openapi.json"), JSON.stringify({ hello: "world" }));
      const no = json(["import", "not-openapi.json"], {}, dir);
      expect(no.status).toBe(1);
      expect(typeof no.report.result.refused.reason).toBe("string");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it("docs/ci.md shows the shape with the same keys", () => {
    const doc = readFileSync("docs/ci.md", "utf8");
    const block = /## Machine-readable output[\s\S]*?```json data\n([\s\S]*?)```/.exec(doc)?.[1];
    expect(block).toBeDefined();
    const example = JSON.parse(block!);
    expect(Object.keys(example).sort()).toEqual(REPORT_KEYS);
    expect(Object.keys(example.diagnostics[0]).sort()).toEqual(DIAGNOSTIC_KEYS);
  });
});

describe("colour", () => {
  const ESC = "\x1b[";
  // `script` gives the command a real terminal; its output is what that terminal showed.
  const onTerminal = (env: NodeJS.ProcessEnv) =>
    spawnSync("script", ["-qec", `"${process.execPath}" "${KERVAN}" gen ${BAD} --out test/.tmp/never`, "/dev/null"], { cwd: ROOT, encoding: "utf8", env: { ...process.env, TERM: "xterm", ...env } }).stdout;

  it("on a terminal, the severity is coloured", () => {
    const env = { ...process.env };
    delete env.NO_COLOR;
    const shown = spawnSync("script", ["-qec", `"${process.execPath}" "${KERVAN}" gen ${BAD} --out test/.tmp/never`, "/dev/null"], { cwd: ROOT, encoding: "utf8", env: { ...env, TERM: "xterm" } }).stdout;
    expect(shown).toContain(`${ESC}31merror KV323`);
  });

  it("not under NO_COLOR, and not when piped", () => {
    const shown = onTerminal({ NO_COLOR: "1" });
    expect(shown).toContain("error KV323");
    expect(shown).not.toContain(ESC);
    const env = { ...process.env };
    delete env.NO_COLOR;
    const piped = spawnSync(process.execPath, [KERVAN, "gen", BAD, "--out", "test/.tmp/never"], { cwd: ROOT, encoding: "utf8", env });
    expect(piped.stderr).toContain("error KV323");
    expect(piped.stderr).not.toContain(ESC);
  });
});
