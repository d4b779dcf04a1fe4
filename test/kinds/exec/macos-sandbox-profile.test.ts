// The macOS form of the sandbox policy: a Seatbelt profile for sandbox-exec. These machines cannot
// run it, so its text is held to a golden (`npm run update-goldens` rewrites it).
import { describe, expect, it } from "vitest";
import { fileURLToPath } from "node:url";
import { macosProfile } from "../../../templates/kinds/exec/index.js";
import { expectGolden } from "../../helpers/golden.js";

const matchGolden = (name: string, text: string) => expectGolden(fileURLToPath(new URL(`./fixtures/sandbox/${name}`, import.meta.url)), text);

const project = "/Users/dev/src/app";

describe("macOS sandbox-exec profile", () => {
  it("a read-only tool: project visible, .env and .git masked, no network", () => {
    matchGolden("readonly.sb", macosProfile({ visible: [project], writable: [], masked: [`${project}/.env`, `${project}/.git`], network: false }));
  });
  it("a tool with writable roots and network", () => {
    matchGolden("writable-network.sb", macosProfile({ visible: [project, "/opt/homebrew"], writable: [`${project}/coverage`, `${project}/node_modules/.vite`], masked: [], network: true }));
  });
  it("paths are SBPL string literals: quotes and backslashes cannot end the string", () => {
    const text = macosProfile({ visible: ['/tmp/a") (allow default) ("'], writable: [], masked: [], network: false });
    expect(text).toContain('(subpath "/tmp/a\\") (allow default) (\\"")');
    expect(text).not.toMatch(/^\s*\(allow default\)/m);
  });
  it("closed by default; a denied path is denied for reads and writes after every allow", () => {
    const text = macosProfile({ visible: [project], writable: [], masked: [`${project}/.env`], network: false });
    expect(text.indexOf("(deny default)")).toBeLessThan(text.indexOf("(allow file-read*"));
    expect(text.lastIndexOf("(allow")).toBeLessThan(text.indexOf("(deny file-read* file-write*"));
    expect(text).not.toContain("(allow network");
  });
});
