// emit: one emitter per artifact of a server.
import type { EmittedFile } from "../model/output.js";
import type { ServerPlan } from "../model/plan.js";
import { emitValidatorDeclarations, validatorsInput } from "./validators.js";
import { validatorsModule } from "./off-thread.js";
import { emitTypes } from "./types.js";
import { emitToolModule } from "./tool-module.js";
import { emitEntry } from "./entry.js";
import { emitTsconfig } from "./tsconfig.js";

export async function emitServer(plan: ServerPlan): Promise<EmittedFile[]> {
  // Started first: a large server's validators compile on another thread meanwhile.
  const validators = validatorsModule(validatorsInput(plan));
  try {
    const entry = emitEntry(plan);
    const tools = plan.tools.map((t) => emitToolModule(plan, t));
    const types = await emitTypes(plan);
    const names = plan.tools.flatMap((t) => [t.validateInput, ...(t.validateOutput ? [t.validateOutput] : [])]);
    return [entry, ...tools, types, await validators.result, emitValidatorDeclarations(plan.dir, plan.server.origin.file, names), emitTsconfig(plan)];
  } catch (e) {
    validators.cancel();
    throw e;
  }
}
