// An imported OpenAPI document, built by the generator and called through the generated server with
// the official MCP client, against a real upstream on 127.0.0.1 that records what it received: every
// parameter place (path, query arrays in both styles, header, cookie, JSON body), a name shared by a
// query and a header parameter, a readOnly property, a $ref cycle and a discriminated union.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generate } from "../../generator/pipeline.js";
import { startUpstream, type Upstream } from "../kinds/http/upstream.js";
import { connectStdio, type Connected } from "../helpers/client.js";
import { FIXTURES } from "./cases.js";
import { kervan } from "./run-import.js";

const SECRET = "k3y-for-the-wire-test";
let up: Upstream;
let conn: Connected;

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), "kervan-import-wire-"));
  const spec = join(dir, "shop.yaml");
  const r = kervan(["import", join(FIXTURES, "wire", "shop.yaml"), "--out", spec]);
  if (r.code !== 0) throw new Error(r.stderr);
  const gen = await generate([{ path: spec, text: readFileSync(spec, "utf8") }], { outRoot: join(dir, "out"), check: false, pruneServers: false });
  if (!gen.report) throw new Error(JSON.stringify(gen.diagnostics));
  up = await startUpstream();
  up.route = (req, res) => {
    res.setHeader("content-type", "application/json");
    res.end(req.method === "GET" ? JSON.stringify([{ id: 1, note: "first" }, { id: 2, note: "second", parent: { id: 1, note: "first" } }]) : JSON.stringify({ id: 42, note: "stored", payment: { method: "card", last4: "4242" } }));
  };
  conn = await connectStdio(join(dir, "out", "shop", "server.mjs"), "2026-07-28", [], { SHOP_BASE_URL: `${up.origin}/api`, SHOP_API_KEY: SECRET });
}, 180_000);

afterAll(async () => {
  await conn?.close();
  await up?.close();
});

const order = {
  store: "main st/1",
  id: 42,
  tag: ["red", "big"],
  fields: ["note", "items"],
  query_version: 3,
  header_version: "v2",
  "X-Request-Id": "req-1",
  session: "s3ss10n",
  note: "leave at the door",
  items: [{ sku: "A-1", quantity: 2 }],
  parent: { note: "the first order", payment: { method: "transfer", iban: "DE00" }, parent: { note: "older", payment: { method: "card", last4: "1111" } } },
  payment: { method: "card", last4: "4242" },
};

describe("an imported document on the wire", () => {
  it("lists both tools with their inputs, the union's branches and the cycle intact", async () => {
    const { tools } = await conn.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(["list_orders", "replace_order"]);
    const replace = tools.find((t) => t.name === "replace_order")!;
    const props = replace.inputSchema.properties as Record<string, any>;
    expect(Object.keys(props).sort()).toEqual(["X-Request-Id", "fields", "header_version", "id", "items", "note", "parent", "payment", "query_version", "session", "store", "tag"]);
    // A branch the import hoisted into the schema's $defs is read where its $ref points.
    const defs = (replace.inputSchema.$defs ?? {}) as Record<string, any>;
    const at = (s: any) => (typeof s.$ref === "string" ? defs[s.$ref.slice("#/$defs/".length)] : s);
    expect(props.payment.oneOf.map((b: any) => at(b).properties.method.const)).toEqual(["card", "transfer"]);
    expect(props.parent.properties.parent).toEqual({ $ref: "#/$defs/Order" });
    expect(replace.annotations).toMatchObject({ readOnlyHint: false, idempotentHint: true, destructiveHint: false });
  });

  it("sends every parameter to its place, exactly as the operation declares", async () => {
    up.seen.length = 0;
    const r = await conn.client.callTool({ name: "replace_order", arguments: order });
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent).toEqual({ id: 42, note: "stored", payment: { method: "card", last4: "4242" } });
    expect(up.seen).toHaveLength(1);
    const seen = up.seen[0]!;
    expect(seen.method).toBe("PUT");
    const url = new URL(seen.target, "http://x");
    // path: the slash inside a value is encoded, never a new segment
    expect(url.pathname).toBe("/api/stores/main%20st%2F1/orders/42");
    // query: explode (repeat) and explode: false (comma) arrays, and the query half of the shared name
    expect(url.searchParams.getAll("tag")).toEqual(["red", "big"]);
    expect(url.search).toContain("fields=note,items");
    expect(url.searchParams.get("version")).toBe("3");
    // headers: the header half of the shared name, a plain header, the cookie and the secret
    expect(seen.headers["version"]).toBe("v2");
    expect(seen.headers["x-request-id"]).toBe("req-1");
    expect(seen.headers["cookie"]).toBe("session=s3ss10n");
    expect(seen.headers["x-api-key"]).toBe(SECRET);
    expect(seen.headers["content-type"]).toMatch(/^application\/json/);
    // body: flattened properties back under their own names, the cycle nested, the union branch kept, no readOnly id
    expect(JSON.parse(seen.body.toString("utf8"))).toEqual({
      note: "leave at the door",
      items: [{ sku: "A-1", quantity: 2 }],
      parent: order.parent,
      payment: { method: "card", last4: "4242" },
    });
  });

  it("leaves out absent optional parameters entirely", async () => {
    up.seen.length = 0;
    const { tag, fields, query_version, header_version, items, parent, ...required } = order;
    void [tag, fields, query_version, header_version, items, parent];
    const r = await conn.client.callTool({ name: "replace_order", arguments: required });
    expect(r.isError).toBeFalsy();
    const seen = up.seen[0]!;
    expect(new URL(seen.target, "http://x").search).toBe("");
    expect(seen.headers["version"]).toBeUndefined();
    expect(JSON.parse(seen.body.toString("utf8"))).toEqual({ note: "leave at the door", payment: { method: "card", last4: "4242" } });
  });

  it("refuses before any request: a union branch its discriminator does not name, a cookie value that would add a cookie, an unknown input", async () => {
    up.seen.length = 0;
    const bad = [
      { ...order, payment: { method: "card", iban: "DE00" } },
      { ...order, payment: { method: "cash", last4: "4242" } },
      { ...order, session: "a; admin=1" },
      { ...order, created: "2026-01-01" },
    ];
    for (const args of bad) {
      const r = await conn.client.callTool({ name: "replace_order", arguments: args });
      expect(r.isError).toBe(true);
    }
    expect(up.seen).toHaveLength(0);
  });

  it("wraps an array answer so structured content stays an object", async () => {
    up.seen.length = 0;
    const r = await conn.client.callTool({ name: "list_orders", arguments: { store: "main" } });
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent).toEqual({ items: [{ id: 1, note: "first" }, { id: 2, note: "second", parent: { id: 1, note: "first" } }] });
    expect(up.seen[0]!.target).toBe("/api/stores/main/orders");
    expect(up.seen[0]!.method).toBe("GET");
  });
});
