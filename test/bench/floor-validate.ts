// Issue 26's validate_json row: a schema never seen before on every call (prepare + validate), against
// @cfworker/json-schema building its validator per call, in this process, interleaved rounds.
import { Validator as CfValidator } from "@cfworker/json-schema";
import { prepareSchema } from "../../templates/kinds/validate_json/schema/prepare.js";
import { directRegex, validateInstance } from "../../templates/kinds/validate_json/schema/validate.js";
import { interleave, median, type Row } from "./util.js";
import { BAD_DOC, DOC, SCHEMA } from "./validate-json.bench.js";

const BATCH = 200;

export async function benchFloorValidate(rounds = 15): Promise<Row[]> {
  const regex = directRegex();
  let n = 0;
  // The same order schema with a fresh $comment: equal in meaning, new to any cache keyed by content.
  const fresh = () => ({ ...SCHEMA, $comment: `call ${++n}` });
  const ours = () => {
    for (let i = 0; i < BATCH; i++) {
      if (validateInstance(prepareSchema(fresh()), i % 2 ? DOC : BAD_DOC, regex).valid !== (i % 2 === 1)) throw new Error("ours: wrong verdict");
    }
  };
  const cf = () => {
    for (let i = 0; i < BATCH; i++) {
      if (new CfValidator(fresh() as never, "2020-12", false).validate(i % 2 ? DOC : BAD_DOC).valid !== (i % 2 === 1)) throw new Error("cfworker: wrong verdict");
    }
  };
  const [o, c] = (await interleave([async () => ours(), async () => cf()], rounds, 3)).map(median) as [number, number];
  const rate = (t: number) => `${Math.round((BATCH * 1000) / t).toLocaleString("en-US")}/s`;
  return [
    {
      section: "Issue 26: validate_json with a new schema every call vs @cfworker/json-schema per call",
      name: "validate_json, a new schema every call (prepare + validate), rate vs @cfworker/json-schema per call",
      ratio: c / o,
      throughput: true,
      target: { op: "≥", value: 3, note: "issue 26" },
      subject: rate(o),
      baseline: rate(c),
    },
  ];
}
