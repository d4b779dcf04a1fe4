// One build's state: created once per `gen`, `import` or `serve` run (pipeline.ts openBuild) and
// passed down to the stages that need it. It owns the schema compiler (each distinct schema
// judged once), the worker pool every off-thread job goes through, the TypeScript types compiled
// from the schemas, and the build's diagnostics.
// No stage keeps state of its own between builds: close() frees everything a build made, so a
// `--watch` process holds nothing of the builds before the current one.
import type { Diagnostic } from "../model/diagnostic.js";
import { SchemaCompiler } from "./schema-compiler.js";
import { WorkerPool } from "./worker-pool.js";

export interface Build {
  readonly schemas: SchemaCompiler;
  readonly pool: WorkerPool;
  /** json-schema-to-typescript's output by schema text (emit/types.ts), each distinct schema compiled once per build. */
  readonly types: Map<string, Promise<string>>;
  /** Every diagnostic of the build so far, in stage order. */
  readonly diagnostics: Diagnostic[];
  /** Stops the build's workers; the build's caches go with the object. */
  close(): void;
}

/** A build whose off-thread jobs run on `workerModule` (build-thread.ts); `offThread` is the pool's threshold (tests lower it). */
export function createBuild(workerModule: URL, offThread?: number): Build {
  const pool = new WorkerPool(workerModule, offThread);
  return { schemas: new SchemaCompiler(), pool, types: new Map(), diagnostics: [], close: () => pool.close() };
}
