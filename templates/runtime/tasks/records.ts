// Record arithmetic shared by the in-process stores (memory and file): patches, answers, expiry.
import { isTerminal, type TaskPatch, type TaskRecord } from "./types.js";

export function nowIso(): string {
  return new Date().toISOString();
}

/** The patched record, or undefined when the record is terminal (terminal states are final). */
export function applyPatch(record: TaskRecord, patch: TaskPatch, at: string): TaskRecord | undefined {
  if (isTerminal(record.status)) return undefined;
  const next: TaskRecord = { ...record, lastUpdatedAt: at };
  if (patch.status !== undefined) next.status = patch.status;
  if (patch.statusMessage !== undefined) next.statusMessage = patch.statusMessage;
  if (patch.inputRequests !== undefined) {
    if (Object.keys(patch.inputRequests).length === 0) delete next.inputRequests;
    else next.inputRequests = { ...patch.inputRequests };
  }
  if (patch.result !== undefined) next.result = patch.result;
  if (patch.error !== undefined) next.error = patch.error;
  if (isTerminal(next.status)) delete next.inputRequests;
  return next;
}

/** Moves answers for outstanding keys from inputRequests to inputResponses. */
export function applyAnswers(record: TaskRecord, responses: Record<string, unknown>, at: string): { record: TaskRecord; taken: string[] } {
  if (isTerminal(record.status) || !record.inputRequests) return { record, taken: [] };
  const pending = { ...record.inputRequests };
  const answered = { ...(record.inputResponses ?? {}) };
  const taken: string[] = [];
  for (const [key, value] of Object.entries(responses)) {
    if (!Object.hasOwn(pending, key)) continue;
    delete pending[key];
    answered[key] = value;
    taken.push(key);
  }
  if (taken.length === 0) return { record, taken };
  const next: TaskRecord = { ...record, lastUpdatedAt: at, inputResponses: answered };
  if (Object.keys(pending).length === 0) {
    delete next.inputRequests;
    next.status = "working";
  } else next.inputRequests = pending;
  return { record: next, taken };
}

export function withoutResponses(record: TaskRecord): TaskRecord {
  const next = { ...record };
  delete next.inputResponses;
  return next;
}
