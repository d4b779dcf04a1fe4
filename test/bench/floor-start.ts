// Issue 26's start-up and stdio rows: cold start of a generated server against the physical floor (a
// bare one-line .mjs that answers one line, and `node -e 0`) in a clean environment (`env -i PATH=...`)
// and in the machine's; sequential and pipelined stdio tools/call against a line echo.
import { spawn, type ChildProcess } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { LineReader, NODE, REPO, answer, exited, interleave, median, ms, request, tempDir, type Row } from "./util.js";

const CLEAN: NodeJS.ProcessEnv = { PATH: process.env.PATH ?? "/usr/bin:/bin" };
const MACHINE = process.env;

/** The least an ESM server can be: one line, answering the first line it reads. */
const ONE_LINE = `process.stdin.once("data",()=>process.stdout.write('{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}\\n'));\n`;

function spawnError(child: ChildProcess): Promise<never> {
  return new Promise((_, reject) => child.once("error", reject));
}

async function finish(child: ChildProcess): Promise<void> {
  child.stdin!.end();
  const kill = setTimeout(() => child.kill("SIGKILL"), 5000);
  await exited(child);
  clearTimeout(kill);
}

/** spawn -> first answer line to a tools/list written at once; `tools` is the count the answer must list. */
async function firstAnswer(args: string[], env: NodeJS.ProcessEnv, tools: number, label: string): Promise<number> {
  const t = performance.now();
  const child = spawn(NODE, args, { stdio: ["pipe", "pipe", "ignore"], cwd: REPO, env });
  const reader = new LineReader(child, label);
  child.stdin!.write(request(1, "tools/list"));
  const line = await Promise.race([spawnError(child), reader.next()]);
  const elapsed = performance.now() - t;
  const listed = (answer(line, 1).tools as unknown[] | undefined)?.length;
  if (listed !== tools) throw new Error(`${label}: tools/list listed ${listed} tools, expected ${tools}`);
  await finish(child);
  return elapsed;
}

function nodeE0(env: NodeJS.ProcessEnv): Promise<number> {
  const t = performance.now();
  const child = spawn(NODE, ["-e", "0"], { stdio: ["pipe", "pipe", "ignore"], env });
  return Promise.race([spawnError(child), exited(child).then(() => performance.now() - t)]);
}

export interface Servers {
  bench10: string;
  validator: string;
}

const SECTION = "Issue 26: cold start (spawn -> tools/list answer) vs the floor";

export async function benchFloorStart(s: Servers, rounds = 30): Promise<Row[]> {
  const bare = join(tempDir("one-line"), "bare.mjs");
  writeFileSync(bare, ONE_LINE);
  const subjects = [
    () => nodeE0(CLEAN),
    () => firstAnswer([bare], CLEAN, 0, "bare .mjs"),
    () => firstAnswer([s.bench10], CLEAN, 10, "bench10"),
    () => firstAnswer([s.validator], CLEAN, 1, "validator"),
    () => nodeE0(MACHINE),
    () => firstAnswer([bare], MACHINE, 0, "bare .mjs"),
    () => firstAnswer([s.bench10], MACHINE, 10, "bench10"),
  ];
  const [e0, mjs, k10, val, me0, mmjs, mk10] = (await interleave(subjects, rounds, 3)).map(median) as number[];
  const row = (name: string, a: number, b: number, target?: number): Row => ({
    section: SECTION,
    name,
    ratio: a / b,
    subject: ms(a),
    baseline: ms(b),
    ...(target ? { target: { op: "≤", value: target, note: "issue 26" } } : {}),
  });
  return [
    row("cold start, clean env (env -i PATH): Kervan 10-tool server vs a bare one-line .mjs", k10!, mjs!, 1.1),
    row("cold start, clean env: Kervan 10-tool server vs node -e 0", k10!, e0!),
    row("cold start, clean env: bare one-line .mjs vs node -e 0 (the floor)", mjs!, e0!),
    row("cold start, clean env: validator server vs a bare one-line .mjs", val!, mjs!),
    row("cold start, machine env: Kervan 10-tool server vs node -e 0", mk10!, me0!, 1.2),
    row("cold start, machine env: bare one-line .mjs vs node -e 0 (the floor)", mmjs!, me0!),
  ];
}

/** The least a line server can do: split on newlines, write each line back. */
const ECHO = `let b="";process.stdin.setEncoding("utf8");process.stdin.on("data",(c)=>{b+=c;let i;while((i=b.indexOf("\\n"))>=0){process.stdout.write(b.slice(0,i+1));b=b.slice(i+1);}});`;

class Session {
  readonly child: ChildProcess;
  readonly reader: LineReader;
  constructor(args: string[], label: string) {
    this.child = spawn(NODE, args, { stdio: ["pipe", "pipe", "ignore"], cwd: REPO, env: CLEAN });
    this.reader = new LineReader(this.child, label);
  }
  send(line: string): Promise<string> {
    this.child.stdin!.write(line);
    return this.reader.next();
  }
}

const CHEAP = { output: "1", schema: { type: "integer" } };
const PIPELINED = 5000;

/** Sequential and pipelined validate_json calls (valid, no pattern) on the validator server vs a line echo of the same bytes. */
export async function benchFloorStdio(validator: string, rounds = 400): Promise<Row[]> {
  const server = new Session([validator], "validator");
  const echo = new Session(["-e", ECHO], "line echo");
  let id = 0;
  const call = () => request(++id, "tools/call", { name: "validate_json", arguments: CHEAP });
  const check = (line: string, want: number) => {
    const r = answer(line, want);
    if ((r.structuredContent as { valid?: unknown } | undefined)?.valid !== true) throw new Error(`validate_json did not answer valid: ${line.slice(0, 200)}`);
  };
  try {
    const viaServer = async () => check(await server.send(call()), id);
    const viaEcho = async () => {
      const line = call();
      if ((await echo.send(line)) !== line.slice(0, -1)) throw new Error("line echo answered something else");
    };
    const [sq, eq] = (await interleave([viaServer, viaEcho], rounds, 100)).map(median) as [number, number];
    const burst = (s: Session, verify: boolean) => async () => {
      const first = id + 1;
      let text = "";
      for (let i = 0; i < PIPELINED; i++) text += call();
      const t = performance.now();
      s.child.stdin!.write(text);
      let last = "";
      for (let i = 0; i < PIPELINED; i++) last = await s.reader.next();
      const elapsed = performance.now() - t;
      if (verify) check(last, first + PIPELINED - 1);
      return elapsed;
    };
    const [bs, be] = (await interleave([burst(server, true), burst(echo, false)], 5, 1)).map(median) as [number, number];
    const rate = (t: number) => `${Math.round((PIPELINED * 1000) / t).toLocaleString("en-US")}/s`;
    const section = "Issue 26: stdio tools/call (validate_json, valid) vs a line echo of the same bytes";
    return [
      { section, name: "stdio sequential tools/call vs a line echo", ratio: sq / eq, target: { op: "≤", value: 1.4, note: "issue 26" }, subject: ms(sq), baseline: ms(eq) },
      { section, name: `stdio ${PIPELINED.toLocaleString("en-US")} pipelined tools/call, rate vs a line echo`, ratio: be / bs, throughput: true, target: { op: "≥", value: 0.6, note: "issue 26" }, subject: rate(bs), baseline: rate(be) },
    ];
  } finally {
    await Promise.all([finish(server.child), finish(echo.child)]);
  }
}
