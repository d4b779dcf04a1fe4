// The bundle starts while the emit's long parts (the validators, the types) are still being
// emitted (pipeline.ts): it is handed those files as promises and waits for the one it imports.
// The bytes must be those of a bundle started on finished files, and a part whose emit fails must
// fail the bundle with a plain error, never an unhandled rejection.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { load } from "../../generator/load.js";
import { normalize } from "../../generator/normalize.js";
import { planServer } from "../../generator/plan.js";
import { emitServer, startEmit } from "../../generator/emit/index.js";
import { bundleServer } from "../../generator/bundle.js";
import { openBuild } from "../../generator/pipeline.js";
import { validatorsPath } from "../../generator/emit/validators.js";
import type { EmittedFile, LaterFile } from "../../generator/model/output.js";
import { PACKAGE_ROOT } from "../../generator/paths.js";

function planOf(spec: string) {
  const path = join("specs", spec);
  const diagnostics: { severity: string }[] = [];
  const specs = load([{ path, text: readFileSync(join(PACKAGE_ROOT, path), "utf8") }], diagnostics as never);
  const servers = normalize(specs, diagnostics as never);
  expect(diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  return planServer(servers[0]!, { outRoot: "out" });
}

/** A file whose contents come when `release` is called; `asked` says whether anyone waited for them. */
function held(file: EmittedFile): { later: LaterFile; asked: () => boolean; release: () => void; fail: () => void } {
  let asked = false;
  let settle: (ok: boolean) => void = () => {};
  const gate = new Promise<boolean>((resolve) => (settle = resolve));
  const contents = {
    then(resolve: (s: string) => void, reject: (e: unknown) => void) {
      asked = true;
      return gate.then((ok) => (ok ? resolve(file.contents) : reject(new Error("the emit failed"))));
    },
  } as unknown as Promise<string>;
  return { later: { path: file.path, contents }, asked: () => asked, release: () => settle(true), fail: () => settle(false) };
}

/** Resolves once `check` holds, looking again at every turn of the event loop. */
async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((r) => setImmediate(r));
}

describe("the bundle overlaps the emit", () => {
  const plan = planOf("github-issues.yaml");
  // This thread's build, and one whose pool takes every job however small (a large spec's path).
  const here = openBuild();
  const pooled = openBuild({ offThread: 0 });
  afterAll(() => {
    here.close();
    pooled.close();
  });

  it("waits for the validators it imports and gives the bytes of a bundle of finished files", async () => {
    const files = await emitServer(plan, here);
    const whole = await bundleServer(plan, files);
    const validators = files.find((f) => f.path === validatorsPath(plan.dir))!;
    const h = held(validators);
    const bundling = bundleServer(plan, files.map((f) => (f === validators ? h.later : f)));
    // The bundle has read the tool modules and now waits on the validators they import.
    await until(h.asked);
    h.release();
    const overlapped = await bundling;
    expect(overlapped.contents).toBe(whole.contents);
    expect(overlapped.packages).toEqual(whole.packages);
  });

  it("fails with a plain error, and nothing unhandled, when a file it waits for fails to emit", async () => {
    const files = await emitServer(plan, here);
    const validators = files.find((f) => f.path === validatorsPath(plan.dir))!;
    const h = held(validators);
    const bundling = bundleServer(plan, files.map((f) => (f === validators ? h.later : f)));
    await until(h.asked);
    h.fail();
    await expect(bundling).rejects.toThrow(/the emit of .*validators\.mjs failed/);
  });

  it("on the worker a large spec gets, gives the same bytes, waiting for a file sent later", async () => {
    const files = await emitServer(plan, here);
    const whole = await bundleServer(plan, files);
    const validators = files.find((f) => f.path === validatorsPath(plan.dir))!;
    let release: (s: string) => void = () => {};
    const later = { path: validators.path, contents: new Promise<string>((resolve) => (release = resolve)) };
    const bundling = bundleServer(plan, files.map((f) => (f === validators ? later : f)), pooled.pool);
    release(validators.contents);
    expect(await bundling).toEqual(whole);
  });

  it("on the worker, fails with a plain error when a file it waits for fails to emit", async () => {
    const files = await emitServer(plan, here);
    const validators = files.find((f) => f.path === validatorsPath(plan.dir))!;
    let fail: (e: Error) => void = () => {};
    const later = { path: validators.path, contents: new Promise<string>((_, reject) => (fail = reject)) };
    later.contents.catch(() => {});
    const bundling = bundleServer(plan, files.map((f) => (f === validators ? later : f)), pooled.pool);
    fail(new Error("the emit failed"));
    await expect(bundling).rejects.toThrow(/the emit of .*validators\.mjs failed/);
  });

  it("startEmit hands over the entry and the tool modules at once, and every file when done", async () => {
    const emission = startEmit(plan, here);
    const ready = emission.files.filter((f): f is EmittedFile => typeof f.contents === "string").map((f) => f.path);
    expect(ready).toContain(`${plan.dir}/src/server.ts`);
    expect(ready.filter((p) => p.includes("/src/tools/"))).toHaveLength(plan.tools.length);
    const done = await emission.done;
    expect(done.map((f) => f.path)).toEqual(emission.files.map((f) => f.path));
    expect(done).toEqual(await emitServer(plan, here));
  });
});
