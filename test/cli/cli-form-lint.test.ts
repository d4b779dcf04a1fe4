// The CLI form (`--tool ... --exec`) is linted as a spec is (issue 25, item 11): its warnings print,
// `--strict` makes them errors and nothing is written; with a description and `--annotations` it passes.
import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const kervan = (...args: string[]) => spawnSync(process.execPath, ["bin/kervan.mjs", ...args], { encoding: "utf8", input: "" });
const ANNOTATIONS = JSON.stringify({ readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false });

describe("the CLI form is linted", () => {
  it("warns without --strict and writes the server", () => {
    const out = mkdtempSync(join(tmpdir(), "kervan-cli-lint-"));
    try {
      const r = kervan("gen", "--out", out, "--tool", "--name", "uptime", "--exec", "uptime");
      expect(r.status, r.stderr).toBe(0);
      expect(r.stderr).toMatch(/<command line>:\d+:\d+: warning KV601: tool 'uptime' has no description/);
      expect(r.stderr).toMatch(/warning KV606: tool 'uptime' gives no annotations/);
      expect(existsSync(join(out, "kervan-cli/server.mjs"))).toBe(true);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }, 60_000);

  it("--strict makes the warnings errors and writes nothing", () => {
    const out = join(mkdtempSync(join(tmpdir(), "kervan-cli-lint-")), "out");
    const r = kervan("gen", "--strict", "--out", out, "--tool", "--name", "uptime", "--exec", "uptime");
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/error KV601/);
    expect(r.stderr).toMatch(/error KV606/);
    expect(existsSync(out)).toBe(false);
  }, 60_000);

  it("a described, annotated tool passes --strict", () => {
    const out = mkdtempSync(join(tmpdir(), "kervan-cli-lint-"));
    try {
      const r = kervan("gen", "--strict", "--out", out, "--tool", "--name", "uptime", "--description", "How long the machine has been up. Use it to check for a recent reboot.", "--annotations", ANNOTATIONS, "--exec", "uptime");
      expect(r.status, r.stderr).toBe(0);
      expect(r.stderr).not.toMatch(/KV6\d\d/);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }, 60_000);

  it("refuses --annotations that is not a JSON object, as a usage error", () => {
    const r = kervan("gen", "--out", "test/.tmp/never", "--tool", "--name", "uptime", "--annotations", "[1]", "--exec", "uptime");
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("--annotations takes a JSON object");
  });
});
