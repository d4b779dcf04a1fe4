// Extraction in the contract's order, with the documented tie breaks, and "not JSON" diagnosis.
import { describe, expect, it } from "vitest";
import { extractJson, findFences } from "../../../templates/kinds/validate_json/extract.js";

const value = (text: string) => {
  const r = extractJson(text);
  if (!r.ok) throw new Error(r.feedback);
  return [r.from, r.value];
};
const feedback = (text: string) => {
  const r = extractJson(text);
  if (r.ok) throw new Error("expected not JSON");
  return r.feedback;
};
const F = "```";

describe("bare values", () => {
  it.each([
    ['{"a":1}', { a: 1 }], ["42", 42], ['"text"', "text"], ["null", null], ["  [1, 2]\n", [1, 2]], ["\uFEFF{}", {}],
  ])("%j", (text, want) => expect(value(text)).toEqual(["bare", want]));
  it("a bare JSON string holding a fence stays the bare value", () => {
    expect(value(JSON.stringify(`${F}json\n{"x":1}\n${F}`))).toEqual(["bare", `${F}json\n{"x":1}\n${F}`]);
  });
  it("a bare object whose string holds ``` is the bare value", () => expect(value('{"a":"```"}')).toEqual(["bare", { a: "```" }]));
});

describe("fences", () => {
  it("json fence in prose", () => expect(value(`Here:\n${F}json\n{"a":1}\n${F}\nthanks`)).toEqual(["fence", { a: 1 }]));
  it("plain fence", () => expect(value(`${F}\n[1,2]\n${F}`)).toEqual(["fence", [1, 2]]));
  it("tilde fence and info words", () => expect(value(`~~~ JSON title\n{"t":true}\n~~~`)).toEqual(["fence", { t: true }]));
  it("jsonc counts as JSON", () => expect(value(`${F}jsonc\n{"c":1}\n${F}`)).toEqual(["fence", { c: 1 }]));
  it("skips other languages for the first json fence", () => {
    expect(value(`${F}python\nx = {"no": 1}\n${F}\nthen\n${F}json\n{"b":2}\n${F}`)).toEqual(["fence", { b: 2 }]);
  });
  it("falls back to the prose scan when only other-language fences exist", () => {
    expect(value(`${F}js\nconst a = 1;\n${F}\nresult {"r":1}`)).toEqual(["prose", { r: 1 }]);
  });
  it("a longer fence wrapping a shorter one yields the inner JSON", () => {
    expect(value(`\`\`\`\`\n${F}json\n{"x":1}\n${F}\n\`\`\`\``)).toEqual(["fence", { x: 1 }]);
  });
  it("a closing fence must be at least as long as the opening one", () => {
    expect(findFences(`\`\`\`\`json\n{"a":"\n${F}\n"}\n\`\`\`\``)[0].body).toBe(`{"a":"\n${F}\n"}`);
  });
  it("an unclosed fence runs to the end and is reported as truncated", () => {
    expect(feedback(`${F}json\n{"a": [1, 2`)).toMatch(/^Not JSON: the fenced code block \(json\) does not parse at line 1, column 12 .*truncated/);
  });
  it("a broken fence is reported, not skipped", () => {
    expect(feedback(`${F}json\n{"a":1,}\n${F}\n{"b":2}`)).toMatch(/fenced code block \(json\).*trailing comma before "}"/);
  });
});

describe("prose", () => {
  it("braces inside strings", () => expect(value('ok {"msg":"a } tricky { one"} done')).toEqual(["prose", { msg: "a } tricky { one" }]));
  it("escaped quotes inside strings", () => expect(value('x {"q":"say \\"}\\" now"} y')).toEqual(["prose", { q: 'say "}" now' }]));
  it("a citation before the real object", () => expect(value('See [1] for details. {"x":1}')).toEqual(["prose", { x: 1 }]));
  it("citations before a real array", () => expect(value('As [2, 3] say: ["a","b"]')).toEqual(["prose", ["a", "b"]]));
  it("only a citation-like array is still taken", () => expect(value("The answer is [1, 2, 3].")).toEqual(["prose", [1, 2, 3]]));
  it("the first object wins over a later one", () => expect(value('{"a":1} and {"b":2}')).toEqual(["prose", { a: 1 }]));
  it("skips an unparsable candidate for a later one", () => expect(value('use {x} like {"x":1}')).toEqual(["prose", { x: 1 }]));
});

describe("not JSON", () => {
  it("trailing comma", () => expect(feedback('{"a":1,}')).toContain("position 7): trailing comma before \"}\""));
  it("single quotes", () => expect(feedback("{'a':1}")).toContain("single quotes"));
  it("truncation", () => expect(feedback('{"a":[1,2')).toContain("truncated"));
  it("Python literals", () => expect(feedback(`${F}json\n{"a":True}\n${F}`)).toContain("Python literal"));
  it("unquoted keys", () => expect(feedback("Result: {a: 1}")).toContain("unquoted property name"));
  it("comments", () => expect(feedback('{"a":1 // one\n}')).toContain("comment"));
  it("plain prose", () => expect(feedback("no json here")).toBe('Not JSON: the output holds no JSON value, fenced code block or JSON object/array; it starts "no json here".'));
  it("empty output", () => expect(feedback("   ")).toMatch(/^Not JSON: the output is empty/));
  it("line and column", () => expect(feedback('{\n  "a": 1,\n  "b": }')).toContain("line 3, column 8"));
});
