// The official MCP clients, SDK v2 (@modelcontextprotocol/client, in each version mode) and SDK v1
// (@modelcontextprotocol/sdk), against real generated servers over stdio and Streamable HTTP: they
// list resources and resource templates, read a templated resource (repo-explorer's files, held to
// read_file's path rules; open-meteo's weather, fetched from a real upstream on 127.0.0.1) and complete
// a template parameter.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as StdioV1 } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport as HttpV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { connectHttp, connectStdio, startHttpServer, VERSION_MODES, type HttpServer } from "../helpers/client.js";
import { startUpstream, type Upstream } from "../kinds/http/upstream.js";

const REPO = resolve("out/repo-explorer/server.mjs");
const WEATHER = resolve("out/open-meteo/server.mjs");
const FILE_TEMPLATE = "repo://files/{+path}";
const FORECAST = { current: { temperature_2m: 21.1, wind_speed_10m: 5.9, weather_code: 2 } };

/** The calls both SDKs offer under the same names; results are read as plain JSON. */
interface Api {
  listResources(): Promise<{ resources: unknown[] }>;
  listResourceTemplates(): Promise<{ resourceTemplates: { uriTemplate: string; name: string; mimeType?: string }[] }>;
  readResource(p: { uri: string }): Promise<{ contents: { uri: string; mimeType?: string; text?: string }[] }>;
  complete(p: { ref: { type: "ref/resource"; uri: string }; argument: { name: string; value: string } }): Promise<{ completion: { values: string[]; hasMore?: boolean } }>;
  close(): Promise<void>;
}
type Transport = "stdio" | "http";
type Sdk = { name: string; connect(bundle: string, transport: Transport, url: string, env: Record<string, string>): Promise<Api> };

const v2 = (mode: (typeof VERSION_MODES)[number]): Sdk => ({
  name: `SDK v2 (${mode})`,
  async connect(bundle, transport, url, env) {
    const conn = transport === "stdio" ? await connectStdio(bundle, mode, [], env) : await connectHttp(url, mode);
    return conn.client as unknown as Api;
  },
});

const v1: Sdk = {
  name: "SDK v1",
  async connect(bundle, transport, url, env) {
    const client = new ClientV1({ name: "kervan-test-v1", version: "0.0.0" });
    if (transport === "stdio") await client.connect(new StdioV1({ command: process.execPath, args: [bundle], env: { ...process.env, ...env } as Record<string, string>, stderr: "pipe" }));
    else await client.connect(new HttpV1(new URL(url)));
    return client as unknown as Api;
  },
};

const SDKS: Sdk[] = [...VERSION_MODES.map(v2), v1];

let up: Upstream;
let weatherEnv: Record<string, string>;
const http = new Map<string, HttpServer>();
beforeAll(async () => {
  up = await startUpstream();
  up.route = (_req, res) => {
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify(FORECAST));
  };
  weatherEnv = { OPEN_METEO_BASE_URL: up.origin };
  http.set(REPO, await startHttpServer(REPO, ["--host", "127.0.0.1"]));
  http.set(WEATHER, await startHttpServer(WEATHER, ["--host", "127.0.0.1"], weatherEnv));
}, 60_000);
afterAll(async () => {
  for (const s of http.values()) await s.stop();
  await up.close();
});

for (const sdk of SDKS) {
  for (const transport of ["stdio", "http"] as const) {
    describe(`${sdk.name} over ${transport}`, () => {
      let repo: Api;
      let weather: Api;
      beforeAll(async () => {
        repo = await sdk.connect(REPO, transport, http.get(REPO)!.url, {});
        weather = await sdk.connect(WEATHER, transport, http.get(WEATHER)!.url, weatherEnv);
      }, 30_000);
      afterAll(async () => {
        await repo?.close();
        await weather?.close();
      });

      it("lists no static resources and the file template", async () => {
        expect((await repo.listResources()).resources).toEqual([]);
        expect((await repo.listResourceTemplates()).resourceTemplates).toEqual([expect.objectContaining({ uriTemplate: FILE_TEMPLATE, name: "file", mimeType: "text/plain" })]);
      });

      it("reads a file through the template, byte for byte", async () => {
        const uri = "repo://files/specs/repo-explorer.yaml";
        const { contents } = await repo.readResource({ uri });
        expect(contents).toEqual([{ uri, mimeType: "text/plain", text: readFileSync("specs/repo-explorer.yaml", "utf8") }]);
      });

      it("refuses .env and a path outside the tree, as read_file does", async () => {
        await expect(repo.readResource({ uri: "repo://files/.env" })).rejects.toThrow(/Resource read failed/);
        await expect(repo.readResource({ uri: "repo://files/../../etc/passwd" })).rejects.toThrow(/Resource read failed/);
      });

      it("completes the template's path from list_paths", async () => {
        const { completion } = await repo.complete({ ref: { type: "ref/resource", uri: FILE_TEMPLATE }, argument: { name: "path", value: "specs/repo-" } });
        expect(completion.values).toEqual(["specs/repo-explorer.yaml"]);
        const all = await repo.complete({ ref: { type: "ref/resource", uri: FILE_TEMPLATE }, argument: { name: "path", value: "specs/" } });
        expect(all.completion.values.length).toBeGreaterThan(1);
        for (const v of all.completion.values) expect(v.startsWith("specs/")).toBe(true);
      });

      it("reads the weather template: the tool's request upstream, its selected body back", async () => {
        up.seen.length = 0;
        const uri = "weather://current/39.92/32.85";
        expect((await weather.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate)).toEqual(["weather://current/{latitude}/{longitude}"]);
        const { contents } = await weather.readResource({ uri });
        expect(contents).toEqual([{ uri, mimeType: "application/json", text: JSON.stringify({ temperatureC: 21.1, windKmh: 5.9, weatherCode: 2 }) }]);
        expect(up.seen).toHaveLength(1);
        const target = new URL(up.seen[0].target, up.origin);
        expect(target.pathname).toBe("/v1/forecast");
        expect(target.searchParams.get("latitude")).toBe("39.92");
        expect(target.searchParams.get("longitude")).toBe("32.85");
      });
    });
  }
}
