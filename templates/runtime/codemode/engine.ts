// Runs one program in QuickJS (quickjs-emscripten, the single-file release-sync variant: the
// WebAssembly module is embedded in the bundle, nothing is read or fetched at run time). One engine
// module per process, a new runtime and context per program, disposed after it. The program reaches
// the host only through prelude.ts's `host` function, with strings; limits stop it (limits.ts).
import { newQuickJSWASMModuleFromVariant, newVariant, type QuickJSContext, type QuickJSHandle, type QuickJSRuntime, type QuickJSWASMModule } from "quickjs-emscripten-core";
import variant from "@jitl/quickjs-singlefile-mjs-release-sync";
import { PRELUDE } from "./prelude.js";
import { limitMessage, type CodeLimits } from "./limits.js";

/** What an inner call answers the program: a JSON text to resolve with, or an error to reject with. */
export type InnerAnswer = { ok: true; json: string } | { ok: false; message: string; operation: string; pointers?: string[] };

export interface RunHooks {
  /** Operation names the program's `api` has. */
  names: string[];
  /** Runs one inner call (the JSON arguments as the program encoded them). */
  call(name: string, json: string): Promise<InnerAnswer>;
  /** The caller went away: the program is stopped. */
  signal?: AbortSignal;
}

export type RunOutcome =
  | { ok: true; json: string; console: string }
  | { ok: false; error: string; console: string; limit?: keyof CodeLimits };

let loading: Promise<QuickJSWASMModule> | undefined;

/** The engine, loaded on the first program (a failed load is retried by the next). */
export function engine(): Promise<QuickJSWASMModule> {
  // The engine's own stderr (an assertion while freeing a runtime that ran out of memory) is not
  // written: that fault is handled below (the module is replaced) and the program's answer says why.
  loading ??= newQuickJSWASMModuleFromVariant(newVariant(variant, { emscriptenModule: { printErr: () => {} } as object })).catch((err) => {
    loading = undefined;
    throw err;
  });
  return loading;
}

/** Forgets the engine module (after a fault inside it), so the next program gets a fresh one. */
function dropEngine(): void {
  loading = undefined;
}

class Run {
  readonly start = performance.now();
  cpu = 0;
  slice: number | undefined;
  stop: { limit?: keyof CodeLimits; error: string } | undefined;
  result: { ok: true; json: string } | { ok: false; error: string } | undefined;
  log = "";
  logBytes = 0;
  calls = 0;
  readonly settled: { id: number; answer: InnerAnswer }[] = [];
  inflight = 0;
  wake: (() => void) | undefined;

  constructor(readonly limits: CodeLimits, readonly hooks: RunHooks) {}

  halt(limit: keyof CodeLimits | undefined, error: string): void {
    this.stop ??= { ...(limit ? { limit } : {}), error };
    this.wake?.();
  }

  interrupted(): boolean {
    if (this.stop) return true;
    const now = performance.now();
    if (this.slice !== undefined && this.cpu + (now - this.slice) > this.limits.cpuMs) this.halt("cpuMs", limitMessage("cpuMs", this.limits));
    else if (now - this.start > this.limits.wallMs) this.halt("wallMs", limitMessage("wallMs", this.limits));
    else if (this.hooks.signal?.aborted) this.halt(undefined, "the request was cancelled");
    return this.stop !== undefined;
  }

  /** Engine work, timed against the CPU limit. */
  timed<T>(work: () => T): T {
    this.slice = performance.now();
    try {
      return work();
    } finally {
      this.cpu += performance.now() - this.slice;
      this.slice = undefined;
    }
  }

  onLog(line: string): void {
    const bytes = Buffer.byteLength(line) + 1;
    if (this.logBytes + bytes > this.limits.consoleBytes) return this.halt("consoleBytes", limitMessage("consoleBytes", this.limits));
    this.logBytes += bytes;
    this.log += line + "\n";
  }

