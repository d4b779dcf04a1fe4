// The worker side of emit/off-thread.ts: compiles one server's validators module and posts it back.
// A worker thread does not inherit the main thread's TypeScript loader, so it registers tsx itself,
// as bin/kervan.mjs does.
import { parentPort } from "node:worker_threads";
import { register } from "tsx/esm/api";

register();
const { emitValidatorsModule } = await import("./validators.ts");
parentPort.once("message", (input) => {
  try {
    parentPort.postMessage({ file: emitValidatorsModule(input) });
  } catch (e) {
    parentPort.postMessage({ error: { message: e?.message ?? String(e), stack: e?.stack } });
  }
});
