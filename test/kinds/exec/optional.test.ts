// okExitCodes and conditional argument groups at run time: a boolean adds fixed arguments only
// when true, an optional scalar's arguments are left out when it is absent, and the structural
// rules that keep an optional field from appearing anywhere else.
import { describe, expect, it } from "vitest";
import { createExecHandler, type ExecToolConfig } from "../../../templates/kinds/exec/index.js";
import { renderArgv } from "../../../templates/kinds/exec/render.js";
import { StartupError } from "../../../templates/runtime/types.js";
import { ctx, fixture, NODE } from "./helpers.js";

type V = { exitCode: number | null; stdout: string };

const grepLike: ExecToolConfig = {
  tool: "grep",
  argv: [[NODE], [fixture("argv.mjs")], { if: "ignoreCase", argv: [["--ignore-case"]] }, { if: "max", argv: [["--max-count"], [{ field: "max" }]] }, ["-e"], [{ field: "pattern" }]],
  fields: { ignoreCase: "boolean", max: "integer", pattern: "string" },
  optional: ["ignoreCase", "max"],
};

describe("conditional argument groups", () => {
  const argv = (args: Record<string, unknown>) => renderArgv(grepLike.argv, grepLike.fields, args, grepLike.optional).args.slice(1);
  it("a boolean adds its fixed arguments only when true", () => {
    expect(argv({ pattern: "x", ignoreCase: true })).toEqual(["--ignore-case", "-e", "x"]);
    expect(argv({ pattern: "x", ignoreCase: false })).toEqual(["-e", "x"]);
    expect(argv({ pattern: "x" })).toEqual(["-e", "x"]);
  });
  it("an optional scalar renders its group when present and nothing when absent", () => {
    expect(argv({ pattern: "x", max: 3 })).toEqual(["--max-count", "3", "-e", "x"]);
    expect(argv({ pattern: "x" })).toEqual(["-e", "x"]);
  });
  it("a required field is still required, and a wrong type is still refused", () => {
    expect(() => argv({ ignoreCase: true })).toThrow(/field "pattern" is required/);
    expect(() => argv({ pattern: "x", ignoreCase: "yes" })).toThrow(/field "ignoreCase" must be a JSON boolean/);
  });
  it("the program receives exactly the rendered arguments", async () => {
    const out = await createExecHandler(grepLike)({ pattern: "a b", ignoreCase: true }, ctx());
    expect(JSON.parse((out.value as V).stdout)).toEqual(["--ignore-case", "-e", "a b"]);
  });
});

describe("group rules at startup", () => {
  const bad = (patch: Partial<ExecToolConfig>) => () => createExecHandler({ ...grepLike, ...patch });
  it.each<[string, Partial<ExecToolConfig>, RegExp]>([
    ["an optional field used outside its group", { argv: [...grepLike.argv, [{ field: "max" }]] }, /optional field "max" may appear only in the arguments it conditions/],
    ["a boolean group rendering its value", { argv: [[NODE], { if: "ignoreCase", argv: [[{ field: "ignoreCase" }]] }, { if: "max", argv: [[{ field: "max" }]] }, [{ field: "pattern" }]] }, /arguments added by boolean "ignoreCase" must be fixed text/],
    ["a group on a required scalar", { optional: ["ignoreCase"] }, /argument group condition "max" must be a boolean or an optional field/],
    ["a group on an undeclared field", { argv: [...grepLike.argv, { if: "nope", argv: [["-x"]] }] }, /argument group condition "nope" is not a declared field/],
    ["an empty group", { argv: [...grepLike.argv, { if: "ignoreCase", argv: [] }] }, /argument group "ignoreCase" adds no arguments/],
    ["an optional field with no group", { fields: { ...grepLike.fields, extra: "string" }, argv: [...grepLike.argv, [{ field: "extra" }]], optional: ["ignoreCase", "max", "extra"] }, /optional field "extra" may appear only/],
    ["a group as the command", { argv: [{ if: "ignoreCase", argv: [["x"]] }, ...grepLike.argv.slice(1)] }, /the command \(argv\[0\]\) must be non-empty literal text/],
    ["empty okExitCodes", { okExitCodes: [] }, /okExitCodes must be a non-empty list/],
    ["an out-of-range exit code", { okExitCodes: [0, 256] }, /okExitCodes must be a non-empty list of exit statuses from 0 to 255/],
  ])("%s is refused", (_n, patch, why) => {
    expect(bad(patch)).toThrow(StartupError);
    expect(bad(patch)).toThrow(why);
  });
});

describe("okExitCodes", () => {
  const sh = (script: string, okExitCodes?: number[]): ExecToolConfig => ({ tool: "sh", argv: [["sh"], ["-c"], [script]], fields: {}, okExitCodes });
  it("grep's 1 for 'no match' is a normal result when listed", async () => {
    const out = await createExecHandler(sh("exit 1", [0, 1]))({}, ctx());
    expect(out.isError).toBeFalsy();
    expect((out.value as V).exitCode).toBe(1);
    expect(out.text).toContain("sh exited with code 1");
  });
  it("a status not listed is still a tool error, and so is 0 when only 1 is listed", async () => {
    expect((await createExecHandler(sh("exit 2", [0, 1]))({}, ctx())).isError).toBe(true);
    expect((await createExecHandler(sh("exit 0", [1]))({}, ctx())).isError).toBe(true);
  });
  it("by default only 0 is a success", async () => {
    expect((await createExecHandler(sh("exit 1"))({}, ctx())).isError).toBe(true);
    expect((await createExecHandler(sh("exit 0"))({}, ctx())).isError).toBeFalsy();
  });
});