  onCall(name: string, json: string): number {
    const id = ++this.calls;
    if (id > this.limits.calls) {
      this.halt("calls", limitMessage("calls", this.limits));
      return id;
    }
    this.inflight++;
    const done = (answer: InnerAnswer) => {
      this.inflight--;
      this.settled.push({ id, answer });
      this.wake?.();
    };
    if (Buffer.byteLength(json) > this.limits.argumentBytes) {
      queueMicrotask(() => done({ ok: false, operation: name, message: `api.${name} was not called: its arguments are over ${limitMessage("argumentBytes", this.limits)}` }));
      return id;
    }
    this.hooks.call(name, json).then(done, (err) => done({ ok: false, operation: name, message: `api.${name} failed: ${err instanceof Error ? err.message : String(err)}` }));
    return id;
  }

  onDone(json: string): void {
    if (Buffer.byteLength(json) > this.limits.resultBytes) return this.halt("resultBytes", limitMessage("resultBytes", this.limits));
    this.result = { ok: true, json };
  }

  onFail(text: string): void {
    if (/\bout of memory\b/.test(text)) return this.halt("memoryBytes", limitMessage("memoryBytes", this.limits));
    if (/\bstack overflow\b/.test(text)) return this.halt("stackBytes", limitMessage("stackBytes", this.limits));
    this.result = { ok: false, error: text };
  }

  /** Resolves when an inner call settles, the wall limit passes or the caller cancels. */
  next(): Promise<void> {
    if (this.settled.length || this.stop) return Promise.resolve();
    return new Promise((resolve) => {
      const left = Math.max(0, this.limits.wallMs - (performance.now() - this.start));
      const timer = setTimeout(() => this.interrupted(), left + 1);
      const onAbort = () => this.interrupted();
      this.hooks.signal?.addEventListener("abort", onAbort, { once: true });
      this.wake = () => {
        this.wake = undefined;
        clearTimeout(timer);
        this.hooks.signal?.removeEventListener("abort", onAbort);
        resolve();
      };
    });
  }
}

function str(vm: QuickJSContext, h: QuickJSHandle | undefined): string {
  return h !== undefined && vm.typeof(h) === "string" ? vm.getString(h) : "";
}

/** The host function the prelude receives. */
function hostFunction(vm: QuickJSContext, run: Run): QuickJSHandle {
  return vm.newFunction("host", (opH, aH, bH) => {
    const op = str(vm, opH);
    if (op === "call") return vm.newNumber(run.onCall(str(vm, aH), str(vm, bH)));
    if (op === "log") run.onLog(str(vm, aH));
    else if (op === "done") run.onDone(str(vm, aH));
    else if (op === "fail") run.onFail(str(vm, aH));
    return vm.undefined;
  });
}

/** The error of a failed evaluation, as text, disposing it. */
function failure(vm: QuickJSContext, h: QuickJSHandle): string {
  try {
    const e = vm.dump(h) as { name?: unknown; message?: unknown; stack?: unknown } | unknown;
    if (e && typeof e === "object" && "message" in e) return `${String((e as { name?: unknown }).name ?? "Error")}: ${String((e as { message?: unknown }).message)}`;
    return String(e);
  } finally {
    h.dispose();
  }
}

function setUp(vm: QuickJSContext, run: Run, code: string, own: QuickJSHandle[]): { settle: QuickJSHandle } | string {
  const prelude = vm.evalCode(PRELUDE, "prelude.js");
  if (prelude.error) return failure(vm, prelude.error);
  own.push(prelude.value);
  const host = hostFunction(vm, run);
  own.push(host);
  const names = vm.newArray();
  own.push(names);
  run.hooks.names.forEach((n, i) => {
    const h = vm.newString(n);
    vm.setProp(names, i, h);
    h.dispose();
  });
  const sides = vm.callFunction(prelude.value, vm.undefined, host, names);
  if (sides.error) return failure(vm, sides.error);
  own.push(sides.value);
  const runFn = vm.getProp(sides.value, "run");
  const settle = vm.getProp(sides.value, "settle");
  own.push(runFn, settle);
  // The program: an async function body. Compiled as one expression, so a syntax error is reported before anything runs.
  const program = vm.evalCode(`(async function program() {\n${code}\n})`, "program.js");
  if (program.error) {
    const text = failure(vm, program.error);
    return text.startsWith("SyntaxError") ? `${text} (the program is plain JavaScript, the body of an async function: TypeScript annotations are not accepted)` : text;
  }
  own.push(program.value);
  const started = vm.callFunction(runFn, vm.undefined, program.value);
  if (started.error) return failure(vm, started.error);
  started.value.dispose();
  return { settle };
}

