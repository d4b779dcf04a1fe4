// Cold start and stdio round trip of a generated server.
//
// Cold start: spawn -> the answer to a tools/list sent on stdin right after spawning, for the
// 10-tool server of fixtures/bench10.yaml, against spawn -> exit of a bare `node -e 0`, and (when
// openapi-mcp-generator is installed) the same for its generated and tsc-built server of an
// equivalent 10-operation API.
//
// Round trip: sequential tools/call requests on one long-lived server (one whose arguments fail
// validation, so nothing is spawned, and a real `true`), against a bare node child that echoes a
// line back (and a bare spawn of `true`).
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { generate } from "../../generator/pipeline.js";
import { readSources } from "../../generator/cli/sources.js";
import { formatAll } from "../../generator/cli/diagnostics.js";
import { openApiDoc } from "./fixtures/synthetic.js";
import { OPENAPI_MCP_GENERATOR, dependencyPlan, openApiGenerate, prepareProject, tscBuild } from "./fixtures/openapi-project.js";
import { LineReader, NODE, REPO, answer, exited, interleave, median, ms, request, tempDir, type Row } from "./util.js";

export const BENCH10_SPEC = join(REPO, "test/bench/fixtures/bench10.yaml");

/** Generates fixtures/bench10.yaml into a fresh folder; returns the path of its server.mjs. */
export async function buildBench10(): Promise<string> {
  const outRoot = tempDir("bench10");
  const sources = readSources([BENCH10_SPEC]);
  const result = await generate(sources, { outRoot, check: false, pruneServers: false });
  if (result.diagnostics.some((d) => d.severity === "error")) {
    const lines = new Map(sources.map((s) => [s.path, s.text.split(/\r?\n/)]));
    throw new Error(`bench10.yaml does not build:\n${formatAll(result.diagnostics, lines)}`);
  }
  return join(outRoot, "bench10", "server.mjs");
}

/** openapi-mcp-generator's server for an equivalent 10-operation API, generated and built; undefined when the tool is not installed. */
export async function buildOpenApi10(): Promise<{ entry: string; tscErrors: number } | undefined> {
  if (!existsSync(OPENAPI_MCP_GENERATOR)) return undefined;
  const dir = tempDir("omg10");
  const doc = join(dir, "api.json");
  writeFileSync(doc, JSON.stringify(openApiDoc(10)));
  const project = join(dir, "project");
  await openApiGenerate(doc, project);
  prepareProject(project);
  const tscErrors = await tscBuild(project);
  return { entry: join(project, "build", "index.js"), tscErrors };
}

/**
 * The caller's environment less Node's start-up settings. A machine-wide NODE_EXTRA_CA_CERTS (a
 * whole CA bundle parsed at every start, ~45 ms on the development machine) or NODE_OPTIONS adds the
 * same fixed cost to both sides and shrinks the ratio; the clean rows show the server's own share.
 */
const CLEAN_ENV = Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== "NODE_EXTRA_CA_CERTS" && k !== "NODE_OPTIONS"));
const INHERITED = process.env;

function spawnError(child: ChildProcess): Promise<never> {
  return new Promise((_, reject) => child.once("error", reject));
}

/** spawn -> exit of `node <args>` (`-e 0`, or a file), with the same pipes as a server gets. */
function bareNode(env: NodeJS.ProcessEnv, args = ["-e", "0"]): Promise<number> {
  const t = performance.now();
  const child = spawn(NODE, args, { stdio: ["pipe", "pipe", "ignore"], env });
  return Promise.race([spawnError(child), exited(child).then(() => performance.now() - t)]);
}

