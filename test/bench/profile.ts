// Profiles of the floor rows (`node bin/run-ts.mjs test/bench/profile.ts start,stdio,...`): each subject
// runs under V8's CPU profiler (`--cpu-prof` for child processes, node:inspector in this process) with
// the floor row's own workload, and the self time of its top functions is printed per operation beside
// the gap to the floor, measured unprofiled in the same run. GitHub gen's memory gets --trace-gc.
// Prints markdown; writes nothing into the tree.
import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { Session as Inspector } from "node:inspector/promises";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { Validator as CfValidator } from "@cfworker/json-schema";
import { build as esbuild } from "esbuild";
import { pathToFileURL } from "node:url";
import { execSpec, syntheticTools } from "./fixtures/synthetic.js";
import { bench10Spec, build } from "./floor.bench.js";
import { call, cpuPerRequest, httpCallPair, start } from "./floor-http.js";
import { readProfiles, report, selfTimes, type CpuProfile } from "./profile-summary.js";
import { DOC, SCHEMA } from "./validate-json.bench.js";
import { LineReader, NODE, REPO, answer, exited, interleave, median, request, run, tempDir } from "./util.js";

const CLEAN: NodeJS.ProcessEnv = { PATH: process.env.PATH ?? "/usr/bin:/bin" };
const KERVAN = join(REPO, "bin/kervan.mjs");
const ONE_LINE = `process.stdin.once("data",()=>process.stdout.write('{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}\\n'));\n`;
const ECHO = `let b="";process.stdin.setEncoding("utf8");process.stdin.on("data",(c)=>{b+=c;let i;while((i=b.indexOf("\\n"))>=0){process.stdout.write(b.slice(0,i+1));b=b.slice(i+1);}});`;
const prof = (dir: string, intervalUs = 100) => ["--cpu-prof", "--cpu-prof-interval", String(intervalUs), "--cpu-prof-dir", dir];

/** spawn -> tools/list answer -> stdin closed -> exit; returns ms to the answer. */
async function coldStart(args: string[]): Promise<number> {
  const t = performance.now();
  const child = spawn(NODE, args, { stdio: ["pipe", "pipe", "ignore"], cwd: REPO, env: CLEAN });
  const reader = new LineReader(child, "cold start");
  child.stdin!.write(request(1, "tools/list"));
  await reader.next();
  const elapsed = performance.now() - t;
  child.stdin!.end();
  await exited(child);
  return elapsed;
}

async function profileStart(): Promise<string> {
  const bench10 = await build(bench10Spec(), "bench10");
  const bare = join(tempDir("one-line"), "bare.mjs");
  writeFileSync(bare, ONE_LINE);
  const [k, b] = (await interleave([() => coldStart([bench10]), () => coldStart([bare])], 15, 2)).map(median) as [number, number];
  const dirK = tempDir("prof-start");
  const dirB = tempDir("prof-bare");
  const runs = 10;
  for (let i = 0; i < runs; i++) {
    await coldStart([...prof(dirK), bench10]);
    await coldStart([...prof(dirB), bare]);
  }
  const note = `unprofiled medians of 15 interleaved rounds: Kervan 10-tool ${k.toFixed(1)} ms, bare .mjs ${b.toFixed(1)} ms`;
  return [
    `## start (clean env)\n${note}\n`,
    report("Kervan 10-tool server, spawn to tools/list answer to exit", selfTimes(readProfiles(dirK)), runs, "start", (k - b) * 1000, 12, selfTimes(readProfiles(dirB))),
    report("bare one-line .mjs (the floor), same", selfTimes(readProfiles(dirB)), runs, "start"),
  ].join("\n");
}

class Line {
  readonly child;
  readonly reader;
  constructor(args: string[]) {
    this.child = spawn(NODE, args, { stdio: ["pipe", "pipe", "ignore"], cwd: REPO, env: CLEAN });
    this.reader = new LineReader(this.child, args.at(-1)!);
  }
  send(line: string): Promise<string> {
    this.child.stdin!.write(line);
    return this.reader.next();
  }
  async close(): Promise<void> {
    this.child.stdin!.end();
    await exited(this.child);
  }
}

