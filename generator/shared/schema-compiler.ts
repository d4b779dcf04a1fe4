// The build's schema compiler: judges whether a schema compiles in strict mode (KV510), each
// distinct schema (by its JSON text) once per build. A large spec's schemas are judged on this
// thread and a worker of the build's pool at once (judgeMany); a judgement depends on the schema
// alone, so the answers are the same on either thread. Nothing outlives the compiler: a build
// (or a `--watch` rebuild) makes its own.
// A build that emits what it checks need not compile a large spec's tool schemas twice: the check
// presumes they compile (presume), the emit's own strict compile of the validators proves it
// (prove), and settle() judges whatever the emit did not compile. A presumption that fails (or a
// build with presumptions that fails in any way: a schema that does not compile may trip a stage
// before the emit's compile does) ends the build with UnprovenSchemas, and the pipeline builds
// again, judging every schema in the check.
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import type { Json } from "../../templates/runtime/types.js";
import { ENUM_NAMES, MCP_HEADER } from "./schema.js";
import { messageOf } from "./object.js";
import type { WorkerPool } from "./worker-pool.js";
import type { JobRun } from "./worker-pool.js";

/** A presumed schema did not compile (or the emit failed while presumptions were open): the check's report was not whole. */
export class UnprovenSchemas extends Error {
  constructor(options?: ErrorOptions) {
    super("a schema the check presumed to compile was not proved by the emit", options);
  }
}

export class SchemaCompiler {
  private ajv: Ajv2020 | undefined;
  private readonly judged = new Map<string, string | undefined>();
  /** Schemas taken as compiling until the emit proves them or settle() judges them, by JSON text. */
  private readonly presumed = new Map<string, Json>();
  private presumedOnce = false;

  /** Why the schema does not compile in strict mode, or undefined when it does (or is presumed to). */
  error(schema: Json): string | undefined {
    const key = JSON.stringify(schema);
    if (this.presumed.has(key)) return undefined;
    if (!this.judged.has(key)) this.judged.set(key, this.compile(schema));
    return this.judged.get(key);
  }

  /** Takes these schemas (by JSON text) as compiling, without compiling them, until proved or settled. */
  presume(schemas: Map<string, Json>): void {
    for (const [key, schema] of schemas) if (!this.judged.has(key)) this.presumed.set(key, schema);
    this.presumedOnce ||= this.presumed.size > 0;
  }

  /** Whether this compiler ever took a schema as compiling without judging it. */
  get everPresumed(): boolean {
    return this.presumedOnce;
  }

  /** Schemas the emit compiled in strict mode without an error: their presumptions hold. */
  prove(schemas: readonly object[]): void {
    if (!this.presumed.size) return;
    for (const schema of schemas) {
      const key = JSON.stringify(schema);
      if (this.presumed.delete(key)) this.judged.set(key, undefined);
    }
  }

  /** Whether some presumption is still open. */
  get presuming(): boolean {
    return this.presumed.size > 0;
  }

  /** Judges every open presumption; throws UnprovenSchemas when one of them does not compile. */
  async settle(pool: WorkerPool): Promise<void> {
    if (!this.presumed.size) return;
    const open = new Map(this.presumed);
    this.presumed.clear();
    await this.judgeMany(open, pool);
    for (const schema of open.values()) if (this.error(schema) !== undefined) throw new UnprovenSchemas();
  }

  /** Whether the schema with this JSON text has been judged. */
  has(key: string): boolean {
    return this.judged.has(key);
  }

  /**
   * Judges the schemas not judged yet, on this thread and (from the pool's threshold on) a worker
   * at once: both take the next schema from one shared counter, so neither waits while the other has work.
   */
  async judgeMany(schemas: Map<string, Json>, pool: WorkerPool): Promise<void> {
    const keys = [...schemas.keys()].filter((k) => !this.judged.has(k));
    if (!pool.offThread(keys.length)) return;
    const list = keys.map((k) => schemas.get(k)!);
    const next = new SharedArrayBuffer(4);
    const queue = new Int32Array(next);
    const job = pool.run("judge", { schemas: list, next });
    for (let i = Atomics.add(queue, 0, 1); i < list.length; i = Atomics.add(queue, 0, 1)) this.judged.set(keys[i]!, this.compile(list[i]!));
    // A worker that fails leaves its schemas unjudged; error() judges them here when asked.
    for (const [i, error] of await job.result.catch(() => [])) this.judged.set(keys[i]!, error);
  }

  /**
   * Judges schemas on a worker while the caller is still making them (`kervan import`, while it
   * converts operations), so the judging starts with the first tool instead of after the last.
   */
  stream(pool: WorkerPool): SchemaStream {
    let job: JobRun<"judgeStream"> | undefined;
    const keys: string[] = [];
    const sent = new Set<string>();
    let batch: Json[] = [];
    // The worker starts once the stream reaches the pool's threshold; fewer are left to the check.
    const flush = () => {
      if (!batch.length || (!job && !pool.offThread(keys.length))) return;
      job ??= pool.run("judgeStream", {});
      job.feed({ schemas: batch });
      batch = [];
    };
    return {
      add: (schemas, candidate) => {
        for (const schema of schemas) {
          if (schema === null || (typeof schema !== "object" && typeof schema !== "boolean")) continue;
          const key = JSON.stringify(schema);
          if (sent.has(key) || this.judged.has(key)) continue;
          // Weighed and judged as the check reads it: plain JSON data (no undefined members, no shared objects).
          const json: Json = JSON.parse(key);
          if (!candidate(json)) continue;
          sent.add(key);
          keys.push(key);
          batch.push(json);
        }
        if (batch.length >= STREAM_BATCH) flush();
      },
      finish: async () => {
        flush();
        if (!job) return;
        job.feed({ end: true });
        // A worker that fails leaves its schemas unjudged; the check judges them.
        for (const [i, error] of await job.result.catch(() => [])) this.judged.set(keys[i]!, error);
      },
      stop: () => job?.cancel(),
    };
  }

  private compile(schema: Json): string | undefined {
    // The code is compiled only to be judged, never run or kept: ajv's optimizing passes over it
    // (a third of the compile time) would change nothing a strict-mode error depends on.
    this.ajv ??= judgingAjv();
    try {
      this.ajv.compile(schema as object);
      // Compiled only to be judged: ajv would otherwise keep every schema it compiled.
      this.ajv.removeSchema(schema as object);
      return undefined;
    } catch (e) {
      return messageOf(e).replace(/^strict mode: /, "");
    }
  }
}

/** Schemas judged as they are made (SchemaCompiler.stream). */
export interface SchemaStream {
  /** Sends the schemas among these that need a judgement (and pass `candidate`) to the worker. */
  add(schemas: unknown[], candidate: (schema: Json) => boolean): void;
  /** Waits for the worker's judgements and records them. */
  finish(): Promise<void>;
  /** Stops the worker (instead of finish(), when the caller gives up). */
  stop(): void;
}

/** Schemas sent to the worker at a time while streaming. */
const STREAM_BATCH = 16;

function judgingAjv(): Ajv2020 {
  const ajv = new Ajv2020({ strict: true, allErrors: true, strictRequired: false, allowUnionTypes: true, code: { optimize: false } });
  addFormats.default(ajv);
  ajv.addKeyword(MCP_HEADER);
  ajv.addKeyword(ENUM_NAMES); // form display names (ask:), nothing to validate
  ajv.addKeyword("$anchor"); // resolved by ajv for $ref, but not registered: strict mode would refuse it
  return ajv;
}
