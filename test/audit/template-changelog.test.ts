// The changelog's resource template rules: a template added widens what clients can read (it runs its
// tool), one removed is breaking, one changed is listed. Also AUDIT.md's section, from a manifest alone.
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { changelog } from "../../generator/audit/changelog.js";
import { renderAudit } from "../../generator/audit/render.js";
import type { Manifest, ManifestResourceTemplate } from "../../generator/audit/types.js";

const base = (): Manifest => JSON.parse(readFileSync("test/fixtures/changelog/old.json", "utf8"));
const files: ManifestResourceTemplate = { uriTemplate: "repo://files/{+path}", name: "file", mimeType: "text/plain", variables: ["path"], tool: "read_file", commands: ["cat"], hosts: [] };

function entries(from: ManifestResourceTemplate[] | undefined, to: ManifestResourceTemplate[] | undefined): string[] {
  const [a, b] = [base(), base()];
  if (from) a.resourceTemplates = from;
  if (to) b.resourceTemplates = to;
  return changelog(a, b).changes.filter((c) => c.path[0].startsWith("Resource template")).map((c) => `${c.change} ${c.path.join(" / ")}: ${c.breaking ?? "not breaking"}`);
}

describe("changelog of resource templates", () => {
  it("flags an added template as a widening and a removed one as breaking; lists a changed one", () => {
    expect(entries(undefined, [files])).toEqual(["added Resource template repo://files/{+path}: widened capability: a new resource template reads through tool read_file"]);
    expect(entries([files], undefined)).toEqual(["removed Resource template repo://files/{+path}: resource template removed: clients reading its URIs fail"]);
    expect(entries([files], [{ ...files, mimeType: "text/markdown" }])).toEqual(["changed Resource template repo://files/{+path}: not breaking"]);
    expect(entries([files], [files])).toEqual([]);
  });

  it("AUDIT.md names the tool each template reads through, what it reaches, and what completes", () => {
    const m = base();
    m.resourceTemplates = [{ ...files, complete: { path: "output lines of tool list_paths" } }];
    m.promptCompletions = { review: { style: "2 fixed values" } };
    const audit = renderAudit(m, "specs/x.yaml");
    expect(audit).toContain("| Resource templates | 1: `repo://files/{+path}` |");
    expect(audit).toContain("| Completes | `repo://files/{+path} path`, `review.style` |");
    expect(audit).toContain("- Reads through tool `read_file` (variables `path`): commands `cat`; hosts none\n- Completes `path` from output lines of tool list_paths\n");
    expect(audit).toContain("- `review` argument `style`: 2 fixed values");
  });
});
