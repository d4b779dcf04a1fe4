// emit: one emitter per artifact of a server.
import type { EmittedFile } from "../model/output.js";
import type { ServerPlan } from "../model/plan.js";
import { emitValidators } from "./validators.js";
import { emitTypes } from "./types.js";
import { emitToolModule } from "./tool-module.js";
import { emitEntry } from "./entry.js";
import { emitTsconfig } from "./tsconfig.js";

export async function emitServer(plan: ServerPlan): Promise<EmittedFile[]> {
  return [
    emitEntry(plan),
    ...plan.tools.map((t) => emitToolModule(plan, t)),
    await emitTypes(plan),
    ...emitValidators(plan),
    emitTsconfig(plan),
  ];
}
