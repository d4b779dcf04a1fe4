// `npm run catalog-scale`: GitHub's whole REST description imported as a catalog, built and served,
// and its issues and pulls imported with and without the $defs hoisting, built and compared
// (about two minutes of import and gen on two cores, so not part of `npm test`; .ci/run runs it bounded).
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/catalog/scale/*.scale.ts"],
    testTimeout: 60_000,
    hookTimeout: 600_000,
    pool: "forks",
  },
});
