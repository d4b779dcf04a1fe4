// The golden cases of `kervan import`: one small document per mapping rule, its options, and the
// checked-in expected spec. `npm run goldens:import` rewrites the expected files; tests only read them.
import { join } from "node:path";

export const FIXTURES = join(import.meta.dirname, "..", "fixtures", "openapi");
export const GOLDEN = join(FIXTURES, "golden");

export interface GoldenCase {
  /** Document under fixtures/openapi/rules. */
  file: string;
  /** The rule it pins down. */
  rule: string;
  args: string[];
}

export const CASES: GoldenCase[] = [
  { file: "names.yaml", rule: "names: snake_case, 64 characters with the profile's prefix, hash on cut or collision; deprecated skipped", args: ["--profile", "claude"] },
  { file: "collision.yaml", rule: "same name in path, query and body: all kept, renamed by place; readOnly left out", args: [] },
  { file: "bodies.yaml", rule: "bodies: arrays and unions whole under body, discriminator consts, form fields, multipart skipped", args: [] },
  { file: "swagger2.json", rule: "Swagger 2.0: in: body, formData, host/basePath, x-nullable and boolean exclusive bounds", args: [] },
  { file: "security.yaml", rule: "security schemes: apiKey in query and cookie, bearer, basic, OAuth2, optional, unsupported", args: [] },
  { file: "schemas.yaml", rule: "schemas to 2020-12: nullable, exclusive bounds, example, array without items, unknown format, cycle", args: [] },
  { file: "outputs.yaml", rule: "outputs: object kept, array and scalar wrapped, union wrapped, text raw, no schema, no content", args: [] },
  { file: "texts.yaml", rule: "lean texts: pointer sentences and a media type list left out (its caller cannot choose one), outputs without descriptions", args: [] },
  { file: "external-ref.yaml", rule: "local file $refs with a cycle across files", args: [] },
];

export const goldenPath = (c: GoldenCase) => join(GOLDEN, c.file.replace(/\.(ya?ml|json)$/, ".yaml"));
export const REIMPORT_GOLDEN = join(GOLDEN, "reimport-changelog.txt");
