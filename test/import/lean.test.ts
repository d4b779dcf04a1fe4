// The lean texts of an import (generator/import/lean.ts, output.ts): sentences that only point to
// another page by a link and a list of media types leave the texts, output schemas keep no
// describing keywords, and `--full-text` keeps the API's texts whole (recorded, so a re-import keeps it).
import { describe, expect, it } from "vitest";
import { join } from "node:path";
import { withoutMediaTypeLists, withoutPointers } from "../../generator/import/lean.js";
import { importOpenApi } from "../../generator/import/importer.js";
import { FIXTURES } from "./cases.js";

describe("lean texts", () => {
  it("leaves out a sentence that only points to pages by links, wherever it stands", () => {
    expect(withoutPointers('Max 100. For more information, see "[Paging](https://x.test/p)."')).toBe("Max 100.");
    expect(withoutPointers("Slow down.\nFor more information, see [Limits](https://x.test/l)\nand [Practices](https://x.test/b).\n\nNext.")).toBe("Slow down.\n\n\nNext.");
    expect(withoutPointers("Paid plans. For more information, see [Products](https://x.test/p) in the Help documentation. Then.")).toBe("Paid plans. Then.");
    expect(withoutPointers("To learn more about ids, see [Ids](https://x.test/i).")).toBe("");
  });

  it("keeps a sentence that says more than where to read", () => {
    for (const text of ["See [Paging](https://x.test/p) for the limits.", "For more information, see the notes below.", "For more information on ids see [Ids](https://x.test/i) because ids are reused, and they change."])
      expect(withoutPointers(text)).toBe(text);
  });

  it("leaves out a list of media types and the sentence that introduces it, and nothing else", () => {
    const text = "One note.\n\nThis endpoint supports these media types. Pick one.\n\n- **`application/vnd.x.raw+json`**: raw.\n- `text/html`: HTML.\n\nAfter.";
    expect(withoutMediaTypeLists(text)).toBe("One note.\n\nPick one.\n\n\nAfter.");
    const other = "Forms:\n\n- `plain`: the text.\n- `html`: the HTML.";
    expect(withoutMediaTypeLists(other)).toBe(other);
  });

  it("--full-text keeps the texts whole and is recorded; what validates is the same", async () => {
    const file = join(FIXTURES, "rules", "texts.yaml");
    const [lean, full] = await Promise.all([importOpenApi({ file }), importOpenApi({ file, fullText: true })]);
    expect(full.text).toContain('"fullText":true');
    expect(lean.text).not.toContain("fullText");
    const [a, b] = [lean, full].map((r) => JSON.stringify(r.data));
    for (const text of ['For more information, see \\"Notes.\\"', "application/vnd.example.raw+json: Returns the raw body.", "To learn more about ids, see Ids and Keys.", "Who wrote it.", '"default":"open"']) {
      expect(b).toContain(text);
      expect(a).not.toContain(text);
    }
    expect(a.length).toBeLessThan(b.length);
    // Only describing keywords differ: without them, the two imports are the same.
    const bare = (v: unknown): unknown => (Array.isArray(v) ? v.map(bare) : v && typeof v === "object" ? Object.fromEntries(Object.entries(v).filter(([k, x]) => !(["description", "title", "default"].includes(k) && typeof x !== "object")).map(([k, x]) => [k, bare(x)])) : v);
    const tools = (r: typeof lean) => (r.data as { tools: Array<{ input: unknown; output: unknown }> }).tools.map((t) => ({ input: bare(t.input), output: bare(t.output) }));
    expect(tools(lean)).toEqual(tools(full));
  });
});
