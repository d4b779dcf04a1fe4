// Content hashes: every input, output and cache key in the generator is a sha256 of bytes.
import { createHash } from "node:crypto";

export function sha256(text: string | Buffer): string {
  return createHash("sha256").update(text).digest("hex");
}
