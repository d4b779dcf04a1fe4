// The exec tool kind at run time: bind arguments, apply the path policy and admission limits,
// run the command without a shell, report the result.
import { existsSync, statSync } from "node:fs";
import { onShutdown as runtimeOnShutdown } from "../../runtime/shutdown.js";
import { StartupError, type ToolHandler, type ToolOutcome, type CallContext } from "../../runtime/types.js";
import { checkConfig, type ExecToolConfig } from "./config.js";
import { RateLimiter, Slots } from "./limits.js";
import { PathError, checkPath, resolveReal, type PathPolicy } from "./paths.js";
import { ArgumentError, renderArgv } from "./render.js";
import { mediaOutcome, outcome, refusal } from "./result.js";
import { collectOutputs, makeOutputDir, OUTPUT_DIR_ENV, removeOutputDir } from "./output-files.js";
import { killGroup, runProcess, type RunResult } from "./spawn.js";
import { heartbeat } from "./progress.js";
import { planSandbox, type SandboxPlan } from "./sandbox.js";
import { sandboxHost, type SandboxHost } from "./sandbox-host.js";
import { log } from "../../runtime/log.js";
import { hiddenGitDirs } from "./git-dir.js";
import { bwrapCommand, cgroupSteps, checkCommandVisible, sandboxedRun, type CgroupSteps } from "./sandbox-run.js";

export { EXEC_DEFAULTS, EXEC_OUTPUT_SCHEMA } from "./config.js";
export type { ArgEntry, ArgGroup, ArgPart, ExecToolConfig, FieldType } from "./config.js";
export type { SandboxConfig } from "./sandbox.js";
export { RUN_LATER, SANDBOX_DEFAULTS } from "./sandbox.js";
export { macosProfile } from "./macos-profile.js";
export type { ExecValue } from "./result.js";

export interface ExecHooks {
  /** Registers a function run when the server stops (SIGTERM, SIGINT, stdin EOF). Default: the runtime's. */
  onShutdown?: (fn: () => Promise<void>) => unknown;
}

export type ExecHandler = ToolHandler & {
  /** Resolves cwd and policy roots; throws StartupError. Idempotent; the first call runs it if needed. */
  startup(): void;
  /** Refuses further calls; SIGTERM to every running group, SIGKILL to what is left after the grace. */
  shutdown(): Promise<void>;
};

interface Prepared {
  cwd: string;
  /** Built once: the server's environment is read at startup, like every other setting. */
  env: Record<string, string>;
  policy?: PathPolicy;
  sandbox?: { plan: SandboxPlan; host: SandboxHost };
}

// Paths resolved while the tools start, by base and value: the tools of a server mostly share the
// server's directory and roots, and each resolution walks every component with lstat.
const RESOLVED = new Map<string, string>();

function prepare(cfg: ExecToolConfig): Prepared {
  const fail = (why: string): never => {
    throw new StartupError(`exec tool ${JSON.stringify(cfg.tool)}: ${why}`);
  };
  const real = (p: string, base: string): string => {
    const key = `${base}\0${p}`;
    const known = RESOLVED.get(key);
    if (known !== undefined) return known;
    try {
      const r = resolveReal(p, base);
      RESOLVED.set(key, r);
      return r;
    } catch (err) {
      return fail(`cannot resolve ${p}: ${(err as Error).message}`);
    }
  };
  const base = real(process.cwd(), "/");
  const cwd = cfg.cwd === undefined ? base : real(cfg.cwd, base);
  if (!existsSync(cwd) || !statSync(cwd).isDirectory()) fail(`working directory ${cfg.cwd} (${cwd}) is not a directory`);
  const env = childEnv(cfg);
  let policy: PathPolicy | undefined;
  if (cfg.paths) {
    const allowIn = cfg.paths.allow?.length ? cfg.paths.allow : ["."];
    const allow = allowIn.map((root) => {
      const r = real(root, cwd);
      if (!existsSync(r) || !statSync(r).isDirectory()) fail(`allowed root ${root} (${r}) is not an existing directory`);
      return r;
    });
    // A denied path need not exist yet: it must stay denied if it is created later.
    const deny = (cfg.paths.deny ?? []).map((d) => real(d, cwd));
    policy = { fields: cfg.paths.fields, allow, deny, cwd };
  }
  const limits = checkConfig(cfg).sandbox;
  if (!limits) return { cwd, env, policy };
  let host: SandboxHost;
  try {
    host = sandboxHost(env.PATH);
  } catch (err) {
    return fail(`runs under the OS sandbox, but ${(err as Error).message}`);
  }
  const plan = planSandbox({
    sandbox: cfg.sandbox!,
    limits,
    cwd,
    allow: policy?.allow ?? [],
    deny: policy?.deny ?? [],
    real: (p) => real(p, cwd),
    fail,
  });
  const command = (cfg.argv[0] as string[]).join("");
  checkCommandVisible(command, plan, host, env.PATH, fail);
  for (const g of hiddenGitDirs(plan)) {
    const why = `${g.file} points to a git directory the sandbox does not show; add ${g.needed} to sandbox.visible (sandbox.writable if git must write)`;
    if (/(^|\/)git$/.test(command)) fail(why);
    log(`exec tool ${JSON.stringify(cfg.tool)}: ${why}, or git run by this tool fails`);
  }
  return { cwd, env, policy, sandbox: { plan, host } };
}

