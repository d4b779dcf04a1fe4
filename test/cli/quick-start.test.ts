// The README's quick start tells a newcomer, before anything else, that sandboxed exec tools need
// bubblewrap and what happens without it (issue 25, item 8); what it says is what the starter server does
// on a machine without `bwrap`: it refuses to start, with the sentence the README quotes.
import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const ROOT = resolve(".");
const README = readFileSync(join(ROOT, "README.md"), "utf8");
const quickStart = README.slice(README.indexOf("## Quick start"), README.indexOf("### Working on Kervan itself"));

describe("the README's quick start", () => {
  it("says that exec tools need bubblewrap, how to install it, and how to opt out", () => {
    expect(quickStart).toContain("apt-get install bubblewrap");
    expect(quickStart).toContain("sandbox: none");
    expect(quickStart).toMatch(/refuses to\s+start/);
  });

  it("quotes what the starter server prints without bwrap, and the server does print it", () => {
    const quoted = /`(bwrap was not found on PATH: [^`]*?)\s*\.\.\.`/.exec(quickStart.replace(/\n/g, " "))?.[1];
    expect(quoted).toBeDefined();
    const dir = mkdtempSync(join(tmpdir(), "kervan-quick-start-"));
    try {
      const kervan = (...args: string[]) => spawnSync(process.execPath, [join(ROOT, "bin/kervan.mjs"), ...args], { cwd: dir, encoding: "utf8" });
      expect(kervan("init", "weather").status).toBe(0);
      expect(kervan("gen").status).toBe(0);
      mkdirSync(join(dir, "no-bwrap"));
      const server = spawnSync(process.execPath, ["out/weather/server.mjs"], { cwd: dir, encoding: "utf8", input: "", env: { ...process.env, PATH: join(dir, "no-bwrap") }, timeout: 30_000 });
      expect(server.status).not.toBe(0);
      expect(server.stderr).toContain(quoted);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
