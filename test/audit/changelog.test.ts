// The changelog between two versions of a server: a fixture pair against its golden text, one
// test per breaking-change kind, and the CLI's exit codes (0 none, 1 breaking, 2 usage).
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { expectGolden } from "../helpers/golden.js";
import { spawnSync } from "node:child_process";
import { changelog } from "../../generator/audit/changelog.js";
import { renderChangelog } from "../../generator/audit/changelog-render.js";
import { capabilitiesOf } from "../../generator/audit/capabilities.js";
import type { Manifest, ManifestTool } from "../../generator/audit/types.js";

const DIR = "test/fixtures/changelog";
const read = (name: string): Manifest => JSON.parse(readFileSync(`${DIR}/${name}`, "utf8"));
const kervan = (...args: string[]) => spawnSync(process.execPath, ["bin/kervan.mjs", ...args], { encoding: "utf8" });

/** The old fixture with one tool changed by `edit`; capabilities recomputed like the generator does. */
function variant(edit: (tools: ManifestTool[]) => void): [Manifest, Manifest] {
  const a = read("old.json");
  const b = structuredClone(a);
  edit(b.tools);
  b.capabilities = capabilitiesOf(b.tools);
  return [a, b];
}
const tool = (tools: ManifestTool[], name: string) => tools.find((t) => t.name === name)!;
const effects = (tools: ManifestTool[], name: string) => tool(tools, name).effects!;
const prop = (tools: ManifestTool[], name: string, p: string) => (tool(tools, name).inputSchema!.properties as Record<string, Record<string, unknown>>)[p];
const breaking = (a: Manifest, b: Manifest) => changelog(a, b).changes.filter((c) => c.breaking);

