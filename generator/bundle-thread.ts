// The worker side of bundle-off-thread.ts: bundles one server with esbuild, serving it the emitted
// files from this thread's own event loop. The files still being emitted arrive later, by message.
import { parentPort } from "node:worker_threads";
import { bundleFiles, type BundleTarget } from "./bundle.js";
import type { EmittedFile, LaterFile } from "./model/output.js";

export type BundleRequest =
  | { start: { target: BundleTarget; files: Array<{ path: string; contents?: string }> } }
  | { file: { path: string; contents: string } }
  | { failed: string };

const later = new Map<string, { resolve(contents: string): void; reject(e: Error): void }>();

parentPort!.on("message", (m: BundleRequest) => {
  if ("start" in m) {
    const files = m.start.files.map((f): EmittedFile | LaterFile => {
      if (f.contents !== undefined) return { path: f.path, contents: f.contents };
      const contents = new Promise<string>((resolve, reject) => later.set(f.path, { resolve, reject }));
      contents.catch(() => {});
      return { path: f.path, contents };
    });
    bundleFiles(m.start.target, files).then(
      (result) => parentPort!.postMessage({ result }),
      (e: Error) => parentPort!.postMessage({ error: { message: e?.message ?? String(e), stack: e?.stack } }),
    );
  } else if ("file" in m) later.get(m.file.path)?.resolve(m.file.contents);
  else later.get(m.failed)?.reject(new Error(`the emit of ${m.failed} failed`));
});
