// The fence rules themselves: an untagged block of a checked language, an unknown language, a fence
// without a language and a misspelt tag are refused with a sentence that says what to write.
import { describe, expect, it } from "vitest";
import { classify } from "./rules.js";

const block = (lang: string, tags: string[] = [], params: Record<string, string> = {}) => ({ file: "x.md", line: 1, lang, tags, params, text: "" });

describe("documentation fence rules", () => {
  it("accepts the documented tags", () => {
    expect(classify(block("yaml", ["kervan-spec"], { expect: "KV318", file: "specs/a.yaml" }))).toEqual({ kind: "kervan-spec" });
    expect(classify(block("json", ["data"], { file: "schemas/a.json" }))).toEqual({ kind: "data" });
    expect(classify(block("bash", ["runnable"], { exit: "1" }))).toEqual({ kind: "runnable" });
    expect(classify(block("text"))).toEqual({ kind: "text" });
  });

  it("asks for a tag on an untagged yaml, json or sh block", () => {
    expect(classify(block("yaml"))).toEqual({ problem: expect.stringContaining("needs exactly one tag of kervan-spec, kervan-tools, fragment, data") });
    expect(classify(block("sh"))).toEqual({ problem: expect.stringContaining("runnable, not-runnable") });
  });

  it("refuses a fence without a language, an unchecked language, a misspelt tag or parameter", () => {
    expect(classify(block(""))).toEqual({ problem: expect.stringContaining("```text") });
    expect(classify(block("ts"))).toEqual({ problem: expect.stringContaining('"ts" is not checked') });
    expect(classify(block("yaml", ["kervan-specs"]))).toEqual({ problem: expect.stringContaining("it has kervan-specs") });
    expect(classify(block("yaml", ["kervan-spec"], { expected: "KV1" }))).toEqual({ problem: "kervan-spec takes no expected=" });
    expect(classify(block("yaml", ["kervan-spec"], { expect: "318" }))).toEqual({ problem: expect.stringContaining("KV323") });
  });
});
