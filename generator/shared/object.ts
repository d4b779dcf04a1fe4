// The one test for a JSON object: not null, not an array.
import type { Json } from "../../templates/runtime/types.js";

export function isObject<T = Json>(v: unknown): v is Record<string, T> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
