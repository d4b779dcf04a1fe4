// A constant of the process computed on first use: a value that depends only on what a process
// cannot change (the installed packages, the generator's own files), such as the spec schema's
// compiled validator or the WordNet database. A module keeps one as `const x = once(() => ...)`,
// never in a module-level `let`; it is computed at most once (a failed computation is tried again
// on the next call). A build's state is no such constant: it lives in its Build (build.ts).
export function once<T>(compute: () => T): () => T {
  let computed: { value: T } | undefined;
  return () => (computed ??= { value: compute() }).value;
}
