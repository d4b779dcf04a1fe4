// The four servers npm run deploy-check deploys (the starter of `kervan init`, validator, open-meteo,
// repo-explorer), what each needs around it (a folder for its exec tools, a loopback upstream for its http
// tools) and the calls that prove a tool of each kind works through the official MCP client.
import { createServer, type Server } from "node:http";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";

export interface Call {
  tool: string;
  args: Record<string, unknown>;
  /** What the structured result must hold (a fragment of its JSON). */
  expect: string;
}

export interface CheckedServer {
  name: string;
  /** Environment variables the container gets (the http tools' base URLs), given the upstream's URL. */
  env: (upstream: string) => Record<string, string>;
  calls: Call[];
}

export const SERVERS: CheckedServer[] = [
  {
    name: "starter",
    env: (u) => ({ TIME_API_URL: u }),
    calls: [
      { tool: "count_lines", args: { path: "hello.txt" }, expect: "3 hello.txt" },
      { tool: "get_time", args: { zone: "Europe/Istanbul" }, expect: "2026-12-02T07:00:00" },
      { tool: "validate_json", args: { output: '{"a": 1}', schema: { type: "object", required: ["a"] } }, expect: '"valid":true' },
    ],
  },
  {
    name: "validator",
    env: () => ({}),
    calls: [{ tool: "validate_json", args: { output: '{"a": 1}', schema: { type: "object", required: ["a"] } }, expect: '"valid":true' }],
  },
  {
    name: "open-meteo",
    env: (u) => ({ OPEN_METEO_BASE_URL: u }),
    calls: [{ tool: "get_current_weather", args: { latitude: 41, longitude: 29 }, expect: '"temperatureC":12.5' }],
  },
  {
    name: "repo-explorer",
    env: () => ({}),
    calls: [
      { tool: "list_files", args: { path: "." }, expect: "hello.txt" },
      { tool: "read_file", args: { path: "hello.txt" }, expect: "second line" },
      { tool: "search_text", args: { pattern: "sec.nd", path: "." }, expect: "second line" },
    ],
  },
];

/** The files the exec tools see at /srv. */
export const SRV_FILES: Record<string, string> = { "hello.txt": "first line\nsecond line\nthird line\n" };

/** A loopback stand-in for the public APIs the http tools call. */
export async function startUpstream(): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    res.setHeader("content-type", "application/json");
    if (req.url?.startsWith("/api/time/current/zone")) return res.end(JSON.stringify({ dateTime: "2026-12-02T07:00:00", timeZone: "Europe/Istanbul" }));
    if (req.url?.startsWith("/v1/forecast")) return res.end(JSON.stringify({ current: { temperature_2m: 12.5, wind_speed_10m: 9, weather_code: 3 } }));
    res.statusCode = 404;
    res.end("{}");
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, server };
}

/** Connects the official MCP client (2026-07-28) with a bearer token. */
export async function connect(url: string, token: string): Promise<Client> {
  const client = new Client({ name: "kervan-deploy-check", version: "0.0.0" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  return client;
}

/** Makes each call; returns the problems (empty when every result holds what it should). */
export async function callAll(client: Client, calls: Call[], where: string): Promise<string[]> {
  const problems: string[] = [];
  for (const c of calls) {
    const result = await client.callTool({ name: c.tool, arguments: c.args }, { timeout: 60_000 });
    const text = JSON.stringify(result.structuredContent ?? result.content);
    if (result.isError || !text.includes(c.expect)) problems.push(`${where}: ${c.tool} answered ${text.slice(0, 300)}, expected ${c.expect}`);
  }
  return problems;
}

export async function waitReady(url: string, isDead: () => boolean, ms = 60_000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await fetch(url).then((r) => r.ok, () => false)) return true;
    if (isDead()) return false;
    await new Promise((r) => setTimeout(r, 200));
  }
  return false;
}
