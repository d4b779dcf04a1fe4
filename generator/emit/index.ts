// emit: one emitter per artifact of a server.
import type { EmittedFile, LaterFile } from "../model/output.js";
import type { ServerPlan } from "../model/plan.js";
import { emitValidatorDeclarations, validatorsInput, validatorsModule, validatorsPath } from "./validators.js";
import type { Build } from "../shared/build.js";
import { emitTypes, typesPath } from "./types.js";
import { emitToolModule } from "./tool-module.js";
import { emitEntry } from "./entry.js";
import { kindFor } from "../kinds/index.js";
import { emitTsconfig } from "./tsconfig.js";
import { emitCatalog } from "./catalog.js";
import { codeModePath, emitCodeMode } from "./codemode.js";

/** A server's emit under way. */
export interface Emission {
  /**
   * Every file of the server: the entry and the tool modules at once, the two long ones (the
   * validators, compiled by ajv; the types, by json-schema-to-typescript) when they are done. The
   * bundle starts on these (build-server.ts) once the validators are compiled, while the types may
   * still be under way.
   */
  files: Array<EmittedFile | LaterFile>;
  /** Settles once the validators are compiled (or have failed): the emit's longest part. */
  validators: Promise<void>;
  /** Every file, once all are done; rejects as the emit fails. */
  done: Promise<EmittedFile[]>;
}

/** Starts a server's emit; throws at once when the entry or a tool module cannot be emitted. */
export function startEmit(plan: ServerPlan, build: Build): Emission {
  // Started first: a large server's validators compile on another thread meanwhile.
  const input = validatorsInput(plan);
  const validators = validatorsModule(input, build.pool);
  // Compiled in strict mode without an error: what the check presumed of these schemas holds.
  const compiled = validators.result.then(() => build.schemas.prove(input.schemas.map((s) => s.schema)), () => {});
  let code: EmittedFile[];
  try {
    // Each tool's kind emits once; the entry and the tool's module are both printed from it.
    const emits = plan.tools.map((t) => kindFor(t.tool).emit(t));
    code = [...emitEntry(plan, emits), ...plan.tools.map((t, i) => emitToolModule(plan, t, emits[i]!)), ...(plan.server.exposure === "catalog" || plan.server.exposure === "code" ? [emitCatalog(plan)] : [])];
  } catch (e) {
    validators.cancel();
    throw e;
  }
  const types = emitTypes(plan, build.types);
  types.catch(() => validators.cancel());
  const names = plan.tools.flatMap((t) => [t.validateInput, ...(t.validateOutput ? [t.validateOutput] : [])]);
  // Code mode's declarations come from the same json-schema-to-typescript output as the types.
  const declarations = plan.server.exposure === "code" ? types.then(() => emitCodeMode(plan, build.types)) : undefined;
  const small = [emitValidatorDeclarations(plan.dir, plan.server.origin.file, names), emitTsconfig(plan)];
  return {
    validators: compiled,
    files: [...code, later(typesPath(plan.dir), types), ...(declarations ? [later(codeModePath(plan.dir), declarations)] : []), later(validatorsPath(input.dir), validators.result), ...small],
    // The types first, then the validators: should both fail, the error reported is always the same.
    done: types.then(async (t) => [...code, t, ...(declarations ? [await declarations] : []), await validators.result, ...small]),
  };
}

/** Every file of a server, once emitted. */
export async function emitServer(plan: ServerPlan, build: Build): Promise<EmittedFile[]> {
  return startEmit(plan, build).done;
}

function later(path: string, file: Promise<EmittedFile>): LaterFile {
  const contents = file.then((f) => {
    if (f.path !== path) throw new Error(`emitted ${f.path} where ${path} was announced`);
    return f.contents;
  });
  contents.catch(() => {});
  return { path, contents };
}
