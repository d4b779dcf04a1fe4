// A one-file bundle like a generated server: the matcher worker is started from this very file.
import { createValidateJsonHandler, runWorkerRoleIfAny } from "../../../templates/kinds/validate_json/index.js";

if (!runWorkerRoleIfAny()) {
  const handler = createValidateJsonHandler();
  const ctx = { signal: new AbortController().signal, era: "2026-07-28" as const };
  const ok = await handler({ output: '"ABC-1234"', schema: { pattern: "^(A|B|C)+-\\d{4}$" } }, ctx);
  const evil = await handler({ output: JSON.stringify("a".repeat(40) + "b"), schema: { pattern: "^(a+)+$" } }, ctx);
  process.stdout.write(JSON.stringify({ ok: ok.value, evil: evil.text }) + "\n");
  await handler.close();
}
