// The shape every fuzz property has, shared by the bounded runs in `npm test` (fuzz.test.ts) and the
// long runs of `npm run fuzz` (run.ts). A property lives in properties/<name>.ts and exports
// `property`; both runners pick up every file there, so adding a property is adding one file.
import type { Arbitrary } from "fast-check";

/** What went wrong, as the fuzz report counts it. */
export type FailureKind = "crash" | "hang" | "internal" | "malformed";

/** Thrown by a check when the property does not hold. */
export class FuzzFailure extends Error {
  constructor(
    readonly kind: FailureKind,
    message: string,
  ) {
    super(`${kind}: ${message}`);
    this.name = "FuzzFailure";
  }
}

export interface FuzzProperty<T = unknown, C = unknown> {
  name: string;
  /** The seed `npm test` runs with: the same inputs every time. */
  seed: number;
  /** Inputs per bounded run in `npm test` (also bounded by `testMs`). */
  numRuns: number;
  /** Time limit of the bounded run in `npm test`. */
  testMs: number;
  arbitrary: Arbitrary<T>;
  /** Starts what the property runs against (a server process, a handler), once per run. */
  setup(): Promise<C>;
  /** Resolves when the property holds for `value`; throws a FuzzFailure (or anything: a crash) otherwise. */
  check(ctx: C, value: T): Promise<void>;
  teardown(ctx: C): Promise<void>;
  /** Processes whose memory the long runner samples (server children). */
  pids?(ctx: C): number[];
}

/** Rejects with a hang failure when `promise` takes longer than `ms` (the limit is a hang detector, not a margin). */
export function withinOrHang<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hang = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new FuzzFailure("hang", `${what}: no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, hang]).finally(() => clearTimeout(timer));
}

/** Checks one JSON-RPC 2.0 response message; returns its id. */
/** Checks one answer's shape; returns its id, undefined for an error to a message whose id could not be read. */
export function wellFormedResponse(msg: unknown, where: string): string | number | undefined {
  const m = msg as Record<string, unknown>;
  const fail = (why: string) => {
    throw new FuzzFailure("malformed", `${where}: ${why}: ${JSON.stringify(msg).slice(0, 300)}`);
  };
  if (typeof m !== "object" || m === null || Array.isArray(m)) fail("not an object");
  if (m.jsonrpc !== "2.0") fail('jsonrpc is not "2.0"');
  // MCP ids are never null; only an error to a message whose id could not be read has none.
  if (!("id" in m) && !("error" in m)) fail("a result with no id");
  const id = m.id;
  if ("id" in m && !(typeof id === "string" || typeof id === "number")) fail("id is not a string or a number");
  if ("result" in m === "error" in m) fail("needs exactly one of result and error");
  if ("error" in m) {
    const e = m.error as Record<string, unknown>;
    if (typeof e !== "object" || e === null || !Number.isInteger(e.code) || typeof e.message !== "string") fail("malformed error object");
    if (e.code === -32603) throw new FuzzFailure("internal", `${where}: internal error answered: ${JSON.stringify(msg).slice(0, 300)}`);
  } else if (typeof m.result !== "object" || m.result === null) fail("result is not an object");
  return id as string | number | undefined;
}

/** A tools/call result that shows a handler fault rather than an answer or a readable refusal. */
export function internalToolText(msg: Record<string, unknown>): string | undefined {
  const result = msg.result as { isError?: boolean; content?: { text?: string }[] } | undefined;
  if (!result?.isError) return undefined;
  const text = result.content?.[0]?.text ?? "";
  return /^Tool "[^"]+" (failed|returned no outcome|produced a result that could not be serialized|produced no structured value)/.test(text) ? text : undefined;
}
