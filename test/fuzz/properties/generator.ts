// Property: any spec document, however malformed, goes through the generator's whole pipeline
// (load, check, normalize, lint, plan, emit, bundle) in-process and ends in diagnostics that name
// file:line:col, or in a build. Never an exception. Nothing is written: the pipeline runs in check
// mode against a folder that does not exist.
//
// Documents start from valid specs of every kind and are mutated: values of the wrong type, odd
// keys (__proto__, constructor, hasOwnProperty, keys with / and ~), deep nesting, long strings
// (bounded), YAML anchors and aliases (including bombs and cycles), bad @file references, and
// damage to the text itself.
import fc from "fast-check";
import { stringify } from "yaml";
import { generate } from "../../../generator/pipeline.js";
import type { Diagnostic } from "../../../generator/model/diagnostic.js";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FuzzFailure, type FuzzProperty } from "../property.js";

/** A real folder (its schemas/ holds one valid schema), so @file references resolve against something. */
export const SPEC_PATH = "test/fuzz/fixtures/spec.yaml";

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

const execInput = { type: "object", additionalProperties: false, required: ["name"], properties: { name: { type: "string", description: "Who to greet." } } };
export const BASES: Record<string, Json> = {
  exec: {
    server: { name: "fuzz", version: "0.1.0", title: "Fuzz", instructions: "Greets." },
    tools: [
      {
        name: "greet",
        description: "Print a greeting for a name. Use it to say hello.",
        annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
        input: execInput,
        exec: { argv: ["echo", "hello", "{name}"], env: { pass: ["HOME"], set: { LANG: "C" } }, timeoutMs: 1000, paths: { fields: ["name"] } },
      },
    ],
  },
  http: {
    server: { name: "fuzz-http", version: "0.1.0" },
    tools: [
      {
        name: "search",
        description: "Search the catalogue for items matching a query. Use it to find items by words.",
        input: { type: "object", required: ["q"], properties: { q: { type: "string", description: "Words." }, n: { type: "integer", minimum: 1, description: "How many." } } },
        output: { select: "items[].name" },
        http: { method: "GET", baseUrl: "http://127.0.0.1:8080", path: "/search/{{input.q}}", query: { n: "{{input.n}}" }, headers: { Authorization: "Bearer {{secrets.TOKEN}}" }, secrets: { TOKEN: { env: "FUZZ_TOKEN" } } },
      },
    ],
  },
  validate: { server: { name: "fuzz-validate", version: "0.1.0" }, tools: [{ name: "validate_json", validate_json: {} }] },
  prompts: {
    server: { name: "fuzz-prompts", version: "0.1.0" },
    tools: [{ name: "validate_json", validate_json: {} }],
    prompts: [
      {
        name: "review_file",
        title: "Review a file",
        description: "Ask the model to review one file, optionally with a focus.",
        arguments: [{ name: "path", description: "The file to review.", required: true }, { name: "focus", description: "What to look at most." }],
        ask: { focus: { message: "What should the review look at?", inputKey: "focus_q" } },
        messages: [
          { role: "user", text: "Review {path}. Focus on: {focus}." },
          { role: "user", resource: { uri: "file:///{path}", mimeType: "text/plain", text: "{path}" } },
          { role: "assistant", text: "I will review {{it}}." },
        ],
      },
    ],
  },
  include: {
    server: { name: "fuzz-include", version: "0.1.0" },
    tools: [{ name: "greet", description: "Print a greeting for a name. Use it to say hello.", input: "@schemas/ok.json", exec: { argv: ["echo", "{name}"] } }],
  },
};

const ODD_KEYS = ["__proto__", "constructor", "hasOwnProperty", "toString", "valueOf", "", "a/b~c", "$ref", "x".repeat(300), "<<"];
const FILE_REFS = ["@/dev/zero", "@/etc/passwd", "@../../../package.json", "@schemas/../../../../etc/hostname", "@", "@.", "@schemas", "@schemas/missing.json", "@schemas/ok.json", "@schemas/not-schema.yaml"];

