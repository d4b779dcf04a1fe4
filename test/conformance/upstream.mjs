// The fixture upstream behind the conformance server's http tools (test/fixtures/conformance):
// a plain HTTP server on 127.0.0.1 with one route per tool, answering the way a real API would.
import { createServer } from "node:http";

// A 1x1 red PNG and a silent WAV, the minimal media the scenarios ask for.
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64");
const WAV = Buffer.from("UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YQAAAAA=", "base64");

const routes = {
  "GET /text": () => [200, "text/plain; charset=utf-8", "This is a simple text response for testing."],
  "GET /pixel.png": () => [200, "image/png", PNG],
  "GET /silence.wav": () => [200, "audio/wav", WAV],
  "GET /embedded.txt": () => [200, "text/plain; charset=utf-8", "This is an embedded resource content."],
  "GET /broken": () => [500, "text/plain", "This tool intentionally returns an error for testing"],
  "POST /contacts": (_url, body) => [200, "application/json", `{"stored":${body || "null"}}`],
  "POST /answers": (_url, body) => [200, "text/plain; charset=utf-8", `Elicitation completed: action=accept, content=${body}`],
  // A job API that breaks its own contract: `state` should be a string (protocol_error_job's output schema).
  "GET /greet": (url) => [200, "text/plain; charset=utf-8", `Hello, ${url.searchParams.get("name")}!`],
  "GET /job-status": () => [200, "application/json", '{"state": 42}'],
  "GET /regions": (url) => [200, "text/plain; charset=utf-8", `region ${url.searchParams.get("name")}: available`],
};

/** Starts on a free port; resolves to its origin and a close function. */
export async function startUpstream() {
  const server = createServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://127.0.0.1");
      const route = routes[`${req.method} ${url.pathname}`];
      const [status, type, body] = route ? route(url, Buffer.concat(chunks).toString("utf8")) : [404, "text/plain", "no such route"];
      res.writeHead(status, { "content-type": type }).end(body);
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}
