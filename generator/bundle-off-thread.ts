// Bundles a large server on a worker thread (bundle-thread.ts). esbuild asks for each emitted file
// through a plugin callback (bundle.ts); on this thread those callbacks wait whenever the thread
// works (the types, the manifest), so esbuild, which starts while the emit still runs, got through
// a thousand tool modules only after the emit ended. On a worker they are answered at once. The
// same esbuild call on the same files: the same bytes. Small servers are bundled on this thread.
import type { BundleResult, EmittedFile, LaterFile } from "./model/output.js";
import type { BundleTarget } from "./bundle.js";
import type { BundleRequest } from "./bundle-thread.js";
import { answerOf, spareWorker } from "./shared/ts-worker.js";

const spare = spareWorker(new URL("./bundle-thread.ts", import.meta.url));

/** Starts the worker ahead of need (a large spec is being built). */
export function prestartBundleWorker(): void {
  spare.prestart();
}

/** Stops a worker started ahead of need and not used. */
export function stopSpareBundleWorker(): void {
  spare.stop();
}

/** Bundles on the worker started ahead of need when there is one, else on this thread. */
export async function bundleSomewhere(target: BundleTarget, files: Array<EmittedFile | LaterFile>): Promise<BundleResult> {
  if (!spare.waiting) return (await import("./bundle.js")).bundleFiles(target, files);
  const worker = spare.take();
  worker.ref();
  const send = (m: BundleRequest) => worker.postMessage(m);
  const result = answerOf<BundleResult>(worker, "bundle");
  send({ start: { target, files: files.map((f) => (typeof f.contents === "string" ? { path: f.path, contents: f.contents } : { path: f.path })) } });
  for (const f of files) {
    if (typeof f.contents !== "string") {
      f.contents.then(
        (contents) => send({ file: { path: f.path, contents } }),
        () => send({ failed: f.path }),
      );
    }
  }
  return result;
}
