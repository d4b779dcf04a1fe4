// The generated validator server (built-in validate_json) driven by the official client: answers,
// refusals, the shared pattern budget, and other calls served while a catastrophic pattern runs.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolve } from "node:path";
import { connectStdio, VERSION_MODES, type Connected } from "../helpers/client.js";

const BUNDLE = resolve("out/validator/server.mjs");
type Answer = { valid: boolean; feedback: string | null };
const EVIL = { type: "object", properties: { code: { type: "string", pattern: "^(a+)+$" } }, required: ["code"] };
const EVIL_DOC = JSON.stringify({ code: "a".repeat(40) + "b" });

for (const mode of VERSION_MODES) {
  describe(`validator, client ${mode}`, () => {
    let conn: Connected;
    beforeAll(async () => (conn = await connectStdio(BUNDLE, mode)));
    afterAll(() => conn?.close());

    it("lists validate_json read-only and closed-world, with its output schema", async () => {
      const { tools } = await conn.client.listTools();
      expect(tools.map((t) => t.name)).toEqual(["validate_json"]);
      expect(tools[0].annotations).toMatchObject({ readOnlyHint: true, openWorldHint: false });
      expect(tools[0].outputSchema).toMatchObject({ required: ["valid", "feedback"] });
      expect(tools[0].description!.length).toBeGreaterThan(600);
    });

    it("answers valid with null feedback, and invalid with the pointer and the quoted value", async () => {
      const ok = await conn.client.callTool({ name: "validate_json", arguments: { output: "Sure:\n```json\n{\"n\": 3}\n```", schema: { properties: { n: { type: "integer" } } } } });
      expect(ok.structuredContent).toEqual({ valid: true, feedback: null });
      const bad = await conn.client.callTool({ name: "validate_json", arguments: { output: '{"n": "three"}', schema: { properties: { n: { type: "integer" } } } } });
      const answer = bad.structuredContent as Answer;
      expect(answer.valid).toBe(false);
      expect(answer.feedback).toContain("/n");
      expect(answer.feedback).toContain('"three"');
    });

    it("refuses a remote reference with its own sentence, fetching nothing", async () => {
      const res = await conn.client.callTool({ name: "validate_json", arguments: { output: "{}", schema: { $ref: "https://example.com/s.json" } } });
      expect((res.structuredContent as Answer).valid).toBe(false);
      expect((res.structuredContent as Answer).feedback).toMatch(/remote|refused/i);
    });

    it("refuses past the 500 ms pattern budget while other calls are answered meanwhile", async () => {
      // Order of answers, not durations (those are in npm run bench): the cheap call comes back first.
      const order: string[] = [];
      const slow = conn.client.callTool({ name: "validate_json", arguments: { output: EVIL_DOC, schema: EVIL } }).then((r) => (order.push("slow"), r));
      const cheap = await conn.client.callTool({ name: "validate_json", arguments: { output: "[1, 2]", schema: { type: "array" } } });
      order.push("cheap");
      const r = await slow;
      expect(cheap.structuredContent).toEqual({ valid: true, feedback: null });
      expect(order).toEqual(["cheap", "slow"]);
      const text = (r.content as { text: string }[])[0].text;
      expect(text).toContain("^(a+)+$");
      expect(text).toMatch(/500 ms/);
    });
  });
}