// Startup results per config object, so checkExecStartup (run by the server's startup) and the
// handler share one resolution of cwd and roots.
const PREPARED = new WeakMap<ExecToolConfig, Prepared>();

/** The startup check: structure, working directory, policy roots. Throws StartupError. */
export function checkExecStartup(cfg: ExecToolConfig): void {
  checkConfig(cfg);
  if (!PREPARED.has(cfg)) PREPARED.set(cfg, prepare(cfg));
}

/**
 * The sandbox's command line for this tool with the given rendered command, as a call would run
 * it (Linux, without a root server's process-limit gate); undefined when the tool is unsandboxed.
 */
export function sandboxCommandLine(cfg: ExecToolConfig, command: string, args: string[]): string[] | undefined {
  checkExecStartup(cfg);
  const s = PREPARED.get(cfg)!.sandbox;
  return s && s.host.platform === "linux" ? bwrapCommand(s.plan, s.host, command, args) : undefined;
}

/** What a call of this tool does around its bwrap spawn (its filter; a root server's per-call cgroups unless `withCgroup` is false), for the bench's baseline. */
export function sandboxCgroupSteps(cfg: ExecToolConfig, bwrap: string[], withCgroup = true): CgroupSteps {
  checkExecStartup(cfg);
  const s = PREPARED.get(cfg)!.sandbox!;
  return cgroupSteps(s.host, s.plan.limits, bwrap, withCgroup);
}

function childEnv(cfg: ExecToolConfig): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of ["PATH", ...(cfg.env?.pass ?? [])]) {
    const v = process.env[name];
    if (v !== undefined) env[name] = v;
  }
  return Object.assign(env, cfg.env?.set ?? {});
}

