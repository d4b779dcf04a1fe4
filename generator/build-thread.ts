// The worker side of the build's worker pool (shared/worker-pool.ts): runs the jobs of
// model/jobs.ts one at a time, each with the same code the calling thread would run, so a job's
// answer is the same bytes on either thread. What a job keeps lives in the job's own closure.
import { parentPort } from "node:worker_threads";
import type { FromWorker, JobName, Jobs, Judgements, ToWorker } from "./model/jobs.js";
import type { EmittedFile, LaterFile } from "./model/output.js";

type Feed<K extends keyof Jobs> = (listener: (message: Jobs[K]["feed"]) => void) => void;
type Handler<K extends keyof Jobs> = (input: Jobs[K]["input"], onFeed: Feed<K>) => Promise<Jobs[K]["result"]> | Jobs[K]["result"];

const handlers: { [K in keyof Jobs]: Handler<K> } = {
  // Each job loads what it needs: a worker started for one kind of job does not load ajv for another.
  async judge({ schemas, next }) {
    const compiler = new (await import("./shared/schema-compiler.js")).SchemaCompiler();
    const queue = new Int32Array(next);
    const out: Judgements = [];
    for (let i = Atomics.add(queue, 0, 1); i < schemas.length; i = Atomics.add(queue, 0, 1)) out.push([i, compiler.error(schemas[i]!)]);
    return out;
  },
  async judgeStream(_input, onFeed) {
    // Listening before the first await: what is fed while the compiler loads is judged once it is there.
    const waiting: Array<Jobs["judgeStream"]["feed"]> = [];
    let take: (m: Jobs["judgeStream"]["feed"]) => void = (m) => void waiting.push(m);
    onFeed((m) => take(m));
    const compiler = new (await import("./shared/schema-compiler.js")).SchemaCompiler();
    const out: Judgements = [];
    return new Promise((resolve) => {
      take = (m) => {
        if ("end" in m) resolve(out);
        else for (const schema of m.schemas) out.push([out.length, compiler.error(schema)]);
      };
      for (const m of waiting.splice(0)) take(m);
    });
  },
  async validators(input) {
    const { emitValidatorsModule } = await import("./emit/validators.js");
    return emitValidatorsModule(input);
  },
  async tokens({ texts }) {
    const count = await (await import("./catalog/tokenizer.js")).loadCounter();
    return texts.map((text) => count(text));
  },
  async bundle({ target, files }, onFeed) {
    // Listening before the first await: a file fed meanwhile is not lost.
    const later = new Map<string, { resolve(contents: string): void; reject(e: Error): void }>();
    onFeed((m) => {
      if ("file" in m) later.get(m.file.path)?.resolve(m.file.contents);
      else later.get(m.failed)?.reject(new Error(`the emit of ${m.failed} failed`));
    });
    const served = files.map((f): EmittedFile | LaterFile => {
      if (f.contents !== undefined) return { path: f.path, contents: f.contents };
      const contents = new Promise<string>((resolve, reject) => later.set(f.path, { resolve, reject }));
      contents.catch(() => {});
      return { path: f.path, contents };
    });
    const { bundleFiles } = await import("./bundle.js");
    return bundleFiles(target, served);
  },
};

/** Starts one job: its handler, chosen by the job's name, given the job's own input type. */
function start<K extends JobName>(m: { job: K; input: Jobs[K]["input"] }, onFeed: Feed<K>): Promise<Jobs[K]["result"]> | Jobs[K]["result"] {
  const handler: Handler<K> = handlers[m.job];
  return handler(m.input, onFeed);
}

function serve(): void {
  const port = parentPort!;
  const feeds = new Map<number, (message: unknown) => void>();
  const answer = (m: FromWorker) => port.postMessage(m);
  port.on("message", (m: ToWorker) => {
    if ("feed" in m) return feeds.get(m.id)?.(m.feed);
    // A feed message carries only its job's id: it is the type of that job's feed (worker-pool.ts
    // sends it so), which the listener registered here by the job's handler expects.
    const onFeed = (listener: (message: unknown) => void) => void feeds.set(m.id, listener);
    Promise.resolve()
      .then(() => start(m, onFeed as Feed<JobName>))
      .then(
        (result) => answer({ id: m.id, result }),
        (e: Error) => answer({ id: m.id, error: { message: e?.message ?? String(e), stack: e?.stack } }),
      )
      .finally(() => feeds.delete(m.id));
  });
}

serve();
