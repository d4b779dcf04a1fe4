// Binary media from a raw http tool. An image/* or audio/* answer (a chart PNG, a synthesized WAV)
// is useless as UTF-8 text, so it becomes an MCP image or audio content block: base64 data plus
// its media type. Redaction cannot rewrite binary data, so a body holding a secret is refused.
import type { ContentBlock } from "../../runtime/types.js";

export interface Media {
  type: "image" | "audio";
  /** The bare media type, lower-case, parameters dropped. */
  mimeType: string;
}

/** The media a content-type names, when it is image/* or audio/*; a malformed type is not media. */
export function mediaOf(contentType: string | null): Media | undefined {
  const m = /^\s*(image|audio)\/([a-z0-9][a-z0-9!#$&^_.+-]{0,126})\s*(?:;|$)/i.exec(contentType ?? "");
  if (!m) return undefined;
  const type = m[1]!.toLowerCase() as Media["type"];
  return { type, mimeType: `${type}/${m[2]!.toLowerCase()}` };
}

export function mediaBlock(media: Media, bytes: Uint8Array): ContentBlock {
  const data = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64");
  return { type: media.type, data, mimeType: media.mimeType };
}
