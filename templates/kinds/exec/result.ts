// Turns a run into the tool's outcome: the structured value (EXEC_OUTPUT_SCHEMA) and a readable
// summary for content[0]. Every outcome, refusals included, carries a value that fits the schema,
// so a client that reads only structuredContent still sees why a call failed.
import type { ToolOutcome } from "../../runtime/types.js";
import type { RunResult } from "./spawn.js";

export interface ExecValue {
  [key: string]: number | string | boolean | null;
  exitCode: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  stdoutTruncated: boolean;
  stderrTruncated: boolean;
}

/** A call refused before anything ran: the reason travels as stderr, as the reference server does. */
export function refusal(tool: string, reason: string, timedOut = false): ToolOutcome {
  const value: ExecValue = {
    exitCode: null,
    stdout: "",
    stderr: reason,
    timedOut,
    stdoutTruncated: false,
    stderrTruncated: false,
  };
  return { isError: true, text: `${tool}: ${reason}`, value };
}

function section(name: string, text: string, truncated: boolean, maxBytes: number): string {
  const note = truncated ? ` (truncated: only the first ${maxBytes} bytes were kept)` : "";
  if (text === "") return `--- ${name}${note}: (empty) ---`;
  return `--- ${name}${note} ---\n${text.endsWith("\n") ? text.slice(0, -1) : text}`;
}

export function outcome(command: string, r: RunResult, timeoutMs: number, maxBytes: number, okExitCodes: readonly number[] = [0]): ToolOutcome {
  const value: ExecValue = {
    exitCode: r.exitCode,
    stdout: r.stdout,
    stderr: r.spawnError ?? r.stderr,
    timedOut: r.timedOut,
    stdoutTruncated: r.stdoutTruncated,
    stderrTruncated: r.stderrTruncated,
  };
  let status: string;
  if (r.spawnError) status = r.spawnError;
  else if (r.timedOut) status = `${command} timed out after ${timeoutMs} ms; its process group was killed`;
  else if (r.cancelled) status = `${command} was cancelled; its process group was killed`;
  else if (r.exitSignal) status = `${command} was killed by ${r.exitSignal}`;
  else status = `${command} exited with code ${r.exitCode}`;
  const isError = r.exitCode === null || !okExitCodes.includes(r.exitCode) || r.timedOut || r.cancelled || r.spawnError !== undefined;
  const text = r.spawnError
    ? status
    : [status, section("stdout", r.stdout, r.stdoutTruncated, maxBytes), section("stderr", r.stderr, r.stderrTruncated, maxBytes)].join("\n");
  return isError ? { isError, text, value } : { text, value };
}

/**
 * For a tool whose stdout is an image or audio (`stdoutMedia`): a successful run returns its bytes
 * as one base64 image/audio block after the summary, and the structured value's stdout is empty
 * (bytes are not text). Output past maxOutputBytes is a tool error: a cut image is not an image.
 * A failed run is returned as any other, its stdout as text.
 */
export function mediaOutcome(done: ToolOutcome, r: RunResult, mimeType: string, maxBytes: number): ToolOutcome {
  if (done.isError) return done;
  const value = { ...(done.value as ExecValue), stdout: "" };
  const type = mimeType.startsWith("audio/") ? "audio" : "image";
  if (r.stdoutTruncated) {
    return { isError: true, text: `the command wrote more than ${maxBytes} bytes (maxOutputBytes) of ${mimeType}; a cut ${type} is not one, so nothing is returned`, value };
  }
  const status = `${(done.text ?? "").split("\n")[0]}; stdout: ${r.stdoutBytes.length} bytes of ${mimeType}, returned as an ${type} block`;
  const text = [status, section("stderr", r.stderr, r.stderrTruncated, maxBytes)].join("\n");
  return { text, value, content: [{ type, data: r.stdoutBytes.toString("base64"), mimeType }] };
}
