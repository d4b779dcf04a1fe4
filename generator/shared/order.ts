// One ordering for everything the generator sorts, so output never depends on the locale.

/** Compares by UTF-16 code units (what `<` does on strings). */
export const byCodeUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Distinct strings in code-unit order. */
export const sortedUnique = (xs: Iterable<string>): string[] => [...new Set(xs)].sort(byCodeUnit);
