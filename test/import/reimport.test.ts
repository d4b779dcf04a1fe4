// Re-import: the command printed at the top of an imported spec reproduces it byte for byte on an
// unchanged document, because a re-import reuses the options recorded in the spec (name, tags,
// operations, profile, tool budget) unless its command gives others; the spec records its source
// document, and an import from another document over it is refused by name, never diffed.
import { describe, expect, it } from "vitest";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FIXTURES } from "./cases.js";
import { kervan } from "./run-import.js";

function project(): string {
  const dir = mkdtempSync(join(tmpdir(), "kervan-reimport-"));
  copyFileSync(join(FIXTURES, "reimport", "petstore.yaml"), join(dir, "petstore.yaml"));
  copyFileSync(join(FIXTURES, "reimport", "other-petstore.yaml"), join(dir, "other.yaml"));
  return dir;
}

/** The re-import command written in the spec's header, as arguments after `kervan`. */
function printedCommand(spec: string): string[] {
  const line = /^# Re-import after the API changes: kervan (import .*) \(prints the changelog\)\.$/m.exec(spec);
  if (!line) throw new Error("no re-import command in the spec's header");
  return line[1].split(" ");
}

describe("kervan import: re-import", () => {
  it("the printed command reproduces the spec byte for byte, with the name, tags and profile it was made with", () => {
    const dir = project();
    const first = kervan(["import", "petstore.yaml", "--name", "shop", "--include-tags", "pet", "--profile", "claude"], dir);
    expect(first.code).toBe(0);
    const spec = readFileSync(join(dir, "specs", "shop.yaml"), "utf8");
    expect(spec).toMatch(/^server: { name: shop,/m);
    expect(spec).not.toMatch(/get_inventory/);
    const command = printedCommand(spec);
    expect(command).toEqual(["import", "petstore.yaml", "--out", "specs/shop.yaml"]);
    const again = kervan(command, dir);
    expect(again.stdout).toBe("");
    expect(again.stderr).toMatch(/specs\/shop\.yaml is unchanged/);
    expect(again.code).toBe(0);
    expect(readFileSync(join(dir, "specs", "shop.yaml"), "utf8")).toBe(spec);
  });

  it("an option the command gives wins over the recorded one, and the changelog names the committed spec", () => {
    const dir = project();
    expect(kervan(["import", "petstore.yaml", "--name", "shop", "--include-tags", "pet"], dir).code).toBe(0);
    const r = kervan(["import", "petstore.yaml", "--out", "specs/shop.yaml", "--include-tags", "pet,store"], dir);
    expect(r.stdout).toMatch(/^# shop committed spec -> new import$/m);
    expect(r.stdout).toMatch(/get_inventory/);
    expect(r.code).toBe(0);
    const spec = readFileSync(join(dir, "specs", "shop.yaml"), "utf8");
    expect(spec).toMatch(/"includeTags":\["pet","store"\]/);
    expect(spec).toMatch(/^server: { name: shop,/m);
  });

  it("another document that defaults to the same name is refused by name, and the spec is left alone", () => {
    const dir = project();
    expect(kervan(["import", "petstore.yaml"], dir).code).toBe(0);
    const spec = readFileSync(join(dir, "specs", "swagger-petstore.yaml"), "utf8");
    const r = kervan(["import", "other.yaml"], dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/refused \(other-source\): specs\/swagger-petstore\.yaml was imported from petstore\.yaml, and other\.yaml is another document; nothing written/);
    expect(r.stdout).toBe("");
    expect(readFileSync(join(dir, "specs", "swagger-petstore.yaml"), "utf8")).toBe(spec);
    const named = kervan(["import", "other.yaml", "--out", "specs/swagger-petstore.yaml"], dir);
    expect(named.code).toBe(1);
    expect(named.stderr).toMatch(/refused \(other-source\)/);
  });

  it("a spec that kervan import did not write is not overwritten", () => {
    const dir = project();
    mkdirSync(join(dir, "specs"));
    const hand = "server:\n  name: shop\n  version: 0.1.0\ntools:\n  - name: validate_json\n    validate_json: {}\n";
    writeFileSync(join(dir, "specs", "shop.yaml"), hand);
    const r = kervan(["import", "petstore.yaml", "--name", "shop"], dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/refused \(not-imported\): specs\/shop\.yaml exists and was not written by kervan import/);
    expect(readFileSync(join(dir, "specs", "shop.yaml"), "utf8")).toBe(hand);
  });
});
