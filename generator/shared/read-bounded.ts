// Every file the generator reads on a spec's behalf goes through here: regular files only (a device
// or FIFO such as /dev/zero would read forever or block), and never more than a stated size.
import { closeSync, constants, fstatSync, openSync, readSync, statSync, type Stats } from "node:fs";

export const READ_LIMITS = {
  /** A spec file: a 1,000-tool spec is well under 1 MiB. */
  specBytes: 4 * 1024 * 1024,
  /** An `@file` schema: the schema itself is capped at 64 KiB of JSON (KV507); this leaves room for comments. */
  schemaFileBytes: 1024 * 1024,
  /** An image a prompt message carries (`image: "@file"`): it travels base64 in every prompts/get. */
  imageFileBytes: 1024 * 1024,
  /** A static resource's file (`resources: - file:`): it travels in every resources/read. */
  resourceFileBytes: 1024 * 1024,
};

/** Why a file was not read, as a sentence fragment: "is a FIFO, not a regular file". */
export class ReadRefused extends Error {}

function kindOf(stat: Stats): string {
  if (stat.isDirectory()) return "a folder";
  if (stat.isFIFO()) return "a FIFO";
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return "a device";
  if (stat.isSocket()) return "a socket";
  return "not a regular file";
}

export const sizeText = (bytes: number) => (bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : bytes % 1024 === 0 ? `${bytes / 1024} KiB` : `${bytes} bytes`);

/** readRegularBytes as UTF-8 text. */
export function readRegularFile(path: string, maxBytes: number): string {
  return readRegularBytes(path, maxBytes).toString("utf8");
}

/**
 * Reads a regular file of at most maxBytes. Throws ReadRefused for anything else, and the
 * fs error (ENOENT, EACCES) when the file cannot be opened.
 */
export function readRegularBytes(path: string, maxBytes: number): Buffer {
  const before = statSync(path);
  if (!before.isFile()) throw new ReadRefused(`is ${kindOf(before)}, not a regular file`);
  if (before.size > maxBytes) throw new ReadRefused(`is ${before.size} bytes; the limit is ${sizeText(maxBytes)}`);
  // Non-blocking, and checked again on the open descriptor: the path may have changed since the stat.
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    if (!fstatSync(fd).isFile()) throw new ReadRefused("is not a regular file");
    let buffer = Buffer.alloc(Math.min(maxBytes + 1, before.size + 1));
    let length = 0;
    for (;;) {
      if (length === buffer.length) {
        if (length > maxBytes) throw new ReadRefused(`grew past the limit of ${sizeText(maxBytes)} while being read`);
        buffer = Buffer.concat([buffer, Buffer.alloc(Math.min(maxBytes + 1, length * 2) - length)]);
      }
      const n = readSync(fd, buffer, length, buffer.length - length, null);
      if (n === 0) break;
      length += n;
    }
    return buffer.subarray(0, length);
  } finally {
    closeSync(fd);
  }
}
