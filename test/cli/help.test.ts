// Every command has its own --help (its usage, its own options, an example), the global help lists
// every command, -v prints the version, and a usage error points at the command's own help.
import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { COMMANDS } from "../../generator/cli/commands.js";

const kervan = (...args: string[]) => spawnSync(process.execPath, ["bin/kervan.mjs", ...args], { encoding: "utf8" });
const version = JSON.parse(readFileSync("package.json", "utf8")).version;

describe("kervan help", () => {
  it("lists every command with its summary", () => {
    const r = kervan("help");
    expect(r.status).toBe(0);
    for (const c of COMMANDS) expect(r.stdout).toMatch(new RegExp(`^  ${c.name} +${c.summary.slice(0, 20).replace(/[()[\]]/g, "\\$&")}`, "m"));
  });

  it.each(COMMANDS.map((c) => c.name))("`kervan %s --help` shows that command's usage, options and an example", (name) => {
    const r = kervan(name, "--help");
    expect(r.status).toBe(0);
    expect(r.stdout.startsWith(`kervan ${name}: `)).toBe(true);
    expect(r.stdout).toMatch(new RegExp(`^  kervan (\\[${name}\\]|${name})`, "m"));
    const command = COMMANDS.find((c) => c.name === name)!;
    for (const o of command.options) expect(r.stdout).toContain(o.flag);
    expect(r.stdout).toMatch(/^Examples?:\n  kervan /m);
    expect(kervan("help", name).stdout).toBe(r.stdout);
  });

  it("`gen --help` is not the global help", () => {
    expect(kervan("gen", "--help").stdout).not.toContain("Commands:");
    expect(kervan("gen", "--help").stdout).toContain("--watch");
  });

  it.each(["-v", "--version"])("%s prints the version", (flag) => {
    const r = kervan(flag);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(`${version}\n`);
  });

  it("an unknown option names the command and its help", () => {
    const r = kervan("audit", "--bogus");
    expect(r.status).toBe(2);
    expect(r.stderr).toBe("kervan: unknown option --bogus for `kervan audit`\n(run `kervan audit --help` for usage)\n");
  });

  it("an unknown command exits 2", () => {
    const r = kervan("frobnicate");
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('unknown command "frobnicate"');
  });
});