describe("changelog", () => {
  it("matches the golden output for the fixture pair", () => {
    const text = renderChangelog(changelog(read("old.json"), read("new.json")));
    expectGolden(`${DIR}/expected.txt`, text);
  });

  it("reads an older manifest's facts as effects (before tools recorded effects)", () => {
    const legacy = (m: Manifest): Manifest => {
      const facts = (t: ManifestTool) => ({ ...t.facts, shell: t.effects!.shell, ...(t.effects!.pathRoots.length ? { paths: { fields: ["path"], allow: t.effects!.pathRoots, deny: t.effects!.pathDenied } } : {}) });
      return { ...m, capabilities: undefined, tools: m.tools.map(({ effects: _e, ...t }) => ({ ...t, facts: facts({ ...t, effects: _e }) })) };
    };
    const [a, b] = variant((t) => void (effects(t, "export_notes").shell = true));
    b.tools.find((t) => t.name === "export_notes")!.facts!.shell = true;
    const found = changelog(legacy(a), legacy(b)).changes.filter((c) => c.breaking);
    expect(found.map((c) => c.breaking)).toContain("widened capability: now runs a shell");
  });

  it("flags a widened sandbox as breaking: off, a new visible or writable root; a narrower one is not", () => {
    const a = read("old.json");
    tool(a.tools, "export_notes").effects!.confined = { by: "bubblewrap", visible: ["."], writable: [] };
    const widen = (edit: (e: NonNullable<ManifestTool["effects"]>) => void) => {
      const b = structuredClone(a);
      edit(effects(b.tools, "export_notes"));
      b.capabilities = capabilitiesOf(b.tools);
      return breaking(a, b).map((c) => c.breaking);
    };
    expect(widen((e) => delete e.confined)).toContain("widened capability: the bubblewrap sandbox is off");
    expect(widen((e) => (e.confined!.visible = [".", "../shared"]))).toContain("widened capability: new visible sandbox root ../shared");
    expect(widen((e) => (e.confined!.writable = ["out"]))).toContain("widened capability: new writable sandbox root out");
    expect(widen((e) => (e.confined!.visible = ["src"]))).toEqual([]);
  });

  it("flags a run-later path left writable in a writable root as breaking; none without a writable root, or when narrowed", () => {
    const a = read("old.json");
    tool(a.tools, "export_notes").effects!.confined = { by: "bubblewrap", visible: ["."], writable: ["."] };
    const change = (edit: (c: NonNullable<NonNullable<ManifestTool["effects"]>["confined"]>) => void, from = a) => {
      const b = structuredClone(from);
      edit(effects(b.tools, "export_notes").confined!);
      return breaking(from, b).map((c) => c.breaking);
    };
    expect(change((c) => (c.runLaterWritable = [".git/hooks"]))).toEqual(["widened capability: run-later path .git/hooks now writable"]);
    const open = structuredClone(a);
    effects(open.tools, "export_notes").confined!.runLaterWritable = [".git/hooks"];
    expect(change((c) => delete c.runLaterWritable, open)).toEqual([]);
    const readOnly = structuredClone(a);
    effects(readOnly.tools, "export_notes").confined!.writable = [];
    expect(change((c) => (c.runLaterWritable = [".vscode"]), readOnly)).toEqual([]);
  });

  it("flags new network or filesystem reach as breaking", () => {
    const a = read("old.json");
    Object.assign(tool(a.tools, "export_notes").effects!, { network: false, filesystem: false });
    for (const [key, why] of [["network", /now reaches the network/], ["filesystem", /now reaches the filesystem/]] as const) {
      const b = structuredClone(a);
      tool(b.tools, "export_notes").effects![key] = true;
      expect(breaking(a, b).map((c) => c.breaking).join("\n")).toMatch(why);
    }
  });

  it("reports no change between a manifest and itself", () => {
    const log = changelog(read("old.json"), read("old.json"));
    expect(log.changes).toEqual([]);
    expect(renderChangelog(log)).toContain("No changes.");
  });

  const cases: [string, (t: ManifestTool[]) => void, RegExp][] = [
    ["a tool removed", (t) => t.splice(t.indexOf(tool(t, "delete_note")), 1), /tool removed/],
    ["a new required input", (t) => {
      const s = tool(t, "search_notes").inputSchema!;
      (s.properties as Record<string, unknown>).workspace = { type: "string" };
      s.required = ["query", "workspace"];
    }, /new required input: calls without 'workspace'/],
    ["an existing input becoming required", (t) => void (tool(t, "search_notes").inputSchema!.required = ["query", "limit"]), /new required input: calls without 'limit'/],
    ["a nullable type narrowed", (t) => void (prop(t, "search_notes", "tag").type = "string"), /narrowed type/],
    ["number narrowed to integer", (t) => void (prop(t, "search_notes", "min_score").type = "integer"), /narrowed type/],
    ["an enum losing a value", (t) => void (prop(t, "search_notes", "sort").enum = ["newest", "oldest"]), /narrowed enum/],
    ["a tighter maximum", (t) => void (prop(t, "search_notes", "limit").maximum = 10), /narrowed maximum/],
    ["a new minLength", (t) => void (prop(t, "search_notes", "query").minLength = 3), /narrowed minLength/],
    ["a new pattern", (t) => void (prop(t, "search_notes", "query").pattern = "^[a-z]+$"), /narrowed pattern/],
    ["an input property removed", (t) => void delete (tool(t, "search_notes").inputSchema!.properties as Record<string, unknown>).tag, /input property removed/],
    ["an output field removed", (t) => void delete (tool(t, "search_notes").outputSchema!.properties as Record<string, unknown>).total, /output field removed/],
    ["an output type widened", (t) => void ((tool(t, "search_notes").outputSchema!.properties as Record<string, Record<string, unknown>>).total.type = "number"), /widened type/],
    ["a new host", (t) => void (effects(t, "search_notes").hosts = ["api.other.example"]), /new host is contacted \(api\.other\.example\)/],
    ["a new command", (t) => void (effects(t, "read_note").commands = ["less"]), /new command is run \(less\)/],
    ["a new environment variable", (t) => void (effects(t, "read_note").env = ["HOME", "PATH"]), /new environment variable is read \(HOME\)/],
    ["a new secret", (t) => {
      const e = effects(t, "search_notes");
      e.secrets = ["NOTES_ADMIN_TOKEN", "NOTES_TOKEN"];
      e.env = ["NOTES_ADMIN_TOKEN", "NOTES_TOKEN"];
    }, /new secret is read \(NOTES_ADMIN_TOKEN\)/],
    ["a new path root", (t) => void (effects(t, "read_note").pathRoots = ["/", "notes"]), /new path root \//],
    ["a denied path allowed again", (t) => void (effects(t, "read_note").pathDenied = []), /no longer denied \.git/],
    ["readOnlyHint true -> false", (t) => void (tool(t, "read_note").annotations.readOnlyHint = false), /readOnlyHint true -> false/],
    ["destructiveHint false -> true", (t) => void (tool(t, "read_note").annotations.destructiveHint = true), /destructiveHint false -> true/],
    ["openWorldHint false -> true", (t) => void (tool(t, "read_note").annotations.openWorldHint = true), /openWorldHint false -> true/],
    ["a shell", (t) => void (effects(t, "export_notes").shell = true), /now runs a shell/],
    ["a tool that now changes things", (t) => {
      const e = effects(t, "search_notes");
      delete e.readsOnly;
      e.changes = "sends POST";
    }, /now sends POST/],
  ];
  for (const [name, edit, why] of cases) {
    it(`flags ${name} as breaking`, () => {
      const found = breaking(...variant(edit));
      expect(found.length, JSON.stringify(found)).toBeGreaterThan(0);
      expect(found.map((c) => c.breaking).join("\n")).toMatch(why);
    });
  }

  const harmless: [string, (t: ManifestTool[]) => void][] = [
    ["a new optional input", (t) => void ((tool(t, "search_notes").inputSchema!.properties as Record<string, unknown>).page = { type: "integer" })],
    ["a wider input type", (t) => void (prop(t, "search_notes", "limit").type = "number")],
    ["a looser maximum", (t) => void (prop(t, "search_notes", "limit").maximum = 500)],
    ["an enum gaining a value", (t) => void (prop(t, "search_notes", "sort").enum = ["newest", "oldest", "relevance", "title"])],
    ["a changed description", (t) => void (tool(t, "read_note").description = "Print one note file. Use it after search_notes.")],
    ["readOnlyHint false -> true", (t) => void (tool(t, "delete_note").annotations.readOnlyHint = true)],
    ["a command no longer run", (t) => void (effects(t, "delete_note").commands = ["cat"])],
    ["a kind fact changed", (t) => void (tool(t, "read_note").facts!.cwd = "notes")],
  ];
  for (const [name, edit] of harmless) {
    it(`does not flag ${name}`, () => {
      const [a, b] = variant(edit);
      expect(changelog(a, b).changes.length).toBeGreaterThan(0);
      expect(breaking(a, b)).toEqual([]);
    });
  }
});

describe("kervan changelog", () => {
  it("exits 1 on breaking changes and prints the changelog", () => {
    const r = kervan("changelog", `${DIR}/old.json`, `${DIR}/new.json`);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe(readFileSync(`${DIR}/expected.txt`, "utf8"));
  });

  it("exits 0 without breaking changes", () => {
    const r = kervan("changelog", `${DIR}/old.json`, `${DIR}/old.json`);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("No changes.");
  });

  it("reads two git revisions of out/", () => {
    const r = kervan("changelog", "HEAD", "HEAD", "--server", "repo-explorer");
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^# repo-explorer /);
  });

  it("exits 2 on usage errors", () => {
    expect(kervan("changelog", `${DIR}/old.json`).status).toBe(2);
    expect(kervan("changelog", "HEAD", "HEAD").status).toBe(2); // a revision needs --server
    const r = kervan("changelog", "no-such-revision", "HEAD", "--server", "repo-explorer");
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/cannot read .*no-such-revision/);
  });

  it("flags removing a confirmation, adding one and requiring tasks as breaking; rewording or optional tasks are not", () => {
    const a = read("old.json");
    tool(a.tools, "delete_note").confirm = { message: "Delete note {id}?" };
    const why = (edit: (t: ManifestTool) => void) => {
      const b = structuredClone(a);
      edit(tool(b.tools, "delete_note"));
      return changelog(a, b).changes.filter((c) => c.tool === "delete_note").map((c) => `${c.path.join(" ")}: ${c.breaking ?? "not breaking"}`);
    };
    expect(why((t) => delete t.confirm)).toEqual(["Confirmation: confirmation removed: the tool now runs without asking the user"]);
    expect(why((t) => void (t.confirm = { message: "Really delete note {id}?" }))).toEqual(["Confirmation: not breaking"]);
    expect(why((t) => void (t.confirm = { message: "Delete note {id}?", fields: ["id"] }))).toEqual(["Confirmation fields: not breaking"]);
    expect(why((t) => void (t.task = "optional"))).toEqual(["Task: not breaking"]);
    expect(why((t) => void (t.task = "required"))).toEqual(["Task: tasks now required: clients without the tasks extension are refused (-32021)"]);
    const [plain, asking] = variant((t) => void (tool(t, "delete_note").confirm = { message: "Delete?" }));
    expect(breaking(plain, asking).map((c) => c.breaking)).toEqual(["confirmation added: clients that cannot show one (no elicitation) can no longer call it"]);
  });

  it("flags a newly asked input as breaking; rewording or removing a question is not", () => {
    const a = read("old.json");
    const note = { field: "reason", message: "Why delete it?", schema: { type: "string" } };
    const why = (from: ManifestTool["ask"], to: ManifestTool["ask"]) => {
      const [x, y] = [structuredClone(a), structuredClone(a)];
      tool(x.tools, "delete_note").ask = from;
      tool(y.tools, "delete_note").ask = to;
      return changelog(x, y).changes.filter((c) => c.tool === "delete_note").map((c) => `${c.path.join(" ")}: ${c.breaking ?? "not breaking"}`);
    };
    expect(why(undefined, [note])).toEqual(["Asks for reason: asks for reason now: callers that leave it out from clients without elicitation are refused"]);
    expect(why([note], [{ ...note, message: "Why delete this note?" }])).toEqual(["Asks for reason: not breaking"]);
    expect(why([note], undefined)).toEqual(["Asks for reason: not breaking"]);
    expect(why([note], [note])).toEqual([]);
    // Asked from the client: a new needed input, or one now asked through another capability, is breaking; an optional one is not.
    const sampled = { ...note, from: "sampling" as const, message: "Suggest a reason." };
    expect(why(undefined, [sampled])).toEqual(["Asks for reason: asks for reason now: callers that leave it out from clients without sampling are refused"]);
    expect(why(undefined, [{ ...sampled, optional: true }])).toEqual(["Asks for reason: not breaking"]);
    expect(why([note], [sampled])).toEqual(["Asks for reason: asks for reason through sampling now: callers that leave it out from clients without sampling are refused"]);
    expect(why([{ ...sampled, optional: true }], [sampled])).toEqual(["Asks for reason: asks for reason from every client now: callers that leave it out from clients without sampling are refused"]);
    expect(why([sampled], [{ ...sampled, optional: true }])).toEqual(["Asks for reason: not breaking"]);
  });
});
