// The changelog's prompt rules: a prompt removed, an argument removed or made required and a new
// question are breaking; a prompt added, an optional argument added, and changed text are listed
// without being breaking. Also AUDIT.md's prompts section, from a manifest's data alone.
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { changelog } from "../../generator/audit/changelog.js";
import { renderAudit } from "../../generator/audit/render.js";
import type { Manifest, ManifestPrompt } from "../../generator/audit/types.js";

const base = (): Manifest => JSON.parse(readFileSync("test/fixtures/changelog/old.json", "utf8"));
const review: ManifestPrompt = {
  name: "review_file",
  description: "Review one file.",
  arguments: [
    { name: "path", required: true },
    { name: "focus", required: false },
  ],
  messages: [{ role: "user", content: { type: "text", text: "Review {path}; focus {focus}." } }],
};

function entries(from: ManifestPrompt[] | undefined, to: ManifestPrompt[] | undefined): string[] {
  const [a, b] = [base(), base()];
  if (from) a.prompts = from;
  if (to) b.prompts = to;
  return changelog(a, b).changes.filter((c) => c.path[0].startsWith("Prompt")).map((c) => `${c.change} ${c.path.join(" / ")}: ${c.breaking ?? "not breaking"}`);
}

const edited = (edit: (p: ManifestPrompt) => void): ManifestPrompt => {
  const p = structuredClone(review);
  edit(p);
  return p;
};

describe("changelog of prompts", () => {
  it("flags a removed prompt as breaking and lists an added one", () => {
    expect(entries([review], undefined)).toEqual(["removed Prompt review_file: prompt removed: clients getting it fail"]);
    expect(entries(undefined, [review])).toEqual(["added Prompt review_file: not breaking"]);
    expect(entries([review], [review])).toEqual([]);
  });

  it("flags an argument made required or removed as breaking; an optional one added is not", () => {
    expect(entries([review], [edited((p) => void (p.arguments[1].required = true))])).toEqual(["changed Prompt review_file / Arguments / focus: argument focus is now required: clients that leave it out are refused"]);
    expect(entries([review], [edited((p) => void p.arguments.push({ name: "tone", required: true }))])).toEqual(["added Prompt review_file / Arguments / tone: argument tone is now required: clients that leave it out are refused"]);
    expect(entries([review], [edited((p) => void p.arguments.splice(1, 1))])).toEqual(["removed Prompt review_file / Arguments / focus: argument focus removed: clients that pass it are refused"]);
    expect(entries([review], [edited((p) => void p.arguments.push({ name: "tone", required: false }))])).toEqual(["added Prompt review_file / Arguments / tone: not breaking"]);
    expect(entries([review], [edited((p) => void (p.arguments[0].required = false))])).toEqual(["changed Prompt review_file / Arguments / path: not breaking"]);
  });

  it("flags a new question as breaking; changed text and description are listed", () => {
    expect(entries([review], [edited((p) => void (p.ask = [{ field: "focus", message: "Focus on what?" }]))])).toEqual(["added Prompt review_file / Asks for / focus: asks for focus now: clients without elicitation that leave it out are refused"]);
    expect(entries([review], [edited((p) => void ((p.messages[0].content as { text: string }).text = "Read {path}."))])).toEqual(["changed Prompt review_file / Messages: not breaking"]);
    expect(entries([review], [edited((p) => void (p.description = "Review a file."))])).toEqual(["changed Prompt review_file / Description: not breaking"]);
  });
});

describe("AUDIT.md prompts", () => {
  it("counts the prompts and lists each with its arguments, questions and messages", () => {
    const m = base();
    m.prompts = [
      edited((p) => {
        p.ask = [{ field: "focus", message: "Focus on what?", inputKey: "f" }];
        p.messages.push({ role: "user", content: { type: "image", mimeType: "image/png", bytes: 70, sha256: "c414cd0e" } });
      }),
    ];
    const text = renderAudit(m, "specs/x.yaml");
    expect(text).toContain("| Prompts | 1: `review_file` |");
    expect(text).toContain("## Prompts");
    expect(text).toContain("- Arguments: `path` (required), `focus`");
    expect(text).toContain("- Asks the user for `focus` (input request id `f`) when the caller leaves it out: `Focus on what?`; a decline renders nothing");
    expect(text).toContain("- Message 1 (user): text `Review {path}; focus {focus}.`");
    expect(text).toContain("- Message 2 (user): image image/png, 70 bytes, sha256 `c414cd0e`");
    expect(renderAudit(base(), "specs/x.yaml")).not.toContain("Prompts");
  });
});