const scalar: fc.Arbitrary<Json> = fc.oneof(
  fc.constantFrom<Json>(null, true, false, 0, -1, 1.5, 1e308, "", "{name}", "{{input.q}}", "{{secrets.X}}", "{", "}}", "#", "#/properties", "${x}", "\u0000", "\u2028"),
  fc.integer(),
  fc.string({ maxLength: 40 }),
  fc.constantFrom(...FILE_REFS),
);

/** Deeply nested arrays or objects, or a long string: the shapes that stress recursion and size. */
const heavy: fc.Arbitrary<Json> = fc.oneof(
  fc.integer({ min: 1, max: 600 }).map((depth) => {
    let v: Json = "leaf";
    for (let i = 0; i < depth; i++) v = i % 2 ? [v] : { allOf: [v as Json] };
    return v;
  }),
  fc.tuple(fc.constantFrom("a", "é", "{x}", " ", "\n"), fc.integer({ min: 1, max: 70_000 })).map(([c, n]) => c.repeat(n)),
);

const value: fc.Arbitrary<Json> = fc.oneof(
  { weight: 6, arbitrary: scalar },
  { weight: 3, arbitrary: fc.jsonValue({ maxDepth: 3 }) as fc.Arbitrary<Json> },
  { weight: 1, arbitrary: heavy },
  { weight: 2, arbitrary: fc.constantFrom<Json>({ type: "object" }, { $ref: "#" }, { allOf: [{ $ref: "#" }] }, { type: "string", pattern: "(a+)+$" }, { $id: "x" }, execInput) },
);

type Mutation = { kind: "set"; at: number; value: Json } | { kind: "delete"; at: number } | { kind: "key"; at: number; key: string; value: Json };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant("set" as const), at: fc.nat(), value }),
  fc.record({ kind: fc.constant("delete" as const), at: fc.nat() }),
  fc.record({ kind: fc.constant("key" as const), at: fc.nat(), key: fc.oneof(fc.constantFrom(...ODD_KEYS), fc.string({ maxLength: 12 })), value }),
);

/** Every container in the document, in a fixed order, so a mutation picks one by index. */
function containers(doc: Json): (Json[] | { [k: string]: Json })[] {
  const out: (Json[] | { [k: string]: Json })[] = [];
  const visit = (v: Json) => {
    if (!v || typeof v !== "object") return;
    out.push(v);
    for (const child of Array.isArray(v) ? v : Object.values(v)) visit(child);
  };
  visit(doc);
  return out;
}

function apply(doc: Json, mutation: Mutation): void {
  // Values are fast-check's (and shared constants): each use gets its own copy.
  const m = "value" in mutation ? { ...mutation, value: structuredClone(mutation.value) } : mutation;
  const all = containers(doc);
  const target = all[m.at % all.length];
  const keys = Array.isArray(target) ? target.map((_, i) => i) : Object.keys(target);
  const own = (o: object, k: string, v: Json) => Object.defineProperty(o, k, { value: v, writable: true, enumerable: true, configurable: true });
  if (m.kind === "key") {
    if (Array.isArray(target)) target.push(m.value);
    else own(target, m.key, m.value);
    return;
  }
  if (!keys.length) return;
  const k = keys[m.at % keys.length];
  if (m.kind === "delete") {
    if (Array.isArray(target)) target.splice(k as number, 1);
    else delete target[k as string];
  } else if (Array.isArray(target)) target[k as number] = m.value;
  else own(target, k as string, m.value);
}

type TextDamage = { kind: "none" } | { kind: "cut"; at: number } | { kind: "insert"; at: number; text: string } | { kind: "aliases"; which: number };

const ALIAS_TEXTS = [
  // A bomb, a cycle, a merge key, an undefined alias and an anchor used many times.
  'x0: &a [l, l, l, l, l, l, l, l, l]\nx1: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nx2: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\nx3: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]\nx4: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]\nx5: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e]\n',
  "loop: &l { self: *l }\n",
  "base: &base { name: merged }\nmerged: { <<: *base, more: 1 }\n",
  "bad: *nowhere\n",
  `many: &m { type: string }\nuses: [${Array.from({ length: 150 }, () => "*m").join(", ")}]\n`,
];

