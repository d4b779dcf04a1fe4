// Words of operations and queries, the same at build time (the index) and at run time (a query):
// identifiers split (camelCase, snake_case, kebab-case, paths), lower-cased, stop words dropped,
// Porter-stemmed, and a small general API vocabulary (abbreviations and verbs that mean the same).
import { stemmer } from "stemmer";

const STOP = new Set(
  "a an and are as am at be by can do does for from how in into is it its of on or our please that the their them this to us we what when where which who will with you your want need would like should could".split(" "),
);

/**
 * Abbreviations a user types for words an API spells out (the expansion replaces the word).
 * General to web APIs; not drawn from any test set.
 */
const ABBREVIATIONS: Record<string, string> = {
  pr: "pull request",
  prs: "pull requests",
  mr: "merge request",
  repo: "repository",
  repos: "repositories",
  org: "organization",
  orgs: "organizations",
  ci: "workflow check run",
  config: "configuration",
  env: "environment",
  envs: "environments",
  auth: "authentication",
  info: "information",
  dir: "directory",
  msg: "message",
  pkg: "package",
  app: "application",
  apps: "applications",
  id: "identifier",
  stats: "statistics",
  desc: "description",
  gh: "github",
  ssh: "ssh key",
  gpg: "gpg key",
  logged: "authenticated",
};

/**
 * Groups of words that name the same action or thing in API descriptions. A query word also finds
 * its group's other words, at a lower weight than itself.
 */
const GROUPS: string[][] = [
  ["create", "add", "new", "make", "open", "post", "submit", "register", "start", "file", "write", "insert", "generate"],
  ["delete", "remove", "destroy", "drop", "erase", "unset", "clear", "revoke", "discard"],
  ["list", "all", "show", "enumerate", "browse", "index", "every", "find"],
  ["get", "list", "read", "fetch", "show", "view", "retrieve", "see", "look", "inspect", "detail", "describe", "check"],
  ["update", "edit", "change", "modify", "set", "patch", "rename", "replace", "alter", "configure"],
  ["user", "member", "person", "account", "people", "collaborator"],
  ["comment", "reply", "note", "respond"],
  ["merge", "combine", "land"],
  ["close", "resolve", "finish", "shut"],
  ["label", "tag"],
  ["star", "favorite", "bookmark"],
  ["download", "export", "archive"],
  ["upload", "attach"],
  ["invite", "invitation"],
  ["secret", "credential", "token", "password"],
  ["run", "execute", "trigger", "dispatch", "rerun"],
  ["issue", "bug", "ticket", "problem"],
  // "my repositories", "who am I": APIs say the authenticated (or current) user.
  ["my", "me", "mine", "myself", "i", "authenticated"],
  ["release", "version", "publish"],
  ["branch", "ref"],
  ["commit", "change", "revision"],
  ["file", "content", "document"],
  ["team", "group"],
  ["organization", "company", "enterprise"],
  ["follow", "subscribe", "watch"],
  ["block", "ban"],
  ["lock", "freeze"],
  ["assign", "assignee"],
  ["review", "approve"],
];

/** The HTTP method's meaning, as words an index holds for the operation (a GET of a collection also: LIST_WORDS). */
export const METHOD_WORDS: Record<string, string> = {
  GET: "get read",
  POST: "create add",
  PUT: "update set replace",
  PATCH: "update edit change",
  DELETE: "delete remove",
};

/** What a GET of a collection (a path ending in a plural, or an operation named "list ...") means. */
export const LIST_WORDS = "list all";

/**
 * The index term of operations that answer a collection. No query word makes it (words are
 * alphanumeric); a query that asks for many things favours these operations (asksForMany).
 */
export const LIST_MARK = "#list";

/** The index term of operations that only read (GET): a question ("what ...", "is ...") favours them. */
export const READ_MARK = "#read";

/** Words a question opens with: it asks to read something, not to change it. */
const QUESTION = new Set(["what", "which", "who", "whom", "whose", "how", "when", "where", "why", "is", "are", "am", "was", "were", "does", "do", "did", "has", "have"]);

/** Whether a query is a question ("what changed ...", "has this been merged"). */
export function asksQuestion(text: string): boolean {
  return QUESTION.has(words(text)[0] ?? "");
}

/** Words that ask for many things, or which of them: "all my repos", "which teams", "who is on". */
const MANY = new Set(["all", "every", "list", "which", "what", "who", "many", "any"]);

/** Whether a query asks for many things: a word of MANY, or a plural noun ("the open issues"). */
export function asksForMany(text: string): boolean {
  return words(text).some((w) => MANY.has(w) || (w.length > 3 && /[^su]s$/.test(w) && !STOP.has(w) && stem(w) !== w));
}

const stems = new Map<string, string>();

/** The Porter stem of one lower-case word (remembered: the same words recur in every query). */
export function stem(word: string): string {
  let s = stems.get(word);
  if (s === undefined) {
    s = stemmer(word);
    if (stems.size < 50_000) stems.set(word, s);
  }
  return s;
}

const SYNONYMS: Map<string, string[]> = (() => {
  const m = new Map<string, string[]>();
  for (const group of GROUPS) {
    const stemmed = group.map(stem);
    for (const s of stemmed) m.set(s, [...new Set([...(m.get(s) ?? []), ...stemmed.filter((o) => o !== s)])]);
  }
  return m;
})();

/** Identifier and text to plain lower-case words: `listForRepo`, `pull_request`, `/repos/{owner}` split. */
export function words(text: string): string[] {
  const spaced = text
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .toLowerCase();
  return spaced.split(/[^a-z0-9]+/).filter((w) => w.length > 0);
}

/** One word of a text: its stem, and whether it is a stop word (kept for phrases such as "look for"). */
export interface Token {
  stem: string;
  stop: boolean;
}

/** Words to tokens: abbreviations expanded, stemmed, stop words marked. */
export function tokens(text: string): Token[] {
  const out: Token[] = [];
  for (const w of words(text)) {
    const expanded = ABBREVIATIONS[w];
    for (const x of expanded ? expanded.split(" ") : [w]) out.push({ stem: stem(x), stop: STOP.has(x) });
  }
  return out;
}

/** Words to index terms: abbreviations expanded, stop words dropped, stemmed. */
export function terms(text: string): string[] {
  return tokens(text)
    .filter((t) => !t.stop)
    .map((t) => t.stem);
}

/** Stems that mean what this one means (without itself). */
export function synonymsOf(term: string): readonly string[] {
  return SYNONYMS.get(term) ?? [];
}
