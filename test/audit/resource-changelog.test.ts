// The changelog's resource rules: a resource removed is breaking, one added or with changed content
// is listed without being breaking. Also AUDIT.md's resources section, from a manifest's data alone,
// and the manifest of a generated server: each resource by uri, size, sha256 and source, its file an input.
import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { changelog } from "../../generator/audit/changelog.js";
import { renderAudit } from "../../generator/audit/render.js";
import type { Manifest, ManifestResource } from "../../generator/audit/types.js";

const base = (): Manifest => JSON.parse(readFileSync("test/fixtures/changelog/old.json", "utf8"));
const notes: ManifestResource = { uri: "docs://notes", name: "notes", mimeType: "text/markdown", encoding: "text", bytes: 12, sha256: "a".repeat(64), source: "file notes.md" };

function entries(from: ManifestResource[] | undefined, to: ManifestResource[] | undefined): string[] {
  const [a, b] = [base(), base()];
  if (from) a.resources = from;
  if (to) b.resources = to;
  return changelog(a, b).changes.filter((c) => c.path[0].startsWith("Resource")).map((c) => `${c.change} ${c.path.join(" / ")}: ${c.breaking ?? "not breaking"}`);
}

describe("changelog of resources", () => {
  it("flags a removed resource as breaking, lists an added one and changed content", () => {
    expect(entries([notes], undefined)).toEqual(["removed Resource docs://notes: resource removed: clients reading it fail"]);
    expect(entries(undefined, [notes])).toEqual(["added Resource docs://notes: not breaking"]);
    expect(entries([notes], [{ ...notes, bytes: 13, sha256: "b".repeat(64) }])).toEqual(["changed Resource docs://notes: not breaking"]);
    expect(entries([notes], [notes])).toEqual([]);
  });
});

describe("AUDIT.md and the manifest of resources", () => {
  it("lists each resource with what it serves, from the manifest alone", () => {
    const m = base();
    m.resources = [notes, { uri: "config://defaults", name: "defaults", mimeType: "application/json", encoding: "text", bytes: 3, sha256: "c".repeat(64), source: "inline text" }];
    const audit = renderAudit(m, "specs/x.yaml");
    expect(audit).toContain("| Resources | 2: `config://defaults`, `docs://notes` |");
    expect(audit).toContain("### `docs://notes`\n\n- Name: `notes`\n- Serves: text/markdown as text, 12 bytes, sha256 `" + "a".repeat(64) + "`\n- From: file notes.md\n");
  });

  it("records a generated server's resources and hashes their files into the inputs", () => {
    const out = mkdtempSync(join(tmpdir(), "kervan-resource-manifest-"));
    const r = spawnSync(process.execPath, ["bin/kervan.mjs", "gen", "test/fixtures/resources/resources.yaml", "--out", out], { encoding: "utf8" });
    expect(r.status, r.stderr).toBe(0);
    const manifest = JSON.parse(readFileSync(join(out, "resource-shelf/kervan.manifest.json"), "utf8")) as Manifest;
    const pixel = readFileSync("test/fixtures/resources/pixel.png");
    const sha = createHash("sha256").update(pixel).digest("hex");
    expect(manifest.inputs["pixel.png"]).toBe(sha);
    expect(manifest.resources?.map((x) => x.uri)).toEqual(["config://defaults", "docs://notes", "docs://pixel.png"]);
    expect(manifest.resources?.[2]).toEqual({ uri: "docs://pixel.png", name: "pixel", mimeType: "image/png", encoding: "blob", bytes: pixel.length, sha256: sha, source: "file pixel.png" });
    expect(readFileSync(join(out, "resource-shelf/AUDIT.md"), "utf8")).toContain(`- Serves: image/png as blob, ${pixel.length} bytes, sha256 \`${sha}\``);
  });
});
