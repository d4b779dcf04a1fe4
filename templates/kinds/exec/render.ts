// Call-time argument binding: each template renders to exactly one argv item, never more or fewer.
// The input validator normally rejects bad arguments first; these checks keep the runtime safe on
// its own (the CLI form, a hand-written config, a validator bug).
import { quoteValue } from "../../runtime/clip.js";
import { isGroup, type ArgEntry, type ArgPart, type FieldType } from "./config.js";

export class ArgumentError extends Error {}

// Lone surrogates cannot be encoded as UTF-8: spawn would silently turn them into U+FFFD, so the
// program would receive a different value than the caller sent.
const LONE_SURROGATE = /\p{Surrogate}/u;

/** One field's value as argument text; throws ArgumentError naming the field. */
export function renderValue(name: string, type: FieldType, value: unknown): string {
  const wrong = (): never => {
    throw new ArgumentError(`field "${name}" must be a JSON ${type}, got ${quoteValue(value)}`);
  };
  switch (type) {
    case "string":
      if (typeof value !== "string") wrong();
      // The OS would end the argument at the NUL; refuse rather than run with a shorter value.
      if ((value as string).includes("\0")) throw new ArgumentError(`field "${name}" contains a NUL byte, which no argument can carry`);
      if (LONE_SURROGATE.test(value as string)) {
        throw new ArgumentError(`field "${name}" contains an unpaired UTF-16 surrogate, which no argument can carry`);
      }
      return value as string;
    case "boolean":
      if (typeof value !== "boolean") wrong();
      return value ? "true" : "false";
    case "integer":
      if (typeof value !== "number" || !Number.isInteger(value)) wrong();
      // Past 2^53 JSON parsing has already changed the digits; running with a different number
      // than the caller wrote would be silent corruption.
      if (!Number.isSafeInteger(value)) {
        throw new ArgumentError(`field "${name}" is outside the exactly representable integers (±9007199254740991)`);
      }
      return JSON.stringify(value); // -0 -> "0"
    case "number":
      if (typeof value !== "number" || !Number.isFinite(value)) wrong();
      // Shortest round-trip form: 1.0 -> "1", 1e2 -> "100", -0 -> "0", 1e21 -> "1e+21".
      return JSON.stringify(value);
  }
}

/** Renders argv[1..] from the arguments; argv[0] is the literal command. */
export function renderArgv(
  argv: ArgEntry[],
  fields: Record<string, FieldType>,
  args: Record<string, unknown>,
  optional: readonly string[] = [],
): { command: string; args: string[]; values: Map<string, string> } {
  if (args === null || typeof args !== "object" || Array.isArray(args)) {
    throw new ArgumentError("arguments must be a JSON object");
  }
  for (const key of Object.keys(args)) {
    if (!Object.hasOwn(fields, key)) throw new ArgumentError(`field "${key}" is not declared by this tool`);
  }
  // Only the values present: an absent optional field renders nothing and is checked by nothing.
  const values = new Map<string, string>();
  for (const [name, type] of Object.entries(fields)) {
    if (!Object.hasOwn(args, name)) {
      if (optional.includes(name)) continue;
      throw new ArgumentError(`field "${name}" is required`);
    }
    values.set(name, renderValue(name, type, args[name]));
  }
  const render = (parts: ArgPart[], index: number) => {
    let text = "";
    for (const part of parts) text += typeof part === "string" ? part : values.get(part.field)!;
    // Values were checked above; only literal template text can still carry a NUL here.
    if (text.includes("\0")) throw new ArgumentError(`argument ${index} of the template contains a NUL byte`);
    return text;
  };
  const rendered: string[] = [];
  argv.forEach((entry, index) => {
    if (!isGroup(entry)) return void rendered.push(render(entry, index));
    const v = values.get(entry.if);
    // A boolean adds its fixed arguments only when true; an optional scalar only when present.
    if (v === undefined || (fields[entry.if] === "boolean" && v !== "true")) return;
    for (const parts of entry.argv) rendered.push(render(parts, index));
  });
  return { command: rendered[0], args: rendered.slice(1), values };
}
