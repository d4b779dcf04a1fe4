// Description rules: present (KV601), not a restatement of the name (KV602), purpose first
// (KV603), and some guidance on when to use the tool (KV604). TDQS weighs purpose clarity and
// usage guidelines highest because they decide which tool an agent selects.
import type { LintTool, ToolRule } from "../types.js";
import { FILLER, words } from "../words.js";

const given = (t: LintTool) => (t.description !== undefined && t.description.trim() ? t.description.trim() : undefined);

function tautological(t: LintTool): boolean {
  const d = given(t);
  if (!d) return false;
  const bare = d.toLowerCase().replace(/[.!\s]+$/, "");
  if (bare === t.name.toLowerCase() || (t.title && bare === t.title.toLowerCase())) return true;
  const own = new Set([...words(t.name), ...words(t.title ?? "")]);
  const content = words(d).filter((w) => !FILLER.has(w));
  return content.every((w) => own.has(w) || own.has(w.replace(/s$/, "")) || own.has(`${w}s`));
}

// Openings that are not a verb phrase of what the tool does.
const NOT_PURPOSE = new Set([
  "a", "an", "the", "this", "these", "that", "it", "its", "tool", "function", "helper", "wrapper", "used", "use", "uses",
  "when", "if", "for", "to", "in", "with", "note", "important", "warning", "deprecated", "you", "we", "i", "my", "our",
  "please", "call", "calls", "invoke", "allows", "lets", "can", "will", "should", "must", "here", "there",
]);

// A sentence telling the agent when, why or in which order to call the tool.
const USAGE = [
  /\buse\b[^.;:]*?\b(when|to|before|after|first|instead|while|only|if|for|on|once)\b/i,
  /\b(call|run|invoke) (it|this)\b[^.;:]*?\b(when|before|after|first|instead|while|only|if|to)\b/i,
  /\b(instead of|rather than|only when|do not use|don't use|not for|prefer)\b/i,
  /\bwhen (you|the user|an agent|the model)\b/i,
];

export const descriptionRules: ToolRule[] = [
  {
    code: "KV601",
    summary: "every tool has a description",
    tool(t, _s, report) {
      if (t.builtin || given(t)) return;
      report(`tool '${t.name}' has no description; an agent chooses tools by their descriptions`, `${t.pointer}/name`, {
        suggestion: "add `description:` saying what the tool does, then when to use it",
      });
    },
  },
  {
    code: "KV602",
    summary: "the description says more than the name",
    tool(t, _s, report) {
      if (t.builtin || !tautological(t)) return;
      report(`the description of '${t.name}' only restates its name or title`, `${t.pointer}/description`, {
        suggestion: "say what it does to what, what it returns, and when to use it",
      });
    },
  },
  {
    code: "KV603",
    summary: "the description opens with what the tool does (a verb phrase)",
    tool(t, _s, report) {
      const d = given(t);
      if (t.builtin || !d || tautological(t)) return;
      const first = words(d.split(/\s+/)[0] ?? "")[0];
      if (/^[A-Za-z]/.test(d) && first && !NOT_PURPOSE.has(first)) return;
      report(`the description of '${t.name}' should open with what the tool does, not ${JSON.stringify(d.split(/\s+/).slice(0, 3).join(" "))}`, `${t.pointer}/description`, {
        suggestion: "start with a verb and the thing it acts on, e.g. \"List the open issues of a repository\"",
      });
    },
  },
  {
    code: "KV604",
    summary: "the description says when to use the tool",
    tool(t, _s, report) {
      const d = given(t);
      if (t.builtin || !d || tautological(t) || USAGE.some((r) => r.test(d))) return;
      report(`the description of '${t.name}' gives no usage guidance`, `${t.pointer}/description`, {
        suggestion: "add a sentence such as \"Use it when/before/after ...\" or name the sibling to use instead",
      });
    },
  },
];
