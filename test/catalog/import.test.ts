// kervan import --exposure catalog: an import over the profile's tool budget suggests it in its
// refusal; with it, every operation is imported into a catalog spec (with its tags) that builds.
import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const kervan = (args: string[]) => {
  const r = spawnSync(process.execPath, ["bin/kervan.mjs", ...args], { encoding: "utf8" });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
};

describe("kervan import --exposure catalog", () => {
  const dir = mkdtempSync(join(tmpdir(), "kervan-catalog-import-"));
  const paths: Record<string, unknown> = {};
  for (let i = 0; i < 45; i++) {
    paths[`/items/${i}`] = { get: { operationId: `getItem${i}`, summary: `Get item number ${i}`, tags: [i < 30 ? "items" : "admin"], responses: { 200: { description: "ok" } } } };
  }
  writeFileSync(join(dir, "many.json"), JSON.stringify({ openapi: "3.1.0", info: { title: "Many", version: "1" }, paths }));

  it("suggests --exposure catalog when the operations exceed the profile's budget", () => {
    const r = kervan(["import", join(dir, "many.json"), "--out", join(dir, "refused.yaml"), "--profile", "cursor"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/refused \(too-many-tools\): 45 operations would become tools; the limit is 40 .*\nServe them all as a catalog with --exposure catalog/);
  });

  it("imports every operation as a catalog with its tags, and the spec builds", () => {
    const spec = join(dir, "many.yaml");
    const r = kervan(["import", join(dir, "many.json"), "--name", "many", "--out", spec, "--profile", "cursor", "--exposure", "catalog"]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/45 tools written/);
    const text = readFileSync(spec, "utf8");
    expect(text).toMatch(/^server: \{ name: many, version: 0.1.0, title: Many, exposure: catalog \}$/m);
    expect(text).toMatch(/^    tags: \[ admin \]$/m);
    const gen = kervan(["gen", spec, "--out", join(dir, "out")]);
    expect(gen.code, gen.stderr).toBe(0);
    const manifest = JSON.parse(readFileSync(join(dir, "out/many/kervan.manifest.json"), "utf8"));
    expect(Object.keys(manifest.listing.tools)).toEqual(["call_operation", "describe_operation", "search_operations"]);
    expect(manifest.tools).toHaveLength(45);
  });

  it("refuses another exposure", () => {
    expect(kervan(["import", join(dir, "many.json"), "--exposure", "lazy"]).stderr).toMatch(/--exposure must be tools or catalog/);
  });
});
