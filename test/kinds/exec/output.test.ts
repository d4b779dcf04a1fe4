// Output caps per stream (the child keeps writing, we keep reading), UTF-8 cut at a character
// boundary, and the environment the child sees.
import { describe, expect, it } from "vitest";
import { createExecHandler, type ExecToolConfig } from "../../../templates/kinds/exec/index.js";
import { utf8Cut } from "../../../templates/kinds/exec/spawn.js";
import { ctx, fixture, NODE } from "./helpers.js";

type V = { exitCode: number | null; stdout: string; stderr: string; stdoutTruncated: boolean; stderrTruncated: boolean };
const spew = (stream: string, bytes: number, text: string, extra: Partial<ExecToolConfig> = {}, code = 0) =>
  createExecHandler({ tool: "spew", argv: [[NODE], [fixture("spew.mjs")], [stream], [String(bytes)], [text], [String(code)]], fields: {}, ...extra })({}, ctx());

describe("output caps", () => {
  it("stdout past the cap is cut and flagged; the child is never blocked by a full pipe", async () => {
    // A blocked child would never exit: the call would hang past the test's timeout instead of answering.
    const out = await spew("stdout", 8 * 1024 * 1024, "abc", { maxOutputBytes: 1000 });
    const v = out.value as V;
    expect(v.exitCode).toBe(0);
    expect(v.stdout).toBe("abc".repeat(334).slice(0, 1000));
    expect(v.stdoutTruncated).toBe(true);
    expect(v.stderrTruncated).toBe(false);
    expect(out.text).toContain("--- stdout (truncated: only the first 1000 bytes were kept) ---");
  });
  it("stderr has its own cap, and a failing command still carries the capped stderr", async () => {
    const out = await spew("stderr", 5000, "e", { maxOutputBytes: 100 }, 2);
    const v = out.value as V;
    expect(out.isError).toBe(true);
    expect(v.exitCode).toBe(2);
    expect(v.stderr).toBe("e".repeat(100));
    expect(v.stderrTruncated).toBe(true);
    expect(v.stdoutTruncated).toBe(false);
  });
  it("output exactly at the cap is not truncated", async () => {
    const v = (await spew("stdout", 100, "z", { maxOutputBytes: 100 })).value as V;
    expect(v.stdout).toBe("z".repeat(100));
    expect(v.stdoutTruncated).toBe(false);
  });
  it("a cap of 0 keeps nothing but still reports truncation", async () => {
    const v = (await spew("stdout", 10, "z", { maxOutputBytes: 0 })).value as V;
    expect(v.stdout).toBe("");
    expect(v.stdoutTruncated).toBe(true);
  });
  it.each([
    ["é", 2, 101], // 2-byte characters, cut inside one
    ["日", 3, 100], // 3-byte
    ["😀", 4, 102], // 4-byte (astral)
  ])("the cut never splits a character (%s)", async (ch, size, cap) => {
    const v = (await spew("stdout", 10_000, ch, { maxOutputBytes: cap })).value as V;
    expect(v.stdout).toBe(ch.repeat(Math.floor(cap / size)));
    expect(v.stdout).not.toContain("\ufffd");
  });
  it("the default cap is 1 MiB per stream", async () => {
    const v = (await spew("stdout", 1024 * 1024 + 10, "y")).value as V;
    expect(v.stdout.length).toBe(1024 * 1024);
    expect(v.stdoutTruncated).toBe(true);
  });
  it("utf8Cut only drops an incomplete trailing sequence", () => {
    expect(utf8Cut(Buffer.from([0x61, 0xe6, 0x97]))).toBe(1);
    expect(utf8Cut(Buffer.from("a日"))).toBe(4);
    expect(utf8Cut(Buffer.from([0xf0, 0x9f, 0x98]))).toBe(0);
    expect(utf8Cut(Buffer.from([0x80, 0x80, 0x80, 0x80, 0x80]))).toBe(5); // garbage, not our cut
    expect(utf8Cut(Buffer.alloc(0))).toBe(0);
  });
});

describe("environment", () => {
  const envOf = async (env?: ExecToolConfig["env"]) => {
    const out = await createExecHandler({ tool: "env", argv: [[NODE], [fixture("env.mjs")]], fields: {}, env })({}, ctx());
    return JSON.parse((out.value as V).stdout) as Record<string, string>;
  };
  it("inherits nothing but PATH by default", async () => {
    process.env.KERVAN_SECRET_TEST = "s3cret";
    const env = await envOf();
    expect(env.PATH).toBe(process.env.PATH);
    expect(env.KERVAN_SECRET_TEST).toBeUndefined();
    expect(env.HOME).toBeUndefined();
    // What is left can only come from the program's own runtime (none for node).
    expect(Object.keys(env).sort()).toEqual(["PATH"]);
  });
  it("passes named variables that exist, and sets fixed ones on top", async () => {
    process.env.KERVAN_PASS_TEST = "passed";
    delete process.env.KERVAN_ABSENT_TEST;
    const env = await envOf({ pass: ["KERVAN_PASS_TEST", "KERVAN_ABSENT_TEST"], set: { LANG: "C.UTF-8", PATH: "/usr/bin:/bin" } });
    expect(env).toEqual({ KERVAN_PASS_TEST: "passed", LANG: "C.UTF-8", PATH: "/usr/bin:/bin" });
  });
  it("the child's PATH is the one used to find the command", async () => {
    const out = await createExecHandler({ tool: "x", argv: [["sh"], ["-c"], ["echo ok"]], fields: {}, env: { set: { PATH: "/nonexistent" } } })({}, ctx());
    expect(out.text).toBe("command not found: sh");
  });
});
