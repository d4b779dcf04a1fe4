// Messages that say what is wrong and the likely fix (issue 25, item 10): KV320 suggests an `{if:}`
// group instead of denying optional fields exist, KV417 on `/users/{id}` hints `{{input.id}}`, KV323
// points at the argv entry naming the placeholder; and for each case of these codes the one-line
// meaning in generator/shared/codes.ts (rendered into docs/diagnostics.md) names the same case.
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { checkSources } from "../../generator/pipeline.js";
import { allCodes } from "../../generator/kinds/codes.js";
import type { Diagnostic } from "../../generator/model/diagnostic.js";

const ANN = "annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false }";
const spec = (tool: string) => `server:
  name: messages
  version: 0.1.0
  sandbox: none
tools:
  - name: t
    description: A tool for the message tests. Use it never.
    ${ANN}
${tool}`;

function diagnose(text: string, code: string): Diagnostic[] {
  const { diagnostics } = checkSources([{ path: "m.yaml", text }]);
  return diagnostics.filter((d) => d.code === code);
}

const meaning = (code: string) => allCodes().find((c) => c.code === code)!.meaning;
const plain = (s: string) => s.replace(/[`'"]/g, "").toLowerCase();

const NOT_REQUIRED = spec(`    input:
      type: object
      properties:
        name: { type: string, description: Who. }
      required: []
      additionalProperties: false
    exec:
      argv: [echo, "{name}"]
`);
const NO_REQUIRED = NOT_REQUIRED.replace("      required: []\n", "");
const HTTP = (path: string) => spec(`    input:
      type: object
      properties:
        id: { type: string, description: Which user. }
      required: [id]
      additionalProperties: false
    http:
      method: GET
      baseUrl: https://api.example.com
      path: ${path}
`);

describe("KV320: an optional exec field outside an {if:} group", () => {
  for (const [what, text] of [["left out of required", NOT_REQUIRED], ["no required at all", NO_REQUIRED]] as const) {
    it(what, () => {
      const [d] = diagnose(text, "KV320");
      expect(d).toBeDefined();
      expect(d.message).not.toMatch(/no optional fields/);
      expect(d.message).toContain("name");
      expect(d.suggestion).toContain("{if: name, argv: [");
      expect(d.suggestion).toContain("required");
      // The fix it suggests passes the check.
      const fixed = text.replace('argv: [echo, "{name}"]', 'argv: [echo, {if: name, argv: ["{name}"]}]');
      expect(checkSources([{ path: "m.yaml", text: fixed }]).diagnostics.filter((x) => x.severity === "error")).toEqual([]);
    });
  }
});

describe("KV417: the path of an http tool", () => {
  it("/users/{id} hints {{input.id}}, and the hint passes the check", () => {
    const [d] = diagnose(HTTP("/users/{id}"), "KV417");
    expect(d.message).toContain("{id}");
    expect(d.suggestion).toContain("/users/{{input.id}}");
    expect(diagnose(HTTP("/users/{{input.id}}"), "KV417")).toEqual([]);
  });

  it("other characters: says which, and how to encode them", () => {
    const [d] = diagnose(HTTP('"/users/a b/{{input.id}}"'), "KV417");
    expect(d.message).toContain("percent-encoding");
    expect(d.suggestion).toMatch(/%20/);
  });
});

describe("KV323: a placeholder with no property", () => {
  it("points at the argv entry that names it", () => {
    const text = spec(`    input:
      type: object
      properties:
        a: { type: string, description: A. }
      required: [a]
      additionalProperties: false
    exec:
      argv:
        - echo
        - "{a}"
        - "--b={b}"
`);
    const [d] = diagnose(text, "KV323");
    expect(d.location.pointer).toBe("/tools/0/exec/argv/2");
    expect(text.split("\n")[d.location.line - 1]).toContain("--b={b}");
    expect(d.suggestion).toContain("b: { type: string");
  });
});

describe("the table says what the code says", () => {
  // Each case of a code: a spec producing it and the words both the message and the code's meaning use.
  const cases: [string, string, string][] = [
    ["KV320", NOT_REQUIRED, "{if:}"],
    ["KV320", NO_REQUIRED, "{if:}"],
    ["KV417", HTTP("/users/{id}"), "{{input.id}}"],
    ["KV417", HTTP('"/a b"'), "percent-encoding"],
    ["KV417", HTTP("/a//{{input.id}}"), "empty segment"],
    ["KV417", HTTP("/a/../{{input.id}}"), ". or .. segment"],
  ];
  for (const [code, text, words] of cases) {
    it(`${code}: ${words}`, () => {
      const [d] = diagnose(text, code);
      expect(d, `${code} for ${words}`).toBeDefined();
      expect(plain(`${d.message} ${d.suggestion ?? ""}`).replace(/{if: name, argv: \[[^\]]*\]}/, "{if:}").replace(/{if: /, "{if:}")).toContain(plain(words));
      expect(plain(meaning(code))).toContain(plain(words));
    });
  }

  it("docs/diagnostics.md renders those meanings", () => {
    const doc = readFileSync("docs/diagnostics.md", "utf8");
    for (const code of ["KV320", "KV323", "KV417"]) expect(doc).toContain(`${code} | error | ${meaning(code)} |`);
  });
});
