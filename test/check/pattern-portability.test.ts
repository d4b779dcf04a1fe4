// Build-time reuse of validate_json's Python-regex translator: spec-schema patterns that Python's
// `re` reads differently from ECMA-262 get a warning with the reason and the place.
import { describe, expect, it } from "vitest";
import { pythonDifference } from "../../generator/check/pattern-portability.js";
import { checkSources } from "../../generator/pipeline.js";

describe("pattern portability", () => {
  it.each([
    ["^[a-z]+$", undefined],
    ["^[A-Za-z0-9_.-]{1,128}$", undefined],
    ["^https?://", undefined],
    ["[0-9]{4}", undefined],
  ])("reads %s the same in both dialects", (p, expected) => expect(pythonDifference(p)).toBe(expected));

  it.each([
    ["^\\d{4}$", /\\d matches every Unicode digit/],
    ["^\\w+$", /\\w matches Unicode letters/],
    ["(?<year>\\d+)", /cannot use it/],
    ["^a\\z", /cannot use it/],
  ])("warns about %s", (p, reason) => expect(pythonDifference(p)).toMatch(reason));

  it("reports a warning at the pattern's line, and the build still succeeds", () => {
    const text = [
      "server: { name: p, version: 0.1.0 }",
      "tools:",
      "  - name: t",
      "    description: Look up an order by its number.",
      "    input:",
      "      type: object",
      "      properties:",
      "        id: { type: string, pattern: '^\\d{6}$' }",
      "      required: [id]",
      "    http: { method: GET, baseUrl: 'https://example.com', path: '/orders/{{input.id}}' }",
      "    output: { raw: true }",
    ].join("\n");
    const { diagnostics } = checkSources([{ path: "p.yaml", text }]);
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatchObject({ code: "KV513", severity: "warning", location: { file: "p.yaml", line: 8 } });
  });
});
