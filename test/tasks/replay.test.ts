// A sealed requestState against generated servers sharing one KERVAN_STATE_KEY: it is refused by another
// server (bound to the server's name), after a restart of a server whose used-state record lives in its
// process (memory store: bound to that process), and after a restart with the file store (the record is
// on disk). Each refusal is a -32602 and nothing runs.
import { randomBytes } from "node:crypto";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startHttpServer, type HttpServer } from "../helpers/client.js";
import { generateJobs, rpc } from "../helpers/rpc.js";

const dir = mkdtempSync(join(tmpdir(), "kervan-replay-"));
const env = { KERVAN_STATE_KEY: randomBytes(32).toString("hex") };
const running: HttpServer[] = [];
const start = async (bundle: string, extra: Record<string, string> = {}) => {
  const server = await startHttpServer(bundle, ["--host", "127.0.0.1"], { ...env, ...extra });
  running.push(server);
  return server;
};
afterAll(async () => {
  for (const s of running) await s.stop();
});

/** The jobs spec under another server name: same tools, same key. */
function generateTwin(): string {
  const spec = readFileSync("test/fixtures/tasks/jobs.yaml", "utf8").replace("name: jobs", "name: jobs-twin");
  writeFileSync(join(dir, "twin.yaml"), spec);
  const gen = spawnSync(process.execPath, ["bin/kervan.mjs", "gen", join(dir, "twin.yaml"), "--out", join(dir, "out")], { encoding: "utf8" });
  if (gen.status !== 0) throw new Error(`kervan gen failed:\n${gen.stdout}${gen.stderr}`);
  return join(dir, "out/jobs-twin/server.mjs");
}

const PLAIN = { elicitation: {} };

/** A confirmation round of truncate_file on `file`: the state and the answers that confirm it. */
async function confirmRound(url: string, file: string) {
  const first = await rpc(url, "tools/call", { name: "truncate_file", arguments: { path: file } }, { caps: PLAIN });
  expect(first.result).toMatchObject({ resultType: "input_required" });
  const key = Object.keys(first.result!.inputRequests as object)[0];
  return { requestState: first.result!.requestState, inputResponses: { [key]: { action: "accept", content: { confirm: true } } } };
}
const retry = (url: string, file: string, round: Record<string, unknown>) => rpc(url, "tools/call", { name: "truncate_file", arguments: { path: file }, ...round }, { caps: PLAIN });

describe("requestState replay", () => {
  it("is refused by another server sharing KERVAN_STATE_KEY", async () => {
    const jobs = await start(generateJobs("memory"));
    const twin = await start(generateTwin());
    const file = join(dir, "twin.log");
    writeFileSync(file, "kept");
    const round = await confirmRound(jobs.url, file);
    const answer = await retry(twin.url, file, round);
    expect(answer.error?.code).toBe(-32602);
    expect(answer.error?.message).toContain("another server");
    expect(readFileSync(file, "utf8")).toBe("kept");
  });

  it.each(["memory", "file"] as const)("is refused after a restart (%s store)", async (store) => {
    const bundle = generateJobs(store);
    const extra: Record<string, string> = store === "file" ? { KERVAN_TASKS_DIR: mkdtempSync(join(dir, "store-")) } : {};
    let server = await start(bundle, extra);
    const file = join(dir, `${store}.log`);
    writeFileSync(file, "first");
    const round = await confirmRound(server.url, file);
    expect((await retry(server.url, file, round)).result).toMatchObject({ resultType: "complete" });
    expect(readFileSync(file, "utf8")).toBe("");
    await server.stop();
    server = await start(bundle, extra);
    writeFileSync(file, "second");
    const replay = await retry(server.url, file, round);
    expect(replay.error?.code).toBe(-32602);
    expect(readFileSync(file, "utf8")).toBe("second");
  });
});
