import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    setupFiles: ["test/helpers/hermetic-home.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: "forks",
    // The suite mostly waits (browsers, servers it starts, child processes): two files at a time even on two cores,
    // where vitest's default (one less than the cores) runs one (measured on 2 cores: 708 s → 536 s).
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
