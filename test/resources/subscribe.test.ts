// resources/subscribe and resources/unsubscribe on the raw wire (no SDK), from
// test/fixtures/resources/watched.yaml generated into a temp folder and run as a real process, over
// stdio and Streamable HTTP in both eras. 2025-11-25: the capability says subscribe: true, a static
// resource's uri is accepted ({}), a templated or unknown uri is -32602 with the uri in its data, and
// no notification ever follows. 2026-07-28 has no resources/subscribe: not declared, -32601.
import { spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHttpServer, type HttpServer } from "../helpers/client.js";
import { httpWire, stdioWire, type Era, type Wire } from "./wire.js";

let bundle: string;
let http: HttpServer;
beforeAll(async () => {
  const out = mkdtempSync(join(tmpdir(), "kervan-subscribe-"));
  const r = spawnSync(process.execPath, ["bin/kervan.mjs", "gen", "test/fixtures/resources/watched.yaml", "--out", out], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`kervan gen failed:\n${r.stdout}${r.stderr}`);
  bundle = join(out, "watched-shelf", "server.mjs");
  http = await startHttpServer(bundle, ["--host", "127.0.0.1"]);
}, 120_000);
afterAll(async () => {
  await http?.stop();
});

const opens: [string, (era: Era) => Wire][] = [
  ["stdio", (era) => stdioWire(bundle, era)],
  ["http", (era) => httpWire(http.url, era)],
];
const METHODS = ["resources/subscribe", "resources/unsubscribe"];

for (const [transport, open] of opens) {
  describe(`resource subscriptions over ${transport}, 2025-11-25`, () => {
    let w: Wire;
    beforeAll(() => {
      w = open("2025-11-25");
    });
    afterAll(() => w.close());

    it("declares subscribe (and no listChanged) on resources", async () => {
      expect(await w.capabilities()).toEqual({ tools: {}, resources: { subscribe: true } });
    });

    it("accepts subscribe then unsubscribe for a static resource with {}", async () => {
      for (const method of METHODS) {
        const got = await w.send(method, { uri: "docs://readme" });
        expect(got.error, method).toBeUndefined();
        expect(got.result, method).toEqual({});
      }
      // The next answer is the next request's: no notifications/resources/updated came in between.
      expect((await w.send("ping")).result).toEqual({});
    });

    it("refuses a templated uri: read through a tool, not watched", async () => {
      for (const method of METHODS) {
        const got = await w.send(method, { uri: "items://42" });
        expect(got.result, method).toBeUndefined();
        expect(got.error, method).toEqual({ code: -32602, message: expect.stringContaining("read through a tool and is not watched"), data: { uri: "items://42" } });
      }
    });

    it("refuses an unknown uri and a uri that is not a string", async () => {
      for (const method of METHODS) {
        expect((await w.send(method, { uri: "docs://nowhere" })).error, method).toEqual({ code: -32602, message: "Resource not found", data: { uri: "docs://nowhere" } });
        expect((await w.send(method, { uri: 7 })).error, method).toMatchObject({ code: -32602, message: "Invalid params: uri must be a string" });
      }
      // The server keeps serving.
      expect((await w.send("resources/read", { uri: "docs://readme" })).result!.contents).toEqual([{ uri: "docs://readme", mimeType: "text/plain", text: "A fixed sentence." }]);
    });
  });

  describe(`resource subscriptions over ${transport}, 2026-07-28`, () => {
    let w: Wire;
    beforeAll(() => {
      w = open("2026-07-28");
    });
    afterAll(() => w.close());

    it("declares resources without subscribe, and answers both methods -32601 for any uri", async () => {
      expect(await w.capabilities()).toEqual({ tools: {}, resources: {} });
      for (const method of METHODS) {
        for (const uri of ["docs://readme", "items://42", "docs://nowhere"]) {
          const got = await w.send(method, { uri });
          expect(got.result, `${method} ${uri}`).toBeUndefined();
          expect(got.error, `${method} ${uri}`).toMatchObject({ code: -32601 });
        }
      }
    });
  });
}
