// validate_json throughput against @cfworker/json-schema and @hyperjump/json-schema on the same
// schema and document, in one process, interleaved rounds so warm-up and drift hit all sides alike.
// Each library validates with its schema prepared once (our tool also caches prepared schemas).
import { Validator as CfValidator } from "@cfworker/json-schema";
import { registerSchema, validate as hyperValidate } from "@hyperjump/json-schema/draft-2020-12";
import { fileURLToPath } from "node:url";
import { bundleEntry } from "../helpers/bundle.js";
import { createValidateJsonHandler } from "../../templates/kinds/validate_json/handler.js";
import { prepareSchema } from "../../templates/kinds/validate_json/schema/prepare.js";
import { directRegex, validateInstance } from "../../templates/kinds/validate_json/schema/validate.js";

export interface BenchRow {
  name: string;
  ratio: number;
  detail: string;
}

export const SCHEMA = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  type: "object",
  required: ["orderId", "customer", "items", "status"],
  additionalProperties: false,
  properties: {
    orderId: { type: "string", pattern: "^[A-Z]{3}-[0-9]{4}$" },
    status: { enum: ["new", "paid", "shipped", "cancelled"] },
    customer: {
      type: "object",
      required: ["name", "email"],
      properties: { name: { type: "string", minLength: 1, maxLength: 100 }, email: { type: "string", pattern: "^[^@ ]+@[^@ ]+$" } },
    },
    items: { type: "array", minItems: 1, maxItems: 100, items: { $ref: "#/$defs/item" } },
    notes: { anyOf: [{ type: "string" }, { type: "null" }] },
  },
  $defs: {
    item: {
      type: "object",
      required: ["sku", "qty", "price"],
      additionalProperties: false,
      properties: {
        sku: { type: "string", pattern: "^[a-z0-9-]+$" },
        qty: { type: "integer", minimum: 1, maximum: 1000 },
        price: { type: "number", exclusiveMinimum: 0, multipleOf: 0.01 },
        tags: { type: "array", uniqueItems: true, items: { type: "string" } },
      },
    },
  },
};

export const DOC = {
  orderId: "ABC-1234",
  status: "paid",
  customer: { name: "Ada Lovelace", email: "ada@example.org" },
  items: Array.from({ length: 20 }, (_, i) => ({ sku: `part-${i}`, qty: i + 1, price: Math.round((9.99 + i) * 100) / 100, tags: ["a", "b", `t${i}`] })),
  notes: null,
};
export const BAD_DOC = { ...DOC, items: DOC.items.map((it, i) => (i === 7 ? { ...it, qty: 0 } : it)) };

/** Calls per second of `fn`, measured for about `ms` milliseconds. */
async function rate(fn: () => unknown | Promise<unknown>, ms: number): Promise<number> {
  let n = 0;
  const t0 = performance.now();
  let t = t0;
  while (t - t0 < ms) {
    for (let i = 0; i < 50; i++) await fn();
    n += 50;
    t = performance.now();
  }
  return (n * 1000) / (t - t0);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export async function benchValidateJson(): Promise<BenchRow[]> {
  const prepared = prepareSchema(SCHEMA);
  const regex = directRegex();
  const ours = () => {
    if (!validateInstance(prepared, DOC, regex).valid) throw new Error("ours: expected valid");
  };
  const oursBad = () => validateInstance(prepared, BAD_DOC, regex).valid;
  const cf = new CfValidator(SCHEMA as never, "2020-12", false);
  const cfRun = () => {
    if (!cf.validate(DOC).valid) throw new Error("cfworker: expected valid");
  };
  const cfBad = () => cf.validate(BAD_DOC).valid;
  registerSchema(SCHEMA as never, "https://kervan.invalid/bench-order");
  const hyper = await hyperValidate("https://kervan.invalid/bench-order");
  const hyperRun = () => {
    if (!hyper(DOC).valid) throw new Error("hyperjump: expected valid");
  };
  const script = await bundleEntry(fileURLToPath(new URL("../kinds/validate_json/worker-entry.ts", import.meta.url)));
  const handler = createValidateJsonHandler({ workerScript: script });
  const args = { output: JSON.stringify(DOC), schema: SCHEMA };
  const ctx = { signal: new AbortController().signal, era: "2026-07-28" as const };
  const tool = async () => {
    const r = await handler(args, ctx);
    if ((r.value as { valid: boolean }).valid !== true) throw new Error(`tool: expected valid: ${r.text}`);
  };
  await tool(); // warms the worker

  const samples: Record<string, number[]> = { ours: [], oursBad: [], cf: [], cfBad: [], hyper: [], tool: [] };
  for (let round = 0; round < 5; round++) {
    samples.ours.push(await rate(ours, 150));
    samples.cf.push(await rate(cfRun, 150));
    samples.hyper.push(await rate(hyperRun, 150));
    samples.oursBad.push(await rate(oursBad, 100));
    samples.cfBad.push(await rate(cfBad, 100));
    samples.tool.push(await rate(tool, 150));
  }
  await handler.close();
  const m = Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, median(v)]));
  const f = (x: number) => `${Math.round(x).toLocaleString("en-US")}/s`;
  return [
    { name: "validate_json interpreter vs @cfworker/json-schema (valid 20-item order)", ratio: m.ours / m.cf, detail: `${f(m.ours)} vs ${f(m.cf)}` },
    { name: "validate_json interpreter vs @hyperjump/json-schema (valid 20-item order)", ratio: m.ours / m.hyper, detail: `${f(m.ours)} vs ${f(m.hyper)}` },
    { name: "validate_json interpreter vs @cfworker/json-schema (invalid, all errors)", ratio: m.oursBad / m.cfBad, detail: `${f(m.oursBad)} vs ${f(m.cfBad)}` },
    { name: "validate_json whole tool call (JSON text in, patterns in the worker) vs @cfworker/json-schema", ratio: m.tool / m.cf, detail: `${f(m.tool)} vs ${f(m.cf)}` },
  ];
}
