// The generator's layering as dependency-cruiser rules. Stages point down: a stage may import an
// earlier stage, the kinds, shared helpers and model types, never a later stage or the CLI. Kinds
// never import a stage or each other; shared/ and model/ import neither stages nor kinds; nothing
// in templates/ (the runtime shipped in every server) imports the generator; the stdio and HTTP
// transports reach the protocol eras only through the one dispatch module.
import type { IRegularForbiddenRuleType, IRequiredRuleType } from "dependency-cruiser";

/** The stages in pipeline order; each entry is a path pattern under generator/. */
export const STAGES: [name: string, pattern: string][] = [
  ["load", "load\\.ts$"],
  ["check", "check/"],
  ["normalize", "normalize(-http)?\\.ts$"],
  ["catalog (search index and listing tokens, read by lint, emit and audit)", "catalog/"],
  ["lint", "lint/"],
  ["plan", "plan\\.ts$"],
  ["emit", "emit/"],
  ["bundle", "bundle(-packages)?\\.ts$"],
  ["manifest and audit", "(manifest\\.ts|fingerprint\\.ts|audit/)"],
  ["write", "write(-staging)?\\.ts$"],
  ["cache", "cache\\.ts$"],
  ["build (each server's emit, bundle and manifest; the build's worker thread)", "build-(server|thread)\\.ts$"],
  ["pipeline", "pipeline\\.ts$"],
  ["import (kervan import: descriptions to specs)", "import/"],
  ["deploy", "deploy/"],
  ["cli", "(cli\\.ts$|cli/)"],
];

const under = (pattern: string) => `^generator/${pattern}`;
const anyOf = (patterns: string[]) => `^generator/(${patterns.join("|")})`;

export function architectureRules(): IRegularForbiddenRuleType[] {
  const rules: IRegularForbiddenRuleType[] = STAGES.slice(0, -1).map(([name, pattern], i) => ({
    name: `stage-${name.replace(/\W+/g, "-")}-points-down`,
    comment: `${name} imports no later stage (${STAGES.slice(i + 1).map(([n]) => n).join(", ")})`,
    severity: "error",
    from: { path: under(pattern) },
    to: { path: anyOf(STAGES.slice(i + 1).map(([, p]) => p)) },
  }));
  const stages = anyOf(STAGES.map(([, p]) => p));
  rules.push(
    { name: "kinds-below-stages", comment: "a kind imports no stage", severity: "error", from: { path: "^generator/kinds/" }, to: { path: stages } },
    { name: "no-kind-to-kind", comment: "a kind imports no other kind", severity: "error", from: { path: "^generator/kinds/([^/]+)/" }, to: { path: "^generator/kinds/[^/]+/", pathNot: "^generator/kinds/$1/" } },
    { name: "no-runtime-kind-to-kind", comment: "a kind's runtime imports no other kind's runtime", severity: "error", from: { path: "^templates/kinds/([^/]+)/" }, to: { path: "^templates/kinds/[^/]+/", pathNot: "^templates/kinds/$1/" } },
    { name: "shared-is-the-bottom", comment: "shared/ and model/ import no stage and no kind", severity: "error", from: { path: "^generator/(shared|model)/" }, to: { path: `(${stages}|^generator/kinds/)` } },
    { name: "no-circular", comment: "no import circle: the shared piece of two modules moves down, below both", severity: "error", from: { path: "^(generator|templates/kinds)/" }, to: { circular: true } },
    { name: "templates-never-import-the-generator", comment: "the runtime in every server imports nothing of the generator", severity: "error", from: { path: "^templates/" }, to: { path: "^generator/" } },
    { name: "eras-only-through-dispatch", comment: "the protocol eras are reached through the one shared dispatch", severity: "error", from: { path: "^templates/", pathNot: "^templates/runtime/dispatch\\.ts$" }, to: { path: "^templates/runtime/(modern|legacy)\\.ts$" } },
  );
  return rules;
}

/** Both transports use the one era dispatch. */
export function requiredRules(): IRequiredRuleType[] {
  return [{ name: "transports-share-one-dispatch", severity: "error", module: { path: "^templates/runtime/(stdio|http)\\.ts$" }, to: { path: "^templates/runtime/dispatch\\.ts$" } }];
}
