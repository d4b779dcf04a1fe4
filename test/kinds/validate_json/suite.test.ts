// The official JSON-Schema-Test-Suite (vendored unchanged in test/kinds/validate_json/fixtures/json-schema-test-suite)
// against the interpreter, through the same multi-round pattern driver the tool uses (with an
// in-process matcher standing in for the worker). Required tests: 100% of those whose schemas fit the
// contract; every other group is listed in suite-exclusions.json and must be refused with the
// contract's sentence. The counts are exact, per draft, for the required and the optional sets: a
// change in what passes, fails or is refused fails the test until EXPECTED is updated with it.
import { describe, expect, it } from "vitest";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { prepareSchema, type Prepared } from "../../../templates/kinds/validate_json/schema/prepare.js";
import { SchemaRefusal } from "../../../templates/kinds/validate_json/schema/refusal.js";
import { validateDocument } from "../../../templates/kinds/validate_json/run-document.js";
import type { MatcherPool } from "../../../templates/kinds/validate_json/matcher/pool.js";
import type { MatchRequest, MatchReply } from "../../../templates/kinds/validate_json/matcher/protocol.js";
import type { Draft } from "../../../templates/kinds/validate_json/schema/types.js";

const root = fileURLToPath(new URL("./fixtures/json-schema-test-suite/tests/", import.meta.url));
const exclusions = JSON.parse(readFileSync(new URL("./suite-exclusions.json", import.meta.url), "utf8")) as Record<
  string,
  { file: string; group: string; status: string; refusal: string; reason: string }[]
>;
/** Per draft: required tests that must pass, and the optional set's pass / fail / refused counts. */
const EXPECTED: Record<string, { required: number; refusedGroups: number; optional: { pass: number; fail: number; refused: number } }> = {
  draft4: { required: 589, refusedGroups: 14, optional: { pass: 217, fail: 81, refused: 21 } },
  draft6: { required: 798, refusedGroups: 19, optional: { pass: 291, fail: 116, refused: 24 } },
  draft7: { required: 878, refusedGroups: 23, optional: { pass: 546, fail: 222, refused: 26 } },
  "draft2019-09": { required: 1151, refusedGroups: 45, optional: { pass: 474, fail: 414, refused: 27 } },
  "draft2020-12": { required: 1182, refusedGroups: 55, optional: { pass: 479, fail: 416, refused: 31 } },
};

const DRAFTS: [string, Draft][] = [["draft4", 4], ["draft6", 6], ["draft7", 7], ["draft2019-09", 2019], ["draft2020-12", 2020]];

interface Group { description: string; schema: unknown; tests: { description: string; data: unknown; valid: boolean }[] }

/** The worker protocol answered in-process: suite patterns are trusted test data. */
const inProcessPool = {
  async run(req: MatchRequest): Promise<MatchReply> {
    const results = req.jobs.map(([id, strings]) => strings.map((s) => new RegExp(req.patterns[id], "u").test(s)));
    return { kind: "done", results, usedMs: 0 };
  },
} as unknown as MatcherPool;

const SENTENCES: Record<string, RegExp> = {
  "embedded-id": /^Refused: the schema sets an embedded \$id ".*" at #\S*; embedded schema resources are not supported, so remove the \$id and refer to that part with #\/\.\.\. instead\.$/s,
  "remote-ref": /^Refused: the schema's \$ref ".*" at #\S* points outside the given schema; \$ref may only point inside it \(#, #\/\.\.\. or #name\), and nothing is ever fetched\.$/s,
  "unknown-draft": /^Refused: \$schema ".*" is not one of draft-04, draft-06, draft-07, 2019-09 or 2020-12 \(leave it out for 2020-12\)\.$/s,
  "python-pattern": /^Refused: the pattern ".*" at #\S* is not a valid Python re pattern \(.+ at position \d+\)\.$/s,
};

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? files(p) : f.endsWith(".json") ? [p] : [];
  });
}

function load(path: string): Group[] {
  return JSON.parse(readFileSync(path, "utf8")) as Group[];
}

async function outcome(prepared: Prepared, data: unknown): Promise<boolean | string> {
  const r = await validateDocument(prepared, data, inProcessPool);
  return r.kind === "validated" ? r.valid : r.kind;
}

for (const [dir, draft] of DRAFTS) {
  describe(`JSON-Schema-Test-Suite ${dir}`, () => {
    const listed = new Map(exclusions[dir].map((e) => [`${e.file}|${e.group}`, e]));
    const required = readdirSync(join(root, dir)).filter((f) => f.endsWith(".json")).sort();

    for (const file of required) {
      describe(file, () => {
        for (const group of load(join(root, dir, file))) {
          const excluded = listed.get(`${file}|${group.description}`);
          if (excluded) {
            it(`${group.description} is ${excluded.status}: ${excluded.reason}`, () => {
              let sentence = "";
              try {
                prepareSchema(group.schema, draft);
              } catch (e) {
                if (e instanceof SchemaRefusal) sentence = e.sentence;
                else throw e;
              }
              expect(sentence).toMatch(SENTENCES[excluded.refusal]);
            });
            continue;
          }
          it(group.description, async () => {
            const prepared = prepareSchema(group.schema, draft); // an unlisted refusal fails here
            const got = await Promise.all(group.tests.map((t) => outcome(prepared, t.data)));
            expect(got).toEqual(group.tests.map((t) => t.valid));
          });
        }
      });
    }

    it("lists only groups that exist", () => {
      const present = new Set(required.flatMap((f) => load(join(root, dir, f)).map((g) => `${f}|${g.description}`)));
      expect([...listed.keys()].filter((k) => !present.has(k))).toEqual([]);
    });

    it("runs exactly the expected number of required tests (every one passes, above)", () => {
      const groups = required.flatMap((f) => load(join(root, dir, f)).map((g) => ({ key: `${f}|${g.description}`, n: g.tests.length })));
      const run = groups.filter((g) => !listed.has(g.key)).reduce((n, g) => n + g.n, 0);
      console.log(`${dir} required: ${run} tests pass, ${listed.size} groups refused`);
      expect({ required: run, refusedGroups: listed.size }).toEqual({ required: EXPECTED[dir].required, refusedGroups: EXPECTED[dir].refusedGroups });
    });

    it("reports the optional tests (not required)", async () => {
      let pass = 0;
      let fail = 0;
      let refused = 0;
      for (const path of files(join(root, dir, "optional"))) {
        for (const group of load(path)) {
          let prepared: Prepared;
          try {
            prepared = prepareSchema(group.schema, draft);
          } catch {
            refused += group.tests.length;
            continue;
          }
          for (const t of group.tests) {
            const got = await outcome(prepared, t.data).catch(() => "error");
            if (got === t.valid) pass++;
            else fail++;
          }
        }
      }
      console.log(`${dir} optional: ${pass} pass, ${fail} fail, ${refused} refused`);
      expect({ pass, fail, refused }).toEqual(EXPECTED[dir].optional);
    });
  });
}
