// Each kind names the page (and section, `file#anchor`) that documents it: the page exists, and the
// section names the kind's spec key and every one of its diagnostic codes. Fixture kinds included.
import { describe, expect, it } from "vitest";
import { existsSync, readFileSync } from "node:fs";
import { allKinds } from "../../generator/kinds/index.js";
import { addFixtureKinds } from "../helpers/fixture-kinds.js";

await addFixtureKinds();

/** GitHub's anchor of a heading. */
const anchorOf = (heading: string) => heading.toLowerCase().replace(/[^\w\- ]/g, "").replace(/ /g, "-");

/** The text of a page, or of one section of it: from its heading to the next heading of its level or above. */
function section(ref: string): string {
  const [file, anchor] = ref.split("#");
  const text = readFileSync(file, "utf8");
  if (!anchor) return text;
  const lines = text.split("\n");
  const start = lines.findIndex((l) => /^#+ /.test(l) && anchorOf(l.replace(/^#+ /, "")) === anchor);
  if (start < 0) return "";
  const level = lines[start].indexOf(" ");
  const end = lines.findIndex((l, i) => i > start && /^#+ /.test(l) && l.indexOf(" ") <= level);
  return lines.slice(start, end < 0 ? undefined : end).join("\n");
}

describe("each kind's docs", () => {
  for (const kind of allKinds()) {
    it(`${kind.key}: ${kind.docs}`, () => {
      expect(existsSync(kind.docs.split("#")[0]), kind.docs).toBe(true);
      const text = section(kind.docs);
      expect(text, `${kind.docs} is a section of its page`).not.toBe("");
      expect(text).toContain(`\`${kind.key}\``);
      for (const c of kind.codes.codes) expect(text, `${kind.docs} mentions ${c.code}`).toContain(c.code);
    });
  }

  it("covers the fixture kind too", () => expect(allKinds().map((k) => k.key)).toContain("echo"));
});
