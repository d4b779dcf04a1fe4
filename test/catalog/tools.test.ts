// The catalog tools' own definitions pass Kervan's description and parameter lint, and the search
// index is the same bytes on every build of one spec.
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { catalogTools } from "../../templates/runtime/catalog/tools.js";
import { descriptionRules } from "../../generator/lint/rules/description.js";
import { paramRules } from "../../generator/lint/rules/params.js";
import type { LintTool } from "../../generator/lint/types.js";
import { load } from "../../generator/load.js";
import { normalize } from "../../generator/normalize.js";
import { buildIndex } from "../../generator/catalog/index.js";
import { rank } from "../../templates/runtime/catalog/search.js";

describe("catalog tools", () => {
  it("pass the description and parameter lint", () => {
    const reports: string[] = [];
    for (const t of catalogTools([], 20_000)) {
      const tool = { name: t.name, title: t.title, description: t.description, inputSchema: t.inputSchema, builtin: false, raw: {}, pointer: "/tools/0" } as unknown as LintTool;
      for (const rule of [...descriptionRules, ...paramRules]) rule.tool(tool, {} as never, (message) => reports.push(`${rule.code} ${message}`));
    }
    expect(reports).toEqual([]);
  });

  it("validate their own arguments", () => {
    const [call, , search] = catalogTools([], 20_000);
    expect(search!.validateInput({ query: "x", limit: 3 })).toBe(true);
    expect(search!.validateInput({ query: "", limit: 0, extra: 1 })).toBe(false);
    expect(search!.validateInput.errors!.map((e) => e.keyword).sort()).toEqual(["additionalProperties", "minLength", "minimum"]);
    expect(call!.validateInput({ arguments: [] })).toBe(false);
    expect(call!.validateInput.errors!.map((e) => e.keyword).sort()).toEqual(["required", "type"]);
  });
});

describe("the search index", () => {
  const spec = () => load([{ path: "test/fixtures/catalog/shop.yaml", text: readFileSync("test/fixtures/catalog/shop.yaml", "utf8") }], []);
  it("is the same bytes on every build", () => {
    expect(JSON.stringify(buildIndex(normalize(spec())[0]!))).toBe(JSON.stringify(buildIndex(normalize(spec())[0]!)));
  });

  it("finds an operation by a synonym, an abbreviation-free verb and the HTTP method's meaning", () => {
    const index = buildIndex(normalize(spec())[0]!);
    const top = (q: string) => index.ops[rank(index, q, () => true)[0]!]![0];
    expect(top("remove an item")).toBe("delete_item");
    expect(top("add a product")).toBe("create_item");
    expect(top("read item 4")).toBe("get_item");
    expect(rank(index, "remove an item", (n) => n !== "delete_item").map((i) => index.ops[i]![0])).not.toContain("delete_item");
  });
});