function deliver(vm: QuickJSContext, run: Run, settle: QuickJSHandle): void {
  for (const { id, answer } of run.settled.splice(0)) {
    const idH = vm.newNumber(id);
    const okH = answer.ok ? vm.true : vm.false;
    const textH = vm.newString(answer.ok ? answer.json : JSON.stringify({ message: answer.message, operation: answer.operation, ...(answer.pointers ? { pointers: answer.pointers } : {}) }));
    const r = vm.callFunction(settle, vm.undefined, idH, okH, textH);
    idH.dispose();
    textH.dispose();
    if (r.error) run.onFail(failure(vm, r.error));
    else r.value.dispose();
    if (run.stop) return;
  }
}

function pump(rt: QuickJSRuntime, vm: QuickJSContext, run: Run): void {
  const jobs = rt.executePendingJobs(-1);
  if (jobs.error) run.onFail(failure(vm, jobs.error));
}

async function drive(rt: QuickJSRuntime, vm: QuickJSContext, run: Run, code: string, own: QuickJSHandle[]): Promise<void> {
  const ready = run.timed(() => setUp(vm, run, code, own));
  if (typeof ready === "string") return void run.onFail(ready);
  for (;;) {
    run.timed(() => pump(rt, vm, run));
    if (run.stop || run.result) return;
    if (run.inflight === 0 && run.settled.length === 0) {
      return void run.onFail("the program awaits a promise that nothing will settle (only api calls complete asynchronously; there are no timers)");
    }
    await run.next();
    if (run.stop) return;
    run.timed(() => deliver(vm, run, ready.settle));
    if (run.stop || run.result) return;
  }
}

function disposeAll(rt: QuickJSRuntime, vm: QuickJSContext, own: QuickJSHandle[]): void {
  try {
    for (const h of own.reverse()) if (h.alive) h.dispose();
    vm.dispose();
    rt.dispose();
  } catch {
    // A fault inside the engine while freeing: this module instance is not used again.
    dropEngine();
  }
}

/** Runs `code` (the body of an async function) under `limits`; never throws for anything the program does. */
export async function runProgram(code: string, limits: CodeLimits, hooks: RunHooks): Promise<RunOutcome> {
  const mod = await engine();
  const run = new Run(limits, hooks);
  const rt = mod.newRuntime();
  rt.setMemoryLimit(limits.memoryBytes);
  rt.setMaxStackSize(limits.stackBytes);
  rt.setInterruptHandler(() => run.interrupted());
  const vm = rt.newContext();
  const own: QuickJSHandle[] = [];
  try {
    await drive(rt, vm, run, code, own);
  } catch (err) {
    // The engine itself failed (a WebAssembly trap): the program is stopped and the module replaced.
    dropEngine();
    run.halt(undefined, `the engine stopped the program (${err instanceof Error ? err.message : String(err)})`);
  } finally {
    disposeAll(rt, vm, own);
  }
  if (run.stop) return { ok: false, error: run.stop.error, console: run.log, ...(run.stop.limit ? { limit: run.stop.limit } : {}) };
  const result = run.result!;
  return result.ok ? { ok: true, json: result.json, console: run.log } : { ok: false, error: result.error, console: run.log };
}
