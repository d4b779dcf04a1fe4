// Goldens: a test compares its output with a checked-in file and never writes it. Only the explicit
// `npm run update-goldens` (KERVAN_UPDATE_GOLDENS=1) rewrites goldens; CI never runs it. A missing
// golden fails, naming the command.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { expect } from "vitest";

export const UPDATING = process.env.KERVAN_UPDATE_GOLDENS === "1";

export function expectGolden(path: string, actual: string): void {
  if (UPDATING) {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, actual);
  }
  if (!existsSync(path)) expect.fail(`golden ${path} is missing: review the output, then run \`npm run update-goldens\``);
  expect(actual, path).toBe(readFileSync(path, "utf8"));
}