export function createExecHandler(cfg: ExecToolConfig, hooks: ExecHooks = { onShutdown: runtimeOnShutdown }): ExecHandler {
  const limits = checkConfig(cfg);
  const slots = new Slots(limits.concurrency, limits.queue);
  const rate = cfg.rateLimit ? new RateLimiter(cfg.rateLimit.calls, cfg.rateLimit.windowMs) : undefined;
  const live = new Set<number>();
  const running = new Set<Promise<unknown>>();
  let stopped = false;

  const startup = () => checkExecStartup(cfg);
  const shutdown = async () => {
    stopped = true;
    if (live.size === 0) return;
    for (const pgid of live) killGroup(pgid, "SIGTERM");
    // The runtime bounds all hooks (a few seconds) and the exit guard in spawn.ts SIGKILLs whatever
    // is still alive when the process exits, so a long grace can never leave children behind.
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise((resolve) => (timer = setTimeout(resolve, limits.killGraceMs)).unref());
    await Promise.race([Promise.allSettled([...running]), grace]);
    clearTimeout(timer);
    for (const pgid of live) killGroup(pgid, "SIGKILL");
    live.clear();
  };
  hooks.onShutdown?.(shutdown);

  const call = async (args: Record<string, unknown>, ctx: CallContext): Promise<ToolOutcome> => {
    const started = performance.now();
    startup();
    const { cwd, env, policy, sandbox } = PREPARED.get(cfg)!;
    let bound: ReturnType<typeof renderArgv>;
    try {
      bound = renderArgv(cfg.argv, cfg.fields, args, cfg.optional);
      for (const field of policy?.fields ?? []) {
        const value = bound.values.get(field);
        if (value !== undefined) checkPath(policy!, field, value);
      }
    } catch (err) {
      if (err instanceof ArgumentError || err instanceof PathError) return refusal(cfg.tool, err.message);
      throw err;
    }
    if (stopped) return refusal(cfg.tool, "the server is shutting down");
    if (ctx.signal.aborted) return refusal(cfg.tool, "cancelled before it started");
    if (!slots.canAdmit()) {
      return refusal(
        cfg.tool,
        `busy: ${limits.concurrency} calls are running and ${limits.queue} are waiting; retry after one completes`,
      );
    }
    const retryMs = rate?.admit() ?? 0;
    if (retryMs > 0) {
      const { calls, windowMs } = cfg.rateLimit!;
      return refusal(cfg.tool, `rate limit reached (${calls} calls per ${windowMs} ms); retry in about ${retryMs} ms`);
    }
    // Waiting for a slot spends the call's own time budget, so a queued call never outlives it.
    const release = await slots.acquire(limits.timeoutMs, ctx.signal);
    if (release === "abort") return refusal(cfg.tool, "cancelled while waiting for a free slot");
    let outputDir: string | undefined;
    if (release === "timeout") {
      const why = `timed out after ${limits.timeoutMs} ms waiting for a free slot (${limits.concurrency} running)`;
      return refusal(cfg.tool, why, true);
    }
    try {
      if (stopped) return refusal(cfg.tool, "the server is shutting down");
      const remaining = Math.max(1, Math.round(limits.timeoutMs - (performance.now() - started)));
      if (cfg.outputFiles) outputDir = makeOutputDir();
      const base = {
        command: bound.command,
        args: bound.args,
        cwd,
        env: outputDir ? { ...env, [OUTPUT_DIR_ENV]: outputDir } : env,
        timeoutMs: remaining,
        killGraceMs: limits.killGraceMs,
        maxOutputBytes: limits.maxOutputBytes,
        signal: ctx.signal,
        live,
      };
      let run: Promise<RunResult>;
      try {
        run = sandbox ? sandboxedRun(base, sandbox.plan, sandbox.host, outputDir) : runProcess(base);
      } catch (err) {
        return refusal(cfg.tool, `cannot set up the sandbox: ${(err as Error).message}`);
      }
      running.add(run);
      const stopProgress = heartbeat(ctx, bound.command, limits.progressIntervalMs);
      const r = await run.finally(() => {
        running.delete(run);
        stopProgress();
      });
      const done = outcome(bound.command, r, limits.timeoutMs, limits.maxOutputBytes, limits.okExitCodes);
      const result = cfg.stdoutMedia ? mediaOutcome(done, r, cfg.stdoutMedia, limits.maxOutputBytes) : done;
      return outputDir ? withOutputs(result, outputDir) : result;
    } finally {
      if (outputDir) removeOutputDir(outputDir);
      release();
    }
  };
  /** A successful run's declared files, after its other blocks; a refused file fails the call. */
  const withOutputs = (result: ToolOutcome, dir: string): ToolOutcome => {
    if (result.isError) return result;
    const got = collectOutputs(cfg.tool, dir, cfg.outputFiles!, limits.maxOutputBytes, limits.outputFilesMaxBytes);
    if ("error" in got) return { isError: true, text: `${cfg.tool}: ${got.error}`, value: result.value };
    const text = [result.text ?? "", ...got.notes.map((n) => `output file ${n}`)].join("\n");
    return { ...result, text, content: [...(result.content ?? []), ...got.blocks] };
  };
  return Object.assign(call, { startup, shutdown });
}
