// A server with static bearer tokens reads them from its environment: the manifest's capabilities list
// those variables (as environment read and as secrets), so AUDIT.md, the changelog and `kervan deploy`
// see them like any tool's secret.
import { beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generate } from "../../generator/pipeline.js";
import { readSources } from "../../generator/cli/sources.js";
import type { Manifest } from "../../generator/audit/types.js";

const SPEC = `server:
  name: bearer-env
  version: 0.1.0
  http:
    auth:
      bearer:
        tokens:
          - env: OPS_TOKEN
          - env: CI_TOKEN
            scopes: [read]
tools:
  - name: validate_json
    validate_json: {}
`;

let manifest: Manifest;
let audit: string;
beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), "kervan-bearer-env-"));
  writeFileSync(join(dir, "bearer-env.yaml"), SPEC);
  const out = join(dir, "out");
  const r = await generate(readSources([join(dir, "bearer-env.yaml")]), { outRoot: out, check: false, pruneServers: false });
  expect(r.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  manifest = JSON.parse(readFileSync(join(out, "bearer-env", "kervan.manifest.json"), "utf8"));
  audit = readFileSync(join(out, "bearer-env", "AUDIT.md"), "utf8");
}, 120_000);

describe("bearer token variables in the manifest", () => {
  it("lists every token variable among the environment read and the secrets", () => {
    expect(manifest.capabilities!.env).toEqual(["CI_TOKEN", "OPS_TOKEN"]);
    expect(manifest.capabilities!.secrets).toEqual(["CI_TOKEN", "OPS_TOKEN"]);
  });

  it("shows them in AUDIT.md's summary", () => {
    expect(audit).toContain("| Environment variables read | `CI_TOKEN`, `OPS_TOKEN` |");
    expect(audit).toContain("| Secrets among them | `CI_TOKEN`, `OPS_TOKEN` |");
  });
});