/** An empty ES module importing the bundle's static built-ins: what any ESM server pays before its own code. */
function esmFloor(bundle: string): string {
  const imports = [...new Set(readFileSync(bundle, "utf8").match(/^import [^;]*? from "node:[^"]+";$/gm) ?? [])];
  const file = join(tempDir("esm-floor"), "floor.mjs");
  writeFileSync(file, imports.map((i) => `import "${/"(node:[^"]+)"/.exec(i)![1]}";`).join("\n") + "\n");
  return file;
}

const LIST = request(1, "tools/list");

/** spawn -> first answer line to a tools/list written to stdin at once; then EOF and wait for exit (untimed). */
async function coldStart(entry: string, label: string, tools: number, env: NodeJS.ProcessEnv = INHERITED): Promise<number> {
  const t = performance.now();
  const child = spawn(NODE, [entry], { stdio: ["pipe", "pipe", "ignore"], cwd: REPO, env });
  const reader = new LineReader(child, label);
  child.stdin!.write(LIST);
  const line = await Promise.race([spawnError(child), reader.next()]);
  const elapsed = performance.now() - t;
  const result = answer(line, 1);
  const listed = (result.tools as unknown[] | undefined)?.length;
  if (listed !== tools) throw new Error(`${label}: tools/list listed ${listed} tools, expected ${tools}`);
  child.stdin!.end();
  const kill = setTimeout(() => child.kill("SIGKILL"), 5000);
  await exited(child);
  clearTimeout(kill);
  return elapsed;
}

export interface StartupOptions {
  rounds?: number;
  warmup?: number;
}

export async function benchColdStart(kervanEntry: string, openapi: { entry: string; tscErrors: number } | undefined, o: StartupOptions = {}): Promise<{ rows: Row[]; notes: string[] }> {
  const rounds = o.rounds ?? 30;
  const floor = esmFloor(kervanEntry);
  const subjects: Array<() => Promise<number>> = [
    () => bareNode(INHERITED),
    () => coldStart(kervanEntry, "kervan bench10 server", 10),
    () => bareNode(CLEAN_ENV),
    () => coldStart(kervanEntry, "kervan bench10 server", 10, CLEAN_ENV),
    () => bareNode(CLEAN_ENV, [floor]),
  ];
  if (openapi) subjects.push(() => coldStart(openapi.entry, "openapi-mcp-generator server", 10));
  const samples = await interleave(subjects, rounds, o.warmup ?? 3);
  const [base, kervan, cleanBase, cleanKervan, cleanFloor, omg] = samples.map(median) as [number, number, number, number, number, number | undefined];
  const rows: Row[] = [
    {
      section: "Cold start (spawn -> tools/list answer; baseline spawn -> exit of node -e 0)",
      name: "Kervan 10-tool server vs node -e 0",
      ratio: kervan / base,
      target: { op: "≤", value: 1.3 },
      subject: ms(kervan),
      baseline: ms(base),
    },
  ];
  const clean = "without NODE_EXTRA_CA_CERTS and NODE_OPTIONS";
  rows.push(
    { section: rows[0]!.section, name: `Kervan 10-tool server vs node -e 0, both ${clean}`, ratio: cleanKervan / cleanBase, subject: ms(cleanKervan), baseline: ms(cleanBase) },
    { section: rows[0]!.section, name: `empty ES module importing the same built-ins vs node -e 0 (${clean}): any ESM server's floor`, ratio: cleanFloor / cleanBase, subject: ms(cleanFloor), baseline: ms(cleanBase) },
  );
  const notes = [
    `cold start: ${rounds} interleaved rounds after warm-up; medians: node -e 0 ${ms(base)}, Kervan ${ms(kervan)}${omg !== undefined ? `, openapi-mcp-generator ${ms(omg)}` : ""}; ${clean}: node -e 0 ${ms(cleanBase)}, Kervan ${ms(cleanKervan)}, the ESM floor ${ms(cleanFloor)}.`,
    `cold start: the target row runs both sides in this process's environment${process.env.NODE_EXTRA_CA_CERTS ? " (which sets NODE_EXTRA_CA_CERTS: every node start here pays for it)" : ""}; the rows ${clean} show the server's own start-up share.`,
  ];
  if (omg !== undefined) {
    const deps = dependencyPlan();
    rows.push({
      section: rows[0]!.section,
      name: "openapi-mcp-generator 10-op server vs node -e 0 (for comparison)",
      ratio: omg / base,
      subject: ms(omg),
      baseline: ms(base),
    });
    rows.push({
      section: rows[0]!.section,
      name: "Kervan 10-tool server vs openapi-mcp-generator 10-op server",
      ratio: kervan / omg,
      subject: ms(kervan),
      baseline: ms(omg),
    });
    notes.push(
      `openapi-mcp-generator's server is built by tsc against our copies of ${deps.linked.join(", ")}` +
        (deps.stubbed.length ? `; ${deps.stubbed.join(" and ")} ${deps.stubbed.length > 1 ? "are" : "is"} not installed here, so minimal stubs stand in (nothing to load, which makes that server start faster than with the real packages).` : ".") +
        (openapi!.tscErrors ? ` tsc reported ${openapi!.tscErrors} errors (it still emitted).` : ""),
    );
  } else notes.push("openapi-mcp-generator is not installed: its cold start is not measured.");
  return { rows, notes };
}

/** A long-lived child spoken to one line at a time. */
class Session {
  readonly child: ChildProcess;
  private reader: LineReader;
  constructor(argv: string[], label: string) {
    this.child = spawn(NODE, argv, { stdio: ["pipe", "pipe", "ignore"], cwd: REPO });
    this.reader = new LineReader(this.child, label);
  }
  async send(line: string): Promise<string> {
    this.child.stdin!.write(line);
    return this.reader.next();
  }
  async close(): Promise<void> {
    this.child.stdin!.end();
    const kill = setTimeout(() => this.child.kill("SIGKILL"), 5000);
    await exited(this.child);
    clearTimeout(kill);
  }
}

/** The least a line-echo child can do: split on newlines, write each line back. */
const ECHO = `let b="";process.stdin.setEncoding("utf8");process.stdin.on("data",(c)=>{b+=c;let i;while((i=b.indexOf("\\n"))>=0){process.stdout.write(b.slice(0,i+1));b=b.slice(i+1);}});`;

/**
 * The least a server must do per exec call: read a line, spawn `true` with a PATH-only
 * environment, read both pipes, wait for close, write the line back. A bare node child, so the
 * spawn happens in a process as small as a generated server (fork cost grows with the parent).
 */
const SPAWN_ECHO = `const {spawn}=require("node:child_process");const env=process.env.PATH===undefined?{}:{PATH:process.env.PATH};let b="";process.stdin.setEncoding("utf8");process.stdin.on("data",(c)=>{b+=c;let i;while((i=b.indexOf("\\n"))>=0){const line=b.slice(0,i+1);b=b.slice(i+1);const p=spawn("true",[],{stdio:["ignore","pipe","pipe"],env});p.stdout.resume();p.stderr.resume();p.on("close",()=>process.stdout.write(line));}});`;

export async function benchRoundTrip(kervanEntry: string, o: StartupOptions = {}): Promise<{ rows: Row[]; notes: string[] }> {
  const rounds = o.rounds ?? 300;
  const server = new Session([kervanEntry], "kervan bench10 server");
  const echo = new Session(["-e", ECHO], "line echo");
  const spawnEcho = new Session(["-e", SPAWN_ECHO], "line echo spawning true");
  let id = 0;
  const invalidLine = () => request(++id, "tools/call", { name: "echo_text", arguments: { text: 1 } });
  try {
    const viaEcho = async () => {
      const line = invalidLine();
      if ((await echo.send(line)) !== line.slice(0, -1)) throw new Error("line echo answered something else");
    };
    const invalidCall = async () => {
      const line = invalidLine();
      const result = answer(await server.send(line), id);
      if (result.isError !== true) throw new Error("tools/call with invalid arguments did not answer isError");
    };
    const viaSpawnEcho = async () => {
      const line = invalidLine();
      if ((await spawnEcho.send(line)) !== line.slice(0, -1)) throw new Error("spawning line echo answered something else");
    };
    const trueCall = async () => {
      const r = answer(await server.send(request(++id, "tools/call", { name: "noop", arguments: {} })), id);
      const sc = r.structuredContent as { exitCode?: unknown } | undefined;
      if (r.isError || sc?.exitCode !== 0) throw new Error(`tools/call noop failed: ${JSON.stringify(r).slice(0, 300)}`);
    };
    const [echoS, invalidS, trueS, spawnS] = await interleave([viaEcho, invalidCall, trueCall, viaSpawnEcho], rounds, o.warmup ?? 50);
    const [e, inv, tr, sp] = [echoS!, invalidS!, trueS!, spawnS!].map(median) as [number, number, number, number];
    const section = "stdio round trip per tools/call (long-lived server, sequential; no target in issue 2)";
    return {
      rows: [
        { section, name: "tools/call, arguments fail validation (no process) vs line echo", ratio: inv / e, subject: ms(inv), baseline: ms(e) },
        { section, name: "tools/call running `true` vs line echo", ratio: tr / e, subject: ms(tr), baseline: ms(e) },
        { section, name: "tools/call running `true` vs bare line echo that spawns `true`", ratio: tr / sp, subject: ms(tr), baseline: ms(sp) },
      ],
      notes: [`round trip: ${rounds} interleaved rounds of echo / invalid call / \`true\` call / spawning echo after warm-up.`],
    };
  } finally {
    await Promise.all([server.close(), echo.close(), spawnEcho.close()]);
  }
}
