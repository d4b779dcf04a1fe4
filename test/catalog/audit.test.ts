// The audit of a catalog server stays whole: its manifest and AUDIT.md list every operation reachable
// through call_operation with the same facts as the flat build of the same spec; the listing's tokens are
// counted; the changelog reports a change of exposure, and an operation added to a catalog as an added tool.
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { changelog } from "../../generator/audit/changelog.js";
import type { Manifest } from "../../generator/audit/types.js";
import { generateShop } from "./generate.js";

const manifestOf = (bundle: string): Manifest => JSON.parse(readFileSync(join(dirname(bundle), "kervan.manifest.json"), "utf8"));
const auditOf = (bundle: string): string => readFileSync(join(dirname(bundle), "AUDIT.md"), "utf8");

describe("catalog audit", () => {
  const flatBundle = generateShop("tools");
  const catBundle = generateShop("catalog");
  const [flat, cat] = [manifestOf(flatBundle), manifestOf(catBundle)];

  it("lists every operation with the facts of its flat build", () => {
    expect(cat.tools.map((t) => t.name)).toEqual(flat.tools.map((t) => t.name));
    for (const [i, t] of cat.tools.entries()) {
      const { reachedThrough, ...rest } = t;
      expect(reachedThrough).toBe("call_operation");
      expect(rest).toEqual(flat.tools[i]);
    }
    expect(cat.capabilities).toEqual(flat.capabilities);
    const audit = auditOf(catBundle);
    for (const t of cat.tools) expect(audit).toContain(`### ${t.name}`);
    expect(audit).toMatch(/\| Exposure \| catalog: /);
  });

  it("ships the search index in a chunk file of its own that the manifest hashes, not in the bundle's entry", () => {
    const chunk = Object.keys(cat.bundle.chunks ?? {}).find((c) => /^chunks\/catalog-[A-Z0-9]+\.mjs$/.test(c));
    expect(chunk).toBeDefined();
    expect(readFileSync(join(dirname(catBundle), chunk!), "utf8")).toContain('"postings"');
    expect(readFileSync(catBundle, "utf8")).not.toContain('"postings"');
  });

  it("counts the listing's tokens per tool and in total", () => {
    expect(Object.keys(cat.listing!.tools)).toEqual(["call_operation", "describe_operation", "search_operations"]);
    expect(Object.keys(flat.listing!.tools)).toEqual(["create_item", "delete_item", "get_item"]);
    for (const m of [flat, cat]) expect(m.listing!.total).toBe(Object.values(m.listing!.tools).reduce((a, b) => a + b, 0));
    expect(flat.listing!.tools.get_item).toBe(flat.tools.find((t) => t.name === "get_item")!.descriptorTokens);
    expect(auditOf(flatBundle)).toContain(`| tools/list size | ${flat.listing!.total} tokens (o200k_base, an estimate) |`);
  });

  it("reports a change of exposure as breaking, and an operation added to a catalog as an added tool", () => {
    const change = changelog(flat, cat).changes.find((c) => c.path.join("/") === "Server/exposure");
    expect(change).toMatchObject({ change: "changed", old: "tools", new: "catalog" });
    expect(change!.breaking).toMatch(/tools\/list now lists only the catalog tools/);
    const smaller = structuredClone(cat);
    smaller.tools = smaller.tools.filter((t) => t.name !== "delete_item");
    const added = changelog(smaller, cat).changes.filter((c) => c.tool === "delete_item");
    expect(added).toEqual([expect.objectContaining({ path: ["Tool"], change: "added" })]);
  });
});
