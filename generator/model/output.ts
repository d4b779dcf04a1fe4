// Outputs of the emit, write and bundle stages.

export interface EmittedFile {
  /** Relative to the output root, with forward slashes. */
  path: string;
  contents: string;
}

/** A file still being emitted: its path is known now, its contents come when it is done. */
export interface LaterFile {
  path: string;
  /** Rejects as the emit fails (handled: nobody need wait for it). */
  contents: Promise<string>;
}

export interface WriteReport {
  written: string[];
  unchanged: string[];
  deleted: string[];
  /** In check mode: files whose bytes differ from what would be written (or are missing/stale). */
  differing: string[];
}

/** A package inside a bundle, as its own package.json describes it. */
export interface BundledPackage {
  version: string;
  license: string;
}

export interface BundleResult {
  server: string;
  /** Relative to the output root. */
  path: string;
  contents: string;
  /** A catalog's chunk files beside the bundle (bundle.ts), relative to the output root, sorted by path. */
  chunks?: EmittedFile[];
  /** Packages that ended up in the bundle, from its metafile: name -> version and license. */
  packages: Record<string, BundledPackage>;
}
