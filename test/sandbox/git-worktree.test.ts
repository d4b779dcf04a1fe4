// A linked git worktree under the sandbox: its `.git` file points to a git directory outside the
// tool's roots. Git there works once the spec names the main repository's `.git` as visible; a git
// tool that does not is refused at startup, naming the directory to add.
import { beforeAll, describe, expect, it } from "vitest";
import { execFileSync } from "node:child_process";
import { mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { checkExecStartup, createExecHandler, type ExecToolConfig } from "../../templates/kinds/exec/index.js";
import { hiddenGitDirs } from "../../templates/kinds/exec/git-dir.js";
import { requireBubblewrap } from "./host.js";

let root: string;
let main: string;
let wt: string;
const ctx = { signal: new AbortController().signal, era: "2026-07-28" as const };

beforeAll(() => {
  requireBubblewrap();
  root = realpathSync(mkdtempSync(join(tmpdir(), "kervan-worktree-")));
  main = join(root, "main");
  wt = join(root, "linked");
  const git = (...args: string[]) => execFileSync("git", args, { cwd: root, stdio: "pipe", env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: root } });
  git("init", "-q", main);
  writeFileSync(join(main, "README"), "hello\n");
  git("-C", main, "add", "README");
  git("-C", main, "-c", "user.name=t", "-c", "user.email=t@example.invalid", "commit", "-q", "-m", "first commit");
  git("-C", main, "worktree", "add", "-q", wt);
});

const tool = (argv: string[], sandbox: ExecToolConfig["sandbox"]): ExecToolConfig => ({ tool: "t", argv: argv.map((a) => [a]), fields: {}, cwd: wt, sandbox });

describe("a linked git worktree under the sandbox", () => {
  it("finds the main repository's .git as the directory the sandbox hides", () => {
    expect(hiddenGitDirs({ visible: [wt], masked: [] })).toEqual([{ file: join(wt, ".git"), needed: join(main, ".git") }]);
    expect(hiddenGitDirs({ visible: [wt, join(main, ".git")], masked: [] })).toEqual([]);
    expect(hiddenGitDirs({ visible: [wt], masked: [join(wt, ".git")] })).toEqual([]);
  });

  it("refuses to start a git tool that could not see its repository, naming the directory to add", () => {
    expect(() => checkExecStartup(tool(["git", "log", "--format=%s"], { mode: "bubblewrap" }))).toThrow(
      new RegExp(`${join(wt, ".git")} points to a git directory the sandbox does not show; add ${join(main, ".git")} to sandbox.visible`),
    );
  });

  it("runs git once the spec names the main .git as visible", async () => {
    const h = createExecHandler(tool(["git", "log", "--format=%s"], { mode: "bubblewrap", visible: ["../main/.git"] }));
    const out = await h({}, ctx);
    expect(out.isError).toBeFalsy();
    expect((out.value as { stdout: string }).stdout).toBe("first commit\n");
  });

  it("without it, git started some other way cannot see the repository (the server warns at startup)", async () => {
    const out = await createExecHandler(tool(["sh", "-c", "git log --format=%s"], { mode: "bubblewrap" }))({}, ctx);
    expect((out.value as { exitCode: number; stderr: string }).exitCode).toBe(128);
    expect((out.value as { stderr: string }).stderr).toMatch(/not a git repository/);
  });

  it("starts a tool that does not run git, the .git file notwithstanding", async () => {
    const out = await createExecHandler(tool(["cat", "README"], { mode: "bubblewrap" }))({}, ctx);
    expect((out.value as { stdout: string }).stdout).toBe("hello\n");
  });
});
