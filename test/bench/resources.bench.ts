// Resources and completion: a `resources/read` of a static inline resource and a `completion/complete`
// of a prompt argument from a fixed list, each against a cheap `tools/call` (validate_json of `1`
// against {type: integer}) on the same generated server over stdio, interleaved in the same run.
import { spawn, spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { LineReader, NODE, REPO, answer, exited, interleave, median, ms, request, tempDir, type BenchRow } from "./util.js";

const ROUNDS = 1000;
const WARMUP = 100;

const SPEC = `server: { name: bench-resources, version: 0.1.0 }
tools:
  - { name: check_json, description: Check that a JSON value is valid against a schema. Use it before sending data on., validate_json: {} }
resources:
  - { uri: "config://defaults", name: defaults, mimeType: application/json, text: '{"retries": 3}' }
prompts:
  - name: summarize
    description: Ask for a summary in a style.
    arguments:
      - { name: style, description: The summary's style., required: true, complete: [brief, bullet points, thorough] }
    messages:
      - { role: user, text: "Summarize ({style})." }
`;

function build(): string {
  const dir = tempDir("resources");
  writeFileSync(join(dir, "bench-resources.yaml"), SPEC);
  const r = spawnSync(NODE, ["bin/kervan.mjs", "gen", join(dir, "bench-resources.yaml"), "--out", join(dir, "out")], { cwd: REPO, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`kervan gen failed:\n${r.stdout}${r.stderr}`);
  return join(dir, "out", "bench-resources", "server.mjs");
}

export async function benchResources(): Promise<BenchRow[]> {
  const child = spawn(NODE, [build()], { stdio: ["pipe", "pipe", "ignore"], cwd: REPO });
  const reader = new LineReader(child, "bench-resources");
  let id = 0;
  const send = async (method: string, params: Record<string, unknown>, check: (r: Record<string, unknown>) => boolean): Promise<void> => {
    const n = ++id;
    child.stdin!.write(request(n, method, params));
    const line = await reader.next();
    if (!check(answer(line, n))) throw new Error(`${method}: unexpected answer ${line.slice(0, 200)}`);
  };
  const read = () => send("resources/read", { uri: "config://defaults" }, (r) => (r.contents as { text?: string }[])?.[0]?.text === '{"retries": 3}');
  const complete = () => send("completion/complete", { ref: { type: "ref/prompt", name: "summarize" }, argument: { name: "style", value: "b" } }, (r) => (r.completion as { values?: string[] })?.values?.length === 2);
  const call = () => send("tools/call", { name: "check_json", arguments: { output: "1", schema: { type: "integer" } } }, (r) => (r.structuredContent as { valid?: unknown })?.valid === true);
  try {
    const [reads, completes, calls] = (await interleave([read, complete, call], ROUNDS, WARMUP)).map(median);
    return [
      { name: "resources/read of a static resource vs a cheap tools/call", ratio: reads! / calls!, detail: `median ${ms(reads!)} vs ${ms(calls!)} (stdio, one generated server; inline text resource against validate_json of 1 as an integer)` },
      { name: "completion/complete (fixed list) vs a cheap tools/call", ratio: completes! / calls!, detail: `median ${ms(completes!)} vs ${ms(calls!)} (stdio, same server; a prompt argument's fixed list filtered by prefix)` },
    ];
  } finally {
    child.stdin!.end();
    const kill = setTimeout(() => child.kill("SIGKILL"), 5000);
    await exited(child);
    clearTimeout(kill);
  }
}
