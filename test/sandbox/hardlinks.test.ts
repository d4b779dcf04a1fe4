// The hard-link scan behind the sandbox's masks: which other names of denied files it finds, and
// when a call's look at the denied paths makes it scan again.
import { describe, expect, it } from "vitest";
import { linkSync, lstatSync, mkdirSync, mkdtempSync, realpathSync, writeFileSync, type Stats } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { linksStale, scanLinks } from "../../templates/kinds/exec/hardlinks.js";

function setup() {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "kervan-links-")));
  const project = join(root, "project");
  for (const d of [project, join(project, ".git"), join(project, "src"), join(root, "elsewhere")]) mkdirSync(d, { recursive: true });
  writeFileSync(join(project, ".env"), "secret\n");
  writeFileSync(join(project, ".git", "config"), "token\n");
  writeFileSync(join(project, "src", "plain.txt"), "plain\n");
  const masked = [join(project, ".env"), join(project, ".git")];
  const stats = () => new Map<string, Stats | undefined>(masked.map((m) => [m, lstatSync(m)]));
  return { root, project, masked, stats };
}

describe("hard links to denied files", () => {
  it("finds nothing, and walks nothing, when no denied file has a second name", () => {
    const { project, masked } = setup();
    const s = scanLinks([project], masked);
    expect(s.denied.size).toBe(0);
    expect(s.aliases).toEqual([]);
  });

  it("finds names under the visible roots for a denied file and for a file in a denied directory, not those outside", () => {
    const { root, project, masked } = setup();
    linkSync(join(project, ".env"), join(project, "src", "x"));
    linkSync(join(project, ".git", "config"), join(project, "y"));
    linkSync(join(project, ".env"), join(root, "elsewhere", "z"));
    linkSync(join(project, "src", "plain.txt"), join(project, "src", "plain-too.txt"));
    expect(scanLinks([project], masked).aliases).toEqual([join(project, "src", "x"), join(project, "y")]);
  });

  it("is stale when a denied file gains or loses a name, or a denied path appears; not otherwise", () => {
    const { project, masked, stats } = setup();
    const s = scanLinks([project], masked);
    expect(linksStale(s, stats())).toBe(false);
    linkSync(join(project, ".env"), join(project, "src", "x"));
    expect(linksStale(s, stats())).toBe(true);
    const again = scanLinks([project], masked);
    expect(again.aliases).toEqual([join(project, "src", "x")]);
    expect(linksStale(again, stats())).toBe(false);
    linkSync(join(project, ".env"), join(project, "src", "w"));
    expect(linksStale(again, stats())).toBe(true);

    const late = join(project, "late");
    const s2 = scanLinks([project], [...masked, late]);
    mkdirSync(late);
    expect(linksStale(s2, new Map([...stats(), [late, lstatSync(late)]]))).toBe(true);
  });
});