const CHEAP = { output: "1", schema: { type: "integer" } };

async function profileStdio(): Promise<string> {
  const validator = await build(join(REPO, "specs/validator.yaml"), "validator");
  let id = 0;
  const line = () => request(++id, "tools/call", { name: "validate_json", arguments: CHEAP });
  const server = new Line([validator]);
  const echo = new Line(["-e", ECHO]);
  const [sq, eq] = (await interleave([async () => void answer(await server.send(line()), id), async () => void (await echo.send(line()))], 400, 100)).map(median) as [number, number];
  await Promise.all([server.close(), echo.close()]);
  const N = 3000;
  const P = 5000;
  const sequential = async (args: string[]) => {
    const dir = tempDir("prof-seq");
    const s = new Line([...prof(dir), ...args]);
    for (let i = 0; i < N; i++) await s.send(line());
    await s.close();
    return selfTimes(readProfiles(dir));
  };
  const pipelined = async (args: string[]) => {
    const dir = tempDir("prof-pipe");
    const s = new Line([...prof(dir), ...args]);
    for (let r = 0; r < 3; r++) {
      let text = "";
      for (let i = 0; i < P; i++) text += line();
      s.child.stdin!.write(text);
      for (let i = 0; i < P; i++) await s.reader.next();
    }
    await s.close();
    return selfTimes(readProfiles(dir));
  };
  return [
    `## stdio (validate_json, valid)\nunprofiled medians of 400 interleaved calls: Kervan ${(sq * 1000).toFixed(0)} µs, line echo ${(eq * 1000).toFixed(0)} µs per round trip\n`,
    report(`sequential, ${N} calls, server side less the echo's profile of the same calls`, await sequential([validator]), N, "call", (sq - eq) * 1000, 12, await sequential(["-e", ECHO])),
    report(`pipelined, 3 × ${P} calls, server side less the echo's`, await pipelined([validator]), 3 * P, "call", undefined, 12, await pipelined(["-e", ECHO])),
  ].join("\n");
}

async function profileServing(): Promise<string> {
  const validator = await build(join(REPO, "specs/validator.yaml"), "validator");
  const echoFile = join(REPO, "test/bench/fixtures/echo-http-server.mjs");
  const out: string[] = ["## Streamable HTTP server CPU per request (validate_json, 4 keep-alive connections)"];
  for (const era of ["2025-11-25", "2026-07-28"] as const) {
    const k = await start([validator, "--http", "0"]);
    const e = await start([echoFile]);
    await cpuPerRequest(k.proc, k.url, call(era), 500);
    await cpuPerRequest(e.proc, e.url, call(era), 500);
    const [ck, ce] = [await cpuPerRequest(k.proc, k.url, call(era), 3000), await cpuPerRequest(e.proc, e.url, call(era), 3000)];
    k.proc.kill("SIGTERM");
    e.proc.kill("SIGTERM");
    const N = 4000;
    const profiled = async (args: string[]) => {
      const dir = tempDir("prof-serve");
      const p = await start([...prof(dir), ...args]);
      await cpuPerRequest(p.proc, p.url, call(era), N);
      p.proc.kill("SIGTERM");
      await exited(p.proc);
      return selfTimes(readProfiles(dir));
    };
    out.push(`unprofiled CPU per request, ${era}: Kervan ${(ck * 1000).toFixed(0)} µs, echo ${(ce * 1000).toFixed(0)} µs (/proc, 10 ms ticks over 3,000 requests)\n`);
    out.push(report(`${era} frames, ${N} requests, less the echo's profile of the same requests (start-up of each included)`, await profiled([validator, "--http", "0"]), N, "request", (ck - ce) * 1000, 12, await profiled([echoFile])));
  }
  return out.join("\n");
}

