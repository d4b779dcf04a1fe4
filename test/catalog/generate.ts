// Builds test/fixtures/catalog/shop.yaml twice with the real CLI, as flat tools and as a catalog.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { httpRequest, type RawResponse } from "../helpers/raw-http.js";

export function generateShop(exposure: "tools" | "catalog"): string {
  const dir = mkdtempSync(join(tmpdir(), `kervan-catalog-${exposure}-`));
  const spec = readFileSync("test/fixtures/catalog/shop.yaml", "utf8").replace("exposure: tools", `exposure: ${exposure}`);
  writeFileSync(join(dir, "shop.yaml"), spec);
  const gen = spawnSync(process.execPath, ["bin/kervan.mjs", "gen", join(dir, "shop.yaml"), "--out", join(dir, "out")], { encoding: "utf8" });
  if (gen.status !== 0) throw new Error(`kervan gen failed:\n${gen.stdout}${gen.stderr}`);
  return join(dir, "out/shop-fixture/server.mjs");
}

export type Era = "2026-07-28" | "2025-11-25";
const CAPS = { elicitation: {} };
let nextId = 1;

/** One JSON-RPC request over Streamable HTTP in either era, with a bearer token. */
export function post(url: string, era: Era, method: string, params: Record<string, unknown>, token: string): Promise<RawResponse> {
  const modern = era === "2026-07-28";
  const meta = { "io.modelcontextprotocol/protocolVersion": era, "io.modelcontextprotocol/clientCapabilities": CAPS };
  const body = JSON.stringify({ jsonrpc: "2.0", id: nextId++, method, params: modern ? { ...params, _meta: meta } : params });
  const headers: Record<string, string> = { "content-type": "application/json", accept: "application/json", "mcp-protocol-version": era, authorization: `Bearer ${token}` };
  if (modern) {
    headers["mcp-method"] = method;
    if (typeof params.name === "string") headers["mcp-name"] = params.name;
  }
  return httpRequest(url, { method: "POST", headers, body });
}
