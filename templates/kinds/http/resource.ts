// A fetched document as an MCP embedded resource: the tool answers with what it read (a README, a
// spec page, a CSV) under its URL and media type, so a client can show, cache or attach it as a
// document instead of as loose text. Text is redacted like every answer; binary data cannot be
// rewritten, so binary holding a secret is refused by the caller.
import type { ContentBlock } from "../../runtime/types.js";

const TEXTUAL = /^(text\/|application\/(json|xml|yaml|x-yaml|javascript|ecmascript|x-ndjson|csv)|[a-z]+\/[a-z0-9.+-]+\+(json|xml)$)/;

/** The bare media type, lower-case; text/plain when the upstream named none. */
export function bareType(contentType: string | null): string {
  const m = /^\s*([a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+)/i.exec(contentType ?? "");
  return m ? m[1]!.toLowerCase() : "text/plain";
}

export const isTextual = (mimeType: string) => TEXTUAL.test(mimeType);

export function resourceBlock(uri: string, mimeType: string, content: { text: string } | { bytes: Uint8Array }): ContentBlock {
  const resource: Record<string, string> = { uri, mimeType };
  if ("text" in content) resource.text = content.text;
  else resource.blob = Buffer.from(content.bytes.buffer, content.bytes.byteOffset, content.bytes.byteLength).toString("base64");
  return { type: "resource", resource };
}

/** A resource link to a fetched URL: named after its last path segment (else its host), with media type and size. */
export function linkBlock(url: URL, mimeType: string, size: number): ContentBlock & { mimeType: string; size: number } {
  const last = url.pathname.split("/").filter((p) => p !== "").pop();
  let name = url.host;
  if (last !== undefined) {
    try {
      name = decodeURIComponent(last);
    } catch {
      name = last;
    }
  }
  return { type: "resource_link", uri: url.href, name, mimeType, size };
}
