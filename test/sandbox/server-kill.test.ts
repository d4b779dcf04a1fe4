// What the README says of a server killed outright (SIGKILL, no exit handler runs): a command run
// with `sandbox: none` keeps running, since Node cannot give its children PR_SET_PDEATHSIG; one
// run under the sandbox dies with the server (bwrap --die-with-parent, the call's PID namespace).
import { afterAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { bundleEntry } from "../helpers/bundle.js";
import { readFileSync } from "node:fs";
import { markerPids, requireBubblewrap, waitFor } from "./host.js";
import { makeTree } from "./tree.js";

const left: number[] = [];

/** The sleep processes themselves (bwrap's own argv holds the marker too, before its child runs). */
const sleeping = (marker: string) =>
  markerPids(marker).filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0")[0] === "sleep";
    } catch {
      return false;
    }
  });
afterAll(() => {
  for (const pid of left) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // gone
    }
  }
});

describe("a SIGKILL of the server", () => {
  it("leaves a `sandbox: none` command running (documented); a sandboxed one dies with the server", async () => {
    requireBubblewrap();
    const tree = makeTree();
    const bundle = await bundleEntry(new URL("./escape-server.ts", import.meta.url).pathname);
    const transport = new StdioClientTransport({ command: process.execPath, args: [bundle], cwd: tree.project, stderr: "pipe", env: { PATH: "/usr/local/bin:/usr/bin:/bin", HOME: tree.home, ESCAPE_ROOT: tree.root } });
    const client = new Client({ name: "server-kill", version: "0.0.0" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
    await client.connect(transport);
    for (const name of ["sleep_unsandboxed", "sleep_sandboxed"]) client.callTool({ name, arguments: {} }, { timeout: 120_000 }).catch(() => undefined);
    // Killed once both commands run: bwrap sets its parent-death signal while it sets up, so a kill before that is not covered.
    expect(await waitFor(() => sleeping("69.09").length > 0 && sleeping("70.10").length > 0, 15_000)).toBe(true);
    process.kill(transport.pid!, "SIGKILL");
    expect(await waitFor(() => markerPids("70.10").length === 0, 10_000)).toBe(true);
    const survivors = sleeping("69.09");
    left.push(...survivors);
    expect(survivors.length).toBe(1);
    await client.close().catch(() => undefined);
  }, 60_000);
});
