// The checked-in example servers, started as real processes and driven by the official MCP client
// in each protocol mode, over stdio and Streamable HTTP.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolve } from "node:path";
import { connectHttp, connectStdio, startHttpServer, VERSION_MODES, type Connected, type HttpServer } from "../helpers/client.js";

const BUNDLE = resolve("out/repo-explorer/server.mjs");
type Text = { type: string; text: string };

for (const transport of ["stdio", "http"] as const) {
  for (const mode of VERSION_MODES) {
    describe(`repo-explorer over ${transport}, client ${mode}`, () => {
      let conn: Connected;
      let http: HttpServer | undefined;
      beforeAll(async () => {
        if (transport === "stdio") conn = await connectStdio(BUNDLE, mode);
        else {
          http = await startHttpServer(BUNDLE);
          conn = await connectHttp(http.url, mode);
        }
      });
      afterAll(async () => {
        await conn?.close();
        await http?.stop();
      });

      it("lists the spec's tools, sorted, with schemas and annotations", async () => {
        const { tools } = await conn.client.listTools();
        expect(tools.map((t) => t.name)).toEqual(["list_files", "list_paths", "read_file", "search_text"]);
        const read = tools.find((t) => t.name === "read_file")!;
        expect(read.inputSchema).toMatchObject({ type: "object", required: ["path"], additionalProperties: false });
        expect(read.outputSchema).toMatchObject({ type: "object", required: expect.arrayContaining(["exitCode", "stdout"]) });
        expect(read.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
      });

      it("calls a tool: the command's output as structuredContent and a readable summary", async () => {
        const res = await conn.client.callTool({ name: "read_file", arguments: { path: "specs/repo-explorer.yaml" } });
        expect(res.isError).toBeFalsy();
        const sc = res.structuredContent as { exitCode: number; stdout: string; timedOut: boolean };
        expect(sc.exitCode).toBe(0);
        expect(sc.timedOut).toBe(false);
        expect(sc.stdout).toContain("name: repo-explorer");
        expect((res.content as Text[])[0].text).toContain("name: repo-explorer");
      });

      it("search_text's optional ignore_case adds --ignore-case only when true", async () => {
        const search = (extra: Record<string, unknown>) => conn.client.callTool({ name: "search_text", arguments: { pattern: "NAME: REPO-EXPLORER", path: "specs/repo-explorer.yaml", ...extra } });
        for (const extra of [{}, { ignore_case: false }]) {
          const res = await search(extra);
          expect(res.isError).toBeFalsy();
          expect(res.structuredContent).toMatchObject({ exitCode: 1, stdout: "" });
        }
        const res = await search({ ignore_case: true });
        expect(res.isError).toBeFalsy();
        expect((res.structuredContent as { exitCode: number; stdout: string }).stdout).toMatch(/^\d+:\s*name: repo-explorer$/m);
      });

      it("answers invalid arguments with a readable tool error naming the field", async () => {
        const res = await conn.client.callTool({ name: "read_file", arguments: { path: 42 } });
        expect(res.isError).toBe(true);
        const text = (res.content as Text[])[0].text;
        expect(text).toMatch(/\/path/);
        expect(text).toMatch(/string/);
        expect(text).toContain("42");
      });

      it("refuses an undeclared argument before anything runs", async () => {
        const res = await conn.client.callTool({ name: "read_file", arguments: { path: "package.json", extra: "x" } });
        expect(res.isError).toBe(true);
        expect((res.content as Text[])[0].text).toContain("extra");
      });

      it("refuses a path outside the allowed root and a denied path", async () => {
        const out = await conn.client.callTool({ name: "read_file", arguments: { path: "../../etc/passwd" } });
        expect(out.isError).toBe(true);
        expect((out.content as Text[])[0].text).toMatch(/outside the allowed roots/);
        const denied = await conn.client.callTool({ name: "list_files", arguments: { path: ".git" } });
        expect(denied.isError).toBe(true);
        expect((denied.content as Text[])[0].text).toMatch(/path/);
      });

      it("rejects an unknown tool with a protocol error", async () => {
        await expect(conn.client.callTool({ name: "rm_rf", arguments: {} })).rejects.toMatchObject({ code: -32602 });
      });

      it("reports a failing command as a tool error with its exit status and stderr", async () => {
        const res = await conn.client.callTool({ name: "read_file", arguments: { path: "no-such-file.txt" } });
        expect(res.isError).toBe(true);
        const sc = res.structuredContent as { exitCode: number; stderr: string };
        expect(sc.exitCode).not.toBe(0);
        expect(sc.stderr).toContain("no-such-file.txt");
      });
    });
  }
}
