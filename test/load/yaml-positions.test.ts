// A spec's places are found when asked (shared/yaml-positions.ts); an included schema's are all
// recorded by one walk (load.ts). Both must answer the same for every pointer: each place the walk
// records, and nothing where it records nothing. Checked over every spec and bad-spec fixture and
// a few documents built for the corner cases (flow splits, repeated keys, merge keys, aliases).
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseWithPositions } from "../../generator/load.js";

const files = [
  ...readdirSync("specs").filter((f) => /\.ya?ml$/.test(f)).map((f) => join("specs", f)),
  ...readdirSync("test/fixtures/bad-specs").filter((f) => /\.ya?ml$/.test(f)).map((f) => join("test/fixtures/bad-specs", f)),
];

const corners: Record<string, string> = {
  "flow split": "tool: { description: one, two, three: 3 }\nlist: [a, { b: 1, c }, 2]\n",
  "repeated segment": "a:\n  1: { x: first }\n  '1': { x: second, y: only }\n",
  "missing values": "a:\nb: { c: }\nd: [~, null, '']\n",
  "merge and alias": "base: &b { x: 1, y: [1, 2] }\nuse:\n  <<: *b\n  z: *b\n",
  "escapes": "'a/b': { '~c': 1 }\n",
  "unquoted": "n: 1\nb: true\nz: null\nf: 1.5e3\ns: text\nq: '1'\n",
};

function same(name: string, text: string): void {
  const eager = parseWithPositions(text, false);
  const lazy = parseWithPositions(text, true);
  expect(lazy.errors, name).toEqual(eager.errors);
  expect(lazy.doc, name).toEqual(eager.doc);
  const records = ["positions", "keyPositions"] as const;
  for (const record of records) for (const [pointer, place] of Object.entries(eager[record])) expect(lazy[record][pointer], `${name} ${record} ${pointer}`).toEqual(place);
  for (const reading of ["unquoted", "flowSplits"] as const) {
    for (const [pointer, text] of Object.entries(eager.readings[reading] ?? {})) expect(lazy.readings[reading]![pointer], `${name} ${reading} ${pointer}`).toBe(text);
  }
  // Where the walk records nothing, nothing is found: a child of every recorded place, and pointers that are no place.
  for (const pointer of [...Object.keys(eager.positions).map((p) => `${p}/nothing`), "/nothing", "nothing", "/0/0/0"]) {
    for (const record of records) expect(lazy[record][pointer], `${name} ${record} ${pointer}`).toBe(eager[record][pointer]);
    expect(lazy.readings.unquoted![pointer]).toBe(eager.readings.unquoted![pointer]);
    expect(lazy.readings.flowSplits![pointer]).toBe(eager.readings.flowSplits![pointer]);
  }
  for (const pointer of Object.keys(eager.positions)) {
    expect(lazy.readings.unquoted![pointer], `${name} unquoted ${pointer}`).toBe(eager.readings.unquoted![pointer]);
    expect(lazy.readings.flowSplits![pointer], `${name} flowSplits ${pointer}`).toBe(eager.readings.flowSplits![pointer]);
  }
}

describe("places found when asked", () => {
  it.each(Object.keys(corners))("match the walk's records: %s", (name) => {
    const eager = parseWithPositions(corners[name]!, false);
    expect(Object.keys(eager.positions).length).toBeGreaterThan(2);
    same(name, corners[name]!);
  });

  it("find the flow split the walk records", () => {
    const lazy = parseWithPositions(corners["flow split"]!, true);
    expect(lazy.readings.flowSplits!["/tool/two"]).toBe('description: "one, two"');
  });

  it("let the later of two keys giving one segment answer", () => {
    const lazy = parseWithPositions(corners["repeated segment"]!, true);
    expect(lazy.positions["/a/1/x"]).toEqual({ line: 3, column: 13 });
    expect(lazy.positions["/a/1/y"]).toEqual({ line: 3, column: 24 });
  });

  it(`match the walk's records for every spec and bad-spec fixture (${files.length} files)`, () => {
    expect(files.length).toBeGreaterThan(50);
    for (const file of files) same(file, readFileSync(file, "utf8"));
  });
});
