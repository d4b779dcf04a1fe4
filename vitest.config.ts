import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: "forks",
    // Two test files at a time, whatever the core count (vitest's default leaves one core idle, so
    // a 2-core machine would run one file at a time): most files wait on child processes (servers,
    // sandboxes, nginx, Redis) far more than they compute.
    maxWorkers: 2,
  },
});
