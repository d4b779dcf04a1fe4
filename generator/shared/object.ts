// The one test for a JSON object: not null, not an array.
import type { Json } from "../../templates/runtime/types.js";

export function isObject<T = Json>(v: unknown): v is Record<string, T> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Plain data as Json: the same keys in the same order, undefined members left out (as JSON.stringify does). */
export function toJson(v: unknown): Json {
  if (v === null || typeof v === "boolean" || typeof v === "number" || typeof v === "string") return v;
  if (Array.isArray(v)) return v.map((x) => (x === undefined ? null : toJson(x)));
  if (isObject<unknown>(v)) return Object.fromEntries(Object.entries(v).flatMap(([k, x]) => (x === undefined ? [] : [[k, toJson(x)]])));
  throw new TypeError(`not plain data: ${typeof v}`);
}

/** A value's strings, when it is a list (others left out); undefined otherwise. */
export function stringsOf(v: unknown): string[] | undefined {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : undefined;
}

/** A mapping's string members (others left out); empty when it is no mapping. */
export function stringRecord(v: unknown): Record<string, string> {
  if (!isObject<unknown>(v)) return {};
  return Object.fromEntries(Object.entries(v).filter((e): e is [string, string] => typeof e[1] === "string"));
}

/** An error's message, whatever was thrown. */
export const messageOf = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/** A thrown error's `code` (a Node system error's), when it has one. */
export const errorCode = (e: unknown): string | undefined => (isObject<unknown>(e) && typeof e.code === "string" ? e.code : undefined);

/** A copy of a plain-data object as a Json object (toJson); throws when it is no object. */
export function jsonObject(v: unknown): Record<string, Json> {
  const json = toJson(v);
  if (!isObject(json)) throw new TypeError("not a plain-data object");
  return json;
}
