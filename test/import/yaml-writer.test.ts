// The YAML writer of `kervan import` (generator/import/yaml-writer.ts): whatever JSON data it is given,
// with comments anywhere, its output reads back (with kervan's own loader and with the `yaml`
// package) as the same data; and it keeps the layout a reviewer reads (flow for short collections,
// comments above entries, long text folded, quotes only where needed).
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { parse } from "yaml";
import { parseWithPositions } from "../../generator/load.js";
import { plainSafe, writeYaml, type Path } from "../../generator/import/yaml-writer.js";
import type { Json } from "../../templates/runtime/types.js";

/** Reads `text` both ways; fails on any error of kervan's loader. */
function readBack(text: string): unknown {
  const loaded = parseWithPositions(text, false);
  expect(loaded.errors, text).toEqual([]);
  expect(parse(text)).toEqual(loaded.doc);
  return loaded.doc;
}

const NASTY = [
  "", " ", "  ", "true", "False", "TRUE", "yes", "No", "ON", "off", "y", "N", "null", "Null", "NULL", "~", "<<", "=",
  "0", "-0", "007", "1_000", "1,000", "0x1F", "0o17", "0b101", "1e3", "1E+3", ".5", "+1", "-1.5", ".inf", "-.Inf", ".NaN", "Infinity",
  "12:30:45", "190:20:30.15", "2001-12-14", "2001-12-14t21:59:43.10-05:00", "2001-12-14 21:59:43.10 -5", "0.1.0",
  "a: b", "a #b", "a#b", "a:", "a:b", "- a", "-a", "? x", ": x", "#x", "&a", "*a", "!tag", "|", ">-", "'q'", '"q"', "%x", "@x", "`x`",
  "[a]", "{a}", "a, b", "a,b", "a]", "a}", "---", "...", "... a", "--- a", "a\tb", "\t", "a\nb", "a\n", "\n", "a\r\nb", "\r", "\x00", "\x1b",
  "\x7f", "\x85", "\x9f", "\u00a0", "a\u00a0", "\u00a0a", "\u2028", "a\u2029b", "\ufeff", "\ufeffa", "\ud800", "a\udc00", "\udbff\udfff", "\ufffe",
  "\\", "a\\ b", "\\ x", "a  b", " a", "a ", "é ü 😀", "http://x:80/a#b?c=d&e", "{{input.x}}", "@", "x: y: z",
];
const word = fc.oneof(fc.constantFrom(...NASTY.filter((s) => s && !/\s/.test(s))), fc.string({ unit: "grapheme-ascii", minLength: 1, maxLength: 12 }));
/** Strings biased to what YAML reads otherwise, plus long text with single and double spaces to fold. */
const nasty = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...NASTY) },
  { weight: 2, arbitrary: fc.string({ maxLength: 20 }) },
  { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 12 }) },
  { weight: 1, arbitrary: fc.string({ unit: fc.constantFrom("a", " ", ":", "#", "-", "\\", '"', "\n", "\ud800", "\u2028", ","), maxLength: 16 }) },
  { weight: 2, arbitrary: fc.array(fc.tuple(word, fc.constantFrom(" ", " ", " ", "  ", " - ", " # ", ": ")), { minLength: 10, maxLength: 60 }).map((ws) => ws.flat().join("")) },
);
/**
 * Keys as nasty as values, but for `<<`: kervan's loader refuses a `<<` key whose value is not a
 * mapping, quoted or not (a merge key), so no YAML text carries such data to it.
 */
const key = nasty.filter((k) => k !== "<<");
const mergeKeyless = (v: unknown): boolean =>
  Array.isArray(v) ? v.every(mergeKeyless) : typeof v === "object" && v !== null ? Object.entries(v).every(([k, x]) => k !== "<<" && mergeKeyless(x)) : true;
const json = fc.letrec<{ value: Json }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    nasty,
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie("value"), { maxLength: 5 }),
    fc.dictionary(key, tie("value"), { maxKeys: 5 }),
  ),
})).value;