/** Profiles `fn` in this process with node:inspector. */
async function inProcess(fn: () => Promise<void> | void): Promise<CpuProfile> {
  const session = new Inspector();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.setSamplingInterval", { interval: 50 });
  await session.post("Profiler.start");
  await fn();
  const { profile } = await session.post("Profiler.stop");
  session.disconnect();
  return profile as unknown as CpuProfile;
}

/** The schema code bundled as the generator bundles it (no tsx name helpers), so the profile shows the shipped functions. */
async function bundledSchemaCode(): Promise<typeof import("../../templates/kinds/validate_json/schema/validate.js") & typeof import("../../templates/kinds/validate_json/schema/prepare.js")> {
  const dir = tempDir("prof-schema");
  const entry = join(dir, "entry.ts");
  const schema = join(REPO, "templates/kinds/validate_json/schema");
  writeFileSync(entry, `export { prepareSchema } from ${JSON.stringify(join(schema, "prepare.js"))};\nexport { directRegex, validateInstance } from ${JSON.stringify(join(schema, "validate.js"))};\n`);
  await esbuild({ entryPoints: [entry], bundle: true, format: "esm", platform: "node", outfile: join(dir, "schema.mjs"), logLevel: "error" });
  return import(pathToFileURL(join(dir, "schema.mjs")).href);
}

async function profileValidate(): Promise<string> {
  const { prepareSchema, validateInstance, directRegex } = await bundledSchemaCode();
  const regex = directRegex();
  let n = 0;
  const fresh = () => ({ ...SCHEMA, $comment: `call ${++n}` });
  const B = 200;
  const ours = () => {
    for (let i = 0; i < B; i++) validateInstance(prepareSchema(fresh()), DOC, regex);
  };
  const cf = () => {
    for (let i = 0; i < B; i++) new CfValidator(fresh() as never, "2020-12", false).validate(DOC);
  };
  const [o, c] = (await interleave([async () => ours(), async () => cf()], 15, 3)).map(median) as [number, number];
  const perO = (o * 1000) / B;
  const perC = (c * 1000) / B;
  const N = 20;
  const p = await inProcess(() => {
    for (let r = 0; r < N; r++) ours();
  });
  return [
    `## validate_json, a new schema every call\nunprofiled: Kervan ${perO.toFixed(1)} µs per call, @cfworker/json-schema ${perC.toFixed(1)} µs; the target (3× its rate) is ${(perC / 3).toFixed(1)} µs\n`,
    report(`prepare + validate, ${N * B} calls`, selfTimes([p]), N * B, "call", perO - perC / 3),
  ].join("\n");
}

async function profileHttp(): Promise<string> {
  const { viaTool, viaRequest, close } = await httpCallPair();
  try {
    const [t, b] = (await interleave([viaTool, viaRequest], 1000, 300)).map(median) as [number, number];
    const N = 3000;
    const loop = (fn: () => Promise<void>) => async () => {
      for (let i = 0; i < N; i++) await fn();
    };
    const tool = await inProcess(loop(viaTool));
    const bare = await inProcess(loop(viaRequest));
    return [
      `## http tool call vs a bare keep-alive request (this process, loopback upstream)\nunprofiled medians of 1,000 interleaved rounds: tool ${(t * 1000).toFixed(0)} µs, bare request ${(b * 1000).toFixed(0)} µs\n`,
      report(`${N} tool calls less ${N} bare requests (client and upstream in one process)`, selfTimes([tool]), N, "call", (t - b) * 1000, 14, selfTimes([bare])),
    ].join("\n");
  } finally {
    close();
  }
}

async function genProfile(title: string, spec: string, out: string, runs = 1): Promise<string> {
  const dir = tempDir("prof-gen");
  for (let i = 0; i < runs; i++) await run(NODE, [...prof(dir, 500), KERVAN, "gen", spec, "--out", out], { cwd: REPO });
  return report(title, selfTimes(readProfiles(dir)), runs, "gen", undefined, 15);
}

async function profileGen(): Promise<string> {
  const root = tempDir("prof-gen5000");
  const spec = join(root, "spec.yaml");
  writeFileSync(spec, execSpec(5000));
  return `## gen + bundle, 5,000 tools\n\n${await genProfile("kervan gen, 5,000 exec tools, fresh folder", spec, join(root, "out"))}`;
}

