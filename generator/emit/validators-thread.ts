// The worker side of emit/off-thread.ts: compiles one server's validators module and posts it back.
import { parentPort } from "node:worker_threads";
import { emitValidatorsModule, type ValidatorsInput } from "./validators.js";

parentPort!.once("message", (input: ValidatorsInput) => {
  try {
    parentPort!.postMessage({ result: emitValidatorsModule(input) });
  } catch (e) {
    parentPort!.postMessage({ error: { message: (e as Error)?.message ?? String(e), stack: (e as Error)?.stack } });
  }
});