describe("yaml writer", () => {
  it("any JSON data, with comments anywhere, reads back as the same data", () => {
    fc.assert(
      fc.property(fc.oneof(json, fc.jsonValue().filter(mergeKeyless)), fc.array(nasty, { maxLength: 3 }), fc.nat(4), (data, comment, every) => {
        const commentAt = (path: Path) => (comment.length && (path.length + String(path.at(-1)).length) % (every + 1) === 0 ? comment : undefined);
        const text = writeYaml(data as Json, { header: comment, commentAt });
        expect(readBack(text)).toEqual(data);
      }),
      { seed: 20261201, numRuns: 400 },
    );
  });

  it("a string is plain only when nothing could read it as something else", () => {
    const plain = ["0.1.0", "a#b", "a:b", "a,b", "a, b", "a]", "a}", "\udbff\udfff", "é ü 😀", "http://x:80/a#b?c=d&e", "\\", "a\\ b", "\\ x", "a#b", "a  b"];
    for (const s of NASTY) expect(plainSafe(s, false), JSON.stringify(s)).toBe(plain.includes(s));
    for (const s of ["a,b", "a, b", "a]", "a}"]) expect(plainSafe(s, true), s).toBe(false);
    for (const s of ["string", "Get a repository.", "a-b", "a?", "x=1"]) expect(plainSafe(s, true), s).toBe(true);
  });

  it("writes short collections in flow style, and block style where an entry carries a comment", () => {
    const data = { schema: { type: "object", properties: { id: { type: "string" } }, required: ["id"] }, list: [] as Json[], map: {} };
    expect(writeYaml(data)).toBe("schema:\n  type: object\n  properties: { id: { type: string } }\n  required: [ id ]\nlist: []\nmap: {}\n");
    expect(writeYaml({ s: { type: "object", properties: { id: { type: "string" } }, req: ["id"] } })).toBe("s: { type: object, properties: { id: { type: string } }, req: [ id ] }\n");
    expect(writeYaml({ "<<": { a: 1 } })).toBe('"<<": { a: 1 }\n');
    const commented = writeYaml(data, { commentAt: (p) => (p.join("/") === "schema/properties/id" ? [" query"] : undefined) });
    expect(commented).toBe("schema:\n  type: object\n  properties:\n    # query\n    id: { type: string }\n  required: [ id ]\nlist: []\nmap: {}\n");
  });

  it("comments above list items, a header, and a list item whose first key has a comment", () => {
    const data = { tools: [{ name: "a", input: { x: 1 } }, "b"] };
    const text = writeYaml(data, { header: [" one", " two\nthree"], commentAt: (p) => (p.length === 2 ? [" note"] : p.length === 3 && p[2] === "name" ? [" first"] : undefined) });
    expect(text).toBe("# one\n# two\n#three\n\ntools:\n  # note\n  -\n    # first\n    name: a\n    input: { x: 1 }\n  # note\n  - b\n");
    expect(readBack(text)).toEqual(data);
  });

  it("folds long text near 110 columns where YAML reads the break back as the one space", () => {
    const long = Array.from({ length: 40 }, (_, i) => `word${i}`).join(" ");
    const quotedLong = `Note: ${long} - #x "q"`;
    const data = { a: { description: long, quoted: quotedLong, list: [long, long.replace(/ /g, "  ")] } };
    const text = writeYaml(data);
    const lines = text.split("\n");
    expect(lines.length).toBeGreaterThan(8);
    // The double-spaced item has no place to fold (a break there would lose a space): one line.
    for (const line of lines) expect(line.length <= 110 || line.startsWith("    - word0  word1"), line).toBe(true);
    expect(text).toContain(`quoted: "Note: word0`);
    expect(text).toContain("word39 - #x");
    expect(text).not.toMatch(/\n +(#|- #)/);
    expect(readBack(text)).toEqual(data);
  });

  it("a key longer than YAML's implicit-key limit is written as an explicit key", () => {
    const data = { ["k".repeat(1500)]: { a: 1, b: [1, 2] }, list: [{ ["x y".repeat(600)]: "v" }] };
    const text = writeYaml(data);
    expect(text).toContain("? kkk");
    expect(readBack(text)).toEqual(data);
  });
});
