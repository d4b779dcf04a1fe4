// JSON-RPC frames over stdio against a real generated server (out/validator): every request with an
// id gets exactly one well-formed answer, nothing else on stdout is malformed, no internal errors,
// and the server keeps answering (a sentinel request after each frame).
import { frameArb } from "../frames.js";
import type { FuzzProperty } from "../property.js";
import { startStdio, type StdioServer } from "../servers.js";
import { checkStdioFrame } from "../stdio-check.js";

export const property: FuzzProperty<string, StdioServer> = {
  name: "JSON-RPC frames over stdio (out/validator)",
  seed: 8_2026_07,
  numRuns: 300,
  testMs: 3000,
  arbitrary: frameArb,
  setup: async () => startStdio(),
  check: (server, frame) => checkStdioFrame(server, frame),
  teardown: (server) => server.stop(),
  pids: (server) => (server.proc.pid ? [server.proc.pid] : []),
};
