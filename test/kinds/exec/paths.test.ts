// The filesystem policy: decoded values resolved like the kernel resolves them (symlinks before
// `..`), allowed roots, denied paths, files that do not exist yet, option-like values.
import { beforeAll, describe, expect, it } from "vitest";
import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createExecHandler, type ExecToolConfig } from "../../../templates/kinds/exec/index.js";
import { resolveReal } from "../../../templates/kinds/exec/paths.js";
import { ctx, fixture, NODE } from "./helpers.js";

let base: string; // real temp dir: root/ (allowed), outside/ (not), root/secret (denied)
beforeAll(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), "kervan-paths-")));
  mkdirSync(join(base, "root/sub"), { recursive: true });
  mkdirSync(join(base, "root/secret"), { recursive: true });
  mkdirSync(join(base, "outside"));
  writeFileSync(join(base, "root/sub/file.txt"), "inside\n");
  writeFileSync(join(base, "root/secret/key"), "k\n");
  writeFileSync(join(base, "outside/passwd"), "x\n");
  symlinkSync(join(base, "outside"), join(base, "root/escape")); // absolute link out of the root
  symlinkSync("../outside/passwd", join(base, "root/rel-escape")); // relative link out
  symlinkSync("sub/file.txt", join(base, "root/good-link")); // stays inside
  symlinkSync(join(base, "outside/new-file"), join(base, "root/dangling")); // a write would land outside
  symlinkSync("secret", join(base, "root/to-secret")); // inside, but into the denied path
  symlinkSync(join(base, "outside"), join(base, "root/sub/deep")); // `deep/..` is outside/.., not root/sub
  symlinkSync("loop-b", join(base, "root/loop-a"));
  symlinkSync("loop-a", join(base, "root/loop-b"));
});

const tool = (extra: Partial<ExecToolConfig> = {}): ExecToolConfig => ({
  tool: "read",
  argv: [[NODE], [fixture("argv.mjs")], ["--file"], [{ field: "path" }], ["--label=", { field: "label" }]],
  fields: { path: "string", label: "string" },
  cwd: join(base, "root"),
  paths: { fields: ["path"], allow: ["."], deny: ["secret"] },
  ...extra,
});
const check = async (path: string, cfg = tool()) => createExecHandler(cfg)({ path, label: "../../etc/passwd" }, ctx());

describe("allowed", () => {
  it.each([
    ["sub/file.txt"],
    ["./sub/file.txt"],
    ["sub/../sub/file.txt"],
    ["good-link"],
    ["sub/not-yet-created.txt"],
    ["new-dir/also/new.txt"],
    ["."],
    [""],
  ])("%j", async (path) => {
    const out = await check(path);
    expect(out.isError).toBeFalsy();
    expect(JSON.parse((out.value as { stdout: string }).stdout)).toEqual(["--file", path, "--label=../../etc/passwd"]);
  });
  it("absolute paths inside the root", async () => {
    expect((await check(join(base, "root/sub/file.txt"))).isError).toBeFalsy();
  });
  it("only path fields are checked", async () => {
    expect((await check("sub/file.txt")).isError).toBeFalsy(); // label is ../../etc/passwd
  });
});

describe("refused, naming the field and the rule", () => {
  it.each([
    ["../outside/passwd", /outside the allowed roots/],
    ["/etc/passwd", /resolves to \/etc\/passwd, outside the allowed roots/],
    ["sub/../../outside/passwd", /outside the allowed roots/],
    ["escape/passwd", /outside the allowed roots/],
    ["escape", /outside the allowed roots/],
    ["rel-escape", /outside the allowed roots/],
    ["dangling", /outside the allowed roots/],
    ["escape/new-file", /outside the allowed roots/],
    ["sub/deep/../passwd", /outside the allowed roots/],
    ["secret", /inside the denied path/],
    ["secret/key", /inside the denied path/],
    ["to-secret/key", /inside the denied path/],
    ["sub/../secret/not-yet", /inside the denied path/],
    ["-rf", /starts with "-" and would be read as an option/],
    ["--output=x", /starts with "-"/],
    ["loop-a", /too many levels of symbolic links/],
  ])("%j", async (path, why) => {
    const out = await check(path);
    expect(out.isError).toBe(true);
    expect(out.text).toMatch(/^read: field "path"/);
    expect(out.text).toMatch(why);
  });
  it("a symlink into the root from outside is judged by its target", async () => {
    symlinkSync(join(base, "root/sub"), join(base, "outside/into-root"));
    expect((await check(join(base, "outside/into-root/file.txt"))).isError).toBeFalsy();
  });
  it("'..' is applied after a symlink, as the kernel does", () => {
    // Lexically root/sub/deep/.. is root/sub; the kernel goes to the parent of outside/.
    expect(resolveReal("sub/deep/..", join(base, "root"))).toBe(base);
  });
  it("denied wins over allowed, and a denied path that does not exist yet stays denied", async () => {
    const cfg = tool({ paths: { fields: ["path"], allow: ["."], deny: ["future"] } });
    expect((await check("future/x", cfg)).text).toMatch(/inside the denied path/);
  });
  it("allow defaults to the tool's cwd", async () => {
    const cfg = tool({ paths: { fields: ["path"] } });
    expect((await check("sub/file.txt", cfg)).isError).toBeFalsy();
    expect((await check("../outside/passwd", cfg)).isError).toBe(true);
  });
  it("several roots: a value inside any one is allowed", async () => {
    const cfg = tool({ paths: { fields: ["path"], allow: ["sub", join(base, "outside")] } });
    expect((await check("sub/file.txt", cfg)).isError).toBeFalsy();
    expect((await check("../outside/passwd", cfg)).isError).toBeFalsy();
    expect((await check("secret/key", cfg)).isError).toBe(true);
  });
  it("a root is a path prefix by components, not by characters", async () => {
    mkdirSync(join(base, "root/sub-sibling"), { recursive: true });
    const cfg = tool({ paths: { fields: ["path"], allow: ["sub"] } });
    expect((await check("sub-sibling/x", cfg)).text).toMatch(/outside the allowed roots/);
  });
});