async function profileIncremental(): Promise<string> {
  const root = tempDir("prof-incr");
  const spec = join(root, "spec.yaml");
  const original = execSpec(1000);
  writeFileSync(spec, original);
  const kept = join(root, "kept");
  await run(NODE, [KERVAN, "gen", spec, "--out", kept], { cwd: REPO });
  const t = syntheticTools(1000)[397]!;
  writeFileSync(spec, original.replace(JSON.stringify(t.description), JSON.stringify(`${t.description} Edit 1.`)));
  return `## gen after one tool of 1,000 changed\n\n${await genProfile("kervan gen onto the previous output, one description edited", spec, kept)}`;
}

async function profileMemory(): Promise<string> {
  const root = tempDir("prof-mem");
  const doc = join(root, "api.github.com.json");
  writeFileSync(doc, gunzipSync(readFileSync(join(REPO, "test/fixtures/openapi/corpus/api.github.com.json.gz"))));
  const spec = join(root, "github.yaml");
  await run(NODE, [KERVAN, "import", doc, "--name", "github", "--out", spec, "--max-tools", "5000"], { cwd: REPO });
  const { stdout } = await run(NODE, ["--trace-gc", KERVAN, "gen", spec, "--out", join(root, "out")], { cwd: REPO });
  // --trace-gc lines: "[pid:0x5a1b2c3d4e50]   1234 ms: Mark-Compact 310.2 (340.5) -> 250.1 (330.0) MB, ..." (one isolate per thread)
  const gcs = [...stdout.matchAll(/\[\d+:(0x[0-9a-f]+)\]\s+(\d+) ms: (Scavenge|Mark-Compact|Mark-sweep)[^\d]*([\d.]+) \(([\d.]+)\) -> ([\d.]+) \(([\d.]+)\) MB/gi)].map((m) => ({ isolate: m[1]!, at: Number(m[2]), kind: m[3]!, before: Number(m[4]), committed: Number(m[5]), after: Number(m[6]) }));
  const isolates = [...new Set(gcs.map((g) => g.isolate))];
  const lines = isolates.map((iso, i) => {
    const mine = gcs.filter((g) => g.isolate === iso);
    const top = mine.reduce((a, g) => (g.committed > a.committed ? g : a));
    const live = Math.max(...mine.map((g) => g.after));
    return `| ${i === 0 ? "main" : `isolate ${i + 1}`} | ${mine.length} (${mine.filter((g) => !/scavenge/i.test(g.kind)).length} full) | ${top.committed} MB at ${top.at} ms | ${live} MB | ${Math.max(...mine.map((g) => g.at))} ms |`;
  });
  const profile = await genProfile("kervan gen of the imported GitHub spec (CPU)", spec, join(root, "out2"));
  return [
    "## GitHub gen memory (--trace-gc)",
    "Each V8 isolate (the main thread, then each worker in the order it first collected): its largest committed JS heap, the most it kept live after a collection, and how long it lived.",
    "",
    "| isolate | collections | largest committed heap | most live after a GC | last GC at |",
    "|---|---|---|---|---|",
    ...lines,
    "",
    profile,
  ].join("\n");
}

const PARTS: Record<string, () => Promise<string>> = {
  start: profileStart,
  stdio: profileStdio,
  serving: profileServing,
  http: profileHttp,
  validate: profileValidate,
  gen: profileGen,
  incremental: profileIncremental,
  memory: profileMemory,
};

const want = (process.argv[2] ?? Object.keys(PARTS).join(",")).split(",").filter(Boolean);
for (const p of want) {
  if (!PARTS[p]) throw new Error(`profile: unknown part ${p}; the parts are ${Object.keys(PARTS).join(", ")}`);
}
console.log(`# Profiles (node ${process.version}; node bin/run-ts.mjs test/bench/profile.ts ${want.join(",")})\n`);
for (const p of want) console.log(await PARTS[p]!());