const damage: fc.Arbitrary<TextDamage> = fc.oneof(
  { weight: 5, arbitrary: fc.constant({ kind: "none" as const }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("cut" as const), at: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("insert" as const), at: fc.nat(), text: fc.constantFrom(":", "- ", "\t", "{", "[", "&x ", "*x", "!!binary ", "? ", "\n  ", "'", '"', "%YAML 1.1\n---\n", "---\n", "\uFEFF") }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("aliases" as const), which: fc.nat({ max: ALIAS_TEXTS.length - 1 }) }) },
);

function damaged(text: string, d: TextDamage): string {
  if (d.kind === "cut") return text.slice(0, d.at % (text.length + 1));
  if (d.kind === "insert") {
    const at = d.at % (text.length + 1);
    return text.slice(0, at) + d.text + text.slice(at);
  }
  if (d.kind === "aliases") return ALIAS_TEXTS[d.which] + text;
  return text;
}

export interface SpecCase {
  base: string;
  mutations: Mutation[];
  json: boolean;
  damage: TextDamage;
}

export const specCase: fc.Arbitrary<SpecCase> = fc.record({
  base: fc.constantFrom(...Object.keys(BASES)),
  mutations: fc.array(mutation, { maxLength: 4 }),
  json: fc.boolean(),
  damage,
});

/** Block YAML; JSON (also YAML) for documents too deep for the yaml package's printer. */
function asYaml(doc: Json): string {
  try {
    return stringify(doc, { aliasDuplicateObjects: false, lineWidth: 0 });
  } catch {
    return JSON.stringify(doc);
  }
}

export function specText(c: SpecCase): string {
  const doc = structuredClone(BASES[c.base]);
  for (const m of c.mutations) apply(doc, m);
  let text: string;
  try {
    text = c.json ? JSON.stringify(doc, null, 1) : asYaml(doc);
  } catch {
    // Nested values stacked deeper than JSON.stringify goes: the text of such a document instead.
    text = `server: ${"[".repeat(5000)}${"]".repeat(5000)}\n`;
  }
  return damaged(text, c.damage);
}

/** What is wrong with one outcome, or undefined when it is a build or a set of well-placed diagnostics. */
export function outcomeProblem(result: { diagnostics: Diagnostic[]; report?: unknown }): string | undefined {
  for (const d of result.diagnostics) {
    if (!/^KV\d{3}$/.test(d.code)) return `diagnostic code ${JSON.stringify(d.code)}`;
    if (!d.message || d.message.includes("\n    at ")) return `diagnostic message ${JSON.stringify(d.message)}`;
    if (d.location.file !== SPEC_PATH || !(d.location.line > 0) || !(d.location.column > 0)) return `diagnostic without a place: ${JSON.stringify(d.location)}`;
  }
  const errors = result.diagnostics.some((d) => d.severity === "error");
  if (errors === (result.report !== undefined)) return errors ? "errors and a build" : "neither errors nor a build";
  return undefined;
}

/** Runs one document through the pipeline in memory; resolves to a problem sentence or undefined. */
export async function runSpec(text: string, outRoot: string): Promise<string | undefined> {
  const result = await generate([{ path: SPEC_PATH, text }], { outRoot, check: true, pruneServers: false });
  return outcomeProblem(result);
}

export const property: FuzzProperty<SpecCase, { outRoot: string }> = {
  name: "spec documents through the generator",
  seed: 20261201,
  numRuns: 100,
  testMs: 8000,
  arbitrary: specCase,
  // Check mode compares against this folder, which never exists: nothing is written.
  setup: async () => ({ outRoot: join(mkdtempSync(join(tmpdir(), "kervan-fuzz-")), "never-written") }),
  async check({ outRoot }, c) {
    let problem: string | undefined;
    try {
      problem = await runSpec(specText(c), outRoot);
    } catch (e) {
      throw new FuzzFailure("internal", `the generator threw: ${(e as Error)?.stack ?? String(e)}`);
    }
    if (problem) throw new FuzzFailure("malformed", problem);
  },
  // The bundler's service process would otherwise outlive a run that ends between two builds.
  teardown: async () => (await import("esbuild")).stop(),
};
