// Every startup error: malformed configs (which the generator also refuses at build time) and
// environment problems found when the server starts (missing cwd, missing or non-directory roots).
import { describe, expect, it } from "vitest";
import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { checkExecStartup, createExecHandler, EXEC_DEFAULTS, EXEC_OUTPUT_SCHEMA, type ExecToolConfig } from "../../../templates/kinds/exec/index.js";
import { StartupError } from "../../../templates/runtime/types.js";
import { ctx } from "./helpers.js";

const base = (): ExecToolConfig => ({ tool: "t", argv: [["echo"], [{ field: "a" }]], fields: { a: "string" } });
const broken = (patch: (c: ExecToolConfig) => void): ExecToolConfig => {
  const c = base();
  patch(c);
  return c;
};

describe("structural errors are StartupErrors naming the tool", () => {
  it.each<[string, ExecToolConfig, RegExp]>([
    ["empty argv", broken((c) => (c.argv = [])), /argv needs at least the command/],
    ["placeholder in the command", broken((c) => (c.argv[0] = [{ field: "a" }])), /a field may never choose the program/],
    ["empty command", broken((c) => (c.argv[0] = [""])), /non-empty literal text/],
    ["undeclared placeholder", broken((c) => c.argv.push([{ field: "b" }])), /placeholder \{b\} is not a declared field/],
    ["unused field", broken((c) => (c.fields.b = "string")), /field "b" is used by no argument/],
    ["unsupported type", broken((c) => (c.fields.a = "object" as never)), /unsupported type "object"/],
    ["path field not a string", broken((c) => ((c.fields.a = "number"), (c.paths = { fields: ["a"] }))), /path field "a" must be a declared string field/],
    ["path field inside a larger argument", broken((c) => ((c.argv[1] = ["/etc/", { field: "a" }]), (c.paths = { fields: ["a"] }))), /path field "a" must be a whole argument/],
    ["path field undeclared", broken((c) => (c.paths = { fields: ["zz"] })), /path field "zz"/],
    ["zero timeout", broken((c) => (c.timeoutMs = 0)), /timeoutMs must be an integer from 1/],
    ["timeout beyond setTimeout", broken((c) => (c.timeoutMs = 2 ** 31)), /timeoutMs must be an integer/],
    ["fractional cap", broken((c) => (c.maxOutputBytes = 1.5)), /maxOutputBytes/],
    ["zero concurrency", broken((c) => (c.concurrency = 0)), /concurrency/],
    ["negative queue", broken((c) => (c.queue = -1)), /queue/],
    ["negative grace", broken((c) => (c.killGraceMs = -1)), /killGraceMs/],
    ["bad rate limit", broken((c) => (c.rateLimit = { calls: 0, windowMs: 10 })), /rateLimit needs positive integers/],
    ["bad env name", broken((c) => (c.env = { pass: ["A=B"] })), /env.pass has an invalid name "A=B"/],
  ])("%s", (_name, cfg, why) => {
    expect(() => createExecHandler(cfg)).toThrow(StartupError);
    expect(() => createExecHandler(cfg)).toThrow(/^exec tool "t": /);
    expect(() => createExecHandler(cfg)).toThrow(why);
  });
});

describe("environment checks at startup", () => {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "kervan-startup-")));
  mkdirSync(join(dir, "root"));
  writeFileSync(join(dir, "file"), "");
  symlinkSync(join(dir, "root"), join(dir, "root-link"));

  it("a missing working directory stops startup", () => {
    const cfg = { ...base(), cwd: join(dir, "nope") };
    expect(() => checkExecStartup(cfg)).toThrow(/working directory .*nope.* is not a directory/);
  });
  it("a missing allowed root stops startup", () => {
    const cfg: ExecToolConfig = { ...base(), cwd: dir, paths: { fields: ["a"], allow: ["missing"] } };
    expect(() => checkExecStartup(cfg)).toThrow(StartupError);
    expect(() => checkExecStartup(cfg)).toThrow(/allowed root missing .* is not an existing directory/);
  });
  it("an allowed root that is a file stops startup", () => {
    const cfg: ExecToolConfig = { ...base(), cwd: dir, paths: { fields: ["a"], allow: ["file"] } };
    expect(() => checkExecStartup(cfg)).toThrow(/allowed root file/);
  });
  it("roots are resolved with symlinks followed; a denied path need not exist", async () => {
    const cfg: ExecToolConfig = { ...base(), cwd: dir, paths: { fields: ["a"], allow: ["root-link"], deny: ["root/later"] } };
    expect(() => checkExecStartup(cfg)).not.toThrow();
    const h = createExecHandler(cfg);
    expect((await h({ a: "root/x" }, ctx())).isError).toBeFalsy();
    expect((await h({ a: "root-link/x" }, ctx())).isError).toBeFalsy();
    expect((await h({ a: "root/later/x" }, ctx())).text).toMatch(/denied/);
  });
  it("the handler runs the startup check itself if the server did not", async () => {
    const h = createExecHandler({ ...base(), cwd: join(dir, "nope") });
    await expect(h({ a: "x" }, ctx())).rejects.toThrow(StartupError);
    expect(() => h.startup()).toThrow(StartupError);
  });
});

describe("exported constants", () => {
  it("defaults that do not choke an agent", () => {
    expect(EXEC_DEFAULTS).toEqual({ timeoutMs: 60_000, killGraceMs: 2_000, maxOutputBytes: 1_048_576, concurrency: 4, queue: 16, progressIntervalMs: 1_000 });
    expect(Object.isFrozen(EXEC_DEFAULTS)).toBe(true);
  });
  it("the output schema requires all six fields and nothing else", () => {
    expect(EXEC_OUTPUT_SCHEMA.required).toEqual(["exitCode", "stdout", "stderr", "timedOut", "stdoutTruncated", "stderrTruncated"]);
    expect(EXEC_OUTPUT_SCHEMA.additionalProperties).toBe(false);
  });
});
