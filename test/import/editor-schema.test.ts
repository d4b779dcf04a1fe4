// An imported spec points editors at the installed kervan.schema.json, by the same helper as
// `kervan init`: in a project outside Kervan's repository the path must name a file that exists.
import { describe, expect, it } from "vitest";
import { copyFileSync, existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { FIXTURES } from "./cases.js";
import { kervan, ROOT } from "./run-import.js";

const schemaLine = (spec: string) => /^# yaml-language-server: \$schema=(.+)$/m.exec(readFileSync(spec, "utf8"))?.[1];

describe("the editor schema line of an imported spec", () => {
  it("names kervan.schema.json from the spec's folder, as kervan init does", () => {
    const dir = mkdtempSync(join(tmpdir(), "kervan-schema-line-"));
    copyFileSync(join(FIXTURES, "reimport", "petstore.yaml"), join(dir, "petstore.yaml"));
    expect(kervan(["import", "petstore.yaml", "--name", "shop", "--out", "api/specs/shop.yaml"], dir).code).toBe(0);
    expect(kervan(["init", "starter", "--dir", "api/specs"], dir).code).toBe(0);
    const imported = schemaLine(join(dir, "api", "specs", "shop.yaml"));
    const started = schemaLine(join(dir, "api", "specs", "starter.yaml"));
    expect(imported).toBe(started);
    const target = resolve(dirname(join(dir, "api", "specs", "shop.yaml")), imported!);
    expect(target).toBe(join(ROOT, "kervan.schema.json"));
    expect(existsSync(target)).toBe(true);
  });
});
